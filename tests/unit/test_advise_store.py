"""The advice's SQL (analyzer/advise/store.py) over a real database written with SQL as
the other families store their rows: what it reads, what an empty database answers, and
a stored JSON column that does not decode is one CorruptDatabase line."""
from __future__ import annotations

import json

import pytest

from analyzer.advise import store
from warnscope.database import connect, transaction
from warnscope.errors import CorruptDatabase


@pytest.fixture
def conn(tmp_path):
    c = connect(tmp_path / "a.db")
    with transaction(c):
        for case, ub, meta in (("a/x", 1, {"twin": "x.fixed.c"}), ("a/x.fixed", 0, {"fixes": "x.c"}),
                               ("control/y", 0, {})):
            c.execute("INSERT INTO ub_case (corpus, id, category, language, std, standard, summary, ub, "
                      "expected_exit, expectations, source_hash, meta) VALUES ('/c', ?, ?, 'c', 'c17', '', '', ?, "
                      "0, 0, '', ?)", (case, case.split("/")[0], ub, json.dumps(meta)))
            c.execute("INSERT INTO ub_cell (corpus, case_id, compiler, level, flags, key, outcome, exploited, "
                      "behaviour, exit, signal, stdout, stderr, compile_log, compiler_version, runs, host, "
                      "finished_at) VALUES ('/c', ?, 'gcc-12', '-O2', '', 'k', 'expected', 0, 'expected', 0, "
                      "NULL, '', '', '', 'gcc 12', '[]', 'h', '2026-01-01T00:00:00Z')", (case,))
        for level, options in (("-O0", ["-Wrestrict"]), ("-O2", ["-Wrestrict", "-Wformat="])):
            c.execute("INSERT INTO ub_warning (corpus, case_id, compiler, level, flags, key, tool, options) "
                      "VALUES ('/c', 'a/x', 'gcc-12', ?, '', 'k', 'gcc-json', ?)", (level, json.dumps(options)))
        bid = c.execute("INSERT INTO wn_build (project, origin, compiler, compiler_version, level, opt, flags, "
                        "format, status, error, finished_at) VALUES ('zlib', 'o', 'gcc-12', 'gcc 12', 'all', "
                        "'-O2', '{\"c\": [\"-Wall\", \"-Wformat=2\"]}', 'gcc-json', 'ok', NULL, 't')").lastrowid
        c.execute("INSERT INTO wn_tu (build_id, tu, language, exit, diagnostics, problem) "
                  "VALUES (?, 'a.c', 'c', 0, 1, NULL)", (bid,))
        c.execute("INSERT INTO wn_diag (build_id, option, severity, file, line, col, message, printed) "
                  "VALUES (?, '-Wcast-qual', 'warning', 'a.c', 1, 1, 'm', 2)", (bid,))
    yield c
    c.close()


def test_builds_ub_results_and_attributions(conn):
    builds = store.builds(conn, "zlib", ["gcc-12", "clang-16"])
    assert list(builds) == ["gcc-12"]
    b = builds["gcc-12"]
    assert (b.status, b.tus, b.opt) == ("ok", 1, "-O2")
    assert b.flags == {"c": ["-Wall", "-Wformat=2"]}
    assert [(d.option, d.file, d.printed) for d in b.diagnostics] == [("-Wcast-qual", "a.c", 2)]
    ub = store.ub_results(conn, ["gcc-12"])
    assert ub.corpus == "/c" and ub.compilers == ["gcc-12"]
    assert {(c.id, c.ub, c.twin, c.fixes) for c in ub.cases} == {
        ("a/x", True, "a/x.fixed", ""), ("a/x.fixed", False, "", "a/x"), ("control/y", False, "", "")}
    assert [(f.case_id, f.options) for f in ub.fired] == [("a/x", ["-Wformat=", "-Wrestrict"])]
    assert store.attributions(conn, "zlib", ["gcc-12"]) == {}


def test_a_database_without_the_rows_answers_nothing(tmp_path):
    empty = connect(tmp_path / "e.db")
    assert store.builds(empty, "zlib", ["gcc-12"]) == {}
    assert store.ub_results(empty, ["gcc-12"]).corpus is None
    assert store.attributions(empty, "zlib", ["gcc-12"]) == {}


def test_a_json_column_that_does_not_decode_is_one_line(conn):
    with transaction(conn):
        conn.execute("UPDATE ub_warning SET options = '[\"-Wx\"' WHERE level = '-O0'")
    with pytest.raises(CorruptDatabase, match=r"ub_warning.options of a/x gcc-12 -O0: not JSON"):
        store.ub_results(conn, ["gcc-12"])
    with transaction(conn):
        conn.execute("UPDATE ub_warning SET options = '[1]' WHERE level = '-O0'")
    with pytest.raises(CorruptDatabase, match="not a list of option names"):
        store.ub_results(conn, ["gcc-12"])
    with transaction(conn):
        conn.execute("UPDATE wn_build SET flags = '{\"c\": \"-Wall\"}'")
    with pytest.raises(CorruptDatabase, match="wn_build 1 flags: not a list of options per language"):
        store.builds(conn, "zlib", ["gcc-12"])
