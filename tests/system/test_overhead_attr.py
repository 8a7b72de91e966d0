"""``overhead attribute`` on zlib with gcc-12 (real builds, real compiles, cachegrind) and
its bad input, and the same study cells on a real Dask LocalCluster.

Structure and soundness only (what is stored, what adds up, what resumes); how much the
flags cost is for the benchmark figures, not for tests. -O0 and one TU keep it short.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from analyzer.cli import main
from analyzer.overhead import recipes

pytestmark = pytest.mark.skipif(not shutil.which("gcc-12"), reason="needs gcc-12")


def run_cli(db: Path, capsys, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["--db", str(db), *args])
    out, err = capsys.readouterr()
    return code, out, err


ATTR = ("overhead", "attribute", "zlib", "--compiler", "gcc-12", "--opt", "-O0", "--top", "1", "--runs", "2",
        "--min-share", "0.2", "--json")


@pytest.mark.skipif(not shutil.which("valgrind"), reason="--instructions needs valgrind")
def test_attribute_zlib(gcc_db_copy, capsys, dump):
    code, out, err = run_cli(gcc_db_copy, capsys, *ATTR, "--instructions")
    assert code == 0, err
    a = json.loads(out)
    assert a["project"] == "zlib" and a["compiler"] == "gcc-12" and a["tus_from"] == "measured"
    assert len(a["tus"]) == 1 and ".c" in a["tus"][0]["tu"]
    assert len(a["off_s"]) == len(a["all_s"]) == 2
    assert a["flags_searched"] > 200
    added = a["added_s"]
    assert added["low"] <= added["median"] <= added["high"]
    for s in a["suspects"]:
        assert s["alone_s"]["low"] <= s["alone_s"]["median"] <= s["alone_s"]["high"]
        assert s["alone_instructions"] is not None and s["unique_instructions"] is not None
    # exact counts: 300 warning flags cost instructions, whatever the machine's load
    assert a["all_instructions"] > a["off_instructions"] > 10_000_000
    names = {p["name"] for p in a["phases"]}
    assert names, "the -ftime-report timevars are parsed"
    p = a["printing"]
    assert p["warnings"] > 0 and p["quiet_s"] is not None
    assert p["printing_s"]["low"] <= p["printing_s"]["median"] <= p["printing_s"]["high"]
    # the same parameters again: a resume from the stored probes, nothing measured
    before = dump(gcc_db_copy)
    code, out2, err = run_cli(gcc_db_copy, capsys, *ATTR, "--instructions")
    assert code == 0, err
    assert " run 1/" not in err and "configure" not in err
    again = json.loads(out2)
    assert again["suspects"] == a["suspects"] and again["probes"] == a["probes"]
    assert dump(gcc_db_copy) == before
    # the text renderer
    code, text, err = run_cli(gcc_db_copy, capsys, *ATTR[:-1])
    assert code == 0 and "printing vs finding" in text and "phases that grow most" in text


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
    assert "cannot fetch Debian source package" in refused(gcc_db_copy, "attribute", "ghost", "--quiet")


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
