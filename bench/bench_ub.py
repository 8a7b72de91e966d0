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
``.venv/bin/python -m bench.bench_ub``.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from warnscope.measure import Sample, machine, run_inprocess, stats
from analyzer.runtime.toolchain import resolve
from analyzer.ub import run as ub_run
from analyzer.runtime.toolchain import resolve_list
from analyzer.ub.corpus import bundled_corpus
from warnscope.database import connect

CORPUS = os.environ.get("BENCH_UB_CORPUS") or str(bundled_corpus())
COMPILERS = os.environ.get("BENCH_UB_COMPILERS", "gcc-12,clang-16").split(",")
LEVELS = os.environ.get("BENCH_UB_LEVELS", "O0,O2").split(",")
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
JOBS = int(os.environ["BENCH_UB_JOBS"]) if os.environ.get("BENCH_UB_JOBS") else None


def timed_run(db: Path) -> tuple[ub_run.RunSummary, Sample]:
    """One ``ub_run.run`` into ``db``: CPU of this process and the workers, compilers and
    programs it reaped; monotonic wall."""
    conn = connect(db)
    out: list[ub_run.RunSummary] = []
    sample = run_inprocess(lambda: out.append(ub_run.run(
        conn, CORPUS, resolve_list(COMPILERS), LEVELS, jobs=JOBS, warnings=False, sanitizers=False)),
        include_children=True)
    conn.close()
    return out[0], sample


def main() -> None:
    versions = [resolve(c).version for c in COMPILERS]
    print(f"machine: {machine()}")
    print(f"compilers: {'; '.join(versions)}")
    with tempfile.TemporaryDirectory(prefix="bench-ub-") as tmp:
        os.environ["WARNSCOPE_CACHE"] = str(Path(tmp) / "cache")
        s, m = timed_run(Path(tmp) / "cold.db")
        print(f"corpus {CORPUS}: {s.cases} programs x {len(COMPILERS)} compilers x "
              f"{len(LEVELS)} levels = {s.cells} cells, {ub_run.DEFAULT_RUNS} runs each, "
              f"jobs {JOBS or 'default'}")
        print(f"cold (compile + run, empty cache): 1 run of {s.cells_run} cells "
              f"({s.compiled} compiled): wall {m.wall:.1f} s, CPU user+sys {m.cpu:.1f} s, "
              f"{s.cells_run / m.wall:.1f} cells/s  (goal >= 15)")
        print(f"  outcomes: { {str(k): v for k, v in s.outcomes.items()} }")
        s, m = timed_run(Path(tmp) / "warm.db")
        print(f"warm compile cache, empty database (run only): 1 run of {s.cells_run} cells "
              f"({s.compiled} compiled): wall {m.wall:.1f} s, CPU user+sys {m.cpu:.1f} s, "
              f"{s.cells_run / m.wall:.1f} cells/s")
        timed_run(Path(tmp) / "warm.db")  # warm-up
        samples = []
        for _ in range(RUNS):
            s, m = timed_run(Path(tmp) / "warm.db")
            assert s.cells_run == 0 and s.compiled == 0
            samples.append(m)
        wall, cpu = stats([m.wall for m in samples]), stats([m.cpu for m in samples])
        print(f"unchanged rerun ({s.cells} cells, nothing to do): {RUNS} runs after 1 warm-up: "
              f"wall min {wall.min:.2f} / median {wall.median:.2f} / max {wall.max:.2f} s, "
              f"CPU user+sys min {cpu.min:.2f} / median {cpu.median:.2f} / max {cpu.max:.2f} s"
              "  (goal <= 2 s)")


if __name__ == "__main__":
    main()
