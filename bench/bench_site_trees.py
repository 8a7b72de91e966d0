"""The report site's build by two trees of warnscope over one database, interleaved: what a
change to the site costs (the charts), measured as a user runs the command.

Each round runs ``warnscope site build -o DIR`` into a new directory once per tree, in
turn (A, B, A, B ...), after one warm-up build each; the command runs with the tree as
its working directory, so it imports that tree's packages. Each figure is ``os.wait4``
of the whole command (:func:`warnscope.tool.run_child`): CPU user+sys of its process,
its writer thread and its forked worker, and wall, min / median / max over BENCH_RUNS
rounds (default 4). Then each tree's site: pages, files, bytes, the largest page and
the chart files. The load average is printed before and after: on a shared machine a
high load stretches the wall figures most.

    .venv/bin/python -m bench.bench_site_trees DB TREE_A TREE_B

``TREE_A`` and ``TREE_B`` are checkouts (``git archive REV | tar -x -C DIR`` makes one);
the database is copied first, so it is never written.
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

from warnscope.measure import machine, stats, summary
from warnscope.tool import run_child

RUNS = int(os.environ.get("BENCH_RUNS", "4"))
PAGE_GOAL = 1_000_000


def command(db: Path, out: Path) -> list[str]:
    return [sys.executable, "-c", "import sys; from analyzer.cli import main; sys.exit(main(sys.argv[1:]))",
            "--db", str(db), "site", "build", "-o", str(out)]


def weight(site: Path) -> str:
    files = [p for p in site.rglob("*") if p.is_file()]
    pages = [p for p in files if p.suffix == ".html"]
    charts = [p for p in files if p.suffix == ".svg"]
    largest = max(pages, key=lambda p: p.stat().st_size)
    over = [str(p.relative_to(site)) for p in pages if p.stat().st_size > PAGE_GOAL]
    return (f"{len(pages)} pages, {len(files)} files, {sum(p.stat().st_size for p in files) / 2**20:.1f} MiB; "
            f"largest page {largest.relative_to(site)} {largest.stat().st_size / 1000:.0f} kB; "
            f"{len(charts)} chart files, {sum(p.stat().st_size for p in charts) / 1000:.0f} kB; "
            f"pages over 1 MB: {over or 'none'}")


def main() -> None:
    db, trees = Path(sys.argv[1]), [Path(t).resolve() for t in sys.argv[2:4]]
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "site.db"
        shutil.copy(db, copy)
        n = 0

        def build(tree: Path) -> tuple:
            nonlocal n
            n += 1
            out = Path(tmp) / f"site-{n}"
            sample = run_child(command(copy, out), cwd=tree)
            return sample, out

        for tree in trees:  # warm-up: page cache, .pyc files
            build(tree)
        samples: dict[Path, list] = {t: [] for t in trees}
        last: dict[Path, Path] = {}
        for _ in range(RUNS):
            for tree in trees:
                sample, out = build(tree)
                samples[tree].append(sample)
                if tree in last:
                    shutil.rmtree(last[tree])
                last[tree] = out
        for tree in trees:
            print(summary(f"site build, whole process, {tree}", samples[tree]))
            cpu = stats([s.user + s.sys for s in samples[tree]])
            wall = stats([s.wall for s in samples[tree]])
            print(f"  CPU user+sys {cpu.min:.2f} / {cpu.median:.2f} / {cpu.max:.2f} s; "
                  f"wall {wall.min:.2f} / {wall.median:.2f} / {wall.max:.2f} s ({RUNS} runs)")
            print(f"  {weight(last[tree])}")
    print(f"after: {machine()}")


if __name__ == "__main__":
    main()
