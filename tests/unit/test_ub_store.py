"""The UB store and report over a real database: what they return are the types of
analyzer/ub/results.py, ``ub report --json`` is exactly the document users have
always had, and a stored JSON column that does not decode is one error line.

The cells are written with SQL as a run stores them (a run needs compilers: the
system tests, tests/system/test_ub_run.py, do that); the cases are the mini corpus's.
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
import zlib
from pathlib import Path

import pytest

from analyzer.cli import main
from analyzer.ub import report as ub_report
from analyzer.ub import store as ub_store
from analyzer.ub.corpus import discover
from analyzer.ub.results import (CellRecord, CellRun, Configuration, StoredResults, UbReport,
                                 corpus_content)
from warnscope.database import connect, transaction
from warnscope.errors import CorruptDatabase, NoData

MINI = Path(__file__).resolve().parents[1] / "fixtures" / "ub" / "mini"
CASE = "control/exit-three"
RUN = {"status": "exit", "exit": 3, "signal": None, "truncated": False, "wall": 0.001234,
       "user": 0.0, "sys": 0.001, "maxrss_kb": 1400, "stdout_bytes": 0,
       "leftovers_killed": 0, "timeout": 3.0}


def _cell(conn: sqlite3.Connection, corpus: str, level: str, runs: str, compiler="gcc-12",
          outcome="expected") -> None:
    with transaction(conn):
        conn.execute(
            """INSERT INTO ub_cell (corpus, case_id, compiler, level, flags, key, outcome,
                   exploited, behaviour, exit, signal, stdout, stderr, compile_log,
                   compiler_version, runs, host, finished_at)
               VALUES (?,?,?,?,'',?,?,0,?,3,NULL,'','','','gcc (Debian 12.2.0-14) 12.2.0',?,
                       'h','2026-01-01T00:00:00Z')""",
            (corpus, CASE, compiler, level, f"k{compiler}{level}", outcome, outcome, runs))


@pytest.fixture
def db(tmp_path) -> tuple[Path, str]:
    """A database with the mini corpus's cases, two cells of one case, a warning and a
    sanitizer verdict."""
    path = tmp_path / "ub.db"
    corpus = str(MINI.resolve())
    conn = connect(path)
    ub_store.save_cases(conn, corpus, discover(MINI))
    _cell(conn, corpus, "-O0", json.dumps([RUN, RUN]))
    _cell(conn, corpus, "-O2", json.dumps([RUN, RUN]), compiler="clang-16")
    with transaction(conn):
        conn.execute("INSERT INTO ub_warning VALUES (?,?,'gcc-12','-O0','',?,'gcc-json',?)",
                     (corpus, CASE, "w", json.dumps(["-Wformat"])))
        conn.execute("INSERT INTO ub_sanitizer VALUES (?,?,'gcc-12','undefined','s',0,'exit','')",
                     (corpus, CASE))
    conn.close()
    return path, corpus


def test_the_store_returns_typed_results(db):
    path, corpus = db
    data = ub_store.load(connect(path, write=False))
    assert isinstance(data, StoredResults) and data.corpus == corpus
    assert {c.id for c in data.cases} == {c.id for c in discover(MINI)}
    assert all(isinstance(c, CellRecord) for c in data.cells)
    assert data.cells[0].runs[0] == CellRun(**RUN)
    assert data.cells[0].runs[0].cpu == pytest.approx(0.001)   # a Sample: the one record
    assert [w.options for w in data.warnings] == [["-Wformat"]]
    assert data.sanitizers[0].detected is False
    report = ub_report.build(data)
    assert isinstance(report, UbReport)
    assert report.configurations == [Configuration("gcc-12", "-O0", ""),   # gcc first
                                     Configuration("clang-16", "-O2", "")]


def test_report_json_is_the_document_users_have(db, capsys):
    path, corpus = db
    assert main(["--db", str(path), "ub", "report", "--json", "--case", CASE]) == 0
    doc = json.loads(capsys.readouterr().out)
    cell = {"case": CASE, "compiler": "gcc-12", "level": "-O0", "flags": "", "outcome": "expected",
            "exploited": False, "exit": 3, "signal": None, "stdout": "",
            "warnings": ["-Wformat"], "sanitizers": {"undefined": False},
            "compiler_version": "gcc (Debian 12.2.0-14) 12.2.0", "runs": [RUN, RUN],
            "labels": None, "code_note": "stored before code was kept"}
    assert doc == {
        "corpus": corpus,
        "configurations": [["gcc-12", "-O0", ""], ["clang-16", "-O2", ""]],
        "cases": [{
            "case": CASE, "category": "control", "standard": doc["cases"][0]["standard"],
            "summary": doc["cases"][0]["summary"], "ub": False, "diverges": False,
            "cells": [{**cell, "compiler": "clang-16", "level": "-O2", "warnings": None,
                       "sanitizers": {}}, cell],
            "sanitizers": {"gcc-12": {"undefined": {"detected": False, "status": "exit",
                                                     "report": ""}}},
            "diverges_by_target": False,
        }],
        "corpus_kind": "user",       # a directory of the user's: named by its path
        "corpus_content": corpus_content(discover(MINI)),   # the cases as stored = as on disk
    }
    assert main(["--db", str(path), "ub", "report", "--case", CASE]) == 0
    text = capsys.readouterr().out
    assert "-O0 expected" in text and "warns: -Wformat (-O0)" in text
    assert "sanitizers: undefined silent" in text


def _code(conn: sqlite3.Connection, level: str, text: bytes, compiler: str = "gcc-12") -> None:
    """Give a stored cell code: the text (compressed as the store keeps it) in ub_code."""
    digest = hashlib.sha256(text).hexdigest()
    with transaction(conn):
        conn.execute("INSERT OR IGNORE INTO ub_code (hash, size, code) VALUES (?,?,?)",
                     (digest, len(text), zlib.compress(text)))
        conn.execute("UPDATE ub_cell SET code = ?, code_note = '' WHERE level = ? AND compiler = ?",
                     (digest, level, compiler))


def test_labels_come_from_the_stored_code_against_the_O0_cell(db, capsys):
    path, corpus = db
    conn = connect(path)
    _cell(conn, corpus, "-O2", json.dumps([RUN]), outcome="hang")
    _code(conn, "-O0", b"F\tmain\t9\t0\t\nI\t0\tt.c:4\tcmpl\t$0x0,-0x8(%rbp)\t\n"
                       b"I\t4\tt.c:4\tjg\tmain\tmain\nI\t6\tt.c:5\tcall\tprintf@plt\tprintf@plt\n")
    _code(conn, "-O2", b"F\tmain\t2\t0\t\nI\t0\tt.c:4\tjmp\tmain\tmain\n")
    assert main(["--db", str(path), "ub", "report", "--json", "--case", CASE]) == 0
    cells = {c["level"]: c for c in json.loads(capsys.readouterr().out)["cases"][0]["cells"]
             if c["compiler"] == "gcc-12"}
    assert cells["-O0"]["labels"] == [] and cells["-O0"]["code_note"] == ""
    assert [l["kind"] for l in cells["-O2"]["labels"]] == ["loop-without-exit", "call-removed"]
    assert cells["-O2"]["labels"][0] == {
        "kind": "loop-without-exit", "function": "main", "line": "t.c:4",
        "text": "loop in main at t.c:4 kept, its exit test removed (at -O0: cmpl $0x0,-0x8(%rbp); jg)"}
    assert main(["--db", str(path), "ub", "report", "--case", CASE]) == 0
    assert "hang — loop in main at t.c:4 kept" in capsys.readouterr().out


def test_damaged_stored_code_is_one_error_line(db):
    path, corpus = db
    conn = connect(path)
    _code(conn, "-O0", b"F\tmain\t0\t0\t\n")
    with transaction(conn):
        conn.execute("UPDATE ub_code SET code = x'00ff'")
    with pytest.raises(CorruptDatabase, match="ub_code .* is not compressed code"):
        ub_store.load(conn)


def test_a_run_stored_before_runs_had_a_timeout_still_reads(db):
    path, corpus = db
    old = {k: v for k, v in RUN.items() if k != "timeout"}
    conn = connect(path)
    _cell(conn, corpus, "-O1", json.dumps([old]))
    cell = next(c for c in ub_store.load(conn).cells if c.level == "-O1")
    assert cell.runs[0].timeout is None and cell.runs[0].wall == RUN["wall"]


@pytest.mark.parametrize("runs", ["[{\"status\": ", "{}", "[1, 2]", "[{\"colour\": 1}]"])
def test_a_damaged_json_column_is_one_error_line(db, capsys, runs):
    path, corpus = db
    conn = connect(path)
    _cell(conn, corpus, "-O3", runs)
    with pytest.raises(CorruptDatabase, match="ub_cell.runs of control/exit-three gcc-12 -O3"):
        ub_store.load(conn)
    conn.close()
    assert main(["--db", str(path), "ub", "report", "--json"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "damaged" in err
    assert "Traceback" not in err


def test_damaged_options_and_meta_are_one_error_too(db):
    path, _ = db
    conn = connect(path)
    with transaction(conn):
        conn.execute("UPDATE ub_warning SET options = '[3]'")
    with pytest.raises(CorruptDatabase, match="ub_warning.options"):
        ub_store.load(conn)
    with transaction(conn):
        conn.execute("UPDATE ub_warning SET options = '[]'")
        conn.execute("UPDATE ub_case SET meta = 'nope' WHERE id = ?", (CASE,))
    with pytest.raises(CorruptDatabase, match=f"ub_case.meta of {CASE}"):
        ub_store.load(conn)


def test_no_results_is_no_data(tmp_path, db):
    empty = connect(tmp_path / "empty.db")
    ub_store.save_cases(empty, "/nothing", [])   # a database with the schema, no results
    with pytest.raises(NoData, match="no UB results in this database"):
        ub_store.load(empty)
    with pytest.raises(NoData, match="no UB results for corpus /elsewhere"):
        ub_store.load(connect(db[0], write=False), "/elsewhere")
    with pytest.raises(NoData, match="no case 'nope'"):
        ub_report.build(ub_store.load(connect(db[0], write=False))).only("nope")


def test_code_no_cell_refers_to_is_dropped_with_the_next_run(db):
    path, corpus = db
    conn = connect(path)
    _code(conn, "-O0", b"F\tmain\t0\t0\t\n")
    with transaction(conn):
        conn.execute("INSERT INTO ub_code (hash, size, code) VALUES ('orphan', 1, x'00')")
    ub_store.save_cases(conn, corpus, discover(MINI))
    assert [r[0] for r in conn.execute("SELECT hash FROM ub_code")] == \
        [hashlib.sha256(b"F\tmain\t0\t0\t\n").hexdigest()]
