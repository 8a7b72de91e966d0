"""The order of a UB run's compiles, and where they run: does it change their cost?

Two workers compile the same cells (BENCH_ORDER_N corpus programs, default 40, x gcc-12,
clang-16 x -O0, -O2; each worker the whole list, at the same time: the two cores busy,
as in a run). Each compile is the cell's own command line (``compile_argv`` of
bench_ub_driver: gcc's warnings and JSON diagnostics included), run directly, not in
the sandbox: this measures the compilers, not warnscope. Three ways:

* ``plan order``: program by program, each one's four compiles in turn (gcc, clang
  alternate: the order of the plan, and of a shell loop over the corpus);
* ``grouped``: one compiler and level at a time (``analyzer.ub.run.schedule``'s order
  among jobs of equal length);
* ``grouped, pinned``: the same, each worker on a core of its own with its compilers
  (``LocalExecutor(pin=True)``).

Measured with :func:`warnscope.tool.run_measured` (``wait4`` of the two workers' tree:
CPU user+sys, monotonic wall), the three interleaved in each of BENCH_RUNS rounds
(default 5) after one warm-up of each. Printed: min / median / max and, per round, the
ratio of each to ``plan order``'s CPU and wall.
Run from the repository root: ``.venv/bin/python -m bench.bench_ub_order``.
"""
from __future__ import annotations

import os
import shlex
import sys
import tempfile
from pathlib import Path

from warnscope.measure import TreeRun, machine, stats
from warnscope.tool import run_measured

from analyzer.runtime.toolchain import resolve
from analyzer.ub.corpus import bundled_corpus, discover

from bench.bench_ub_driver import compile_argv

N = int(os.environ.get("BENCH_ORDER_N", "40"))
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
COMPILERS = ("gcc-12", "clang-16")
LEVELS = ("-O0", "-O2")

#: one worker: run the command lines of a file one after another (stderr discarded)
WORKER = """
import os, subprocess, sys
cpu = int(sys.argv[2])
if cpu >= 0:
    os.sched_setaffinity(0, {cpu})
for line in open(sys.argv[1]):
    subprocess.run(line.rstrip("\\n").split("\\0"), cwd=sys.argv[3], stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
"""


def main() -> None:
    cases = [c for c in discover(bundled_corpus()) if c.language == "c"][:N]
    compilers = [resolve(c) for c in COMPILERS]
    print(f"machine: {machine()}")
    print(f"{len(cases)} C programs x {', '.join(COMPILERS)} x {', '.join(LEVELS)} = "
          f"{len(cases) * 4} compiles per worker, two workers at once; {RUNS} rounds")
    with tempfile.TemporaryDirectory(prefix="bench-ub-order-") as name:
        tmp = Path(name)
        for case in cases:
            (tmp / case.path.name).write_bytes(case.source)
        cells = {(case.path.name, comp.name, level): compile_argv(case, comp, level)
                 for case in cases for comp in compilers for level in LEVELS}
        plan = list(cells)
        grouped = sorted(plan, key=lambda k: (k[1], k[2]))
        lists = {}
        for label, order in (("plan", plan), ("grouped", grouped)):
            path = tmp / f"{label}.txt"
            path.write_text("".join("\0".join(cells[k]) + "\n" for k in order))
            lists[label] = path
        cpus = sorted(os.sched_getaffinity(0))

        def both(label: str, pinned: bool) -> TreeRun:
            workers = []
            for i in range(2):
                out = tmp / f"w{i}"
                out.mkdir(exist_ok=True)
                for case in cases:  # each worker its own sources and a.out
                    target = out / case.path.name
                    if not target.exists():
                        target.write_bytes(case.source)
                cpu = cpus[i % len(cpus)] if pinned else -1
                workers.append(f"{shlex.quote(sys.executable)} -c {shlex.quote(WORKER)} "
                               f"{lists[label]} {cpu} {out}")
            script = " & ".join(workers) + " & wait"
            return run_measured(["sh", "-c", script])

        configs = [("plan order", lambda: both("plan", False)),
                   ("grouped", lambda: both("grouped", False)),
                   ("grouped, pinned", lambda: both("grouped", True))]
        for _, fn in configs:
            fn()
        runs: dict[str, list[TreeRun]] = {name: [] for name, _ in configs}
        for i in range(RUNS):
            line = []
            for name, fn in configs:
                r = fn()
                runs[name].append(r)
                line.append(f"{name} {r.wall:.2f} s wall, {r.cpu:.2f} s CPU")
            print(f"round {i + 1} (load {runs['plan order'][-1].load1:.2f}): " + "; ".join(line),
                  flush=True)
        ref = runs["plan order"]
        for name, _ in configs:
            wall, cpu = stats([r.wall for r in runs[name]]), stats([r.cpu for r in runs[name]])
            text = (f"{name:16}: wall min {wall.min:.2f} / median {wall.median:.2f} / max "
                    f"{wall.max:.2f} s; CPU user+sys min {cpu.min:.2f} / median {cpu.median:.2f}"
                    f" / max {cpu.max:.2f} s")
            if name != "plan order":
                c = stats([r.cpu / p.cpu for p, r in zip(ref, runs[name])])
                w = stats([r.wall / p.wall for p, r in zip(ref, runs[name])])
                text += (f"; per round / plan order: CPU min {c.min:.3f} / median {c.median:.3f}"
                         f" / max {c.max:.3f}, wall min {w.min:.3f} / median {w.median:.3f} / "
                         f"max {w.max:.3f}")
            print(text)
        print(f"machine after: {machine()}")


if __name__ == "__main__":
    main()
