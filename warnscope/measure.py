"""Measuring what a command or a piece of code costs: CPU, wall time and memory.

Every benchmark, and the build-overhead matrix, measures the same way so that their
figures can be compared:

* a child process by ``os.wait4`` (:func:`warnscope.tool.run_measured` runs it): the
  kernel's rusage of exactly that child (and its reaped descendants), user and sys CPU
  and max RSS, with a monotonic wall clock around it -- not ``RUSAGE_CHILDREN``, which
  mixes in every earlier child;
* in-process work by ``getrusage(RUSAGE_SELF)`` deltas;
* N runs after one warm-up, reported as min / median / max (the minimum is the
  figure least disturbed by other load; the spread says how much there was);
* with the machine it ran on (CPU model, cores, kernel, load average, Python);
* or, where the machine's state moves the CPU figures, as instructions executed, counted
  by cachegrind (:data:`CACHEGRIND`, :func:`instructions`): the same count on a busy or a
  quiet machine, but not time.
"""
from __future__ import annotations

import os
import platform
import re
import resource
import statistics
import time
from dataclasses import dataclass
from typing import Callable, Sequence


#: how cachegrind runs a command: every child (cc1, as) counted, no cache simulation
CACHEGRIND = ("valgrind", "--tool=cachegrind", "--cache-sim=no", "--trace-children=yes",
              "--cachegrind-out-file=/dev/null")
#: cachegrind's count of instructions executed, one line per process, in its stderr
_IREFS = re.compile(rb"==\d+== I\s+refs:\s+([\d,]+)")


def instructions(output: bytes) -> int:
    """The instructions executed by every process whose cachegrind summary is in ``output``."""
    return sum(int(m.replace(b",", b"")) for m in _IREFS.findall(output))


@dataclass(frozen=True)
class Sample:
    """One measured run. ``maxrss_kb`` is 0 for in-process samples (not a delta)."""

    user: float        # seconds of user CPU
    sys: float         # seconds of system CPU
    wall: float        # seconds, monotonic clock
    maxrss_kb: int = 0

    @property
    def cpu(self) -> float:
        """user + sys seconds."""
        return self.user + self.sys


@dataclass(frozen=True)
class Stats:
    """min / median / max of one quantity over N runs."""

    min: float
    median: float
    max: float
    n: int

    def text(self, fmt: str = ".1f") -> str:
        """``min / median / max`` in ``fmt``."""
        return f"{self.min:{fmt}} / {self.median:{fmt}} / {self.max:{fmt}}"


def stats(values: Sequence[float]) -> Stats:
    """The :class:`Stats` of ``values`` (at least one)."""
    if not values:
        raise ValueError("no values to summarise")
    return Stats(min=min(values), median=statistics.median(values), max=max(values),
                 n=len(values))


def wall_and_cpu(samples: Sequence[Sample]) -> tuple[Stats, Stats]:
    """The wall and the CPU (user+sys) :class:`Stats` of a set of measured runs."""
    return stats([s.wall for s in samples]), stats([s.cpu for s in samples])


def ratio_of_medians(a: Sequence[Sample], b: Sequence[Sample]) -> tuple[float, float]:
    """(wall, CPU): the median of ``a`` over the median of ``b``, each."""
    (wa, ca), (wb, cb) = wall_and_cpu(a), wall_and_cpu(b)
    return wa.median / wb.median, ca.median / cb.median


#: scheduling policies a measured run may ask for (``--sched``)
SCHED = {"batch": getattr(os, "SCHED_BATCH", None), "idle": getattr(os, "SCHED_IDLE", None)}


@dataclass(frozen=True)
class TreeRun(Sample):
    """A measured process tree: its :class:`Sample`, how it ended, and the load it met."""

    exit: int = 0      # exit code; 128+N for a signal, -1 for a timeout kill
    load1: float = 0.0  # 1-minute load average when it started


def run_inprocess(fn: Callable[[], object], include_children: bool = False) -> Sample:
    """Measure ``fn()`` in this process: CPU by ``RUSAGE_SELF`` deltas, monotonic wall.

    ``include_children`` adds the ``RUSAGE_CHILDREN`` delta: the CPU of the processes
    ``fn`` started and reaped (compilers, pool workers), for library calls whose cost
    is mostly in the programs they run.
    """
    who = [resource.RUSAGE_SELF] + ([resource.RUSAGE_CHILDREN] if include_children else [])
    before = [resource.getrusage(w) for w in who]
    start = time.monotonic()
    fn()
    wall = time.monotonic() - start
    after = [resource.getrusage(w) for w in who]
    return Sample(user=sum(a.ru_utime - b.ru_utime for a, b in zip(after, before)),
                  sys=sum(a.ru_stime - b.ru_stime for a, b in zip(after, before)),
                  wall=wall)


def measure(sample: Callable[[], Sample], runs: int) -> list[Sample]:
    """``runs`` samples after one warm-up run (caches, page faults, bytecode)."""
    if runs < 1:
        raise ValueError("runs must be at least 1")
    sample()
    return [sample() for _ in range(runs)]


def summary(name: str, samples: Sequence[Sample], goal: float | None = None) -> str:
    """The text of a benchmark figure: CPU and wall, min / median / max, in ms."""
    def mmm(s: Stats) -> str:
        return (f"min {s.min * 1000:7.1f} ms  median {s.median * 1000:7.1f} ms  "
                f"max {s.max * 1000:7.1f} ms")

    goal_text = f"  (goal <= {goal * 1000:.0f} ms CPU)" if goal else ""
    return (f"{name}: {len(samples)} runs after 1 warm-up{goal_text}\n"
            f"  CPU user+sys  {mmm(stats([s.cpu for s in samples]))}\n"
            f"  wall          {mmm(stats([s.wall for s in samples]))}")


@dataclass(frozen=True)
class Machine:
    """What a figure was measured on. ``host``: the machine's name, which studies store
    with every run (ratios are only taken within one host)."""

    cpu_model: str
    cores: int
    kernel: str
    load_average: tuple[float, float, float]
    python: str
    host: str = ""

    def __str__(self) -> str:
        load = ", ".join(f"{x:.2f}" for x in self.load_average)
        return (f"{self.cpu_model}, {self.cores} cores, Linux {self.kernel}, "
                f"Python {self.python}, load average {load}")


def machine_facts() -> Machine:
    """The machine this process runs on, now (the load average changes)."""
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return Machine(cpu_model=model, cores=os.cpu_count() or 1, kernel=platform.release(),
                   load_average=os.getloadavg(), python=platform.python_version(), host=host())


def host() -> str:
    """This machine's name, as every stored run records it."""
    return platform.node()


def machine() -> str:
    """:func:`machine_facts` as one line, for a benchmark's header."""
    return str(machine_facts())
