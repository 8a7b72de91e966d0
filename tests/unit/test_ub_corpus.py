"""Corpus discovery and the ub-case metadata format (no compiler needed)."""
from __future__ import annotations

from pathlib import Path

import pytest

from analyzer.ub.report_text import failure_lines
from analyzer.runtime.toolchain import Toolchain
from analyzer.ub.classify import classify, diverges, verdict
from analyzer.ub.jobs import (CellRef, ClangUnit, ClangWarningsJob, JobFailure, cell_ref,
                              execute)
from analyzer.ub.run import group_failures
from analyzer.sandbox.limits import RunResult
from analyzer.ub.corpus import bundled_corpus, discover, load, load_case
from analyzer.ub.results import (CorpusKind, Outcome, corpus_content, corpus_kind, corpus_name,
                                 shown_corpus)
from warnscope.errors import ParseError, WarnscopeError

MINI = Path(__file__).resolve().parents[1] / "fixtures" / "ub" / "mini"

CASE = """/* ub-case
 * category: {category}
 * standard: C17 6.5p5
 * summary: something overflows
 * ub: yes
{extra} */
int main(void) {{ return 0; }}
"""


def write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_mini_corpus_cases_and_expectations():
    cases = {c.id: c for c in discover(MINI)}
    assert set(cases) == {"broken/does-not-link", "control/either-output", "control/exit-three",
                          "control/unsigned-wrap", "external/plain", "external/plain-expected"}
    assert cases["control/exit-three"].exit == 3
    assert cases["control/either-output"].expected == (b"unsigned\n", b"signed\n")
    assert cases["control/either-output"].std == "c++17"
    assert cases["control/unsigned-wrap"].ub is False
    plain = cases["external/plain"]
    assert (plain.category, plain.ub, plain.expected, plain.std) == ("external", None, (), "c17")
    assert cases["external/plain-expected"].expected == (b"42\n",)


def test_metadata_options(tmp_path):
    write(tmp_path, "cat/a.c", CASE.format(category="cat", extra=" * std: gnu17\n * args: x y\n"
                                           " * exit: 2\n * o0-exploited: yes\n * link: -lm\n"))
    (tmp_path / "cat" / "a.output2").write_text("two\n")
    (tmp_path / "cat" / "a.output10").write_text("ten\n")
    (tmp_path / "cat" / "a.output1").write_text("one\n")
    (tmp_path / "cat" / "a.outputx").write_text("not an output\n")
    [case] = discover(tmp_path)
    assert case.id == "cat/a"
    assert (case.std, case.args, case.exit, case.o0_exploited, case.link) == (
        "gnu17", ("x", "y"), 2, True, ("-lm",))
    assert case.expected == (b"one\n", b"two\n", b"ten\n")


def test_changed_expected_output_changes_the_hash(tmp_path):
    write(tmp_path, "cat/a.c", CASE.format(category="cat", extra=""))
    out = write(tmp_path, "cat/a.output", "1\n")
    before = discover(tmp_path)[0].source_hash
    out.write_text("2\n")
    assert discover(tmp_path)[0].source_hash != before


def test_a_corpus_is_named_by_kind_and_content(tmp_path):
    """The bundled corpus is "the bundled corpus" with its content hash, never its
    directory; a user's corpus is its path; the content hash follows what the cases hold
    (an expected output included), not where they are."""
    bundled = str(bundled_corpus())
    assert corpus_kind(bundled) is CorpusKind.BUNDLED
    assert corpus_name(bundled) == "the bundled corpus"
    assert shown_corpus(bundled, CorpusKind.BUNDLED, "0123456789ab") == \
        "the bundled corpus (content 0123456789ab)"
    assert corpus_kind(str(tmp_path)) is CorpusKind.USER and corpus_name(str(tmp_path)) == str(tmp_path)
    assert shown_corpus(str(tmp_path), CorpusKind.USER, "0123456789ab") == str(tmp_path)
    write(tmp_path / "one", "cat/a.c", CASE.format(category="cat", extra=""))
    out = write(tmp_path / "one", "cat/a.output", "1\n")
    write(tmp_path / "two", "cat/a.c", CASE.format(category="cat", extra=""))
    write(tmp_path / "two", "cat/a.output", "1\n")
    before = corpus_content(discover(tmp_path / "one"))
    assert before == corpus_content(discover(tmp_path / "two"))   # the same cases elsewhere
    out.write_text("2\n")
    assert corpus_content(discover(tmp_path / "one")) != before


def test_same_name_in_c_and_cpp_keeps_both(tmp_path):
    write(tmp_path, "cat/a.c", CASE.format(category="cat", extra=""))
    write(tmp_path, "cat/a.cpp", CASE.format(category="cat", extra=""))
    assert [c.id for c in discover(tmp_path)] == ["cat/a.c", "cat/a.cpp"]


def test_per_arch_outputs_replace_the_plain_ones_on_their_arch(tmp_path):
    """``NAME.ARCH.output`` (and ``.ARCH.output1`` …) is what a plain run prints on that
    architecture; elsewhere, and on the host (''), the plain outputs stand."""
    write(tmp_path, "cat/a.c", CASE.format(category="cat", extra=""))
    write(tmp_path, "cat/a.output", "SIGFPE\n")
    write(tmp_path, "cat/a.aarch64.output", "-2147483648\n")
    write(tmp_path, "cat/a.arm.output2", "two\n")
    write(tmp_path, "cat/a.arm.output1", "one\n")
    loaded = load(tmp_path)
    [case] = loaded.cases
    assert (loaded.notes, loaded.refused) == ([], [])
    assert case.expected == (b"SIGFPE\n",)
    assert case.expected_by_arch == {"aarch64": (b"-2147483648\n",), "arm": (b"one\n", b"two\n")}
    assert case.expected_on("") == case.expected_on("x86_64") == case.expected_on("riscv64") == (
        b"SIGFPE\n",)
    assert case.expected_on("aarch64") == case.expected_on("aarch64-linux-gnu") == (b"-2147483648\n",)
    assert case.expected_on("arm-linux-gnueabihf") == (b"one\n", b"two\n")
    alone = load_case(tmp_path, tmp_path / "cat" / "a.c")
    assert (alone.expected, alone.expected_by_arch, alone.source_hash) == (
        case.expected, case.expected_by_arch, case.source_hash)


def test_a_program_named_like_a_per_arch_output_owns_it(tmp_path):
    """``a.aarch64.output`` belongs to a program ``a.aarch64.c`` when there is one; a
    twin's per-arch output is the twin's; a word that is no architecture is said."""
    write(tmp_path, "cat/a.c", CASE.format(category="cat", extra=""))
    write(tmp_path, "cat/a.aarch64.c", CASE.format(category="cat", extra=""))
    write(tmp_path, "cat/a.fixed.c", CASE.format(category="cat", extra=" * ub: no\n"))
    write(tmp_path, "cat/a.output", "a\n")
    write(tmp_path, "cat/a.aarch64.output", "a.aarch64\n")
    write(tmp_path, "cat/a.fixed.output", "fixed\n")
    write(tmp_path, "cat/a.fixed.riscv64.output", "fixed on riscv64\n")
    write(tmp_path, "cat/a.arm64.output", "a typo\n")
    loaded = load(tmp_path)
    cases = {c.id: c for c in loaded.cases}
    assert (cases["cat/a"].expected, cases["cat/a"].expected_by_arch) == ((b"a\n",), {})
    assert cases["cat/a"].expected_on("aarch64") == (b"a\n",)
    assert (cases["cat/a.aarch64"].expected, cases["cat/a.aarch64"].expected_by_arch) == (
        (b"a.aarch64\n",), {})
    assert cases["cat/a.fixed"].expected_by_arch == {"riscv64": (b"fixed on riscv64\n",)}
    [note] = loaded.notes
    assert note.endswith("a.arm64.output: not read: no program is named a.arm64, and 'arm64' is "
                         "no architecture (NAME.ARCH.output: the first part of a target triple, "
                         "such as aarch64, arm, riscv64, x86_64)")
    for path in sorted((tmp_path / "cat").glob("*.c")):
        alone = load_case(tmp_path, path)
        assert (alone.expected, alone.expected_by_arch) == (
            cases[alone.id].expected, cases[alone.id].expected_by_arch)


def test_per_arch_outputs_are_in_the_hash(tmp_path):
    """The hash of a case without per-arch outputs is what it always was (stored results
    stay valid); adding or changing one changes it."""
    import hashlib
    source = CASE.format(category="cat", extra="")
    write(tmp_path, "cat/a.c", source)
    write(tmp_path, "cat/a.output", "1\n")
    before = discover(tmp_path)[0].source_hash
    assert before == hashlib.sha256(source.encode() + b"\0output\0" + b"1\n").hexdigest()
    out = write(tmp_path, "cat/a.arm.output", "2\n")
    added = discover(tmp_path)[0].source_hash
    out.write_text("3\n")
    assert len({before, added, discover(tmp_path)[0].source_hash}) == 3


def test_an_unreadable_per_arch_output_refuses_its_case(tmp_path):
    write(tmp_path, "cat/a.c", CASE.format(category="cat", extra=""))
    write(tmp_path, "cat/b.c", CASE.format(category="cat", extra=""))
    write(tmp_path, "cat/a.output", "1\n")
    (tmp_path / "cat" / "a.aarch64.output").symlink_to("/etc/passwd")
    loaded = load(tmp_path)
    assert [c.id for c in loaded.cases] == ["cat/b"]
    assert any(r.rel == "cat/a.c" and "not run: its expected output" in r.reason
               and "a.aarch64.output" in r.reason for r in loaded.refused)


@pytest.mark.parametrize("extra, category, message", [
    (" * colour: red\n", "cat", "unknown metadata key 'colour'"),
    (" * not a pair\n", "cat", "expected 'key: value'"),
    (" * ub: maybe\n", "cat", "ub must be yes or no"),
    (" * exit: three\n", "cat", "exit is not a number"),
    (" * std: c++98\n", "cat", "unknown std"),
    (" * ub-line: two\n", "cat", "ub-line must be line numbers"),
    (" * ub-line: 0\n", "cat", "ub-line must be line numbers"),
    (" * ub-line: 3, 99\n", "cat", "ub-line 99 is past the file's end"),
    (" * twin: ../other/a.c\n", "cat", "is not another program's file name in the same folder"),
    (" * twin: a.c\n", "cat", "is not another program's file name in the same folder"),
    (" * fixes: -o.c\n", "cat", "is not another program's file name in the same folder"),
    ("", "other", "is not the folder name 'cat'"),
])
def test_bad_metadata_is_one_clear_error(tmp_path, extra, category, message):
    path = write(tmp_path, "cat/a.c", CASE.format(category=category, extra=extra))
    with pytest.raises(ParseError) as err:
        discover(tmp_path)
    assert str(path) in str(err.value)
    assert message in str(err.value)


def test_a_case_and_its_fixed_twin_are_linked(tmp_path):
    """``twin:`` names the fixed program beside the case; the twin learns which case it
    fixes from that link even without its own ``fixes:``; ``ub-line`` lists the defect's lines."""
    write(tmp_path, "cat/a.c", CASE.format(category="cat", extra=" * ub-line: 7, 6\n * twin: a.fixed.c\n"))
    write(tmp_path, "cat/a.fixed.c", CASE.format(category="cat", extra=" * ub: no\n"))
    write(tmp_path, "cat/a.fixed.output", "0\n")
    loaded = load(tmp_path)
    case, twin = loaded.cases
    assert (case.id, case.ub_lines, case.twin, case.is_twin) == ("cat/a", (7, 6), "cat/a.fixed", False)
    assert (twin.id, twin.ub, twin.fixes, twin.is_twin, twin.expected) == (
        "cat/a.fixed", False, "cat/a", True, (b"0\n",))
    assert loaded.notes == [] and loaded.refused == []


@pytest.mark.parametrize("twin_text, why", [
    (None, "is not in the corpus"),
    (CASE.format(category="cat", extra=""), "has UB itself"),
])
def test_a_twin_that_is_no_twin_leaves_the_case_running_with_a_note(tmp_path, twin_text, why):
    write(tmp_path, "cat/a.c", CASE.format(category="cat", extra=" * twin: b.c\n"))
    if twin_text:
        write(tmp_path, "cat/b.c", twin_text)
    loaded = load(tmp_path)
    case = next(c for c in loaded.cases if c.id == "cat/a")
    assert case.twin == "" and not any(c.fixes for c in loaded.cases)
    [note] = loaded.notes
    assert f"its twin 'b.c' {why}: the case runs, its detectors' false alarms are not counted" in note
    assert loaded.refused == []


def test_missing_required_key_names_the_file_and_line(tmp_path):
    path = write(tmp_path, "cat/a.c", "int x;\n/* ub-case\n * category: cat\n * ub: yes\n */\n")
    with pytest.raises(ParseError, match=rf"{path}:2: ub-case lacks standard, summary"):
        discover(tmp_path)


def test_empty_or_missing_corpus(tmp_path):
    with pytest.raises(WarnscopeError, match="no .c or .cpp programs"):
        discover(tmp_path)
    with pytest.raises(WarnscopeError, match="not a directory"):
        discover(tmp_path / "nope")


def test_a_program_whose_name_is_not_plain_is_refused_by_name_and_the_others_load(tmp_path):
    """A compile names the program on its command line, so only a plain name is compiled:
    one with a bidi control (or a space, a leading dash) is refused, named, with the
    reason; the others are cases."""
    (tmp_path / "good.c").write_text("int main(void) { return 0; }\n")
    (tmp_path / "ev\u202eil.c").write_text("int main(void) { return 0; }\n")
    (tmp_path / "-o.c").write_text("int main(void) { return 0; }\n")
    loaded = load(tmp_path)
    assert [c.id for c in loaded.cases] == ["good"]
    assert sorted(r.rel for r in loaded.refused) == ["-o.c", "ev\u202eil.c"]
    assert all("not a plain source file name" in r.reason for r in loaded.refused)


def _run(status="exit", exit=0, sig=None, out=b"3\n", truncated=False) -> RunResult:
    return RunResult(status=status, exit=exit, signal=sig, stdout=out, stderr=b"",
                     truncated=truncated, wall=0.0, user=0.0, sys=0.0, maxrss_kb=0)


def test_classification_rules():
    case = {c.id: c for c in discover(MINI)}["control/unsigned-wrap"]
    assert classify(case, [_run(), _run()]).outcome == "expected"
    assert classify(case, [_run(out=b"4\n")] * 2).outcome == "unexpected-output"
    assert classify(case, [_run(exit=1)] * 2).outcome == "nonzero-exit"
    assert classify(case, [_run(status="signal", exit=None, sig=11)] * 2).outcome == "crash"
    assert classify(case, [_run(status="timeout", exit=None, sig=9, out=b"a")]
                    + [_run(status="timeout", exit=None, sig=9, out=b"ab")]).outcome == "hang"
    assert classify(case, [_run(), _run(out=b"4\n")]).outcome == "nondeterministic"
    assert classify(case, [_run(status="output-truncated", exit=None, sig=9,
                                truncated=True)] * 2).outcome == "unexpected-output"
    v = classify(case, [_run(out=b"4\n")] * 2)
    assert v.exploited is True
    plain = {c.id: c for c in discover(MINI)}["external/plain"]
    v = classify(plain, [_run(out=b"42\n")] * 2)
    assert (v.outcome, v.exploited) == ("completed", None)
    other = classify(plain, [_run(out=b"43\n")] * 2)
    assert diverges([v.behaviour, other.behaviour])
    assert not diverges([v.behaviour, v.behaviour])
    assert not diverges([v.behaviour, "compile-error"])


def test_a_wasm_trap_is_a_crash_unless_the_target_s_output_names_it(tmp_path):
    """A WebAssembly trap reaches no handler: on wasm32 the case's output says what the
    program printed, then ``trap: CODE``; that trap is ``expected`` there, another trap
    or the same one elsewhere a ``crash``; two runs ending in different traps disagree;
    a program whose memory never fitted the limit crashed too."""
    from analyzer.sandbox.wasm import WasmResult
    write(tmp_path, "cat/a.c", CASE.format(category="cat", extra=""))
    write(tmp_path, "cat/a.output", "SIGFPE\n")
    write(tmp_path, "cat/a.wasm32.output", "before\ntrap: integer-overflow\n")
    [case] = discover(tmp_path)

    def trap(code: str, out: bytes = b"before\n") -> WasmResult:
        return WasmResult(status="trap", exit=None, signal=None, stdout=out, stderr=b"",
                          truncated=False, wall=0.0, user=0.0, sys=0.0, maxrss_kb=0, trap=code)

    overflow = [trap("integer-overflow")] * 2
    assert classify(case, overflow, "wasm32-wasi").outcome == "expected"
    assert classify(case, overflow, "wasm32-wasi").exploited is False
    assert classify(case, [trap("integer-overflow", b"")] * 2, "wasm32").outcome == "crash"
    assert classify(case, [trap("unreachable")] * 2, "wasm32").outcome == "crash"
    assert classify(case, overflow).outcome == "crash"
    assert classify(case, [trap("unreachable"), trap("memory-out-of-bounds")],
                    "wasm32").outcome == "nondeterministic"
    never = WasmResult(status="signal", exit=None, signal=None, limit="memory", stdout=b"",
                       stderr=b"", truncated=False, wall=0.0, user=0.0, sys=0.0, maxrss_kb=0)
    assert classify(case, [never] * 2, "wasm32").outcome == "crash"


def test_classification_on_another_architecture(tmp_path):
    """A cell is held to the outputs of the architecture it ran on: INT_MIN / -1 traps on
    x86-64 (the plain output) and wraps on aarch64 (its own); the host's call is unchanged."""
    write(tmp_path, "cat/a.c", CASE.format(category="cat", extra=""))
    write(tmp_path, "cat/a.output", "SIGFPE\n")
    write(tmp_path, "cat/a.aarch64.output", "-2147483648\n")
    [case] = discover(tmp_path)
    trap, wrap = [_run(out=b"SIGFPE\n")] * 2, [_run(out=b"-2147483648\n")] * 2
    assert classify(case, trap).outcome == "expected"
    assert classify(case, wrap).outcome == "unexpected-output"
    assert classify(case, wrap, arch="aarch64").outcome == "expected"
    assert classify(case, wrap, "aarch64-linux-gnu").exploited is False
    assert classify(case, trap, arch="aarch64").exploited is True
    assert classify(case, trap, arch="riscv64").outcome == "expected"
    assert verdict(case, Outcome.COMPILE_ERROR, arch="aarch64").exploited is None
    only_arm = tmp_path / "other"
    write(only_arm, "cat/b.c", CASE.format(category="cat", extra=""))
    write(only_arm, "cat/b.arm.output", "x\n")
    [b] = discover(only_arm)
    assert classify(b, [_run(out=b"x\n")], arch="arm").outcome == "expected"
    assert (classify(b, [_run(out=b"x\n")]).outcome, classify(b, [_run(out=b"x\n")]).exploited) == (
        "completed", None)


def test_a_failing_job_returns_its_failure_as_data():
    """A real failure: libclang of a clang that is not installed cannot be found."""
    case = {c.id: c for c in discover(MINI)}["control/unsigned-wrap"]
    absent = Toolchain(name="clang-99", family="clang", major=99, c_driver="/nonexistent",
                       cxx_driver="/nonexistent", version="none", identity="none")
    job = ClangWarningsJob(compiler=absent, units=(ClangUnit(
        case=case, source=case.path.read_bytes(), level="-O0", flags=(), key="k"),))
    failure = execute(job)
    assert failure == JobFailure(cell=CellRef("clang-warnings", "clang-99"), stage="warnings",
                                 cause="NotInstalled",
                                 detail="libclang of clang-99 not found: install libclang1-99")
    assert cell_ref(job) == failure.cell


def test_failures_are_grouped_by_problem_not_by_text():
    a = CellRef("cell", "gcc-12", "x/a", "-O2")
    b = CellRef("cell", "gcc-12", "x/b", "-O2 -fwrapv")
    s = CellRef("sanitizer", "clang-16", "x/a", "-fsanitize=address")
    failures = [JobFailure(a, "run", "OSError", "no space left"),
                JobFailure(s, "sanitizer", "OSError", "no space left"),
                JobFailure(b, "run", "OSError", "no space left")]
    assert group_failures(failures) == {("run", "OSError", "no space left"): [a, b],
                                        ("sanitizer", "OSError", "no space left"): [s]}
    assert failure_lines(failures) == [
        "x/a gcc-12 -O2 (and 1 more jobs): run: no space left",
        "x/a clang-16 -fsanitize=address: sanitizer: no space left"]
