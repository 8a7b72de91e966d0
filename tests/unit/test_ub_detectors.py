"""Detectors: the tools' output shapes read into findings, and the scores over them.

The texts below are what gcc-12, clang-16, clang-tidy-16, cppcheck 2.10 and the
sanitizers printed on corpus programs (tests/system/test_ub_detectors_real.py runs the
tools themselves); a shape not understood is said, never read as "nothing found".
"""
from __future__ import annotations

import json

import pytest

from warnscope.diagnostics.parse_gcc_json import split_stderr as _split_gcc_json
from analyzer.ub.corpus import Case
from analyzer.ub.detectors import (Finding, Kind, RunStatus, Tool, ToolRun, bracketed, gcc_json,
                                   judge, sanitizer_reports)
from analyzer.ub.scores import Verdict, as_json, render, render_case, score

GCC_ANALYZER = json.dumps([{
    "kind": "warning", "message": "dereference of NULL 'dev'", "option": "-Wanalyzer-null-dereference",
    "locations": [{"caret": {"file": "check-after-use.c", "line": 29, "column": 9}}],
    "children": [{"kind": "note", "message": "path", "locations": [
        {"caret": {"file": "check-after-use.c", "line": 39, "column": 5}}]}]},
    {"kind": "warning", "message": "in a header", "option": "-Wanalyzer-malloc-leak",
     "locations": [{"caret": {"file": "/usr/include/stdlib.h", "line": 3, "column": 1}}]},
    {"kind": "note", "message": "a note alone"}])
CLANG_ANALYZE = """\
uaf.c:19:11: warning: Use of memory after it is freed [unix.Malloc]
uaf.c:16:15: note: Memory is allocated
    p[32] = (char)('a' + argc);
    ~~~~~ ^
1 warning generated.
"""
TIDY = """\
503 warnings generated.
tidy.c:3:45: warning: addition operator is applied to the argument of strlen instead of its result [bugprone-misplaced-operator-in-strlen-in-alloc,cert-mem35-c]
tidy.c:4:1: warning: format specifies type 'long' [clang-diagnostic-format]
Suppressed 503 warnings (503 in non-user code).
"""
CPPCHECK = """\
nd.c:29:17: warning: Either the condition 'dev==NULL' is redundant or there is possible null pointer dereference: dev. [nullPointerRedundantCheck]
nd.c:29:17: error: Null pointer dereference: dev [ctunullpointer]
nofile:0:0: information: Active checkers: 100/500 [checkersReport]
"""
GCC_UBSAN = ("check-after-use.c:29:9: runtime error: member access within null pointer of type "
             "'struct device'\nloop.c:16:39: runtime error: signed integer overflow: 2147483647 + 1 "
             "cannot be represented in type 'int'\n")
CLANG_UBSAN = ("loop.c:16:39: runtime error: signed integer overflow: 2147483647 + 1 cannot be "
               "represented in type 'int'\nSUMMARY: UndefinedBehaviorSanitizer: "
               "signed-integer-overflow loop.c:16:39 in \n")
ASAN = """\
==16141==ERROR: AddressSanitizer: attempting double-free on 0x603000000040 in thread T0:
    #0 0x55f148549e66  (/work/a.out+0xb7e66) (BuildId: 2257b62c)
SUMMARY: AddressSanitizer: double-free (/work/a.out+0xb7e66) (BuildId: 2257b62c)
"""
GCC_ASAN = "==1==ERROR: AddressSanitizer: heap-use-after-free on address\nSUMMARY: AddressSanitizer: heap-use-after-free /work/read-after-free.c:19 in main\n"


def test_gcc_json_findings_at_the_programs_lines():
    diagnostics, _ = _split_gcc_json(GCC_ANALYZER + "\n")
    found = gcc_json(diagnostics, "check-after-use.c")
    assert found == [
        Finding("-Wanalyzer-null-dereference", Kind.ANALYZER, 29, "dereference of NULL 'dev'"),
        Finding("-Wanalyzer-malloc-leak", Kind.ANALYZER, None, "in a header")]


def test_clang_analyzer_checker_and_line():
    found, strange = bracketed(CLANG_ANALYZE, "uaf.c", Kind.ANALYZER)
    assert [(f.detector, f.line) for f in found] == [("unix.Malloc", 19)]
    assert strange == []


def test_clang_tidy_each_check_of_a_line_and_no_compiler_warnings():
    found, strange = bracketed(TIDY, "tidy.c", Kind.ANALYZER, skip=("clang-diagnostic-",))
    assert [(f.detector, f.line) for f in found] == [
        ("bugprone-misplaced-operator-in-strlen-in-alloc", 3), ("cert-mem35-c", 3)]
    assert strange == []


def test_cppcheck_ids_and_its_own_messages_left_out():
    found, strange = bracketed(CPPCHECK, "nd.c", Kind.ANALYZER, prefix="cppcheck:")
    assert [(f.detector, f.line) for f in found] == [
        ("cppcheck:nullPointerRedundantCheck", 29), ("cppcheck:ctunullpointer", 29)]
    assert strange == []


def test_a_warning_of_an_unknown_shape_is_said():
    found, strange = bracketed("a.c:3:1: warning: something new without a name\n", "a.c", Kind.WARNING)
    assert found == [] and strange == ["a.c:3:1: warning: "]


def test_sanitizer_checks_named_alike_for_gcc_and_clang():
    gcc, bad = sanitizer_reports(GCC_UBSAN, "loop.c")
    assert [(f.detector, f.line) for f in gcc] == [("ubsan:null", None),
                                                   ("ubsan:signed-integer-overflow", 16)]
    assert not bad
    clang, _ = sanitizer_reports(CLANG_UBSAN, "loop.c")
    assert [(f.detector, f.line) for f in clang] == [("ubsan:signed-integer-overflow", 16)]
    asan, _ = sanitizer_reports(ASAN, "df.c")
    assert [(f.detector, f.line) for f in asan] == [("asan:double-free", None)]
    symbolized, _ = sanitizer_reports(GCC_ASAN, "read-after-free.c")
    assert [(f.detector, f.line) for f in symbolized] == [("asan:heap-use-after-free", 19)]


def test_an_asan_error_without_its_summary_is_not_understood():
    found, bad = sanitizer_reports("==1==ERROR: AddressSanitizer: SEGV on unknown address\n", "a.c")
    assert found == [] and bad


def test_judge_a_catch_is_at_the_ub_line_a_false_alarm_on_the_twin():
    at = [Finding("-Wx", Kind.WARNING, 16)]
    off = [Finding("-Wx", Kind.WARNING, 3)]
    assert judge(Kind.WARNING, (16,), at, []).caught
    v = judge(Kind.WARNING, (16,), off, at)
    assert (v.caught, v.elsewhere, v.false_alarm) == (False, True, True)
    assert judge(Kind.SANITIZER, (16,), [Finding("asan:double-free", Kind.SANITIZER, None)], None).caught


def _case(cid: str, ub: bool, lines=(), twin="", fixes="", category="cat") -> Case:
    return Case(id=cid, path=None, language="c", category=category, std="c17", ub=ub,
                ub_lines=tuple(lines), twin=twin, fixes=fixes)


def test_scores_count_catches_elsewhere_false_alarms_and_failed_runs():
    cases = [_case("cat/a", True, (10,), "cat/a.fixed"), _case("cat/a.fixed", False, fixes="cat/a"),
             _case("cat/b", True, (5,), "cat/b.fixed"), _case("cat/b.fixed", False, fixes="cat/b"),
             _case("other/c", True, (7,), category="other")]
    w = Tool.WARNINGS

    def run(cid, *found, status=RunStatus.OK, version="gcc-12", tool=w):
        return ToolRun(cid, tool, version, status, tuple(Finding(d, tool.kind, l) for d, l in found),
                       note="gone" if status is not RunStatus.OK else "")
    runs = [run("cat/a", ("-Wx", 10)), run("cat/a.fixed", ("-Wx", 10)),
            run("cat/b", ("-Wx", 9)), run("cat/b.fixed"), run("other/c", ("-Wy", 7)),
            run("cat/a", status=RunStatus.UNAVAILABLE, tool=Tool.GCC_ANALYZER)]
    s = score(cases, runs)
    assert (s.cases, s.twins, s.versions) == (3, 2, ["gcc-12"])
    x = s.detector("-Wx", "gcc-12")
    assert (x.caught, x.elsewhere, x.false_alarms, x.cases, x.twins) == (
        ["cat/a"], ["cat/b"], ["cat/a.fixed"], 3, 2)
    assert [(c.category, c.caught, c.cases, c.false_alarms, c.twins) for c in x.categories] == [
        ("cat", 1, 2, 1, 2)]
    y = s.detector("-Wy", "gcc-12")
    assert y.caught == ["other/c"] and y.false_alarms == []
    [problem] = s.problems
    assert (problem.tool, problem.status, problem.runs, problem.why) == (
        "gcc-analyzer", "unavailable", 1, "gcc-analyzer unavailable: gone")
    a = s.case("cat/a")
    assert [(d.detector, d.verdict, d.lines) for d in a.detections] == [
        ("-Wx", Verdict.CAUGHT, [10]), ("-Wx", Verdict.FALSE_ALARM, [10])]
    text = render(s, categories=True)
    assert "-Wx" in text and "1/3" in text and "1/2" in text
    assert "gcc-12 gcc-analyzer: unavailable on 1 program -- gcc-analyzer unavailable: gone" in text
    assert "caught by: -Wx (gcc-12, line 10)" in render_case(a)
    assert "false alarm on the twin by: -Wx (gcc-12, line 10)" in render_case(a)
    assert json.loads(json.dumps(as_json(s)))["detectors"][0]["detector"] in ("-Wx", "-Wy")


def test_int_min_division_is_the_signed_overflow_check():
    found, _ = sanitizer_reports("divide.c:29:22: runtime error: division of -2147483648 by -1 "
                                 "cannot be represented in type 'int'\n", "divide.c")
    assert [(f.detector, f.line) for f in found] == [("ubsan:signed-integer-overflow", 29)]


# --- stored runs (ub_detector_run) ------------------------------------------------------

def _bundled(*ids):
    from analyzer.ub.corpus import bundled_corpus, load
    by_id = {c.id: c for c in load(bundled_corpus()).cases}
    return [by_id[i] for i in ids]


def test_stored_runs_read_back_as_they_were_and_score_alike(tmp_path):
    """Runs stored with their keys read back equal; the cases' ub-lines and twins read
    back from their stored metadata give the scores the corpus's cases give."""
    from analyzer.ub import store as ub_store
    from analyzer.ub.scores import stored_case, stored_facts
    from analyzer.ub.results import CaseInfo, StoredResults
    from warnscope.database import connect
    cases = _bundled("signed-integer-overflow/loop", "signed-integer-overflow/loop.fixed")
    conn = connect(tmp_path / "d.db")
    ub_store.save_cases(conn, "corpus", cases)
    runs = [ToolRun("signed-integer-overflow/loop", Tool.WARNINGS, "gcc-12", RunStatus.OK,
                    (Finding("-Waggressive-loop-optimizations", Kind.WARNING, 16, "iteration"),
                     Finding("-Wx", Kind.WARNING, None)), level="-O2"),
            ToolRun("signed-integer-overflow/loop.fixed", Tool.WARNINGS, "gcc-12", RunStatus.OK, (),
                    level="-O2"),
            ToolRun("signed-integer-overflow/loop", Tool.CLANG_TIDY, "clang-16", RunStatus.UNAVAILABLE,
                    note="clang-tidy-16 is not installed")]
    ub_store.save_detector_runs(conn, "corpus", [(f"k{i}", r) for i, r in enumerate(runs)])
    stored = ub_store.detector_runs(conn, "corpus")
    assert sorted((k, r) for k, r in stored.values()) == sorted(
        (f"k{i}", r) for i, r in enumerate(runs))
    assert stored[("signed-integer-overflow/loop", "warnings", "gcc-12", "-O2")][0] == "k0"
    infos = [CaseInfo(id=r["id"], category=r["category"], language="c", std="c17", standard="",
                      summary="", ub=None if r["ub"] is None else bool(r["ub"]), expected_exit=0,
                      expectations=0, source_hash="", meta=json.loads(r["meta"]))
             for r in conn.execute("SELECT id, category, ub, meta FROM ub_case")]
    facts = stored_facts(infos)
    assert [(f.id, f.ub_lines, f.twin) for f in facts] == [(c.id, c.ub_lines, c.twin) for c in cases]
    assert as_json(score(facts, runs)) == as_json(score(cases, runs))
    data = StoredResults(corpus="corpus", cases=infos, cells=[], warnings=[],
                                  sanitizers=[], detector_runs=runs)
    loop = stored_case(data, "signed-integer-overflow/loop")
    assert loop.versions == ["gcc-12"]
    assert stored_case(data, "signed-integer-overflow/loop.fixed") is None  # a twin is not scored


def test_a_damaged_stored_run_is_one_error_line(tmp_path):
    from analyzer.ub import store as ub_store
    from warnscope.database import connect, transaction
    from warnscope.errors import CorruptDatabase
    conn = connect(tmp_path / "d.db")
    ub_store.save_cases(conn, "corpus", _bundled("signed-integer-overflow/loop"))
    for findings in ("not json", '[{"detector": "-Wx"}]', '[{"detector": "-Wx", "kind": "warning", '
                                                          '"line": "16", "message": ""}]'):
        with transaction(conn):
            conn.execute("INSERT OR REPLACE INTO ub_detector_run VALUES ('corpus', "
                         "'signed-integer-overflow/loop', 'warnings', 'gcc-12', '-O2', 'k', 'ok', '', ?, "
                         "'2026-01-01T00:00:00Z')", (findings,))
        with pytest.raises(CorruptDatabase, match="ub_detector_run of signed-integer-overflow/loop "
                                                  "warnings gcc-12 -O2.*the database is damaged"):
            ub_store.detector_runs(conn, "corpus")


def test_a_cases_detectors_per_version():
    """What ub report and ub explain print of one case: per version that ran, what caught
    it at its ub-line, fired elsewhere, falsely claimed on its twin; or nothing."""
    from analyzer.ub.scores import CaseDetections, Detection, render_versions
    case = CaseDetections("cat/a", "cat", [10], "cat/a.fixed", [
        Detection("gcc-12", "-Wx", "warning", Verdict.CAUGHT, [10]),
        Detection("gcc-12", "-Wy", "warning", Verdict.ELSEWHERE, [3, 4]),
        Detection("clang-16", "core.X", "analyzer", Verdict.FALSE_ALARM, [10])],
        versions=["gcc-12", "clang-16", "cppcheck-2.10"])
    assert render_versions(case) == [
        "detectors (ub-line 10; twin cat/a.fixed):",
        "  gcc-12         caught at its ub-line: -Wx (10); fired elsewhere: -Wy (3, 4)",
        "  clang-16       false alarm on its twin: core.X (10)",
        "  cppcheck-2.10  nothing reported"]
