"""What keeping the generated code costs a cold UB run, and the database it adds.

On the bundled corpus (or BENCH_UB_CORPUS) with BENCH_UB_COMPILERS / BENCH_UB_LEVELS
(default: gcc-12, clang-16 x -O0, -O2), warnings and sanitizers off, so that a cell is
exactly one compile (with code: ``-g`` and objdump in the same sandbox run) and the runs
of its program -- the strictest view: a default run's warnings and sanitizer builds
only add work that code capture does not touch. BENCH_UB_FULL=1 measures a default
run (warnings and sanitizer builds on) instead.

Each round runs cold twice, once with code and once without (``code=False``), each with
an empty compile cache and an empty database, the order alternating between rounds
(A B, B A, ...) so drift cancels; BENCH_ROUNDS rounds (default 2). Printed per mode:
wall and CPU (user+sys of this process and everything it reaped) min / median / max,
the ratio of the medians, and the database's size (and the part that is code). Then the
unchanged rerun of the database with code, BENCH_RUNS times (goal <= 2 s). Run from the
repository root: ``.venv/bin/python -m bench.bench_ub_code``.
"""
from __future__ import annotations

import os
import sqlite3
import tempfile
from pathlib import Path

from warnscope.database import connect
from warnscope.measure import Sample, machine, ratio_of_medians, run_inprocess, stats, wall_and_cpu
from analyzer.runtime.toolchain import resolve
from analyzer.ub import run as ub_run
from analyzer.runtime.toolchain import resolve_list
from analyzer.ub.corpus import bundled_corpus

CORPUS = os.environ.get("BENCH_UB_CORPUS") or str(bundled_corpus())
COMPILERS = os.environ.get("BENCH_UB_COMPILERS", "gcc-12,clang-16").split(",")
LEVELS = os.environ.get("BENCH_UB_LEVELS", "O0,O2").split(",")
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "2"))
#: BENCH_UB_FULL=1: a default run instead (warnings and sanitizer builds on)
FULL = os.environ.get("BENCH_UB_FULL") == "1"
RUNS = int(os.environ.get("BENCH_RUNS", "5"))


def timed_run(db: Path, code: bool) -> tuple[ub_run.RunSummary, Sample]:
    conn = connect(db)
    out: list[ub_run.RunSummary] = []
    sample = run_inprocess(lambda: out.append(ub_run.run(
        conn, CORPUS, resolve_list(COMPILERS), LEVELS, warnings=FULL, sanitizers=FULL, code=code)),
        include_children=True)
    conn.close()
    return out[0], sample


def code_bytes(db: Path) -> tuple[int, int, int]:
    """(stored code rows, their compressed bytes, cells with code)."""
    conn = sqlite3.connect(db)
    rows, size = conn.execute("SELECT count(*), coalesce(sum(length(code)), 0) FROM ub_code").fetchone()
    cells = conn.execute("SELECT count(*) FROM ub_cell WHERE code IS NOT NULL").fetchone()[0]
    conn.close()
    return rows, size, cells


def main() -> None:
    print(f"machine: {machine()}")
    print(f"compilers: {'; '.join(resolve(c).version for c in COMPILERS)}; "
          f"{'warnings and sanitizers on' if FULL else 'cells only'}")
    samples: dict[bool, list[Sample]] = {True: [], False: []}
    sizes: dict[bool, int] = {}
    with tempfile.TemporaryDirectory(prefix="bench-ubcode-") as tmp:
        for r in range(ROUNDS):
            for code in ((True, False) if r % 2 == 0 else (False, True)):
                here = Path(tmp) / f"r{r}-{'code' if code else 'plain'}"
                here.mkdir()
                os.environ["WARNSCOPE_CACHE"] = str(here / "cache")
                s, m = timed_run(here / "ub.db", code)
                assert s.cells_run == s.cells and s.failures == []
                samples[code].append(m)
                sizes[code] = (here / "ub.db").stat().st_size
                print(f"round {r + 1} {'with' if code else 'without'} code: {s.cells} cells, "
                      f"wall {m.wall:.1f} s, CPU {m.cpu:.1f} s", flush=True)
                if code:
                    rows, size, cells = code_bytes(here / "ub.db")
                    print(f"  database {sizes[code] / 1e6:.2f} MB; {cells} cells with code, "
                          f"{rows} distinct codes, {size / 1e6:.2f} MB compressed", flush=True)
        last = Path(tmp) / f"r{ROUNDS - 1}-code"
        os.environ["WARNSCOPE_CACHE"] = str(last / "cache")
        timed_run(last / "ub.db", True)  # warm-up
        rerun = [timed_run(last / "ub.db", True)[1] for _ in range(RUNS)]
    for code in (True, False):
        w, c = wall_and_cpu(samples[code])
        print(f"{'with' if code else 'without'} code: wall {w.text()} s, CPU {c.text()} s "
              f"(min / median / max, {w.n} cold runs); database {sizes[code] / 1e6:.2f} MB")
    mw, mc = ratio_of_medians(samples[True], samples[False])
    print(f"with / without, medians: wall {mw:.3f}, CPU {mc:.3f}  (goal <= 1.05)")
    w = stats([m.wall for m in rerun])
    print(f"unchanged rerun with code: wall {w.min:.2f} / {w.median:.2f} / {w.max:.2f} s "
          f"({RUNS} runs after 1 warm-up; goal <= 2 s)")


if __name__ == "__main__":
    main()
