"""Numeric options: one type, :class:`Number`, that every number a command takes goes
through, so each is finite and within its stated range before the command starts.

A number from the command line ends up in a sandbox limit, a loop count, a SQLite
column or a ``make -j``; ``nan`` slips through every ``x <= 0`` check, ``inf`` is
an unbounded wait and ``100000000000000000000`` overflows SQLite's integer. Click's own
``FloatRange`` takes ``nan``; this type refuses NaN, the infinities, anything that is
not a whole number where one is wanted, and anything outside the range, as a usage
error: one line naming the option and its range, and nothing has been written yet.
``--help`` shows each range beside the option.

And the old spellings of options (:func:`alias`): hidden, each the option of its one name.
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
#: ``ub run --workers``: an upper bound on workers, which a run caps at 8 per core and at its
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


# Old spellings: every thing has one name on every command (tests/unit/
# test_option_names_cli.py); a name it had before is kept for scripts as a hidden option
# whose value goes to the option of the one name.

class Alias(click.Option):
    """A hidden option whose value is the option ``of``'s (the parameter of that name of
    the same command): given alone, it is that option given; given with it, the two
    must agree (one line of error where they do not), or for a repeatable option the
    values of both are taken. The command's function does not see it."""

    def __init__(self, param_decls: list[str], of: str, **attrs: Any):
        super().__init__(param_decls, hidden=True, expose_value=False, **attrs)
        self.of = of

    def handle_parse_result(self, ctx: click.Context, opts: Any, args: list[str]) -> tuple[Any, list[str]]:
        value, args = super().handle_parse_result(ctx, opts, args)   # its own type's checks
        if self.name not in opts:
            return value, args
        main = next(p for p in ctx.command.params if p.name == self.of and p is not self)
        given = opts[self.name]
        if main.name not in opts:
            opts[main.name] = given
        elif self.multiple:
            opts[main.name] = [*opts[main.name], *given]
        elif (main.type_cast_value(ctx, opts[main.name]) != main.type_cast_value(ctx, given)
              and not ctx.resilient_parsing):
            raise click.UsageError(
                f"{_spelling(main)} and {_spelling(self)} are one option, given "
                f"{opts[main.name]!r} and {given!r}: give one ({_spelling(main)})", ctx)
        else:
            return value, args
        if main.name in ctx.params:       # processed before this one: again, with the value
            main.handle_parse_result(ctx, opts, args)
        return value, args


def _spelling(option: click.Parameter) -> str:
    return "/".join(option.opts)


def alias(of: str, *names: str, **attrs: Any):
    """An old spelling ``names`` of the option whose parameter is ``of``: hidden, and
    given, the same as that option given (:class:`Alias`). ``attrs``: its type and
    ``multiple`` as the option's, so that a value is checked as the spelling typed."""
    name = "_" + of + "_as_" + max(names, key=len).lstrip("-").replace("-", "_")
    return click.option(*names, name, cls=Alias, of=of, **attrs)
