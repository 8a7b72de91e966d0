"""What makes a UB run fast without changing its results: results handed over in
batches (each job exactly once), the longest jobs started first, and the short
recheck of a program that hung. No compilers: jobs are built from the bundled corpus
and a Toolchain record; runs are RunResult records."""
from __future__ import annotations

from analyzer.sandbox import runner as sandbox
from analyzer.runtime.executors import LocalExecutor, map_batches
from analyzer.runtime.toolchain import Toolchain
from analyzer.ub import run as ub_run
from analyzer.ub.classify import classify
from analyzer.ub.corpus import bundled_corpus, discover
from analyzer.ub.jobs import (HANG_RECHECK_SECONDS, CellJob, ClangUnit, ClangWarningsJob,
                              SanitizerJob, recheck_limits)

GCC = Toolchain(name="gcc-12", family="gcc", major=12, c_driver="/usr/bin/gcc-12",
                cxx_driver="/usr/bin/g++-12", version="gcc-12 (test record)", identity="x")
CLANG = Toolchain(name="clang-16", family="clang", major=16, c_driver="/usr/bin/clang-16",
                  cxx_driver="/usr/bin/clang++-16", version="clang 16 (test record)", identity="y")


def double(n: int) -> int:
    return 2 * n


def test_batches_hold_every_job_exactly_once_and_never_an_empty_batch():
    with LocalExecutor(2) as ex:
        batches = list(ex.map_batches(double, range(50)))
    assert all(batches)
    assert sorted(f.job for b in batches for f in b) == list(range(50))
    assert all(f.result == 2 * f.job and f.error is None for b in batches for f in b)


def nap(seconds: float) -> float:
    import time
    time.sleep(seconds)
    return seconds


def test_a_caller_that_waits_a_limited_time_gets_empty_batches_while_jobs_run():
    with LocalExecutor(2) as ex:
        batches = list(ex.map_batches(nap, [0.0, 0.8], wait=0.1))
    assert sorted(f.job for b in batches for f in b) == [0.0, 0.8]  # each job exactly once
    assert batches.index([]) < len(batches) - 1                # an empty batch before the end
    assert sum(1 for b in batches if not b) >= 3               # one per 0.1 s of the 0.8 s job


def test_an_executor_without_batches_gives_one_job_per_batch():
    class OneByOne:
        def map(self, fn, jobs):
            with LocalExecutor(1) as ex:
                yield from ex.map(fn, jobs)

    batches = list(map_batches(OneByOne(), double, [1, 2, 3]))
    assert [[f.result for f in b] for b in batches] == [[2], [4], [6]]


def _cells(cases, compiler, level):
    return [CellJob(case=c, source=b"", compiler=compiler, level=level, flags=(), runs=2,
                    limits=sandbox.Limits(), key=f"{c.id}{compiler.name}{level}") for c in cases]


def test_longest_jobs_start_first_and_equals_keep_the_plan_order():
    cases = discover(bundled_corpus())
    c_case = next(c for c in cases if c.language == "c")
    cpp_case = next(c for c in cases if c.language == "c++")
    hung = next(c for c in cases if c.language == "c" and c is not c_case)
    o0 = _cells([c_case, cpp_case, hung], GCC, "-O0")
    o2 = _cells([c_case, cpp_case], GCC, "-O2")
    san = SanitizerJob(case=c_case, source=b"", compiler=CLANG, sanitizer="address",
                       limits=sandbox.Limits(), key="s")
    warn = ClangWarningsJob(compiler=CLANG, units=(ClangUnit(case=c_case, source=b"",
                                                             level="-O0", flags=(), key="w"),))
    order = ub_run.schedule([*o0, *o2, san, warn], hung={hung.id})
    assert order[0] is warn                       # a batch of libclang parses
    assert order[1] is o0[2]                      # a case that hung before
    assert order[2:4] == [o2[1], o0[1]]           # C++ compiles, -O2 before -O0
    assert order[4:] == [san, o2[0], o0[0]]       # then the C jobs, sanitizer build first
    assert sorted(map(id, order)) == sorted(map(id, [*o0, *o2, san, warn]))


def test_among_equals_the_jobs_of_one_compiler_and_level_run_together():
    cases = [c for c in discover(bundled_corpus()) if c.language == "c"][:3]
    plan = [cell for case in cases for comp in (GCC, CLANG) for level in ("-O2", "-O3")
            for cell in _cells([case], comp, level)]      # the plan's order: case by case
    order = ub_run.schedule(plan)
    assert [(j.compiler.name, j.level) for j in order] == (
        [("clang-16", "-O2")] * 3 + [("clang-16", "-O3")] * 3
        + [("gcc-12", "-O2")] * 3 + [("gcc-12", "-O3")] * 3)
    for name, level in {(j.compiler.name, j.level) for j in order}:  # each group in plan order
        group = [j for j in order if (j.compiler.name, j.level) == (name, level)]
        assert [j.case.id for j in group] == [c.id for c in cases]


def test_a_hung_program_is_rechecked_under_a_short_limit_never_a_longer_one():
    long = recheck_limits(sandbox.Limits(timeout=3.0, cpu=4))
    assert (long.timeout, long.cpu) == (HANG_RECHECK_SECONDS, 1)
    assert long.memory == sandbox.Limits().memory            # only the time limits change
    short = recheck_limits(sandbox.Limits(timeout=0.2, cpu=1))
    assert (short.timeout, short.cpu) == (0.2, 1)


def _run(status: str, exit: int | None = None, stdout: bytes = b"") -> sandbox.RunResult:
    return sandbox.RunResult(status=status, exit=exit, signal=None, stdout=stdout, stderr=b"",
                             truncated=False, wall=0.1, user=0.0, sys=0.0, maxrss_kb=0,
                             limit="time" if status == "timeout" else None)


def test_a_recheck_that_ends_makes_the_cell_nondeterministic_one_that_hangs_a_hang():
    case = next(c for c in discover(bundled_corpus()) if c.expected)
    assert classify(case, [_run("timeout"), _run("timeout")]).outcome == "hang"
    ended = _run("exit", case.exit, case.expected[0])
    assert classify(case, [_run("timeout"), ended]).outcome == "nondeterministic"
