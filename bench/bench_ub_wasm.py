"""What the wasm32 column costs the UB runner, and whether the host's column got slower.

1. columns: the corpus cases with a wasm32 output and their fixed twins, at -O0 and -O2,
   by ``ub_run.run`` (the UB runner: sandboxed compile, the generated code kept, two runs
   per cell; warnings and sanitizers off), once with clang-16 and once with
   clang-16@wasm32-wasi (Wasmtime), an empty compile cache and database each time, the
   two interleaved, BENCH_RUNS rounds (default 3). Per cell: wall, and CPU user+sys of
   this process and every child it reaped (workers, compilers, the sandboxed runs);
   min / median / max.
2. host before/after (BENCH_BASE: a tree of an earlier commit, e.g. ``git archive C | tar
   -x -C DIR``): ``warnscope ub run --compilers clang-16`` on the same cells from this tree
   and from that one, each a fresh process (its own code first on sys.path) with an empty
   cache and database, interleaved, BENCH_RUNS rounds; wall and CPU user+sys of the
   process tree it reaped (``warnscope.tool``'s wait4), per cell.

BENCH_ONLY_HOST=1 runs part 2 alone. The load average is printed at the start and the end. Run from the repository root:
``.venv/bin/python -m bench.bench_ub_wasm``.
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

from analyzer.runtime.toolchain import resolve
from analyzer.sandbox import wasm
from analyzer.ub import run as ub_run
from analyzer.ub.corpus import bundled_corpus, load
from warnscope import tool
from warnscope.database import connect
from warnscope.measure import machine, run_inprocess, stats

HOST, WASM = "clang-16", "clang-16@wasm32-wasi"
LEVELS = ["O0", "O2"]
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
BASE = os.environ.get("BENCH_BASE")
#: BENCH_ONLY_HOST=1: part 2 alone
ONLY_HOST = os.environ.get("BENCH_ONLY_HOST") == "1"
ROOT = Path(__file__).resolve().parents[1]


def cases() -> list[str]:
    """The cases with a wasm32 output (their twins run with them)."""
    return [c.id for c in load(bundled_corpus()).cases if "wasm32" in c.expected_by_arch]


def column(compiler: str, ids: list[str], tmp: Path, n: int):
    """One cold ``ub run`` of ``compiler`` in this process: (cells, its sample)."""
    cache = tmp / f"cache-{n}"
    os.environ["WARNSCOPE_CACHE"] = str(cache)
    conn = connect(tmp / f"{compiler}-{n}.db")
    out: list = []
    sample = run_inprocess(lambda: out.append(ub_run.run(
        conn, bundled_corpus(), [compiler], LEVELS, warnings=False, sanitizers=False,
        case_ids=ids)), include_children=True)
    conn.close()
    shutil.rmtree(cache, ignore_errors=True)
    if out[0].failures:
        raise SystemExit(f"{compiler}: {len(out[0].failures)} jobs failed")
    return out[0].cells, sample


def process(tree: Path, ids: list[str], tmp: Path, n: int) -> tuple[float, float]:
    """One cold ``warnscope ub run --compilers clang-16`` run from ``tree``: (wall, CPU)."""
    cache, db = tmp / f"pcache-{n}", tmp / f"p-{tree.name}-{n}.db"
    argv = [sys.executable, "-m", "analyzer", "--db", str(db), "ub", "run", "--compilers",
            HOST, "--levels", ",".join(LEVELS), "--no-warnings", "--no-sanitizers",
            *[w for i in ids for w in ("--case", i)]]
    env = {**os.environ, "WARNSCOPE_CACHE": str(cache), "PYTHONPATH": str(tree)}
    done = tool.run(argv, timeout=3600, cwd=tree, env=env)   # its tree measured by wait4
    shutil.rmtree(cache, ignore_errors=True)
    return done.usage.wall, done.usage.cpu


def fmt(values: list[float], unit: str = "ms", scale: float = 1000.0, digits: int = 0) -> str:
    s = stats(values)
    return (f"{s.min * scale:.{digits}f} / {s.median * scale:.{digits}f} / "
            f"{s.max * scale:.{digits}f} {unit}")


def main() -> None:
    wasm.require()
    host, target = resolve(HOST), resolve(WASM)
    ids = cases()
    print(f"machine: {machine()}")
    print(f"load average at the start: {os.getloadavg()}")
    print(f"host: {host.version}; target: {target.version}, {target.where}")
    with tempfile.TemporaryDirectory(prefix="bench-ub-wasm-") as tmp_name:
        tmp = Path(tmp_name)
        walls: dict[str, list[float]] = {HOST: [], WASM: []}
        cpus: dict[str, list[float]] = {HOST: [], WASM: []}
        cells = len(ub_run.chosen(load(bundled_corpus()), ids)) * len(LEVELS)
        for n in range(RUNS if not ONLY_HOST else 0):
            for name in (HOST, WASM) if n % 2 == 0 else (WASM, HOST):
                _, sample = column(name, ids, tmp, n)
                walls[name].append(sample.wall / cells)
                cpus[name].append(sample.cpu / cells)
        if not ONLY_HOST:
            print(f"1. {cells} cells per column ({len(ids)} cases and their twins x {LEVELS}), "
                  f"{RUNS} interleaved rounds, cold; per cell min / median / max")
            for name in walls:
                print(f"  {name:22} wall {fmt(walls[name])}; CPU user+sys {fmt(cpus[name])}")
            ratio = [w / h for w, h in zip(cpus[WASM], cpus[HOST])]
            print(f"  CPU ratio wasm32 / host per round: {fmt(ratio, 'x', 1.0, 2)}")
        if BASE:
            trees = {"this tree": ROOT, "base": Path(BASE).resolve()}
            pw: dict[str, list[float]] = {k: [] for k in trees}
            pc: dict[str, list[float]] = {k: [] for k in trees}
            for n in range(RUNS):
                order = list(trees) if n % 2 == 0 else list(reversed(trees))
                for name in order:
                    wall, cpu = process(trees[name], ids, tmp, n)
                    pw[name].append(wall / cells)
                    pc[name].append(cpu / cells)
            print(f"2. the host column, {cells} cells, a fresh process per run, {RUNS} "
                  f"interleaved rounds; per cell min / median / max")
            for name in trees:
                print(f"  {name:10} ({trees[name]}) wall {fmt(pw[name])}; "
                      f"CPU user+sys {fmt(pc[name])}")
    print(f"load average at the end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
