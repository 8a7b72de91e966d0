"""GCC's JSON diagnostics on stderr, in both shapes GCC prints them.

GCC up to 13 writes the array on one line; GCC 14 pretty-prints it over many lines
(``tests/system/test_zoo_roots.py`` checks the real gcc-14). Linker errors after it
stay text.
"""
from __future__ import annotations

import json

from warnscope.diagnostics.parse_gcc_json import split_stderr as _split_gcc_json

DIAG = {"kind": "warning", "message": "iteration 2 invokes undefined behavior",
        "option": "-Waggressive-loop-optimizations",
        "children": [{"kind": "note", "message": "within this loop"}]}
LINKER = "/usr/bin/ld: undefined reference to `f'"


def test_one_line_array():
    diags, rest = _split_gcc_json(json.dumps([DIAG]) + "\n" + LINKER + "\n")
    assert diags == [DIAG]
    assert rest.splitlines() == [
        "warning: iteration 2 invokes undefined behavior [-Waggressive-loop-optimizations]",
        LINKER]


def test_pretty_printed_array():
    diags, rest = _split_gcc_json(json.dumps([DIAG, DIAG], indent=2) + "\n" + LINKER)
    assert diags == [DIAG, DIAG]
    assert rest.splitlines()[-1] == LINKER
    assert len(rest.splitlines()) == 3


def test_text_that_looks_like_an_array_stays_text():
    diags, rest = _split_gcc_json("[not json\n" + LINKER)
    assert diags == []
    assert rest.splitlines() == ["[not json", LINKER]


def test_gcc16_sarif_log():
    """GCC 16 has no JSON format: its SARIF log (a real one, gcc-16 16.2.0 on loop.c
    at -O2 -Wall -Wextra) gives the same diagnostics."""
    from pathlib import Path
    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    sarif = (fixtures / "ub" / "gcc16-loop.sarif").read_text()
    diags, rest = _split_gcc_json(sarif + LINKER + "\n")
    assert diags == [{"kind": "warning", "message": "iteration 2 invokes undefined behavior",
                      "option": "-Waggressive-loop-optimizations",
                      "locations": [{"caret": {"file": "loop.c", "line": 14, "column": 38}}]}]
    assert rest.splitlines() == [
        "warning: iteration 2 invokes undefined behavior [-Waggressive-loop-optimizations]",
        LINKER]
