"""How the runner names what it read: a TU from its compile record, a diagnostic's file
relative to the tree, the compiler's own headers without their version."""
from __future__ import annotations

from pathlib import Path

from analyzer.projects import arrival
from analyzer.projects.wrapper import Record
from analyzer.warnings import formats, runner
from warnscope.diagnostics import RawDiagnostic


def _record(cwd: str, *args: str) -> Record:
    return Record(0.0, 0, 0, cwd, ("/usr/bin/gcc-12", *args))


def tu_names(records: list[Record], tree: Path) -> list[str]:
    """The TUs the runner reads from ``records`` (no output captured: one TU per record)."""
    return [t.tu for t in runner.collect(records, tree, formats.GCC_JSON)[1]]


def test_a_source_compiled_twice_is_two_tus_named_by_their_objects(tmp_path):
    records = [_record(str(tmp_path), "-c", "adler32.c", "-o", "adler32.o"),
               _record(str(tmp_path), "-fPIC", "-c", "adler32.c", "-oobjs/adler32.lo"),
               _record(str(tmp_path / "src"), "-c", "../crc32.c")]
    assert tu_names(records, tmp_path) == ["adler32.c -> adler32.o", "adler32.c -> objs/adler32.lo",
                                           "crc32.c"]


def test_a_compile_and_link_is_a_tu_and_a_link_or_preprocessing_is_not(tmp_path):
    # sqlite3's build: lemon and the shell are compiled and linked in one step
    lemon = ("-O2", "-Wall", "-o", "lemon", str(tmp_path / "tool" / "lemon.c"))
    shell = ("-O2", "-o", "sqlite3", "shell.c", "sqlite3.c", "-lm")
    assert arrival.compiles_source(lemon) and arrival.compiles_source(shell)
    assert arrival.compiles_source(("-c", "a.c", "-o", "a.o"))
    assert not arrival.compiles_source(("-o", "lua", "lua.o", "liblua.a", "-lm"))
    assert not arrival.compiles_source(("-E", "a.c"))
    assert not arrival.compiles_source(("-MM", "a.c"))
    assert not arrival.compiles_source(("--version",))
    records = [_record(str(tmp_path), *lemon), _record(str(tmp_path), *shell)]
    # a compile of several sources whose output was not told apart per source: one TU
    assert tu_names(records, tmp_path) == ["tool/lemon.c", "shell.c + sqlite3.c"]


def test_files_relative_to_the_tree_system_and_compiler_headers_not(tmp_path):
    def file(path: str, cwd: Path = tmp_path / "src") -> str | None:
        return runner._file(RawDiagnostic("-Wx", "warning", path, 1, 1, "m"), str(cwd), tmp_path)

    assert file("../zlib.h") == "zlib.h"
    assert file("./inflate.c") == "src/inflate.c"
    assert file(str(tmp_path / "src" / "a.h")) == "src/a.h"
    assert file("/usr/include/stdio.h") == "/usr/include/stdio.h"
    assert file("/usr/lib/gcc/x86_64-linux-gnu/12/include/stddef.h") == "<gcc>/include/stddef.h"
    assert file("/usr/lib/gcc/x86_64-linux-gnu/11/include-fixed/limits.h") == "<gcc>/include-fixed/limits.h"
    assert file("/usr/lib/llvm-16/lib/clang/16/include/stdint.h") == "<clang>/include/stdint.h"
    assert file("<command-line>") == "<command-line>"
    assert runner._file(RawDiagnostic("-Wx", "warning", None, None, None, "m"), "/", tmp_path) is None
