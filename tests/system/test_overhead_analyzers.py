"""Static analyzers as cells of an overhead study (the article's row): GCC's -fanalyzer as
a level of the build, the clang static analyzer and cppcheck over the build's own compile
commands, each with its findings counted, and an analyzer that crashes saying so.

Real builds of a two-file tree with real analyzers, one run each (CI time is short):
structure and sanity only; what they cost is for bench/README.md.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from analyzer.cli import main
from analyzer.overhead import analysis
from analyzer.overhead.experiment import Tu
from analyzer.runtime.toolchain import resolve
from warnscope.errors import AnalyzerUnavailable

pytestmark = pytest.mark.skipif(not (shutil.which("gcc-12") and shutil.which("clang-16")
                                     and shutil.which("cppcheck")),
                                reason="the analyzers' cells need gcc-12, clang-16 and cppcheck")

BUG = """\
#include <stdlib.h>
int deref(int *p) { if (!p) return *p; return 0; }
int freed(void) { char *q = malloc(4); if (!q) return 0; free(q); return q[0]; }
"""
OK = "int twice(int x) { return 2 * x; }\n"
#: clang --analyze defines __clang_analyzer__ (a build does not): only the analyzer crashes,
#: prints an AST dump (a shape no analyzer's finding has), or opens a FIFO the build made
#: and waits for a writer forever
CRASH = "#ifdef __clang_analyzer__\n#pragma clang __debug crash\n#endif\nint f(void) { return 0; }\n"
DUMP = "int x;\n#ifdef __clang_analyzer__\n#pragma clang __debug dump x\n#endif\n"
HANG = "#ifdef __clang_analyzer__\n#include \"pipe.h\"\n#endif\nint f(void) { return 0; }\n"
MAKEFILE = "all: $(patsubst %.c,%.o,$(wildcard *.c))\n%.o: %.c\n\t$(CC) $(CFLAGS) -c $< -o $@\n" \
           "clean:\n\trm -f *.o\n"


def _tree(path: Path, makefile: str = MAKEFILE, **sources: str) -> Path:
    path.mkdir()
    (path / "Makefile").write_text(makefile)
    for name, text in sources.items():
        (path / f"{name}.c").write_text(text)
    return path


def _study(db: Path, tree: Path, capsys, compilers: str, levels: str, *more: str) -> tuple[int, dict, str]:
    capsys.readouterr()
    code = main(["--db", str(db), "overhead", "run", "--source", str(tree), "--build", "make -j{jobs}",
                 "--compilers", compilers, "--levels", levels, "--runs", "1", "--json", *more])
    out, err = capsys.readouterr()
    cells = json.loads(out)["cells"] if out.strip() else []
    return code, {(c["compiler"], c["level"]): c for c in cells}, err


def test_analyzers_beside_the_build(tmp_path, capsys):
    db, tree = tmp_path / "w.db", _tree(tmp_path / "src", bug=BUG, ok=OK)
    code, cells, err = _study(db, tree, capsys, "gcc-12,clang-16", "off,analyzer,cppcheck")
    assert code == 0, err
    assert set(cells) == {(c, l) for c in ("gcc-12", "clang-16") for l in ("off", "analyzer", "cppcheck")}
    for (compiler, level), cell in cells.items():
        assert cell["status"] == "ok" and cell["runs"] == 1, cell
        assert cell["cpu_s"]["median"] > 0
        if level == "off":
            assert "findings" not in cell          # a warning level has none to count
        else:
            assert cell["findings"] >= 1, cell     # the null dereference at least
    assert cells[("gcc-12", "analyzer")]["flags"] == ["-fanalyzer"]
    assert "--analyze" in cells[("clang-16", "analyzer")]["flags"]
    assert cells[("clang-16", "analyzer")]["findings"] >= 2   # core.NullDereference, unix.Malloc
    assert cells[("clang-16", "analyzer")]["compilers"] == 2  # the two sources, analyzed once each
    capsys.readouterr()
    assert main(["--db", str(db), "overhead", "report"]) == 0
    report = capsys.readouterr().out
    assert "the article's table" in report
    line = next(l for l in report.splitlines() if l.strip().startswith("clang-16") and "×" in l)
    assert line.split()[1] == "1.00×" and "findings" in line


@pytest.mark.parametrize("source, why", [
    (CRASH, r"clang-16 --analyze exit \d+ (\(signal \d+\) )?on crash\.c: clang: error: clang frontend command failed"),
    (DUMP, r"clang-16 --analyze printed 'lookup results for x:', a shape not understood here$"),
    (HANG, r"clang-16 --analyze ran past the timeout \(20 s\)$")], ids=["crash", "unknown-shape", "hang"])
def test_an_analyzer_that_fails_says_so(tmp_path, capsys, source, why):
    """A crash, an unknown shape, a hang: the cell says so, never "found nothing"."""
    makefile = MAKEFILE.replace("\t$(CC)", "\trm -f pipe.h; mkfifo pipe.h\n\t$(CC)") if source is HANG else MAKEFILE
    db, tree = tmp_path / "w.db", _tree(tmp_path / "src", makefile, crash=source)
    code, cells, err = _study(db, tree, capsys, "clang-16", "off,analyzer", "--timeout", "20")
    assert code != 0 and "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("warnscope: error: 1 of 2 cells failed")
    assert cells[("clang-16", "off")]["status"] == "ok"        # the build itself is fine
    cell = cells[("clang-16", "analyzer")]
    assert cell["status"] == "failed" and "findings" not in cell, cell
    assert re.match(f"analyzer unavailable: {why}", cell["error"]), cell["error"]


#: a source that compiles only with what its compile command and compiler give it: the
#: compiler's own macros (cppcheck's lib/config.h: ``#error "No threading model defined"``
#: without __GNUC__) and the files the command forces in, in its order (``-include conf.h
#: -include conf2.h``), the first of which tests the compiler's macros too (as cppcheck's
#: precompiled header does); and a finding
NEEDS_THE_COMPILER = """\
#if !defined(__GNUC__)
#error "No threading model defined"
#endif
#ifndef HAVE_CONF2
#error "conf2.h was not included"
#endif
int past(void) { int a[4] = {0}; return a[4]; }
"""
#: a -D in the command: cppcheck then checks that one configuration, not its guesses
FORCED = MAKEFILE.replace("$(CFLAGS) -c", "$(CFLAGS) -DPROJECT=1 -include conf.h -include conf2.h -c")


def test_the_one_file_cppcheck_is_given(tmp_path):
    """The compiler's macros, then the forced files in the command's order, each as an
    ``#include`` line; a forced file's name no such line can hold is the cell's failure,
    shown with its control characters visible."""
    box = type("Box", (), {"box": tmp_path})()
    tu = Tu("a.c", "/t", "c", ("-c", "-include", "conf.h", "-include", "/abs/two.h", "a.c"))
    directory = analysis.write_predefined(resolve("gcc-12"), [tu], box)
    both = analysis.predefined(tu, directory)
    assert both.read_text().splitlines() == [f'#include "{directory}/c.h"', '#include "/t/conf.h"',
                                              '#include "/abs/two.h"']
    assert "#define __GNUC__ 12" in (directory / "c.h").read_text()
    for name in ('a"b.h', "a\\b.h", "a\nb.h"):
        bad = Tu("a.c", "/t", "c", ("-c", "-include", name, "a.c"))
        with pytest.raises(AnalyzerUnavailable, match="a file name cppcheck cannot be given") as caught:
            analysis.write_predefined(resolve("gcc-12"), [bad], box)
        assert "\n" not in str(caught.value)


def test_cppcheck_is_given_the_compilers_macros(tmp_path, capsys):
    """cppcheck is given what the compiler predefines and the command's forced include, so
    it analyzes a source that tests __GNUC__ (the build's -D alone would stop it at the
    ``#error``: "analyzer unavailable") and counts its finding."""
    tree = _tree(tmp_path / "src", FORCED, needs=NEEDS_THE_COMPILER)
    (tree / "conf.h").write_text('#ifndef __GNUC__\n#error "conf.h: no compiler macros"\n#endif\n'
                                 "#define HAVE_CONF 1\n")
    (tree / "conf2.h").write_text('#ifndef HAVE_CONF\n#error "conf2.h came before conf.h"\n#endif\n'
                                  "#define HAVE_CONF2 1\n")
    code, cells, err = _study(tmp_path / "w.db", tree, capsys, "gcc-12,clang-16", "off,cppcheck")
    assert code == 0, err
    for compiler in ("gcc-12", "clang-16"):
        cell = cells[(compiler, "cppcheck")]
        assert cell["status"] == "ok", cell
        assert cell["findings"] == 1, cell      # a[4]: arrayIndexOutOfBounds
        assert f"--include=<{compiler} -dM -E -x c>" in cell["flags"]
