"""Every number a command takes is finite and within its stated range.

The options are found by walking the real command tree, so a numeric option added
later is checked too (and one added without :class:`analyzer.cli.options.Number`
fails :func:`test_every_numeric_option_has_a_range`). Each is given ``nan``, ``inf``,
a negative and a huge value: one ``warnscope: error:`` line naming the option and
its range, exit 1, and the database not created. Nothing runs a compiler: the values
are refused while the command line is read.
"""
from __future__ import annotations

from typing import Iterator

import click
import pytest

from analyzer.cli import cli
from analyzer.cli.options import Number

#: arguments a command needs besides the option under test ("{tmp}": the test's directory)
REQUIRED = {("overhead", "attribute"): ("zlib",), ("site", "serve"): ("-d", "{tmp}")}
#: where -1 is in range (niceness), the negative value tried instead
NEGATIVE = {"--nice": "-21"}
HUGE = "100000000000000000000"


def commands(group: click.Group = cli, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    """Every command of the CLI with its path (``("ub", "run")``), lazy ones loaded."""
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if isinstance(command, click.Group):
            yield from commands(command, (*path, name))
        elif command is not None:
            yield (*path, name), command


def numeric_options() -> list[tuple[tuple[str, ...], str, Number]]:
    """(command path, the option's long name, its type) of every numeric option."""
    found = []
    for path, command in commands():
        for param in command.params:
            if isinstance(param, click.Option) and isinstance(param.type, Number):
                found.append((path, max(param.opts, key=len), param.type))
    return found


OPTIONS = numeric_options()


def test_every_numeric_option_has_a_range():
    """No option reads a bare int or float (click's own types take nan, inf and any size)."""
    bare = [f"{' '.join(path)} {param.opts[0]}" for path, command in commands() for param in command.params
            if isinstance(param.type, (click.types.IntParamType, click.types.FloatParamType))]
    assert bare == []
    assert len(OPTIONS) >= 19  # ub run 3, overhead run 5, report 2, calibrate 3, attribute 7, serve 1
    names = {(" ".join(path), option) for path, option, _ in OPTIONS}
    assert {("ub run", "--timeout"), ("overhead run", "--noise"), ("overhead run", "--runs"),
            ("site serve", "--port"), ("overhead attribute", "--min-share")} <= names


def test_the_range_is_in_the_help(cli_at, tmp_path):
    code, out, _ = cli_at(tmp_path / "x.db")("ub", "run", "--help")
    assert code == 0
    assert "--timeout NUMBER in (0, 86400]" in out and "--runs INTEGER in [1, 1000]" in out


@pytest.mark.parametrize("path, option, kind", OPTIONS, ids=[f"{' '.join(p)} {o}" for p, o, _ in OPTIONS])
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1", HUGE])
def test_out_of_range_is_one_line_before_anything_is_written(fails_on, tmp_path, path, option, kind, value):
    if value == "-1":
        value = NEGATIVE.get(option, value)
    db = tmp_path / "new.db"
    required = [a.format(tmp=tmp_path) for a in REQUIRED.get(path, ())]
    line = fails_on(db, *path, *required, option, value)
    assert option in line and kind.describe() in line and repr(value) in line
    assert not db.exists()
