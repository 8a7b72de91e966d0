"""The report site: a full build into an empty directory, and a rebuild with nothing changed.

The database holds every compiler version warnscope can ingest here, the scale of
the goal (about 20 versions, some 1,500 flag names): each of gcc-9 … gcc-16 and
clang-9 … clang-23 is tried with ``flagdb.ingest``, then from the files an earlier
ingest left in the cache (another Debian release's), and skipped, saying why, where
neither can be had (BENCH_SITE_COMPILERS=gcc-12,clang-16 picks a list
instead); the first run may download them, never timed. It also holds a small UB
run (three corpus programs x gcc-12 x -O0, -O2, when gcc-12 is installed). Four figures, each BENCH_RUNS runs (default 5)
after one warm-up, CPU user+sys and wall, min / median / max:

1. full build, in process: ``analyzer.site.builder.build`` into a new directory;
2. full build, whole process: ``warnscope site build -o DIR`` as a user runs it,
   interpreter start-up and imports included, measured by ``os.wait4``;
3. no-change rebuild, in process: the same database into the built directory (every
   page rendered and compared, none written);
4. no-change rebuild, whole process.

Then the site's weight: pages, files, total bytes, the largest HTML page and the
largest file (the goals: full build <= 5 s, largest page <= 500 KB). The load
average is printed before and after: this machine is shared, and a high load
makes the wall figures (and, less so, CPU) larger.

BENCH_SITE_DB=PATH uses an existing database instead of ingesting (the whole
ingested set of a machine, e.g. a database of twenty versions kept elsewhere): it is
copied into the temporary directory first, so the benchmark never writes to it, and
no UB run is added. Without it the benchmark builds its database as above, from an
empty cache if need be.

Each full build goes into a new directory (see ``fresh`` in :func:`main` for why not
one emptied just before). The builder renders part of the site in a forked worker
and creates the files of a fresh build from a writer thread, so the in-process CPU
is ``RUSAGE_SELF`` (both threads) plus ``RUSAGE_CHILDREN`` (the reaped worker); the
whole-process figures are ``os.wait4`` of the command: its threads and the worker.

Run from the repository root after ./setup.sh:  .venv/bin/python -m bench.bench_site
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Callable

from warnscope.measure import Sample, machine, measure, run_inprocess, stats, summary
from warnscope.tool import run_child
from analyzer.site.builder import build
from analyzer.runtime.toolchain import installed
from analyzer.ub import run as ub_run
from analyzer.runtime.toolchain import resolve_list
from analyzer.ub.corpus import bundled_corpus
from flagdb import store
from warnscope.database import connect
from warnscope.errors import WarnscopeError
from flagdb.ingest import ingest
from warnscope.paths import cache_dir

RUNS = int(os.environ.get("BENCH_RUNS", "5"))
#: every version of both families the flag database may know
CANDIDATES = [f"gcc-{n}" for n in range(9, 17)] + [f"clang-{n}" for n in range(9, 24)]
COMPILERS = os.environ["BENCH_SITE_COMPILERS"].split(",") if os.environ.get("BENCH_SITE_COMPILERS") \
    else CANDIDATES
UB_CASES = ("signed-integer-overflow/loop.c", "control/while-one.c",
            "null-dereference/null-this.cpp")
#: goals, seconds and bytes
FULL_BUILD_GOAL = 5.0
PAGE_GOAL = 500 * 1024


def cached_tree(compiler: str) -> Path | None:
    """The newest files of ``compiler`` an earlier ingest extracted into the cache (gcc/N_VERSION/,
    clang/N-VERSION/): Debian versions this machine's apt no longer offers (another
    release's, fetched before) still count towards the scale of the benchmark."""
    family, _, major = compiler.rpartition("-")
    sep = "_" if family == "gcc" else "-"
    found = sorted((cache_dir() / family).glob(f"{major}{sep}*"))
    return found[-1] if found else None


def make_db(tmp: Path) -> Path:
    """The benchmark database: a copy of BENCH_SITE_DB if set, else the compilers and
    the small UB run if gcc-12 is here."""
    db = tmp / "site.db"
    given = os.environ.get("BENCH_SITE_DB")
    if given:
        shutil.copy(given, db)
        conn = connect(db)
        versions = [row.name for row in store.compilers(conn)]
        names = conn.execute("SELECT count(DISTINCT name) FROM flag").fetchone()[0]
        conn.close()
        print(f"  copy of {given}: {len(versions)} versions ({', '.join(versions)}); "
              f"{names} distinct flag names")
        return db
    conn = connect(db)
    done, skipped = [], []
    for compiler in COMPILERS:
        try:
            data, status = ingest(conn, compiler)
        except WarnscopeError as exc:
            tree = cached_tree(compiler)
            try:
                if tree is None:
                    raise
                data, status = ingest(conn, compiler, str(tree))
            except WarnscopeError:
                skipped.append(compiler)
                print(f"  {compiler}: skipped: {exc}")
                continue
        done.append(compiler)
        print(f"  {compiler}: {status}, {data.version}, {len(data.flags)} flags")
    names = conn.execute("SELECT count(DISTINCT name) FROM flag").fetchone()[0]
    print(f"  {len(done)} of {len(COMPILERS)} versions ingested ({', '.join(done)}); "
          f"{len(skipped)} skipped; {names} distinct flag names")
    if not done:
        raise SystemExit("no compiler could be ingested")
    if installed(["gcc-12"]):
        corpus = tmp / "corpus"
        for rel in UB_CASES:
            src = bundled_corpus() / rel
            (corpus / src.parent.name).mkdir(parents=True, exist_ok=True)
            shutil.copy(src, corpus / rel)
            expected = src.with_suffix(".output")
            if expected.exists():
                shutil.copy(expected, corpus / src.parent.name)
        s = ub_run.run(conn, corpus, resolve_list(["gcc-12"]), ["O0", "O2"])
        print(f"  UB: {s.cases} programs x gcc-12 x O0, O2: {s.cells} cells")
    conn.close()
    return db


def weight(root: Path) -> str:
    """Pages, files and bytes of a built site; its largest HTML page and largest file."""
    files = [p for p in root.rglob("*") if p.is_file()]
    pages = [p for p in files if p.suffix == ".html"]
    page = max(pages, key=lambda p: p.stat().st_size)
    big = max(files, key=lambda p: p.stat().st_size)
    total = sum(p.stat().st_size for p in files)
    ok = "within" if page.stat().st_size <= PAGE_GOAL else "OVER"
    return (f"site: {len(pages)} pages, {len(files)} files, {total / 2**20:.1f} MiB\n"
            f"  largest page {page.relative_to(root)}: {page.stat().st_size / 1024:.0f} KB "
            f"({ok} the {PAGE_GOAL // 1024} KB goal)\n"
            f"  largest file {big.relative_to(root)}: {big.stat().st_size / 1024:.0f} KB")


def report(name: str, samples: list[Sample], goal: float | None = None) -> None:
    """:func:`summary`, and the system CPU apart: creating thousands of small files is
    mostly kernel time, which depends on the filesystem more than on the builder. The
    goal is on wall time (what a user waits): said against the median wall."""
    print(summary(name, samples))
    s = stats([x.sys for x in samples])
    print(f"  of which sys  min {s.min * 1000:7.1f} ms  median {s.median * 1000:7.1f} ms  "
          f"max {s.max * 1000:7.1f} ms")
    if goal is not None:
        wall = stats([x.wall for x in samples]).median
        print(f"  goal: wall <= {goal * 1000:.0f} ms: {'met' if wall <= goal else 'NOT met'} "
              f"(median wall {wall * 1000:.0f} ms)")


def main() -> None:
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="bench-site-") as tmp_name:
        tmp = Path(tmp_name)
        print("database:")
        db = make_db(tmp)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
        built: list[Path] = []

        def cli(out: Path) -> list[str]:
            return [sys.executable, "-c", "import sys; from analyzer.cli import main; sys.exit(main())",
                    "--db", str(db), "site", "build", "-o", str(out)]

        def in_process(out: Path) -> Sample:
            def run() -> None:
                conn = connect(db)
                try:
                    build(conn, out)
                finally:
                    conn.close()
            return run_inprocess(run, include_children=True)

        def fresh(sample: Callable[[Path], Sample]) -> Callable[[], Sample]:
            """``sample`` into a new empty directory. Not one emptied just before: ext4
            skips inodes freed in the last seconds when it allocates one, so creating
            3,000 files right after deleting 3,000 costs seconds of kernel time
            (``recently_deleted`` under ``ext4_create`` in ``perf``), which is a cost of
            the deletion, not of the build. The trees go with the temporary directory."""
            def run() -> Sample:
                built.append(tmp / f"site-{len(built)}")
                return sample(built[-1])
            return run

        report("full build, in process (builder.build into an empty directory)",
               measure(fresh(in_process), RUNS), goal=FULL_BUILD_GOAL)
        print(f"load average: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
        report("full build, whole process (warnscope site build -o DIR)",
               measure(fresh(lambda out: run_child(cli(out), env)), RUNS), goal=FULL_BUILD_GOAL)
        print(f"load average: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
        out = built[-1]
        report("no-change rebuild, in process", measure(lambda: in_process(out), RUNS))
        report("no-change rebuild, whole process", measure(lambda: run_child(cli(out), env), RUNS))
        print(weight(out))
    print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
