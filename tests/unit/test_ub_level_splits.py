"""Which compilers' levels a case's report says the optimiser split: behaviour as
divergence counts it, on a real case of the bundled corpus with two accepted outputs
(``pointer-comparison/different-arrays.fixed``: either order of two arrays in memory)."""
from __future__ import annotations

from analyzer.ub.classify import verdict
from analyzer.ub.corpus import bundled_corpus, load
from analyzer.ub.report import level_splits
from analyzer.ub.results import CellRecord, Outcome

CASE = "pointer-comparison/different-arrays.fixed"


def _cell(case, compiler: str, level: str, outcome: Outcome, stdout: bytes) -> CellRecord:
    v = verdict(case, outcome, stdout)
    return CellRecord(case_id=case.id, compiler=compiler, level=level, flags="", key="",
                      outcome=v.outcome, exploited=v.exploited, behaviour=v.behaviour, exit=0,
                      signal=None, stdout=stdout.decode(), stderr="", compile_log="",
                      compiler_version="", runs=[], host="", finished_at="")


def test_two_accepted_outputs_are_one_behaviour_and_a_crash_is_another():
    [case] = [c for c in load(bundled_corpus()).cases if c.id == CASE]
    first, second = case.expected[:2]
    assert first != second
    cells = [_cell(case, "gcc-12", "-O0", Outcome.EXPECTED, first),
             _cell(case, "gcc-12", "-O2", Outcome.EXPECTED, second),       # accepted too
             _cell(case, "clang-16", "-O0", Outcome.EXPECTED, first),
             _cell(case, "clang-16", "-O2", Outcome.CRASH, b""),
             _cell(case, "gcc-11", "-O0", Outcome.EXPECTED, first),
             _cell(case, "gcc-11", "-O2", Outcome.COMPILE_ERROR, b"")]        # not compared
    assert level_splits(cells) == ["clang-16"]
