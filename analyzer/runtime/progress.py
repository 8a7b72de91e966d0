"""Progress of a study or an attribution: a rich bar with ETA on a terminal, plain lines
otherwise (a log file, a pipe, CI), nothing with ``--quiet``.

The work announces how many steps (builds, TU compiles) it is about to do with
:meth:`Progress.add_total`, and :meth:`Progress.advance` after each; messages are
the same in both forms. Output goes to stderr so that ``--json`` stays clean.

Messages and labels hold untrusted text (a project's name, a TU's path, a compiler's
error line): both forms show it :func:`~warnscope.text.visible`, and the bar prints it
as plain text, so ``[bold]`` in a name is not rich markup nor ``:smile:`` an emoji.
"""
from __future__ import annotations

import sys
from typing import Callable, Protocol, TextIO

from warnscope.text import visible


class Progress(Protocol):
    def __call__(self, message: str) -> None: ...
    def add_total(self, steps: int) -> None: ...
    def advance(self, steps: int = 1) -> None: ...
    def close(self) -> None: ...


class Lines:
    """Each message as a line (or handed to a callable); steps are not shown."""

    def __init__(self, echo: Callable[[str], None]):
        self.echo = echo

    def __call__(self, message: str) -> None:
        self.echo(visible(message))

    def add_total(self, steps: int) -> None:
        pass

    def advance(self, steps: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


class Bar:
    """A rich progress bar (done/total, elapsed, ETA) with the messages printed above it."""

    def __init__(self, stream: TextIO, label: str):
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress as RichProgress, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)

        self.bar = RichProgress(TextColumn("{task.description}", markup=False), BarColumn(),
                                MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("ETA"),
                                TimeRemainingColumn(), console=Console(file=stream), transient=False)
        self.task = self.bar.add_task(visible(label), total=0)
        self.bar.start()

    def __call__(self, message: str) -> None:
        from rich.text import Text

        self.bar.console.print(Text(visible(message)), highlight=False)

    def add_total(self, steps: int) -> None:
        total = self.bar.tasks[0].total or 0
        self.bar.update(self.task, total=total + steps)

    def advance(self, steps: int = 1) -> None:
        self.bar.advance(self.task, steps)

    def close(self) -> None:
        self.bar.stop()


def for_cli(quiet: bool, label: str, stream: TextIO | None = None) -> Progress:
    """The progress a command shows: a bar on a terminal, lines when piped, none if quiet."""
    stream = stream or sys.stderr
    if quiet:
        return Lines(lambda _m: None)
    if stream.isatty():
        return Bar(stream, label)
    return Lines(lambda m: print(m, file=stream, flush=True))


def as_progress(progress: Progress | Callable[[str], None]) -> Progress:
    """A plain callable (a library caller's ``print``) as a :class:`Progress`."""
    return progress if hasattr(progress, "add_total") else Lines(progress)  # type: ignore[return-value]
