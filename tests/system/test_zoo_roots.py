"""A compiler the host cannot install, from a Debian root: gcc-14 from trixie.

The root is real (``debootstrap --variant=minbase trixie`` plus ``apt-get install
gcc-14 g++-14 gcc-14-plugin-dev``, about 700 MB), built once into the shared cache and
kept there; a fresh machine builds it from nothing (two to three minutes). Through it:
``toolchain list``/``remove``, the UB runner (compile and run in the sandbox, against
trixie's own libc), ``flags ingest --from-binary`` and ``flags verify`` (``-Q`` and the
plugin, built inside the root), ``flags closure``. Preparing a root needs root and the
Debian mirror; without them the module is skipped, saying which.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from analyzer.runtime import roots
from analyzer.sandbox import runner as sandbox
from analyzer.runtime.toolchain import resolve
from analyzer.ub import report as ub_report
from analyzer.ub import run as ub_run
from analyzer.runtime.toolchain import resolve_list
from warnscope.database import connect
from warnscope.paths import cache_dir

ZOO = "gcc-14"
SUITE = "trixie"
REPO = Path(__file__).resolve().parents[2]
MINI = Path(__file__).resolve().parents[1] / "fixtures" / "ub" / "mini"
LOOP = REPO / "corpus" / "signed-integer-overflow" / "loop.c"

pytestmark = [
    pytest.mark.skipif(os.geteuid() != 0, reason="preparing a Debian root needs root"),
    pytest.mark.skipif(shutil.which("debootstrap") is None or shutil.which("bwrap") is None,
                       reason="needs debootstrap and bubblewrap (setup.sh installs them)"),
    pytest.mark.skipif(shutil.which(ZOO) is not None,
                       reason=f"{ZOO} is installed on this host: the test needs one that is not"),
]


@pytest.fixture(scope="module")
def zoo(zoo_root):
    """gcc-14 in the trixie root (built now if the cache has none: ``zoo_root``)."""
    tc = resolve(ZOO)
    assert tc.root is not None
    return tc


def test_identity_names_suite_and_package(zoo):
    root = roots.load(SUITE)
    pkg = root.compilers[ZOO]
    assert {"gcc-14", "g++-14", "gcc-14-plugin-dev", "libc6-dev"} <= set(pkg)
    assert zoo.suite == SUITE and zoo.package == pkg["gcc-14"]
    assert zoo.version.startswith("gcc-14 (Debian 14.") and f"[Debian {SUITE} {zoo.package}]" in zoo.version
    assert zoo.c_driver == "/usr/bin/gcc-14"
    host = resolve("gcc-12")
    assert host.root is None and host.identity != zoo.identity


def test_list_shows_host_roots_and_what_can_be_added(zoo, warnscope):
    proc = warnscope("toolchain", "list", "--json")
    assert proc.returncode == 0, proc.stderr
    listed = json.loads(proc.stdout)
    entries = {(e["compiler"], e["status"]): e for e in listed}
    assert ("gcc-12", "host") in entries
    # gcc-14 may be in more than one root (the sid root holds it too): the trixie one
    (mine,) = [e for e in listed if (e["compiler"], e["status"], e["suite"]) == (ZOO, "root", SUITE)]
    assert mine["package"] == zoo.package
    # Available (the suite add would use) or already added (the suite of its root),
    # whichever the shared cache holds: the same suite.
    for name, suite in (("gcc-9", "bullseye"), ("gcc-15", "sid")):    # sid: no release has it
        (entry,) = [e for (c, st), e in entries.items() if c == name]
        assert entry["status"] in ("available", "root") and entry["suite"] == suite, entry
    assert entries[("clang-19", "host")]["suites"] == ["bookworm", "trixie"]
    text = warnscope("toolchain", "list").stdout.decode()
    assert f"{SUITE} root, {zoo.package}" in text


@pytest.mark.parametrize("args, words", [
    (("gcc-8",), ["gcc-8", "bullseye", "bookworm", "trixie", "sid"]),
    (("clang-10",), ["clang-10", "bullseye"]),
    (("clang-18", "--suite", "bookworm"), ["bookworm does not package clang-18", "trixie"]),
    (("gcc-12",), ["installed on the host"]),
    (("gcc-14", "--suite", "hamm"), ["unknown suite"]),
    (("gcc14",), ["unknown compiler id"]),
])
def test_add_refuses_what_debian_does_not_have(warnscope, one_error, args, words):
    line = one_error(warnscope("toolchain", "add", *args))
    for w in words:
        assert w in line


def test_add_as_a_normal_user_is_one_line(warnscope, one_error, reachable_as):
    reachable_as(65534, 65534)
    proc = warnscope("toolchain", "add", "gcc-13", prefix=("setpriv", "--reuid=65534",
                     "--regid=65534", "--clear-groups"),
                     env={"WARNSCOPE_CACHE": str(Path("/tmp") / f"ws-nobody-{os.getpid()}")})
    assert "needs root" in one_error(proc)


def test_no_network_is_one_line(warnscope, one_error, tmp_path):
    """In a network namespace with nothing in it, building a new root fails on one line and
    leaves no root behind."""
    cache = tmp_path / "cache"
    proc = warnscope("toolchain", "add", "gcc-9", prefix=("unshare", "--net"),
                     env={"WARNSCOPE_CACHE": str(cache)})
    line = one_error(proc)
    assert "debootstrap bullseye failed" in line and "network" in line
    assert not (cache / "roots" / "bullseye").exists()


def test_a_root_compiler_without_namespaces_is_one_line(zoo, warnscope, one_error, tmp_path):
    """Where the namespace sandbox cannot be built (a normal user without user namespaces;
    ``WARNSCOPE_SANDBOX=plain`` stands for it), a root's compiler cannot show its programs
    the root's libc: one line before anything is written."""
    db = tmp_path / "ub.db"
    proc = warnscope("--db", str(db), "ub", "run", "--compilers", f"gcc-12,{ZOO}", "--levels", "O0",
                     "--corpus", str(MINI), env={"WARNSCOPE_SANDBOX": "plain"})
    line = one_error(proc)
    assert f"{ZOO} runs from its Debian {SUITE} root" in line and "namespace" in line
    assert not db.exists()


def test_a_stale_partial_root_is_never_used(warnscope, tmp_path):
    """What an interrupt leaves (``SUITE.partial``) is not a root: not listed, not
    resolved; the next add of that suite discards it. In a private cache, so that a
    real bullseye root in the shared one changes nothing."""
    cache = tmp_path / "cache"
    stale = cache / "roots" / "bullseye.partial"
    (stale / "usr/bin").mkdir(parents=True)
    (stale / "usr/bin/gcc-10").write_text("#!/bin/sh\necho fake\n")
    env = {"WARNSCOPE_CACHE": str(cache)}
    entries = json.loads(warnscope("toolchain", "list", "--json", env=env).stdout)
    assert not any(e["suite"] == "bullseye" and e["status"] == "root" for e in entries)
    assert {"status": "available", "suite": "bullseye"}.items() <= next(
        e for e in entries if e["compiler"] == "gcc-10").items()
    proc = warnscope("ub", "run", "--compilers", "gcc-10", env=env)
    assert proc.returncode != 0 and "toolchain add gcc-10" in proc.stderr.decode()


def test_interrupted_build_is_discarded_and_rebuilt(tmp_path):
    """kill -9 during debootstrap: the half-built root is not used, and the next add
    builds it cleanly (in a private cache; packages from the shared download cache)."""
    cache = tmp_path / "cache"
    (cache / "roots").mkdir(parents=True)
    (cache / "roots" / "debs").symlink_to(roots.roots_dir() / "debs")
    env = {**os.environ, "WARNSCOPE_CACHE": str(cache), "PYTHONPATH": str(REPO)}
    cmd = [sys.executable, "-m", "analyzer", "toolchain", "add", ZOO]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    partial = cache / "roots" / f"{SUITE}.partial"
    deadline = time.monotonic() + 300
    while not (partial / "usr" / "bin").exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert proc.poll() is None, proc.communicate()
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    # debootstrap's own children die with the group; the partial root stays behind.
    assert partial.exists() and not (cache / "roots" / SUITE).exists()
    check = subprocess.run([sys.executable, "-m", "analyzer", "toolchain", "list", "--json"],
                           env=env, capture_output=True, text=True)
    assert not any(e["status"] == "root" for e in json.loads(check.stdout))
    again = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=900)
    assert again.returncode == 0, again.stderr
    assert not partial.exists()
    manifest = json.loads((cache / "roots" / SUITE / roots.MANIFEST).read_text())
    assert ZOO in manifest["compilers"]


def make_corpus(root: Path) -> Path:
    shutil.copytree(MINI / "control", root / "control")
    dest = root / "signed-integer-overflow"
    dest.mkdir()
    shutil.copy(LOOP, dest)
    shutil.copy(LOOP.with_suffix(".output"), dest)
    return root


def test_ub_run_compiles_and_runs_in_the_root(zoo, tmp_path):
    """The UB runner takes gcc-14 like a host compiler: compiled and run in the same
    sandbox (pool uid, no network, limits), with trixie's libc; results stored under
    gcc-14 with its version naming suite and package."""
    corpus = make_corpus(tmp_path / "corpus")
    conn = connect(tmp_path / "ub.db")
    ub_run.run(conn, corpus, resolve_list([ZOO, "gcc-12"]), ["O0", "O2"],
               limits=sandbox.Limits(timeout=1.0, cpu=2))
    data = ub_report.load(conn)
    cells = {(c.case_id, c.compiler, c.level): c for c in data.cells}
    loop = "signed-integer-overflow/loop"
    assert cells[(loop, ZOO, "-O0")].outcome == "expected"
    assert cells[(loop, ZOO, "-O2")].outcome == "hang"   # as gcc-12 on the host
    for name in ("control/exit-three", "control/unsigned-wrap", "control/either-output"):
        assert cells[(name, ZOO, "-O2")].outcome == "expected", cells[(name, ZOO, "-O2")]
    versions = {r[0] for r in conn.execute("SELECT DISTINCT compiler_version FROM ub_cell "
                                           "WHERE compiler = ?", (ZOO,))}
    assert versions == {zoo.version}
    san = [s for s in data.sanitizers if s.compiler == ZOO]
    assert any(s.detected for s in san if s.case_id == loop)
    # GCC 14 pretty-prints its JSON diagnostics over many lines: still read as warnings
    warned = {opt for w in data.warnings if w.case_id == loop and w.compiler == ZOO
              for opt in w.options}
    assert "-Waggressive-loop-optimizations" in warned, [(w.compiler, w.level, w.options) for w in data.warnings if w.case_id == loop]


def test_programs_see_the_roots_libc_not_the_hosts(zoo):
    """A program built by gcc-14 runs against trixie's glibc (2.41), in the sandbox:
    the root's /usr is what the sandbox binds, not the host's."""
    from analyzer.ub.compile import compile_program
    src = b'#include <stdio.h>\n#include <gnu/libc-version.h>\nint main(void){puts(gnu_get_libc_version());return 0;}\n'
    build = compile_program(zoo, "c", "gnu17", "v.c", src, ["-O0"], [], False)
    assert build.ok, build.log
    inside = sandbox.run(build.binary, (), root=zoo.root)
    assert inside.status == "exit" and inside.exit == 0
    assert inside.stdout.decode().strip() > "2.36"
    on_host = sandbox.run(build.binary, ())  # the same binary against bookworm's libc
    assert on_host.stdout.decode().strip() == os.confstr("CS_GNU_LIBC_VERSION").split()[1]
    assert on_host.stdout != inside.stdout


def test_the_roots_apt_shares_the_hosts_mirror_settings(zoo):
    """apt run in a root (as warnscope runs it: ``roots._in_root``) keeps the host's
    Check-Valid-Until and proxies: a mirror that serves sid's Release past its
    Valid-Until (the host's apt is told to accept it) must not make ``apt-get update``
    fail in the sid root only. Roots built before the host changed them follow too."""
    def dump(out: str, key: str) -> str:
        return "".join(l for l in out.splitlines() if l.split("\t")[0] == key)
    argv = ["apt-config", "dump", "--format", "%f\t%v%n"]
    for key in roots.SHARED_APT_SETTINGS:
        host = subprocess.run([*argv, key], capture_output=True, text=True, check=True).stdout
        inside = roots._in_root(Path(zoo.root), [*argv, key], what="apt-config")
        assert dump(inside, key) == dump(host, key), key


def test_verify_and_closure_through_the_root(zoo, warnscope, tmp_path):
    """``flags ingest --from-binary`` and ``flags verify`` ask gcc-14 in its root (the
    plugin is built there, with trixie's g++-14 and plugin headers); ``flags closure``
    runs it there too."""
    db = tmp_path / "w.db"
    proc = warnscope("--db", str(db), "flags", "ingest", ZOO, "--from-binary")
    assert proc.returncode == 0, proc.stderr
    proc = warnscope("--db", str(db), "flags", "verify", ZOO, "--json")
    report = json.loads(proc.stdout)
    assert report["compiler"] == ZOO and report["compared"]["plugin"] > 1000, report["compared"]
    assert report["compared"]["version"] == 1
    assert proc.returncode == 0, [f for f in report["findings"] if f["reason"] is None][:5]
    proc = warnscope("--db", str(db), "flags", "closure", ZOO, "-Wall", "--lang", "c++", "--json")
    assert proc.returncode == 0, proc.stderr
    names = {e["name"] for e in json.loads(proc.stdout)}
    assert {"-Wunused-variable", "-Wdangling-pointer=", "-Wuse-after-free="} <= names \
        or {"-Wunused-variable"} <= names
    from analyzer.gccplugin.plugin import locate
    plugin = locate(ZOO)
    assert plugin.toolchain is not None and str(plugin.path).startswith(str(cache_dir("gcc-plugin")))
    assert SUITE in plugin.path.parent.name


@pytest.fixture(scope="module")
def zoo_clang(zoo_root):
    """clang-18 in the same trixie root (one root per suite, shared by its compilers)."""
    tc = resolve("clang-18")
    assert tc.root is not None and tc.suite == SUITE
    return tc


def test_clang_verifies_against_its_own_binary_in_the_root(zoo, zoo_clang, warnscope, tmp_path):
    """clang-18's option data from trixie's libclang-18-dev (fetched by the root's apt,
    the same version as the compiler), ingested, then verified against clang-18 run
    in the root: exit 0, every name compared."""
    assert str(roots.load(SUITE).path) == zoo.root == zoo_clang.root
    deb = roots.download(SUITE, ["libclang-18-dev"])["libclang-18-dev"]
    assert zoo_clang.package in deb.name.replace("%3a", ":")
    subprocess.run(["dpkg-deb", "-x", str(deb), str(tmp_path / "x")], check=True)
    inc = tmp_path / "x/usr/lib/llvm-18/include/clang/Basic"
    db = tmp_path / "w.db"
    proc = warnscope("--db", str(db), "flags", "ingest", "clang-18", "--source", str(inc))
    assert proc.returncode == 0, proc.stderr
    proc = warnscope("--db", str(db), "flags", "verify", "clang-18", "--json")
    report = json.loads(proc.stdout)
    assert proc.returncode == 0, [f for f in report["findings"] if f["reason"] is None][:5]
    assert report["compared"]["names"] > 900 and report["compared"]["probe"] > 900


def test_ub_run_takes_gcc_and_clang_of_a_root_together(zoo, zoo_clang, tmp_path):
    """Both compilers of the root in one run, warnings from clang-18's own libclang
    (asked inside the root): the identity of each names trixie and its package."""
    corpus = make_corpus(tmp_path / "corpus")
    conn = connect(tmp_path / "ub.db")
    ub_run.run(conn, corpus, resolve_list([ZOO, "clang-18"]), ["O0", "O2"],
               limits=sandbox.Limits(timeout=1.0, cpu=2))
    cells = {(c.case_id, c.compiler, c.level): c for c in ub_report.load(conn).cells}
    loop = "signed-integer-overflow/loop"
    assert cells[(loop, "clang-18", "-O0")].outcome == "expected"
    assert cells[(loop, "clang-18", "-O2")].outcome != "expected"   # the loop is gone
    versions = dict(conn.execute("SELECT DISTINCT compiler, compiler_version FROM ub_cell"))
    assert versions["clang-18"] == zoo_clang.version and f"[Debian {SUITE} " in versions["clang-18"]
