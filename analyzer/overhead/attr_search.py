"""The group-testing search of an attribution: which slices of the ``all`` flag set
cost more than a threshold over ``off``.

The flag set is halved (in its own order); each half is measured and the search
recurses into each half whose added cost over ``off`` is above the threshold. A single
flag above it is a suspect; a group above it whose halves are both below it is
*diffuse* (the cost is spread over its flags, or needs two of them together). The
search stops at ``max_suspects`` leaves.
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Callable

from analyzer.overhead.results import Probe, Step

#: measures probes (``runs`` times each, under a label): :meth:`Attributor.measure`
Measure = Callable[[list[Probe], int, str], list[Probe]]


def threshold(off: list[float], added_median: float, min_share: float, metric: str) -> float:
    """The added cost above which a group costs: ``min_share`` of all's added cost, and
    with ``cpu`` at least the spread of ``off``'s runs and 1 % of ``off`` (below the
    runs' noise a difference says nothing; an exact count has no noise)."""
    value = min_share * max(added_median, 0)
    if metric == "cpu":
        value = max(value, max(off) - min(off), 0.01 * statistics.median(off))
    return value


@dataclass
class Search:
    """The search's record: every probe made (``steps``) and the leaves it ended on,
    each (flags, diffuse)."""

    steps: list[Step] = field(default_factory=list)
    leaves: list[tuple[tuple[str, ...], bool]] = field(default_factory=list)


def search(flags: tuple[str, ...], off_median: float, limit: float, metric: str, runs: int,
           max_suspects: int, measure: Measure, label: str) -> Search:
    """Group testing over ``flags``; ``limit`` is :func:`threshold`'s answer."""
    found = Search()

    def cost(p: Probe) -> float:
        return statistics.median(p.values()) - off_median

    def split(group: tuple[str, ...], depth: int) -> None:
        if len(found.leaves) >= max_suspects:
            return
        if len(group) == 1:
            found.leaves.append((group, False))
            return
        half = len(group) // 2
        parts = (group[:half], group[half:])
        measured = measure([Probe("subset", p, metric) for p in parts], runs, f"{label} search depth {depth}")
        costly = []
        for part, p in zip(parts, measured):
            c = cost(p)
            found.steps.append(Step(depth, len(part), part[0], part[-1], round(c, 4), c > limit))
            if c > limit:
                costly.append(part)
        if not costly:
            found.leaves.append((group, True))   # above the threshold together, neither half alone
        for part in costly:
            split(part, depth + 1)

    split(flags, 1)
    return found
