"""A diagnostic keeps its file, whatever the file's name: real clang-16 compiles of files
named ``c:colon.c``, ``sp ace.c``, ``nl<newline>name.c`` and ``esc<ESC>.c`` (clang prints
each name as it is: the colon inside it, the newline splitting the line), read back in
their own file by the parser, by a real ``warnings run`` and by the UB detectors' reader;
a name the compile did not read (a ``#line`` naming no file) kept without a place and
said, never put in another file.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from analyzer.ub.detectors.detectors import Kind, bracketed
from warnscope import tool
from warnscope.diagnostics import parse_text

NAMES = ["c:colon.c", "sp ace.c", "nl\nname.c", "esc\x1b.c"]
SOURCE = "int f(void) {\n  int unused;\n  return 0;\n}\n"
FLAGS = ["-fsyntax-only", "-Wall", "-fdiagnostics-show-option", "-fno-caret-diagnostics",
         "-fno-color-diagnostics"]


@pytest.fixture
def tree(tmp_path) -> Path:
    """The four files, and a decoy ``name.c`` where the newline's second half points."""
    root = tmp_path / "names"
    root.mkdir()
    for name in NAMES:
        (root / name).write_text(SOURCE)
    (root / "name.c").write_text("int decoy;\n")
    return root


def _stderr(clang: str, root: Path, name: str) -> str:
    return tool.run([clang, *FLAGS, name], cwd=root, timeout=60, check=False).stderr


@pytest.mark.parametrize("name", NAMES)
def test_each_name_is_read_back_as_the_file_the_compile_read(require, tree, name):
    clang = require("clang-16")
    text = _stderr(clang, tree, name)
    assert "unused variable" in text
    parsed = parse_text.parse(text, lambda n: (tree / n).is_file())
    assert parsed.problem is None
    (d,) = parsed.diagnostics
    assert (d.file, d.line, d.column, d.option) == (name, 2, 7, "-Wunused-variable")
    # the UB detectors' reader: the finding at the program's own line
    (finding,) = bracketed(text, name, Kind.WARNING)[0]
    assert (finding.detector, finding.line) == ("-Wunused-variable", 2)


def test_a_name_no_file_has_is_kept_without_a_place(require, tree):
    """``#line`` names a file that is not there (with a colon, and with a newline whose
    second half is the decoy): the diagnostics are kept, placed nowhere, and said."""
    clang = require("clang-16")
    (tree / "lined.c").write_text('#line 1 "ghost:file.c"\n' + SOURCE + '#line 1 "x\\nname.c"\n' + SOURCE.replace("f(", "g("))
    text = _stderr(clang, tree, "lined.c")
    parsed = parse_text.parse(text, lambda n: n == "lined.c")
    assert [(d.file, d.line, d.option) for d in parsed.diagnostics] == [(None, None, "-Wunused-variable")] * 2
    assert parsed.problem.startswith("2 diagnostics at a file this compile did not read ('ghost:file.c')")


def test_a_warnings_build_keeps_each_file(require, gcc_db_copy, cli_at, tree):
    """``warnings run`` with clang-16 over the tree: each diagnostic in its own file, none
    in the decoy, none unplaced."""
    require("clang-16")
    build = 'for f in *.c; do [ "$f" = name.c ] || $CC $CFLAGS -Wall -c "$f" -o /dev/null; done'
    code, out, err = cli_at(gcc_db_copy)("warnings", "run", "--source", str(tree), "--build", build,
                                         "--compilers", "clang-16", "--level", "default", "--json", "--quiet")
    assert code == 0, err
    (b,) = json.loads(out)["builds"]
    assert sorted((d["file"], d["line"], d["option"]) for d in b["diagnostics"]) == \
        sorted((name, 2, "-Wunused-variable") for name in NAMES)
    assert not [t for t in b["tus"] if t.get("problem")]
