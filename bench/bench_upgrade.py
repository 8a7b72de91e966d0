"""What ``warnscope upgrade`` costs: the builds from nothing, and the same question again
from the stored builds.

For each project of BENCH_UPGRADE_PROJECTS (default zlib and sqlite3, the autotools one)
the upgrade from BENCH_FROM (gcc-12, the host's) to BENCH_TO (gcc-14,gcc-15,gcc-16, a sid
root's) into an empty database: BENCH_FROM_NOTHING runs (default 1: the builds and, where
a build fails, its escape hatch's), wall of the command and CPU user+sys of this process
and every child it reaped (the builds' whole process trees), and how many builds it made
(the compared ones, and the escape hatch's: each switch alone, then the combinations);
then the same command BENCH_RUNS times (default 5) on the filled database, where nothing
is built: wall min / median / max. The source packages come from the cache (fetched once
before the first measured run). BENCH_SAME_ROOT=1 asks for compilers of one system
(``--same-root``: gcc-14 -> gcc-15 of the sid root); BENCH_UPGRADE_SOURCE (a local tree)
and BENCH_UPGRADE_BUILD (its build command, default ``make``) measure a tree instead of
the projects. Run from the repository root: ``.venv/bin/python -m bench.bench_upgrade``.
"""
from __future__ import annotations

import contextlib
import os
import tempfile
import time
from pathlib import Path

from analyzer.cli import main
from analyzer.warnings import store
from warnscope.database import connect
from warnscope.measure import machine, run_inprocess, stats

PROJECTS = os.environ.get("BENCH_UPGRADE_PROJECTS", "zlib,sqlite3").split(",")
FROM = os.environ.get("BENCH_FROM", "gcc-12")
TO = os.environ.get("BENCH_TO", "gcc-14,gcc-15,gcc-16")
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
#: runs from nothing (each into an empty database)
NOTHING = int(os.environ.get("BENCH_FROM_NOTHING", "1"))
SAME_ROOT = ["--same-root"] if os.environ.get("BENCH_SAME_ROOT") == "1" else []
#: a local tree instead of the projects, with its build command
TREE = os.environ.get("BENCH_UPGRADE_SOURCE")
BUILD = os.environ.get("BENCH_UPGRADE_BUILD", "make")


def _upgrade(db: Path, project: str) -> int:
    """The command as a user runs it, its report thrown away (it is the same each time)."""
    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
        which = ["--source", TREE, "--build", BUILD] if TREE else ["--project", project]
        return main(["--db", str(db), "upgrade", *which, "--from", FROM, "--to", TO, "--quiet",
                     *SAME_ROOT])


def _builds(db: Path, project: str) -> str:
    """The builds the run stored: the compared ones, and the escape hatch's by level."""
    conn = connect(db, write=False)
    try:
        levels = [b.level for b in store.builds(conn, project, with_diagnostics=False)]
    finally:
        conn.close()
    hatch = [lv for lv in levels if lv.startswith("upgrade-hatch")]
    return (f"{len(levels) - len(hatch)} compared, {len(hatch)} for the escape hatch"
            + (f" ({'; '.join(hatch)})" if hatch else ""))


def main_() -> None:
    print(f"machine: {machine()}")
    print(f"upgrade {FROM} -> {TO}")
    with tempfile.TemporaryDirectory(prefix="bench-upgrade-") as tmp:
        for project in [f"local:{Path(TREE).name}"] if TREE else PROJECTS:
            for n in range(NOTHING):
                db = Path(tmp) / f"{project}-{n}.db"
                codes: list[int] = []
                sample = run_inprocess(lambda: codes.append(_upgrade(db, project)), include_children=True)
                print(f"{project}: from nothing: wall {sample.wall:.1f} s, CPU user+sys {sample.cpu:.1f} s "
                      f"(exit {codes[0]}; load at the end: {os.getloadavg()[0]:.2f})")
            print(f"{project}: builds: {_builds(db, project)}")
            walls = []
            for _ in range(RUNS):
                start = time.monotonic()
                _upgrade(db, project)
                walls.append(time.monotonic() - start)
            s = stats(walls)
            print(f"{project}: from the stored builds, {RUNS} runs: wall min {s.min:.2f} / "
                  f"median {s.median:.2f} / max {s.max:.2f} s")


if __name__ == "__main__":
    main_()
