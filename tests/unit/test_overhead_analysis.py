"""The analyzer cells of an overhead study, without running an analyzer: their levels,
the Makefile that runs them, how their outputs are read (each line is what the analyzer
printed on the host's clang-16, cppcheck 2.10 and gcc-12), and the article's table."""
from __future__ import annotations

from pathlib import Path

import pytest

from analyzer.projects import levels
from analyzer.overhead import analysis, report, text
from analyzer.overhead.analysis import Analyzer
from analyzer.overhead.experiment import Tu
from analyzer.overhead.results import Cell, Figures
from analyzer.runtime.toolchain import Toolchain
from warnscope.errors import AnalyzerUnavailable, BadInput

GCC = Toolchain(name="gcc-12", family="gcc", major=12, c_driver="/usr/bin/gcc-12", cxx_driver="/usr/bin/g++-12",
                version="12.2.0", identity="x")
GCC9 = Toolchain(name="gcc-9", family="gcc", major=9, c_driver="/usr/bin/gcc-9", cxx_driver="/usr/bin/g++-9",
                 version="9.3.0", identity="y")
CLANG = Toolchain(name="clang-16", family="clang", major=16, c_driver="/usr/bin/clang-16",
                  cxx_driver="/usr/bin/clang++-16", version="16.0.6", identity="z")

CLANG_OUT = """\
In file included from t.c:1:
t.c:2:34: warning: Dereference of null pointer (loaded from variable 'p') [core.NullDereference]
t.c:2:21: note: Assuming 'p' is null
t.c:2:17: note: Taking true branch
t.c:3:51: warning: Use of memory after it is freed [unix.Malloc]
t.c:3:26: note: Memory is allocated
2 warnings generated.
"""
CPPCHECK_OUT = """\
t.c:2:35: warning: Either the condition '!p' is redundant or there is possible null pointer dereference: p. [nullPointerRedundantCheck]
t.c:4:31: error: Uninitialized variable: x [uninitvar]
"""
GCC_OUT = """\
cc1: warning: use of uninitialized value 'x' [CWE-457] [-Wanalyzer-use-of-uninitialized-value]
t.c:2:34: warning: dereference of NULL '0' [CWE-476] [-Wanalyzer-null-dereference]
t.c:5:3: warning: unused variable 'y' [-Wunused-variable]
"""


def test_the_analyzer_levels_are_a_studys_only():
    levels.validate(["off", "all", "analyzer", "cppcheck"], {}, analyzers=True)
    with pytest.raises(BadInput, match="'analyzer' runs a static analyzer"):
        levels.validate(["off", "analyzer"], {})        # warnings run builds warning levels
    with pytest.raises(BadInput, match="a built-in level has that name"):
        levels.parse_custom(("cppcheck=-Wall",))


def test_which_analyzer_a_level_runs():
    assert analysis.analyzer_of("analyzer", GCC) is Analyzer.GCC
    assert analysis.analyzer_of("analyzer", CLANG) is Analyzer.CLANG
    assert analysis.analyzer_of("cppcheck", GCC) is Analyzer.CPPCHECK
    assert analysis.analyzer_of("all", CLANG) is None
    assert not analysis.over_commands(Analyzer.GCC) and analysis.over_commands(Analyzer.CPPCHECK)
    assert analysis.flags(Analyzer.GCC, GCC, ("c",)) == {"c": ["-fanalyzer"]}
    assert analysis.unavailable(Analyzer.GCC, GCC9) == "gcc-9 has no -fanalyzer (GCC 10 on)"
    assert analysis.unavailable(Analyzer.GCC, GCC) is None


def test_cppcheck_missing_is_said(monkeypatch, tmp_path):
    """No cppcheck on the PATH: its cell is unavailable, saying why, before anything runs."""
    monkeypatch.setenv("PATH", str(tmp_path))
    assert analysis.unavailable(Analyzer.CPPCHECK, GCC) == "cppcheck is not installed (Debian package cppcheck)"


def test_each_source_is_analyzed_once():
    """libtool compiles a source twice (shared and static): it is analyzed once."""
    tus = [Tu("a.c -> .libs/a.o", "/t/src", "c", ("-c", "a.c", "-fPIC", "-DPIC")),
           Tu("a.c -> a.o", "/t/src", "c", ("-c", "a.c")), Tu("b.c", "/t/src", "c", ("-c", "b.c"))]
    assert [t.name for t in analysis.sources(tus)] == ["a.c -> .libs/a.o", "b.c"]


def test_the_commands():
    tu = Tu("src/a.c", "/t/src", "c", ("-c", "-std=gnu99", "-I", "../include", "-DX=1", "-O2", "-Wall", "a.c"))
    clang = analysis.argv(Analyzer.CLANG, CLANG, tu, None)
    assert clang[0] == "/usr/bin/clang-16" and "--analyze" in clang and clang[-2:] == ["-o", "/dev/null"]
    assert clang.index("-w") > clang.index("-Wall")   # the build's warnings are off
    cpp = analysis.argv(Analyzer.CPPCHECK, GCC, tu, Path("/box/predefined"))
    assert cpp[0] == "cppcheck" and cpp[-1] == "a.c"
    assert {"-I", "../include", "-DX=1", "--std=c99", "--language=c"} <= set(cpp)
    assert "-O2" not in cpp and "-Wall" not in cpp
    # the compiler's predefined macros for the language and the compile's -std, first
    assert [a for a in cpp if a.startswith("--include=")] == ["--include=/box/predefined/c-gnu99.h"]
    # ISO's own names of the standards: cppcheck's --std and the compiler's macros under them
    for std, said in (("iso9899:2011", "c11"), ("iso9899:1990", "c89"), ("iso9899:199409", None)):
        iso = analysis.argv(Analyzer.CPPCHECK, GCC, Tu("a.c", "/t", "c", ("-c", f"-std={std}", "a.c")), Path("/m"))
        assert [a for a in iso if a.startswith("--std=")] == ([f"--std={said}"] if said else []), std
        assert f"--include=/m/c-{std}.h" in iso


def test_cppcheck_is_given_the_forced_includes():
    """GCC's ``-include X`` reaches cppcheck inside the one ``--include=`` file with the
    compiler's macros (cppcheck reads ``-include`` as ``-i``, a path to ignore, and X as
    one more file to check; and several ``--include=`` last one first): the file is
    named by the forced files, a relative one taken from the compile's directory."""
    tu = Tu("a.cpp", "/t", "c++", ("-c", "-include", "conf.h", "-includeb.h", "-include-pch", "p.pch",
                                   "-include", "/abs/pch.hxx", "-std=c++9z", "a.cpp"))
    assert analysis.forced_includes(tu) == ["/t/conf.h", "/t/b.h", "/abs/pch.hxx"]
    cpp = analysis.argv(Analyzer.CPPCHECK, GCC, tu, Path("/m"))
    given = [a for a in cpp if "include" in a or a.endswith((".h", ".pch", ".hxx"))]
    assert given == [f"--include={analysis.predefined(tu, Path('/m'))}"]
    assert given[0].startswith("--include=/m/c++-") and given[0] != "--include=/m/c++.h"   # c++9z: not known
    other = Tu("a.cpp", "/t", "c++", ("-c", "-include", "conf.h", "a.cpp"))
    assert analysis.predefined(other, Path("/m")) != analysis.predefined(tu, Path("/m"))
    assert analysis.predefined(Tu("a.cpp", "/t", "c++", ("-c", "a.cpp")), Path("/m")) == Path("/m/c++.h")
    assert analysis.flags(Analyzer.CPPCHECK, GCC, ("c", "c++"))["c++"][-1] == "--include=<gcc-12 -dM -E -x c++>"


def test_the_compilers_macros_yield_to_the_commands():
    """Each predefined macro is defined unless the command defined it (its -D wins, as
    with the compiler); a line that is no #define is not understood."""
    text = analysis.guarded("#define __GNUC__ 12\n#define __has_x(a) 1\n", "gcc-12 -dM -E -x c")
    assert text.splitlines() == ["#ifndef __GNUC__", "#define __GNUC__ 12", "#endif",
                                 "#ifndef __has_x", "#define __has_x(a) 1", "#endif"]
    with pytest.raises(AnalyzerUnavailable, match="printed 'warning: x', not a #define"):
        analysis.guarded("warning: x\n", "gcc-12 -dM -E -x c")


def test_the_makefile_quotes_and_escapes(tmp_path):
    tu = Tu("a b.c", "/t/d ir", "c", ("-c", "-DV=$(HOME)", "a b.c"))
    mk = analysis.makefile(Analyzer.CLANG, CLANG, [tu], tmp_path, None)
    recipe = mk.splitlines()[-1]
    assert recipe.startswith("\t@cd '/t/d ir' && ")
    assert "'-DV=$$(HOME)'" in recipe and "'a b.c'" in recipe and "echo $$? >" in recipe
    with pytest.raises(AnalyzerUnavailable, match="line break"):
        analysis.makefile(Analyzer.CLANG, CLANG, [Tu("x.c", "/t", "c", ("-DA=\n", "x.c"))], tmp_path, None)


def test_findings_are_distinct_diagnostics():
    seen: set = set()
    assert analysis.findings(Analyzer.CLANG, CLANG_OUT, "/t", seen, "clang-16 --analyze") == 2
    assert analysis.findings(Analyzer.CLANG, CLANG_OUT, "/t", seen, "clang-16 --analyze") == 2
    assert len(seen) == 2     # the same header's findings from two TUs count once
    assert {f[3] for f in seen} == {"core.NullDereference", "unix.Malloc"}
    cpp: set = set()
    analysis.findings(Analyzer.CPPCHECK, CPPCHECK_OUT, "/t", cpp, "cppcheck")
    assert {f[3] for f in cpp} == {"nullPointerRedundantCheck", "uninitvar"}
    gcc: set = set()
    analysis.gcc_findings(GCC_OUT, gcc)
    assert {f[3] for f in gcc} == {"-Wanalyzer-use-of-uninitialized-value", "-Wanalyzer-null-dereference"}


def test_cppcheck_giving_up_is_no_finding():
    """cppcheck stopped by an ``#error`` its configuration reaches (cppcheck's own
    lib/config.h without the compiler's macros) checked nothing there: unavailable."""
    line = 'lib/config.h:123:0: error: #error "No threading model defined" [preprocessorErrorDirective]\n'
    with pytest.raises(AnalyzerUnavailable, match="cppcheck could not analyze lib/config.h: "
                                                  "#error .No threading model defined. "):
        analysis.findings(Analyzer.CPPCHECK, line, "/t", set(), "cppcheck")


@pytest.mark.parametrize("line", ["Segmentation fault", "t.c:1:1: warning: no checker named",
                                  "Checking t.c ..."])
def test_an_unknown_shape_is_no_finding_but_unavailable(line):
    with pytest.raises(AnalyzerUnavailable, match="a shape not understood here"):
        analysis.findings(Analyzer.CLANG, CLANG_OUT + line + "\n", "/t", set(), "clang-16 --analyze")


def _cell(level: str, cpu: float, findings: int | None = None, status: str = "ok") -> Cell:
    mmm = Figures(cpu, cpu, cpu)
    return Cell(study=1, project="p", mode="build", opt="-O2", compiler="gcc-12", compiler_version="12",
                level=level, inject="build", flags=[], flags_by_language={}, status=status, runs=1,
                cpu_s=mmm if status == "ok" else None, user_s=mmm, sys_s=Figures(0, 0, 0), wall_s=mmm,
                compiler_cpu_s=mmm, other_cpu_s=Figures(0, 0, 0), by_process=None, compilers=1, maxrss_kb=1,
                warnings=0, noisy=False, spread=0.0, max_load=0.0, host="a", findings=findings,
                error=None if status == "ok" else "analyzer unavailable: cppcheck is not installed")


def test_the_articles_table():
    rows = report.rows([_cell("off", 2.0), _cell("all", 3.0), _cell("analyzer", 10.0, findings=3),
                        _cell("cppcheck", 0, status="failed")])
    head, gcc = text.article_table(rows)
    assert head == ["compiler", "no warnings", "all warnings", "analyzer", "cppcheck"]
    assert gcc == ["gcc-12", "1.00× (1.00–1.00)", "1.50× (1.50–1.50)", "5.00× (5.00–5.00), 3 findings",
                   "unavailable"]
    assert text.article_table(rows[:2]) == []    # no analyzer, no such table
