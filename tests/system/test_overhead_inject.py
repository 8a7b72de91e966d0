"""Overhead studies of the build a user runs: the level's flags through the build system
(``--inject build``) beside the compiler-only control (``--inject wrapper``), proven to
arrive, and every process of each build from the kernel's account, summing to the
tree's ``wait4`` rusage. Real builds: zlib (make), lua5.4 (libtool), a CMake project,
a project whose compiles go through a shell layer, and one that drops the flags.

Structure and sanity only; how much each costs is for bench/.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from analyzer.cli import main
from warnscope.accounting import TOLERANCE

pytestmark = pytest.mark.skipif(not shutil.which("gcc-12"), reason="the studies need gcc-12")
ACCOUNTING = os.geteuid() == 0 and shutil.which("bpftrace") is not None


def _run(db: Path, capsys, *args: str) -> tuple[int, list[dict], str]:
    capsys.readouterr()
    code = main(["--db", str(db), "overhead", "run", "--compilers", "gcc-12", "--json", *args])
    out, err = capsys.readouterr()
    return code, (json.loads(out)["cells"] if out.strip() else []), err


def _accounted(cell: dict) -> None:
    """``by_process`` is there and sums to the tree's rusage within 1 % in every run."""
    if not ACCOUNTING:
        assert cell["by_process"] is None
        return
    assert cell["by_process"], cell
    residual = cell["residual_s"]
    assert max(abs(residual["min"]), abs(residual["max"])) <= TOLERANCE * cell["cpu_s"]["min"] + 0.005, cell
    total = sum(p["cpu_s"]["median"] for p in cell["by_process"].values())
    assert abs(total - cell["cpu_s"]["median"]) <= 0.02 * cell["cpu_s"]["median"] + 0.01


def test_zlib_both_ways_in_one_study(gcc_db_copy, capsys):
    code, cells, err = _run(gcc_db_copy, capsys, "--project", "zlib", "--levels", "off,all", "--runs", "2",
                            "--opt", "-O0", "--inject", "both")
    assert code == 0, err
    by = {(c["level"], c["inject"]): c for c in cells}
    assert set(by) == {(level, inject) for level in ("off", "all") for inject in ("build", "wrapper")}
    for cell in cells:
        assert cell["status"] == "ok" and cell["runs"] == 2, cell
        _accounted(cell)
        if ACCOUNTING:
            names = set(cell["by_process"])
            assert {"cc1", "as", "make"} <= names, names
    # the same warnings either way: the flags arrived in both (and the proof held)
    assert by[("all", "build")]["warnings"] == by[("all", "wrapper")]["warnings"] > 0
    assert by[("off", "build")]["warnings"] == 0
    # a rerun resumes: all four stored
    code, _, err = _run(gcc_db_copy, capsys, "--project", "zlib", "--levels", "off,all", "--runs", "2",
                        "--opt", "-O0", "--inject", "both")
    assert code == 0 and err.count("stored already, skipped") == 4, err
    capsys.readouterr()
    assert main(["--db", str(gcc_db_copy), "overhead", "report", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert {r["level"] for r in rows} == {"off", "all"} and len(rows) == 4


LAYER = """#!/bin/sh
# a build layer that does work per argument, as generators and compiler wrappers do
for arg in "$@"; do
  n=0; while [ $n -lt 300 ]; do n=$((n+1)); done
done
exec "$@"
"""

LAYER_MAKEFILE = """OBJS := $(patsubst %.c,%.o,$(wildcard *.c))
all: $(OBJS)
%.o: %.c
\t$(SHELL) ./layer.sh $(CC) $(CFLAGS) -c $< -o $@
clean:
\trm -f *.o
"""


def _tree(root: Path, makefile: str, files: int = 12) -> Path:
    root.mkdir()
    for i in range(files):
        (root / f"f{i}.c").write_text(f"int f{i}(int x) {{ int unused; return x * {i}; }}\n")
    (root / "layer.sh").write_text(LAYER)
    (root / "Makefile").write_text(makefile)
    return root


@pytest.mark.skipif(not ACCOUNTING, reason="the per-process table needs root and bpftrace")
def test_a_layer_that_works_per_argument_costs_more_only_when_the_flags_pass_through_it(
        gcc_db_copy, capsys, tmp_path):
    tree = _tree(tmp_path / "layered", LAYER_MAKEFILE)
    code, cells, err = _run(gcc_db_copy, capsys, "--source", str(tree), "--build", "make -j{jobs} SHELL=/bin/sh",
                            "--clean", "make clean", "--levels", "off,all", "--runs", "2", "--inject", "both")
    assert code == 0, err
    by = {(c["level"], c["inject"]): c for c in cells}
    layer = {k: c["by_process"].get("layer.sh (sh)") for k, c in by.items()}
    assert all(layer.values()), {k: list(c["by_process"]) for k, c in by.items()}
    for cell in cells:
        _accounted(cell)
        assert layer[(cell["level"], cell["inject"])]["processes"]["median"] == 12
    cost = {k: v["cpu_s"]["median"] for k, v in layer.items()}
    # through the build, the layer handles every flag of 'all' (hundreds): it grows;
    # through the wrapper, it sees the same arguments at every level
    assert cost[("all", "build")] > 3 * cost[("off", "build")], cost
    added = {inject: cost[("all", inject)] - cost[("off", inject)] for inject in ("build", "wrapper")}
    # (a few ms of shell start-up jitter either way, against the build way's hundreds)
    assert added["wrapper"] < 0.1 * added["build"], cost


def test_a_build_that_drops_the_flags_is_a_failed_cell_saying_so(gcc_db_copy, capsys, tmp_path):
    makefile = LAYER_MAKEFILE.replace("$(CFLAGS)", "-O2")  # ignores what the user passes
    tree = _tree(tmp_path / "deaf", makefile, files=5)
    code, cells, err = _run(gcc_db_copy, capsys, "--source", str(tree), "--build", "make SHELL=/bin/sh",
                            "--clean", "make clean", "--levels", "off,wall", "--runs", "1", "--inject", "both")
    assert code == 1
    by = {(c["level"], c["inject"]): c for c in cells}
    for level in ("off", "wall"):
        failed = by[(level, "build")]
        assert failed["status"] == "failed" and failed["runs"] == 0
        assert failed["error"].startswith("5 of 5 compiles lacked the level's flags"), failed["error"]
        assert by[(level, "wrapper")]["status"] == "ok"  # the wrapper appends them itself


CMAKELISTS = """cmake_minimum_required(VERSION 3.13)
project(tiny C)
add_library(tiny STATIC a.c b.c c.c)
"""


def test_a_cmake_project_configured_per_level(gcc_db_copy, capsys, tmp_path):
    tree = tmp_path / "cmake"
    tree.mkdir()
    (tree / "CMakeLists.txt").write_text(CMAKELISTS)
    for name in "abc":
        (tree / f"{name}.c").write_text(f"int {name}(int x) {{ int y; return x; }}\n")
    configure = ('cmake -S . -B _b -G "Unix Makefiles" -DCMAKE_C_COMPILER="$CC" '
                 '-DCMAKE_C_FLAGS="{cflags}"')
    code, cells, err = _run(gcc_db_copy, capsys, "--source", str(tree), "--configure", configure,
                            "--build", "cmake --build _b -j{jobs}", "--clean", "cmake --build _b --target clean",
                            "--levels", "off,wextra", "--runs", "1", "--inject", "both")
    assert code == 0, err
    by = {(c["level"], c["inject"]): c for c in cells}
    assert by[("wextra", "build")]["warnings"] == by[("wextra", "wrapper")]["warnings"] >= 3
    for cell in cells:
        _accounted(cell)
        if ACCOUNTING:
            assert "cmake" in cell["by_process"] and "cc1" in cell["by_process"]


@pytest.mark.skipif(not shutil.which("libtool"), reason="lua5.4's Makefile needs libtool")
def test_lua_through_libtool_both_ways(gcc_db_copy, capsys):
    """At `all`, whose C and C++ lists differ: Debian's Makefile compiles the C++ objects
    with $(CFLAGS), so through the build they carry the C list -- what a user's build
    does -- and that is what arrives (the recipe says so), not a failed cell."""
    code, cells, err = _run(gcc_db_copy, capsys, "--project", "lua5.4", "--levels", "all", "--runs", "1",
                            "--opt", "-O0", "--inject", "both")
    assert code == 0, err
    by = {(c["level"], c["inject"]): c for c in cells}
    assert set(by) == {("all", "build"), ("all", "wrapper")} and all(c["status"] == "ok" for c in cells)
    for cell in cells:
        _accounted(cell)
        if ACCOUNTING:
            assert "libtool" in cell["by_process"], list(cell["by_process"])
            assert "cc1plus" in cell["by_process"]  # liblua-c++: the C sources built as C++


# ------------------------------------------------------------------ bad input

def test_inject_refusals(gcc_db_copy, fails_on, tmp_path):
    ccdb = tmp_path / "compile_commands.json"
    (tmp_path / "a.c").write_text("int a;\n")
    ccdb.write_text(json.dumps([{"directory": str(tmp_path), "file": "a.c",
                                 "arguments": ["cc", "-c", "a.c"]}]))
    err = fails_on(gcc_db_copy, "overhead", "run", "--compile-commands", str(ccdb), "--inject", "build")
    assert "no build system to pass flags through" in err
    err = fails_on(gcc_db_copy, "overhead", "run", "--mode", "tu", "--inject", "both")
    assert "--inject wrapper" in err
    err = fails_on(gcc_db_copy, "overhead", "run", "--inject", "sideways")
    assert "sideways" in err
