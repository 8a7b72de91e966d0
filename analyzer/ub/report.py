"""The UB results of a corpus as the objects every output renders.

:func:`build` turns stored results (:class:`~analyzer.ub.results.StoredResults`)
into a :class:`~analyzer.ub.results.UbReport`, :func:`divergence` a run's closing
summary; the text (:mod:`analyzer.ub.report_text`), the JSON
(:func:`warnscope.serial.to_json` of the objects themselves) and the site's pages are
rendered from them alone.
"""
from __future__ import annotations

import sqlite3
from dataclasses import replace

from warnscope.compilers import CompilerId, level_key, sort_key

from analyzer.runtime.identify import host_arch

from analyzer.ub.detectors import scores
from analyzer.ub import store as ub_store
from analyzer.ub.classify import diverges
from analyzer.ub.explain.explain import labelled
from analyzer.ub.results import (CaseReport, Cell, CellRecord, Configuration, Divergence,
                                 Observed, Outcome, RunPrinted, RunSummary, SanitizerFinding,
                                 StoredResults, TargetSplit, UbReport, corpus_content, corpus_kind)


def load(conn: sqlite3.Connection, corpus: str | None = None) -> StoredResults:
    """The stored results of ``corpus`` (default: the corpus run most recently), with
    the cells' code; :class:`~warnscope.errors.NoData` when there are none."""
    return ub_store.load(conn, corpus)


def limited(data: StoredResults, compilers: set[str],
            case_ids: set[str] | None = None) -> StoredResults:
    """The stored results of ``compilers`` alone (and of ``case_ids``, where given): what
    a report of one run's matrix is built from, its headline counting what diverges
    there (the demo's two matrices)."""
    return replace(
        data, cells=[c for c in data.cells if c.compiler in compilers
                     and (case_ids is None or c.case_id in case_ids)],
        warnings=[w for w in data.warnings if w.compiler in compilers],
        sanitizers=[s for s in data.sanitizers if s.compiler in compilers])


def of_run(conn: sqlite3.Connection, corpus: str, compilers: set[str],
           case_ids: set[str] | None = None) -> UbReport:
    """The report of one run's matrix: the stored results of ``corpus`` by ``compilers``
    alone (and of ``case_ids``, where given; :func:`limited`), the database holding others'."""
    return build(limited(load(conn, corpus), compilers, case_ids))


def run_printed(conn: sqlite3.Connection, summary: RunSummary, compilers: set[str], levels: set[str],
                flag_sets: set[str], why: bool) -> RunPrinted:
    """What ``ub run`` prints of its run: the closing count and, when it holds cells, the
    divergence of its matrix (:func:`divergence`)."""
    data = load(conn, summary.corpus) if summary.cells else None
    return RunPrinted(summary, why, divergence(data, compilers, levels, flag_sets) if data is not None else None)


def run_cells(conn: sqlite3.Connection, summary: RunSummary, compilers: set[str], levels: set[str],
              flag_sets: set[str], _why: bool = False) -> list[Cell]:
    """``ub run --json``: the cells of the run's matrix (:func:`cells`)."""
    return cells(load(conn, summary.corpus), compilers, levels, flag_sets)


def by_target(report: UbReport) -> UbReport:
    """``report`` with only its cases whose behaviour differs by target."""
    return replace(report, cases=[c for c in report.cases if c.by_target])


def cells(data: StoredResults, compilers: set[str] | None = None,
          levels: set[str] | None = None, flag_sets: set[str] | None = None,
          labels: dict | None = None) -> list[Cell]:
    """The stored cells as reported, with their warnings and their case's sanitizer
    verdicts; optionally limited to a run's matrix (``ub run --json``). ``labels``: the
    cells' labels (:func:`~analyzer.ub.explain.explain.labelled`) where the caller has them."""
    warn = {(w.case_id, w.compiler, w.level, w.flags): w.options for w in data.warnings}
    sans: dict[tuple[str, str], dict[str, bool | None]] = {}
    for s in data.sanitizers:
        sans.setdefault((s.case_id, s.compiler), {})[s.sanitizer] = s.detected
    out = []
    labels = labelled(data.cells, data.codes) if labels is None else labels
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
    """Which cases diverge within one run's matrix (its compilers, levels, flag sets),
    by target too (:class:`~analyzer.ub.results.CaseReport`)."""
    behaviours: dict[str, list[str]] = {}
    mine: dict[str, list[CellRecord]] = {}
    configurations = set()
    for c in data.cells:
        if c.compiler in compilers and c.level in levels and c.flags in flag_sets:
            behaviours.setdefault(c.case_id, []).append(c.behaviour)
            mine.setdefault(c.case_id, []).append(c)
            configurations.add((c.compiler, c.level, c.flags))
    targets = len({_target(compiler) for compiler, _, _ in configurations}) > 1
    by_target = sorted(case for case, cs in mine.items() if target_splits(cs)) \
        if targets else None
    return Divergence(cases=len(behaviours), configurations=len(configurations),
                      divergent=sorted(case for case, bs in behaviours.items()
                                       if diverges(bs) or case in (by_target or ())),
                      by_target=by_target)


def build(data: StoredResults, labels: dict | None = None) -> UbReport:
    """The report of stored results (from :func:`load`); ``labels`` as :func:`cells`."""
    all_cells = cells(data, labels=labels)
    by_case: dict[str, list[Cell]] = {}
    for c in all_cells:
        by_case.setdefault(c.case, []).append(c)
    findings: dict[str, dict[str, dict[str, SanitizerFinding]]] = {}
    for s in data.sanitizers:
        findings.setdefault(s.case_id, {}).setdefault(s.compiler, {})[s.sanitizer] = \
            SanitizerFinding(detected=s.detected, status=s.status, report=s.report)
    records: dict[str, list[CellRecord]] = {}
    for c in data.cells:
        records.setdefault(c.case_id, []).append(c)
    scored = scores.of_stored(data)
    targets = len({_target(c.compiler) for c in all_cells}) > 1
    cases = []
    for case in data.cases:
        if case.id not in records:
            continue
        mine = by_case.get(case.id, [])
        splits = target_splits(mine) if targets else None
        cases.append(CaseReport(
            case=case.id, category=case.category, standard=case.standard,
            summary=case.summary, ub=case.ub,
            diverges=diverges([c.behaviour for c in records[case.id]]) or bool(splits), cells=mine,
            sanitizers=findings.get(case.id, {}),
            detectors=scores.stored_case(data, case.id, scored), by_target=splits,
            by_level=level_splits(records[case.id]) if targets else None,
            diverges_by_target=bool(splits)))
    cases.sort(key=lambda c: (not c.diverges, c.case))
    configs = {Configuration(c.compiler, c.level, c.flags) for c in all_cells}
    return UbReport(corpus=data.corpus, cases=cases, configurations=sorted(
        configs, key=lambda k: (k.flags, sort_key(k.compiler), level_key(k.level))),
        corpus_kind=corpus_kind(data.corpus), corpus_content=corpus_content(data.cases))



def _target(compiler: str) -> str:
    try:
        return CompilerId.parse(compiler).target
    except ValueError:
        return ""


def observed(cell: Cell | CellRecord) -> Observed:
    """What a cell's program did, for comparing targets: its outcome's class, exit,
    signal and output (``expected`` on two targets may be two different outputs)."""
    return Observed(outcome=cell.outcome, exit=cell.exit, signal=cell.signal, stdout=cell.stdout)


def _same(a: Observed, b: Observed) -> bool:
    if Outcome.HANG in (a.outcome, b.outcome):
        return a.outcome == b.outcome
    return (a.exit, a.signal, a.stdout) == (b.exit, b.signal, b.stdout) \
        and (a.outcome is Outcome.COMPILE_ERROR) == (b.outcome is Outcome.COMPILE_ERROR)


def target_splits(cells: list[Cell] | list[CellRecord]) -> list[TargetSplit]:
    """The divergences of one case that come from the target: each compiler version,
    level and flag set that ran on two or more targets and whose programs did not do
    the same there (compile errors aside): what they did is compared, exit status,
    signal and output, never whether each did what its own target expects."""
    groups: dict[tuple[str, str, str], dict[str, Observed]] = {}
    for c in cells:
        if c.outcome is Outcome.COMPILE_ERROR:
            continue
        try:
            cid = CompilerId.parse(c.compiler)
        except ValueError:
            continue
        target = cid.target or f"{host_arch()} (host)"
        groups.setdefault((str(cid.host), c.level, c.flags), {})[target] = observed(c)
    out = []
    for (compiler, level, flags), seen in groups.items():
        values = list(seen.values())
        if len(values) > 1 and any(not _same(values[0], v) for v in values[1:]):
            out.append(TargetSplit(compiler=compiler, level=level, flags=flags,
                                   observed=dict(sorted(seen.items()))))
    return sorted(out, key=lambda t: (sort_key(t.compiler), t.flags, level_key(t.level)))


def level_splits(records: list[CellRecord]) -> list[str]:
    """The divergences of one case that come from the optimiser: the compilers (each
    on its target) whose levels did not all behave alike, compile errors aside. Behaviour
    as :func:`~analyzer.ub.classify.diverges` compares it, so that two outputs the case
    accepts are one behaviour here too (a case that does not diverge has no level split)."""
    groups: dict[tuple[str, str], set[str]] = {}
    for c in records:
        if c.outcome is not Outcome.COMPILE_ERROR:
            groups.setdefault((c.compiler, c.flags), set()).add(c.behaviour)
    return sorted({compiler for (compiler, _), seen in groups.items() if len(seen) > 1}, key=sort_key)
