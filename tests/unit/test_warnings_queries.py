"""The warnings store and its questions on hand-made builds: a diagnostic stored once
with its TUs, the diff's matching (file, line, option, message; a rewording is 'changed'),
report and top over builds of compilers the flag database does not hold."""
from __future__ import annotations

import json

import pytest

from analyzer.warnings import queries, store
from analyzer.warnings.results import Build, Diagnostic, TuOutcome
from warnscope.database import connect, transaction
from warnscope.errors import NoData
from warnscope.serial import to_json


def _build(compiler: str, diagnostics: list[Diagnostic], project: str = "p", status: str = "ok") -> Build:
    return Build(project=project, origin="/nonexistent/p", compiler=compiler, compiler_version=f"{compiler} 1.0",
                 level="all", opt="-O2", flags={"c": ["-Wall"]}, format="clang-text", status=status,
                 diagnostics=diagnostics, tus=[TuOutcome("a.c", "c", 0, len(diagnostics)),
                                               TuOutcome("b.c", "c", 1, 0, "SARIF of an unknown shape: no 'runs' list")],
                 finished_at="2026-11-25T00:00:00+00:00")


def _d(option, line, message, file="a.c", tus=("a.c",)) -> Diagnostic:
    return Diagnostic(option, "warning", file, line, 1, message, list(tus), len(tus))


@pytest.fixture
def db(tmp_path):
    conn = connect(tmp_path / "w.db")
    old = [_d("-Wshadow", 1, "x shadows"), _d("-Wfoo", 2, "old words"), _d("-Wgone", 3, "gone"),
           _d("-Wunused-variable", 4, "unused 'u'", file="h.h", tus=("a.c", "b.c")), _d(None, None, "no option")]
    new = [_d("-Wshadow", 1, "x shadows"), _d("-Wfoo", 2, "new words"), _d("-Wnew", 5, "new"),
           _d("-Wunused-variable", 4, "unused 'u'", file="h.h", tus=("a.c", "b.c")), _d(None, None, "no option")]
    with transaction(conn):
        store.save_build(conn, _build("clang-90", old))
        store.save_build(conn, _build("clang-91", new))
        store.save_build(conn, _build("clang-91", new, project="q", status="failed"))
    return conn


def test_a_build_is_stored_and_read_back_whole(db):
    b = store.builds(db, "p", ["clang-90"])[0]
    header = [d for d in b.diagnostics if d.file == "h.h"][0]
    assert (header.tus, header.printed) == (["a.c", "b.c"], 2)
    assert [t.problem for t in b.tus] == [None, "SARIF of an unknown shape: no 'runs' list"]


def test_a_rerun_replaces_the_build(db):
    with transaction(db):
        store.save_build(db, _build("clang-90", [_d("-Wx", 9, "x")]))
    assert [d.option for d in store.builds(db, "p", ["clang-90"])[0].diagnostics] == ["-Wx"]
    assert db.execute("SELECT count(*) FROM wn_diag_tu t LEFT JOIN wn_diag d ON d.id = t.diag_id "
                      "WHERE d.id IS NULL").fetchone()[0] == 0


def test_diff_matches_by_place_option_and_message(db):
    d = queries.diff(db, "p", "clang-90", "clang-91")
    assert (d.added, d.removed, d.changed, d.unchanged) == (1, 1, 1, 3)
    by = {o.option: o for o in d.by_option}
    assert [(e.change, e.message, e.old_message) for e in by["-Wfoo"].entries] == [
        ("changed", "new words", "old words")]
    assert [e.change for e in by["-Wgone"].entries] == ["removed"]
    assert [e.change for e in by["-Wnew"].entries] == ["added"]
    assert json.loads(to_json(d))["by_option"][0]["entries"][0]["change"] in ("added", "removed", "changed")


def test_diff_of_a_missing_build_is_no_data(db):
    with pytest.raises(NoData, match="no warnings build of p with gcc-12"):
        queries.diff(db, "p", "gcc-12", "clang-91")


def test_report_without_flag_data(db):
    r = queries.report(db, "p")
    assert [b.compiler for b in r.builds] == ["clang-90", "clang-91"]
    b = r.builds[0]
    assert (b.diagnostics, b.printed, b.silent) == (5, 6, None)   # clang-90 is not ingested
    assert {o.known for o in b.by_option} == {None}
    assert [t.tu for t in b.unread] == ["b.c"]
    assert next(o for o in b.by_option if o.option == "-Wunused-variable").files == ["h.h"]
    with pytest.raises(NoData):
        queries.report(db, "nope")


def test_top_and_show(db):
    t = queries.top(db, ["p"])
    assert t.noisiest[0].diagnostics == 2 and t.silent == []
    s = queries.show(db, "-Wunused-variable", "p")
    assert s.total == 2 and len(s.examples) == 1                # the same warning of two compilers: one example
    assert s.examples[0].source_line is None                    # its tree is gone
