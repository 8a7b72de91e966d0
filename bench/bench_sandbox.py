"""The sandbox's cost per run: what one sandboxed run of a program costs on top of the
program, against ``timeout``, the minimal driver's containment.

A configuration is a process that runs a trivial program (a compiled ``hello``) N
times, one after the other, and exits:

* ``timeout``: ``sh`` looping ``timeout 3 ./prog`` (what bench_ub_driver's driver does);
* ``sandbox``: a Python process calling ``sandbox.run`` N times
  with the default limits (the namespace sandbox, as root a pool uid), then stops
  its zygotes, so that their CPU is reaped into the process's rusage;
* ``sandbox, one core``: the same, the process (and with it its zygote, each run's
  init and the program) kept to one core, as a pinned UB worker is
  (``LocalExecutor(pin=True)``): a run is a chain of processes waking each other;
* ``baseline`` (BENCH_BASELINE=DIR): the same child with the ``analyzer`` of another
  source tree (``git archive`` of an earlier commit), for before/after figures.

Each is measured with :func:`warnscope.tool.run_measured` (``os.wait4`` of the whole
tree: CPU user+sys of every process it reaped, the programs' included; monotonic
wall), once with N runs and once with none, and the per-run cost is the difference
divided by N: start-up (the interpreter, the zygote) cancels out. Configurations are
interleaved within each round; BENCH_RUNS rounds (default 5), N = BENCH_SANDBOX_N
(default 200). Printed: per-run wall and CPU min / median / max of the rounds, and the
ratio to ``timeout`` of the medians. As root with bpftrace, each measurement is also
split by program from the kernel's own per-process account (:mod:`warnscope.accounting`,
the table that sums to the tree's ``wait4``): per run, the median difference for each
program name -- the program itself, ``timeout`` and ``sh``, or the zygote's processes
and the Python that supervises. Run from the repository root as root:
``.venv/bin/python -m bench.bench_sandbox``.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from warnscope.accounting import Accountant, Unavailable
from warnscope.measure import machine, stats
from warnscope.tool import run_measured

RUNS = int(os.environ.get("BENCH_RUNS", "5"))
N = int(os.environ.get("BENCH_SANDBOX_N", "200"))
BASELINE = os.environ.get("BENCH_BASELINE")
THIS_TREE = Path(__file__).resolve().parents[1]
HELLO = b'#include <stdio.h>\nint main(void) { puts("hello"); return 0; }\n'


#: The sandbox configuration's process: N runs, then the zygotes stopped (the
#: ``analyzer`` of its cwd: this tree's or the baseline's, which may have none).
CHILD = """
import os, sys
try:
    from analyzer.sandbox import runner as sandbox, zygote
except ImportError:  # a baseline from before the sandbox package
    from analyzer import sandbox, sandbox_ns as zygote
n, binary = int(sys.argv[1]), sys.argv[2]
if len(sys.argv) > 3:
    os.sched_setaffinity(0, {int(sys.argv[3])})
sandbox.namespaces_available()
for _ in range(n):
    r = sandbox.run(binary)
    if r.stdout != b"hello\\n":
        raise SystemExit(f"unexpected run: {r}")
getattr(zygote, "discard_all", lambda: None)()
"""


def main() -> None:
    from analyzer.runtime.toolchain import resolve
    from analyzer.ub.compile import compile_program

    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="bench-sandbox-") as name:
        tmp = Path(name)
        env = dict(os.environ, WARNSCOPE_CACHE=str(tmp / "cache"))
        env.pop("PYTHONPATH", None)
        os.environ["WARNSCOPE_CACHE"] = env["WARNSCOPE_CACHE"]
        build = compile_program(resolve("gcc-12"), "c", "gnu17", "hello.c", HELLO, ["-O2"],
                                [], False)
        prog = tmp / "prog"
        prog.write_bytes(Path(build.binary).read_bytes())
        prog.chmod(0o755)
        loop = tmp / "loop.sh"
        loop.write_text('i=0\nwhile [ "$i" -lt "$1" ]; do timeout 3 ./prog >/dev/null; '
                        'i=$((i+1)); done\n')

        try:
            accountant: Accountant | None = Accountant().start()
        except Unavailable as exc:
            print(f"no per-program split: {exc}")
            accountant = None
        tables: list[dict[str, float]] = []

        def measured(argv: list[str], cwd: Path, env_=None):
            def account(pid: int, usage) -> None:
                if accountant is not None:
                    tables.append(accountant.table(pid, usage.cpu).as_dict())
            return run_measured(argv, cwd=cwd, env=env_, on_reaped=account)

        def timeout_cfg(n: int):
            return measured(["sh", str(loop), str(n)], tmp)

        def sandbox_cfg(tree: Path, *pin: str):
            return lambda n: measured([sys.executable, "-c", CHILD, str(n), str(prog), *pin],
                                      tree, env)

        first_core = str(min(os.sched_getaffinity(0)))
        configs = [("timeout", timeout_cfg), ("sandbox", sandbox_cfg(THIS_TREE)),
                   ("sandbox, one core", sandbox_cfg(THIS_TREE, first_core))]
        if BASELINE:
            configs.append(("baseline", sandbox_cfg(Path(BASELINE))))
        print(f"{N} runs of a hello program per measurement, {RUNS} rounds, interleaved; "
              "per run = (N runs - 0 runs) / N")
        for _, fn in configs:  # warm-up: page cache, the zygote's build
            fn(5)
        per: dict[str, list[tuple[float, float]]] = {c: [] for c, _ in configs}
        split: dict[str, dict[str, list[float]]] = {c: {} for c, _ in configs}
        for i in range(RUNS):
            load = os.getloadavg()[0]
            for name_, fn in configs:
                tables.clear()
                full, empty = fn(N), fn(0)
                if full.exit or empty.exit:
                    raise SystemExit(f"{name_} failed (exit {full.exit}, {empty.exit})")
                per[name_].append(((full.wall - empty.wall) / N, (full.cpu - empty.cpu) / N))
                if len(tables) == 2:
                    for prog_name in set(tables[0]) | set(tables[1]):
                        split[name_].setdefault(prog_name, []).append(
                            (tables[0].get(prog_name, 0.0) - tables[1].get(prog_name, 0.0)) / N)
            print(f"round {i + 1}: load average {load:.2f}: " + "; ".join(
                f"{c} {w * 1e3:.2f} ms wall, {cpu * 1e3:.2f} ms CPU" for c, ((w, cpu), *_)
                in ((c, v[-1:]) for c, v in per.items())))
        base = {k: stats([v[k] for v in per["timeout"]]).median for k in (0, 1)}
        for name_, values in per.items():
            wall, cpu = stats([v[0] for v in values]), stats([v[1] for v in values])
            print(f"{name_}: per run wall min {wall.min * 1e3:.2f} / median "
                  f"{wall.median * 1e3:.2f} / max {wall.max * 1e3:.2f} ms; CPU user+sys min "
                  f"{cpu.min * 1e3:.2f} / median {cpu.median * 1e3:.2f} / max "
                  f"{cpu.max * 1e3:.2f} ms; median / timeout's: wall "
                  f"{wall.median / base[0]:.2f}, CPU {cpu.median / base[1]:.2f}")
            for prog_name, values_ in sorted(split[name_].items(),
                                             key=lambda kv: -stats(kv[1]).median):
                m = stats(values_).median
                if abs(m) >= 0.00001:
                    print(f"    {prog_name:28} {m * 1e3:6.3f} ms CPU per run (median)")
        if accountant is not None:
            accountant.close()


if __name__ == "__main__":
    main()
