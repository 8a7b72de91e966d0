"""warnscope installed from its wheel by a normal user, without Debian's tools.

The second way in (docs/install.md): a wheel, built here on a PATH without any compiler
(as on a machine without GCC), installed into a fresh virtualenv with its dependencies
from PyPI alone, and run by a normal user (the test user when the suite runs as root)
whose home and cache are new directories: the flag data from Debian's gcc-12-source
through warnscope's private apt state, a verification by the compiler's plain name, the
UB runner with the compilers named as a user has them (``gcc``, a path, a cross driver
whose programs run under qemu-user), the warnings of a tiny real project and the advice
written as CMake. What the installation must find (corpus, templates, manual, the C
sources it compiles at run time) is looked up from the installed copy, never the
checkout. A corpus program and the project's configure script report what they can see
of the machine: as a normal user with user namespaces, both run hidden from the home
and without a network. About two minutes from an empty cache (the wheel, the
dependencies, gcc-12-source and Debian's package lists).
"""
from __future__ import annotations

import json
import os
import pwd
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Debian's python3: the venv a user makes (pyenv's or conda's would do as well)
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else shutil.which("python3")
#: the test user's pip cache, kept between runs as a user's own would be
PIP_CACHE = Path("/var/tmp/warnscope-test-pip-cache")
#: what pip and apt print when PyPI or Debian's mirror cannot be reached
OFFLINE = ("Temporary failure in name resolution", "Failed to establish a new connection",
           "Network is unreachable", "Temporary failure resolving", "Could not resolve",
           "Could not connect", "No route to host", "Connection timed out")
#: a corpus program that says what it sees: the user's secret file and the loopback
PROBE = r"""/* ub-case
 * category: control
 * standard: none
 * summary: what a corpus program sees of the machine: the user's home, the loopback
 * ub: no
 * std: gnu17
 * note: in the namespace sandbox the home is not there and the loopback is down
 */
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void)
{
    printf("home: %s\n", access("SECRET", F_OK) == 0 ? "visible" : "hidden");
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    strcpy(ifr.ifr_name, "lo");
    int s = socket(AF_INET, SOCK_DGRAM, 0);
    int up = s >= 0 && ioctl(s, SIOCGIFFLAGS, &ifr) == 0 && (ifr.ifr_flags & IFF_UP);
    printf("loopback: %s\n", up ? "up" : "down");
    return 0;
}
"""
SANDBOXED = "home: hidden\nloopback: down\n"


class User:
    """Runs commands as the normal user, in its home, with the installed warnscope first
    on PATH and nothing of this process's environment."""

    def __init__(self, home: Path, account: pwd.struct_passwd | None):
        self.home, self.account = home, account
        self.venv = home / "venv"

    def env(self, path: str | None = None) -> dict[str, str]:
        return {"HOME": str(self.home), "LC_ALL": "C.UTF-8",
                "PATH": path or f"{self.venv / 'bin'}:/usr/bin:/bin",
                "WARNSCOPE_CACHE": str(self.home / "cache"),
                **({"PIP_CACHE_DIR": str(PIP_CACHE)} if self.account else {})}

    def run(self, *argv: str, path: str | None = None, timeout: float = 900
            ) -> subprocess.CompletedProcess:
        env = self.env(path)
        cmd = list(argv)
        if self.account is not None:
            cmd = ["setpriv", f"--reuid={self.account.pw_uid}", f"--regid={self.account.pw_gid}",
                   "--clear-groups", "--reset-env", "--", "/usr/bin/env",
                   *[f"{k}={v}" for k, v in env.items()], *cmd]
            env = {**env, "PATH": "/usr/bin:/bin"}    # where setpriv is
        return subprocess.run(cmd, cwd=self.home, env=env, capture_output=True, text=True,
                              timeout=timeout)

    def warnscope(self, *args: str, path: str | None = None) -> subprocess.CompletedProcess:
        return self.run(str(self.venv / "bin" / "warnscope"), *args, path=path)

    def ok(self, *args: str) -> str:
        proc = self.warnscope(*args)
        assert proc.returncode == 0, f"warnscope {' '.join(args)}: {proc.stderr[-3000:]}"
        return proc.stdout

    def give(self, path: Path) -> None:
        if self.account is not None:
            for p in [path, *path.rglob("*")] if path.is_dir() else [path]:
                os.chown(p, self.account.pw_uid, self.account.pw_gid, follow_symlinks=False)


# ------------------------------------------------------------------ the wheel and the install

@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel, built once on a PATH without any compiler (pip's isolated build brings
    meson-python, Meson and Ninja from PyPI)."""
    out, empty = tmp_path_factory.mktemp("wheel"), tmp_path_factory.mktemp("empty-path")
    env = {"HOME": os.environ.get("HOME", "/root"), "PATH": str(empty), "LC_ALL": "C.UTF-8"}
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out),
                           str(ROOT)], env=env, capture_output=True, text=True, timeout=900)
    if proc.returncode != 0 and any(w in proc.stdout + proc.stderr for w in OFFLINE):
        pytest.skip(f"PyPI cannot be reached for the build backend: {proc.stderr[-300:]}")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    (built,) = out.glob("warnscope-*.whl")
    return built


@pytest.fixture(scope="module")
def user(wheel, normal_user) -> User:
    """A fresh venv in a new home of the normal user, the wheel installed into it by that
    user with its dependencies from PyPI."""
    if PYTHON is None:
        pytest.skip("no python3 to make a virtualenv with")
    account = normal_user
    home = Path(tempfile.mkdtemp(prefix="warnscope-install-", dir="/var/tmp"))
    os.chmod(home, 0o755)
    shutil.copy(wheel, home)
    if account is not None:
        if PIP_CACHE.is_dir() and PIP_CACHE.stat().st_uid != account.pw_uid:
            shutil.rmtree(PIP_CACHE)    # an earlier test user's, under another uid
        PIP_CACHE.mkdir(mode=0o700, exist_ok=True)
        shutil.chown(PIP_CACHE, account.pw_uid, account.pw_gid)
    found = User(home, account)
    found.give(home)
    try:
        proc = found.run(PYTHON, "-m", "venv", str(found.venv))
        assert proc.returncode == 0, proc.stderr
        proc = found.run(str(found.venv / "bin" / "pip"), "install", "-q",
                         "--disable-pip-version-check", str(home / wheel.name))
        if proc.returncode != 0 and any(w in proc.stdout + proc.stderr for w in OFFLINE):
            pytest.skip(f"PyPI cannot be reached for the dependencies: {proc.stderr[-300:]}")
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
        yield found
    finally:
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="module")
def ingested(user) -> User:
    """gcc-12's flag data in the user's database, from Debian's gcc-12-source fetched by
    the user's own apt state (lists and package into the empty cache)."""
    proc = user.warnscope("flags", "ingest", "gcc-12")
    if proc.returncode != 0 and any(w in proc.stderr for w in OFFLINE):
        pytest.skip(f"Debian's mirror cannot be reached: {proc.stderr.strip()}")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.startswith("gcc-12: added (12.")
    assert "from gcc-12-source" in proc.stdout
    return user


def need(*binaries: str) -> None:
    for binary in binaries:
        if shutil.which(binary) is None:
            pytest.skip(f"{binary} is not installed")


# ------------------------------------------------------------------ the wheel itself

def test_the_wheel_builds_without_a_compiler_and_runs_on_any_python(wheel):
    assert wheel.name == "warnscope-0.1.0-py3-none-any.whl"
    names = zipfile.ZipFile(wheel).namelist()
    assert not [n for n in names if n.endswith(".so")], "no GCC on PATH: no plugin built"
    for wanted in ("analyzer/ub/corpus/signed-integer-overflow/loop.c",
                   "analyzer/site/web/templates/base.html", "analyzer/site/web/static/style.css",
                   "analyzer/site/manual/mkdocs.yml", "analyzer/site/manual/docs/install.md",
                   "analyzer/sandbox/zygote.c", "analyzer/projects/wrapper.c",
                   "analyzer/projects/init.c", "analyzer/gccplugin/warnscope_plugin.cc"):
        assert wanted in names, wanted


def test_the_installation_finds_its_own_files(user):
    """The corpus, the site's templates, the manual and the C sources it compiles at run
    time are found in the installed copy, not in the checkout the wheel came from."""
    script = ("import json; from analyzer.ub.corpus import bundled_corpus; "
              "from analyzer.site import web_dir; from analyzer.site.manual import sources; "
              "from analyzer.sandbox import zygote; from analyzer.projects import wrapper; "
              "from analyzer.gccplugin import plugin; "
              "print(json.dumps([str(bundled_corpus()), str(web_dir()), str(sources()), "
              "str(zygote.SOURCE), str(wrapper.SOURCE), str(plugin.SOURCE)]))")
    proc = user.run(str(user.venv / "bin" / "python"), "-c", script)
    assert proc.returncode == 0, proc.stderr
    for path in json.loads(proc.stdout):
        assert Path(path).exists() and Path(path).is_relative_to(user.venv), path
    out = user.ok("docs")
    assert f"file://{user.home}/cache/manual/" in out


# ------------------------------------------------------------------ the flag data

def test_flags_ingest_from_debian_as_a_normal_user_and_list(ingested):
    proc = ingested.run("sh", "-c", "warnscope flags list gcc-12 | head")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 10 and "--all-warnings = -Wall" in lines


def test_without_g_plus_plus_the_plugin_is_absent_and_said_so(ingested):
    """gcc-12 on PATH without its g++-12: no plugin can be built, and a command that
    wants one says so in one line, with how to get it (before any plugin is cached)."""
    need("gcc-12")
    bin_dir = ingested.home / "only-gcc"
    bin_dir.mkdir()
    (bin_dir / "gcc-12").symlink_to(shutil.which("gcc-12"))
    ingested.give(bin_dir)
    path = f"{ingested.venv / 'bin'}:{bin_dir}"
    proc = ingested.warnscope("flags", "closure", "gcc-12", "-Wall", path=path)
    assert proc.returncode == 0, proc.stderr
    first = proc.stdout.splitlines()[0]
    assert "from the database's edges" in first
    assert "no plugin: gcc-12: no g++-12 to build the plugin with (your distribution's g++ 12; " \
           "Debian: apt-get install g++-12)" in first
    assert not list((ingested.home / "cache").glob("gcc-plugin/*/*.so"))


def test_flags_verify_builds_the_plugin_into_the_users_cache(ingested):
    need("g++-12")
    out = ingested.ok("flags", "verify", "gcc-12")
    first, second = out.splitlines()[:2]
    assert re.match(r"gcc-12\b[^:]*: compared .*, plugin \d+$", first), first
    assert second.endswith(" 0 unexplained")
    assert list((ingested.home / "cache" / "gcc-plugin").glob("12.*/warnscope_gcc12.so"))


def test_flags_verify_takes_the_compiler_by_its_plain_name(ingested):
    need("gcc")
    out = ingested.ok("flags", "verify", "gcc")
    first, second = out.splitlines()[:2]
    assert re.match(r"gcc-12\b[^:]*: compared ", first), first
    assert second.endswith(" 0 unexplained")


# ------------------------------------------------------------------ the UB runner

@pytest.fixture(scope="module")
def corpus(user) -> Path:
    """Two programs: INT_MIN / -1 from the corpus, and the probe of what a program sees."""
    root = user.home / "corpus"
    (root / "int-min-division").mkdir(parents=True)
    for name in ROOT.glob("corpus/int-min-division/divide.*"):
        if name.name.startswith("divide.") and "fixed" not in name.name:
            shutil.copy(name, root / "int-min-division")
    (root / "control").mkdir()
    secret = user.home / "secret"
    secret.write_text("the user's own file\n")
    (root / "control" / "sandbox-view.c").write_text(PROBE.replace("SECRET", str(secret)))
    (root / "control" / "sandbox-view.output").write_text(SANDBOXED)
    user.give(root)
    user.give(secret)
    return root


def _cells(user: User, db: str) -> dict[tuple[str, str], dict]:
    report = json.loads(user.ok("--db", db, "ub", "report", "--json"))
    return {(case["case"], cell["compiler"] + cell["level"]): cell
            for case in report["cases"] for cell in case["cells"]}


@pytest.mark.parametrize("named,cid", [
    ("gcc", "gcc-12"),
    ("/usr/bin/clang-16", "clang-16"),
    ("aarch64-linux-gnu-gcc-12", "gcc-12@aarch64-linux-gnu"),
])
def test_ub_run_with_compilers_as_named_runs_sandboxed(user, corpus, named, cid):
    """Each program compiled and run as the user names the compiler; the probe sees
    neither the home nor a network: the namespace sandbox, as a normal user."""
    need(named)
    if "@" in cid:
        need("qemu-aarch64")
    db = f"ub-{cid.replace('@', '-')}.db"
    out = user.ok("--db", db, "ub", "run", "--corpus", str(corpus), "--compilers", named,
                  "--levels", "O0,O2", "--runs", "1", "--no-sanitizers")
    assert "4 cells (4 run now, 4 compiled)" in out, out
    cells = _cells(user, db)
    for level in ("-O0", "-O2"):
        probe = cells[("control/sandbox-view", cid + level)]
        assert (probe["outcome"], probe["stdout"]) == ("expected", SANDBOXED)
        divide = cells[("int-min-division/divide", cid + level)]
        assert divide["runs"] and divide["outcome"] != "compile-error"
    if "@" not in cid:   # x86-64's idiv traps, and the handler says so
        assert cells[("int-min-division/divide", cid + "-O0")]["stdout"] == "SIGFPE\n"


def test_two_names_of_one_compiler_are_one_error(user, corpus):
    need("gcc", "gcc-12")
    proc = user.warnscope("--db", "twice.db", "ub", "run", "--corpus", str(corpus),
                          "--compilers", "gcc,/usr/bin/gcc-12")
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode != 0 and len(lines) == 1, proc.stderr
    assert "name one compiler (gcc-12)" in lines[0]


# ------------------------------------------------------------------ a real project

@pytest.fixture(scope="module")
def project(user) -> Path:
    """A tiny make project whose configure script writes a header saying, as a
    ``#warning``, whether the build sees the user's secret file."""
    tree = user.home / "tiny"
    tree.mkdir()
    secret = user.home / "secret-of-the-build"
    secret.write_text("not for the build\n")
    (tree / "configure").write_text(
        "#!/bin/sh\n"
        f"if [ -e {secret} ]; then seen=visible; else seen=hidden; fi\n"
        "printf '#define GREETING \"hello\"\\n#warning home-%s\\n' \"$seen\" > config.h\n")
    (tree / "Makefile").write_text("tiny: tiny.o\n\t$(CC) $(CFLAGS) -o $@ tiny.o\n"
                                   "tiny.o: tiny.c config.h\n"
                                   "clean:\n\trm -f tiny tiny.o\n")
    (tree / "tiny.c").write_text('#include <stdio.h>\n#include "config.h"\n\n'
                                 "int main(int argc, char **argv)\n{\n    int unused;\n"
                                 "    (void)argv;\n    if (argc = 2)\n        puts(GREETING);\n"
                                 "    return 0;\n}\n")
    user.give(tree)
    user.give(secret)
    return tree


def test_warnings_run_on_a_real_project_sandboxed(ingested, project):
    need("gcc", "make")
    builds = json.loads(ingested.ok("warnings", "run", "--source", str(project), "--configure",
                                    "sh configure", "--build", "make", "--compilers", "gcc",
                                    "--levels", "wall", "--json", "--quiet"))["builds"]
    (build,) = builds
    assert (build["compiler"], build["status"], build["format"]) == ("gcc-12", "ok", "gcc-json")
    found = {(d["option"], d["file"], d["line"], d["message"]) for d in build["diagnostics"]}
    assert found == {("-Wcpp", "config.h", 2, "#warning home-hidden"),
                     ("-Wunused-variable", "tiny.c", 6, "unused variable 'unused'"),
                     ("-Wparentheses", "tiny.c", 8,
                      "suggest parentheses around assignment used as truth value")}


def test_advise_writes_cmake(ingested, project):
    need("gcc", "make")
    out = ingested.ok("advise", "--source", str(project), "--configure", "sh configure",
                      "--build", "make", "--compilers", "gcc", "--format", "cmake", "--quiet")
    assert "add_library(warnscope::warnings INTERFACE IMPORTED)" in out
    assert "$<$<AND:$<COMPILE_LANGUAGE:C>,$<C_COMPILER_ID:GNU>>:-Wall;-Wextra" in out


def test_the_site_builds_from_the_installed_templates(ingested):
    out = ingested.ok("site", "build", "-o", "site")
    assert f"open file://{ingested.home}/site/index.html" in out
    assert "gcc-12" in (ingested.home / "site" / "index.html").read_text()
