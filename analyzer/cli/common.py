"""What every command shares, declared once: the database it opens (read-only unless
the command writes), ``--json`` and ``--format``, a comma-separated list option's items,
and the set-up around a run (:func:`running`: executor, progress, connection)."""
from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

import click

from warnscope.database import Connection, connect
from warnscope.errors import BadInput
from warnscope.paths import db_path

from analyzer.cli.output import echo

if TYPE_CHECKING:
    from analyzer.runtime.executors import DaskExecutor
    from analyzer.runtime.progress import Progress


def db_of(ctx: click.Context) -> Path:
    """The database the command names: ``--db``, ``WARNSCOPE_DB`` or the default."""
    return db_path((ctx.find_root().obj or {}).get("db"))


def open_read(ctx: click.Context, first: str | None = None) -> Connection:
    """The database read-only: a query never creates, migrates or alters it. A missing
    file is one line (:class:`~warnscope.errors.NoData`) saying what to ``first`` run."""
    return connect(db_of(ctx), write=False, first=first)


def open_write(ctx: click.Context) -> Connection:
    """The database for writing (an ingest, a run): created if missing, migrated if older."""
    return connect(db_of(ctx), write=True)


def json_option(help: str = "Print JSON."):
    """``--json``: the command's typed result, serialised (:mod:`warnscope.serial`)."""
    return click.option("--json", "as_json", is_flag=True, help=help)


def format_option(formats: tuple[str, ...], help: str):
    """``--format``: how a command prints its result, one of ``formats`` (its registry's
    names, :mod:`warnscope.render`; the first is the default); ``--json`` stays
    ``--format json`` (:func:`format_of`)."""
    return click.option("--format", "fmt", default=formats[0], show_default=True,
                        type=click.Choice(formats), help=help)


def format_of(fmt: str, as_json: bool) -> str:
    """The format asked for: ``--json`` is ``--format json``; ``--json`` with another
    ``--format`` is one line of error."""
    if as_json and fmt not in ("text", "json"):
        raise BadInput(f"--json and --format {fmt} ask for two formats: give one")
    return "json" if as_json else fmt


def show(rendered) -> None:
    """What a renderer gave (:class:`warnscope.render.Rendered`): its text on stdout, its
    notes on stderr."""
    echo(rendered.text, nl=rendered.newline)
    for note in rendered.notes:
        echo(note, err=True)


def split(text: str) -> list[str]:
    """``gcc-12, clang-16`` -> ``["gcc-12", "clang-16"]``."""
    return [x.strip() for x in text.split(",") if x.strip()]


@dataclass
class Running:
    """What a run works with: the database open for writing, its progress, and the
    executor of a Dask scheduler (None: the local pool the run makes itself)."""

    conn: Connection
    progress: Progress
    executor: DaskExecutor | None


@contextlib.contextmanager
def running(ctx: click.Context, label: str, quiet: bool = False,
            scheduler: str | None = None) -> Iterator[Running]:
    """The set-up around a run, and its end whatever happened: the scheduler reached
    first (unreachable: one line, nothing written), then the progress (``label`` on a
    terminal, none when ``quiet``), then the database; closed in the reverse order."""
    from analyzer.runtime import executors
    from analyzer.runtime import progress as progress_mod

    executor = executors.for_scheduler(scheduler)
    try:
        progress = progress_mod.for_cli(quiet, label)
        try:
            conn = open_write(ctx)
            try:
                yield Running(conn, progress, executor)
            finally:
                conn.close()
        finally:
            progress.close()
    finally:
        if executor is not None:
            executor.close()
