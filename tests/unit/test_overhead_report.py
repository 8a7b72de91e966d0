"""The overhead report's arithmetic and rendering on hand-made cells (no compiler runs):
ratios only within one host, a study without finished cells, the TU language rule."""
from __future__ import annotations

import csv
import io
import json

import pytest

from analyzer.overhead import report, study
from analyzer.overhead.results import Cell, Figures, Probe, Study, TuRun
from warnscope.measure import TreeRun

INFO = Study(id=1, project="p", origin="p_1.0", mode="build", opt="-O2", runs=1, jobs=2, nice=0, sched=None,
             noise=0.05, host="a", machine={"summary": "test"}, started_at="2026-01-01T00:00:00+00:00")


def cell(level: str, host: str, cpu: float, status: str = "ok") -> Cell:
    mmm = Figures(cpu, cpu, cpu)
    return Cell(study=1, project="p", mode="build", opt="-O2", compiler="gcc-12", compiler_version="12.2.0",
                level=level, inject="wrapper", flags=[], flags_by_language={}, status=status, runs=1,
                cpu_s=mmm, user_s=mmm, by_process=None,
                sys_s=Figures(0, 0, 0), wall_s=mmm, compiler_cpu_s=mmm, other_cpu_s=Figures(0, 0, 0),
                compilers=1, maxrss_kb=1, warnings=0, noisy=False, spread=0.0, max_load=0.0, host=host,
                error=None if status == "ok" else "build failed")


def test_no_cross_host_ratios():
    """A cell measured on another host than its compiler's off cell gets no ratio."""
    same = report.rows([cell("off", "a", 1.0), cell("all", "a", 1.5)])
    assert same[1].ratio == 1.5
    other = report.rows([cell("off", "a", 1.0), cell("all", "b", 1.5)])
    assert other[1].ratio is None and "not compared" in other[1].error


def test_json_is_the_results():
    """``report --json`` is the serialisation of the typed report: the study, the rows
    with their figures as {min, median, max}, the top TUs."""
    out = json.loads(report.render(report.report(INFO, [cell("off", "a", 1.0), cell("all", "a", 1.5)]), "json"))
    assert set(out) == {"study", "rows", "top_tus"}
    assert out["study"]["machine"] == {"summary": "test"} and out["study"]["id"] == 1
    assert out["rows"][1]["cpu_s"] == {"min": 1.5, "median": 1.5, "max": 1.5}
    assert out["rows"][1]["ratio"] == 1.5 and out["rows"][1]["ratio_min"] == 1.5


def test_figures_are_measures_stats():
    assert Figures.of([]) is None
    assert Figures.of([3.0, 1.0, 2.00049]) == Figures(1.0, 2.0, 3.0)
    assert Figures.of([1.23456], 4) == Figures(1.2346, 1.2346, 1.2346)


@pytest.mark.parametrize("fmt", ["text", "markdown", "csv", "json"])
def test_render_without_cells(fmt):
    """A study whose cells all failed to start renders (the CLI refuses an empty one before)."""
    out = report.render(report.report(INFO, []), fmt)
    if fmt == "json":
        assert json.loads(out)["rows"] == []
    elif fmt == "csv":
        assert list(csv.reader(io.StringIO(out))) == [report.CSV_FIELDS]
    else:
        assert "compiler" in out and "gcc-12" not in out


def test_render_failed_cell():
    cells = [cell("off", "a", 1.0), cell("all", "a", 0.0, "failed")]
    assert "gcc-12 all: build failed" in report.render(report.report(INFO, cells), "text")
    rows = list(csv.DictReader(io.StringIO(report.render(report.report(INFO, cells), "csv"))))
    assert [r["error"] for r in rows] == ["", "build failed"]  # not lost when the first row has none


def test_tu_language():
    assert study.tu_language("/usr/bin/g++-12", ["-c", "lapi.c"], "lapi.c") == "c++"
    assert study.tu_language("/usr/bin/gcc-12", ["-x", "c++", "-c", "a.c"], "a.c") == "c++"
    assert study.tu_language("/usr/bin/clang-16", ["-c", "a.cc"], "a.cc") == "c++"
    assert study.tu_language("/usr/bin/clang-16", ["-c", "a.c"], "a.c") == "c"


def test_probe_values_by_metric():
    """A probe's figure is its metric's: CPU seconds per run, or one exact count as an int."""
    def r(tu: str, seq: int, cpu: float, instr: int | None) -> TuRun:
        return TuRun(tu, seq, TreeRun(user=cpu, sys=0.0, wall=cpu, maxrss_kb=1), 0, "h", instr)

    cpu = Probe("off", ("-w",), "cpu", [r("a", 1, 1.0, None), r("b", 1, 0.5, None), r("a", 2, 1.25, None),
                                         r("b", 2, 0.5, None)])
    assert cpu.values() == [1.5, 1.75]
    exact = Probe("off", ("-w",), "instructions", [r("a", 1, 9.0, 1_000), r("b", 1, 9.0, 234)])
    assert exact.values() == [1_234] and isinstance(exact.values()[0], int)


def test_render_instructions_attribution():
    """An attribution by instructions shows counts, with no [min, max] range (one exact run)."""
    from analyzer.overhead import results as at

    exact = at.Interval(176_709_980, 176_709_980, 176_709_980)
    a = at.Attribution(
        id=1, project="p", origin="p_1", compiler="gcc-12", compiler_version="12.2.0", opt="-O3",
        metric="instructions", unit="instructions", runs=1, search_runs=1, host="h", load_average=(14.0, 13.0, 12.0),
        tus_from="study 1", tus=[at.TuCost("a.c", 0.3, 0.5, 0.2)], off=[4_326_171_765], all=[4_502_881_745],
        added=exact, threshold=8_835_499, flags_searched=308, probes=9,
        search=[at.Step(1, 154, "-Wa", "-Wb", 170_000_000, True)],
        suspects=[at.FlagCost(("-Wa",), False, exact, exact, 1.0, 3)], explained_share=1.0,
        off_instructions=None, all_instructions=None, phases=[], printing=None, machine="m")
    text = report.render_attribution(a)
    assert "off 4,326,171,765 instr, all adds +176,709,980 instr;" in text
    assert "metric: instructions executed" in text and "intervals" not in text
    assert "-Wa" in text and "+170,000,000 instr *" in text and "of all's added instructions" in text
