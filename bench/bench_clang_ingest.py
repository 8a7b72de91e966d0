"""Time of a clang ingest from already-extracted .inc files, per clang version.

What is timed, in this process: parse every ``Diagnostic*.inc`` and ``Version.inc``,
build the :class:`CompilerData`, and save it into a fresh SQLite database (a new
file per run, so every save really writes). Download and extraction are not timed:
they happen once per cache. CPU is user+sys of this process (``getrusage``), wall is
``time.perf_counter``. One untimed warm-up run, then N runs per version.

    .venv/bin/python -m bench.bench_clang_ingest [--runs 10] [9 13 14 15 16 19 22 23]
"""
from __future__ import annotations

import argparse
import resource
import statistics
import tempfile
import time
from pathlib import Path


from warnscope.measure import machine

from flagdb import store
from flagdb.clang_inc import parse_dir
from flagdb.clang_ingest import build, fetch_package
from warnscope.database import connect


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def one_run(major: int, directory: Path, db: Path) -> tuple[float, float, int, list[float]]:
    """(cpu, wall, flags, cpu of each phase: parse, build, save)."""
    w0, c0 = time.perf_counter(), cpu()
    tables = parse_dir(directory)
    c1 = cpu()
    data = build(f"clang-{major}", tables, "inc-dir", str(directory))
    c2 = cpu()
    conn = connect(db)
    store.save(conn, data)
    conn.close()
    c3 = cpu()
    return c3 - c0, time.perf_counter() - w0, len(data.flags), [c1 - c0, c2 - c1, c3 - c2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("versions", nargs="*", type=int, default=[9, 13, 14, 15, 16, 19, 22, 23])
    args = parser.parse_args()
    print(f"machine: {machine()}")
    print(f"timed: parse .inc + build CompilerData + save to a fresh SQLite file; "
          f"1 warm-up + {args.runs} runs each; seconds")
    print(f"{'version':8} {'flags':>6}  {'cpu min':>8} {'median':>8} {'max':>8}   "
          f"{'wall min':>8} {'median':>8} {'max':>8}   cpu median: parse / build / save")
    with tempfile.TemporaryDirectory() as tmp:
        for major in args.versions:
            directory, _ = fetch_package(major)
            one_run(major, directory, Path(tmp) / f"warm-{major}.db")
            cpus, walls, phases = [], [], []
            for i in range(args.runs):
                c, w, nflags, phase = one_run(major, directory, Path(tmp) / f"{major}-{i}.db")
                cpus.append(c)
                walls.append(w)
                phases.append(phase)
            split = " / ".join(f"{statistics.median(p[k] for p in phases):.3f}" for k in range(3))
            print(f"clang-{major:<3} {nflags:>6}  {min(cpus):8.3f} {statistics.median(cpus):8.3f} "
                  f"{max(cpus):8.3f}   {min(walls):8.3f} {statistics.median(walls):8.3f} {max(walls):8.3f}"
                  f"   {split}")


if __name__ == "__main__":
    main()
