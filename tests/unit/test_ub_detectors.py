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
from analyzer.ub.detectors.detectors import (UB_CLASSES, Finding, Kind, RunStatus, Tool, ToolRun, bracketed,
                                   claims_ub, gcc_json, judge, judge_control, sanitizer_reports,
                                   ub_classes)
from analyzer.ub.detectors.scores import Catch, as_json, render, render_case, score

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


def test_gcc16_sarif_findings_at_the_programs_lines():
    """GCC 16 prints SARIF only: its results are findings at their lines as GCC's JSON
    ones are (a real log, gcc-16 16.2.0 on loop.c), and split_parts counts the log
    as the diagnostics document it is even where it holds no result."""
    from pathlib import Path
    from warnscope.diagnostics.parse_gcc_json import split_parts
    sarif = (Path(__file__).resolve().parents[1] / "fixtures" / "ub" / "gcc16-loop.sarif").read_text()
    diagnostics, _ = _split_gcc_json(sarif)
    assert gcc_json(diagnostics, "loop.c") == [
        Finding("-Waggressive-loop-optimizations", Kind.WARNING, 14,
                "iteration 2 invokes undefined behavior")]
    empty = json.dumps({**json.loads(sarif), "runs": [{**json.loads(sarif)["runs"][0], "results": []}]},
                       indent=2)
    assert split_parts(empty + "\n") == ([], [], 1)


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


def test_judge_a_catch_is_at_the_ub_line_a_false_alarm_a_claim_on_the_twin():
    """On the twin, as Juliet and the Toyota ITC benchmark count: a report at its fixed line,
    or of the case's category anywhere, is a false alarm; another report is unrelated."""
    at = [Finding("-Wx", Kind.WARNING, 16)]
    off = [Finding("-Wx", Kind.WARNING, 3)]
    assert judge(Kind.WARNING, (16,), at, []).caught
    v = judge(Kind.WARNING, (16,), off, [Finding("-Wx", Kind.WARNING, 15)], fixed_lines=(15,))
    assert (v.caught, v.elsewhere, v.false_alarm, v.unrelated, v.twin_lines) == (False, True, True, False, [15])
    v = judge(Kind.WARNING, (16,), at, [Finding("-Wx", Kind.WARNING, 3)], fixed_lines=(15,))
    assert (v.caught, v.false_alarm, v.unrelated, v.twin_lines) == (True, False, True, [3])
    assert judge(Kind.SANITIZER, (16,), [Finding("asan:double-free", Kind.SANITIZER, None)], None).caught


def test_a_report_of_the_cases_class_anywhere_on_the_twin_is_a_false_alarm():
    """Real reports on real twins (gcc-12, clang-16, cppcheck 2.10 on the bundled corpus):
    cppcheck's pointer-cast check on strict-aliasing/int-float.fixed claims the case's
    class away from its fixed line; gcc's -fanalyzer's "possibly-NULL" on
    object-lifetime/after-delete-this.fixed claims another class, clang-tidy's swappable
    parameters none: both unrelated. A sanitizer report on a twin is always a false alarm."""
    cast = Finding("cppcheck:invalidPointerCast", Kind.ANALYZER, 24,
                   "Casting between signed int * and float * which have an incompatible binary data "
                   "representation.")
    v = judge(Kind.ANALYZER, (15,), [], [cast], fixed_lines=(16, 15), category="strict-aliasing")
    assert (v.false_alarm, v.unrelated, v.twin_lines) == (True, False, [24])
    null = Finding("-Wanalyzer-possible-null-dereference", Kind.ANALYZER, 26,
                   "dereference of possibly-NULL 'operator new(24)'")
    v = judge(Kind.ANALYZER, (21,), [], [null], fixed_lines=(21, 19), category="object-lifetime")
    assert (v.false_alarm, v.unrelated, v.twin_lines) == (False, True, [26])
    swapped = Finding("bugprone-easily-swappable-parameters", Kind.ANALYZER, 11)
    assert judge(Kind.ANALYZER, (22, 14), [], [swapped], (22, 14), "restrict-violation").unrelated
    # a detector of no known class counts at the fixed line only
    assert judge(Kind.ANALYZER, (22, 14), [], [Finding("bugprone-easily-swappable-parameters",
                                                       Kind.ANALYZER, 14)], (22, 14), "restrict-violation").false_alarm
    ubsan = Finding("ubsan:alignment", Kind.SANITIZER, 40)
    assert judge(Kind.SANITIZER, (16,), [], [ubsan], (16,), "signed-integer-overflow").false_alarm
    # a twin without fixed-line: its case's class alone
    assert judge(Kind.ANALYZER, (15,), [], [cast], category="strict-aliasing").false_alarm
    assert judge(Kind.ANALYZER, (15,), [], [null], category="strict-aliasing").unrelated


def test_on_a_control_any_known_ub_class_or_sanitizer_is_a_false_alarm():
    narrowing = Finding("bugprone-narrowing-conversions", Kind.ANALYZER, 18,
                        "narrowing conversion from 'int' to 'float'")   # control/floating-point
    assert judge_control([narrowing]) == (False, True)
    assert judge_control([Finding("-Wanalyzer-possible-null-dereference", Kind.ANALYZER, 26)]) == (True, False)
    assert judge_control([Finding("ubsan:runtime-error", Kind.SANITIZER, 3)]) == (True, False)
    assert judge_control([]) == (False, False)
    assert claims_ub(narrowing, category=None) is False


@pytest.mark.parametrize("detector, classes", [
    ("ubsan:signed-integer-overflow", {"signed-integer-overflow", "int-min-division"}),
    ("asan:heap-use-after-free", {"use-after-free", "object-lifetime"}),
    ("asan:memcpy-param-overlap", {"overlapping-copy"}),
    ("asan:strcpy-param-overlap", {"overlapping-copy"}),
    ("-Wnull-dereference", {"null-dereference"}),
    ("-Wformat=", {"format-mismatch"}),                 # GCC's JSON names it with its '='
    ("-Wdangling-pointer=", {"use-after-scope", "dangling-pointer-value"}),
    ("core.NullDereference", {"null-dereference"}),
    ("-Wanalyzer-null-dereference", {"null-dereference"}),
    ("cppcheck:nullPointer", {"null-dereference", "null-library-argument"}),
    ("cppcheck:invalidPrintfArgType_sint", {"format-mismatch"}),
    ("core.uninitialized.Assign", {"uninitialized-read"}),
    ("deadcode.DeadStores", set()),
    ("-Wunused-variable", set()),
    ("-Wunused-but-set-variable", set()),
    ("cppcheck:unreadVariable", set()),
    ("cppcheck:memleak", set()),
    ("bugprone-easily-swappable-parameters", set()),
])
def test_detectors_map_to_the_ub_categories_they_claim(detector, classes):
    assert ub_classes(detector) == classes


def test_the_class_table_names_the_corpus_categories():
    """Every category of the mapping is one of corpus/README's (a bundled folder), and
    every UB category of the corpus has a detector of its class."""
    from analyzer.ub.corpus import bundled_corpus
    folders = {p.name for p in bundled_corpus().iterdir() if p.is_dir()} - {"control"}
    assert set(UB_CLASSES) == folders
    assert all(UB_CLASSES[c] for c in folders)


def _case(cid: str, ub: bool, lines=(), twin="", fixes="", category="cat", fixed=()) -> Case:
    return Case(id=cid, path=None, language="c", category=category, std="c17", ub=ub,
                ub_lines=tuple(lines), twin=twin, fixes=fixes, fixed_lines=tuple(fixed))


def test_scores_count_catches_elsewhere_false_alarms_and_failed_runs():
    cases = [_case("cat/a", True, (10,), "cat/a.fixed"), _case("cat/a.fixed", False, fixes="cat/a", fixed=(10,)),
             _case("cat/b", True, (5,), "cat/b.fixed"), _case("cat/b.fixed", False, fixes="cat/b", fixed=(5,)),
             _case("other/c", True, (7,), category="other"),
             _case("control/d", False, category="control"), _case("control/e", False, category="control")]
    w = Tool.WARNINGS

    def run(cid, *found, status=RunStatus.OK, version="gcc-12", tool=w):
        return ToolRun(cid, tool, version, status, tuple(Finding(d, tool.kind, l) for d, l in found),
                       note="gone" if status is not RunStatus.OK else "")
    runs = [run("cat/a", ("-Wx", 10)), run("cat/a.fixed", ("-Wx", 10)),
            run("cat/b", ("-Wx", 9)), run("cat/b.fixed", ("-Wx", 3)), run("other/c", ("-Wy", 7)),
            run("control/d", ("-Wx", 4), ("-Wnull-dereference", 6)), run("control/e"),
            run("cat/a", status=RunStatus.UNAVAILABLE, tool=Tool.GCC_ANALYZER)]
    s = score(cases, runs)
    assert (s.cases, s.twins, s.controls, s.versions) == (3, 2, 2, ["gcc-12"])
    x = s.detector("-Wx", "gcc-12")
    assert (x.caught, x.elsewhere, x.false_alarms, x.cases, x.twins) == (
        ["cat/a"], ["cat/b"], ["cat/a.fixed"], 3, 2)
    # a report on a twin away from its fixed line, or on a control, of no known class:
    # unrelated, not a false alarm
    assert (x.control_alarms, x.controls, x.unrelated) == ([], 2, ["cat/b.fixed", "control/d"])
    assert [(c.category, c.caught, c.cases, c.false_alarms, c.twins, c.unrelated) for c in x.categories] == [
        ("cat", 1, 2, 1, 2, 1)]
    y = s.detector("-Wy", "gcc-12")
    assert y.caught == ["other/c"] and y.false_alarms == []
    null = s.detector("-Wnull-dereference", "gcc-12")     # a UB class on a control
    assert (null.control_alarms, null.unrelated, null.alarms, null.clean) == (["control/d"], [], 1, 4)
    assert [(c.case_id, [(d.detector, d.verdict, d.lines) for d in c.detections]) for c in s.per_control] == [
        ("control/d", [("-Wnull-dereference", Catch.FALSE_ALARM, [6]), ("-Wx", Catch.UNRELATED, [4])]),
        ("control/e", [])]
    assert [(d.detector, d.verdict, d.lines) for d in s.case("cat/b").detections] == [
        ("-Wx", Catch.ELSEWHERE, [9]), ("-Wx", Catch.UNRELATED, [3])]
    [problem] = s.problems
    assert (problem.tool, problem.status, problem.runs, problem.why) == (
        "gcc-analyzer", "unavailable", 1, "gcc-analyzer unavailable: gone")
    a = s.case("cat/a")
    assert [(d.detector, d.verdict, d.lines) for d in a.detections] == [
        ("-Wx", Catch.CAUGHT, [10]), ("-Wx", Catch.FALSE_ALARM, [10])]
    text = render(s, categories=True)
    assert text.startswith("Detectors on 3 cases with UB, 2 fixed twins and 2 controls (gcc-12)")
    assert "caught  elsewhere  false alarms  unrelated" in text
    assert [l.split() for l in text.splitlines() if l.startswith("  -W")] == [
        ["-Wy", "warning", "1/3", "0", "0/4", "0"], ["-Wx", "warning", "1/3", "1", "1/4", "2"],
        ["-Wnull-dereference", "warning", "0/3", "0", "1/4", "0"]]
    assert "gcc-12 gcc-analyzer: unavailable on 1 program -- gcc-analyzer unavailable: gone" in text
    assert "caught by: -Wx (gcc-12, line 10)" in render_case(a)
    assert "false alarm on the twin by: -Wx (gcc-12, line 10)" in render_case(a)
    assert json.loads(json.dumps(as_json(s)))["detectors"][0]["detector"] in ("-Wx", "-Wy")


def test_real_reports_on_the_bundled_twins_and_a_control():
    """What gcc-12, clang-16 and cppcheck 2.10 reported on bundled twins and a control (their
    runs of ``ub detectors``, as stored), scored with the twins' own fixed-line: clang's
    analyzer at after-delete-this.fixed's fixed line 19 (where the member is now read, before
    the delete) and cppcheck's pointer-cast check on int-float.fixed claim the UB; gcc's
    "possibly-NULL" after ``new``, cppcheck's leak and clang-tidy's narrowing and swappable
    parameters do not (each of them was a false alarm when any report on a twin was one)."""
    cases = _bundled("object-lifetime/after-delete-this", "object-lifetime/after-delete-this.fixed",
                     "strict-aliasing/int-float", "strict-aliasing/int-float.fixed",
                     "restrict-violation/store-reload", "restrict-violation/store-reload.fixed",
                     "control/floating-point")
    assert [c.fixed_lines for c in cases if c.is_twin] == [(21, 19), (16, 15), (22, 14)]

    def run(cid, tool, version, *found):
        return ToolRun(cid, tool, version, RunStatus.OK,
                       tuple(Finding(d, tool.kind, line, m) for d, line, m in found))
    fixed = "object-lifetime/after-delete-this.fixed"
    runs = [run("object-lifetime/after-delete-this", Tool.GCC_ANALYZER, "gcc-12",
                ("-Wanalyzer-use-after-free", 21, "use after 'delete' of '<unknown>'"),
                ("-Wanalyzer-possible-null-dereference", 26, "dereference of possibly-NULL 'operator new(24)'")),
            run(fixed, Tool.GCC_ANALYZER, "gcc-12",
                ("-Wanalyzer-possible-null-dereference", 26, "dereference of possibly-NULL 'operator new(24)'")),
            run("object-lifetime/after-delete-this", Tool.CLANG_ANALYZER, "clang-16",
                ("cplusplus.NewDelete", 21, "Use of memory after it is freed")),
            run(fixed, Tool.CLANG_ANALYZER, "clang-16",
                ("core.uninitialized.Assign", 19, "Assigned value is garbage or undefined")),
            run("object-lifetime/after-delete-this", Tool.CPPCHECK, "cppcheck-2.10",
                ("cppcheck:memleak", 28, "Memory leak: j")),
            run(fixed, Tool.CPPCHECK, "cppcheck-2.10", ("cppcheck:memleak", 28, "Memory leak: j")),
            run("strict-aliasing/int-float", Tool.CPPCHECK, "cppcheck-2.10",
                ("cppcheck:invalidPointerCast", 22, "Casting between signed int * and float *")),
            run("strict-aliasing/int-float.fixed", Tool.CPPCHECK, "cppcheck-2.10",
                ("cppcheck:invalidPointerCast", 24, "Casting between signed int * and float *")),
            run("restrict-violation/store-reload", Tool.CLANG_TIDY, "clang-16"),
            run("restrict-violation/store-reload.fixed", Tool.CLANG_TIDY, "clang-16",
                ("bugprone-easily-swappable-parameters", 11, "2 adjacent parameters of 'update'")),
            run("control/floating-point", Tool.CLANG_TIDY, "clang-16",
                ("bugprone-narrowing-conversions", 18, "narrowing conversion from 'int' to 'float'"))]
    s = score(cases, runs)
    claimed = {(d.version, d.detector): d.false_alarms + d.control_alarms for d in s.detectors}
    unrelated = {(d.version, d.detector): d.unrelated for d in s.detectors}
    assert claimed == {
        ("gcc-12", "-Wanalyzer-use-after-free"): [], ("gcc-12", "-Wanalyzer-possible-null-dereference"): [],
        ("clang-16", "cplusplus.NewDelete"): [], ("clang-16", "core.uninitialized.Assign"): [fixed],
        ("cppcheck-2.10", "cppcheck:memleak"): [],
        ("cppcheck-2.10", "cppcheck:invalidPointerCast"): ["strict-aliasing/int-float.fixed"],
        ("clang-16", "bugprone-easily-swappable-parameters"): [],
        ("clang-16", "bugprone-narrowing-conversions"): []}
    assert unrelated[("gcc-12", "-Wanalyzer-possible-null-dereference")] == [fixed]
    assert unrelated[("cppcheck-2.10", "cppcheck:memleak")] == [fixed]
    assert unrelated[("clang-16", "bugprone-easily-swappable-parameters")] == ["restrict-violation/store-reload.fixed"]
    assert unrelated[("clang-16", "bugprone-narrowing-conversions")] == ["control/floating-point"]
    case = s.case("object-lifetime/after-delete-this")
    assert [(d.version, d.detector, d.verdict, d.lines) for d in case.detections
            if d.verdict in (Catch.FALSE_ALARM, Catch.UNRELATED)] == [
        ("clang-16", "core.uninitialized.Assign", Catch.FALSE_ALARM, [19]),
        ("cppcheck-2.10", "cppcheck:memleak", Catch.UNRELATED, [28]),
        ("gcc-12", "-Wanalyzer-possible-null-dereference", Catch.UNRELATED, [26])]


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
    from analyzer.ub.detectors.scores import stored_case, stored_facts
    from analyzer.ub.results import CaseInfo, StoredResults
    from warnscope.database import connect
    cases = _bundled("signed-integer-overflow/loop", "signed-integer-overflow/loop.fixed",
                     "control/floating-point")
    conn = connect(tmp_path / "d.db")
    ub_store.save_cases(conn, "corpus", cases)
    runs = [ToolRun("signed-integer-overflow/loop", Tool.WARNINGS, "gcc-12", RunStatus.OK,
                    (Finding("-Waggressive-loop-optimizations", Kind.WARNING, 16, "iteration"),
                     Finding("-Wx", Kind.WARNING, None)), level="-O2"),
            ToolRun("signed-integer-overflow/loop.fixed", Tool.WARNINGS, "gcc-12", RunStatus.OK,
                    (Finding("-Wx", Kind.WARNING, 15), Finding("-Wy", Kind.WARNING, 3)), level="-O2"),
            ToolRun("control/floating-point", Tool.WARNINGS, "gcc-12", RunStatus.OK,
                    (Finding("-Wy", Kind.WARNING, 18), Finding("-Wstrict-overflow", Kind.WARNING, 16)),
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
    assert sorted((f.id, f.ub_lines, f.twin, f.fixes, f.fixed_lines) for f in facts) == sorted(
        (c.id, c.ub_lines, c.twin, c.fixes, c.fixed_lines) for c in cases)
    assert next(f for f in facts if f.id.endswith(".fixed")).fixed_lines == (15,)
    scored = score(facts, runs)
    assert as_json(scored) == as_json(score(cases, runs))
    # the twin's report at its fixed line is a false alarm, its other one unrelated; the
    # control's -Wstrict-overflow claims UB there, its -Wy nothing
    x, y, strict = (scored.detector(n, "gcc-12") for n in ("-Wx", "-Wy", "-Wstrict-overflow"))
    assert (x.false_alarms, x.unrelated) == (["signed-integer-overflow/loop.fixed"], [])
    assert (y.false_alarms, y.unrelated) == ([], ["signed-integer-overflow/loop.fixed", "control/floating-point"])
    assert (strict.control_alarms, strict.controls) == (["control/floating-point"], 1)
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
    from analyzer.ub.detectors.scores import CaseDetections, Detection, render_versions
    case = CaseDetections("cat/a", "cat", [10], "cat/a.fixed", [
        Detection("gcc-12", "-Wx", "warning", Catch.CAUGHT, [10]),
        Detection("gcc-12", "-Wy", "warning", Catch.ELSEWHERE, [3, 4]),
        Detection("clang-16", "core.X", "analyzer", Catch.FALSE_ALARM, [10]),
        Detection("clang-16", "deadcode.DeadStores", "analyzer", Catch.UNRELATED, [7])],
        versions=["gcc-12", "clang-16", "cppcheck-2.10"])
    assert render_versions(case) == [
        "detectors (ub-line 10; twin cat/a.fixed):",
        "  gcc-12         caught at its ub-line: -Wx (10); fired elsewhere: -Wy (3, 4)",
        "  clang-16       false alarm on its twin: core.X (10); unrelated on its twin: deadcode.DeadStores (7)",
        "  cppcheck-2.10  nothing reported"]
    assert "unrelated on the twin (not a false alarm) by: deadcode.DeadStores (clang-16, line 7)" in render_case(case)
