"""The local executor alone: how many workers it starts, and that it runs any job and
reports a failure (an exception, a worker that dies) as data, never as a hung run."""
from __future__ import annotations

import os

import pytest

from analyzer.executors import MAX_WORKERS_PER_CORE, LocalExecutor, cores
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
