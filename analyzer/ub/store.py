"""All SQL of the UB tables (schema in warnscope/schema.py, section ``UB``).

Every write is a transaction: the results a run has received are committed
together (:func:`save_results`), so an interrupted run keeps each finished cell
it had received and nothing half-written. Reads return plain dicts for the report.
"""
from __future__ import annotations

import json
import sqlite3

from warnscope.database import transaction, utc_now

from analyzer.ub.corpus import Case
from analyzer.ub.jobs import CellResult, ClangWarningsResult, Result, SanitizerResult

def save_cases(conn: sqlite3.Connection, corpus: str, cases: list[Case]) -> None:
    """Insert or refresh the corpus's cases, in one transaction; cases gone from the
    corpus are dropped with their results."""
    with transaction(conn):
        known = {r[0] for r in conn.execute("SELECT id FROM ub_case WHERE corpus = ?", (corpus,))}
        for gone in known - {c.id for c in cases}:
            conn.execute("DELETE FROM ub_case WHERE corpus = ? AND id = ?", (corpus, gone))
        for c in cases:
            conn.execute(
                """INSERT INTO ub_case (corpus, id, category, language, std, standard, summary,
                       ub, expected_exit, expectations, source_hash, meta)
                   VALUES (?,?,?,?,?,?,?,?,?,?,?,?)
                   ON CONFLICT (corpus, id) DO UPDATE SET category = excluded.category,
                       language = excluded.language, std = excluded.std,
                       standard = excluded.standard, summary = excluded.summary,
                       ub = excluded.ub, expected_exit = excluded.expected_exit,
                       expectations = excluded.expectations,
                       source_hash = excluded.source_hash, meta = excluded.meta""",
                (corpus, c.id, c.category, c.language, c.std, c.standard, c.summary,
                 None if c.ub is None else int(c.ub), c.exit, len(c.expected), c.source_hash,
                 json.dumps(c.meta, sort_keys=True)))


def existing_keys(conn: sqlite3.Connection, corpus: str) -> dict[str, set[str]]:
    """Keys of finished work, per table, so a rerun skips it."""
    return {
        table: {r[0] for r in conn.execute(f"SELECT key FROM {table} WHERE corpus = ?", (corpus,))}
        for table in ("ub_cell", "ub_warning", "ub_sanitizer")
    }


def hung_cases(conn: sqlite3.Connection, corpus: str) -> set[str]:
    """Cases with a stored cell or sanitizer run that hung: a run schedules their
    missing cells first (a hang is the longest job there is)."""
    return {r[0] for r in conn.execute(
        """SELECT case_id FROM ub_cell WHERE corpus = ? AND outcome = 'hang'
           UNION SELECT case_id FROM ub_sanitizer WHERE corpus = ? AND status = 'timeout'""",
        (corpus, corpus))}


def save_results(conn: sqlite3.Connection, corpus: str, results: list[Result]) -> None:
    """Store finished jobs' results together, in one transaction: a run commits
    whatever has finished when it looks, one cell or a few, so that a busy run does
    not pay a commit (and its fsyncs) per cell, and a stopped run keeps every
    result it had received."""
    with transaction(conn):
        for r in results:
            if isinstance(r, CellResult):
                _save_cell(conn, corpus, r)
            elif isinstance(r, ClangWarningsResult):
                _save_clang_warnings(conn, corpus, r)
            elif isinstance(r, SanitizerResult):
                _save_sanitizer(conn, corpus, r)
            else:
                raise TypeError(f"not a UB result: {r!r}")


def _save_cell(conn: sqlite3.Connection, corpus: str, r: CellResult) -> None:
    j = r.job
    flags = " ".join(j.flags)
    conn.execute(
        """INSERT OR REPLACE INTO ub_cell (corpus, case_id, compiler, level, flags, key,
               outcome, exploited, behaviour, exit, signal, stdout, stderr, compile_log,
               compiler_version, runs, host, finished_at)
           VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)""",
        (corpus, j.case.id, j.compiler.name, j.level, flags, j.key, r.verdict.outcome,
         None if r.verdict.exploited is None else int(r.verdict.exploited),
         r.verdict.behaviour, r.exit, r.signal, r.stdout, r.stderr, r.compile_log[-8192:],
         j.compiler.version, json.dumps(r.runs), r.host, utc_now()))
    if r.warnings is not None:
        _save_warning(conn, corpus, j.case.id, j.compiler.name, j.level, flags, j.key,
                      "gcc-json", r.warnings)


def _save_clang_warnings(conn: sqlite3.Connection, corpus: str, r: ClangWarningsResult) -> None:
    for u in r.job.units:
        _save_warning(conn, corpus, u.case.id, r.job.compiler.name, u.level,
                      " ".join(u.flags), u.key, "libclang", r.options.get(u.key, []))


def _save_sanitizer(conn: sqlite3.Connection, corpus: str, r: SanitizerResult) -> None:
    j = r.job
    conn.execute(
        """INSERT OR REPLACE INTO ub_sanitizer (corpus, case_id, compiler, sanitizer, key,
               detected, status, report) VALUES (?,?,?,?,?,?,?,?)""",
        (corpus, j.case.id, j.compiler.name, j.sanitizer, j.key,
         None if r.detected is None else int(r.detected), r.status, r.report))


def _save_warning(conn, corpus, case_id, compiler, level, flags, key, tool, options) -> None:
    conn.execute(
        """INSERT OR REPLACE INTO ub_warning (corpus, case_id, compiler, level, flags, key,
               tool, options) VALUES (?,?,?,?,?,?,?,?)""",
        (corpus, case_id, compiler, level, flags, key, tool, json.dumps(options)))


# ------------------------------------------------------------------ reading

def corpora(conn: sqlite3.Connection) -> list[str]:
    """Corpora with results, most recently run first."""
    return [r[0] for r in conn.execute(
        "SELECT corpus FROM ub_cell GROUP BY corpus ORDER BY max(finished_at) DESC")]


def load_results(conn: sqlite3.Connection, corpus: str) -> dict:
    """Everything stored for one corpus: cases, cells, warnings, sanitizers (plain dicts)."""
    def rows(sql: str) -> list[dict]:
        return [dict(r) for r in conn.execute(sql, (corpus,))]

    cases = rows("SELECT * FROM ub_case WHERE corpus = ? ORDER BY id")
    cells = rows("SELECT * FROM ub_cell WHERE corpus = ? ORDER BY case_id, compiler, level, flags")
    warnings = rows("SELECT * FROM ub_warning WHERE corpus = ?")
    sanitizers = rows("SELECT * FROM ub_sanitizer WHERE corpus = ? ORDER BY case_id, compiler, sanitizer")
    for c in cases:
        c["meta"] = json.loads(c["meta"])
    for c in cells:
        c["runs"] = json.loads(c["runs"])
        c["exploited"] = None if c["exploited"] is None else bool(c["exploited"])
    for w in warnings:
        w["options"] = json.loads(w["options"])
    for s in sanitizers:
        s["detected"] = None if s["detected"] is None else bool(s["detected"])
    return {"corpus": corpus, "cases": cases, "cells": cells, "warnings": warnings,
            "sanitizers": sanitizers}
