"""The UB results of a corpus as a terminal matrix, per-case detail, or JSON.

The matrix has one row per case (divergent cases first) and one column per
configuration (compiler, level, flag set), one letter per cell; the detail says
for each case and compiler what each level did, which warning options fired,
and which sanitizers caught it.
"""
from __future__ import annotations

import signal as signals
import sqlite3

from flagdb.errors import WarnscopeError

from analyzer.ub import store as ub_store
from analyzer.ub.classify import diverges

LETTERS = {"expected": ".", "completed": "=", "unexpected-output": "O", "crash": "C",
           "hang": "H", "nonzero-exit": "X", "nondeterministic": "N", "compile-error": "E"}
LEVEL_ORDER = ("-O0", "-O1", "-O2", "-O3", "-Os", "-Og", "-Oz", "-Ofast")


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


def cell_records(data: dict, compilers=None, levels=None, flag_sets=None) -> list[dict]:
    """Cells as the JSON of ``ub run --json``, optionally limited to a run's matrix."""
    warn = {(w["case_id"], w["compiler"], w["level"], w["flags"]): w["options"]
            for w in data["warnings"]}
    sans: dict[tuple[str, str], dict] = {}
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
        out.append({
            "case": c["case_id"], "compiler": c["compiler"], "level": c["level"],
            "flags": c["flags"], "outcome": c["outcome"], "exploited": c["exploited"],
            "exit": c["exit"], "signal": c["signal"], "stdout": c["stdout"],
            "warnings": warn.get((c["case_id"], c["compiler"], c["level"], c["flags"])),
            "sanitizers": sans.get((c["case_id"], c["compiler"]), {}),
            "compiler_version": c["compiler_version"], "runs": c["runs"],
        })
    return out


def report_json(data: dict) -> dict:
    """Per case: metadata, whether it diverges, its cells, warnings and sanitizer verdicts."""
    cells = cell_records(data)
    by_case: dict[str, list[dict]] = {}
    for c in cells:
        by_case.setdefault(c["case"], []).append(c)
    behaviours = _behaviours(data)
    sans: dict[str, dict] = {}
    for s in data["sanitizers"]:
        sans.setdefault(s["case_id"], {}).setdefault(s["compiler"], {})[s["sanitizer"]] = {
            "detected": s["detected"], "status": s["status"], "report": s["report"]}
    cases = []
    for case in _ordered_cases(data, behaviours):
        cases.append({
            "case": case["id"], "category": case["category"], "standard": case["standard"],
            "summary": case["summary"], "ub": None if case["ub"] is None else bool(case["ub"]),
            "diverges": diverges(behaviours.get(case["id"], [])),
            "cells": by_case.get(case["id"], []), "sanitizers": sans.get(case["id"], {}),
        })
    return {"corpus": data["corpus"], "configurations": _configurations(data), "cases": cases}


def render(data: dict, case_filter: str | None = None, detail: bool = True) -> str:
    """The matrix, then the per-case detail (of one case when ``case_filter`` is given;
    none with ``detail=False``)."""
    behaviours = _behaviours(data)
    cases = _ordered_cases(data, behaviours)
    if case_filter is not None:
        cases = [c for c in cases if c["id"] == case_filter]
        if not cases:
            raise WarnscopeError(f"no case {case_filter!r} in the results of {data['corpus']}")
    configs = _configurations(data)
    outcome = {(c["case_id"], c["compiler"], c["level"], c["flags"]): c["outcome"]
               for c in data["cells"]}
    n_div = sum(diverges(behaviours.get(c["id"], [])) for c in cases)
    lines = [f"UB corpus {data['corpus']}: {len(cases)} cases, {len(configs)} configurations, "
             f"{n_div} diverge", ""]
    lines += _matrix(cases, configs, outcome, behaviours)
    lines += ["", "  " + "  ".join(f"{v} {k}" for k, v in LETTERS.items()), ""]
    for case in cases if detail else []:
        lines += _detail(data, case, behaviours)
    return "\n".join(lines).rstrip() + "\n"


def _matrix(cases, configs, outcome, behaviours) -> list[str]:
    groups: dict[tuple[str, str], list[str]] = {}
    for compiler, level, flags in configs:
        groups.setdefault((compiler, flags), []).append(level)
    width = max([len(c["id"]) for c in cases] + [4]) + 2
    heads = [f"{comp}{' ' + flags if flags else ''}" for comp, flags in groups]
    widths = [max(len(h), len(levels)) for h, levels in zip(heads, groups.values())]
    level_row = [" ".join(l[2] for l in levels) for levels in groups.values()]  # -O2 -> 2
    widths = [max(w, len(r)) for w, r in zip(widths, level_row)]
    lines = [" " * (width + 2) + "  ".join(h.ljust(w) for h, w in zip(heads, widths)),
             " " * (width + 2) + "  ".join(r.ljust(w) for r, w in zip(level_row, widths))]
    for case in cases:
        mark = "*" if diverges(behaviours.get(case["id"], [])) else " "
        row = []
        for (comp, flags), levels in groups.items():
            row.append(" ".join(LETTERS.get(outcome.get((case["id"], comp, l, flags)), " ")
                                for l in levels))
        lines.append(f"{case['id'].ljust(width)}{mark} "
                     + "  ".join(r.ljust(w) for r, w in zip(row, widths)))
    return lines


def _detail(data: dict, case: dict, behaviours) -> list[str]:
    cid = case["id"]
    head = f"{cid}" + (f"  ({case['standard']})" if case["standard"] else "")
    if diverges(behaviours.get(cid, [])):
        head += "  DIVERGES"
    lines = [head]
    if case["summary"]:
        lines.append(f"  {case['summary']}")
    cells = [c for c in data["cells"] if c["case_id"] == cid]
    warns = {(w["compiler"], w["level"], w["flags"]): w["options"]
             for w in data["warnings"] if w["case_id"] == cid}
    sans = [s for s in data["sanitizers"] if s["case_id"] == cid]
    for compiler in sorted(dict.fromkeys(c["compiler"] for c in cells), key=_compiler_rank):
        for flags in dict.fromkeys(c["flags"] for c in cells if c["compiler"] == compiler):
            mine = sorted((c for c in cells if c["compiler"] == compiler and c["flags"] == flags),
                          key=lambda c: _level_rank(c["level"]))
            label = compiler + (f" {flags}" if flags else "")
            grouped: dict[str, list[str]] = {}
            for c in mine:
                grouped.setdefault(_describe_outcome(c), []).append(c["level"])
            lines.append(f"  {label:<10} " + "; ".join(
                f"{' '.join(lv)} {what}" for what, lv in grouped.items()))
            fired = {}
            for c in mine:
                for opt in warns.get((compiler, c["level"], flags)) or []:
                    fired.setdefault(opt, []).append(c["level"])
            if fired:
                lines.append(f"  {'':<10} warns: " + "; ".join(
                    f"{opt} ({' '.join(lv)})" for opt, lv in sorted(fired.items())))
            elif any((compiler, c["level"], flags) in warns for c in mine):
                lines.append(f"  {'':<10} warns: nothing")
        mine_sans = [s for s in sans if s["compiler"] == compiler]
        if mine_sans:
            lines.append(f"  {'':<10} sanitizers: " + ", ".join(
                f"{s['sanitizer']} {_san_word(s)}" for s in mine_sans))
    lines.append("")
    return lines


def _describe_outcome(cell: dict) -> str:
    o = cell["outcome"]
    if o == "crash" and cell["signal"]:
        try:
            return f"crash ({signals.Signals(cell['signal']).name})"
        except ValueError:
            return f"crash (signal {cell['signal']})"
    if o == "nonzero-exit":
        return f"exit {cell['exit']}"
    if o in ("unexpected-output", "completed"):
        out = cell["stdout"].strip().replace("\n", " | ")
        return f"{o} {out[:30]!r}"
    return o


def _san_word(s: dict) -> str:
    if s["detected"] is None:
        return "did not build"
    return "caught" if s["detected"] else "silent"


def _behaviours(data: dict) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for c in data["cells"]:
        out.setdefault(c["case_id"], []).append(c["behaviour"])
    return out


def _ordered_cases(data: dict, behaviours) -> list[dict]:
    with_cells = [c for c in data["cases"] if c["id"] in behaviours]
    return sorted(with_cells, key=lambda c: (not diverges(behaviours[c["id"]]), c["id"]))


def _configurations(data: dict) -> list[tuple[str, str, str]]:
    configs = {(c["compiler"], c["level"], c["flags"]) for c in data["cells"]}
    return sorted(configs, key=lambda k: (k[2], _compiler_rank(k[0]), _level_rank(k[1])))


def _compiler_rank(name: str) -> tuple:
    family, _, major = name.partition("-")
    return (family != "gcc", int(major) if major.isdigit() else 0, name)


def _level_rank(level: str) -> int:
    return LEVEL_ORDER.index(level) if level in LEVEL_ORDER else len(LEVEL_ORDER)


