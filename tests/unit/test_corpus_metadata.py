"""The bundled UB corpus: every program has complete metadata and an expected output.

The ub-case format itself (keys, values, errors) is read by ``analyzer.ub.corpus`` and
tested on hand-written cases in test_ub_corpus.py; here each bundled program is read
through the same library and held to the corpus's own, stricter rules (corpus/README).
How the programs behave when compiled is in tests/system/test_corpus_programs.py.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from analyzer.ub.corpus import SOURCE_SUFFIXES, Case, bundled_corpus, discover, load, load_case

CORPUS = bundled_corpus()
STANDARD_RE = re.compile(r"^(C(99|11|17|23)|C\+\+(11|14|17|20|23)) (\d+(\.\d+)*(p\d+)?|\[[a-z.-]+\](/\d+)?)( .*)?$")
#: the standards the bundled programs are written in (the library accepts more)
STDS = {"c17", "gnu17", "c++17", "c++20"}


def programs() -> list[Path]:
    """The corpus's source files, each one test (so one bad file fails only its own)."""
    return sorted(p for p in CORPUS.rglob("*") if p.suffix in SOURCE_SUFFIXES and p.is_file())


def case_id(path: Path) -> str:
    return path.relative_to(CORPUS).with_suffix("").as_posix()


def test_corpus_has_enough_programs_and_categories():
    cases = discover(CORPUS)
    ub = [c for c in cases if c.ub is True]
    assert len(ub) >= 60, f"only {len(ub)} UB programs"
    categories = {c.category for c in ub}
    assert len(categories) >= 25, f"only {len(categories)} categories"
    assert {c.path.suffix for c in ub} == {".c", ".cpp"}
    controls = [c for c in cases if c.ub is False and not c.is_twin]
    assert len(controls) >= 3
    assert all(c.path.parent.name == "control" for c in controls)


def test_case_ids_are_unique():
    """A .c and a .cpp with the same name would share their .output files (the library
    then keeps the suffix in both ids)."""
    ids = [c.id for c in discover(CORPUS)]
    assert ids == [case_id(p) for p in programs()]


@pytest.mark.parametrize("path", programs(), ids=case_id)
def test_metadata_is_complete(path):
    case: Case = load_case(CORPUS, path)    # a malformed block raises, naming the line
    assert case.ub is not None, "first comment must start with a 'ub-case' line"
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", case.category)
    assert STANDARD_RE.match(case.standard), case.standard
    assert case.ub == (path.parent.name != "control" and ".fixed." not in path.name)
    assert case.std in STDS
    if case.o0_exploited:
        assert case.note, "o0-exploited needs a note saying why"
    assert case.expected, "needs NAME.output or NAME.outputN"


def test_every_ub_case_has_a_fixed_twin():
    """Each case with UB links its twin (``twin: NAME.fixed.c``, a program without UB in the
    same folder that says which case it fixes); a case added without one fails here."""
    loaded = load(CORPUS)
    assert loaded.notes == []
    cases = {c.id: c for c in loaded.cases}
    lacking = [c.id for c in cases.values() if c.ub and not c.twin]
    assert not lacking, f"UB cases without a fixed twin: {lacking}"
    for case in cases.values():
        if case.ub:
            twin = cases[case.twin]
            assert twin.id == case.id + ".fixed"
            assert (twin.ub, twin.fixes, twin.category, twin.std) == (False, case.id, case.category, case.std)
            assert twin.meta.get("fixes") == case.path.name
            assert twin.summary.startswith(f"the fixed twin of {case.path.name}: ")
            assert twin.link == case.link and twin.args == case.args
    orphans = [c.id for c in cases.values() if c.is_twin and cases[c.fixes].twin != c.id]
    assert not orphans


#: the targets whose plain runs the bundled corpus's ``NAME.ARCH.output`` files record
#: (gcc-12 of Debian's cross compilers under qemu-user; x86-64 is the plain output), and
#: wasm32 (clang-16 for wasm32-wasi under Wasmtime: tests/system/test_wasm_run.py)
MEASURED_ARCHES = {"aarch64", "arm", "riscv64", "wasm32"}


def test_per_target_outputs_are_measured_differences_and_no_twin_has_one():
    """A ``NAME.ARCH.output`` is for a target the corpus is measured on and says something
    other than the plain outputs; a fixed twin has none, since a fix prints the same on
    every target (tests/system/test_corpus_programs.py runs them there)."""
    loaded = load(CORPUS)
    assert loaded.notes == [] and loaded.refused == []
    with_arch = [c for c in loaded.cases if c.expected_by_arch]
    assert len(with_arch) >= 15
    for case in with_arch:
        assert not case.is_twin, f"{case.id}: a twin prints the same on every target"
        assert set(case.expected_by_arch) <= MEASURED_ARCHES, case.id
        for arch, outs in case.expected_by_arch.items():
            assert outs and outs != case.expected, f"{case.id}: {arch} output same as the plain"
            assert case.expected_on(arch) == outs and case.expected_on("") == case.expected


@pytest.mark.parametrize("path", [p for p in programs() if ".fixed." not in p.name], ids=case_id)
def test_ub_line_is_code(path):
    """``ub-line`` names lines of the program's code: not blank, not the metadata block,
    not a comment, not a preprocessor line."""
    case: Case = load_case(CORPUS, path)
    if not case.ub:
        assert case.ub_lines == ()
        return
    assert case.ub_lines, "a UB case marks the line of its defect (ub-line: N)"
    lines = case.source.decode().splitlines()
    header_end = next(i for i, l in enumerate(lines, 1) if l.strip().endswith("*/"))
    for n in case.ub_lines:
        text = lines[n - 1].strip()
        assert n > header_end, f"line {n} is in the metadata block"
        assert text and not text.startswith(("//", "/*", "* ", "#")), f"line {n} is not code: {text!r}"


@pytest.mark.parametrize("path", [p for p in programs() if ".fixed." in p.name], ids=case_id)
def test_fixed_line_is_code(path):
    """Each twin marks where its case's defect was and is now fixed (``fixed-line: N``, its
    own line numbers): lines of its code, as a case's ``ub-line`` are; ``ub detectors``
    counts a report there as a false alarm."""
    case: Case = load_case(CORPUS, path)
    assert case.fixed_lines, "a fixed twin marks the line of the fix (fixed-line: N)"
    lines = case.source.decode().splitlines()
    header_end = next(i for i, l in enumerate(lines, 1) if l.strip().endswith("*/"))
    for n in case.fixed_lines:
        text = lines[n - 1].strip()
        assert n > header_end, f"line {n} is in the metadata block"
        assert text and not text.startswith(("//", "/*", "* ", "#")), f"line {n} is not code: {text!r}"


@pytest.mark.parametrize("extra, error", [
    (" * ub: no\n * fixes: a.c\n * fixed-line: 12\n", "fixed-line 12 is past the file's end"),
    (" * ub: no\n * fixes: a.c\n * fixed-line: seven\n", "fixed-line must be line numbers"),
    (" * ub: yes\n * ub-line: 8\n * fixed-line: 8\n", "fixed-line is a fixed twin's"),
])
def test_a_bad_fixed_line_names_the_file(tmp_path, extra, error):
    from warnscope.errors import ParseError
    (tmp_path / "cat").mkdir()
    path = tmp_path / "cat" / "a.fixed.c"
    path.write_text("/* ub-case\n * category: cat\n * standard: C17 6.5p5\n * summary: s\n"
                    + extra + " */\nint main(void) { return 0; }\n")
    with pytest.raises(ParseError, match=error):
        load_case(tmp_path, path)


def test_a_fixed_line_left_unchanged_by_the_fix_is_the_cases_ub_line():
    """Where the fix left the defect's line as it was (the bound, the type or the lifetime
    changed elsewhere), the twin's fixed line is that same line: the text of the case's
    main ub-line."""
    cases = {c.id: c for c in load(CORPUS).cases}
    same = 0
    for case in cases.values():
        if not case.ub:
            continue
        twin = cases[case.twin]
        was = case.source.decode().splitlines()[case.ub_lines[0] - 1].strip()
        lines = [l.strip() for l in twin.source.decode().splitlines()]
        if was in lines:
            assert was in [lines[n - 1] for n in twin.fixed_lines], \
                f"{twin.id}: {was!r} is in the twin, not at its fixed-line"
            same += 1
    assert same >= 40


#: a pointer assigned the result of an allocation: ``int *p = malloc(...)``
ALLOCATION = re.compile(r"^\s*[\w:<>\s]+?\*\s*(\w+)\s*=\s*.*\b(?:malloc|calloc|realloc)\s*\(")


@pytest.mark.parametrize("path", programs(), ids=case_id)
def test_allocations_are_checked(path):
    """Every allocation's result is checked on the next line: a program holds its one
    UB and nothing else, so an analyzer's "possible null" after an unchecked ``malloc``
    can neither pass for a catch of the case nor be a true report on its fixed twin."""
    lines = path.read_text().splitlines()
    for n, line in enumerate(lines, 1):
        found = ALLOCATION.match(line)
        if found:
            assert n < len(lines) and re.match(rf"\s*if \(!{found[1]}\)", lines[n]), \
                f"{path.name}:{n}: {found[1]} is used unchecked"
