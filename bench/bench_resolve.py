"""What resolving a compiler costs once cached: the one resolution every command makes at
its edge (:func:`analyzer.runtime.toolchain.compiler_id` for the flags commands,
:func:`analyzer.runtime.toolchain.resolve` for those that run it) and the profile every
family then asks (:attr:`Toolchain.profile`).

Each name of BENCH_RESOLVE_NAMES (default: an id, a plain name on PATH, a path, a cross
driver, a compiler of a Debian root; a name this machine lacks is left out, said so) is
resolved once, then BENCH_RUNS times (default 200), wall per call, min / median / max.
Run from the repository root: ``.venv/bin/python -m bench.bench_resolve``.
"""
from __future__ import annotations

import os
import time

from analyzer.runtime import toolchain
from warnscope.errors import WarnscopeError
from warnscope.measure import machine, stats

NAMES = os.environ.get("BENCH_RESOLVE_NAMES",
                       "gcc-12,gcc,/usr/bin/gcc-12,aarch64-linux-gnu-gcc-12,gcc-16").split(",")
RUNS = int(os.environ.get("BENCH_RUNS", "200"))


def _wall(call) -> str:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    s = stats(times)
    return f"{s.min * 1e3:.4f} / {s.median * 1e3:.4f} / {s.max * 1e3:.4f} ms"


def main() -> None:
    print(f"machine: {machine()}")
    print(f"wall per call, min / median / max of {RUNS}, after one uncached call")
    for name in NAMES:
        try:
            tc = toolchain.resolve(name)
        except WarnscopeError as exc:
            print(f"{name}: left out ({exc})")
            continue
        print(f"{name} -> {tc.name} ({tc.where})")
        print(f"  compiler_id      {_wall(lambda: toolchain.compiler_id(name))}")
        print(f"  resolve          {_wall(lambda: toolchain.resolve(name))}")
        print(f"  resolve.profile  {_wall(lambda: toolchain.resolve(name).profile.diagnostics(tc.major))}")


if __name__ == "__main__":
    main()
