"""A compile that also links (``cc $(CFLAGS) -o prog a.c b.c``, ``cc a.c``) is a compile:
the flags are proven to arrive for each of its sources, each source is a TU (in a compile
database or a study's per-TU replay too), and its output splits per source. The builds
themselves run in ``system/test_one_command_builds.py``; the outputs split here are
shaped as gcc-12, gcc-14 and clang-16 print them (abridged)."""
from __future__ import annotations

from pathlib import Path

from analyzer.projects import arrival, tus
from analyzer.projects.wrapper import Record
from analyzer.warnings import formats, runner

FLAGS = ["-Wall", "-Wextra"]


def _record(*args: str) -> Record:
    return Record(0.0, 0, 0, "/t", ("/usr/bin/gcc-12", *args))


def _check(*records: Record, inject: str = "build") -> arrival.Arrival:
    return arrival.check(list(records), "all", inject, lambda _driver, _args, _source: FLAGS)


def test_a_compile_and_link_proves_the_flags_arrived_for_each_of_its_sources():
    carried = arrival.carried("all", FLAGS)
    one = _check(_record("-O2", *carried, "-o", "prog", "a.c", "b.c", "-lm"))
    assert (one.compiles, one.lacking, one.proven) == (2, 0, True)
    assert _check(_record(*carried, "a.c")).proven                       # cc $(CFLAGS) a.c
    # the level's flags reordered by the build system: both sources lack them
    bad = _check(_record("-O2", arrival.marker("all"), "-Wextra", "-Wall", "-o", "prog", "a.c", "b.c"))
    assert (bad.compiles, bad.lacking) == (2, 2) and "2 of 2 compiles lacked" in bad.why("build")


def test_links_preprocessing_and_dependency_runs_are_no_compiles():
    carried = arrival.carried("all", FLAGS)
    for args in (("-o", "prog", "a.o", "b.o", "-lm"), ("-E", *carried, "a.c"), ("-M", *carried, "a.c"),
                 ("-MM", *carried, "a.c"), ("--version",)):
        assert not arrival.compiles_source(args)
        assert _check(_record(*args)) == arrival.Arrival(0, 0)
    # beside a real compile they change nothing
    assert _check(_record(*carried, "-c", "a.c"), _record("-o", "prog", "a.o"), _record("-MM", "a.c")) \
        == arrival.Arrival(1, 0)


def test_a_program_the_build_compiles_for_itself_without_the_marker_is_counted_apart():
    carried = arrival.carried("all", FLAGS)
    # sqlite3: lemon through $(BCC) (configure's flags), the shell through $(CFLAGS)
    got = _check(_record("-g", "-O2", "-o", "lemon", "tool/lemon.c"),
                 _record(*carried, "-o", "sqlite3", "shell.c", "sqlite3.c"))
    assert (got.compiles, got.lacking, got.tools, got.proven) == (2, 0, 1, True)
    # only such programs: the flags cannot be shown to arrive, and the line says why
    alone = _check(_record("-O2", "-o", "prog", "a.c", "b.c"))
    assert (alone.proven, alone.tools) == (False, 2)
    assert alone.why("build") == ("2 of 2 compiles lacked the level's flags, each compiled and linked in one "
                                  "command (the build system did not pass them as given)")
    # a compile to an object without the marker lacks them, as before
    assert _check(_record("-c", "a.c")) == arrival.Arrival(1, 1)
    # with the wrapper adding the flags, a compile-and-link counts and must carry no marker
    assert _check(_record("-o", "prog", "a.c"), inject="wrapper") == arrival.Arrival(1, 0)
    assert _check(_record(*carried, "-o", "prog", "a.c"), inject="wrapper") == arrival.Arrival(1, 1)


def test_a_compile_and_link_replays_as_a_compile_of_each_source_alone():
    entries = [("/t", ["gcc", "-O2", "-Wall", "-o", "prog", "a.c", "src/b.c", "x.o", "libz.so.1", "-lm",
                       "-L/opt/lib", "-Wl,-O1", "-Xlinker", "-zdefs", "-rdynamic", "-DX=1"]),
               ("/t", ["gcc", "-O2", "-c", "a.c", "-o", "a.o"]),
               ("/t", ["gcc", "-o", "prog2", "a.o", "x.o"]),
               ("/t", ["gcc", "-E", "a.c"]), ("/t", ["gcc", "-MM", "a.c"])]
    got = tus.from_commands(entries, Path("/t"), strip_warnings=True)
    assert [(t.name, t.args) for t in got] == [
        ("a.c -> prog", ("-c", "-O2", "a.c", "-DX=1")),
        ("src/b.c", ("-c", "-O2", "src/b.c", "-DX=1")),
        ("a.c -> a.o", ("-O2", "-c", "a.c"))]


def test_gcc_json_and_sarif_split_one_document_per_source():
    # gcc-12: a one-line array per cc1, [] for a source without diagnostics; the linker's
    # text after the last; a command-line warning as text before its cc1's array
    a = '[{"kind": "warning", "message": "unused", "option": "-Wunused-function", "locations": []}]\n'
    text = a + "[]\n" + "cc1: warning: command-line option '-Wx' is valid for C++\n" + a + \
        "/usr/bin/ld: a.o: undefined reference to `f'\ncollect2: error: ld returned 1 exit status\n"
    parts = formats.GCC_JSON.split(text, ["a.c", "c.c", "b.c"])
    assert parts is not None and "".join(parts) == text
    assert parts[:2] == [a, "[]\n"]
    assert [len(formats.GCC_JSON.parse(p).diagnostics) for p in parts] == [1, 0, 3]
    # gcc-14 pretty-prints over many lines; a SARIF log per source likewise
    pretty = '[{"kind": "warning",\n  "message": "unused",\n  "locations": []}]\n'
    assert formats.GCC_JSON.split(pretty + pretty, ["a.c", "b.c"]) == [pretty, pretty]
    sarif = '{"version": "2.1.0",\n "runs": [{"results": []}]}\n'
    assert formats.GCC_SARIF.split(sarif * 2, ["a.c", "b.c"]) is not None
    # a driver that stopped before compiling, a log cut short: not told apart
    assert formats.GCC_JSON.split("gcc-12: error: unrecognized command-line option '-Wfoo'\n", ["a.c", "b.c"]) is None
    assert formats.GCC_JSON.split(a + '[{"kind": "warn', ["a.c", "b.c"]) is None


def test_clang_text_splits_by_the_source_each_diagnostic_names():
    text = ("clang: warning: -lm: 'linker' input unused [-Wunused-command-line-argument]\n"
            "a.c:3:45: warning: variable 'x' is uninitialized when used here [-Wuninitialized]\n"
            "a.c:3:23: note: initialize the variable 'x' to silence this warning\n"
            "In file included from a.c:1:\n"
            "./h.h:1:12: warning: unused function 'h' [-Wunused-function]\n"
            "b.c:2:20: warning: unused variable 'unused' [-Wunused-variable]\n"
            "In file included from b.c:1:\n"
            "In file included from ./inner.h:2:\n"
            "a.c:1:1: warning: a source included by another source [-Wx]\n"
            "clang: error: linker command failed with exit code 1 (use -v to see invocation)\n")
    a, b = formats.CLANG_TEXT.split(text, ["a.c", "b.c"])
    assert a + b == text
    assert [d.option for d in formats.CLANG_TEXT.parse(a).diagnostics] == [
        "-Wunused-command-line-argument", "-Wuninitialized", "-Wunused-function"]
    assert [d.option for d in formats.CLANG_TEXT.parse(b).diagnostics] == ["-Wunused-variable", "-Wx", None]
    assert formats.CLANG_TEXT.split(text, ["a.c", "a.c"]) is None


def test_a_compile_of_several_sources_to_objects_is_a_tu_each_and_values_stay_with_their_options():
    entries = [("/t", ["gcc", "-c", "-MD", "-MT", "a.o", "-MF", "deps.d", "-include", "cfg.h", "a.c", "b.c"])]
    got = tus.from_commands(entries, Path("/t"), strip_warnings=False)
    assert [(t.name, t.args) for t in got] == [
        ("a.c", ("-c", "-MD", "-MT", "a.o", "-MF", "deps.d", "-include", "cfg.h", "a.c")),
        ("b.c", ("-c", "-MD", "-MT", "a.o", "-MF", "deps.d", "-include", "cfg.h", "b.c"))]


def test_each_source_is_a_tu_with_the_exit_where_it_failed_and_a_kill_is_one_tu(tmp_path):
    def collect(status: int, text: str) -> list[tuple[str, int, int]]:
        err = tmp_path / "compile.err"
        err.write_text(text)
        record = Record(0.0, 0, status, str(tmp_path), ("/usr/bin/clang-16", "-o", "prog", "a.c", "b.c"),
                        stderr=str(err))
        return [(t.tu, t.exit, t.diagnostics) for t in runner.collect([record], tmp_path, formats.CLANG_TEXT)[1]]

    warned = ("In file included from a.c:1:\n./shared.h:2:38: warning: unused variable 'unused' [-Wunused-variable]\n"
              "In file included from b.c:1:\n./shared.h:2:38: warning: unused variable 'unused' [-Wunused-variable]\n")
    assert collect(0, warned) == [("a.c", 0, 1), ("b.c", 0, 1)]
    failed = warned + "b.c:5:1: error: expected ';' after expression\n"
    assert collect(1 << 8, failed) == [("a.c", 0, 1), ("b.c", 1, 2)]
    # killed (SIGKILL) with no error said: which source it was compiling is not known
    assert collect(9, warned) == [("a.c + b.c", 137, 2)]
