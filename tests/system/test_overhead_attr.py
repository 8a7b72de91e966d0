"""``overhead attribute`` on zlib with gcc-12 (real builds, real compiles, cachegrind) and
its bad input, and the same study cells on a real Dask LocalCluster.

Structure and soundness only (what is stored, what adds up, what resumes); how much the
flags cost is for the benchmark figures, not for tests. -O0 and one TU keep it short.
"""
from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from analyzer.cli import main
from analyzer.projects import recipes
from analyzer.overhead import store
from warnscope.database import connect

pytestmark = pytest.mark.skipif(not shutil.which("gcc-12"), reason="needs gcc-12")


def run_cli(db: Path, capsys, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["--db", str(db), *args])
    out, err = capsys.readouterr()
    return code, out, err


#: two suspects at most: each costs two cachegrind runs of the TU with --instructions (with
#: the default twelve, the search's noise on a TU this small made this test four minutes)
ATTR = ("overhead", "attribute", "zlib", "--compiler", "gcc-12", "--opt", "-O0", "--top", "1", "--runs", "2",
        "--min-share", "0.2", "--max-suspects", "2", "--json")


@pytest.mark.skipif(not shutil.which("valgrind"), reason="--instructions needs valgrind")
def test_attribute_zlib(gcc_db_copy, capsys, dump):
    code, out, err = run_cli(gcc_db_copy, capsys, *ATTR, "--instructions")
    assert code == 0, err
    a = json.loads(out)
    assert a["project"] == "zlib" and a["compiler"] == "gcc-12" and a["tus_from"] == "measured"
    assert len(a["tus"]) == 1 and ".c" in a["tus"][0]["tu"]
    assert a["metric"] == "cpu" and a["unit"] == "s"
    assert len(a["off"]) == len(a["all"]) == 2
    assert a["flags_searched"] > 200
    added = a["added"]
    assert added["low"] <= added["median"] <= added["high"]
    for s in a["suspects"]:
        assert s["alone"]["low"] <= s["alone"]["median"] <= s["alone"]["high"]
        assert s["alone_instructions"] is not None and s["unique_instructions"] is not None
    # exact counts: 300 warning flags cost instructions, whatever the machine's load
    assert a["all_instructions"] > a["off_instructions"] > 10_000_000
    names = {p["name"] for p in a["phases"]}
    assert names, "the -ftime-report timevars are parsed"
    p = a["printing"]
    assert p["warnings"] > 0 and p["quiet"] is not None
    assert p["printing"]["low"] <= p["printing"]["median"] <= p["printing"]["high"]
    # the same parameters again: a resume from the stored probes, nothing measured
    before = dump(gcc_db_copy)
    code, out2, err = run_cli(gcc_db_copy, capsys, *ATTR, "--instructions")
    assert code == 0, err
    assert " run 1/" not in err and "configure" not in err
    again = json.loads(out2)
    assert again["suspects"] == a["suspects"] and again["probes"] == a["probes"]
    assert dump(gcc_db_copy) == before
    # kept as it finished, for the report site (which measures nothing)
    conn = connect(gcc_db_copy, write=False)
    assert store.attribution_results(conn) == [a]
    conn.close()
    # the text renderer
    code, text, err = run_cli(gcc_db_copy, capsys, *ATTR[:-1])
    assert code == 0 and "printing vs finding" in text and "phases that grow most" in text


def attr_probes(db: Path) -> set[tuple[str, str]]:
    """(role, instrument) of the stored probes of every attribution in ``db``."""
    conn = sqlite3.connect(db)
    try:
        return set(conn.execute("SELECT DISTINCT role, instrument FROM oh_attr_probe").fetchall())
    finally:
        conn.close()


@pytest.mark.skipif(not shutil.which("valgrind"), reason="--metric instructions needs valgrind")
@pytest.mark.skipif(os.environ.get("WARNSCOPE_SLOW_TESTS") != "1",
                    reason="two attributions of ~25 cachegrind probes each (~7 min of CPU): "
                           "WARNSCOPE_SLOW_TESTS=1")
def test_attribute_zlib_instructions(gcc_db_copy, tmp_path, capsys, dump):
    """The search itself on exact instruction counts: one run per probe, a threshold that is
    only a share of all's added instructions, and the same result from two independent
    attributions of the same TU (CPU time on a loaded machine gives neither)."""
    code, out, err = run_cli(gcc_db_copy, capsys, "overhead", "run", "--project", "zlib", "--mode", "tu",
                             "--compilers", "gcc-12", "--levels", "off,all", "--runs", "1", "--opt", "-O0",
                             "--json", "--quiet")
    assert code == 0, err
    sid = str(json.loads(out)["study"])
    other = tmp_path / "other.db"
    shutil.copy(gcc_db_copy, other)     # the same study, no attribution yet
    args = ("overhead", "attribute", "zlib", "--compiler", "gcc-12", "--opt", "-O0", "--top", "1",
            "--study", sid, "--metric", "instructions", "--min-share", "0.25", "--max-suspects", "1", "--json")
    code, out, err = run_cli(gcc_db_copy, capsys, *args)
    assert code == 0, err
    a = json.loads(out)
    assert a["metric"] == "instructions" and a["unit"] == "instructions"
    assert a["runs"] == a["search_runs"] == 1 and a["tus_from"] == f"study {sid}"
    # every figure is a count: one exact run, no range, the threshold a plain share of it
    (off,), (all_,) = a["off"], a["all"]
    assert isinstance(off, int) and isinstance(all_, int) and off > 10_000_000
    assert a["added"] == {"median": all_ - off, "low": all_ - off, "high": all_ - off} and all_ > off
    assert a["threshold"] == pytest.approx(0.25 * (all_ - off), abs=1)
    assert a["search"] and all(isinstance(s["added"], int) for s in a["search"])
    assert all(s["costs"] == (s["added"] > a["threshold"]) for s in a["search"])
    assert a["suspects"]
    for s in a["suspects"]:
        assert s["alone"]["low"] == s["alone"]["median"] == s["alone"]["high"]
    assert isinstance(a["printing"]["printing"]["median"], int)
    probes = attr_probes(gcc_db_copy)
    assert {i for _, i in probes} == {"instructions", "time-report"}   # no probe timed by CPU
    assert not any(r == "alone" for r, _ in probes)   # a flag alone is its search probe, counted once
    # the same parameters again (--runs does not apply to exact counts): a resume, nothing measured
    before = dump(gcc_db_copy)
    code, out2, err = run_cli(gcc_db_copy, capsys, *args, "--runs", "5")
    assert code == 0, err
    assert " run 1/" not in err and json.loads(out2) == {**a, "load_average": json.loads(out2)["load_average"]}
    assert dump(gcc_db_copy) == before
    # an independent attribution (another workspace, another moment's load) finds the same
    code, out3, err = run_cli(other, capsys, *args)
    assert code == 0, err
    b = json.loads(out3)
    assert [s["flags"] for s in b["suspects"]] == [s["flags"] for s in a["suspects"]]
    assert [(s["depth"], s["first"], s["last"], s["costs"]) for s in b["search"]] == \
        [(s["depth"], s["first"], s["last"], s["costs"]) for s in a["search"]]
    assert b["off"][0] == pytest.approx(off, rel=1e-3) and b["all"][0] == pytest.approx(all_, rel=1e-3)
    code, text, err = run_cli(other, capsys, *args[:-1])
    assert code == 0 and "metric: instructions executed" in text and " instr" in text


@pytest.fixture
def refused(dump, capsys):
    def check(db: Path, *args: str) -> str:
        before = dump(db)
        code, out, err = run_cli(db, capsys, "overhead", *args)
        assert code == 1, (out, err)
        assert err.startswith("warnscope: error: ") and len(err.strip().splitlines()) == 1, err
        assert dump(db) == before
        return err
    return check


def test_attribute_bad_input(gcc_db_copy, refused):
    assert "unknown project 'nope'" in refused(gcc_db_copy, "attribute", "nope")
    assert "not installed" in refused(gcc_db_copy, "attribute", "zlib", "--compiler", "gcc-99")
    assert "--min-share" in refused(gcc_db_copy, "attribute", "zlib", "--min-share", "2")
    assert "--opt" in refused(gcc_db_copy, "attribute", "zlib", "--opt", "-O7")
    assert "--timeout" in refused(gcc_db_copy, "attribute", "zlib", "--timeout", "0")
    assert "--max-suspects" in refused(gcc_db_copy, "attribute", "zlib", "--max-suspects", "0")
    assert "--metric" in refused(gcc_db_copy, "attribute", "zlib", "--metric", "cycles")
    assert "counts every probe already" in refused(gcc_db_copy, "attribute", "zlib", "--metric", "instructions",
                                                   "--instructions")
    assert "unknown compiler id 'tcc'" in refused(gcc_db_copy, "attribute", "zlib", "--compiler", "tcc")
    assert "is not a tu-mode study" in refused(gcc_db_copy, "attribute", "zlib", "--study", "999", "--opt", "-O0")


def test_attribute_build_fails_or_fetch_fails(gcc_db_copy, refused, monkeypatch, tmp_path):
    """A project whose build fails, or whose source package cannot be fetched: one line, and
    the database as it was (no attribution left behind with nothing measured)."""
    (tmp_path / "broken.c").write_text("int main(void) { return 0 }\n")
    broken = recipes.Recipe("broken", "does not compile", ("c",), "custom", configure="true",
                            build="$CC $CFLAGS -c broken.c", clean="rm -f broken.o", source=tmp_path)
    ghost = recipes.Recipe("ghost", "no such package", ("c",), "make", configure="true", build="true",
                           clean="true", package="warnscope-no-such-source-package")
    monkeypatch.setitem(recipes.RECIPES, "broken", broken)
    monkeypatch.setitem(recipes.RECIPES, "ghost", ghost)
    err = refused(gcc_db_copy, "attribute", "broken", "--opt", "-O0", "--quiet")
    assert "broken gcc-12: build failed" in err and "broken.c" in err
    assert err.count("error: expected") == 1, err   # the compiler's first error, said once
    assert "cannot fetch Debian source package" in refused(gcc_db_copy, "attribute", "ghost", "--quiet")


def test_attribute_build_that_fails_ending_in_a_url(gcc_db_copy, refused, monkeypatch, tmp_path):
    """A build that fails with no error line, its log ending in advice with a URL (as
    automake's ``missing`` does): the one line says how the build failed, never the URL."""
    (tmp_path / "good.c").write_text("int main(void) { return 0; }\n")
    advice = recipes.Recipe("advice", "fails with advice", ("c",), "custom", configure="true",
                            build="$CC $CFLAGS -c good.c && echo 'WARNING: a tool is missing; see' "
                                  "&& echo '<https://www.gnu.org/software/automake>' && exit 3",
                            clean="rm -f good.o", source=tmp_path)
    monkeypatch.setitem(recipes.RECIPES, "advice", advice)
    err = refused(gcc_db_copy, "attribute", "advice", "--opt", "-O0", "--quiet")
    assert "advice gcc-12: build failed (exit 3" in err and "https://" not in err, err


def test_study_on_dask_cluster(gcc_db_copy, capsys, dump):
    """The cells of a study on a real LocalCluster: stored with the worker's host; a
    cluster whose workers run several threads is refused before anything is written."""
    distributed = pytest.importorskip("distributed")
    args = ("overhead", "run", "--project", "zlib", "--compilers", "gcc-12", "--levels", "off,wall",
            "--runs", "1", "--opt", "-O0", "--json")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=True,
                                  dashboard_address=None) as cluster:
        before = dump(gcc_db_copy)
        code, out, err = run_cli(gcc_db_copy, capsys, *args, "--scheduler", cluster.scheduler_address)
        assert code == 1 and "--nthreads 1" in err and len(err.strip().splitlines()) == 1, err
        assert dump(gcc_db_copy) == before
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        code, out, err = run_cli(gcc_db_copy, capsys, *args, "--scheduler", cluster.scheduler_address)
    assert code == 0, err
    cells = json.loads(out)["cells"]
    assert {c["level"] for c in cells} == {"off", "wall"}
    assert all(c["status"] == "ok" and c["runs"] == 1 and c["host"] for c in cells)
    code, out, _ = run_cli(gcc_db_copy, capsys, "overhead", "report", "--format", "json")
    wall = [r for r in json.loads(out)["rows"] if r["level"] == "wall"][0]
    assert wall["ratio"] is not None
