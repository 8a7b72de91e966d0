"""The order in which a pool hands out jobs (analyzer.runtime.executors.JobQueue): the given
order, except for groups promoted while they wait."""
from __future__ import annotations

from analyzer.runtime.executors import JobQueue


def test_jobs_come_out_in_order_until_a_group_is_promoted():
    q = JobQueue(["a1", "b1", "a2", "c1", "b2", "a3"], group=lambda j: j[0])
    assert len(q) == 6 and list(q) == ["a1", "b1", "a2", "c1", "b2", "a3"]
    assert q.pop() == "a1"
    q.promote("b")
    assert list(q) == ["b1", "b2", "a2", "c1", "a3"]
    assert q.pop() == "b1" and len(q) == 4
    q.promote("a")                      # a1 was taken already: only a2 and a3 move
    assert [q.pop() for _ in range(4)] == ["b2", "a2", "a3", "c1"]
    assert q.pop() is None and len(q) == 0


def test_promoting_twice_or_an_unknown_group_changes_nothing():
    q = JobQueue(["x", "y"], group=lambda j: None if j == "x" else "g")
    q.promote("g")
    q.promote("g")
    q.promote("nobody")
    assert [q.pop(), q.pop(), q.pop()] == ["y", "x", None]
