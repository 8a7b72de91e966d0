"""What a wasm32 cell costs against a host cell, and how the demo's target cases end on
wasm32.

The cases: those the demo's target section runs (a target's own expected output, not a
fixed twin), at -O0 and -O2. A cell is one compile by clang-16 through the UB runner's
compile (the sandbox; an empty compile cache per round) and one sandboxed run: for the
host, ``sandbox.run`` of the x86-64 program; for wasm32, the same compile with
``wasm.COMPILE_FLAGS`` and ``wasm.run`` (Python and Wasmtime start, compile the module,
run it). Host and wasm rounds interleaved, BENCH_RUNS rounds (default 3), each measured in
this process with its children (CPU user+sys, wall), per cell: min / median / max.

Then the table of outcomes of the last wasm round beside the host's: status, exit or
trap, and the output against the case's plain and per-target expected outputs.

Run from the repository root after ./setup.sh:  .venv/bin/python -m bench.bench_wasm
"""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from analyzer.runtime.toolchain import resolve
from analyzer.sandbox import runner as sandbox
from analyzer.sandbox import wasm
from analyzer.sandbox.limits import Limits
from analyzer.ub.compile import compile_program
from analyzer.ub.corpus import bundled_corpus, load
from warnscope.measure import machine, run_inprocess, stats

RUNS = int(os.environ.get("BENCH_RUNS", "3"))
LEVELS = ("-O0", "-O2")
LIMITS = Limits()


def cells(corpus, clang, target: str) -> list[tuple[str, str, object]]:
    """(case id, level, result) of every case and level, compiled and run once."""
    out = []
    for case in corpus:
        for level in LEVELS:
            flags, link = [level], list(case.link)
            if target == "wasm32":
                flags = [*wasm.COMPILE_FLAGS, *(wasm.CXX_FLAGS if case.language == "c++" else ()),
                         level]
                link += list(wasm.LINK_FLAGS)
            b = compile_program(clang, case.language, case.std, case.path.name, case.source,
                                flags, link, False)
            if not b.ok:
                out.append((case.id, level, b.log.strip().splitlines()[-1:] or ["?"]))
                continue
            run = (wasm.run(b.binary, case.args, LIMITS) if target == "wasm32"
                   else sandbox.run(b.binary, case.args, LIMITS))
            out.append((case.id, level, run))
    return out


def fmt(values: list[float]) -> str:
    s = stats(values)
    return f"min {s.min * 1000:.0f} / median {s.median * 1000:.0f} / max {s.max * 1000:.0f} ms"


def ending(run) -> str:
    if isinstance(run, list):
        return "compile error: " + run[0][:60]
    word = str(run.status)
    if getattr(run, "trap", None):
        word += f" {run.trap}"
    elif run.exit is not None:
        word += f" {run.exit}"
    elif run.signal is not None:
        word += f" {run.signal}"
    return word


def main() -> None:
    wasm.require()
    clang = resolve("clang-16")
    corpus = [c for c in load(bundled_corpus()).cases if c.expected_by_arch and not c.is_twin]
    print(f"machine: {machine()}")
    print(f"{len(corpus)} cases x {len(LEVELS)} levels, clang-16; {RUNS} interleaved rounds")
    cpu: dict[str, list[float]] = {"host": [], "wasm32": []}
    runs: dict[str, list[float]] = {"host": [], "wasm32": []}
    wall: dict[str, list[float]] = {"host": [], "wasm32": []}
    last: dict[str, list] = {}
    with tempfile.TemporaryDirectory(prefix="bench-wasm-") as tmp:
        for n in range(RUNS):
            for target in ("host", "wasm32") if n % 2 == 0 else ("wasm32", "host"):
                os.environ["WARNSCOPE_CACHE"] = str(Path(tmp) / f"cache-{target}-{n}")
                got: list = []
                sample = run_inprocess(lambda: got.extend(cells(corpus, clang, target)),
                                       include_children=True)
                shutil.rmtree(os.environ["WARNSCOPE_CACHE"], ignore_errors=True)
                cpu[target].append(sample.cpu / len(got))
                ran = [r for _, _, r in got if not isinstance(r, list)]
                runs[target].append(sum(r.user + r.sys for r in ran) / len(ran))
                wall[target].append(sample.wall / len(got))
                last[target] = got
    for target in ("host", "wasm32"):
        print(f"  {target:7} per cell: wall (compile + run) {fmt(wall[target])}; "
              f"run's CPU user+sys {fmt(runs[target])}; this process's CPU {fmt(cpu[target])}")
    by_id = {c.id: c for c in corpus}
    print("\n| case | level | x86-64 | wasm32 | wasm32 output is |")
    print("|---|---|---|---|---|")
    for (cid, level, host), (_, _, run) in zip(last["host"], last["wasm32"]):
        case = by_id[cid]
        said = "-"
        if not isinstance(run, list):
            said = ("the plain output" if run.stdout in case.expected else
                    "another target's (" + ", ".join(a for a, o in sorted(case.expected_by_arch.items())
                                                     if run.stdout in o) + ")"
                    if any(run.stdout in o for o in case.expected_by_arch.values())
                    else repr(run.stdout[:40].decode("utf-8", "replace")))
        print(f"| {cid} | {level} | {ending(host)} | {ending(run)} | {said} |")


if __name__ == "__main__":
    main()
