"""The diagnostics parsers on what the host compilers really printed
(tests/fixtures/warnings/output, made as its README says), and on damaged copies."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from warnscope.diagnostics import parse_gcc_json, parse_sarif, parse_text

OUTPUT = Path(__file__).resolve().parents[1] / "fixtures" / "warnings" / "output"


def _read(name: str) -> str:
    return (OUTPUT / name).read_text()


@pytest.mark.parametrize("major", [11, 12])
def test_gcc_json_has_what_the_text_of_the_same_compile_has(major):
    structured = parse_gcc_json.parse(_read(f"gcc-{major}.json"))
    text = parse_text.parse(_read(f"gcc-{major}.txt"))
    assert structured.problem is None and len(structured.diagnostics) == len(text.diagnostics) == 14
    assert Counter((d.option, d.severity, d.message) for d in structured.diagnostics) == \
        Counter((d.option, d.severity, d.message) for d in text.diagnostics)


def test_gcc_json_nests_warnings_as_children_and_they_count():
    top = json.loads(_read("gcc-12.json").split("\n", 1)[1])
    nested = [c for d in top for c in d["children"] if c["kind"] == "warning"]
    assert nested                                        # GCC put some warnings there
    parsed = parse_gcc_json.parse(_read("gcc-12.json"))
    assert len(parsed.diagnostics) == len(top) + len(nested) + 1  # + the text line before the JSON


def test_gcc_json_drops_the_prefix_gcc_leaks_after_a_command_line_warning():
    raw = _read("gcc-12.json")
    assert '"message": "cc1: warning: ' in raw
    parsed = parse_gcc_json.parse(raw)
    assert not [d for d in parsed.diagnostics if d.message.startswith("cc1:")]
    no_option = [d for d in parsed.diagnostics if d.option is None]
    assert [(d.file, d.severity) for d in no_option] == [(None, "warning")]
    assert no_option[0].message.startswith("command-line option '-Wctor-dtor-privacy'")


def test_gcc_json_cut_short_keeps_what_came_before_and_says_why():
    raw = _read("gcc-12.json")
    parsed = parse_gcc_json.parse(raw[: len(raw) // 2])
    assert parsed.problem.startswith("GCC JSON cut short or malformed at byte")
    assert [d.option for d in parsed.diagnostics] == [None]     # the text line before the array


@pytest.mark.parametrize("text, why", [
    ('{"kind": "warning"}', "expected an array"),
    ('[{"kind": 3, "message": "x"}]', "unknown shape"),
    ('[{"kind": "warning", "message": "x", "option": 1}]', "unknown shape"),
])
def test_gcc_json_of_another_shape_is_a_problem(text, why):
    assert why in parse_gcc_json.parse(text).problem


def test_gcc_json_werror_names_the_warning_option():
    text = json.dumps([{"kind": "error", "message": "unused variable 'x'", "option": "-Werror=unused-variable",
                        "locations": [{"caret": {"file": "a.c", "line": 3, "column": 7}}], "children": []}])
    d = parse_gcc_json.parse(text).diagnostics[0]
    assert (d.option, d.severity, d.file, d.line, d.column) == ("-Wunused-variable", "error", "a.c", 3, 7)


@pytest.mark.parametrize("major", [14, 16, 19])
def test_clang_text(major):
    parsed = parse_text.parse(_read(f"clang-{major}.txt"))
    assert parsed.problem is None
    assert [(d.option, d.file, d.line, d.column) for d in parsed.diagnostics] == [
        ("-Wunused-variable", "./sample.h", 2, 38), ("-Wparentheses", "sample.c", 9, 47),
        ("-Wunused-parameter", "sample.c", 9, 18), ("-Wuninitialized", "sample.c", 9, 59),
        ("-Wsign-compare", "sample.c", 10, 39)]


@pytest.mark.parametrize("line, want", [
    ("a.c:3:7: error: unused variable 'x' [-Werror,-Wunused-variable]",
     ("-Wunused-variable", "error", "a.c", 3, 7, "unused variable 'x'")),
    ("clang: warning: argument unused during compilation: '-s' [-Wunused-command-line-argument]",
     ("-Wunused-command-line-argument", "warning", None, None, None, "argument unused during compilation: '-s'")),
    ("a.c:1: warning: no column [-Wfoo]", ("-Wfoo", "warning", "a.c", 1, None, "no column")),
    ("b.c:2:3: fatal error: 'x.h' file not found", (None, "fatal", "b.c", 2, 3, "'x.h' file not found")),
    ("b.c:2:3: note: declared here", None),
    ("In file included from a.c:1:", None),
    ("3 warnings generated.", None),
    ("cc1: warning: '-Wabi' won't warn about anything [-Wabi]",
     ("-Wabi", "warning", None, None, None, "'-Wabi' won't warn about anything")),
])
def test_text_lines(line, want):
    d = parse_text.line_diagnostic(line)
    assert (d if d is None else (d.option, d.severity, d.file, d.line, d.column, d.message)) == want


def test_clangs_own_sarif_warning_is_not_a_diagnostic_of_the_code():
    text = "clang: warning: diagnostic formatting in SARIF mode is currently unstable [-Wsarif-format-unstable]\n"
    assert parse_text.parse(text).diagnostics == []
    assert parse_sarif.parse(text).diagnostics == []


@pytest.mark.parametrize("major", [16, 19])
def test_clang_sarif_has_the_diagnostics_without_options(major):
    sarif = parse_sarif.parse(_read(f"clang-{major}.sarif"))
    text = parse_text.parse(_read(f"clang-{major}.txt"))
    assert sarif.problem is None
    assert {d.option for d in sarif.diagnostics} == {None}
    assert [(d.line, d.message) for d in sarif.diagnostics] == [(d.line, d.message) for d in text.diagnostics]
    assert sarif.diagnostics[0].file.endswith("/sample.h")        # a file:// URI, as a path


def test_gcc_sarif_shape_takes_the_option_from_the_rule_id():
    """GCC's SARIF names a rule by its option (the shape GCC 13-16 print; their real output
    is read by tests/system/test_warnings_formats.py where a root has them)."""
    log = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "GNU C17", "rules": []}}, "results": [
        {"ruleId": "-Wunused-variable", "level": "warning", "message": {"text": "unused variable 'x'"},
         "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a.c", "uriBaseId": "PWD"},
                                              "region": {"startLine": 3, "startColumn": 7}}}]},
        {"ruleId": "error", "level": "error", "message": {"text": "expected ';'"}, "locations": []}]}]}
    parsed = parse_sarif.parse(json.dumps(log, indent=2))
    assert [(d.option, d.severity, d.file, d.line, d.column) for d in parsed.diagnostics] == [
        ("-Wunused-variable", "warning", "a.c", 3, 7), (None, "error", None, None, None)]


@pytest.mark.parametrize("text, why", [
    ('{"runs": 3}', "unknown shape"),
    ('{"runs": [{"results": [{"level": "warning"}]}]}', "unknown shape"),
    ('{"runs": [', "cut short"),
])
def test_sarif_damaged(text, why):
    assert why in parse_sarif.parse(text).problem
