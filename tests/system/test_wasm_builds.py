"""The wasm32 compiler in the families that build projects, the real thing: ``warnings run``
builds a small tree with clang-16 for the host and for ``wasm32-wasi`` (the launcher that
adds WASI's flags), and each build's diagnostics are its target's: ``long`` has 64 bits on
x86-64 and 32 on wasm32, so one conversion shortens on the one and changes signedness on
the other; a build that runs a program it built fails there, as a cross build does. Skips,
naming it, without clang-16 or a wasm package.
"""
from __future__ import annotations

import json

import pytest



pytestmark = pytest.mark.usefixtures("wasm_target")

SOURCE = ("int narrow(long x) { int y = x; return y; }\n"
          "int main(void) { unsigned u = 1; return narrow(u) < 0; }\n")


def _options(doc: dict, compiler: str) -> set[str]:
    (build,) = [b for b in doc["builds"] if b["compiler"] == compiler]
    assert build["status"] == "ok", build
    return {o["option"] for o in build["by_option"]}


def test_a_wasm32_build_has_its_target_s_diagnostics(tmp_path, cli_at):
    tree = tmp_path / "narrow"
    tree.mkdir()
    (tree / "a.c").write_text(SOURCE)
    (tree / "Makefile").write_text("all: a\na: a.o\n\t$(CC) $(CFLAGS) -o a a.o\n")
    db = tmp_path / "w.db"
    code, out, err = cli_at(db)("warnings", "run", "--source", str(tree), "--build",
                                "make -j{jobs}", "--lang", "c", "--compilers",
                                "clang-16,wasm32-wasi-clang-16", "--levels", "all")
    assert code == 0, err
    code, out, err = cli_at(db)("warnings", "report", "--project", "local:narrow", "--json")
    assert code == 0, err
    doc = json.loads(out)
    host, target = _options(doc, "clang-16"), _options(doc, "clang-16@wasm32-wasi")
    assert "-Wshorten-64-to-32" in host and "-Wsign-conversion" not in host
    assert "-Wsign-conversion" in target and "-Wshorten-64-to-32" not in target
    # the program the build linked is a wasm module, not an x86-64 executable: the build's
    # run of it fails (an x86-64 build of it exits 0)
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "a.c").write_text(SOURCE)
    (runs / "Makefile").write_text("all: a\n\t./a\na: a.o\n\t$(CC) $(CFLAGS) -o a a.o\n")
    code, out, err = cli_at(db)("warnings", "run", "--source", str(runs), "--build",
                                "make -j{jobs}", "--lang", "c", "--compilers",
                                "clang-16@wasm32-wasi", "--levels", "wall")
    assert code != 0 and "build failed" in err and "./a" in err, err
