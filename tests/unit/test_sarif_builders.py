"""The SARIF builders on constructed results: the shared base (locations as URIs, the cap
of 25,000 results per run and the number left out said, distinct categories), the
warnings family's baseline states read from a real :func:`queries.diff_of` of two
builds, an upgrade's configure flips, and the detectors' verdicts. No compiler runs:
tests/system/test_sarif.py validates real logs with Microsoft's SARIF Multitool."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from warnscope import sarif

from analyzer.warnings import queries
from analyzer.warnings import sarif as wsarif
from analyzer.warnings.results import (Build, CheckFlip, CompilerReport, Diagnostic, EscapeHatch,
                                       Environment, MacroChange, NewError, TuOutcome, Upgrade, UpgradePair,
                                       WarningsReport)
from analyzer.ub.detectors import sarif as usarif
from analyzer.ub.detectors.scores import CaseDetections, Detection, DetectorScore, Scores, ToolProblem


def _result(i: int, level: str = "warning", state: str | None = None) -> dict:
    return sarif.result("-Wx", level, f"m{i}", [sarif.location("a.c", i + 1, 1)], baseline=state)


# ------------------------------------------------------------------ the base

def test_a_run_holds_at_most_25000_results_and_says_how_many_were_left_out():
    """GitHub refuses a run of more than 25,000 results: the run keeps that many (errors
    and new results first, in their own order) and says how many it left out, in its
    properties and as a warning notification of its invocation."""
    results = [_result(i, "note") for i in range(30)]
    results += [_result(i, "warning", "unchanged") for i in range(30, sarif.MAX_RESULTS)]
    results += [_result(i, "error", "new") for i in range(sarif.MAX_RESULTS, sarif.MAX_RESULTS + 10)]
    results += [_result(i, "warning", "new") for i in range(sarif.MAX_RESULTS + 10, sarif.MAX_RESULTS + 20)]
    assert len(results) == sarif.MAX_RESULTS + 20
    run = sarif.run("warnscope/test/", results)
    kept = run["results"]
    assert len(kept) == sarif.MAX_RESULTS == 25_000
    assert run["properties"] == {"resultsTotal": 25_020, "resultsLeftOut": 20}
    (note,) = run["invocations"][0]["toolExecutionNotifications"]
    assert note["level"] == "warning" and note["descriptor"]["id"] == sarif.CAPPED
    assert note["message"]["text"].startswith("20 of 25020 results left out: a run holds at most 25,000")
    # the 20 notes went: every error and every new warning stayed, in their order
    levels = Counter(r["level"] for r in kept)
    assert levels == {"warning": sarif.MAX_RESULTS - 30 + 10, "error": 10, "note": 10}
    texts = [int(r["message"]["text"][1:]) for r in kept]
    assert texts == sorted(texts)
    assert all(r["ruleIndex"] == 0 for r in kept) and run["tool"]["driver"]["rules"] == [{"id": "-Wx"}]


def test_a_run_under_the_cap_says_nothing_was_left_out():
    run = sarif.run("warnscope/test", [_result(i) for i in range(3)], {"-Wx": "Warn about x."})
    assert "properties" not in run and "toolExecutionNotifications" not in run["invocations"][0]
    assert run["automationDetails"] == {"id": "warnscope/test/"}   # all of it is the category
    assert run["invocations"][0]["executionSuccessful"] is True
    assert run["tool"]["driver"]["rules"] == [{"id": "-Wx", "shortDescription": {"text": "Warn about x."}}]
    assert run["originalUriBaseIds"][sarif.SRCROOT]["description"]["text"] == "the analysed source tree"


def test_capped_keeps_what_ranks_first():
    kept, left = sarif.capped([{"level": "note"}, {"level": "error"}, {"level": "warning"}], limit=2)
    assert kept == [{"level": "error"}, {"level": "warning"}] and left == 1
    assert sarif.capped([{"level": "note"}], limit=2) == ([{"level": "note"}], 0)


@pytest.mark.parametrize("path, expected", [
    ("names.c", {"uri": "names.c", "uriBaseId": "SRCROOT"}),
    ("./src/a b.c", {"uri": "src/a%20b.c", "uriBaseId": "SRCROOT"}),
    ("c:d.c", {"uri": "c%3Ad.c", "uriBaseId": "SRCROOT"}),       # not a URI scheme
    ("/usr/include/stdio.h", {"uri": "file:///usr/include/stdio.h"}),
    ("<gcc>/include/stddef.h", {"uri": "include/stddef.h", "uriBaseId": "COMPILER"}),
    ("<clang>/include/stdarg.h", {"uri": "include/stdarg.h", "uriBaseId": "COMPILER"}),
])
def test_a_file_as_an_artifact_location(path, expected):
    assert sarif.artifact(path) == expected


def test_a_location_has_a_region_only_where_there_is_a_line():
    assert sarif.location("a.c", 3, 7)["physicalLocation"]["region"] == {"startLine": 3, "startColumn": 7}
    assert "region" not in sarif.location("a.c", 0)["physicalLocation"]
    assert sarif.location("a.c", 5, 0)["physicalLocation"]["region"] == {"startLine": 5}
    assert sarif.location("a.c", message="here")["message"] == {"text": "here"}


def test_a_result_keeps_to_the_specification():
    assert sarif.result("r", "warning", "m", kind="pass")["level"] == "none"
    absent = sarif.result("r", "warning", "m", kind="pass", baseline="absent", suppressed="gone")
    assert absent["suppressions"] == [{"kind": "external", "status": "accepted", "justification": "gone"}]
    with pytest.raises(ValueError):
        sarif.result("r", "fatal", "m")
    with pytest.raises(ValueError):
        sarif.result("r", "error", "m", baseline="fixed")
    related = sarif.result("r", "note", "m", related=[sarif.location("a.c", 2)])["relatedLocations"]
    assert related[0]["id"] == 1


def test_two_runs_of_one_category_are_refused():
    one = sarif.run("warnscope/a/", [])
    with pytest.raises(ValueError, match="two SARIF runs of one category"):
        sarif.log([one, sarif.run("warnscope/a", [])])
    log = sarif.log([one, sarif.run("warnscope/b/", [])])
    assert log["version"] == "2.1.0" and log["$schema"] == sarif.SCHEMA_URI
    assert json.loads(sarif.dumps(log)) == log and sarif.dumps(log).isascii()


def test_more_runs_than_github_takes_in_a_file_are_said():
    runs = [sarif.run(f"warnscope/r{i}/", []) for i in range(sarif.MAX_RUNS)]
    assert sarif.beyond_limits(sarif.log(runs)) == []
    (note,) = sarif.beyond_limits(sarif.log([*runs, sarif.run("warnscope/one-more/", [])]))
    assert note.startswith("21 SARIF runs in one log: GitHub code scanning takes at most 20 per file")


# ------------------------------------------------------------------ the warnings family

def _d(option, line, message, severity="warning", file="f.c", column=3) -> Diagnostic:
    return Diagnostic(option=option, severity=severity, file=file, line=line, column=column,
                      message=message, tus=["f.c"], printed=1)


def _build(compiler: str, diagnostics: list[Diagnostic], status: str = "ok") -> Build:
    return Build(project="local:t", origin="/nonexistent/t", compiler=compiler,
                 compiler_version=compiler, level="default", opt="-O2", flags={"c": []},
                 format="clang-text", status=status, diagnostics=diagnostics,
                 tus=[TuOutcome("f.c", "c", 0, len(diagnostics))])


#: clang-14 -> clang-16 as tests/fixtures/warnings/upgrade has it: one reworded, one
#: gone, one new at the gone one's line, one the same, and one the same words twice
BEFORE = _build("clang-14", [
    _d("-Wstrict-prototypes", 5, "this function declaration is not a prototype"),
    _d("-Wstrict-prototypes", 6, "this old-style function definition is not preceded by a prototype"),
    _d("-Wunused-variable", 8, "unused variable 'x'"),
    _d("-Wshadow", 9, "declaration shadows a local variable", column=4),
    _d("-Wimplicit-int", 11, "type specifier missing, defaults to 'int'"),
])
AFTER = _build("clang-16", [
    _d("-Wstrict-prototypes", 5, "a function declaration without a prototype is deprecated in all versions of C"),
    _d("-Wdeprecated-non-prototype", 6, "a function definition without a prototype is deprecated"),
    _d("-Wunused-variable", 8, "unused variable 'x'"),
    _d("-Wshadow", 9, "declaration shadows a local variable", column=4),
    _d("-Wshadow", 9, "declaration shadows a local variable", column=9),
    _d("-Wimplicit-int", 11, "type specifier missing, defaults to 'int'", severity="error"),
], status="failed")


def test_baseline_states_are_the_diffs_word():
    """Each diagnostic's state is what ``warnings diff`` says of it: the reworded one
    ``updated`` with the old words, the new ones ``new``, the same ones ``unchanged``, the
    one gone ``absent`` (at its old place, passed and suppressed: no open problem)."""
    diff = queries.diff_of(BEFORE, AFTER)
    assert (diff.added, diff.removed, diff.changed, diff.unchanged) == (2, 1, 1, 3)
    results = wsarif.compared_results(diff, BEFORE, AFTER)
    states = [(r["ruleId"], r["baselineState"]) for r in results]
    assert states == [("-Wstrict-prototypes", "updated"), ("-Wdeprecated-non-prototype", "new"),
                      ("-Wunused-variable", "unchanged"), ("-Wshadow", "unchanged"), ("-Wshadow", "new"),
                      ("-Wimplicit-int", "unchanged"), ("-Wstrict-prototypes", "absent")]
    assert Counter(s for _, s in states) == {"new": diff.added, "absent": diff.removed,
                                             "updated": diff.changed, "unchanged": diff.unchanged}
    updated = results[0]
    assert updated["properties"]["oldMessage"] == "this function declaration is not a prototype"
    absent = results[-1]
    assert (absent["kind"], absent["level"]) == ("pass", "none")
    assert absent["suppressions"][0]["justification"] == "not printed by clang-16, printed by clang-14"
    assert absent["locations"][0]["physicalLocation"]["region"] == {"startLine": 6, "startColumn": 3}
    assert results[5]["level"] == "error"


def test_a_new_error_with_the_old_words_is_updated():
    """clang 16 prints -Wimplicit-int as an error in the words clang 14 printed as a
    warning: the same diagnostic to the diff, a change that matters to code scanning."""
    e = AFTER.diagnostics[-1]
    error = NewError(e.file, e.line, e.column, e.option, e.message, was="warning")
    results = wsarif.compared_results(queries.diff_of(BEFORE, AFTER), BEFORE, AFTER, [error])
    implicit = results[5]
    assert implicit["baselineState"] == "updated" and implicit["level"] == "error"
    assert implicit["properties"]["newError"] is True and implicit["properties"]["was"] == "warning"


def test_levels_rules_and_places_of_diagnostics():
    assert [wsarif.level_of(s) for s in ("error", "fatal", "ice", "warning", "note")] == \
        ["error", "error", "error", "warning", "note"]
    cmdline = Diagnostic(None, "warning", None, None, None, "command-line option '-Wx' is valid for C++",
                         tus=["lib/a.c -> objs/a.o"], printed=1)
    r = wsarif.diagnostic_result(cmdline)
    assert r["ruleId"] == wsarif.NO_OPTION == "warnscope/no-option"
    where = r["locations"][0]
    assert where["physicalLocation"] == {"artifactLocation": {"uri": "lib/a.c", "uriBaseId": "SRCROOT"}}
    header = Diagnostic("-Wtraditional", "warning", "/usr/include/stdio.h", 20, 1, "m",
                        tus=[f"t{i}.c" for i in range(15)], printed=15)
    r = wsarif.diagnostic_result(header)
    assert r["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": "file:///usr/include/stdio.h"}
    assert len(r["properties"]["tus"]) == wsarif.MAX_TUS and r["properties"]["tusTotal"] == 15


def test_a_report_is_a_run_per_build():
    report = WarningsReport("local:t", "/nonexistent/t", [
        CompilerReport(b.compiler, b.compiler_version, b.level, b.opt, b.status, len(b.diagnostics),
                       len(b.diagnostics), 1, [], [], []) for b in (BEFORE, AFTER)])
    log = wsarif.report_log(report, [BEFORE, AFTER], {"clang-16": {"-Wshadow": "Warn about shadowing."}})
    assert [r["automationDetails"]["id"] for r in log["runs"]] == \
        ["warnscope/warnings/clang-14/default/", "warnscope/warnings/clang-16/default/"]
    assert all("baselineState" not in r for run in log["runs"] for r in run["results"])
    rules = {r["id"]: r for r in log["runs"][1]["tool"]["driver"]["rules"]}
    assert rules["-Wshadow"]["shortDescription"]["text"] == "Warn about shadowing."
    assert log["runs"][1]["properties"]["status"] == "failed"
    with pytest.raises(ValueError):
        wsarif.report_log(report, [AFTER, BEFORE])


def test_an_upgrade_is_the_baseline_run_and_a_run_per_compiler():
    diff = queries.diff_of(BEFORE, AFTER)
    flip = CheckFlip("autoconf", "if libc defines __progname", "yes", "no",
                     error="conftest.c:25:27: error: call to undeclared library function 'printf'")
    pair = UpgradePair(old="clang-14", new="clang-16", switching=False, old_status="ok",
                       new_status="failed", old_error=None, new_error="build failed", flips=[flip],
                       macros=[MacroChange("config.h", "HAVE___PROGNAME", "1", None)], new_errors=[],
                       hatch=EscapeHatch(["c:-Wno-error=implicit-int"], "why", "ok", 0), defaults=[],
                       options=[], warnings=diff, environment=Environment("host", "host"))
    log = wsarif.upgrade_log(Upgrade("local:t", "/nonexistent/t", "default", [pair]),
                             {"clang-14": BEFORE, "clang-16": AFTER},
                             {("clang-14", "clang-16"): queries.diff_of(BEFORE, AFTER)})
    old, new = log["runs"]
    assert old["automationDetails"]["id"] == "warnscope/upgrade/clang-14/"
    assert new["automationDetails"]["id"] == "warnscope/upgrade/clang-16/"
    assert old["properties"]["role"] == "baseline" and all("baselineState" not in r for r in old["results"])
    flipped, macro = new["results"][:2]
    assert flipped["ruleId"] == wsarif.FLIPPED and flipped["baselineState"] == "new"
    assert flipped["message"]["text"].startswith(
        "configure check 'if libc defines __progname' (autoconf): yes with clang-14, no with clang-16; clang-16: ")
    assert "locations" not in flipped    # the tree is gone: no place is made up, and that is said
    (said,) = new["invocations"][0]["toolExecutionNotifications"]
    assert said["descriptor"]["id"] == sarif.PLACELESS and said["level"] == "warning"
    assert said["message"]["text"].startswith("2 results without a location")
    assert new["properties"]["resultsWithoutLocation"] == 2 and "resultsWithoutLocation" not in old["properties"]
    assert macro["message"]["text"] == "HAVE___PROGNAME in config.h: #define 1 with clang-14, #undef with clang-16"
    assert new["properties"]["escapeHatch"]["flags"] == ["c:-Wno-error=implicit-int"]
    rules = {r["id"]: r for r in new["tool"]["driver"]["rules"]}
    assert rules[wsarif.FLIPPED]["shortDescription"]["text"].startswith("A configure check")


def test_a_check_is_found_by_its_words():
    assert wsarif._check_words("if libc defines __progname")[:1] == ["if libc defines __progname"]
    assert "__progname" in wsarif._check_words("if libc defines __progname")
    assert "strlcpy" in wsarif._check_words('Checking for function "strlcpy"')
    assert "stdint.h" in wsarif._check_words("for stdint.h")
    assert "accepts" not in wsarif._check_words("whether $CC accepts -g")


# ------------------------------------------------------------------ the detectors

def _scores() -> Scores:
    caught = Detection("gcc-12", "ubsan:signed-integer-overflow", "sanitizer", "caught", [29])
    alarm = Detection("gcc-12", "-Wanalyzer-null-dereference", "analyzer", "false-alarm", [12, 14])
    unrelated = Detection("gcc-12", "-Wanalyzer-null-dereference", "analyzer", "unrelated", [])
    control = Detection("gcc-12", "-Wanalyzer-null-dereference", "analyzer", "false-alarm", [3])
    detectors = [
        DetectorScore("ubsan:signed-integer-overflow", "sanitizer", "sanitizers", "gcc-12",
                      ["c/a"], [], [], 2, 2),
        DetectorScore("-Wanalyzer-null-dereference", "analyzer", "gcc-analyzer", "gcc-12",
                      [], [], ["c/a.fixed"], 2, 2, control_alarms=["control/ok"], controls=1,
                      unrelated=["c/b.fixed"])]
    return Scores(versions=["gcc-12"], cases=2, twins=2, detectors=detectors,
                  per_case=[CaseDetections("c/a", "c", [29], "c/a.fixed", [caught, alarm], ["gcc-12"]),
                            CaseDetections("c/b", "c", [7], "c/b.fixed", [unrelated], ["gcc-12"])],
                  problems=[ToolProblem("gcc-12", "clang-tidy", "unavailable", 4, "clang-tidy unavailable")],
                  controls=1,
                  per_control=[CaseDetections("control/ok", "control", [], "", [control], ["gcc-12"])])


def test_each_detection_is_a_result_in_the_program_it_was_reported_on():
    files = {"c/a": "c/a.c", "c/a.fixed": "c/a.fixed.c", "c/b": "c/b.c", "c/b.fixed": "c/b.fixed.c",
             "control/ok": "control/ok.c"}
    log = usarif.detectors_log(_scores(), files, "/corpus", ran={("gcc-12", "warnings")})
    runs = {r["automationDetails"]["id"]: r for r in log["runs"]}
    assert list(runs) == ["warnscope/ub-detectors/gcc-12/clang-tidy/",
                          "warnscope/ub-detectors/gcc-12/gcc-analyzer/",
                          "warnscope/ub-detectors/gcc-12/sanitizers/",
                          "warnscope/ub-detectors/gcc-12/warnings/"]
    assert runs["warnscope/ub-detectors/gcc-12/warnings/"]["results"] == []   # ran, reported nothing
    tidy = runs["warnscope/ub-detectors/gcc-12/clang-tidy/"]
    assert tidy["results"] == []
    (problem,) = tidy["invocations"][0]["toolExecutionNotifications"]
    assert problem["level"] == "warning" and "unavailable on 4 programs" in problem["message"]["text"]
    (caught,) = runs["warnscope/ub-detectors/gcc-12/sanitizers/"]["results"]
    assert (caught["kind"], caught["level"], caught["properties"]["verdict"]) == ("fail", "warning", "caught")
    assert caught["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "c/a.c", "uriBaseId": "SRCROOT"}, "region": {"startLine": 29}}
    alarm, unrelated, control = runs["warnscope/ub-detectors/gcc-12/gcc-analyzer/"]["results"]
    assert (alarm["kind"], alarm["level"], alarm["properties"]["verdict"]) == ("fail", "note", "false-alarm")
    assert alarm["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "c/a.fixed.c"
    assert alarm["relatedLocations"][0]["physicalLocation"]["region"] == {"startLine": 14}
    assert "the fixed twin of c/a that has none" in alarm["message"]["text"]
    assert (unrelated["kind"], unrelated["level"]) == ("informational", "none")
    assert "region" not in unrelated["locations"][0]["physicalLocation"]
    assert control["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "control/ok.c"
    assert "a control without it" in control["message"]["text"]
    props = runs["warnscope/ub-detectors/gcc-12/gcc-analyzer/"]["properties"]["detectors"]
    assert props["-Wanalyzer-null-dereference"]["falseAlarms"] == 2
    assert runs["warnscope/ub-detectors/gcc-12/sanitizers/"]["originalUriBaseIds"]["SRCROOT"]["uri"] == \
        "file:///corpus/"
