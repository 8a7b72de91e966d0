"""What keying stored builds and compilers costs: the digest of a project's tree (every
file read and hashed, :mod:`analyzer.projects.digest`), which ``warnings run``,
``upgrade`` and ``advise`` compute once per command, and a compiler's identity resolved
from its cache (:func:`analyzer.runtime.identify.identify`: one stat of the binary).

For each project of BENCH_DIGEST_PROJECTS (default zlib, cppcheck: a small and a large
tree; fetched into the cache once, before anything is measured) the digest BENCH_RUNS
times (default 5), CPU user+sys of this process, min / median / max, with the tree's
files and bytes; then ``identify`` of BENCH_COMPILER (default gcc-12) 200 times once
cached, wall, min / median / max. Run from the repository root:
``.venv/bin/python -m bench.bench_tree_digest``.
"""
from __future__ import annotations

import os
import resource
import time

from analyzer.projects import digest, recipes, steps
from analyzer.runtime import identify
from warnscope.measure import machine, stats

PROJECTS = os.environ.get("BENCH_DIGEST_PROJECTS", "zlib,cppcheck").split(",")
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
COMPILER = os.environ.get("BENCH_COMPILER", "gcc-12")


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> None:
    print(f"machine: {machine()}")
    for name in PROJECTS:
        recipe = recipes.get(name)
        tree = steps.source_tree(recipe)[0]
        files = size = 0
        for folder, _dirs, names in os.walk(tree):
            for n in names:
                st = os.lstat(os.path.join(folder, n))
                files, size = files + 1, size + st.st_size
        times = []
        for _ in range(RUNS):
            start = _cpu()
            digest.tree_digest(tree, recipe)
            times.append(_cpu() - start)
        s = stats(times)
        print(f"digest {name}: {files} files, {size / 1e6:.1f} MB: CPU user+sys "
              f"{s.min * 1e3:.0f} / {s.median * 1e3:.0f} / {s.max * 1e3:.0f} ms (min / median / max of {RUNS})")
    identify.identify(COMPILER)
    times = []
    for _ in range(200):
        start = time.perf_counter()
        identify.identify(COMPILER)
        times.append(time.perf_counter() - start)
    s = stats(times)
    print(f"identify {COMPILER}, cached: wall {s.min * 1e3:.3f} / {s.median * 1e3:.3f} / "
          f"{s.max * 1e3:.3f} ms (min / median / max of 200)")


if __name__ == "__main__":
    main()
