"""Detectors on real tools: warnings, sanitizers, gcc -fanalyzer, clang --analyze,
clang-tidy and cppcheck run in the sandbox on a few corpus cases and their fixed twins,
with gcc-12 and clang-16, and the scores made of what they found.

Nothing is mocked: the tools run as ``warnscope ub detectors`` runs them. Missing
compilers skip the tests; a missing analyzer is a test of its own (one line, no traceback).
"""
from __future__ import annotations

import os
import shutil

import pytest

from analyzer.runtime import executors, toolchain
from analyzer.ub.detectors import analyzers as an
from analyzer.ub.corpus import bundled_corpus, load
from analyzer.ub.detectors.detectors import Kind, RunStatus, Tool
from analyzer.ub.detectors.scores import Catch, render, score

COMPILERS = ("gcc-12", "clang-16")
CASES = ("signed-integer-overflow/loop", "use-after-free/after-realloc",
         "null-dereference/check-after-use", "bad-deallocation/double-free")

pytestmark = pytest.mark.skipif(toolchain.installed(list(COMPILERS)) != list(COMPILERS),
                                reason="needs gcc-12 and clang-16")


@pytest.fixture(scope="module")
def corpus():
    loaded = load(bundled_corpus())
    by_id = {c.id: c for c in loaded.cases}
    return [by_id[i] for i in CASES] + [by_id[by_id[i].twin] for i in CASES]


@pytest.fixture(scope="module")
def runs(corpus):
    compilers = [toolchain.resolve(c) for c in COMPILERS]
    jobs = an.jobs_for(corpus, compilers, cppcheck=toolchain.cppcheck_version())
    with executors.LocalExecutor(2) as pool:
        return an.run_jobs(jobs, pool)


@pytest.fixture(scope="module")
def scores(corpus, runs):
    return score(corpus, runs)


def _found(runs, case_id, tool, version):
    [run] = [r for r in runs if r.case_id == case_id and r.tool is tool and r.version == version]
    assert run.status is RunStatus.OK, run.why()
    return [(f.detector, f.line) for f in run.findings]


def test_every_tool_ran_on_every_program(runs, corpus):
    """gcc: warnings, sanitizers, -fanalyzer; clang: warnings, sanitizers, --analyze,
    clang-tidy; cppcheck once per program (when installed)."""
    per_program = 7 + (1 if shutil.which("cppcheck") else 0)
    assert len(runs) == per_program * len(corpus)
    assert [r.why() for r in runs if not r.ok] == []


def test_the_overflowing_loop_caught_and_its_twin_silent(runs, scores):
    for version in COMPILERS:
        ubsan = scores.detector("ubsan:signed-integer-overflow", version)
        assert ubsan.caught == ["signed-integer-overflow/loop"] and ubsan.false_alarms == []
        assert _found(runs, "signed-integer-overflow/loop.fixed", Tool.SANITIZERS, version) == []
    aggressive = scores.detector("-Waggressive-loop-optimizations", "gcc-12")
    assert aggressive.caught == ["signed-integer-overflow/loop"] and not aggressive.false_alarms
    assert ("-Waggressive-loop-optimizations", 16) in _found(
        runs, "signed-integer-overflow/loop", Tool.WARNINGS, "gcc-12")


def test_fanalyzer_use_after_free_caught_at_its_line_and_silent_on_the_twin(runs, scores):
    assert ("-Wanalyzer-use-after-free", 20) in _found(
        runs, "use-after-free/after-realloc", Tool.GCC_ANALYZER, "gcc-12")
    uaf = scores.detector("-Wanalyzer-use-after-free", "gcc-12")
    assert "use-after-free/after-realloc" in uaf.caught and uaf.false_alarms == []
    # the twin checks its allocations: -fanalyzer says nothing of it at all
    assert _found(runs, "use-after-free/after-realloc.fixed", Tool.GCC_ANALYZER, "gcc-12") == []
    double = scores.detector("-Wanalyzer-double-free", "gcc-12")
    assert double.caught == ["bad-deallocation/double-free"] and double.false_alarms == []


def test_clang_analyzer_null_dereference_caught_and_silent_on_the_twin(runs, scores):
    assert _found(runs, "null-dereference/check-after-use", Tool.CLANG_ANALYZER, "clang-16") == [
        ("core.NullDereference", 29)]
    assert _found(runs, "null-dereference/check-after-use.fixed", Tool.CLANG_ANALYZER, "clang-16") == []
    null = scores.detector("core.NullDereference", "clang-16")
    assert null.caught == ["null-dereference/check-after-use"] and null.false_alarms == []
    assert null.kind == Kind.ANALYZER.value


def test_scores_agree_with_the_findings(runs, corpus, scores):
    """A catch is a report at the case's ub-line (a sanitizer's: any report of the case's
    run); a false alarm is a report on the twin; denominators are the programs run."""
    by_id = {c.id: c for c in corpus}
    findings: dict[tuple, set] = {}
    for r in runs:
        for f in r.findings:
            findings.setdefault((r.version, f.detector, r.case_id), set()).add(f.line)
    assert scores.detectors
    for d in scores.detectors:
        assert d.cases == len(CASES) and d.twins == len(CASES)
        for case_id in d.caught:
            lines = findings[(d.version, d.detector, case_id)]
            assert d.kind == "sanitizer" or lines & set(by_id[case_id].ub_lines), (d, case_id)
        for twin_id in d.false_alarms:
            assert by_id[twin_id].is_twin and (d.version, d.detector, twin_id) in findings
        for case_id in d.elsewhere:
            assert not findings[(d.version, d.detector, case_id)] & set(by_id[case_id].ub_lines)
    loop = scores.case("signed-integer-overflow/loop")
    assert {(d.version, d.detector) for d in loop.detections if d.verdict == Catch.CAUGHT} >= {
        ("gcc-12", "ubsan:signed-integer-overflow"), ("clang-16", "ubsan:signed-integer-overflow")}
    text = render(scores)
    assert "core.NullDereference" in text and "Tools that did not run" not in text


def test_an_analyzer_that_is_not_installed_is_one_line(corpus, monkeypatch, tmp_path):
    """clang-16 without clang-tidy-16 beside it, and no cppcheck: the run says so in one
    line and scores nothing for them; no traceback."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    for name in ("clang-16", "clang++-16"):
        os.symlink(shutil.which(name), bindir / name)
    monkeypatch.setenv("PATH", str(bindir))
    assert toolchain.cppcheck_version() is None
    clang = toolchain.resolve("clang-16")
    case = corpus[0]
    [run] = an.run_jobs(an.jobs_for([case], [clang], tools=[Tool.CLANG_TIDY]))
    assert run.status is RunStatus.UNAVAILABLE and run.findings == ()
    assert run.why() == ("clang-tidy unavailable: clang-tidy-16 is not installed "
                         "(Debian package clang-tidy-16)")
    s = score([case], [run])
    assert s.detectors == [] and s.problems[0].status == "unavailable"


def test_an_analyzer_reads_the_program_only_inside_the_sandbox(tmp_path, corpus):
    """A program that includes a file of the host (outside the sandbox's view) does not
    get it: the analyzer's run fails, saying why, and nothing of the file shows."""
    secret = tmp_path / "secret.h"
    secret.write_text("#error the host's file was read\n")
    case = corpus[0]
    from dataclasses import replace
    hostile = replace(case, source=f'#include "{secret}"\nint main(void) {{ return 0; }}\n'.encode())
    clang = toolchain.resolve("clang-16")
    [run] = an.run_jobs(an.jobs_for([hostile], [clang], tools=[Tool.CLANG_ANALYZER]))
    assert run.status is RunStatus.FAILED
    assert "file not found" in run.note and "the host's file was read" not in run.note


def test_cli_scores_as_text_and_json(capsys):
    from analyzer.cli import main
    import json
    args = ["ub", "detectors", "--compilers", "gcc-12,clang-16", "--tools", "sanitizers,clang-analyzer",
            "--case", "null-dereference/check-after-use"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Detectors on 1 case with UB and 1 fixed twin (clang-16, gcc-12)" in out
    assert "caught by: core.NullDereference (clang-16, line 29)" in out
    assert main(args + ["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    null = next(d for d in data["detectors"] if d["detector"] == "core.NullDereference")
    assert (null["caught"], null["false_alarms"], null["cases"], null["twins"]) == (
        ["null-dereference/check-after-use"], [], 1, 1)


@pytest.mark.parametrize("args, message", [
    (["--tools", "infer"], "unknown tool 'infer': one of warnings, sanitizers"),
    (["--case", "no/such-case"], "no case 'no/such-case' in the corpus"),
    (["--compilers", "gcc-3"], "gcc-3"),
])
def test_cli_bad_input_is_one_line(capsys, args, message):
    from analyzer.cli import main
    assert main(["ub", "detectors", "--compilers", "gcc-12", *args]) != 0
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


# --- false alarms: claims of the UB, not any report (the Juliet / Toyota ITC count) --------

#: a program of a user's own, marked clean: GCC 12's -fanalyzer says the object ``new``
#: returns may be null (it cannot be: ``new`` throws), a claim of a null dereference
CLEAN = """/* ub-case
 * category: mine
 * standard: C++17 [expr.new]/1
 * summary: a job made with new, its count read and the job deleted by itself
 * ub: no
 */
#include <cstdio>

struct Job {
    int pad[2];
    int retries;
    int finish();
};

__attribute__((noinline)) int Job::finish()
{
    int r = retries;
    delete this;
    return r;
}

int main(int argc, char **)
{
    Job *j = new Job{{0, 0}, 6 + argc};
    std::printf("%d\\n", j->finish());
    return 0;
}
"""


@pytest.fixture(scope="module")
def claims(tmp_path_factory):
    """gcc -fanalyzer, clang --analyze, clang-tidy and cppcheck where they report something
    on bundled twins and a control, and on a user's clean program: the cases, the runs."""
    mine = tmp_path_factory.mktemp("mine")
    (mine / "mine").mkdir()
    (mine / "mine" / "job.cpp").write_text(CLEAN)
    by_id = {c.id: c for c in load(bundled_corpus()).cases}
    [job] = load(mine).cases
    cases = [by_id[i] for i in ("object-lifetime/after-delete-this", "object-lifetime/after-delete-this.fixed",
                                "strict-aliasing/int-float", "strict-aliasing/int-float.fixed",
                                "control/floating-point")] + [job]
    gcc, clang = toolchain.resolve("gcc-12"), toolchain.resolve("clang-16")
    version = toolchain.cppcheck_version()
    jobs = [an.ToolJob(c, Tool.GCC_ANALYZER, gcc) for c in cases[:2] + [job]]
    jobs += [an.ToolJob(c, Tool.CLANG_ANALYZER, clang) for c in cases[:2]]
    jobs += [an.ToolJob(cases[4], Tool.CLANG_TIDY, clang)]
    if version:
        jobs += [an.ToolJob(c, Tool.CPPCHECK, None, cppcheck=version) for c in cases[:4]]
    with executors.LocalExecutor(2) as pool:
        return cases, an.run_jobs(jobs, pool)


def test_a_twin_or_control_report_is_a_false_alarm_only_where_it_claims_the_ub(claims):
    """Real tools on real programs without UB: clang's analyzer at after-delete-this.fixed's
    fixed line (19: the member read, now before the delete) claims the UB; gcc's "possibly
    NULL" after new on the same twin claims another class (unrelated), on a clean program of
    a user's a false alarm; clang-tidy's narrowing conversion on control/floating-point is
    unrelated; cppcheck's pointer cast on int-float.fixed is of the case's class."""
    cases, runs = claims
    assert [r.why() for r in runs if not r.ok] == []
    fixed = "object-lifetime/after-delete-this.fixed"
    assert ("-Wanalyzer-possible-null-dereference", 26) in _found(runs, fixed, Tool.GCC_ANALYZER, "gcc-12")
    assert ("core.uninitialized.Assign", 19) in _found(runs, fixed, Tool.CLANG_ANALYZER, "clang-16")
    s = score(cases, runs)
    assert (s.cases, s.twins, s.controls) == (2, 2, 2)
    null = s.detector("-Wanalyzer-possible-null-dereference", "gcc-12")
    assert (null.false_alarms, null.control_alarms, null.unrelated) == ([], ["mine/job"], [fixed])
    assign = s.detector("core.uninitialized.Assign", "clang-16")
    assert (assign.false_alarms, assign.unrelated) == ([fixed], [])
    narrowing = s.detector("bugprone-narrowing-conversions", "clang-16")
    assert (narrowing.control_alarms, narrowing.unrelated) == ([], ["control/floating-point"])
    if shutil.which("cppcheck"):
        cast = s.detector("cppcheck:invalidPointerCast", "cppcheck-2.10")
        assert cast.false_alarms == ["strict-aliasing/int-float.fixed"]
    text = render(s)
    row = next(l for l in text.splitlines() if "-Wanalyzer-possible-null-dereference" in l).split()
    assert row[-2:] == ["1/2", "1"]     # false alarms out of twins and controls; unrelated


def test_gcc16_prints_sarif_and_is_scored_as_gcc_12_is(corpus, root_toolchain):
    """GCC 16 has no JSON diagnostics: its profile asks it for SARIF, whose results are
    read with their lines, so its warnings and -fanalyzer score as gcc-12's do (before,
    both were 'unavailable': 'gcc-16 prints SARIF, whose locations are not read here')."""
    gcc16 = root_toolchain("gcc-16")
    cases = [c for c in corpus if c.id in ("signed-integer-overflow/loop", "use-after-free/after-realloc",
                                           "use-after-free/after-realloc.fixed")]
    jobs = an.jobs_for(cases, [gcc16], tools=[Tool.WARNINGS, Tool.GCC_ANALYZER])
    with executors.LocalExecutor(2) as pool:
        runs = an.run_jobs(jobs, pool)
    assert [r.why() for r in runs if not r.ok] == []
    assert ("-Waggressive-loop-optimizations", 16) in _found(
        runs, "signed-integer-overflow/loop", Tool.WARNINGS, "gcc-16")
    assert ("-Wanalyzer-use-after-free", 20) in _found(
        runs, "use-after-free/after-realloc", Tool.GCC_ANALYZER, "gcc-16")
    assert _found(runs, "use-after-free/after-realloc.fixed", Tool.GCC_ANALYZER, "gcc-16") == []
    uaf = score(cases, runs).detector("-Wanalyzer-use-after-free", "gcc-16")
    assert uaf.caught == ["use-after-free/after-realloc"] and uaf.false_alarms == []
