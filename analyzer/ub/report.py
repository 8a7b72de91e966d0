"""The UB results of a corpus as a terminal matrix, per-case detail, or JSON.

:func:`build` turns stored results into a :class:`Report` (dataclasses); the text
(:func:`render`) and the JSON (:meth:`Report.to_json`) are rendered from it alone.
The matrix has one row per case (divergent cases first) and one column per
configuration (compiler, level, flag set), one letter per cell; the detail says
for each case and compiler what each level did, which warning options fired,
and which sanitizers caught it.
"""
from __future__ import annotations

import signal as signals
import sqlite3
from dataclasses import asdict, dataclass

from warnscope.errors import WarnscopeError

from analyzer.ub import store as ub_store
from analyzer.ub.classify import diverges
from warnscope.compilers import level_key, sort_key

LETTERS = {"expected": ".", "completed": "=", "unexpected-output": "O", "crash": "C",
           "hang": "H", "nonzero-exit": "X", "nondeterministic": "N", "compile-error": "E"}


def load(conn: sqlite3.Connection, corpus: str | None = None) -> dict:
    """The stored results of ``corpus`` (default: the corpus run most recently)."""
    if corpus is None:
        known = ub_store.corpora(conn)
        if not known:
            raise WarnscopeError("no UB results in this database: run 'warnscope ub run' first")
        corpus = known[0]
    data = ub_store.load_results(conn, corpus)
    if not data["cells"]:
        raise WarnscopeError(f"no UB results for corpus {corpus}")
    return data


@dataclass
class Cell:
    """One cell as reported: what the program did, and the warnings (None: not
    measured) and sanitizer verdicts (by sanitizer) of its case and compiler."""

    case: str
    compiler: str
    level: str
    flags: str
    outcome: str
    exploited: bool | None
    exit: int | None
    signal: int | None
    stdout: str
    warnings: list[str] | None
    sanitizers: dict[str, bool | None]
    compiler_version: str
    runs: list[dict]


@dataclass
class SanitizerVerdict:
    compiler: str
    sanitizer: str
    detected: bool | None     # None: the sanitizer build failed
    status: str
    report: str


@dataclass
class CaseReport:
    id: str
    category: str
    standard: str
    summary: str
    ub: bool | None
    diverges: bool
    cells: list[Cell]
    sanitizers: list[SanitizerVerdict]


@dataclass
class Report:
    """The results of one corpus: its configurations (compiler, level, flags) and its
    cases, divergent ones first. Renderers (:func:`render`, :meth:`to_json`) read this."""

    corpus: str
    configurations: list[tuple[str, str, str]]
    cases: list[CaseReport]

    def only(self, case_id: str) -> "Report":
        """The same report limited to one case, or a one-line error."""
        cases = [c for c in self.cases if c.id == case_id]
        if not cases:
            raise WarnscopeError(f"no case {case_id!r} in the results of {self.corpus}")
        return Report(corpus=self.corpus, configurations=self.configurations, cases=cases)

    def to_json(self) -> dict:
        """The ``ub report --json`` document."""
        return {"corpus": self.corpus,
                "configurations": [list(c) for c in self.configurations],
                "cases": [_case_json(c) for c in self.cases]}


def _case_json(case: CaseReport) -> dict:
    sans: dict[str, dict] = {}
    for s in case.sanitizers:
        sans.setdefault(s.compiler, {})[s.sanitizer] = {
            "detected": s.detected, "status": s.status, "report": s.report}
    return {"case": case.id, "category": case.category, "standard": case.standard,
            "summary": case.summary, "ub": case.ub, "diverges": case.diverges,
            "cells": [asdict(c) for c in case.cells], "sanitizers": sans}


def cells(data: dict, compilers: set[str] | None = None, levels: set[str] | None = None,
          flag_sets: set[str] | None = None) -> list[Cell]:
    """The stored cells, optionally limited to a run's matrix (``ub run --json``)."""
    warn = {(w["case_id"], w["compiler"], w["level"], w["flags"]): w["options"]
            for w in data["warnings"]}
    sans: dict[tuple[str, str], dict[str, bool | None]] = {}
    for s in data["sanitizers"]:
        sans.setdefault((s["case_id"], s["compiler"]), {})[s["sanitizer"]] = s["detected"]
    out = []
    for c in data["cells"]:
        if compilers is not None and c["compiler"] not in compilers:
            continue
        if levels is not None and c["level"] not in levels:
            continue
        if flag_sets is not None and c["flags"] not in flag_sets:
            continue
        key = (c["case_id"], c["compiler"], c["level"], c["flags"])
        out.append(Cell(
            case=c["case_id"], compiler=c["compiler"], level=c["level"], flags=c["flags"],
            outcome=c["outcome"], exploited=c["exploited"], exit=c["exit"], signal=c["signal"],
            stdout=c["stdout"], warnings=warn.get(key),
            sanitizers=sans.get((c["case_id"], c["compiler"]), {}),
            compiler_version=c["compiler_version"], runs=c["runs"]))
    return out


def cell_records(data: dict, compilers: set[str] | None = None, levels: set[str] | None = None,
                 flag_sets: set[str] | None = None) -> list[dict]:
    """Cells as the JSON of ``ub run --json``."""
    return [asdict(c) for c in cells(data, compilers, levels, flag_sets)]


def build(data: dict) -> Report:
    """The report of stored results (from :func:`load`)."""
    all_cells = cells(data)
    by_case: dict[str, list[Cell]] = {}
    for c in all_cells:
        by_case.setdefault(c.case, []).append(c)
    sans: dict[str, list[SanitizerVerdict]] = {}
    for s in data["sanitizers"]:
        sans.setdefault(s["case_id"], []).append(SanitizerVerdict(
            compiler=s["compiler"], sanitizer=s["sanitizer"], detected=s["detected"],
            status=s["status"], report=s["report"]))
    behaviours = _behaviours(data)
    cases = [CaseReport(id=case["id"], category=case["category"], standard=case["standard"],
                        summary=case["summary"],
                        ub=None if case["ub"] is None else bool(case["ub"]),
                        diverges=diverges(behaviours[case["id"]]),
                        cells=by_case.get(case["id"], []), sanitizers=sans.get(case["id"], []))
             for case in data["cases"] if case["id"] in behaviours]
    cases.sort(key=lambda c: (not c.diverges, c.id))
    configs = {(c.compiler, c.level, c.flags) for c in all_cells}
    return Report(corpus=data["corpus"], cases=cases, configurations=sorted(
        configs, key=lambda k: (k[2], sort_key(k[0]), level_key(k[1]))))


def report_json(data: dict) -> dict:
    """Per case: metadata, whether it diverges, its cells, warnings and sanitizer verdicts."""
    return build(data).to_json()


def render(report: Report, *, matrix: bool = True, detail: bool = True) -> str:
    """The text of a report: header, matrix and legend (``matrix``), then the detail of
    each case (``detail``)."""
    lines: list[str] = []
    if matrix:
        n_div = sum(c.diverges for c in report.cases)
        lines += [f"UB corpus {report.corpus}: {len(report.cases)} cases, "
                  f"{len(report.configurations)} configurations, {n_div} diverge", ""]
        lines += _matrix(report)
        lines += ["", "  " + "  ".join(f"{v} {k}" for k, v in LETTERS.items()), ""]
    for case in report.cases if detail else []:
        lines += _detail(case)
    return "\n".join(lines).rstrip() + "\n"


def _matrix(report: Report) -> list[str]:
    groups: dict[tuple[str, str], list[str]] = {}
    for compiler, level, flags in report.configurations:
        groups.setdefault((compiler, flags), []).append(level)
    outcome = {(c.case, c.compiler, c.level, c.flags): c.outcome
               for case in report.cases for c in case.cells}
    width = max([len(c.id) for c in report.cases] + [4]) + 2
    heads = [f"{comp}{' ' + flags if flags else ''}" for comp, flags in groups]
    widths = [max(len(h), len(levels)) for h, levels in zip(heads, groups.values())]
    level_row = [" ".join(l[2] for l in levels) for levels in groups.values()]  # -O2 -> 2
    widths = [max(w, len(r)) for w, r in zip(widths, level_row)]
    lines = [" " * (width + 2) + "  ".join(h.ljust(w) for h, w in zip(heads, widths)),
             " " * (width + 2) + "  ".join(r.ljust(w) for r, w in zip(level_row, widths))]
    for case in report.cases:
        mark = "*" if case.diverges else " "
        row = [" ".join(LETTERS.get(outcome.get((case.id, comp, l, flags)), " ") for l in levels)
               for (comp, flags), levels in groups.items()]
        lines.append(f"{case.id.ljust(width)}{mark} "
                     + "  ".join(r.ljust(w) for r, w in zip(row, widths)))
    return lines


def _detail(case: CaseReport) -> list[str]:
    head = case.id + (f"  ({case.standard})" if case.standard else "")
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
            fired: dict[str, list[str]] = {}
            for c in mine:
                for opt in c.warnings or []:
                    fired.setdefault(opt, []).append(c.level)
            if fired:
                lines.append(f"  {'':<10} warns: " + "; ".join(
                    f"{opt} ({' '.join(lv)})" for opt, lv in sorted(fired.items())))
            elif any(c.warnings is not None for c in mine):
                lines.append(f"  {'':<10} warns: nothing")
        mine_sans = sorted((s for s in case.sanitizers if s.compiler == compiler),
                           key=lambda s: s.sanitizer)
        if mine_sans:
            lines.append(f"  {'':<10} sanitizers: " + ", ".join(
                f"{s.sanitizer} {_san_word(s)}" for s in mine_sans))
    lines.append("")
    return lines


def _describe_outcome(cell: Cell) -> str:
    o = cell.outcome
    if o == "crash" and cell.signal:
        try:
            return f"crash ({signals.Signals(cell.signal).name})"
        except ValueError:
            return f"crash (signal {cell.signal})"
    if o == "nonzero-exit":
        return f"exit {cell.exit}"
    if o in ("unexpected-output", "completed"):
        out = cell.stdout.strip().replace("\n", " | ")
        return f"{o} {out[:30]!r}"
    return o


def _san_word(s: SanitizerVerdict) -> str:
    if s.detected is None:
        return "did not build"
    return "caught" if s.detected else "silent"


def _behaviours(data: dict) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for c in data["cells"]:
        out.setdefault(c["case_id"], []).append(c["behaviour"])
    return out



