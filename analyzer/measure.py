"""Shared measurement helpers of the benchmarks: CPU (user+sys) and wall per run.

A child process is measured with ``os.wait4`` rusage; in-process work with
``resource.getrusage(RUSAGE_SELF)`` deltas. Every figure is reported as
min / median / max over N runs, after one warm-up run, with the machine it ran on.
"""
from __future__ import annotations

import os
import platform
import resource
import statistics
import subprocess
import time
from dataclasses import dataclass
from typing import Callable


@dataclass
class Sample:
    cpu: float   # user + sys seconds
    wall: float  # seconds


def run_child(cmd: list[str], env: dict | None = None) -> Sample:
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {os.waitstatus_to_exitcode(status)}")
    return Sample(usage.ru_utime + usage.ru_stime, wall)


def run_inprocess(fn: Callable[[], object]) -> Sample:
    before = resource.getrusage(resource.RUSAGE_SELF)
    start = time.monotonic()
    fn()
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Sample(cpu, wall)


def measure(sample: Callable[[], Sample], runs: int) -> list[Sample]:
    sample()  # warm-up
    return [sample() for _ in range(runs)]


def summary(name: str, samples: list[Sample], goal: float | None = None) -> str:
    def mmm(values: list[float]) -> str:
        return (f"min {min(values)*1000:7.1f} ms  median {statistics.median(values)*1000:7.1f} ms  "
                f"max {max(values)*1000:7.1f} ms")

    goal_text = f"  (goal <= {goal*1000:.0f} ms CPU)" if goal else ""
    return (f"{name}: {len(samples)} runs after 1 warm-up{goal_text}\n"
            f"  CPU user+sys  {mmm([s.cpu for s in samples])}\n"
            f"  wall          {mmm([s.wall for s in samples])}")


def machine() -> str:
    model = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"{model}, {os.cpu_count()} cores, Linux {platform.release()}, "
            f"Python {platform.python_version()}, load average {load}")
