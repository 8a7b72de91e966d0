"""One clang ingested from its TableGen sources against the same clang from the
generated tables: parse + build the CompilerData + save to a fresh SQLite file.

The ``.td`` files come from Debian's llvm-toolchain-N orig tarball (streamed once into
the cache, as ``flags ingest clang-N --source <tarball>`` does); the tables from
libclang-N-dev. Download and extraction happen once per cache and are not timed, on
either side. CPU is user+sys of this process (``getrusage``): the machine may be shared.

    .venv/bin/python -m bench.bench_clang_td [--runs 5] [--orig TARBALL] [16]
"""
from __future__ import annotations

import argparse
import resource
import statistics
import tempfile
from pathlib import Path

from flagdb import clang_sources, clang_td, store, tablegen
from flagdb.clang_inc import parse_dir
from flagdb.clang_ingest import build, fetch_package
from warnscope import apt
from warnscope.database import connect
from warnscope.measure import machine
from warnscope.paths import cache_dir


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def orig_tarball(major: int) -> Path:
    placed = sorted(cache_dir("llvm-src", "orig").glob(f"llvm-toolchain-{major}_*.orig.tar.*"))
    if placed:
        return placed[0]
    version = apt.archive().best(f"libclang-{major}-dev").version
    dsc = apt.AptState(cache_dir("llvm-src"), apt.SUITES).download(
        f"llvm-toolchain-{major}={version}")
    return sorted(dsc.parent.glob(f"llvm-toolchain-{major}_*.orig.tar.*"))[0]


def from_td(major: int, tarball: Path) -> object:
    tree, root, version, kind, provenance = clang_sources.locate(str(tarball))
    records = tablegen.read(root, lambda name: tree.read(name).decode("utf-8"))
    return build(f"clang-{major}", clang_td.tables(records, version, root), kind, provenance)


def from_inc(directory: Path, major: int) -> object:
    return build(f"clang-{major}", parse_dir(directory), "inc-dir", str(directory))


def timed(make, db: Path) -> float:
    c0 = cpu()
    data = make()
    conn = connect(db)
    store.save(conn, data)
    conn.close()
    return cpu() - c0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--orig", type=Path, help="the llvm orig tarball (else fetched)")
    parser.add_argument("major", nargs="?", type=int, default=16)
    args = parser.parse_args()
    print(f"machine: {machine()}")
    tarball = args.orig or orig_tarball(args.major)
    directory, _ = fetch_package(args.major)
    from_td(args.major, tarball)       # warm-up, and the one extraction into the cache
    with tempfile.TemporaryDirectory() as tmp:
        results = {"td": [], "inc": []}
        for i in range(args.runs):      # interleaved, so load on the machine hits both
            results["td"].append(timed(lambda: from_td(args.major, tarball), Path(tmp) / f"t{i}.db"))
            results["inc"].append(timed(lambda: from_inc(directory, args.major), Path(tmp) / f"i{i}.db"))
    for route, values in results.items():
        print(f"clang-{args.major} from {route:3}: cpu min {min(values)*1000:.0f} ms, median "
              f"{statistics.median(values)*1000:.0f} ms, max {max(values)*1000:.0f} ms "
              f"({args.runs} runs)")
    ratio = statistics.median(results["td"]) / statistics.median(results["inc"])
    print(f"td / tables (median cpu): {ratio:.2f}")


if __name__ == "__main__":
    main()
