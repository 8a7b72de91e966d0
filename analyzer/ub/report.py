"""The UB results of a corpus as a terminal matrix, per-case detail, or JSON.

:func:`build` turns stored results (:class:`~analyzer.ub.results.StoredResults`)
into a :class:`~analyzer.ub.results.Report`; the text (:func:`render`) and the JSON
(:func:`warnscope.serial.to_json` of the report itself) are rendered from it alone.
The matrix has one row per case (divergent cases first) and one column per
configuration (compiler, level, flag set), one letter per cell; the detail says
for each case and compiler what each level did, what the compiler did to the code
where a rule of :mod:`analyzer.ub.codelabels` says so, why it differs from -O0 where
``ub run --why`` found it, which warning options fired, and which sanitizers caught it.
"""
from __future__ import annotations

import signal as signals
import sqlite3

from warnscope.compilers import level_key, sort_key

from analyzer.ub import scores
from analyzer.ub import store as ub_store
from analyzer.ub.classify import diverges
from analyzer.ub.explain import labelled
from analyzer.ub.results import (CaseReport, Cell, Configuration, Divergence, Outcome, Report,
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


def render_divergence(d: Divergence, shown: int = 12) -> str:
    """``7 of 105 cases diverge across 4 configurations:`` and the first of them."""
    lines = [f"{len(d.divergent)} of {d.cases} cases diverge across {d.configurations} "
             f"configurations" + (":" if d.divergent else "")]
    lines += [f"  {case}" for case in d.divergent[:shown]]
    if len(d.divergent) > shown:
        lines.append(f"  … and {len(d.divergent) - shown} more")
    if d.divergent:
        lines.append("the matrix and each case: warnscope ub report")
    return "\n".join(lines)


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


def render(report: Report, *, matrix: bool = True, detail: bool = True) -> str:
    """The text of a report: header, matrix and legend (``matrix``), then the detail of
    each case (``detail``)."""
    lines: list[str] = []
    if matrix:
        n_div = sum(c.diverges for c in report.cases)
        lines += [f"UB corpus {report.corpus}: {len(report.cases)} cases, "
                  f"{len(report.configurations)} configurations, {n_div} diverge", ""]
        lines += _matrix(report)
        lines += ["", "  " + "  ".join(f"{o.letter} {o}" for o in Outcome), ""]
    for case in report.cases if detail else []:
        lines += _detail(case)
    return "\n".join(lines).rstrip() + "\n"


def _matrix(report: Report) -> list[str]:
    groups: dict[tuple[str, str], list[str]] = {}
    for compiler, level, flags in report.configurations:
        groups.setdefault((compiler, flags), []).append(level)
    letter = {(c.case, c.compiler, c.level, c.flags): c.outcome.letter
              for case in report.cases for c in case.cells}
    width = max([len(c.case) for c in report.cases] + [4]) + 2
    heads = [f"{comp}{' ' + flags if flags else ''}" for comp, flags in groups]
    widths = [max(len(h), len(levels)) for h, levels in zip(heads, groups.values())]
    level_row = [" ".join(l[2] for l in levels) for levels in groups.values()]  # -O2 -> 2
    widths = [max(w, len(r)) for w, r in zip(widths, level_row)]
    lines = [" " * (width + 2) + "  ".join(h.ljust(w) for h, w in zip(heads, widths)),
             " " * (width + 2) + "  ".join(r.ljust(w) for r, w in zip(level_row, widths))]
    for case in report.cases:
        mark = "*" if case.diverges else " "
        row = [" ".join(letter.get((case.case, comp, l, flags), " ") for l in levels)
               for (comp, flags), levels in groups.items()]
        lines.append(f"{case.case.ljust(width)}{mark} "
                     + "  ".join(r.ljust(w) for r, w in zip(row, widths)))
    return lines


def _detail(case: CaseReport) -> list[str]:
    head = case.case + (f"  ({case.standard})" if case.standard else "")
    if case.diverges:
        head += "  DIVERGES"
    lines = [head]
    if case.summary:
        lines.append(f"  {case.summary}")
    for compiler in sorted(dict.fromkeys(c.compiler for c in case.cells), key=sort_key):
        for flags in dict.fromkeys(c.flags for c in case.cells if c.compiler == compiler):
            mine = sorted((c for c in case.cells if c.compiler == compiler and c.flags == flags),
                          key=lambda c: level_key(c.level))
            label = compiler + (f" {flags}" if flags else "")
            grouped: dict[str, list[str]] = {}
            for c in mine:
                grouped.setdefault(_describe_outcome(c), []).append(c.level)
            lines.append(f"  {label:<10} " + "; ".join(
                f"{' '.join(lv)} {what}" for what, lv in grouped.items()))
            for c in mine:
                if c.labels:
                    lines.append(f"  {'':<10} {c.level} {_describe_outcome(c)} — "
                                 + "; ".join(l.text for l in c.labels))
            for c in mine:
                if c.why is not None:
                    lines.append(f"  {'':<10} why {c.level}: {c.why.summary}")
            fired: dict[str, list[str]] = {}
            for c in mine:
                for opt in c.warnings or []:
                    fired.setdefault(opt, []).append(c.level)
            if fired:
                lines.append(f"  {'':<10} warns: " + "; ".join(
                    f"{opt} ({' '.join(lv)})" for opt, lv in sorted(fired.items())))
            elif any(c.warnings is not None for c in mine):
                lines.append(f"  {'':<10} warns: nothing")
        mine_sans = sorted(case.sanitizers.get(compiler, {}).items())
        if mine_sans:
            lines.append(f"  {'':<10} sanitizers: " + ", ".join(
                f"{name} {_san_word(s)}" for name, s in mine_sans))
    if case.detectors is not None:
        lines += ["  " + line for line in scores.render_versions(case.detectors)]
    lines.append("")
    return lines


def _describe_outcome(cell: Cell) -> str:
    o = cell.outcome
    if o is Outcome.CRASH and cell.signal:
        try:
            return f"crash ({signals.Signals(cell.signal).name})"
        except ValueError:
            return f"crash (signal {cell.signal})"
    if o is Outcome.NONZERO_EXIT:
        return f"exit {cell.exit}"
    if o in (Outcome.UNEXPECTED_OUTPUT, Outcome.COMPLETED):
        out = cell.stdout.strip().replace("\n", " | ")
        return f"{o} {out[:30]!r}"
    return str(o)


def _san_word(s: SanitizerFinding) -> str:
    if s.detected is None:
        return "did not build"
    return "caught" if s.detected else "silent"
