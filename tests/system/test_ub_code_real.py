"""The generated code of real cells, and the labels the rules give it, against the binary.

Each label is checked against the binary's own disassembly (objdump run here, on the
cached binary of our own corpus): the overflowing loop is ``jmp main`` at gcc-12 -O2
and an empty ``main`` (a symbol of size 0) at clang-16 -O2; gcc-12 -O2 isolates the null
dereference of null-dereference/check-after-use into a ``ud2`` and folds the null check
of its line 28 away; clang-16's own trap at the end of a C++ function that returns
nothing is there at -O0 already and is no label (GCC 13+'s at -O0 and -Og, in a root,
alike), and a loop the compiler computes
(control/unsigned-loop: no UB) loses its test without a removed-check label. Bad binaries (no function symbol, a function of a megabyte) keep
their outcome and say why their code is missing or cut.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from analyzer.sandbox import runner as sandbox
from analyzer.runtime.toolchain import resolve
from analyzer.ub import report as ub_report
from analyzer.ub import run as ub_run
from analyzer.runtime.toolchain import resolve_list
from analyzer.ub.compile import compile_program
from analyzer.ub.corpus import load
from warnscope import tool
from warnscope.database import connect

REPO = Path(__file__).resolve().parents[2]
CASES = ["signed-integer-overflow/loop", "null-dereference/check-after-use",
         "missing-return/switch-fallthrough", "control/unsigned-loop"]
LIMITS = sandbox.Limits(timeout=1.0, cpu=2)

pytestmark = pytest.mark.skipif(any(shutil.which(c) is None for c in ("gcc-12", "clang-16", "objdump")),
                                reason="needs gcc-12, clang-16 and objdump")

NO_SYMBOL = b"""/* a main of bare assembly: no function symbol, nothing to disassemble as the program's */
__asm__(".text\\n.globl main\\nmain:\\n xor %eax,%eax\\n ret\\n");
"""
ESCAPE = (b'__asm__(".text\\n.globl \\"ev\\x1b[2Jil\\"\\n.type \\"ev\\x1b[2Jil\\",@function\\n'
          b'\\"ev\\x1b[2Jil\\":\\n ret\\n.size \\"ev\\x1b[2Jil\\", .-\\"ev\\x1b[2Jil\\"\\n");\n'
          b"int main(void) { return 0; }\n")
HUGE = b"""/* a function of a megabyte of nops */
__asm__(".text\\n.globl main\\n.type main,@function\\nmain:\\n.fill 1048576,1,0x90\\n"
        "xor %eax,%eax\\nret\\n.size main, .-main\\n");
"""


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("ubcode")
    corpus = tmp / "corpus"
    for case in CASES:
        (corpus / case).parent.mkdir(parents=True, exist_ok=True)
        for f in (REPO / "corpus").glob(case + ".*"):
            if ".fixed." in f.name:     # the case alone, not its fixed twin
                continue
            shutil.copy(f, (corpus / case).parent)
    (corpus / "bad").mkdir()
    (corpus / "bad" / "no-symbol.c").write_bytes(NO_SYMBOL)
    (corpus / "bad" / "huge.c").write_bytes(HUGE)
    (corpus / "bad" / "escape.c").write_bytes(ESCAPE)
    db = tmp / "ub.db"
    conn = connect(db)
    summary = ub_run.run(conn, corpus, resolve_list(["gcc-12", "clang-16"]), ["O0", "O2"], limits=LIMITS,
                         warnings=False, sanitizers=False)
    assert summary.failures == []
    report = ub_report.build(ub_report.load(conn))
    cells = {(c.case, c.compiler, c.level): c for case in report.cases for c in case.cells}
    return db, corpus, cells


def _binary(corpus: Path, case: str, compiler: str, level: str) -> str:
    """The cell's binary, from the compile cache (the same key: nothing is compiled)."""
    c = {x.id: x for x in load(corpus).cases}[case]
    build = compile_program(resolve(compiler), c.language, c.std, c.path.name, c.source, [level],
                            list(c.link), True, True)
    assert build.ok and build.cached
    return build.binary


def _objdump(*args: str) -> str:
    return tool.run(["objdump", *args], timeout=60).stdout


def _kinds(cell) -> list[tuple[str, str, str]]:
    return [(l.kind, l.function, l.line) for l in cell.labels]


def test_gcc_12_O2_keeps_the_loop_without_its_exit(stored):
    _, corpus, cells = stored
    cell = cells["signed-integer-overflow/loop", "gcc-12", "-O2"]
    assert cell.outcome == "hang"
    assert ("loop-without-exit", "main", "loop.c:16") in _kinds(cell)
    assert "its exit test removed" in cell.labels[0].text
    dis = _objdump("-d", "--no-show-raw-insn", _binary(corpus, "signed-integer-overflow/loop", "gcc-12", "-O2"))
    main = re.search(r"^([0-9a-f]+) <main>:\n((?:.+\n)+)", dis, re.M)
    first = main.group(2).splitlines()[0]
    assert re.fullmatch(rf"\s*{main.group(1).lstrip('0')}:\s+jmp\s+{main.group(1).lstrip('0')} <main>", first)


def test_clang_16_O2_empties_main(stored):
    _, corpus, cells = stored
    cell = cells["signed-integer-overflow/loop", "clang-16", "-O2"]
    assert cell.outcome == "nonzero-exit"
    assert _kinds(cell)[0] == ("empty-function", "main", "")
    assert cell.labels[0].text == "main is empty: execution runs into _fini"
    assert ("call-removed", "main", "loop.c:18") in _kinds(cell)
    symbols = _objdump("-t", _binary(corpus, "signed-integer-overflow/loop", "clang-16", "-O2"))
    assert re.search(r"^[0-9a-f]+ g +F \.text\t0+ +main$", symbols, re.M)
    assert _kinds(cells["signed-integer-overflow/loop", "clang-16", "-O0"]) == []


def test_gcc_12_O2_traps_the_null_path_and_folds_the_null_check(stored):
    _, corpus, cells = stored
    cell = cells["null-dereference/check-after-use", "gcc-12", "-O2"]
    kinds = _kinds(cell)
    assert ("trap", "main.cold", "check-after-use.c:29") in kinds
    assert ("check-removed", "poll_device", "check-after-use.c:30") in kinds
    binary = _binary(corpus, "null-dereference/check-after-use", "gcc-12", "-O2")
    dis = _objdump("-d", "-l", "--no-show-raw-insn", binary)
    cold = re.search(r"<main\.cold>:\n((?:.+\n)+)", dis).group(1)
    assert "check-after-use.c:29" in cold and re.search(r"\tud2", cold)
    assert not re.search(r"check-after-use\.c:30\b", dis)     # line 30 has no code at all
    ref = _objdump("-d", "-l", "--no-show-raw-insn",
                   _binary(corpus, "null-dereference/check-after-use", "gcc-12", "-O0"))
    assert re.search(r"check-after-use\.c:30\n\s+[0-9a-f]+:\tcmpq\s+\$0x0", ref)


def test_a_trap_the_O0_build_has_is_not_the_optimisers(stored):
    _, corpus, cells = stored
    case = "missing-return/switch-fallthrough"
    assert cells[case, "clang-16", "-O0"].outcome == "crash"
    assert "trap" not in [k for k, _, _ in _kinds(cells[case, "clang-16", "-O0"])]
    dis = _objdump("-d", "-C", "--no-show-raw-insn", _binary(corpus, case, "clang-16", "-O0"))
    body = re.search(r"<name\(int\)>:\n((?:.+\n)+)", dis).group(1)
    assert re.search(r"\tud2", body)                   # the front end's trap, at -O0


def test_a_loop_the_compiler_computes_is_no_removed_check(stored):
    """control/unsigned-loop counts from UINT_MAX - 2 while i > 0 (no UB: it wraps): at
    -O2 the loop's test of line 13 is gone, folded from constants, not a check removed."""
    _, corpus, cells = stored
    case = "control/unsigned-loop"
    for compiler in ("gcc-12", "clang-16"):
        cell = cells[case, compiler, "-O2"]
        assert cell.outcome == "expected"
        assert "check-removed" not in [k for k, _, _ in _kinds(cell)]
        o0 = _objdump("-d", "-l", "--no-show-raw-insn", _binary(corpus, case, compiler, "-O0"))
        line13 = r"unsigned-loop\.c:13(?: \(discriminator \d+\))?\n"
        assert re.search(line13 + r"(?:\s+[0-9a-f]+:\t.*\n)*?\s+[0-9a-f]+:\tcmpl", o0)
        o2 = _objdump("-d", "-l", "--no-show-raw-insn", _binary(corpus, case, compiler, "-O2"))
        main = re.search(r"<main>:\n((?:.+\n)+)", o2).group(1)
        assert not re.search(line13, main)              # no code of line 13 at all


def test_bad_binaries_keep_their_outcome_and_say_why_there_is_no_code(stored):
    _, _, cells = stored
    for compiler in ("gcc-12", "clang-16"):
        bare = cells["bad/no-symbol", compiler, "-O2"]
        assert bare.outcome == "completed" and bare.labels is None
        assert "no functions of the program" in bare.code_note
        huge = cells["bad/huge", compiler, "-O2"]
        assert huge.outcome == "completed" and huge.labels == [] and huge.code_note == ""


def test_a_function_name_with_a_terminal_escape_is_shown_as_text(stored, warnscope):
    db = stored[0]
    proc = warnscope("--db", str(db), "ub", "explain", "bad/escape", "--level", "O2")
    assert proc.returncode == 0, proc.stderr
    assert b"\x1b" not in proc.stdout
    assert b"ev\\x1b[2Jil:" in proc.stdout


def test_a_function_of_a_megabyte_is_cut_and_says_so(stored, cli_at):
    code, out, _ = cli_at(stored[0])("ub", "explain", "bad/huge", "--level", "O2", "--json")
    for config in json.loads(out)["configurations"]:
        (main,) = config["functions"]
        assert (main["name"], len(main["insns"]), main["cut"]) == ("main", 2000, 1048578 - 2000)
    code, out, _ = cli_at(stored[0])("ub", "explain", "bad/huge", "--level", "O2", "--compiler", "gcc-12")
    assert "... cut: 1046578 more instructions" in out


def test_ub_explain_shows_labels_code_and_the_aligned_pair(stored, cli_at):
    db, _, _ = stored
    cli = cli_at(db)
    code, out, _ = cli("ub", "explain", "signed-integer-overflow/loop", "--compiler", "gcc-12",
                       "--level", "O2", "--vs", "clang-16:O2")
    assert code == 0
    assert "gcc-12 -O2: hang — loop in main at loop.c:16 kept, its exit test removed" in out
    assert "  main  [right: empty: runs into _fini]" in out
    assert re.search(r"< loop\.c:16 +jmp main +\|", out)
    code, out, _ = cli("ub", "explain", "signed-integer-overflow/loop", "--json")
    doc = json.loads(out)
    heads = {(c["compiler"], c["level"]): c for c in doc["configurations"]}
    assert heads["clang-16", "-O2"]["said"] == "exit 48" or heads["clang-16", "-O2"]["outcome"] == "nonzero-exit"
    assert heads["clang-16", "-O2"]["functions"] == [{"name": "main", "size": 0, "insns": [], "cut": 0,
                                                      "next": "_fini"}]
    code, out, err = cli("ub", "explain", "bad/no-symbol", "--level", "O2")
    assert code == 0 and "code unavailable: no functions of the program" in out
    code, _, err = cli("ub", "explain", "signed-integer-overflow/loop", "--vs", "clang-16")
    assert code == 1 and "expected COMPILER:LEVEL" in err


ROOT_LOOP = {"gcc-14": ("loop-without-exit", "main", "loop.c:16"),
             "clang-18": ("empty-function", "main", ""),
             "gcc-10": ("loop-without-exit", "main", "loop.c:16"),
             "clang-11": ("loop-without-exit", "main", "loop.c:16")}


@pytest.mark.parametrize("compiler", sorted(ROOT_LOOP))
def test_a_root_compilers_code_comes_from_the_roots_objdump(compiler, root_toolchain, tmp_path):
    """A compiler of a Debian root (the suite prepares it: ``root_toolchain``): its
    binary is disassembled by the root's own objdump, in the same sandbox run."""
    tc = root_toolchain(compiler)
    if tc.root is None:
        pytest.skip(f"{compiler} is a host compiler here")
    src = (REPO / "corpus" / "signed-integer-overflow" / "loop.c").read_bytes()
    from analyzer.ub.explain import codelabels
    from analyzer.ub import disasm
    builds = {level: compile_program(tc, "c", "gnu17", "loop.c", src, [level], [], True, True)
              for level in ("-O0", "-O2")}
    assert all(b.ok and b.code for b in builds.values()), {l: b.code_note for l, b in builds.items()}
    o0, o2 = (disasm.loads(builds[l].code) for l in ("-O0", "-O2"))
    assert [l.kind for l in codelabels.labels(o0)] == []
    kinds = [(l.kind, l.function, l.line) for l in codelabels.labels(o2, o0)]
    assert ROOT_LOOP[compiler] in kinds
    assert any(i.line == "loop.c:16" for i in o0.function("main").insns)   # the root's line tables


@pytest.mark.parametrize("compiler", ["gcc-13", "gcc-16"])
def test_gccs_trap_for_a_missing_return_at_O0_and_Og_is_no_label(compiler, root_toolchain):
    """GCC 13 on trap a C++ function's missing return at -O0 and -Og alike
    (-funreachable-traps), the ud2 on the last statement's line at -O0 and on the closing
    brace's at -Og: the front end's trap, not the optimiser's."""
    tc = root_toolchain(compiler)
    from analyzer.ub.explain import codelabels
    from analyzer.ub import disasm
    src = (REPO / "corpus" / "missing-return" / "value-unused.cpp").read_bytes()
    builds = {level: compile_program(tc, "c++", "c++17", "value-unused.cpp", src, [level], [], False, True)
              for level in ("-O0", "-Og")}
    assert all(b.ok and b.code for b in builds.values()), {l: b.code_note for l, b in builds.items()}
    o0, og = (disasm.loads(builds[l].code) for l in ("-O0", "-Og"))
    for level, code in (("-O0", o0), ("-Og", og)):
        assert any(i.mnemonic == "ud2" for i in code.function("log_value(int)").insns), level
        dis = _objdump("-d", "-C", "--no-show-raw-insn", builds[level].binary)
        body = re.search(r"<log_value\(int\)>:\n((?:.+\n)+)", dis).group(1)
        assert re.search(r"\tud2", body), level
    assert "trap" not in [l.kind for l in codelabels.labels(o0)]
    assert "trap" not in [l.kind for l in codelabels.labels(og, o0)]
