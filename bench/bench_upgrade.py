"""What ``warnscope upgrade`` costs: the builds from nothing, and the same question again
from the stored builds.

For each project of BENCH_UPGRADE_PROJECTS (default zlib and sqlite3, the autotools one)
the upgrade from BENCH_FROM (gcc-12, the host's) to BENCH_TO (gcc-14,gcc-15,gcc-16, a sid
root's) into an empty database: one run (the builds and, where a build fails, its escape
hatch), wall of the command and CPU user+sys of this process and every child it reaped
(the builds' whole process trees); then the same command BENCH_RUNS times (default 5) on
the filled database, where nothing is built: wall min / median / max. The source packages
come from the cache (fetched once before the first measured run). Run from the repository
root: ``.venv/bin/python -m bench.bench_upgrade``.
"""
from __future__ import annotations

import contextlib
import os
import tempfile
import time
from pathlib import Path

from analyzer.cli import main
from warnscope.measure import machine, run_inprocess, stats

PROJECTS = os.environ.get("BENCH_UPGRADE_PROJECTS", "zlib,sqlite3").split(",")
FROM = os.environ.get("BENCH_FROM", "gcc-12")
TO = os.environ.get("BENCH_TO", "gcc-14,gcc-15,gcc-16")
RUNS = int(os.environ.get("BENCH_RUNS", "5"))


def _upgrade(db: Path, project: str) -> int:
    """The command as a user runs it, its report thrown away (it is the same each time)."""
    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
        return main(["--db", str(db), "upgrade", "--project", project, "--from", FROM, "--to", TO,
                     "--quiet"])


def main_() -> None:
    print(f"machine: {machine()}")
    print(f"upgrade {FROM} -> {TO}")
    with tempfile.TemporaryDirectory(prefix="bench-upgrade-") as tmp:
        for project in PROJECTS:
            db = Path(tmp) / f"{project}.db"
            codes: list[int] = []
            sample = run_inprocess(lambda: codes.append(_upgrade(db, project)), include_children=True)
            print(f"{project}: from nothing: wall {sample.wall:.1f} s, CPU user+sys {sample.cpu:.1f} s "
                  f"(exit {codes[0]}; load at the end: {os.getloadavg()[0]:.2f})")
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
