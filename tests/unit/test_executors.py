"""The local executor alone: how many workers it starts, and that it runs any job and
reports a failure (an exception, a worker that dies) as data, never as a hung run."""
from __future__ import annotations

import concurrent.futures as cf
import os
import time
from pathlib import Path

import pytest

from analyzer.runtime.executors import MAX_WORKERS_PER_CORE, LocalExecutor, cores, in_use
from warnscope.errors import WarnscopeError


def test_workers_are_bounded_by_the_jobs_and_the_cores():
    assert LocalExecutor(100000).workers_for(10**6) == MAX_WORKERS_PER_CORE * cores()
    assert LocalExecutor(100000).workers_for(3) == 3
    assert LocalExecutor(1).workers_for(50) == 1
    assert LocalExecutor().workers_for(1) == 1
    for bad in (0, -1):
        with pytest.raises(WarnscopeError, match="at least 1"):
            LocalExecutor(bad)


def square(n: int) -> int:
    if n == 3:
        raise ValueError("three is not welcome")
    return n * n


def test_the_local_executor_runs_any_job_and_reports_failures_as_data():
    with LocalExecutor(2) as ex:
        done = {d.job: d for d in ex.map(square, range(6))}
    assert {j: d.result for j, d in done.items() if d.error is None} == {
        0: 0, 1: 1, 2: 4, 4: 16, 5: 25}
    assert isinstance(done[3].error, ValueError) and done[3].result is None


def test_a_worker_that_dies_is_a_failed_job_not_a_hung_run():
    with LocalExecutor(1) as ex:
        done = list(ex.map(os._exit, [3]))
    assert len(done) == 1 and done[0].error is not None


def test_in_use_aborts_keeps_what_arrived_and_raises_the_first_error():
    """A run's executor in use: its own local pool closed at the end; the caller's left
    open; on an error (Ctrl-C here) the pool is stopped, ``keep`` stores what arrived,
    and a ``keep`` that fails too does not hide the first error."""
    kept = []
    with pytest.raises(KeyboardInterrupt):
        with in_use(None, 1, keep=lambda: kept.append("stored")) as ex:
            assert [d.result for d in ex.map(square, [2])] == [4]
            raise KeyboardInterrupt
    assert kept == ["stored"] and ex.pool is None

    def broken() -> None:
        raise OSError("disk full")
    with pytest.raises(ValueError, match="first"):
        with in_use(None, 1, keep=broken):
            raise ValueError("first")
    mine = LocalExecutor(1)
    with in_use(mine) as ex:
        assert ex is mine and [d.result for d in ex.map(square, [5])] == [25]
    assert mine.pool is not None    # the caller's: the caller closes it
    mine.close()


#: set by a test just before it submits: a forked worker sees it without pickling
SHARED: dict[str, object] = {}


def read_shared(key: str) -> object:
    return SHARED.get(key), os.getppid()


def test_submit_runs_one_job_in_a_forked_worker_that_sees_this_process_data():
    SHARED["data"] = ["loaded", "after import"]
    try:
        with LocalExecutor(1) as ex:
            fut = ex.submit(read_shared, "data")
            assert fut.result(timeout=60) == (["loaded", "after import"], os.getpid())
    finally:
        SHARED.clear()


def test_submit_a_worker_that_dies_raises_broken_pool():
    with LocalExecutor(1) as ex:
        with pytest.raises(cf.process.BrokenProcessPool):
            ex.submit(os._exit, 3).result(timeout=60)


def test_abort_ends_a_submitted_job_at_once_and_its_worker():
    ex = LocalExecutor(1)
    fut = ex.submit(time.sleep, 120)
    workers = [p.pid for p in ex.pool._processes.values()]
    assert len(workers) == 1
    start = time.monotonic()
    ex.abort()
    assert time.monotonic() - start < 10
    with pytest.raises(cf.process.BrokenProcessPool):
        fut.result(timeout=10)
    assert not Path(f"/proc/{workers[0]}").exists()  # ended and reaped


def test_a_later_map_releases_the_pool_of_an_earlier_submit():
    with LocalExecutor(1) as ex:
        assert ex.submit(square, 4).result(timeout=60) == 16
        first = ex.pool
        assert [d.result for d in ex.map(square, [5])] == [25]
        assert ex.pool is not first


def affinity(_: int) -> tuple[int, tuple[int, ...]]:
    time.sleep(0.05)  # long enough that every worker takes a job
    return os.getpid(), tuple(sorted(os.sched_getaffinity(0)))


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two cores")
def test_pinned_workers_keep_to_one_core_each_and_share_the_cores_evenly():
    cpus = sorted(os.sched_getaffinity(0))
    workers = 2 * len(cpus)
    with LocalExecutor(workers, pin=True) as ex:
        seen = dict(d.result for d in ex.map(affinity, range(8 * workers)))
    assert len(seen) == workers
    assert all(len(mask) == 1 for mask in seen.values())
    per_core = [mask[0] for mask in seen.values()]
    assert sorted(per_core) == sorted(cpus * 2)        # two on each core
    assert sorted(os.sched_getaffinity(0)) == cpus     # the caller itself is not pinned


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two cores")
def test_workers_that_cannot_share_the_cores_evenly_are_not_pinned():
    cpus = tuple(sorted(os.sched_getaffinity(0)))
    with LocalExecutor(1, pin=True) as ex:
        assert {d.result[1] for d in ex.map(affinity, range(3))} == {cpus}
