"""UB runner against a minimal driver: the same cells, how much slower (or faster) is warnscope?

The minimal driver is what one would write without warnscope: a shell script per cell
that compiles the program (same compiler, same command line as warnscope's, including
gcc's ``-Wall -Wextra ... -fdiagnostics-format=json``) and runs it twice under
``timeout`` with warnscope's per-run time limit, the cells fed to ``xargs -P2`` (two at
a time: the cores). It has no sandbox, no cache, classifies nothing and stores nothing.

warnscope runs the same cells as a whole ``warnscope ub run`` process (``python -m
analyzer``) with warnings, sanitizers and code capture off (a cell is then exactly what
the driver does: one compile, gcc's JSON warnings included, and two sandboxed runs; no
``-g``, no objdump, which bench_ub_code measures), into an empty
database with an empty compile cache -- cold, like the driver, which caches nothing.

Both are measured with :func:`warnscope.tool.run_measured` (``os.wait4`` of the whole
process tree, monotonic wall), interleaved (driver, warnscope, driver, ...) after one
warm-up of each (BENCH_WARMUP=0: of the driver only), BENCH_RUNS times (default 3). Printed: wall and CPU user+sys, min /
median / max, cells per second, the throughput ratio warnscope / driver of each
interleaved pair (> 1: warnscope is faster) and the ratio of their CPU user+sys (the
figure that depends least on what else the machine runs: on a loaded machine a
configuration with more processes gets a larger share of it, which flatters the wall
ratio of warnscope's default -j, 2 per core, against the driver's two), with the load
average before each run.

Cells: the bundled corpus (or BENCH_UB_CORPUS) x BENCH_UB_COMPILERS (gcc-12,clang-16)
x BENCH_UB_LEVELS (O0,O2); BENCH_UB_CODE=1 keeps warnscope's generated code (its
default; the driver has none to keep); BENCH_UB_JOBS sets warnscope's -j (default: its own);
BENCH_UB_DRIVER_P the driver's parallelism (default 2). BENCH_UB_BASELINE=DIR adds a third
configuration to the interleaving: the ``warnscope`` of another source tree (say ``git
archive`` of an earlier commit), for before/after figures. BENCH_UB_FULL=1 measures, instead,
the cold default run (``warnscope ub run`` with no options: every default compiler and
level, warnings, sanitizers and code) of this tree against BENCH_UB_BASELINE, no driver
(it has no warnings step to compare with), interleaved, no warm-up (each is minutes long).
Run from the repository root: ``.venv/bin/python -m bench.bench_ub_driver``.
"""
from __future__ import annotations

import os
import shlex
import sys
import tempfile
from pathlib import Path

from analyzer.sandbox import runner as sandbox
from warnscope.measure import TreeRun, machine, stats
from warnscope.tool import run_measured
from analyzer.runtime.toolchain import Toolchain, resolve
from analyzer.ub.compile import normalize_level
from analyzer.ub.warnflags import gcc_warning_flags
from analyzer.ub.corpus import Case, bundled_corpus, discover
from analyzer.ub.run import DEFAULT_RUNS

CORPUS = os.environ.get("BENCH_UB_CORPUS") or str(bundled_corpus())
COMPILERS = os.environ.get("BENCH_UB_COMPILERS", "gcc-12,clang-16").split(",")
LEVELS = [normalize_level(l) for l in os.environ.get("BENCH_UB_LEVELS", "O0,O2").split(",")]
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
#: 0: warm up the driver only (the page cache of the compilers), not each configuration
WARMUP = os.environ.get("BENCH_WARMUP", "1") != "0"
JOBS = os.environ.get("BENCH_UB_JOBS")
PARALLEL = int(os.environ.get("BENCH_UB_DRIVER_P", "2"))
BASELINE = os.environ.get("BENCH_UB_BASELINE")
FULL = os.environ.get("BENCH_UB_FULL") == "1"
#: 1: warnscope keeps each cell's generated code (-g and objdump), as ``ub run`` does by
#: default; the driver still disassembles nothing
CODE = os.environ.get("BENCH_UB_CODE") == "1"
TIMEOUT = sandbox.Limits().timeout
#: The tree whose ``analyzer`` ``python -m analyzer`` imports (run with it as cwd).
THIS_TREE = Path(__file__).resolve().parents[1]


def compile_argv(case: Case, comp: Toolchain, level: str) -> list[str]:
    """The command line warnscope's compile_program runs for a cell (same flags)."""
    args = [f"-std={case.std}", level]
    if comp.family == "gcc":
        args += gcc_warning_flags() + ["-fdiagnostics-format=json"]
    return [comp.driver(case.language), "-pipe", *args, case.path.name, "-o", "a.out",
            *case.link]


def write_driver(root: Path, cases: list[Case], compilers: list[Toolchain]) -> tuple[Path, int]:
    """One shell script per cell under ``root/cells``, a list of them, and the xargs line.
    Returns the driver script and the number of cells."""
    cells = root / "cells"
    cells.mkdir()
    names = []
    n = 0
    for case in cases:
        for comp in compilers:
            for level in LEVELS:
                n += 1
                d = cells / str(n)
                d.mkdir()
                (d / case.path.name).write_bytes(case.source)
                run = " ".join(["./a.out", *map(shlex.quote, case.args)])
                (d / "cell.sh").write_text(
                    f"cd {shlex.quote(str(d))} || exit 1\n"
                    f"{shlex.join(compile_argv(case, comp, level))} </dev/null 2>compile.log"
                    " || exit 0\n"
                    f"timeout {TIMEOUT:g} {run} </dev/null >out1 2>err1\n"
                    f"echo $? >status1\n"
                    f"timeout {TIMEOUT:g} {run} </dev/null >out2 2>err2\n"
                    f"echo $? >status2\n")
                names.append(f"{d}/cell.sh")
    (root / "cells.txt").write_text("\n".join(names) + "\n")
    driver = root / "driver.sh"
    driver.write_text(
        f"find {shlex.quote(str(cells))} -name a.out -delete\n"
        f"xargs -d '\\n' -P{PARALLEL} -n1 sh < {shlex.quote(str(root / 'cells.txt'))}\n")
    return driver, n


def warnscope_argv(db: Path) -> list[str]:
    if FULL:
        return [sys.executable, "-m", "analyzer", "--db", str(db), "ub", "run"]
    argv = [sys.executable, "-m", "analyzer", "--db", str(db), "ub", "run", "--corpus", CORPUS,
            "--compilers", ",".join(COMPILERS), "--levels", ",".join(LEVELS),
            "--no-warnings", "--no-sanitizers", *([] if CODE else ["--no-code"]),
            "--runs", str(DEFAULT_RUNS),
            "--timeout", f"{TIMEOUT:g}"]
    return argv + (["-j", JOBS] if JOBS else [])


def run_warnscope(tmp: Path, i: int | str, tree: Path = THIS_TREE) -> TreeRun:
    """A cold ``warnscope ub run`` of the code in ``tree``: a fresh cache directory and a
    fresh database."""
    env = dict(os.environ, WARNSCOPE_CACHE=str(tmp / f"cache{i}"))
    env.pop("PYTHONPATH", None)
    r = run_measured(warnscope_argv(tmp / f"run{i}.db"), cwd=tree, env=env,
                     output=tmp / "warnscope.log")
    if r.exit != 0:
        raise SystemExit(f"warnscope ub run exited {r.exit}; see {tmp / 'warnscope.log'}")
    return r


def line(name: str, runs: list[TreeRun], cells: int) -> str:
    wall, cpu = stats([r.wall for r in runs]), stats([r.cpu for r in runs])
    rate = stats([cells / r.wall for r in runs])
    return (f"{name}: {len(runs)} runs: wall min {wall.min:.1f} / median {wall.median:.1f} / "
            f"max {wall.max:.1f} s; CPU user+sys min {cpu.min:.1f} / median {cpu.median:.1f} / "
            f"max {cpu.max:.1f} s; cells/s min {rate.min:.1f} / median {rate.median:.1f} / "
            f"max {rate.max:.1f}")


def main() -> None:
    compilers = [resolve(c) for c in COMPILERS]
    cases = discover(CORPUS)
    print(f"machine: {machine()}")
    print(f"compilers: {'; '.join(c.version for c in compilers)}")
    with tempfile.TemporaryDirectory(prefix="bench-ub-driver-") as name:
        tmp = Path(name)
        driver, cells = write_driver(tmp, cases, compilers)
        print(f"cells: {len(cases)} programs x {len(compilers)} compilers x {len(LEVELS)} "
              f"levels = {cells}, {DEFAULT_RUNS} runs each, timeout {TIMEOUT:g} s; "
              f"driver xargs -P{PARALLEL}, warnscope -j {JOBS or 'default'}"
              f"{', code kept' if CODE else ', --no-code'}")
        configs = [("driver", lambda i: run_measured(["sh", str(driver)])),
                   ("warnscope", lambda i: run_warnscope(tmp, i))]
        if BASELINE:
            configs.append(("baseline", lambda i: run_warnscope(tmp, f"b{i}", Path(BASELINE))))
        if FULL:  # the baseline is the reference; the driver has no full run
            if not BASELINE:
                raise SystemExit("BENCH_UB_FULL=1 needs BENCH_UB_BASELINE")
            configs = [configs[2], configs[1]]
            print("the default run of every default compiler and level, cold: this tree "
                  "(warnscope) against the baseline")
        for _, fn in configs[:0 if FULL else None if WARMUP else 1]:  # warm-up: page cache
            fn(0)
        runs: dict[str, list[TreeRun]] = {name: [] for name, _ in configs}
        for i in range(1, RUNS + 1):
            for name, fn in configs:
                r = fn(i)
                runs[name].append(r)
                print(f"  run {i} {name}: wall {r.wall:.1f} s, CPU user+sys {r.cpu:.1f} s "
                      f"(load {r.load1:.2f} at start)", flush=True)
        ref = configs[0][0]
        if FULL:  # the cells of the default run, as stored
            import sqlite3
            with sqlite3.connect(tmp / "run1.db") as db:
                cells = db.execute("SELECT count(*) FROM ub_cell").fetchone()[0]
            print(f"cells of the default run: {cells}")
        for name, _ in configs:
            print(line(f"{name:9}", runs[name], cells))
        for name, _ in configs[1:]:
            r = stats([d.wall / w.wall for d, w in zip(runs[ref], runs[name])])
            print(f"throughput {name} / {ref} (per interleaved round): min {r.min:.2f} / "
                  f"median {r.median:.2f} / max {r.max:.2f}")
            c = stats([w.cpu / d.cpu for d, w in zip(runs[ref], runs[name])])
            print(f"CPU user+sys {name} / {ref} (per interleaved round; < 1: {name} uses "
                  f"less): min {c.min:.2f} / median {c.median:.2f} / max {c.max:.2f}")
        print(f"machine after: {machine()}")


if __name__ == "__main__":
    main()
