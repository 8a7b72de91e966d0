"""warnscope.measure: a real busy child is measured by its own rusage, statistics are
min / median / max, and the machine line says what it ran on."""
from __future__ import annotations

import os
import time

import pytest

from warnscope.measure import (Machine, Sample, machine, machine_facts, measure, run_inprocess,
                              stats, summary)
from warnscope.tool import run_child

#: a shell loop that burns CPU for a while (about 0.1-0.5 s here)
BUSY = ["sh", "-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"]


def test_in_process_work_and_its_children():
    def spin() -> None:
        end = time.process_time() + 0.05
        while time.process_time() < end:
            pass

    own = run_inprocess(spin)
    assert own.cpu >= 0.04 and own.wall >= 0.04
    with_child = run_inprocess(lambda: run_child(BUSY), include_children=True)
    without = run_inprocess(lambda: run_child(BUSY))
    assert with_child.cpu > without.cpu + 0.01      # the child's CPU only counted when asked


def test_stats_over_known_numbers():
    assert stats([3.0, 1.0, 2.0]) == stats([1.0, 2.0, 3.0])
    s = stats([5.0, 1.0, 4.0, 2.0])
    assert (s.min, s.median, s.max, s.n) == (1.0, 3.0, 5.0, 4)
    assert stats([7.0]).median == 7.0
    with pytest.raises(ValueError):
        stats([])


def test_measure_warms_up_once_and_summary_reports_min_median_max():
    calls = []

    def sample() -> Sample:
        calls.append(1)
        return Sample(user=0.001 * len(calls), sys=0.0, wall=0.002 * len(calls))

    samples = measure(sample, 3)
    assert len(calls) == 4 and [s.user for s in samples] == [0.002, 0.003, 0.004]
    text = summary("thing", samples, goal=0.05)
    assert text.splitlines() == [
        "thing: 3 runs after 1 warm-up  (goal <= 50 ms CPU)",
        "  CPU user+sys  min     2.0 ms  median     3.0 ms  max     4.0 ms",
        "  wall          min     4.0 ms  median     6.0 ms  max     8.0 ms",
    ]


def test_machine_facts():
    facts = machine_facts()
    assert isinstance(facts, Machine)
    assert facts.cores == os.cpu_count() and len(facts.load_average) == 3
    assert facts.kernel and facts.python.count(".") == 2
    line = machine()
    assert f"{facts.cores} cores" in line and "Python" in line and "load average" in line
