"""A real run of a program that hangs: the first run spends the cell's whole time
limit, the second only the short recheck, and the cell is still a hang; the batched
writes store every cell of the run."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from analyzer.sandbox import runner as sandbox
from analyzer.ub import report as ub_report
from analyzer.ub import run as ub_run
from analyzer.runtime.toolchain import resolve_list
from analyzer.ub.jobs import HANG_RECHECK_SECONDS
from warnscope.database import connect

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "ub"

pytestmark = pytest.mark.skipif(shutil.which("gcc-12") is None, reason="needs gcc-12")


def test_a_hang_spends_its_limit_once_and_stays_a_hang(tmp_path, cell_count):
    corpus = tmp_path / "c"
    shutil.copytree(FIXTURES / "mini", corpus)
    (corpus / "hostile").mkdir()
    shutil.copy(FIXTURES / "hostile" / "infinite-loop.c", corpus / "hostile")
    conn = connect(tmp_path / "ub.db")
    summary = ub_run.run(conn, corpus, resolve_list(["gcc-12"]), ["O0", "O2"],
                         limits=sandbox.Limits(timeout=2.0, cpu=3), sanitizers=False,
                         warnings=False)
    assert summary.failures == []
    cells = ub_report.load(conn).cells
    assert cell_count(tmp_path / "ub.db") == summary.cells == len(cells)
    hangs = [c for c in cells if c.case_id == "hostile/infinite-loop"]
    assert len(hangs) == 2
    for cell in hangs:
        first, second = cell.runs
        assert cell.outcome == "hang"
        assert (first.status, second.status) == ("timeout", "timeout")
        assert (first.timeout, second.timeout) == (2.0, HANG_RECHECK_SECONDS)
        assert first.wall >= 2.0 and second.wall < 2.0
    others = [c for c in cells if c.case_id != "hostile/infinite-loop"]
    assert all(r.timeout == 2.0 for c in others for r in c.runs)
