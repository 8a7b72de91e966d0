"""Debian roots: what preparing one costs, and what running a compiler from one costs.

1. Preparing a root from an empty directory: ``toolchain add BENCH_ZOO_COMPILER``
   (default gcc-14, from trixie) into a private cache, timed in two parts (debootstrap
   + apt lists; apt-get install of the compiler), wall and CPU user+sys of the whole
   process tree, and the disk it takes. ``BENCH_ZOO_DEBS=shared`` (the default) takes
   the packages from the shared download cache (``~/.cache/warnscope/roots/debs``,
   filled by an earlier add: no network), ``fresh`` downloads them.
2. The UB runner's cell work -- one sandboxed compile and two sandboxed runs of each
   program -- with the same compiler from the host and from a root of the host's own
   suite (default gcc-12: host vs bookworm root), on BENCH_ZOO_PROGRAMS corpus programs
   at -O0 and -O2, cold compile cache, BENCH_RUNS rounds interleaved (host, root, host,
   root ...). CPU user+sys of this process and its reaped children, and wall. Goal: the
   root within 10 % of the host.

Needs root (preparing roots) and bubblewrap/debootstrap. Run from the repository root:
``.venv/bin/python -m bench.bench_zoo``.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from analyzer.runtime import roots
from analyzer.sandbox import runner as sandbox
from warnscope.measure import Sample, machine, run_inprocess, stats
from analyzer.runtime.toolchain import Toolchain, resolve, resolve_in_root
from warnscope.compilers import CompilerId
from analyzer.ub.compile import compile_program
from analyzer.ub.corpus import bundled_corpus, discover

ZOO = os.environ.get("BENCH_ZOO_COMPILER", "gcc-14")
SAME = os.environ.get("BENCH_ZOO_SAME", "gcc-12")
PROGRAMS = int(os.environ.get("BENCH_ZOO_PROGRAMS", "30"))
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
DEBS = os.environ.get("BENCH_ZOO_DEBS", "shared")
LIMITS = sandbox.Limits(timeout=1.0, cpu=2)


def prepare_from_nothing() -> None:
    cid = CompilerId.of(ZOO)
    shared_debs = roots.roots_dir() / "debs"
    with tempfile.TemporaryDirectory(prefix="bench-zoo-", dir="/var/tmp") as tmp:
        os.environ["WARNSCOPE_CACHE"] = tmp
        if DEBS == "shared":
            (Path(tmp) / "roots").mkdir()
            (Path(tmp) / "roots" / "debs").symlink_to(shared_debs)
        suite = roots.choose_suite(cid)
        base = run_inprocess(lambda: roots._build_base(suite, lambda _: None),
                             include_children=True)
        size_base = roots._du(roots.root_path(suite))
        inst = run_inprocess(lambda: roots.add(cid), include_children=True)
        size = roots._du(roots.root_path(suite))
        del os.environ["WARNSCOPE_CACHE"]
    print(f"prepare {ZOO} ({suite}) from an empty root dir, packages {DEBS} "
          f"({'from ' + str(shared_debs) if DEBS == 'shared' else 'downloaded'}), 1 run:")
    print(f"  debootstrap + apt-get update: wall {base.wall:.1f} s, CPU user+sys {base.cpu:.1f} s, "
          f"{size_base / 1e6:.0f} MB")
    print(f"  apt-get install {' '.join(roots.packages_for(cid))}: wall {inst.wall:.1f} s, "
          f"CPU user+sys {inst.cpu:.1f} s; root {size / 1e6:.0f} MB in all")


def cell_work(tc: Toolchain, programs: list) -> None:
    """What a UB cell does: compile in the sandbox, run twice in the sandbox."""
    for case in programs:
        source = case.source
        for level in ("-O0", "-O2"):
            build = compile_program(tc, case.language, case.std, case.path.name, source,
                                    [level], list(case.link), False)
            if build.ok:
                for _ in range(2):
                    sandbox.run(build.binary, case.args, LIMITS, root=tc.root)


def compare_host_and_root() -> None:
    cid = CompilerId.of(SAME)
    host = resolve(SAME)
    if roots.load("bookworm") is None or SAME not in roots.load("bookworm").compilers:
        roots.add(cid, "bookworm")
    inroot = resolve_in_root(SAME, "bookworm")
    programs = [c for c in discover(bundled_corpus()) if c.language == "c"][:PROGRAMS]
    samples: dict[str, list[Sample]] = {"host": [], "root": []}
    with tempfile.TemporaryDirectory(prefix="bench-zoo-ub-") as tmp:
        for i in range(RUNS + 1):  # the first round is a warm-up (page cache)
            for label, tc in (("host", host), ("root", inroot)):
                os.environ["WARNSCOPE_CACHE"] = str(Path(tmp) / f"{label}{i}")
                s = run_inprocess(lambda: cell_work(tc, programs), include_children=True)
                if i:
                    samples[label].append(s)
        del os.environ["WARNSCOPE_CACHE"]
    print(f"UB cell work, {len(programs)} C programs x -O0,-O2, compile + 2 runs each, cold "
          f"compile cache, {RUNS} rounds interleaved after 1 warm-up:")
    print(f"  host: {host.version}")
    print(f"  root: {inroot.version}")
    for label, ss in samples.items():
        cpu, wall = stats([s.cpu for s in ss]), stats([s.wall for s in ss])
        print(f"  {label}: CPU user+sys min {cpu.min:.2f} / median {cpu.median:.2f} / max "
              f"{cpu.max:.2f} s; wall min {wall.min:.2f} / median {wall.median:.2f} / max "
              f"{wall.max:.2f} s")
    h = stats([s.cpu for s in samples["host"]]).median
    r = stats([s.cpu for s in samples["root"]]).median
    hw = stats([s.wall for s in samples["host"]]).median
    rw = stats([s.wall for s in samples["root"]]).median
    print(f"  root / host: CPU {r / h:.3f}, wall {rw / hw:.3f}  (goal <= 1.10)")


def main() -> None:
    print(f"machine: {machine()}")
    if os.environ.get("BENCH_ZOO_SKIP_PREPARE") != "1":
        prepare_from_nothing()
    compare_host_and_root()


if __name__ == "__main__":
    main()
