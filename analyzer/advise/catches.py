"""What a flag catches in the UB corpus, from one of two sources:

* the detector scores of ``warnscope ub detectors`` (:class:`Scored`), read when the
  database holds detector runs: a warning option catches a UB case when it reports the
  case's ``ub-line``, and raises a false alarm when it reports anything on the case's
  fixed twin -- the same catches and false alarms ``ub detectors`` prints for it;
* else the warning checks ``warnscope ub run`` stored per cell (:class:`Fired`): an
  option catches a UB case when it fires on it anywhere, at any level, and not on its
  fixed twin; firing on a control program or a twin is a false alarm.

The scores are the UB family's (:mod:`analyzer.ub.scores`): the caller hands them in
(:class:`WarningScores` is what the advice reads of them), as a family imports no other.
Either source fills a :class:`~analyzer.advise.results.UbCatch` per flag and compiler.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence

from analyzer.advise.results import UbCatch
from analyzer.advise.store import UbCase


class ScoredWarning(Protocol):
    """One warning option's score with one compiler version (``ub detectors --json``'s
    ``detectors[]``)."""

    detector: str
    version: str
    caught: list[str]
    false_alarms: list[str]


class WarningScores(Protocol):
    """The warning options' scores on one corpus, as the caller hands them in."""

    corpus: str
    #: the compiler versions whose warnings ran on the corpus
    versions: list[str]
    detectors: Sequence[ScoredWarning]
    #: per family, the warning flags the warnings runs passed (a flag outside them was not tried)
    flags: dict[str, list[str]]


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
