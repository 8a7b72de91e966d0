"""The overhead report's arithmetic and rendering on hand-made cells (no compiler runs):
ratios only within one host, a study without finished cells, the TU language rule."""
from __future__ import annotations

import csv
import io
import json

import pytest

from analyzer.overhead import report, study

INFO = {"id": 1, "project": "p", "origin": "p_1.0", "mode": "build", "opt": "-O2", "runs": 1, "jobs": 2,
        "nice": 0, "sched": None, "noise": 0.05, "host": "a", "machine": {"summary": "test"},
        "started_at": "2026-01-01T00:00:00+00:00"}


def cell(level: str, host: str, cpu: float, status: str = "ok") -> dict:
    mmm = {"min": cpu, "median": cpu, "max": cpu}
    return {"project": "p", "mode": "build", "opt": "-O2", "compiler": "gcc-12", "level": level,
            "status": status, "runs": 1, "flags": [], "cpu_s": mmm, "wall_s": mmm, "warnings": 0,
            "noisy": False, "compiler_cpu_s": mmm, "other_cpu_s": {"min": 0, "median": 0, "max": 0},
            "host": host, "error": None if status == "ok" else "build failed"}


def test_no_cross_host_ratios():
    """A cell measured on another host than its compiler's off cell gets no ratio."""
    same = report.rows([cell("off", "a", 1.0), cell("all", "a", 1.5)])
    assert same[1]["ratio"] == 1.5
    other = report.rows([cell("off", "a", 1.0), cell("all", "b", 1.5)])
    assert other[1]["ratio"] is None and "not compared" in other[1]["error"]


@pytest.mark.parametrize("fmt", ["text", "markdown", "csv", "json"])
def test_render_without_cells(fmt):
    """A study whose cells all failed to start renders (the CLI refuses an empty one before)."""
    out = report.render(INFO, [], fmt)
    if fmt == "json":
        assert json.loads(out)["rows"] == []
    elif fmt == "csv":
        assert list(csv.reader(io.StringIO(out))) == [report.CSV_FIELDS]
    else:
        assert "compiler" in out and "gcc-12" not in out


def test_render_failed_cell():
    cells = [cell("off", "a", 1.0), cell("all", "a", 0.0, "failed")]
    assert "gcc-12 all: build failed" in report.render(INFO, cells, "text")
    rows = list(csv.DictReader(io.StringIO(report.render(INFO, cells, "csv"))))
    assert [r["error"] for r in rows] == ["", "build failed"]  # not lost when the first row has none


def test_tu_language():
    assert study.tu_language("/usr/bin/g++-12", ["-c", "lapi.c"], "lapi.c") == "c++"
    assert study.tu_language("/usr/bin/gcc-12", ["-x", "c++", "-c", "a.c"], "a.c") == "c++"
    assert study.tu_language("/usr/bin/clang-16", ["-c", "a.cc"], "a.cc") == "c++"
    assert study.tu_language("/usr/bin/clang-16", ["-c", "a.c"], "a.c") == "c"
