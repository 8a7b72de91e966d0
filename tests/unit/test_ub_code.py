"""Reading objdump's text into a cell's code, and the labels the rules give it.

The objdump texts of ``fixtures/code`` are what Debian 12's objdump 2.40 printed for
corpus signed-integer-overflow/loop built with ``-g`` (the directory rewritten to
/work): gcc-12 -O0 and -O2, clang-16 -O2. The label tests use hand-written code in the
stored form, one rule at a time.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from analyzer.ub.explain import codelabels
from analyzer.ub import disasm
from analyzer.ub.disasm import Code, Function, Insn

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "code"


def _read(name: str) -> Code:
    return disasm.parse((FIXTURES / f"{name}.sym").read_text(), (FIXTURES / f"{name}.dis").read_text())


def test_the_program_functions_are_kept_normalised_with_lines():
    code = _read("loop0-gcc-12")
    assert [f.name for f in code.functions] == ["main"]       # no _start, frame_dummy, ...
    main = code.functions[0]
    assert main.size == 70 and main.insns[0] == Insn(0, "push", "%rbp", None, "loop.c:12")
    texts = [(i.offset, i.text, i.line) for i in main.insns]
    assert (0x16, "jmp main+0x20", "loop.c:14") in texts     # a branch by symbol, not address
    assert (0x2b, "lea (%rip),%rax <_IO_stdin_used+0x4>", "loop.c:16") in texts  # no displacement
    assert (0x3a, "call printf@plt", "loop.c:16") in texts
    assert texts[-1] == (0x45, "ret", "loop.c:18")          # the padding after ret is dropped


def test_an_empty_function_says_what_follows_it():
    main = _read("loop-clang-16").functions[0]
    assert (main.name, main.size, main.insns, main.next) == ("main", 0, [], "_fini")


def test_the_stored_form_round_trips_and_is_the_same_for_the_same_code():
    code = _read("loop-gcc-12")
    text = disasm.dumps(code)
    assert text == "F\tmain\t2\t0\t\nI\t0\tloop.c:14\tjmp\tmain\tmain\n"
    assert disasm.loads(text) == code
    moved = (FIXTURES / "loop-gcc-12.dis").read_text().replace("/work/", "/elsewhere/x/")
    assert disasm.dumps(disasm.parse((FIXTURES / "loop-gcc-12.sym").read_text(), moved)) == text


def test_a_big_function_is_cut_and_says_so(monkeypatch):
    monkeypatch.setattr(disasm, "MAX_INSNS", 5)
    main = _read("loop0-gcc-12").functions[0]
    assert len(main.insns) == 5 and main.cut == 14


@pytest.mark.parametrize("sym, dis", [("", ""), ("garbage\n\x00\x1b[2J", "more garbage <x>:\n")])
def test_text_that_is_not_a_disassembly_is_unavailable_or_empty(sym, dis):
    try:
        code = disasm.parse(sym, dis)
    except disasm.Unavailable as exc:
        assert "stripped or empty" in str(exc)
    else:
        assert code.functions == []


def test_stored_text_that_is_damaged_is_refused():
    with pytest.raises(ValueError):
        disasm.loads("X\tnot\tcode\n")


# ------------------------------------------------------------------ labels

def _code(text: str) -> Code:
    """Hand-written code: 'F name' lines, then 'offset line mnemonic operands' lines
    (target: the operands of a branch or call)."""
    functions: list[Function] = []
    for raw in text.strip().splitlines():
        parts = raw.split()
        if parts[0] == "F":
            functions.append(Function(name=parts[1], size=int(parts[2]), next=parts[3] if len(parts) > 3 else ""))
            continue
        off, line, mnemonic, *ops = parts
        operands = " ".join(ops)
        target = operands if mnemonic.startswith(("j", "call")) and not operands.startswith("*") else None
        functions[-1].insns.append(Insn(int(off, 16), mnemonic, operands, target, "" if line == "-" else line))
    return Code(functions)


O0 = _code("""
F main 70
0 t.c:12 push %rbp
16 t.c:14 jmp main+0x20
18 t.c:15 addl $0x1,-0x4(%rbp)
1c t.c:14 addl $0x1,-0x8(%rbp)
20 t.c:14 cmpl $0x0,-0x8(%rbp)
24 t.c:14 jg main+0x18
26 t.c:16 mov -0x4(%rbp),%eax
29 t.c:16 mov %eax,%esi
3a t.c:16 call printf@plt
45 t.c:18 ret
""")


def _kinds(code: Code, ref: Code | None = None) -> list[tuple[str, str, str]]:
    return [(l.kind, l.function, l.line) for l in codelabels.labels(code, ref)]


def test_a_loop_without_exit_and_its_removed_test():
    o2 = _code("F main 2\n0 t.c:14 jmp main")
    assert _kinds(o2) == [("loop-without-exit", "main", "t.c:14")]
    labels = codelabels.labels(o2, O0)
    assert [l.text for l in labels] == [
        "loop in main at t.c:14 kept, its exit test removed (at -O0: cmpl $0x0,-0x8(%rbp); jg)",
        "printf is never called (at t.c:16 at -O0)"]


def test_a_loop_with_an_exit_is_no_label():
    code = _code("""
F f 20
0 t.c:3 add $0x1,%eax
3 t.c:3 cmp $0x9,%eax
6 t.c:3 jle f
8 t.c:4 ret
""")
    assert _kinds(code) == []
    assert codelabels.endless_loops(code.functions[0]) == []


def test_a_loop_that_leaves_through_a_tail_call_or_ret_is_no_endless_loop():
    code = _code("""
F f 20
0 t.c:3 test %edi,%edi
2 t.c:3 je f+0x9
4 t.c:4 jmp exit@plt
9 t.c:5 jmp f
""")
    assert _kinds(code) == []


def test_an_empty_function_and_a_trap_the_optimiser_put_in():
    code = _code("""
F main 0 _fini
F f 9
0 t.c:27 mov 0x0,%eax
7 t.c:27 ud2
""")
    o0 = _code("F f 20\n0 t.c:27 mov -0x8(%rbp),%rax\n4 t.c:27 mov (%rax),%eax\n6 t.c:28 ret")
    assert [l.text for l in codelabels.labels(code, o0)] == [
        "main is empty: execution runs into _fini", "trap (ud2) in f at t.c:27"]
    # without the -O0 build there is nothing to tell the source's trap from the compiler's
    assert [l.kind for l in codelabels.labels(code)] == ["empty-function"]


def test_a_trap_the_O0_build_has_too_is_not_the_optimisers():
    """__builtin_trap() in the source, or the front end's trap at the end of a C++
    function that returns nothing: a ud2 on that line at -O0 already."""
    o0 = _code("""
F name(int) 30
0 t.cpp:12 cmpl $0x2,-0x4(%rbp)
4 t.cpp:12 je name(int)+0x10
6 t.cpp:16 ud2
F main.part.0 4
0 - ud2
""")
    o2 = _code("""
F name(int) 8
0 t.cpp:13 lea (%rip),%rax <s>
7 t.cpp:16 ud2
F main.cold 2
0 - ud2
F g 2
0 - ud2
""")
    assert [(l.kind, l.function, l.line) for l in codelabels.labels(o2, o0) if l.kind == "trap"] == [
        ("trap", "g", "")]
    assert [l.kind for l in codelabels.labels(o0)] == []        # -O0 itself: never a trap label
    # GCC 13+ at -Og: the same trap (-funreachable-traps), moved to the closing brace's line
    og = _code("F name(int) 8\n0 t.cpp:13 lea (%rip),%rax <s>\n7 t.cpp:17 ud2")
    assert "trap" not in [l.kind for l in codelabels.labels(og, o0)]


def test_a_removed_null_check_and_a_constant_output():
    o0 = _code("""
F poll 36
8 t.c:27 mov (%rax),%eax
11 t.c:28 cmpq $0x0,-0x18(%rbp)
16 t.c:28 jne poll+0x1f
18 t.c:29 mov $0xffffffff,%eax
1f t.c:30 ret
F main 90
46 t.c:39 call poll
4b t.c:39 mov %eax,%esi
5c t.c:39 call printf@plt
""")
    o2 = _code("""
F main 52
1d t.c:39 mov $0x7,%esi
22 t.c:39 lea (%rip),%rdi
2b t.c:39 call printf@plt
""")
    assert [l.text for l in codelabels.labels(o2, o0)] == [
        "the check at t.c:28 is gone (at -O0: cmpq $0x0,-0x18(%rbp); jne)",
        "the value printed at t.c:39 became the constant 7"]


def test_a_folded_test_of_a_value_from_outside_is_a_removed_check():
    """Open at -O0: an argument (argc > 1), a call's result, an uninitialised variable."""
    o0 = _code("""
F main 90
0 t.c:10 mov %edi,-0x14(%rbp)
3 t.c:13 cmpl $0x1,-0x14(%rbp)
7 t.c:13 jle main+0x10
9 t.c:14 movl $0x1,-0x4(%rbp)
10 t.c:15 cmpl $0x0,-0x4(%rbp)
14 t.c:15 jne main+0x20
16 t.c:16 call f
1b t.c:16 test %eax,%eax
1d t.c:16 je main+0x20
20 t.c:17 ret
""")
    o2 = _code("F main 10\n0 t.c:17 xor %eax,%eax\n2 t.c:17 ret")
    assert [(l.kind, l.line) for l in codelabels.labels(o2, o0)] == [
        ("check-removed", "t.c:13"), ("check-removed", "t.c:15"), ("check-removed", "t.c:16")]
    assert codelabels.labels(o2, o0)[1].text == "the check at t.c:15 is gone (at -O0: cmpl $0x0,-0x4(%rbp); jne)"


def test_a_test_of_constants_alone_is_no_removed_check():
    """A counted loop's bound (i = 0; i < 10; i++, and clang's load-add-store form), a
    variable only ever assigned a constant, a null test of an address: the compiler
    computes them from the source, at any level."""
    o0 = _code("""
F main 90
0 t.c:10 movl $0x0,-0x8(%rbp)
7 t.c:10 jmp main+0x18
9 t.c:11 addl $0x1,-0x4(%rbp)
d t.c:10 mov -0x8(%rbp),%eax
10 t.c:10 add $0x1,%eax
13 t.c:10 mov %eax,-0x8(%rbp)
18 t.c:10 cmpl $0x9,-0x8(%rbp)
1c t.c:10 jle main+0x9
1e t.c:12 movl $0x3,-0xc(%rbp)
25 t.c:13 cmpl $0x3,-0xc(%rbp)
29 t.c:13 jne main+0x40
2b t.c:14 lea -0x20(%rbp),%rax
2f t.c:14 mov %rax,-0x18(%rbp)
33 t.c:15 mov -0x18(%rbp),%rax
37 t.c:15 test %rax,%rax
3a t.c:15 je main+0x40
40 t.c:17 ret
""")
    o2 = _code("F main 10\n0 t.c:17 xor %eax,%eax\n2 t.c:17 ret")
    assert _kinds(o2, o0) == []
    assert codelabels.open_tests(o0.functions[0]) == set()


def test_a_pointer_stepping_through_a_local_array_is_known():
    """clang -O0's loop over the elements of a local array (destroying them, say): the
    pointer starts at an address of the frame and steps by constants, so its test against
    the array's start is decided; the same loop over an argument's array is open."""
    body = """
0 t.cpp:15 lea -0xd8(%rbp),%rax
7 t.cpp:15 mov %rax,-0x268(%rbp)
e t.cpp:15 add $0xa0,%rax
14 t.cpp:15 mov %rax,-0x260(%rbp)
1b t.cpp:15 mov -0x260(%rbp),%rdi
22 t.cpp:15 add $0xffffffffffffffe0,%rdi
26 t.cpp:15 mov %rdi,-0x270(%rbp)
2d t.cpp:15 call g@plt
32 t.cpp:15 mov -0x268(%rbp),%rcx
39 t.cpp:15 mov -0x270(%rbp),%rax
40 t.cpp:15 cmp %rcx,%rax
43 t.cpp:15 mov %rax,-0x260(%rbp)
4a t.cpp:15 jne main+0x1b
50 t.cpp:16 ret
"""
    local = _code("F main 80" + body)
    assert codelabels.open_tests(local.functions[0]) == set()
    argument = _code("F main 80" + body.replace("lea -0xd8(%rbp),%rax", "mov %rdi,%rax"))
    assert codelabels.open_tests(argument.functions[0]) == {0x40}


def test_a_delete_expressions_null_test_is_not_the_sources():
    o0 = _code("""
F main 40
0 t.cpp:20 call operator new(unsigned long)@plt
5 t.cpp:20 mov %rax,%rbx
8 t.cpp:20 mov %rbx,-0x18(%rbp)
c t.cpp:22 mov -0x18(%rbp),%rax
10 t.cpp:22 test %rax,%rax
13 t.cpp:22 je main+0x1d
15 t.cpp:22 mov %rax,%rdi
18 t.cpp:22 call operator delete(void*, unsigned long)@plt
1d t.cpp:23 ret
F f(Job*) 20
0 t.cpp:30 mov %rdi,-0x8(%rbp)
4 t.cpp:31 cmpq $0x0,-0x8(%rbp)
9 t.cpp:31 je f(Job*)+0x14
b t.cpp:31 mov -0x8(%rbp),%rdi
f t.cpp:31 call operator delete(void*, unsigned long)@plt
14 t.cpp:32 ret
""")
    o2 = _code("F main 5\n0 t.cpp:23 xor %eax,%eax\n2 t.cpp:23 ret\nF f(Job*) 5\n0 t.cpp:31 jmp operator delete(void*, unsigned long)@plt")
    assert _kinds(o2, o0) == []


def test_the_tests_of_a_cxx_library_function_are_the_librarys():
    assert codelabels.library_function("int const& std::max<int>(int const&, int const&)")
    assert codelabels.library_function("bool __gnu_cxx::operator!=<char*>(__gnu_cxx::__normal_iterator<char*> const&)")
    assert codelabels.library_function("std::__cxx11::basic_string<char> std::operator+<char>(char const*)")
    assert not codelabels.library_function("main")
    assert not codelabels.library_function("Job::finish()")
    assert not codelabels.library_function("void sort_all(std::vector<int>&)")
    o0 = _code("""
F int_const&_std::max<int>(int_const&,_int_const&) 40
0 t.cpp:259 mov %rdi,-0x8(%rbp)
4 t.cpp:259 cmpq $0x0,-0x8(%rbp)
9 t.cpp:259 jge main+0x22
b t.cpp:260 ret
""")
    o0.functions[0] = Function("int const& std::max<int>(int const&, int const&)", 40, o0.functions[0].insns)
    assert _kinds(_code("F main 1\n0 t.cpp:10 ret"), o0) == []


def test_a_check_kept_as_a_conditional_move_is_not_removed():
    o2 = _code("""
F poll 10
0 t.c:28 test %rdi,%rdi
3 t.c:28 cmove %edx,%eax
6 t.c:30 ret
""")
    o0 = _code("""
F poll 36
11 t.c:28 cmpq $0x0,-0x18(%rbp)
16 t.c:28 jne poll+0x1f
1f t.c:30 ret
""")
    assert _kinds(o2, o0) == []


def test_calls_the_compiler_rewrites_or_expands_are_not_removed():
    o0 = _code("""
F main 20
0 t.c:5 call printf@plt
5 t.c:6 call memcpy@plt
a t.c:7 call __printf_chk@plt
""")
    o2 = _code("F main 10\n0 t.c:5 call puts@plt\n5 t.c:7 jmp putchar@plt")
    assert _kinds(o2, o0) == []
    assert _kinds(_code("F main 1\n0 - ret"), o0) == [("call-removed", "main", "t.c:5")]


def test_aligned_code_pairs_equal_runs_and_marks_the_rest():
    from analyzer.ub.explain.explain import align
    o0, o2 = O0.functions[0], _code("F main 2\n0 t.c:14 jmp main").functions[0]
    rows = align(o0, o2)
    paired = [r for r in rows if r.left is not None and r.right is not None]
    assert [(r.left, r.right, r.same) for r in paired] == [("jmp main+0x20", "jmp main", False)]
    assert all(not r.same for r in rows) and len(rows) == len(o0.insns)
    assert [r.same for r in align(o0, o0)] == [True] * len(o0.insns)
    assert [(r.left, r.right) for r in align(None, o2)] == [(None, "jmp main")]


def test_inlined_library_code_is_not_the_programs():
    o0 = _code("""
F main 30
0 s.cpp:9 call _ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE9_M_createERmm@plt
5 basic_string.h:234 cmp $0xf,%rax
9 basic_string.h:234 ja main+0x10
10 s.cpp:10 ret
""")
    o0.functions[0].insns[0] = Insn(0, "call", "std::__cxx11::basic_string<char>::_M_create(unsigned long&, unsigned long)@plt",
                                    "std::__cxx11::basic_string<char>::_M_create(unsigned long&, unsigned long)@plt", "s.cpp:9")
    assert _kinds(_code("F main 1\n0 s.cpp:10 ret"), o0) == []


@pytest.mark.parametrize("files, why", [
    ({"a.status": b"127\n", "a.err": b"sh: 3: exec: objdump: not found\n"}, "sh: 3: exec: objdump: not found"),
    ({"a.status": b"152\n"}, "objdump ended with status 152 (its time or size limit)"),
    ({}, "objdump did not finish"),
    ({"a.status": b"0\n", "a.dis": b"a.out:     file format elf64-x86-64\n"}, "stripped or empty"),
    ({"a.status": b"0\n"}, "objdump wrote no output"),
])
def test_what_objdump_left_in_the_workspace_is_code_or_a_reason(tmp_path, files, why):
    """What the compile's sandbox run wrote (a disassembler missing from a root, a limit
    hit, an empty binary) is a reason the cell shows, never an exception."""
    from analyzer.sandbox.runner import Workspace
    from analyzer.ub.compile import _read_code
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    code, note = _read_code(Workspace(tmp_path, None))
    assert code is None and why in note


# ------------------------------------------------------------------ the site: the program's own code

def _stored(name: str) -> Code:
    """A cell's code in the stored form (disasm.dumps), as the demo's run stored it:
    corpus control/strings (28 lines) by gcc-12 -O0 (156 functions) and clang-16 -O2,
    data-race/stop-flag (34 lines) by clang-16 -O0, object-lifetime/destructor-stores
    (25 lines) by gcc-12 -O0; the larger ones gzipped."""
    import gzip
    path = FIXTURES / name
    raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    return disasm.loads(raw.decode())


def _own(code: Code, case: str, length: int | None) -> list[str]:
    from analyzer.site.ub import case_files, fold_reasons
    reasons = fold_reasons(code.functions, case_files(case), length)
    return [f.name for f, why in zip(code.functions, reasons) if not why]


def test_a_cxx_programs_own_code_is_main_and_the_library_is_folded():
    from analyzer.site.ub import case_files, fold_reasons
    o0 = _stored("strings-gcc-12-O0.code.gz")
    assert len(o0.functions) == 156
    assert _own(o0, "control/strings", 28) == ["main"]
    reasons = dict(zip((f.name for f in o0.functions),
                       fold_reasons(o0.functions, case_files("control/strings"), 28)))
    sort = next(n for n in reasons if n.startswith("void std::sort<"))
    assert reasons[sort] == "library code from stl_algo.h"
    assert reasons["operator new(unsigned long, void*)"] == "library code from new"
    # -O2: main holds inlined basic_string code and is still the program's; its cold
    # part (lines of basic_string.h and strings.cpp) goes with it
    o2 = _stored("strings-clang-16-O2.code.gz")
    assert _own(o2, "control/strings", 28) == ["main"]
    main = o2.function("main")
    assert any(i.line.startswith("basic_string.h:") for i in main.insns)


def test_lambdas_are_the_programs_and_the_thread_machinery_the_librarys():
    code = _stored("stop-flag-clang-16-O0.code.gz")
    assert _own(code, "data-race/stop-flag", 34) == ["main", "main::$_0::operator()() const"]
    folded = [f.name for f in code.functions if f.name not in _own(code, "data-race/stop-flag", 34)]
    assert "__clang_call_terminate" in folded
    assert any(n.startswith("std::thread::thread<main::$_0") for n in folded)


def test_a_header_line_named_by_the_main_file_is_no_line_of_the_program():
    """objdump names the lines of <new>'s placement operator new destructor-stores.cpp:175
    (a DWARF 5 line table): past the file's 25 lines, so not the program's; without the
    file's length the line is taken at its word."""
    code = _stored("destructor-stores-gcc-12-O0.code")
    new = code.function("operator new(unsigned long, void*)")
    assert {i.line for i in new.insns} == {"destructor-stores.cpp:175"}
    assert _own(code, "object-lifetime/destructor-stores", 25) == ["main", "Secret::~Secret()",
                                                                  "Secret::~Secret()"]
    assert "operator new(unsigned long, void*)" in _own(code, "object-lifetime/destructor-stores", None)


def test_the_folding_decision_by_name_line_and_clone():
    from analyzer.site.ub import case_files, fold_reasons, library_name, qualified_name
    assert qualified_name("std::vector<int, std::allocator<int> >::~vector()") == "std::vector::~vector"
    assert qualified_name("void std::sort<int*>(int*, int*)") == "std::sort"
    assert qualified_name("main::{lambda()#1}::operator()() const") == "main::::operator()"
    assert qualified_name("grows(int) [clone .isra.0]") == "grows"
    assert qualified_name("operator delete(void*, unsigned long)") == "operator delete"
    assert qualified_name("std::operator<<(std::ostream&, char const*)") == "std::operator"
    assert library_name("bool __gnu_cxx::operator!=<char*>(__gnu_cxx::__normal_iterator<char*> const&)")
    assert library_name("_GLOBAL__sub_I_strings.cpp") and library_name("__gthread_active_p()")
    assert not library_name("main") and not library_name("Job::finish()")
    assert not library_name("void show<std::string>(std::vector<std::string>&)")   # the program's template
    assert case_files("control/strings") >= {"strings.cpp", "strings.c"}
    assert case_files("x/divide.c") == {"divide.c"}
    code = _code("""
F main 10
0 t.c:5 call f
F main.cold 4
0 x.h:3 ud2
F helper 4
0 other.h:7 ret
F empty 0 main
F __libc_start_helper 2
0 - ret
F std::foo() 4
0 t.c:9 ret
""")
    assert fold_reasons(code.functions, case_files("cat/t"), 20) == [
        "", "", "library code from other.h", "", "runtime code", "library code"]


def test_a_case_page_shows_own_code_folds_the_rest_and_keeps_to_its_budget():
    from analyzer.site.ub import Budget, case_files, cell_view, fold_reasons, listing_text
    code = _stored("strings-gcc-12-O0.code.gz")
    reasons = fold_reasons(code.functions, case_files("control/strings"), 28)
    view = cell_view(code.functions, reasons, Budget(500_000))
    kinds = [k for k, _ in view.segments]
    assert kinds[0] == "code" and "code" not in kinds[1:] and view.folds
    (html,) = [seg for k, seg in view.segments if k == "code"]
    assert '<span class="nl">main:</span>' in html and "std::sort" not in html.split("main:")[0]
    named = [f for k, run in view.segments if k == "folded" for f in run.named]
    assert len(named) == 155 and all(f.why and f.insns >= 0 for f in named)
    assert sum(len(f.insns) + f.cut for f in code.functions) == view.insns
    # the listing holds every function in full, the folded ones said so
    text = listing_text("control/strings, gcc-12 -O0", code.functions, reasons)
    assert text.count("    # folded on the page: ") == 155
    assert sum(1 for line in text.splitlines() if line.startswith("    ") and not line.startswith("    #")) == \
        sum(len(f.insns) for f in code.functions)
    # a small budget: main does not fit, so it is folded too, and past the budget
    # folded functions are counted in one line
    small = cell_view(code.functions, reasons, Budget(3_000))
    assert [k for k, _ in small.segments] == ["folded"]
    run = small.segments[0][1]
    assert run.named[0].name == "main" and run.named[0].why.startswith("not shown here")
    assert run.more == 156 - len(run.named) and run.more > 100


def test_highlighted_code_escapes_names_and_keeps_each_symbol_one_token():
    from analyzer.site.ub import _highlighted, asm_lines
    f = Function("f<script>alert(1)</script>()", 9, [
        Insn(0, "call", "std::vector<int>::push_back(int&&)@plt", "std::vector<int>::push_back(int&&)@plt", "t.cpp:3"),
        Insn(5, "lea", "(%rip),%rax <wsym0x>", None, "t.cpp:4"),      # a name like the placeholder
        Insn(9, "ret", "", None, "")])
    html = _highlighted(f)
    assert "<script>" not in html
    assert '<span class="nl">f&lt;script&gt;alert(1)&lt;/script&gt;():</span>' in html
    assert '<span class="no">std::vector&lt;int&gt;::push_back(int&amp;&amp;)@plt</span>' in html
    assert '<span class="no">wsym0x</span>' in html and 'class="w"' not in html
    assert asm_lines(f)[2] == "    lea      (%rip),%rax <wsym0x>    # t.cpp:4"


def test_every_mnemonic_is_highlighted_as_one_whatever_came_before():
    """Lexed over a whole function, GasLexer took a mnemonic after some lines (a ``ret``
    with no operands, an aarch64 ``#16``) for a constant; line by line it is a mnemonic
    everywhere (the real lines of the demo's corpus where the two differed)."""
    from analyzer.site.ub import _highlighted
    f = Function("g", 5, [
        Insn(0, "ldr", "q1, [x2], #16", None, "plain-char-index.c:28"),
        Insn(4, "lea", "0x0(,%rax,4),%rdx", None, ""),
        Insn(8, "ret", "", None, ""),
        Insn(9, "movb", "$0x78,(%rdx,%rax,1)", None, "t.c:2"),
        Insn(13, "sub", "$0xffffffffffffff80,%rax", None, "")])
    html = _highlighted(f)
    for mnemonic in ("ldr", "lea", "ret", "movb", "sub"):
        assert f'<span class="nf">{mnemonic}</span>' in html, mnemonic
