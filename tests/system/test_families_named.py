"""Every family but ``ub`` takes the compiler a user names: a plain name on PATH (``gcc``),
a path (``/usr/bin/gcc-12``) or a cross driver (``aarch64-linux-gnu-gcc-12``), mapped to
an id once at the CLI (``gcc-12``, ``gcc-12@aarch64-linux-gnu``).

On the tiny project ``tests/fixtures/named`` (one C file that warns which target it was
built for): ``warnings run`` with ``gcc`` and the cross driver stores each build under its
id, the cross one built for aarch64 (its own ``#warning``, the target's system headers);
zlib's recipe cross-builds. The advice's exports guard on the target where a family is
listed for several (CMake, Meson, make), proven on real CMake and Meson builds for the host
and for aarch64 (a toolchain file, a cross file) and make's ``-dumpmachine``: every compile
carries its own target's list, and a target not listed (armhf) the host's. ``overhead run``
refuses an emulated compiler in one line and stores nothing; two names for one binary are
one line in every family. About a minute on 2 cores.
"""
from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from analyzer.advise.export import write
from analyzer.advise.targets import Target
from analyzer.projects import cross, recipes
from analyzer.runtime import toolchain

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "named"
CROSS = "aarch64-linux-gnu-gcc-12"
CROSS_ID = "gcc-12@aarch64-linux-gnu"
#: a target no list below holds: it gets the host's list
OTHER = "arm-linux-gnueabihf-gcc-12"
MESON = str(Path(sys.executable).with_name("meson"))
#: ELF e_machine of an object: what it was really built for
MACHINES = {62: "x86_64", 183: "aarch64", 40: "arm"}
ERROR = "warnscope: error: "


@pytest.fixture(scope="module")
def compilers():
    """``gcc`` (as gcc-12) and the aarch64 and armhf cross gcc-12, or a skip saying what lacks."""
    for binary in ("gcc", "gcc-12", CROSS, OTHER, "cmake", "make"):
        if shutil.which(binary) is None:
            pytest.skip(f"{binary} is not installed (setup.sh installs the cross compilers)")
    if toolchain.canonical("gcc") != "gcc-12":
        pytest.skip("gcc on PATH is not gcc-12 here (Debian 12's is)")


def _run(cmd: list[str], cwd: Path, env: dict | None = None) -> str:
    import os
    proc = subprocess.run(cmd, cwd=cwd, env={**os.environ, "LC_ALL": "C", **(env or {})},
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    assert proc.returncode == 0, f"{shlex.join(cmd)} failed:\n{proc.stdout[-4000:]}"
    return proc.stdout


@pytest.fixture(scope="module")
def built(compilers, gcc_db, tmp_path_factory, warnscope):
    """A copy of ``gcc_db`` with the fixture project built by ``gcc`` and the cross driver
    at wextra and all (all's flags come from gcc-12's flag data for both), and that run's
    output."""
    db = tmp_path_factory.mktemp("named") / "named.db"
    shutil.copy(gcc_db, db)
    proc = warnscope("--db", str(db), "warnings", "run", "--source", str(FIXTURE), "--build", "make",
                     "--compilers", f"gcc,{CROSS}", "--levels", "wextra,all", "--quiet")
    assert proc.returncode == 0, proc.stderr.decode()
    return db, proc.stdout.decode(), proc.stderr.decode()


def _ok(result) -> str:
    code, out, err = result
    assert code == 0, err
    return out


# ------------------------------------------------------------------ warnings

def test_warnings_run_stores_each_build_under_its_id(built, cli_at):
    db, out, err = built
    assert f"local:named gcc-12 wextra: ok" in out and f"local:named {CROSS_ID} wextra: ok" in out
    # the cross compiler's `all` came from gcc-12's flag data, and the run says so
    assert err.strip() == (f"warnscope: note: {CROSS_ID} is not in the flag database: the flags of all "
                           f"from gcc-12's flag data, the same version for the host's target "
                           f"(warnscope flags ingest {CROSS_ID} gives its own)")
    report = json.loads(_ok(cli_at(db)("warnings", "report", "--project", "local:named", "--level", "wextra",
                                       "--json")))
    by = {b["compiler"]: b for b in report["builds"]}
    assert set(by) == {"gcc-12", CROSS_ID}
    for compiler, arch in (("gcc-12", "x86_64"), (CROSS_ID, "aarch64")):
        options = {o["option"] for o in by[compiler]["by_option"]}
        assert options == {"-Wcpp", "-Wunused-parameter"}, (compiler, options)
    show = json.loads(_ok(cli_at(db)("warnings", "show", "-Wcpp", "--project", "local:named", "--json")))
    said = {(e["compiler"], e["message"]) for e in show["examples"]}
    assert ("gcc-12", "#warning \"built for x86_64\"") in said
    assert (CROSS_ID, "#warning \"built for aarch64\"") in said
    assert not any("x86_64" in m for c, m in said if c == CROSS_ID)


def test_report_and_show_take_names_and_paths(built, cli_at):
    db, _, _ = built
    cli = cli_at(db)
    report = json.loads(_ok(cli("warnings", "report", "--project", "local:named", "--level", "all",
                                "--compilers", f"/usr/bin/gcc-12,{CROSS}", "--json")))
    by = {b["compiler"]: b for b in report["builds"]}
    assert set(by) == {"gcc-12", CROSS_ID}
    assert by[CROSS_ID]["flag_data"] == "gcc-12" and "flag_data" not in by["gcc-12"]
    text = _ok(cli("warnings", "report", "--project", "local:named", "--level", "all", "--compilers", CROSS))
    assert (f"flag data: gcc-12's ({CROSS_ID} is not in the flag database: warnscope flags ingest "
            f"{CROSS_ID} gives its own)") in text
    shown = json.loads(_ok(cli("warnings", "show", "--project", "local:named", "--compilers", "gcc",
                               "--level", "wextra", "--json")))
    assert {e["compiler"] for e in shown["examples"]} == {"gcc-12"}
    diff = _ok(cli("warnings", "diff", "gcc", CROSS, "--project", "local:named", "--level", "wextra"))
    assert diff.startswith(f"local:named at wextra: gcc-12 -> {CROSS_ID}: 1 added, 1 removed, 0 reworded, "
                           "1 unchanged")


def test_zlibs_recipe_builds_for_the_cross_target(compilers, gcc_db, tmp_path, cli_at):
    """zlib's own configure reads $CHOST: the build is aarch64's, with the target's
    system headers (never the host's /usr/include) and its ar."""
    db = tmp_path / "zlib.db"
    shutil.copy(gcc_db, db)
    cli = cli_at(db)
    out = _ok(cli("warnings", "run", "--project", "zlib", "--compilers", CROSS, "--levels", "all", "--quiet"))
    assert out.startswith(f"zlib {CROSS_ID} all: ok, ")
    shown = json.loads(_ok(cli("warnings", "show", "--project", "zlib", "--json")))
    files = {e["file"] for e in shown["examples"] if e["file"]}
    assert any(f.startswith("/usr/aarch64-linux-gnu/include/") for f in files)
    assert not any(f.startswith("/usr/include/") for f in files)
    assert "<gcc>/include/stddef.h" in files    # gcc-cross's own header, named as the host's


def test_cross_configure_arguments():
    assert cross.configure_args("autotools", "") == ""
    assert cross.configure_args("autotools", "aarch64-linux-gnu") == \
        f" --build={cross.build_triple()} --host=aarch64-linux-gnu"
    words = shlex.split(cross.configure_args("cmake", "aarch64-linux-gnu",
                                             ("/usr/bin/qemu-aarch64", "-L", "/usr/aarch64-linux-gnu")))
    assert "-DCMAKE_SYSTEM_NAME=Linux" in words and "-DCMAKE_SYSTEM_PROCESSOR=aarch64" in words
    assert "-DCMAKE_C_COMPILER_TARGET=aarch64-linux-gnu" in words
    assert "-DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/qemu-aarch64;-L;/usr/aarch64-linux-gnu" in words
    assert cross.configure_args("make", "aarch64-linux-gnu") == ""   # zlib reads $CHOST
    sqlite3, host = recipes.get("sqlite3"), toolchain.resolve("gcc-12")
    assert cross.build("make -j2", sqlite3.cross_build, toolchain.resolve(CROSS)) == "make -j2 CROSS_BUILDING=yes"
    assert cross.build("make -j2", sqlite3.cross_build, host) == "make -j2"


def test_a_recipe_that_cannot_cross_build_says_why(compilers, fails_on, tmp_path):
    db = tmp_path / "lua.db"
    line = fails_on(db, "warnings", "run", "--project", "lua5.4", "--compilers", f"gcc,{CROSS}")
    assert line == (f"{ERROR}lua5.4 cannot be built for aarch64-linux-gnu ({CROSS_ID}): its Makefile links "
                    "through the system's libtool (--tag=CC), which links with the build machine's gcc "
                    "whatever $CC is")
    assert not db.exists()


# ------------------------------------------------------------------ advise and its exports

#: a list per target, differing (what the advice gives where the evidence differs)
HOST_LIST = ["-Wall", "-Wextra", "-Wnull-dereference"]
CROSS_LIST = ["-Wall", "-Wextra", "-Wcast-align=strict"]
TARGETS = [Target("gcc-12", "gcc", 12, {"c": HOST_LIST}),
           Target(CROSS_ID, "gcc", 12, {"c": CROSS_LIST}, "aarch64-linux-gnu")]
#: compiler driver -> the list its builds must get (armhf is not listed: the host's)
EXPECTED = {"gcc-12": HOST_LIST, CROSS: CROSS_LIST, OTHER: HOST_LIST}


def _machine(obj: Path) -> str:
    head = obj.read_bytes()[:20]
    assert head[:4] == b"\x7fELF", obj
    return MACHINES[int.from_bytes(head[18:20], "little")]


def _compiles(build: Path) -> list[tuple[list[str], str]]:
    """Each compile of a build directory: its -W flags in order, and what its object is for."""
    out = []
    for entry in json.loads((build / "compile_commands.json").read_text()):
        argv = entry.get("arguments") or shlex.split(entry["command"])
        obj = argv[argv.index("-o") + 1]
        out.append(([a for a in argv if a.startswith("-W")], _machine(Path(entry["directory"], obj))))
    return out


def _cmake_build(src: Path, build: Path, driver: str) -> list[tuple[list[str], str]]:
    if driver == "gcc-12":
        setup = ["-DCMAKE_C_COMPILER=gcc-12"]
    else:   # a toolchain file as a user writes one
        triple, arch = driver.removesuffix("-gcc-12"), driver.split("-", 1)[0]
        toolchain_file = build.parent / f"{triple}.cmake"
        toolchain_file.write_text(f"set(CMAKE_SYSTEM_NAME Linux)\nset(CMAKE_SYSTEM_PROCESSOR {arch})\n"
                                  f"set(CMAKE_C_COMPILER {driver})\n")
        setup = [f"-DCMAKE_TOOLCHAIN_FILE={toolchain_file}"]
    _run(["cmake", "-S", str(src), "-B", str(build), "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", *setup], src)
    _run(["cmake", "--build", str(build)], src)
    return _compiles(build)


def _meson_build(src: Path, build: Path, driver: str) -> list[tuple[list[str], str]]:
    if driver == "gcc-12":
        _run([MESON, "setup", str(build), str(src)], src, {"CC": "gcc-12"})
    else:   # a cross file as a user writes one
        triple = driver.removesuffix("-gcc-12")
        family = {"aarch64": "aarch64", "arm": "arm"}[triple.split("-", 1)[0]]
        cross_file = build.parent / f"{triple}.ini"
        cross_file.write_text(f"[binaries]\nc = '{driver}'\nar = '{triple}-ar'\nstrip = '{triple}-strip'\n"
                              f"[host_machine]\nsystem = 'linux'\ncpu_family = '{family}'\n"
                              f"cpu = '{family}'\nendian = 'little'\n")
        _run([MESON, "setup", str(build), str(src), "--cross-file", str(cross_file)], src)
    _run([str(Path(MESON).with_name("ninja")), "-C", str(build)], src)
    return _compiles(build)


def _project(tmp_path: Path, fmt: str, text: str) -> Path:
    src = tmp_path / "src"
    shutil.copytree(FIXTURE, src)
    if fmt == "cmake":
        (src / "warnscope-warnings.cmake").write_text(text)
    else:
        (src / "warnscope").mkdir()
        (src / "warnscope" / "meson.build").write_text(text)
    return src


@pytest.mark.parametrize("fmt", ["cmake", "meson"])
def test_each_target_gets_its_own_list_on_a_real_build(fmt, compilers, tmp_path):
    text = write(TARGETS, fmt)
    src = _project(tmp_path, fmt, text)
    build = {"cmake": _cmake_build, "meson": _meson_build}[fmt]
    for driver, wanted in EXPECTED.items():
        compiles = build(src, tmp_path / f"build-{driver}", driver)
        arch = {"gcc-12": "x86_64", CROSS: "aarch64", OTHER: "arm"}[driver]
        assert compiles == [(wanted, arch)], (driver, compiles)


def test_make_fragment_tells_targets_apart_by_dumpmachine(compilers, tmp_path):
    (tmp_path / "warnscope.mk").write_text(write(TARGETS, "make"))
    (tmp_path / "Makefile").write_text("include warnscope.mk\nshow:\n"
                                       "\t@echo 'C=$(WARNSCOPE_CFLAGS)|LEFT=$(filter warnscope_%,$(.VARIABLES))|'\n")
    for driver, wanted in EXPECTED.items():
        out = _run(["make", "-s", "show", f"CC={driver}"], tmp_path)
        assert out.strip() == f"C={' '.join(wanted)}|LEFT=|", driver


def test_advise_exports_for_a_compiler_and_its_cross_twin(built, cli_at, tmp_path):
    """The advice itself for ``gcc`` and the cross driver (builds of the fixture stored
    above): its targets carry the triple, its notes say whose flag data it read, and its
    CMake file applied to the project built for both targets gives each its list."""
    db, _, _ = built
    cli = cli_at(db)
    args = ("advise", "--source", str(FIXTURE), "--build", "make", "--compilers", f"gcc,{CROSS}", "--quiet")
    advice = json.loads(_ok(cli(*args, "--json")))
    assert advice["compilers"] == ["gcc-12", CROSS_ID]
    targets = {t["compiler"]: t for t in advice["targets"]}
    assert targets["gcc-12"]["target"] == "" and targets[CROSS_ID]["target"] == "aarch64-linux-gnu"
    text = _ok(cli(*args))
    assert (f"note: {CROSS_ID} is not in the flag database: what it knows and has on at each level is "
            "read from gcc-12's flag data") in text
    src = _project(tmp_path, "cmake", _ok(cli(*args, "--format", "cmake")))
    for driver, compiler in (("gcc-12", "gcc-12"), (CROSS, CROSS_ID)):
        compiles = _cmake_build(src, tmp_path / f"build-{driver}", driver)
        assert [flags for flags, _ in compiles] == [targets[compiler]["flags"]["c"]], driver


# ------------------------------------------------------------------ refused in one line

def test_overhead_refuses_an_emulated_compiler(compilers, fails_on, tmp_path):
    db = tmp_path / "overhead.db"
    line = fails_on(db, "overhead", "run", "--project", "zlib", "--compilers", f"gcc,{CROSS}", "--quiet")
    assert line.startswith(f"{ERROR}{CROSS_ID} compiles for aarch64-linux-gnu, whose programs run here "
                           "only under qemu-aarch64: ")
    assert "overhead studies take compilers for the host's target" in line
    assert not db.exists()
    line = fails_on(db, "overhead", "attribute", "zlib", "--compiler", CROSS)
    assert line.startswith(f"{ERROR}{CROSS_ID} compiles for aarch64-linux-gnu") and not db.exists()


@pytest.mark.parametrize("command", [("warnings", "run"), ("advise",), ("overhead", "run")])
def test_two_names_for_one_binary_are_one_line(command, compilers, fails_on, tmp_path):
    db = tmp_path / "none.db"
    line = fails_on(db, *command, "--project", "zlib", "--compilers", "gcc,gcc-12")
    assert line == f"{ERROR}gcc and gcc-12 name one compiler (gcc-12): name it once"
    assert not db.exists()
