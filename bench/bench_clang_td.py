"""One clang ingested from its TableGen sources against the same clang from the
generated tables: parse + build the CompilerData + save to a fresh SQLite file.

The ``.td`` files come from Debian's llvm-toolchain-N orig tarball (streamed once from
the mirror into the cache, as ``flags ingest clang-N --source <its URL> --sha256 <its
digest>`` does; or a local copy given with ``--orig``, found again by its remembered
digest); the tables from libclang-N-dev. Download and extraction happen once per cache
and are not timed, on either side. CPU is user+sys of this process (``getrusage``), and
wall: the machine may be shared.

``--instructions`` counts instead the instructions one ingest executes, under cachegrind:
a figure that does not move with the machine's load or state (its CPU time does), at
the price of time (some 50× slower). Each route runs in a child Python under
cachegrind twice, the same warm-up ingest first in both, then ``--count`` more ingests
in one of them; the difference divided by the count is one ingest's instructions
(imports, the cache and the warm-up cancel). Hash randomisation is fixed, so the
count repeats to within a few thousand instructions.

    .venv/bin/python -m bench.bench_clang_td [--runs 5] [--orig TARBALL] [16]
    .venv/bin/python -m bench.bench_clang_td --instructions [--count 2] [16]
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from flagdb import clang_sources, store
from flagdb.clang_inc import parse_dir
from flagdb.clang_ingest import build, fetch_package, load_td
from warnscope import tool
from warnscope.compilers import CompilerId
from warnscope.database import connect
from warnscope.measure import CACHEGRIND, instructions, machine


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def from_td(major: int, source: str, sha256: str | None) -> object:
    """What ``flags ingest clang-N --source S --sha256 D`` reads and builds."""
    return load_td(f"clang-{major}", CompilerId.of(f"clang-{major}"), source, sha256)


def from_inc(directory: Path, major: int) -> object:
    return build(f"clang-{major}", parse_dir(directory), "inc-dir", str(directory))


def timed(make, db: Path) -> tuple[float, float]:
    """(CPU, wall) seconds of one ingest into a new database."""
    c0, w0 = cpu(), time.monotonic()
    data = make()
    conn = connect(db)
    store.save(conn, data)
    conn.close()
    return cpu() - c0, time.monotonic() - w0


def ingests(route: str, major: int, source: str, sha256: str | None, count: int) -> None:
    """The child of ``--instructions``: one warm-up ingest by ``route``, then ``count`` more."""
    directory, _ = fetch_package(major)
    make = (lambda: from_td(major, source, sha256)) if route == "td" else (lambda: from_inc(directory, major))
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(count + 1):
            timed(make, Path(tmp) / f"{i}.db")


def counted(route: str, major: int, source: str, sha256: str | None, count: int) -> int:
    """Instructions of ``ingests(route, …, count)`` in a child Python under cachegrind."""
    argv = [*CACHEGRIND, sys.executable, "-m", "bench.bench_clang_td", "--child", route,
            "--count", str(count), "--source", source, *(["--sha256", sha256] if sha256 else []),
            str(major)]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = tool.run(argv, timeout=3600, text=False, env=env, cwd=Path(__file__).parents[1])
    return instructions(done.stderr)


def per_ingest(route: str, major: int, source: str, sha256: str | None, count: int) -> float:
    """One ingest's instructions by ``route``: (warm-up + count) minus (warm-up), / count."""
    return (counted(route, major, source, sha256, count) - counted(route, major, source, sha256, 0)) / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--orig", type=Path, help="the llvm orig tarball (else fetched)")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions under cachegrind instead of timing")
    parser.add_argument("--count", type=int, default=2, help="with --instructions: ingests counted")
    parser.add_argument("--child", choices=("td", "inc"), help=argparse.SUPPRESS)
    parser.add_argument("--source", help=argparse.SUPPRESS)
    parser.add_argument("--sha256", help=argparse.SUPPRESS)
    parser.add_argument("major", nargs="?", type=int, default=16)
    args = parser.parse_args()
    if args.child:
        ingests(args.child, args.major, args.source, args.sha256, args.count)
        return
    print(f"machine: {machine()}")
    if args.orig:
        source, sha256 = str(args.orig), None
    else:
        orig = clang_sources.debian_orig(args.major)
        source, sha256 = orig.url, orig.sha256
    directory, _ = fetch_package(args.major)
    from_td(args.major, source, sha256)   # warm-up, and the one extraction into the cache
    if args.instructions:
        td, inc = (per_ingest(r, args.major, source, sha256, args.count) for r in ("td", "inc"))
        print(f"clang-{args.major} instructions per ingest (cachegrind, {args.count} counted "
              f"after a warm-up): td {td / 1e6:.1f} M, tables {inc / 1e6:.1f} M, "
              f"td / tables {td / inc:.3f}")
        print(f"machine after: {machine()}")
        return
    with tempfile.TemporaryDirectory() as tmp:
        results = {"td": [], "inc": []}
        for i in range(args.runs):      # interleaved, so load on the machine hits both
            results["td"].append(timed(lambda: from_td(args.major, source, sha256), Path(tmp) / f"t{i}.db"))
            results["inc"].append(timed(lambda: from_inc(directory, args.major), Path(tmp) / f"i{i}.db"))
    def spread(values: list[float]) -> str:
        return (f"min {min(values)*1000:.0f} / median {statistics.median(values)*1000:.0f} / "
                f"max {max(values)*1000:.0f} ms")

    for route, runs in results.items():
        print(f"clang-{args.major} from {route:3}: cpu {spread([c for c, _ in runs])}, "
              f"wall {spread([w for _, w in runs])} ({args.runs} runs)")
    td, inc = ([c for c, _ in results[r]] for r in ("td", "inc"))
    print(f"td / tables (cpu): medians {statistics.median(td) / statistics.median(inc):.2f}, "
          f"minima {min(td) / min(inc):.2f}")
    print(f"machine after: {machine()}")


if __name__ == "__main__":
    main()
