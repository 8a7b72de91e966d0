"""End to end on real compilers: the signed-overflow loop, control programs, external
programs, warnings (gcc JSON, each clang's own libclang) and sanitizers.

The loop `for (int i = INT_MAX - 2; i > 0; i++) iterations++;` prints 3 at -O0; with
Debian 12's compilers gcc-12 hangs at -O2 and crashes at -O3, clang emits an empty
main from -O1 up; only gcc warns; UBSan catches it everywhere.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from analyzer.sandbox import runner as sandbox
from analyzer.ub import report as ub_report
from analyzer.ub import run as ub_run
from analyzer.runtime.toolchain import resolve_list
from analyzer.ub.libclang import warnings_for
from warnscope.database import connect

REPO = Path(__file__).resolve().parents[2]
LOOP = REPO / "corpus" / "signed-integer-overflow" / "loop.c"
MINI = Path(__file__).resolve().parents[1] / "fixtures" / "ub" / "mini"
LIMITS = sandbox.Limits(timeout=1.0, cpu=2)
NEEDED = ["gcc-12", "clang-14", "clang-16", "clang-19"]

pytestmark = pytest.mark.skipif(any(shutil.which(c) is None for c in NEEDED),
                                reason="needs gcc-12, clang-14, clang-16 and clang-19")


def make_corpus(root: Path) -> Path:
    shutil.copytree(MINI, root)
    dest = root / "signed-integer-overflow"
    dest.mkdir()
    shutil.copy(LOOP, dest)
    shutil.copy(LOOP.with_suffix(".output"), dest)
    return root


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """One run: the mini corpus and the loop, gcc-12 and clang-16 at four levels."""
    tmp = tmp_path_factory.mktemp("ubrun")
    corpus = make_corpus(tmp / "corpus")
    conn = connect(tmp / "ub.db")
    summary = ub_run.run(conn, corpus, resolve_list(["gcc-12", "clang-16"]), ["O0", "-O1", "O2", "O3"],
                         limits=LIMITS)
    data = ub_report.load(conn)
    return conn, corpus, summary, data


def cells(data, case):
    return {(c.compiler, c.level): c for c in data.cells if c.case_id == case}


def warnings(data, case):
    return {(w.compiler, w.level): w.options for w in data.warnings if w.case_id == case}


def test_every_cell_is_recorded(results):
    _, _, summary, data = results
    assert summary.failures == []
    assert summary.cells == 7 * 2 * 4
    assert len(data.cells) == summary.cells


def test_gcc_hangs_at_O2_and_crashes_at_O3(results):
    loop = cells(results[3], "signed-integer-overflow/loop")
    assert loop["gcc-12", "-O0"].outcome == "expected"
    assert loop["gcc-12", "-O0"].stdout == "3\n"
    assert loop["gcc-12", "-O0"].exploited is False
    assert loop["gcc-12", "-O2"].outcome == "hang"
    assert loop["gcc-12", "-O3"].outcome == "crash"
    assert loop["gcc-12", "-O3"].exploited is True


def test_clang_empties_main_from_O1(results):
    loop = cells(results[3], "signed-integer-overflow/loop")
    assert loop["clang-16", "-O0"].outcome == "expected"
    for level in ("-O1", "-O2", "-O3"):
        cell = loop["clang-16", level]
        assert cell.outcome != "expected" and cell.exploited is True
        assert cell.stdout == ""          # neither the loop nor the printf is left


def test_only_gcc_warns_and_ubsan_catches_it(results):
    data = results[3]
    w = warnings(data, "signed-integer-overflow/loop")
    assert "-Waggressive-loop-optimizations" in w["gcc-12", "-O2"]
    assert "-Waggressive-loop-optimizations" not in w["gcc-12", "-O0"]
    assert all(w["clang-16", level] == [] for level in ("-O0", "-O1", "-O2", "-O3"))
    sans = {(s.compiler, s.sanitizer): s for s in data.sanitizers
            if s.case_id == "signed-integer-overflow/loop"}
    for compiler in ("gcc-12", "clang-16"):
        assert sans[compiler, "undefined"].detected is True
        assert "signed integer overflow" in sans[compiler, "undefined"].report
        assert sans[compiler, "address"].detected is False
    records = [r for r in ub_report.cells(data) if r.case == "signed-integer-overflow/loop"]
    assert {r.sanitizers["undefined"] for r in records} == {True}


def test_controls_agree_everywhere(results):
    data = results[3]
    report = {c.case: c for c in ub_report.build(data).cases}
    assert report["signed-integer-overflow/loop"].diverges is True
    for case in ("control/unsigned-wrap", "control/exit-three", "control/either-output",
                 "external/plain-expected"):
        assert report[case].diverges is False
        assert {c.outcome for c in report[case].cells} == {"expected"}, case
    assert {c.exit for c in report["control/exit-three"].cells} == {3}
    # divergent cases come first in the report
    order = [c.diverges for c in report.values()]
    assert order == sorted(order, reverse=True)


def test_a_program_that_does_not_link_is_a_recorded_cell(results):
    broken = cells(results[3], "broken/does-not-link")
    assert len(broken) == 8
    assert {c.outcome for c in broken.values()} == {"compile-error"}
    assert all("nowhere" in c.compile_log for c in broken.values())
    assert {c.exploited for c in broken.values()} == {None}
    report = {c.case: c for c in ub_report.build(results[3]).cases}
    assert report["broken/does-not-link"].diverges is False


def test_program_without_expected_output_is_compared_across_cells_only(results):
    plain = cells(results[3], "external/plain")
    assert {c.outcome for c in plain.values()} == {"completed"}
    assert {c.exploited for c in plain.values()} == {None}
    assert {c.stdout for c in plain.values()} == {"42\n"}


def test_unchanged_rerun_does_nothing_and_a_new_compiler_runs_only_its_cells(results):
    conn, corpus, _, _ = results
    again = ub_run.run(conn, corpus, resolve_list(["gcc-12", "clang-16"]), ["O0", "O1", "O2", "O3"],
                       limits=LIMITS)
    assert (again.cells_run, again.compiled, again.warnings_run, again.sanitizers_run) == (0, 0, 0, 0)
    more = ub_run.run(conn, corpus, resolve_list(["gcc-12", "clang-16", "clang-14", "clang-19"]),
                      ["O0", "O1", "O2", "O3"], limits=LIMITS, sanitizers=False)
    assert more.cells_run == 7 * 2 * 4
    assert more.failures == []
    loop = cells(ub_report.load(conn), "signed-integer-overflow/loop")
    for compiler in ("clang-14", "clang-19"):
        assert loop[compiler, "-O0"].outcome == "expected"
        for level in ("-O1", "-O2", "-O3"):
            assert loop[compiler, level].stdout == ""
            assert loop[compiler, level].exploited is True


@pytest.mark.parametrize("major", [14, 16, 19])
def test_each_clang_is_asked_through_its_own_libclang(major):
    unit = {"id": "u", "filename": "p.c", "args": ["-x", "c", "-std=c17", "-Weverything"],
            "source": "int main(void) { int x = 0; if (x = 1) return 1; return 0; }\n"}
    answer = warnings_for(major, [unit])
    assert f"clang version {major}." in answer.version
    assert "-Wparentheses" in answer.options["u"] and not answer.failed
