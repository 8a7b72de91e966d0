"""Benchmarks of the flag database: ingest of one GCC version from extracted option
files, and ``warnscope flags diff`` / ``flags check`` run from the command line.

The command-line figures are of the whole process, interpreter start-up included, so
the start-up of a bare interpreter and of one that only imports click are measured
beside them as the floor. Child processes run with their bytecode cached (in a
temporary directory), as an installed warnscope runs: an environment that sets
PYTHONDONTWRITEBYTECODE would otherwise make every run compile the sources.

Run from the repository root after ./setup.sh:  .venv/bin/python -m bench.bench_flagdb
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path


from warnscope.measure import machine, measure, run_inprocess, summary
from warnscope.tool import run_child

from flagdb import store
from warnscope.database import connect
from flagdb.gcc_ingest import build_from_tree, fetch_debian
from flagdb.ingest import ingest

RUNS = int(os.environ.get("BENCH_RUNS", "20"))


def main() -> None:
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        # the oldest and the newest GCC Debian packages beside the host's two
        for major in ("9", "11", "12", "16"):
            root, candidate = fetch_debian(major)  # cached after the first run
            provenance = f"{candidate.package} {candidate.version}"

            def ingest_once() -> None:
                db = Path(tmp) / f"ingest-{major}.db"
                db.unlink(missing_ok=True)
                conn = connect(db)
                store.save(conn, build_from_tree(root, f"gcc-{major}", "debian-package", provenance))
                conn.close()

            print(summary(f"ingest gcc-{major} from extracted files (parse + save to a new db)",
                          measure(lambda: run_inprocess(ingest_once), RUNS), goal=0.3))

        db = Path(tmp) / "diff.db"
        conn = connect(db)
        for compiler in ("gcc-11", "gcc-12"):
            ingest(conn, compiler)
        conn.close()
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        for what, code in (("python3 -c pass (interpreter start-up)", "pass"),
                           ("python3 -c 'import click' (start-up and click)", "import click")):
            print(summary(f"floor: {what}",
                          measure(lambda: run_child([sys.executable, "-c", code], env), RUNS)))
        warnscope = Path(sys.executable).parent / "warnscope"
        cmd = ([str(warnscope)] if warnscope.exists() else [sys.executable, "-m", "analyzer.cli"])
        cmd += ["--db", str(db), "flags", "diff", "gcc-11", "gcc-12"]
        print(summary("warnscope flags diff gcc-11 gcc-12 (whole process)",
                      measure(lambda: run_child(cmd, env), RUNS), goal=0.15))

        # 50 flags (every 20th clang-16 name, every 15th gcc-12 name) against 6 compilers.
        conn = connect(db)
        six = ("gcc-11", "gcc-12", "clang-13", "clang-14", "clang-16", "clang-19")
        for compiler in six[2:]:
            ingest(conn, compiler)
        clang_names = sorted(store.flag_names(conn, "clang-16"))[::20][:25]
        gcc_names = sorted(store.flag_names(conn, "gcc-12"))[::15][:25]
        conn.close()
        check = cmd[:-4] + ["flags", "check", "-c", ",".join(six), "--", *clang_names, *gcc_names]
        print(summary(f"warnscope flags check: {len(clang_names) + len(gcc_names)} flags x 6 "
                      "compilers (whole process)", measure(lambda: run_child(check, env), RUNS), goal=0.2))


if __name__ == "__main__":
    main()
