"""What a flag catches in the UB corpus, from one of two sources:

* the detector scores of ``warnscope ub detectors`` (:class:`Scored`), read when the
  database holds detector runs: a warning option catches a UB case when it reports the
  case's ``ub-line``, and raises a false alarm when it reports anything on the case's
  fixed twin -- the same catches and false alarms ``ub detectors`` prints for it;
* else the warning checks ``warnscope ub run`` stored per cell (:class:`Fired`): an
  option catches a UB case when it fires on it anywhere, at any level, and not on its
  fixed twin; firing on a control program or a twin is a false alarm.

The scores are the UB family's (:class:`analyzer.ub.detectors.scores.WarningScores`, read through
its store: :mod:`analyzer.advise.store`). Either source fills a
:class:`~analyzer.advise.results.UbCatch` per flag and compiler.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from analyzer.advise.results import UbCatch
from analyzer.advise.store import UbCase, UbStored, WarningScores

#: (compiler, option as printed or typed) -> the flag it sets (None: unknown)
FlagOf = Callable[[str, str], str | None]


@dataclass
class Fired:
    """One compiler's warning checks of ``ub run``: per case, the flags whose options fired."""

    fired: list[tuple[str, frozenset[str]]]
    cases: dict[str, UbCase]

    def fill(self, caught_by: frozenset[str], out: UbCatch) -> None:
        hit = {case for case, flags in self.fired if not caught_by.isdisjoint(flags)}
        for case_id in sorted(hit):
            case = self.cases.get(case_id)
            if case is None or case.ub is None:
                continue
            if case.ub:
                (out.alike if case.twin and case.twin in hit else out.cases).append(case_id)
            else:
                (out.twins if case.fixes else out.controls).append(case_id)


@dataclass
class Scored:
    """One compiler's warning options as ``ub detectors`` scored them: per option (as
    the flag it names), the UB cases it caught at their ub-line and the twins it
    falsely claimed on."""

    scored: list[tuple[str, frozenset[str], frozenset[str]]]
    cases: dict[str, UbCase]

    def fill(self, caught_by: frozenset[str], out: UbCatch) -> None:
        mine = [(caught, alarms) for flag, caught, alarms in self.scored if flag in caught_by]
        alarms = frozenset().union(*(a for _, a in mine))
        for case_id in sorted(frozenset().union(*(c for c, _ in mine))):
            case = self.cases.get(case_id)
            (out.alike if case is not None and case.twin in alarms else out.cases).append(case_id)
        out.twins.extend(sorted(alarms))


def scored(scores: WarningScores, compilers: list[str], flag_of: FlagOf, cases: dict[str, UbCase]
           ) -> dict[str, Scored]:
    """Per compiler of ``compilers`` that the detectors scored, its warning options'
    scores, each option as the flag it names (``flag_of``; one it names none is left out)."""
    found: dict[str, list[tuple[str, frozenset[str], frozenset[str]]]] = {
        c: [] for c in scores.versions if c in compilers}
    for d in scores.detectors:
        flag = flag_of(d.version, d.detector) if d.version in found else None
        if flag is not None:
            found[d.version].append((flag, frozenset(d.caught), frozenset(d.false_alarms)))
    return {c: Scored(mine, cases) for c, mine in found.items()}


def fired(checks: UbStored, flag_of: FlagOf, cases: dict[str, UbCase]) -> dict[str, Fired]:
    """Per compiler with warning checks, per case, the flags its options that fired name."""
    found: dict[str, list[tuple[str, frozenset[str]]]] = {c: [] for c in checks.compilers}
    for f in checks.fired:
        found[f.compiler].append((f.case_id, frozenset(flag_of(f.compiler, o) for o in f.options) - {None}))
    return {c: Fired(mine, cases) for c, mine in found.items()}
