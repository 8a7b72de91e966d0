"""Benchmark of ``warnscope advise``: the advice for zlib and five compilers (gcc-11,
gcc-12, clang-14, clang-16, clang-19) from stored builds, as a whole ``warnscope``
process (interpreter start-up, reading the five compilers' flag data, zlib's five
builds at ``all``, the UB results, rows, rules, text) and in process (the
``advise`` call alone, on an open connection).

The database is made first and not timed: the five compilers ingested, zlib built at
``all`` by each (``warnings run``), and the whole bundled UB corpus run with the five at
-O2 (warnings only). Its making is timed once and printed: that is the advice "from
nothing" for zlib with the host's five compilers, bounded by its builds. Give
``BENCH_ADVISE_DB=FILE`` to reuse a database made earlier (nothing made, nothing timed).

Run from the repository root after ./setup.sh:  .venv/bin/python -m bench.bench_advise
"""
from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import time
from pathlib import Path

from warnscope.database import connect
from warnscope.measure import machine, measure, run_inprocess, summary
from warnscope.tool import run_child

from analyzer.cli import main as cli_main

RUNS = int(os.environ.get("BENCH_RUNS", "10"))
COMPILERS = "gcc-11,gcc-12,clang-14,clang-16,clang-19"


def make(db: Path) -> None:
    """Everything the advice reads, from nothing (downloads cached beforehand)."""
    steps = (["flags", "ingest", *COMPILERS.split(",")],
             ["ub", "run", "--compilers", COMPILERS, "--levels", "O2", "--no-sanitizers", "--no-code",
              "--runs", "1"],
             ["advise", "--project", "zlib", "--compilers", COMPILERS, "--quiet"])
    for args in steps:
        start = time.monotonic()
        with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
            code = cli_main(["--db", str(db), *args])
        if code != 0:
            raise SystemExit(f"{' '.join(args[:2])} failed")
        print(f"made: warnscope {' '.join(args[:2])} ... in {time.monotonic() - start:.1f} s wall")


def main() -> None:
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        given = os.environ.get("BENCH_ADVISE_DB")
        db = Path(given) if given else Path(tmp) / "advise.db"
        if not given:
            make(db)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        cmd = [sys.executable, "-m", "analyzer", "--db", str(db), "advise", "--project", "zlib",
               "--compilers", COMPILERS]
        print(summary("warnscope advise --project zlib, 5 compilers, from stored builds (whole process)",
                      measure(lambda: run_child(cmd, env), RUNS), goal=2.0))

        from analyzer.advise.advice import advise
        from analyzer.advise.rules import Rules

        conn = connect(db, write=False)
        print(summary("advise() alone, in process (rows, rules, targets; no rendering)",
                      measure(lambda: run_inprocess(lambda: advise(conn, "zlib", ["c"], COMPILERS.split(","),
                                                                   Rules())), RUNS)))
        conn.close()


if __name__ == "__main__":
    main()
