"""The UB results of a corpus as the objects every output renders.

:func:`build` turns stored results (:class:`~analyzer.ub.results.StoredResults`)
into a :class:`~analyzer.ub.results.Report`, :func:`divergence` a run's closing
summary; the text (:mod:`analyzer.ub.report_text`), the JSON
(:func:`warnscope.serial.to_json` of the objects themselves) and the site's pages are
rendered from them alone.
"""
from __future__ import annotations

import sqlite3

from warnscope.compilers import level_key, sort_key

from analyzer.ub import scores
from analyzer.ub import store as ub_store
from analyzer.ub.classify import diverges
from analyzer.ub.explain import labelled
from analyzer.ub.results import (CaseReport, Cell, Configuration, Divergence, Report,
                                 SanitizerFinding, StoredResults)


def load(conn: sqlite3.Connection, corpus: str | None = None) -> StoredResults:
    """The stored results of ``corpus`` (default: the corpus run most recently), with
    the cells' code; :class:`~warnscope.errors.NoData` when there are none."""
    return ub_store.load(conn, corpus)


def cells(data: StoredResults, compilers: set[str] | None = None,
          levels: set[str] | None = None, flag_sets: set[str] | None = None) -> list[Cell]:
    """The stored cells as reported, with their warnings and their case's sanitizer
    verdicts; optionally limited to a run's matrix (``ub run --json``)."""
    warn = {(w.case_id, w.compiler, w.level, w.flags): w.options for w in data.warnings}
    sans: dict[tuple[str, str], dict[str, bool | None]] = {}
    for s in data.sanitizers:
        sans.setdefault((s.case_id, s.compiler), {})[s.sanitizer] = s.detected
    out = []
    labels = labelled(data.cells, data.codes)
    for c in data.cells:
        if compilers is not None and c.compiler not in compilers:
            continue
        if levels is not None and c.level not in levels:
            continue
        if flag_sets is not None and c.flags not in flag_sets:
            continue
        out.append(Cell(
            case=c.case_id, compiler=c.compiler, level=c.level, flags=c.flags,
            outcome=c.outcome, exploited=c.exploited, exit=c.exit, signal=c.signal,
            stdout=c.stdout, warnings=warn.get((c.case_id, c.compiler, c.level, c.flags)),
            sanitizers=sans.get((c.case_id, c.compiler), {}),
            compiler_version=c.compiler_version, runs=c.runs,
            labels=labels[(c.case_id, c.compiler, c.level, c.flags)][0],
            code_note=labels[(c.case_id, c.compiler, c.level, c.flags)][1],
            why=data.causes.get((c.case_id, c.compiler, c.level, c.flags))))
    return out


def divergence(data: StoredResults, compilers: set[str], levels: set[str],
               flag_sets: set[str]) -> Divergence:
    """Which cases diverge within one run's matrix (its compilers, levels, flag sets)."""
    behaviours: dict[str, list[str]] = {}
    configurations = set()
    for c in data.cells:
        if c.compiler in compilers and c.level in levels and c.flags in flag_sets:
            behaviours.setdefault(c.case_id, []).append(c.behaviour)
            configurations.add((c.compiler, c.level, c.flags))
    return Divergence(cases=len(behaviours), configurations=len(configurations),
                      divergent=sorted(case for case, bs in behaviours.items() if diverges(bs)))


def build(data: StoredResults) -> Report:
    """The report of stored results (from :func:`load`)."""
    all_cells = cells(data)
    by_case: dict[str, list[Cell]] = {}
    for c in all_cells:
        by_case.setdefault(c.case, []).append(c)
    findings: dict[str, dict[str, dict[str, SanitizerFinding]]] = {}
    for s in data.sanitizers:
        findings.setdefault(s.case_id, {}).setdefault(s.compiler, {})[s.sanitizer] = \
            SanitizerFinding(detected=s.detected, status=s.status, report=s.report)
    behaviours: dict[str, list[str]] = {}
    for c in data.cells:
        behaviours.setdefault(c.case_id, []).append(c.behaviour)
    scored = scores.of_stored(data)
    cases = [CaseReport(case=case.id, category=case.category, standard=case.standard,
                        summary=case.summary, ub=case.ub,
                        diverges=diverges(behaviours[case.id]),
                        cells=by_case.get(case.id, []), sanitizers=findings.get(case.id, {}),
                        detectors=scores.stored_case(data, case.id, scored))
             for case in data.cases if case.id in behaviours]
    cases.sort(key=lambda c: (not c.diverges, c.case))
    configs = {Configuration(c.compiler, c.level, c.flags) for c in all_cells}
    return Report(corpus=data.corpus, cases=cases, configurations=sorted(
        configs, key=lambda k: (k.flags, sort_key(k.compiler), level_key(k.level))))


