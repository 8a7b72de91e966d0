"""What ``ub run --why`` costs a default run: the same run with and without ``--why``.

On the bundled corpus (or BENCH_UB_CORPUS), or only the categories BENCH_UB_CATEGORIES
names (comma-separated: ``signed-integer-overflow,null-dereference``; copied to a
temporary corpus, so the case ids stay the same), with BENCH_UB_COMPILERS (default the
host's five: gcc-11, gcc-12, clang-14, clang-16, clang-19) x BENCH_UB_LEVELS (default
-O0, -O1, -O2, -O3, -Os, -Og), warnings and sanitizers on, as ``ub run`` runs by
default.

Each round runs cold twice, once without ``--why`` and once with it, each with an empty
cache (compiles and causes) and an empty database, the order alternating between rounds
(A B, B A, ...) so drift cancels; BENCH_ROUNDS rounds (default 3). Printed per mode:
wall and CPU (user+sys of this process and everything it reaped) min / median / max,
the ratio of the medians, the cells, the divergent cells explained, and the load average
before and after each run; BENCH_UB_KEEP=DIR keeps each run's database there. Run
from the repository root: ``.venv/bin/python -m bench.bench_ub_why``.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from warnscope.database import connect
from warnscope.measure import Sample, machine, ratio_of_medians, run_inprocess, wall_and_cpu
from analyzer.runtime.toolchain import resolve
from analyzer.ub import run as ub_run
from analyzer.runtime.toolchain import resolve_list
from analyzer.ub.corpus import bundled_corpus

CORPUS = os.environ.get("BENCH_UB_CORPUS") or str(bundled_corpus())
CATEGORIES = [c for c in os.environ.get("BENCH_UB_CATEGORIES", "").split(",") if c]
COMPILERS = os.environ.get("BENCH_UB_COMPILERS",
                           "gcc-11,gcc-12,clang-14,clang-16,clang-19").split(",")
LEVELS = os.environ.get("BENCH_UB_LEVELS", "O0,O1,O2,O3,Os,Og").split(",")
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
#: a directory to keep each run's database in (r1-why.db, ...), to read its causes after
KEEP = os.environ.get("BENCH_UB_KEEP")


def load() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def subset(tmp: Path) -> str:
    """The corpus the runs read: the whole one, or a copy of the categories asked for."""
    if not CATEGORIES:
        return CORPUS
    corpus = tmp / "corpus"
    for category in CATEGORIES:
        shutil.copytree(Path(CORPUS) / category, corpus / category)
    return str(corpus)


def timed_run(corpus: str, db: Path, why: bool) -> tuple[ub_run.RunSummary, Sample]:
    conn = connect(db)
    out: list[ub_run.RunSummary] = []
    sample = run_inprocess(lambda: out.append(ub_run.run(conn, corpus, resolve_list(COMPILERS), LEVELS,
                                                         why=why)),
                           include_children=True)
    conn.close()
    return out[0], sample


def main() -> None:
    print(f"machine: {machine()}")
    print(f"compilers: {'; '.join(resolve(c).version for c in COMPILERS)}; levels "
          f"{','.join(LEVELS)}; warnings and sanitizers on; corpus "
          f"{', '.join(CATEGORIES) if CATEGORIES else CORPUS}")
    samples: dict[bool, list[Sample]] = {True: [], False: []}
    with tempfile.TemporaryDirectory(prefix="bench-ubwhy-") as tmp:
        corpus = subset(Path(tmp))
        for r in range(ROUNDS):
            for why in ((False, True) if r % 2 == 0 else (True, False)):
                here = Path(tmp) / f"r{r}-{'why' if why else 'plain'}"
                here.mkdir()
                os.environ["WARNSCOPE_CACHE"] = str(here / "cache")
                before = load()
                s, m = timed_run(corpus, here / "ub.db", why)
                samples[why].append(m)
                print(f"round {r + 1} {'with' if why else 'without'} --why: {s.cells} cells, "
                      f"{s.explained} causes found, wall {m.wall:.1f} s, CPU {m.cpu:.1f} s "
                      f"(user {m.user:.1f} + sys {m.sys:.1f}); load {before} -> {load()}",
                      flush=True)
                if KEEP:
                    Path(KEEP).mkdir(parents=True, exist_ok=True)
                    shutil.copy(here / "ub.db", Path(KEEP) / f"{here.name}.db")
                assert s.cells_run == s.cells and s.failures == [], s.failures[:3]
                shutil.rmtree(here)
    for why in (False, True):
        w, c = wall_and_cpu(samples[why])
        print(f"{'with' if why else 'without'} --why: wall {w.text()} s, CPU user+sys "
              f"{c.text()} s (min / median / max, {w.n} cold runs)")
    mw, mc = ratio_of_medians(samples[True], samples[False])
    print(f"with / without, medians: wall {mw:.2f}, CPU {mc:.2f}")


if __name__ == "__main__":
    main()
