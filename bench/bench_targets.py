"""What a target costs: the UB runner's cells for gcc-12 on the host against the same
cells for Debian's aarch64 gcc-12, whose programs run under qemu-aarch64; and what
resolving a compiler's identity costs, probed and cached.

1. cells: every corpus program (or BENCH_UB_CORPUS) x one compiler x BENCH_UB_LEVELS
   (default -O2), warnings and sanitizers off, generated code kept (the default), empty
   compile cache and database per run; host and target runs interleaved, BENCH_RUNS
   rounds (default 3). Wall of ``ub_run.run`` per cell and CPU user+sys (this process and
   every child it reaped: workers, compilers, qemu and programs), min / median / max.
2. identity: ``identify.identify`` of the cross driver, BENCH_ID_RUNS times (default 20)
   each with an empty identity cache (three probes of the binary) and with a filled one;
   wall, min / median / max.

Run from the repository root: ``.venv/bin/python -m bench.bench_targets``.
"""
from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

from analyzer.runtime import identify
from analyzer.runtime.toolchain import resolve
from analyzer.ub import run as ub_run
from analyzer.runtime.toolchain import resolve_list
from analyzer.ub.corpus import bundled_corpus
from warnscope.database import connect
from warnscope.measure import machine, run_inprocess, stats

CORPUS = os.environ.get("BENCH_UB_CORPUS") or str(bundled_corpus())
HOST = os.environ.get("BENCH_HOST", "gcc-12")
TARGET = os.environ.get("BENCH_TARGET", "aarch64-linux-gnu-gcc-12")
LEVELS = os.environ.get("BENCH_UB_LEVELS", "O2").split(",")
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
ID_RUNS = int(os.environ.get("BENCH_ID_RUNS", "20"))


def one(compiler: str, tmp: Path, n: int):
    os.environ["WARNSCOPE_CACHE"] = str(tmp / f"cache-{compiler}-{n}")
    conn = connect(tmp / f"{compiler}-{n}.db")
    out: list = []
    sample = run_inprocess(lambda: out.append(ub_run.run(
        conn, CORPUS, resolve_list([compiler]), LEVELS, warnings=False, sanitizers=False)),
        include_children=True)
    conn.close()
    shutil.rmtree(tmp / f"cache-{compiler}-{n}", ignore_errors=True)
    return out[0], sample


def fmt(values: list[float], unit: str, scale: float = 1.0) -> str:
    s = stats(values)
    return (f"min {s.min * scale:.2f} / median {s.median * scale:.2f} / "
            f"max {s.max * scale:.2f} {unit}")


def main() -> None:
    host, cross = resolve(HOST), resolve(TARGET)
    print(f"machine: {machine()}")
    print(f"host: {host.version}; target: {cross.version} under {' '.join(cross.emulator)}")
    with tempfile.TemporaryDirectory(prefix="bench-targets-") as tmp_name:
        tmp = Path(tmp_name)
        walls: dict[str, list[float]] = {host.name: [], cross.name: []}
        cpus: dict[str, list[float]] = {host.name: [], cross.name: []}
        cells = 0
        for n in range(RUNS):
            for tc in (host, cross) if n % 2 == 0 else (cross, host):
                summary, sample = one(tc.name, tmp, n)
                cells = summary.cells
                walls[tc.name].append(sample.wall / cells)
                cpus[tc.name].append(sample.cpu / cells)
        print(f"cells: {cells} per compiler ({LEVELS}), {RUNS} interleaved rounds, cold")
        for name in walls:
            print(f"  {name:28} wall/cell {fmt(walls[name], 'ms', 1000)}; "
                  f"CPU user+sys/cell {fmt(cpus[name], 'ms', 1000)}")
        ratio = [c / h for c, h in zip(walls[cross.name], walls[host.name])]
        print(f"  wall ratio target/host per round: {fmt(ratio, 'x')}")
        os.environ["WARNSCOPE_CACHE"] = str(tmp / "id-cache")
        cold, warm = [], []
        for _ in range(ID_RUNS):
            shutil.rmtree(tmp / "id-cache", ignore_errors=True)
            start = time.perf_counter()
            identify.identify(TARGET)
            cold.append(time.perf_counter() - start)
            start = time.perf_counter()
            identify.identify(TARGET)
            warm.append(time.perf_counter() - start)
        print(f"identity of {TARGET}, {ID_RUNS} runs: probed {fmt(cold, 'ms', 1000)}; "
              f"cached {fmt(warm, 'ms', 1000)}")


if __name__ == "__main__":
    main()
