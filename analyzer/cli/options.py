"""Numeric options: one type, :class:`Number`, that every number a command takes goes
through, so each is finite and within its stated range before the command starts.

A number from the command line ends up in a sandbox limit, a loop count, a SQLite
column or a ``make -j``; ``nan`` slips through every ``x <= 0`` check, ``inf`` is
an unbounded wait and ``100000000000000000000`` overflows SQLite's integer. Click's own
``FloatRange`` takes ``nan``; this type refuses NaN, the infinities, anything that is
not a whole number where one is wanted, and anything outside the range, as a usage
error: one line naming the option and its range, and nothing has been written yet.
``--help`` shows each range beside the option.
"""
from __future__ import annotations

import math
from typing import Any

import click

#: the largest value of a SQLite integer column (a study id)
SQLITE_MAX_INT = 2**63 - 1


class Number(click.ParamType):
    """A finite ``kind`` (int or float) from ``low`` to ``high``; ``low_open`` /
    ``high_open`` leave that end out: ``Number(float, 0, 86400, low_open=True)`` is
    the interval (0, 86400]."""

    def __init__(self, kind: type[int] | type[float], low: float, high: float,
                 low_open: bool = False, high_open: bool = False):
        self.kind = kind
        self.low, self.high = low, high
        self.low_open, self.high_open = low_open, high_open
        self.name = "integer" if kind is int else "number"

    def describe(self) -> str:
        """The range as an interval: ``[1, 1000]``, ``(0, 86400]``."""
        return (f"{'(' if self.low_open else '['}{_plain(self.low)}, "
                f"{_plain(self.high)}{')' if self.high_open else ']'}")

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        # click 8.1 passes only the parameter; 8.2+ the context as well
        return f"{self.name.upper()} in {self.describe()}"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int | float:
        number = self._parse(value)
        if number is None or not self._within(number):
            text = str(value) if len(str(value)) <= 40 else f"{str(value)[:37]}..."
            self.fail(f"{text!r}: expected {'an' if self.kind is int else 'a'} {self.name} "
                      f"in {self.describe()}", param, ctx)
        return number

    def _parse(self, value: Any) -> int | float | None:
        """``value`` as this kind, or None where it is not one (``'2.5'`` for an integer,
        ``'nan'``, ``'1e400'``, a string of too many digits)."""
        if isinstance(value, bool):
            return None
        if isinstance(value, str):
            try:
                value = self.kind(value.strip())
            except (ValueError, OverflowError):
                return None
        if isinstance(value, float) and not math.isfinite(value):
            return None
        if self.kind is int:
            return value if isinstance(value, int) else None
        return float(value) if isinstance(value, (int, float)) else None

    def _within(self, number: int | float) -> bool:
        above = number > self.low if self.low_open else number >= self.low
        below = number < self.high if self.high_open else number <= self.high
        return above and below


def _plain(bound: float) -> str:
    """``86400`` rather than ``86400.0``; ``0.5`` as it is."""
    if isinstance(bound, float) and bound.is_integer():
        return str(int(bound))
    return str(bound)


# The ranges of the commands' options, each named once.

#: runs of a cell, a build or a probe
RUNS = Number(int, 1, 1000)
#: uncounted rounds before a study's counted runs (as many as analyzer.overhead.study takes)
WARMUPS = Number(int, 0, 100)
#: seconds a run or build step may take: above 0, at most a day
SECONDS = Number(float, 0, 86400, low_open=True)
#: ``ub run -j``: an upper bound on workers, which a run caps at 8 per core and at its
#: number of jobs anyway
WORKERS = Number(int, 1, 100_000)
#: ``overhead -j``: the build's own parallelism (``make -j``)
BUILD_JOBS = Number(int, 1, 1024)
#: competing processes (``overhead calibrate --load``)
LOAD = Number(int, 1, 1024)
#: niceness, as setpriority takes it (below 0 needs root)
NICE = Number(int, -20, 19)
#: a spread (max - min) / median
NOISE = Number(float, 0, 10, low_open=True)
#: a share of a whole, both ends excluded
SHARE = Number(float, 0, 1, low_open=True, high_open=True)
#: how many TUs, suspects, ... a report lists or a search takes
COUNT = Number(int, 1, 100_000)
#: a row id in the database
ROW_ID = Number(int, 1, SQLITE_MAX_INT)
#: a TCP port (0: any free one)
PORT = Number(int, 0, 65535)
