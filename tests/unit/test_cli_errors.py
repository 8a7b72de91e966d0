"""The CLI's one error policy (``analyzer.cli.main``): every kind of error a user can
cause, whichever subclass of ``WarnscopeError`` names it, is one line on stderr and
exit status 1; a bug (any other exception) is not caught and keeps its traceback."""
from __future__ import annotations

import errno
from contextlib import contextmanager
from typing import Iterator

import click
import pytest

from analyzer.cli import cli, main
from warnscope import errors
from warnscope.errors import ParseError, WarnscopeError


def every_error_type() -> list[type[WarnscopeError]]:
    found, todo = [], [WarnscopeError]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo += cls.__subclasses__()
    return sorted(set(found), key=lambda c: c.__name__)


@contextmanager
def command_raising(exc: BaseException) -> Iterator[str]:
    """A command of the real ``warnscope`` group that raises ``exc``, for this test only."""
    name = "raise-for-test"

    @click.command(name)
    def raiser() -> None:
        raise exc

    cli.add_command(raiser)
    try:
        yield name
    finally:
        cli.commands.pop(name, None)


def test_every_error_type_is_one_line_and_status_1(capsys):
    kinds = every_error_type()
    # the causes of warnscope.errors, all of them seen here (a new one is covered too)
    assert {errors.BadInput, errors.NotIngested, errors.DatabaseBusy, errors.ToolTimeout,
            errors.NetworkUnreachable, errors.CorruptDatabase} <= set(kinds)
    for cls in kinds:
        exc = cls("c.opt", 3, "not valid UTF-8") if issubclass(cls, ParseError) \
            else cls(f"what went wrong ({cls.__name__})")
        with command_raising(exc) as name:
            assert main([name]) == 1, cls
        out, err = capsys.readouterr()
        assert out == "" and err == f"warnscope: error: {exc}\n", (cls, err)


def test_an_anticipated_os_error_is_one_line(capsys):
    with command_raising(OSError(errno.ENOSPC, "No space left on device", "/full/x")) as name:
        assert main([name]) == 1
    assert capsys.readouterr().err == "warnscope: error: /full/x: No space left on device\n"


@pytest.mark.parametrize("bug", [ValueError("a bug"), KeyError("key"),
                                 OSError(errno.EBADF, "Bad file descriptor")])
def test_a_bug_is_not_caught(bug):
    with command_raising(bug) as name:
        with pytest.raises(type(bug)):
            main([name])
