"""Each diagnostics format read from what the compilers print today: the structured
output of a compile against the text output of the same compile, diagnostic by
diagnostic (GCC JSON against GCC's text; clang's text and its SARIF against each other).

tests/fixtures/warnings/formats/sample.c holds a header's warning, a macro's warning
repeated at three expansions (GCC's JSON nests the repeats as children), warnings with
notes; GCC also gets an option it refuses for C, a warning no option controls printed as
text beside the JSON. GCC 13-16's SARIF needs a toolchain root: the suite prepares gcc-14's
(``root_toolchain``); gcc-13, 15 and 16 are skipped where no root holds them.
"""
from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

from analyzer.runtime import toolchain
from analyzer.warnings import formats
from warnscope.diagnostics import RawDiagnostic, parse_sarif, parse_text
from warnscope import tool

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "warnings" / "formats"
GCC_FLAGS = ["-O2", "-Wall", "-Wextra", "-Wtraditional", "-Wctor-dtor-privacy"]
CLANG_FLAGS = ["-O2", "-Wall", "-Wextra", "-Wstrict-prototypes"]


def _stderr(tc: toolchain.Toolchain, flags: list[str], tmp_path: Path) -> str:
    """What ``tc`` prints compiling sample.c with ``flags`` (in the builds' C locale)."""
    argv = tc.wrap([tc.driver("c"), *flags, "-c", "sample.c", "-o", str(tmp_path / "sample.o")],
                   binds=(str(tmp_path),), ro_binds=(str(HERE),), cwd=str(HERE))
    done = tool.run(argv, timeout=120, check=False, cwd=HERE, env={**os.environ, "LC_ALL": "C"})
    assert done.returncode == 0, done.stderr
    return done.stderr


#: the macro's warning; GCC 15 changed its quotes ("U" up to GCC 14, 'U' from 15)
IN_MACRO = ("traditional C rejects the \"U\" suffix", "traditional C rejects the 'U' suffix")


def _same_file(d: RawDiagnostic) -> RawDiagnostic:
    """The diagnostic with its file as one path (text says ``./sample.h``, SARIF a URI)."""
    if d.file is None:
        return d
    path = os.path.relpath(os.path.normpath(os.path.join(HERE, d.file)), HERE)
    return RawDiagnostic(d.option, d.severity, path, d.line, d.column, d.message)


@pytest.mark.parametrize("name", ["gcc-11", "gcc-12", "gcc-13", "gcc-14", "gcc-15"])
def test_gcc_json_reads_as_the_text_of_the_same_compile(name, tmp_path, root_toolchain):
    tc = root_toolchain(name)
    fmt = formats.for_toolchain(tc)
    assert fmt.name == "gcc-json"
    structured = fmt.parse(_stderr(tc, [*GCC_FLAGS, *fmt.flags], tmp_path))
    text = parse_text.parse(_stderr(tc, [*GCC_FLAGS, "-fno-diagnostics-show-caret"], tmp_path))
    assert structured.problem is None
    # the same diagnostics, none of them with the 'cc1: warning: ' GCC leaks into JSON
    # messages after its command-line warning
    assert Counter((d.option, d.severity, d.message) for d in structured.diagnostics) == \
        Counter((d.option, d.severity, d.message) for d in text.diagnostics)
    # at the same places, but a macro's warning: JSON puts it at each expansion (where it
    # nests the repeats as children of the first), text at the macro's definition
    assert Counter(map(_same_file, (d for d in structured.diagnostics
                                    if d.message not in IN_MACRO))) == \
        Counter(map(_same_file, (d for d in text.diagnostics if d.message not in IN_MACRO)))
    assert sorted((d.line, d.column) for d in structured.diagnostics if d.message in IN_MACRO) == \
        [(7, 40), (8, 40), (8, 47)]
    assert [(d.line, d.column) for d in text.diagnostics if d.message in IN_MACRO] == [(6, 14)] * 3
    no_option = [d for d in structured.diagnostics if d.option is None]
    assert [(d.file, d.message) for d in no_option] == [
        (None, "command-line option '-Wctor-dtor-privacy' is valid for C++/ObjC++ but not for C")]
    assert len(structured.diagnostics) == 14


@pytest.mark.parametrize("name", ["gcc-13", "gcc-14", "gcc-15", "gcc-16"])
def test_gcc_sarif_from_a_root_reads_as_its_text(name, tmp_path, root_toolchain):
    """GCC's SARIF names the option (``ruleId``) of each result and carries the same
    'cc1: warning: ' leak as its JSON; but a group's later diagnostics become
    ``relatedLocations`` of the first, with neither kind nor option (gcc-14: 11 results
    for the text's 14 warnings; the notes are there too, indistinguishable); GCC 15 and 16
    give each its own result, with its option. GCC 13-15 are read from JSON (which all of
    them print whole); GCC 16 has only SARIF."""
    tc = root_toolchain(name)   # skips without a root holding it
    sarif = parse_sarif.parse(_stderr(tc, [*GCC_FLAGS, "-fdiagnostics-format=sarif-stderr"], tmp_path))
    text = parse_text.parse(_stderr(tc, [*GCC_FLAGS, "-fno-diagnostics-show-caret"], tmp_path))
    assert sarif.problem is None

    def plain(ds: list[RawDiagnostic]) -> Counter:
        return Counter((d.option, d.line, d.message) for d in ds if d.message not in IN_MACRO)
    assert not plain(sarif.diagnostics) - plain(text.diagnostics)      # nothing SARIF has is wrong
    assert {d.option for d in sarif.diagnostics} == {d.option for d in text.diagnostics}
    if tc.major < 15:
        assert len(sarif.diagnostics) < len(text.diagnostics)           # the grouped ones are lost
    else:  # GCC 15 and 16 give each grouped diagnostic a result of its own
        assert len(sarif.diagnostics) == len(text.diagnostics) == 14


@pytest.mark.parametrize("name", ["clang-14", "clang-16", "clang-19"])
def test_clang_text_carries_every_option(name, tmp_path, root_toolchain):
    tc = root_toolchain(name)
    fmt = formats.for_toolchain(tc)
    assert fmt.name == "clang-text"
    parsed = fmt.parse(_stderr(tc, [*CLANG_FLAGS, *fmt.flags], tmp_path))
    assert parsed.problem is None
    assert Counter((d.option, _same_file(d).file, d.line) for d in parsed.diagnostics) == Counter({
        ("-Wunused-variable", "sample.h", 2): 1, ("-Wparentheses", "sample.c", 9): 1,
        ("-Wunused-parameter", "sample.c", 9): 1, ("-Wuninitialized", "sample.c", 9): 1,
        ("-Wsign-compare", "sample.c", 10): 1})


@pytest.mark.parametrize("name", ["clang-16", "clang-19"])
def test_clang_sarif_reads_as_its_text_but_names_no_option(name, tmp_path, root_toolchain):
    """Why the runner reads clang's text: its SARIF has every diagnostic, without the
    option (a rule is an internal number with an empty name). Columns are left out: a
    SARIF result's first location is the highlighted range, whose start is not always
    the caret the text names."""
    tc = root_toolchain(name)
    sarif = parse_sarif.parse(_stderr(tc, [*CLANG_FLAGS, "-fdiagnostics-format=sarif"], tmp_path))
    text = parse_text.parse(_stderr(tc, [*CLANG_FLAGS, *formats.CLANG_TEXT.flags], tmp_path))
    assert sarif.problem is None
    assert {d.option for d in sarif.diagnostics} == {None}

    def plain(d: RawDiagnostic) -> tuple:
        d = _same_file(d)
        return d.severity, d.file, d.line, d.message
    assert Counter(map(plain, sarif.diagnostics)) == Counter(map(plain, text.diagnostics))


def test_clang_14_has_no_sarif(tmp_path, root_toolchain):
    tc = root_toolchain("clang-14")
    argv = [tc.driver("c"), "-fdiagnostics-format=sarif", "-c", "sample.c", "-o", str(tmp_path / "x.o")]
    done = tool.run(argv, timeout=60, check=False, cwd=HERE)
    assert done.returncode != 0 and "sarif" in done.stderr
