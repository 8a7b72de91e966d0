"""What a flag catches, from either source (analyzer/advise/catches.py): the scores of
``ub detectors`` (caught at the ub-line, false alarms on the twins) and the warning
checks of ``ub run`` (fired anywhere in a case)."""
from __future__ import annotations

from analyzer.advise.catches import Fired, Scored
from analyzer.advise.results import UbCatch
from analyzer.advise.store import UbCase

CASES = {c.id: c for c in (
    UbCase("a/x", "a", "c", True, twin="a/x.fixed"), UbCase("a/x.fixed", "a", "c", False, fixes="a/x"),
    UbCase("a/y", "a", "c", True, twin="a/y.fixed"), UbCase("a/y.fixed", "a", "c", False, fixes="a/y"),
    UbCase("control/z", "control", "c", False))}


def test_scores_give_the_catches_and_false_alarms_of_the_options_a_flag_turns_on():
    scored = Scored([("-Wone", frozenset({"a/x"}), frozenset()),
                     ("-Wtwo", frozenset({"a/y"}), frozenset({"a/y.fixed"})),
                     ("-Wother", frozenset({"a/x", "a/y"}), frozenset({"a/x.fixed"}))], CASES)
    one = UbCatch(tried=True)
    scored.fill(frozenset({"-Wone"}), one)
    assert (one.cases, one.alike, one.twins, one.controls) == (["a/x"], [], [], [])
    both = UbCatch(tried=True)
    scored.fill(frozenset({"-Wone", "-Wtwo"}), both)
    # a/y is reported on its twin too: not caught, and its twin is a false alarm
    assert (both.cases, both.alike, both.twins) == (["a/x"], ["a/y"], ["a/y.fixed"])
    none = UbCatch(tried=True)
    scored.fill(frozenset({"-Wabsent"}), none)
    assert none == UbCatch(tried=True)


def test_checks_count_any_firing_and_controls():
    fired = Fired([("a/x", frozenset({"-Wone"})), ("a/y", frozenset({"-Wone"})),
                   ("a/y.fixed", frozenset({"-Wone"})), ("control/z", frozenset({"-Wone", "-Wtwo"}))], CASES)
    got = UbCatch(tried=True)
    fired.fill(frozenset({"-Wone"}), got)
    assert (got.cases, got.alike, got.twins, got.controls) == (["a/x"], ["a/y"], ["a/y.fixed"], ["control/z"])
