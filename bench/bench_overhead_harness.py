"""What the overhead matrix's own harness adds to the builds it times.

A study builds through a compiled wrapper in place of CC (it appends the level's
flags and records each compiler process's rusage and command line: one more fork and
one log line per compiler run) and times the build's process tree with ``wait4``.
Here the same project is built twice from two copies of its tree, configured alike:
once with ``CC=gcc-12`` and ``CFLAGS="-O2 -w"`` directly, once through the wrapper
(``CFLAGS=-O2``, the wrapper appending ``-w``, its log on), both timed the same way
with ``analyzer.projects.process.run``; and a third time through the wrapper with the
kernel's per-process accounting on (``warnscope.accounting``: bpftrace on the scheduler's
tracepoints, as a study runs it as root), whose table must sum to the build's rusage.
And a fourth time as a study builds now, in the build sandbox
(:mod:`analyzer.projects.sandbox`: bubblewrap, the pool uid, the tree copied into the
box), with the accounting on: its ratio to ``accounted`` is what the sandbox costs.
Runs are interleaved (direct, harness, accounted, sandboxed, direct, …) after one
warm-up of each; every run starts from ``make clean``. The figures are the ratios of
median CPU user+sys to direct (and of sandboxed to accounted) and the range of the
per-round ratios. The goal: the harness, with accounting on, adds at most 1 %; the
sandbox is within the noise.

BENCH_RUNS (default 5), BENCH_PROJECT (default zlib), BENCH_COMPILER (default gcc-12),
BENCH_WAYS (default all four: direct,harness,accounted,sandboxed; e.g. accounted,sandboxed
for the sandbox's cost alone on a long build), BENCH_JOBS (make's -j, default 1).

Run from the repository root after ./setup.sh:  .venv/bin/python -m bench.bench_overhead_harness
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

from warnscope.accounting import Accountant, Unavailable
from warnscope.measure import machine, stats
from analyzer.projects.sandbox import build_sandbox, copy_tree
from analyzer.projects import process, recipes, steps
from analyzer.projects.wrapper import FLAGS_ENV, LOG_ENV, wrapper_for
from analyzer.runtime.toolchain import resolve


def main() -> int:
    runs = int(os.environ.get("BENCH_RUNS", "5"))
    recipe = recipes.get(os.environ.get("BENCH_PROJECT", "zlib"))
    tc = resolve(os.environ.get("BENCH_COMPILER", "gcc-12"))
    tree, origin = steps.source_tree(recipe)
    build = recipe.build.format(jobs=int(os.environ.get("BENCH_JOBS", "1")))
    ways = os.environ.get("BENCH_WAYS", "direct,harness,accounted,sandboxed").split(",")
    print(f"machine: {machine()}")
    print(f"{recipe.name} ({origin}) with {tc.name}, -O2 -w, `{build}`, {runs} runs each after a "
          "warm-up, interleaved; CPU = user+sys of the build's process tree (wait4)")
    with tempfile.TemporaryDirectory(prefix="bench-harness-") as tmp, \
            build_sandbox(Path(tmp), steps.readable_for(recipe)) as box:
        work = Path(tmp)
        log = work / "wrap.log"
        setups = {
            "direct": process.build_env({"CC": tc.c_driver, "CXX": tc.cxx_driver,
                                         "CFLAGS": "-O2 -w", "CXXFLAGS": "-O2 -w"}),
            "harness": process.build_env({"CC": str(wrapper_for(tc.c_driver, "c")),
                                          "CXX": str(wrapper_for(tc.cxx_driver, "c++")),
                                          "CFLAGS": "-O2", "CXXFLAGS": "-O2",
                                          **{var: "-w" for var in FLAGS_ENV.values()},
                                          LOG_ENV: str(log)}),
        }
        setups["accounted"] = setups["harness"]
        setups["sandboxed"] = {**setups["harness"], LOG_ENV: str(box.box / "wrap.log")}
        boxes = {"sandboxed": box}
        setups = {name: env for name, env in setups.items() if name in ways}
        try:
            accountant = Accountant().start()
        except Unavailable as exc:
            print(f"accounting: {exc}; measuring without it", file=sys.stderr)
            setups.pop("accounted", None)
            accountant = None
        trees = {}
        for name, env in setups.items():
            if name in boxes:
                trees[name] = box.box / name
                copy_tree(tree, trees[name], box)
            else:
                trees[name] = work / name
                shutil.copytree(tree, trees[name], symlinks=True)
            t = process.run(recipe.configure, trees[name], env, work / f"{name}.configure.log",
                            box=boxes.get(name))
            if t.exit != 0:
                print(f"configure failed for {name}: see {work / f'{name}.configure.log'}", file=sys.stderr)
                return 1
        cpu: dict[str, list[float]] = {name: [] for name in setups}
        wall: dict[str, list[float]] = {name: [] for name in setups}
        loads: list[float] = []
        residuals: list[float] = []
        for rnd in range(runs + 1):
            for name, env in setups.items():
                process.run(recipe.clean, trees[name], env, work / "clean.log", box=boxes.get(name))
                Path(env.get(LOG_ENV, log)).unlink(missing_ok=True)
                t, table = process.run_accounted(build, trees[name], env, work / f"{name}.log",
                                                 accountant if name in ("accounted", "sandboxed") else None,
                                                 box=boxes.get(name))
                if table is not None:
                    residuals.append(table.residual_s / max(t.cpu, 1e-9))
                if t.exit != 0:
                    print(f"build failed for {name}: see {work / f'{name}.log'}", file=sys.stderr)
                    return 1
                loads.append(t.load1)
                label = "warm-up" if rnd == 0 else f"run {rnd}/{runs}"
                print(f"  {name:8} {label:9} cpu {t.cpu:7.3f} s  wall {t.wall:7.3f} s  load {t.load1:.2f}")
                if rnd > 0:
                    cpu[name].append(t.cpu)
                    wall[name].append(t.wall)
        if accountant is not None:
            accountant.close()
    print()
    for name in setups:
        c, w = stats(cpu[name]), stats(wall[name])
        print(f"{name:8} CPU min {c.min:.3f} / median {c.median:.3f} / max {c.max:.3f} s   "
              f"wall {w.min:.3f} / {w.median:.3f} / {w.max:.3f} s")
    for name in [n for n in setups if n != "direct" and "direct" in setups]:
        ratio = stats(cpu[name]).median / stats(cpu["direct"]).median
        low = stats(cpu[name]).min / stats(cpu["direct"]).min
        per_round = stats([h / d for h, d in zip(cpu[name], cpu["direct"])])
        print(f"{name} / direct, median CPU: {ratio:.4f} ({(ratio - 1) * 100:+.2f} %), of minima {low:.4f}; "
              f"per round {per_round.min:.4f} / {per_round.median:.4f} / {per_round.max:.4f} (goal <= 1.01)")
    if "accounted" in cpu and "sandboxed" in cpu:
        per_round = stats([s / a for s, a in zip(cpu["sandboxed"], cpu["accounted"])])
        print(f"sandboxed / accounted, median CPU: {stats(cpu['sandboxed']).median / stats(cpu['accounted']).median:.4f}, "
              f"of minima {stats(cpu['sandboxed']).min / stats(cpu['accounted']).min:.4f}; per round "
              f"{per_round.min:.4f} / {per_round.median:.4f} / {per_round.max:.4f}")
    if residuals:
        r = stats([abs(x) for x in residuals])
        print(f"accounted: |residual| / tree CPU {r.min * 100:.3f} / {r.median * 100:.3f} / "
              f"{r.max * 100:.3f} % over {len(residuals)} builds (goal <= 1 %)")
    print(f"load average {min(loads):.2f}-{max(loads):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
