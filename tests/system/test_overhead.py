"""Build-overhead studies end to end: zlib from Debian's source package, built for real
with gcc-12 and clang-16, off vs all, whole build and per TU; plus bad input.

Structure and sanity only (CPU > 0, the split adds up, warnings grow with the level,
the exact flag lists): how much warnings cost is for benchmarks, not tests. -O0 keeps
the four-cell studies within a minute or two on two cores.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from analyzer.runtime import toolchain
from analyzer.cli import main
from analyzer.projects import recipes, steps
from analyzer.overhead import study
from warnscope.database import connect, open_read
from warnscope.apt import AptState
from warnscope.errors import WarnscopeError

COMPILERS = "gcc-12,clang-16"
pytestmark = pytest.mark.skipif(not (shutil.which("gcc-12") and shutil.which("clang-16")),
                                reason="the studies need gcc-12 and clang-16")


def run_cli(db: Path, capsys, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["--db", str(db), *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def study_db(zlib_studies) -> Path:
    """The session's zlib studies (tests/conftest.py: study 1 the whole build, study 2 per
    TU); the tests below rerun them, which is a resume."""
    return zlib_studies


def _cells(db: Path, capsys, *extra: str) -> list[dict]:
    code, out, err = run_cli(db, capsys, "overhead", "run", "--project", "zlib", "--compilers", COMPILERS,
                             "--levels", "off,all", "--runs", "2", "--opt", "-O0", "--json", *extra)
    assert code == 0, err
    return json.loads(out)["cells"]


@pytest.fixture(scope="module")
def build_study(study_db):
    """The whole-build study (study 1); the tests read it back (a rerun is a resume)."""
    return study_db


def _check_common(cells: list[dict], runs: int) -> dict[tuple[str, str], dict]:
    by = {(c["compiler"], c["level"]): c for c in cells}
    assert set(by) == {(c, l) for c in COMPILERS.split(",") for l in ("off", "all")}
    for c in cells:
        assert c["project"] == "zlib" and c["status"] == "ok", c
        assert c["runs"] == runs
        for key in ("cpu_s", "wall_s", "compiler_cpu_s", "other_cpu_s"):
            v = c[key]
            assert v["min"] <= v["median"] <= v["max"], (key, v)
        assert c["cpu_s"]["min"] > 0 and c["wall_s"]["min"] > 0
        assert c["maxrss_kb"] > 1000
        assert isinstance(c["noisy"], bool)
    for compiler in COMPILERS.split(","):
        off, all_ = by[(compiler, "off")], by[(compiler, "all")]
        assert off["flags"] == ["-w"] and off["warnings"] == 0
        assert all_["warnings"] > off["warnings"], "zlib has warnings under the full set"
    assert by[("clang-16", "all")]["flags"] == ["-Weverything"]
    return by


def test_build_study_end_to_end(build_study, capsys, gcc12):
    _, out, err = run_cli(build_study, capsys, "overhead", "run", "--project", "zlib", "--compilers", COMPILERS,
                          "--levels", "off,all", "--runs", "2", "--opt", "-O0", "--json")
    # the same parameters again: a resume, every cell is stored already
    assert err.count("stored already, skipped") == 4
    cells = json.loads(out)["cells"]
    by = _check_common(cells, runs=2)
    for c in cells:
        assert c["mode"] == "build" and c["opt"] == "-O0"
        total, comp, other = c["cpu_s"]["median"], c["compiler_cpu_s"]["median"], c["other_cpu_s"]["median"]
        # two independent measurements: the compilers' own rusage (wrapper log) cannot
        # exceed the whole tree's (wait4 of make), and make + shells are a small part
        assert 0 < comp <= total * 1.01
        assert other >= -0.01 * total
        assert comp > 0.6 * total
        assert c["compilers"] >= 30  # zlib compiles its sources twice (static and shared) and links
    gcc_all = by[("gcc-12", "all")]["flags"]
    assert "-Wshadow" in gcc_all and "-Wall" in gcc_all and "-Wextra" in gcc_all
    assert not any(f.startswith("-Wno-") for f in gcc_all)
    # valued flags only at their top level (-Wformat=2, -Wimplicit-fallthrough=5 …)
    flags = {f.name: f for f in gcc12.flags}
    valued = [f for f in gcc_all if "=" in f]
    assert "-Wformat=2" in valued and "-Wshadow=local" in valued
    for f in valued:
        if f in flags and not flags[f].takes_argument:
            continue  # an option whose name holds its value: -Wshadow=local, -Wcast-align=strict
        name, value = f.split("=", 1)
        rng = flags[name + "="].gcc.range
        assert rng and str(rng[1]) == value, f


def test_report_formats(build_study, capsys):
    code, out, _ = run_cli(build_study, capsys, "overhead", "report", "--study", "1")
    assert code == 0
    assert "ratio" in out and "gcc-12" in out and "clang-16" in out and "CPU" in out
    code, out, _ = run_cli(build_study, capsys, "overhead", "report", "--study", "1", "--format", "json")
    rows = json.loads(out)["rows"]
    all_rows = [r for r in rows if r["level"] == "all"]
    assert len(all_rows) == 2
    for r in all_rows:
        assert r["ratio_min"] <= r["ratio"] <= r["ratio_max"]
    off_rows = [r for r in rows if r["level"] == "off"]
    assert all(r["ratio"] == 1.0 for r in off_rows)
    code, out, _ = run_cli(build_study, capsys, "overhead", "report", "--study", "1", "--format", "csv")
    assert out.splitlines()[0].startswith("project,mode,opt,compiler,level")
    assert len(out.splitlines()) == 5
    code, out, _ = run_cli(build_study, capsys, "overhead", "report", "--study", "1", "--format", "markdown")
    assert "| compiler | level |" in out


def test_tu_study(study_db, capsys):
    cells = _cells(study_db, capsys, "--mode", "tu")
    by = _check_common(cells, runs=2)
    for c in cells:
        assert c["mode"] == "tu"
        assert c["compiler_cpu_s"] == c["cpu_s"]  # every process timed is a compiler
        assert c["compilers"] >= 25               # TUs replayed (zlib: about 30)
    assert by[("gcc-12", "off")]["compilers"] == by[("gcc-12", "all")]["compilers"]
    code, out, _ = run_cli(study_db, capsys, "overhead", "report", "--format", "json", "--top", "3")
    top = json.loads(out)["top_tus"]
    assert {t["compiler"] for t in top} == {"gcc-12", "clang-16"}
    assert all(t["level"] == "all" and ".c" in t["tu"] for t in top)
    assert len(top) == 6


def test_projects(capsys, tmp_path):
    code, out, _ = run_cli(tmp_path / "x.db", capsys, "overhead", "projects", "--json")
    names = {p["name"] for p in json.loads(out)["projects"]}
    assert {"zlib", "lua5.4", "sqlite3", "fftw3", "cppcheck"} <= names
    assert not (tmp_path / "x.db").exists()


# ------------------------------------------------------------------ local trees

BROKEN_C = "int main(void) { return 0 }\n"
GOOD_C = "static int unused(int x) { int y; return x; }\nint main(void) { int s = 0; return s; }\n"


def test_failed_build_is_a_recorded_cell(gcc_db_copy, capsys, tmp_path):
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "broken.c").write_text(BROKEN_C)
    code, out, err = run_cli(gcc_db_copy, capsys, "overhead", "run", "--source", str(tree),
                             "--build", "$CC $CFLAGS -c broken.c", "--clean", "rm -f broken.o",
                             "--compilers", "gcc-12", "--levels", "off,wall", "--runs", "1", "--json")
    assert code == 1, err
    assert err.splitlines()[-1].startswith("warnscope: error: 2 of 2 cells failed")
    cells = json.loads(out)["cells"]
    assert len(cells) == 2
    for c in cells:
        assert c["status"] == "failed" and c["runs"] == 0
        assert "build failed" in c["error"]
        # the compiler's own error line, its path relative to the project's tree
        assert c["error"].split(": ", 2)[2].startswith("broken.c:1:"), c["error"]
        assert "error: expected ';'" in c["error"] and "builds/work" not in c["error"]
        assert "error" in c["log_tail"] and "broken.c" in c["log_tail"]


def test_warmups_are_rounds_uncounted_before_the_counted_runs(gcc_db_copy, capsys, tmp_path):
    """``--warmups N``: N uncounted rounds of every cell, then the counted runs; 0 for
    cells of hours. A study with another number of warm-ups is another study."""
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "good.c").write_text(GOOD_C)
    base = ("overhead", "run", "--source", str(tree), "--build", "$CC $CFLAGS -c good.c",
            "--clean", "rm -f good.o", "--compilers", "gcc-12", "--levels", "off,wall", "--runs", "1", "--json")
    for n in (2, 0):
        code, out, err = run_cli(gcc_db_copy, capsys, *base, "--warmups", str(n))
        assert code == 0, err
        rounds = [line.split(": ")[1] for line in err.splitlines() if " gcc-12 off: " in line and ": cpu " in line]
        assert rounds == [f"warm-up {i}/{n}" for i in range(1, n + 1)] + ["run 1/1"], err
        assert err.count(": run 1/1: cpu ") == 2, err   # the one counted round, of both levels
        assert [c["runs"] for c in json.loads(out)["cells"]] == [1, 1]
        conn = open_read(gcc_db_copy)
        assert conn.execute("SELECT warmups FROM oh_study ORDER BY id DESC LIMIT 1").fetchone()[0] == n
        conn.close()
    code, out, err = run_cli(gcc_db_copy, capsys, "overhead", "report")
    assert code == 0, err
    assert "1 run, no warm-up" in out, out
    code, out, err = run_cli(gcc_db_copy, capsys, *base, "--warmups", "2")
    assert code == 0, err
    assert "stored already, skipped" in err and "warm-up" not in err, err   # the first study, resumed


def test_an_edited_tree_with_its_times_put_back_is_measured_anew(gcc_db_copy, capsys, tmp_path):
    """A study's key holds its tree's digest: the same tree resumes, the tree edited (a
    file of the same size, its times put back) is another study, measured anew."""
    tree = tmp_path / "tree"
    tree.mkdir()
    good = tree / "good.c"
    good.write_text(GOOD_C)
    base = ("overhead", "run", "--source", str(tree), "--build", "$CC $CFLAGS -c good.c",
            "--clean", "rm -f good.o", "--compilers", "gcc-12", "--levels", "off", "--runs", "1",
            "--warmups", "0", "--json")
    code, out, err = run_cli(gcc_db_copy, capsys, *base)
    assert code == 0 and "stored already" not in err, err
    first = json.loads(out)["study"]
    code, out, err = run_cli(gcc_db_copy, capsys, *base)
    assert code == 0 and "stored already, skipped" in err and json.loads(out)["study"] == first, err
    st = good.stat()
    good.write_text(GOOD_C.replace("s = 0; return s", "t = 0; return t"))
    os.utime(good, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert good.stat().st_size == st.st_size and good.stat().st_mtime_ns == st.st_mtime_ns
    code, out, err = run_cli(gcc_db_copy, capsys, *base)
    assert code == 0 and "stored already" not in err, err
    assert json.loads(out)["study"] != first and ": run 1/1: cpu " in err, err


def test_a_build_stopped_at_the_timeout_says_what_it_had_spent(gcc_db_copy, capsys, tmp_path):
    """A build that runs past ``--timeout`` fails its cell, saying the CPU its killed
    processes had used by then (a child burning CPU under a waiting shell included)."""
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "good.c").write_text(GOOD_C)
    code, out, err = run_cli(gcc_db_copy, capsys, "overhead", "run", "--source", str(tree),
                             "--build", "$CC $CFLAGS -c good.c && sh -c 'while :; do :; done' & wait",
                             "--clean", "rm -f good.o", "--compilers", "gcc-12", "--levels", "off",
                             "--runs", "1", "--warmups", "0", "--timeout", "3", "--json")
    assert code == 1, err
    (cell,) = json.loads(out)["cells"]
    found = re.search(r"build failed \(timed out after 3 s wall, ([\d.]+) s CPU by then\)", cell["error"])
    assert found, cell["error"]
    # the loop's ~3 s on one core, less on a busy machine; 0.0 when the killed processes
    # were not reaped inside the step
    assert 0.3 <= float(found[1]) <= 7.0, cell["error"]

def test_a_failed_build_says_what_it_had_spent_and_its_largest_process(gcc_db_copy, capsys, tmp_path):
    """A build that fails says, beside its exit, the CPU it had spent and its largest
    process's memory (a compiler killed out of memory shows so)."""
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "good.c").write_text(GOOD_C)
    code, out, err = run_cli(gcc_db_copy, capsys, "overhead", "run", "--source", str(tree),
                             "--build", "$CC $CFLAGS -c good.c && python3 -c 'b = b\"x\" * (1200 << 20); "
                                        "raise SystemExit(2)'",
                             "--clean", "rm -f good.o", "--compilers", "gcc-12", "--levels", "off",
                             "--runs", "1", "--warmups", "0", "--json")
    assert code == 1, err
    (cell,) = json.loads(out)["cells"]
    found = re.search(r"build failed \(exit 2 after \d+ s wall, ([\d.]+) s CPU by then, largest process "
                      r"([\d.]+) GiB\)", cell["error"])
    assert found, cell["error"]
    assert float(found[1]) > 0 and 1.1 <= float(found[2]) <= 1.5, cell["error"]


def test_compile_commands_replay(gcc_db_copy, capsys, tmp_path):
    (tmp_path / "a.c").write_text(GOOD_C)
    (tmp_path / "b.c").write_text(GOOD_C.replace("main", "other"))
    ccdb = tmp_path / "compile_commands.json"
    ccdb.write_text(json.dumps([
        {"directory": str(tmp_path), "file": "a.c", "arguments": ["cc", "-Wall", "-c", "a.c", "-o", "a.o"]},
        {"directory": str(tmp_path), "file": "b.c", "command": "cc -O1 -c b.c"},
    ]))
    code, out, err = run_cli(gcc_db_copy, capsys, "overhead", "run", "--compile-commands", str(ccdb),
                             "--compilers", "gcc-12", "--levels", "off,wextra", "--runs", "1", "--json")
    assert code == 0, err
    cells = {c["level"]: c for c in json.loads(out)["cells"]}
    assert cells["off"]["warnings"] == 0   # the file's own -Wall is replaced by the level's flags
    assert cells["wextra"]["warnings"] >= 4  # unused function, unused y, x used… in both files
    assert cells["wextra"]["compilers"] == 2
    assert not (tmp_path / "a.o").exists()  # objects go to a private directory


# ------------------------------------------------------------------ bad input

@pytest.fixture
def refused(fails_on):
    """``refused(db, *args)``: an overhead command that must fail with one line and
    leave the database as it was (``fails_on`` of tests/conftest.py)."""
    return lambda db, *args: fails_on(db, "overhead", *args)


def test_unknown_project(gcc_db_copy, refused, capsys):
    assert "unknown project 'nope'" in refused(gcc_db_copy, "run", "--project", "nope")


def test_compiler_not_installed(gcc_db_copy, refused, capsys):
    assert "not installed" in refused(gcc_db_copy, "run", "--compilers", "gcc-99")


def test_bad_level_and_opt(gcc_db_copy, refused, capsys):
    assert "unknown level" in refused(gcc_db_copy, "run", "--levels", "off,loud")
    assert "--opt" in refused(gcc_db_copy, "run", "--opt", "-O9")
    assert "--jobs" in refused(gcc_db_copy, "run", "--jobs", "0")
    assert "--timeout" in refused(gcc_db_copy, "run", "--timeout", "0")
    assert "--warmups" in refused(gcc_db_copy, "run", "--warmups", "-1")
    assert "--warmups" in refused(gcc_db_copy, "run", "--warmups", "101")
    assert "captures its compile commands" in refused(gcc_db_copy, "run", "--mode", "tu", "--warmups", "0")
    assert "--load" in refused(gcc_db_copy, "calibrate", "--load", "0")


def test_malformed_compile_commands(gcc_db_copy, refused, capsys, tmp_path):
    bad = tmp_path / "compile_commands.json"
    bad.write_text('[\n  {"directory": "/tmp",\n  "file": }\n]\n')
    err = refused(gcc_db_copy, "run", "--compile-commands", str(bad))
    assert f"{bad}:3:" in err
    bad.write_text('[{"directory": "/tmp", "file": "a.c"}]')
    assert "entry 0" in refused(gcc_db_copy, "run", "--compile-commands", str(bad))


def test_source_package_that_cannot_be_fetched(gcc_db_copy, refused, capsys, monkeypatch, tmp_path):
    """A recipe whose Debian source package does not exist: one line, nothing written."""
    ghost = recipes.Recipe("ghost", "no such package", ("c",), "make", configure="true", build="true",
                           clean="true", package="warnscope-no-such-source-package")
    monkeypatch.setitem(recipes.RECIPES, "ghost", ghost)
    err = refused(gcc_db_copy, "run", "--project", "ghost", "--compilers", "gcc-12")
    assert "cannot fetch Debian source package 'warnscope-no-such-source-package'" in err


def test_report_of_a_study_without_finished_cell(gcc_db_copy, refused, tmp_path):
    """A study interrupted before its first cell ended: report says so in one line."""
    (tmp_path / "a.c").write_text(GOOD_C)
    recipe = recipes.local(str(tmp_path), "", "$CC $CFLAGS -c a.c", "rm -f a.o", ("c",))

    def interrupt(_message: str) -> None:
        raise KeyboardInterrupt

    conn = connect(gcc_db_copy)
    try:
        with pytest.raises(KeyboardInterrupt):
            study.run_study(conn, recipe, steps.source_tree(recipe), [toolchain.resolve("gcc-12")], ["off"],
                            study.Options(runs=1), interrupt)
    finally:
        conn.close()
    err = refused(gcc_db_copy, "report")
    assert "has no finished cell yet" in err and f"({recipe.name})" in err
    assert "has no finished cell yet" in refused(gcc_db_copy, "report", "--format", "csv")


def test_apt_state_refuses_bad_names(tmp_path):
    apt = AptState(tmp_path / "apt")
    with pytest.raises(WarnscopeError, match="not a Debian source package name"):
        apt.download("../etc/passwd")


def test_calibrate(capsys, tmp_path):
    """The calibration runs its four conditions; CPU time of a fixed amount of work stays
    close to the idle figure under competing load (loose bound: a sanity check, the
    precise figure is in bench/README.md)."""
    code, out, err = run_cli(tmp_path / "x.db", capsys, "overhead", "calibrate", "--seconds", "0.2",
                             "--runs", "2", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert [c["condition"] for c in result["conditions"]] == \
        ["idle, nice 0", "idle, nice 19", "loaded, nice 0", "loaded, nice 19"]
    for c in result["conditions"]:
        assert 0.05 < c["cpu_s"]["median"] < 2.0
        assert abs(c["cpu_vs_idle_pct"]) < 25
    assert not (tmp_path / "x.db").exists()


def test_sigterm_stops_a_study_like_ctrl_c(gcc_db_copy, seeded_cache, tmp_path):
    """`kill` (SIGTERM) in the middle of a timed build: one line, exit 143, the build's
    processes and its work directory gone, no half-finished cell stored."""
    cache = seeded_cache(tmp_path / "cache")
    cmd = [sys.executable, "-c", "import sys; from analyzer.cli import main; sys.exit(main())",
           "--db", str(gcc_db_copy), "overhead", "run", "--project", "zlib", "--compilers", "gcc-12",
           "--levels", "off,all", "--runs", "2", "--opt", "-O0", "--quiet"]
    child = subprocess.Popen(cmd, env={**os.environ, "PYTHONPATH": os.getcwd(), "WARNSCOPE_CACHE": str(cache)},
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    work = cache / "builds" / "work"
    deadline = time.monotonic() + 600
    while not list(work.glob("gcc-12-*/off.log")) and time.monotonic() < deadline:
        assert child.poll() is None, child.communicate()
        time.sleep(0.05)
    dirs = list(work.glob("gcc-12-*"))
    assert dirs, "the timed build never started"
    time.sleep(0.5)
    child.terminate()
    out, err = child.communicate(timeout=120)
    assert child.returncode == 128 + signal.SIGTERM, err
    assert err.decode().strip().splitlines() == ["warnscope: terminated"]
    assert not any(d.exists() for d in dirs)
    assert not [p for p in _processes_in(dirs[0])], "a build process outlived the study"
    conn = connect(gcc_db_copy)
    assert conn.execute("SELECT count(*) FROM oh_cell WHERE status = 'ok'").fetchone()[0] == 0


def _processes_in(directory: Path) -> list[int]:
    """Processes whose working directory is inside ``directory``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cwd = os.readlink(entry / "cwd")
            except OSError:
                continue
            if cwd.startswith(str(directory)):
                found.append(int(entry.name))
    return found
