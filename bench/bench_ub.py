"""UB runner throughput: compile+run cells per second, and the unchanged rerun.

Three figures, each on the bundled corpus (or BENCH_UB_CORPUS) with the compilers
and levels of BENCH_UB_COMPILERS / BENCH_UB_LEVELS (default: every corpus program
x gcc-12, clang-16 x -O0, -O2), warnings and sanitizers off so that a cell is
exactly one compile and the runs of one program:

1. cold: empty compile cache, empty database -- compile + run, cells per second;
2. warm compile cache, empty database -- run only, cells per second;
3. unchanged rerun -- everything stored, BENCH_RUNS times: wall and CPU of
   ``ub_run.run`` (min / median / max), the goal being <= 2 s for the whole corpus.

Wall is the monotonic clock around ``ub_run.run``; CPU is user+sys of this process
plus its reaped children (pool workers, compilers and programs). Each cold/warm
figure is one run (a run is hundreds of cells). Run from the repository root:
``python3 bench/bench_ub.py``.
"""
from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer import ub_run  # noqa: E402
from analyzer.measure import machine  # noqa: E402
from flagdb.db import connect  # noqa: E402

CORPUS = os.environ.get("BENCH_UB_CORPUS", str(Path(__file__).resolve().parent.parent / "corpus"))
COMPILERS = os.environ.get("BENCH_UB_COMPILERS", "gcc-12,clang-16").split(",")
LEVELS = os.environ.get("BENCH_UB_LEVELS", "O0,O2").split(",")
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
JOBS = int(os.environ["BENCH_UB_JOBS"]) if os.environ.get("BENCH_UB_JOBS") else None


def cpu_now() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def timed_run(db: Path) -> tuple[ub_run.RunSummary, float, float]:
    conn = connect(db)
    cpu0, t0 = cpu_now(), time.monotonic()
    summary = ub_run.run(conn, CORPUS, COMPILERS, LEVELS, jobs=JOBS, warnings=False,
                         sanitizers=False)
    wall, cpu = time.monotonic() - t0, cpu_now() - cpu0
    conn.close()
    return summary, wall, cpu


def main() -> None:
    versions = [subprocess.run([c, "--version"], capture_output=True, text=True).stdout
                .splitlines()[0] for c in COMPILERS]
    print(f"machine: {machine()}")
    print(f"compilers: {'; '.join(versions)}")
    with tempfile.TemporaryDirectory(prefix="bench-ub-") as tmp:
        os.environ["WARNSCOPE_CACHE"] = str(Path(tmp) / "cache")
        s, wall, cpu = timed_run(Path(tmp) / "cold.db")
        print(f"corpus {CORPUS}: {s.cases} programs x {len(COMPILERS)} compilers x "
              f"{len(LEVELS)} levels = {s.cells} cells, {ub_run.DEFAULT_RUNS} runs each, "
              f"jobs {JOBS or 'default'}")
        print(f"cold (compile + run, empty cache): 1 run of {s.cells_run} cells "
              f"({s.compiled} compiled): wall {wall:.1f} s, CPU user+sys {cpu:.1f} s, "
              f"{s.cells_run / wall:.1f} cells/s  (goal >= 15)")
        print(f"  outcomes: {s.outcomes}")
        s, wall, cpu = timed_run(Path(tmp) / "warm.db")
        print(f"warm compile cache, empty database (run only): 1 run of {s.cells_run} cells "
              f"({s.compiled} compiled): wall {wall:.1f} s, CPU user+sys {cpu:.1f} s, "
              f"{s.cells_run / wall:.1f} cells/s")
        walls, cpus = [], []
        timed_run(Path(tmp) / "warm.db")  # warm-up
        for _ in range(RUNS):
            s, wall, cpu = timed_run(Path(tmp) / "warm.db")
            assert s.cells_run == 0 and s.compiled == 0
            walls.append(wall)
            cpus.append(cpu)
        print(f"unchanged rerun ({s.cells} cells, nothing to do): {RUNS} runs after 1 warm-up: "
              f"wall min {min(walls):.2f} / median {statistics.median(walls):.2f} / max "
              f"{max(walls):.2f} s, CPU user+sys min {min(cpus):.2f} / median "
              f"{statistics.median(cpus):.2f} / max {max(cpus):.2f} s  (goal <= 2 s)")


if __name__ == "__main__":
    main()
