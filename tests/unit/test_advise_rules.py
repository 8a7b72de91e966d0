"""The advice's rules (analyzer/advise/rules.py) on hand-made evidence: each verdict, the
order the rules are applied in, and the thresholds each option moves."""
from __future__ import annotations

from analyzer.advise.results import Cost, CostStatus, FileCount, OnAt, PerCompiler, Prints, UbCatch, Verdict
from analyzer.advise.rules import Portability, Rules, decide


def seen(compiler: str, own: int = 0, cases=(), controls=(), on: OnAt | None = None, tried: bool = True,
         known: bool = True, noop: bool = False, cost: float | None = None, twins=(), alike=()) -> PerCompiler:
    p = PerCompiler(compiler, known=known, languages=["c"] if known else [], resolves_to="-Wx" if known else None,
                    noop=noop, on=on)
    if known:
        p.prints = Prints(own=own, own_printed=own * 2, top_files=[FileCount("a.c", own)] if own else [])
        p.ub = UbCatch(tried=tried, cases=list(cases), controls=list(controls), twins=list(twins),
                       alike=list(alike))
        if cost is not None:
            p.cost = Cost(CostStatus.MEASURED, attribution=1, metric="cpu", unit="s", alone=0.5, share_of_off=cost)
    return p


def test_silent_and_catching_is_turn_on():
    d = decide([seen("gcc-12", cases=["a/x", "b/y"]), seen("clang-16", cases=["a/x"])], Rules())
    assert d.verdict is Verdict.TURN_ON and d.cases == ["a/x", "b/y"]
    assert any("silent on this tree with gcc-12, clang-16" in r for r in d.reasons)
    assert any("catches 2 UB cases (a/x, b/y)" in r for r in d.reasons)


def test_silent_and_catching_nothing_is_no_evidence():
    assert decide([seen("gcc-12")], Rules()).verdict is Verdict.NO_EVIDENCE


def test_on_at_the_base_everywhere_is_already_on_and_the_base_moves_it():
    evidence = [seen("gcc-12", on=OnAt.WEXTRA, cases=["a/x"]), seen("clang-16", on=OnAt.WALL)]
    assert decide(evidence, Rules()).verdict is Verdict.ALREADY_ON
    # at base wall, gcc-12 has it off: the rest is about gcc-12
    d = decide(evidence, Rules(base="wall"))
    assert d.verdict is Verdict.TURN_ON
    assert any("on at the base level with clang-16; off with gcc-12" in r for r in d.reasons)


def test_firing_and_catching_is_fix_first_ranked_by_cases_per_diagnostic():
    d = decide([seen("gcc-12", own=4, cases=["a/x", "b/y"])], Rules())
    assert d.verdict is Verdict.FIX_FIRST and d.rank == 0.5


def test_firing_often_for_what_it_catches_is_style_and_often_moves_it():
    evidence = [seen("gcc-12", own=30, cases=["a/x"])]
    assert decide(evidence, Rules()).verdict is Verdict.STYLE
    assert decide(evidence, Rules(often=31)).verdict is Verdict.FIX_FIRST
    assert decide([seen("gcc-12", own=30)], Rules()).verdict is Verdict.STYLE
    assert decide([seen("gcc-12", own=3)], Rules()).verdict is Verdict.REVIEW


def test_a_flag_firing_on_programs_without_ub_has_its_cases_not_counted():
    evidence = [seen("clang-16", cases=["a/x", "b/y"], controls=["control/z"])]
    d = decide(evidence, Rules())
    assert d.verdict is Verdict.NO_EVIDENCE and d.cases == []
    assert any("fires on 1 program without UB (control/z): its 2 UB cases not counted with clang-16" in r
               for r in d.reasons)
    assert decide(evidence, Rules(max_control_hits=1)).verdict is Verdict.TURN_ON


def test_cases_count_only_where_the_corpus_had_the_flag_on():
    d = decide([seen("gcc-12", cases=["a/x"], tried=False)], Rules())
    assert d.verdict is Verdict.NO_EVIDENCE
    assert any("not on in the UB corpus's checks with gcc-12" in r for r in d.reasons)


def test_a_compiler_that_does_not_know_it_makes_it_not_portable_unless_any():
    evidence = [seen("gcc-12", known=False), seen("clang-16", cases=["a/x"])]
    assert decide(evidence, Rules()).verdict is Verdict.NOT_PORTABLE
    d = decide(evidence, Rules(portable=Portability.ANY))
    assert d.verdict is Verdict.TURN_ON and any("not to gcc-12" in r for r in d.reasons)


def test_a_measured_cost_above_the_threshold_stops_turn_on_and_is_said():
    evidence = [seen("gcc-12", cases=["a/x"], cost=0.2)]
    d = decide(evidence, Rules())
    assert d.verdict is Verdict.COSTLY and any("costs 20.0% of the off compile with gcc-12" in r for r in d.reasons)
    assert decide(evidence, Rules(cost_threshold=0.5)).verdict is Verdict.TURN_ON
    fires = decide([seen("gcc-12", own=2, cases=["a/x"], cost=0.2)], Rules())
    assert fires.verdict is Verdict.FIX_FIRST and any("costs 20.0%" in r for r in fires.reasons)


def test_no_ops_are_left_out_and_a_flag_only_a_no_op_has_no_evidence():
    assert decide([seen("clang-14", noop=True, cases=["a/x"])], Rules()).verdict is Verdict.NO_EVIDENCE
    d = decide([seen("clang-14", noop=True, own=50), seen("clang-19", cases=["a/x"])], Rules())
    assert d.verdict is Verdict.TURN_ON and any("a no-op with clang-14" in r for r in d.reasons)


def test_a_compiler_without_a_build_leaves_silence_unknown():
    p = seen("gcc-12", cases=["a/x"])
    p.prints = None
    assert decide([p], Rules()).verdict is Verdict.NO_EVIDENCE


def test_a_flags_cost_is_read_from_the_attributions_result():
    """An attribution's stored result (``overhead attribute --json``): a suspect's cost
    alone against the off compile; searched and not a suspect; one set measured whole."""
    from analyzer.advise.advice import _cost
    from analyzer.advise.store import StoredAttribution

    result = {"metric": "cpu", "unit": "s", "off": [2.0, 2.2, 2.1], "flags_searched": 240,
              "suspects": [{"flags": ["-Wnull-dereference"], "diffuse": False,
                            "alone": {"median": 0.21, "low": 0.2, "high": 0.3}}]}
    attr = StoredAttribution(7, "gcc-12", result)
    measured = _cost("-Wnull-dereference", attr, "gcc-12", "zlib")
    assert measured.status is CostStatus.MEASURED and measured.alone == 0.21
    assert measured.share_of_off == 0.21 / 2.1 and measured.attribution == 7
    assert _cost("-Wshadow", attr, "gcc-12", "zlib").status is CostStatus.BELOW_THRESHOLD
    whole = StoredAttribution(8, "clang-16", {**result, "flags_searched": 1, "suspects": []})
    assert _cost("-Wshadow", whole, "clang-16", "zlib").status is CostStatus.NOT_SEPARATED
    none = _cost("-Wshadow", None, "gcc-12", "zlib")
    assert none.status is CostStatus.NONE and none.command == "warnscope overhead attribute zlib --compiler gcc-12"
    assert _cost("-Wshadow", None, "gcc-12", "local:tree").command is None


def test_a_fixed_twin_it_fires_on_is_a_false_alarm_and_a_case_fired_on_alike_is_not_caught():
    twin_alarm = [seen("gcc-12", cases=["a/x"], twins=["b/y.fixed"])]
    d = decide(twin_alarm, Rules())
    assert d.verdict is Verdict.NO_EVIDENCE and d.cases == []
    assert any("fires on 1 program without UB (b/y.fixed): its 1 UB case not counted" in r for r in d.reasons)
    assert decide(twin_alarm, Rules(max_control_hits=1)).verdict is Verdict.TURN_ON
    alike = decide([seen("gcc-12", cases=["a/x"], alike=["b/y"])], Rules(max_control_hits=1))
    assert alike.cases == ["a/x"]
    assert any("fires on 1 UB case and its fixed twin alike (b/y): not caught" in r for r in alike.reasons)


def test_a_flag_a_build_failed_on_breaks_the_build_and_a_failed_build_proves_no_silence():
    crashed = seen("gcc-12", cases=["a/x"])
    crashed.trouble = ["gcc-12's build at all failed: ... internal compiler error: in diag_mismatched_tags"]
    d = decide([crashed, seen("clang-16", on=OnAt.WALL)], Rules())
    assert d.verdict is Verdict.BREAKS_BUILD and any("failed on it with gcc-12" in r for r in d.reasons)
    partial = seen("gcc-12", cases=["a/x"])
    partial.prints.complete = False
    d = decide([partial, seen("clang-16", cases=["a/x"])], Rules())
    assert d.verdict is Verdict.NO_EVIDENCE
    assert any("failed with gcc-12: silent up to the failure" in r for r in d.reasons)
    assert any("silent on this tree with clang-16" in r for r in d.reasons)
    partial.prints.own = 3   # what it printed before the failure counts
    assert decide([partial], Rules()).verdict is Verdict.FIX_FIRST
