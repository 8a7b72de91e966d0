"""The one way the CLI prints a line: :func:`echo`, ``click.echo`` with the text made
:func:`~warnscope.text.visible` first.

What the CLI prints holds untrusted text (flag help from any source tree, corpus
metadata, compiler messages, file names), and a terminal acts on the control
characters in it. Every command prints through here, so no one has to remember which
of its strings could hold one. JSON needs nothing (``json.dumps`` escapes every
control character already), and goes through here all the same: it comes out
unchanged.
"""
from __future__ import annotations

import contextlib
import logging
import shutil
import sys
from typing import Iterator

import click

from warnscope.text import visible

#: the colour of each kind of line's prefix on a terminal (``warnscope: error: …``)
PREFIX_COLOURS = {"error": "red", "warning": "yellow"}


def echo(message: object = None, err: bool = False, nl: bool = True, bold: bool = False,
         prefix: str = "") -> None:
    """``click.echo(message, err=err, nl=nl)`` of the message's visible form; ``bold``
    styles it (as ``click.secho``) after the controls in it were made visible, so the
    style's own escape is the only one printed; ``prefix`` (``error``, ``warning``) puts
    ``warnscope: error:`` before it in its colour. Styles are dropped where the stream is
    not a terminal (click's own rule): plain text in a pipe or a file.

    Output longer than the terminal goes through a pager (``$PAGER``, else ``less``)
    when standard input and output are a terminal, as git and man do; never in a pipe."""
    _StatusLine.erase()  # a notice on the terminal's last line gives way
    text = None if message is None else visible(str(message))
    if bold and text is not None:
        text = click.style(text, bold=True)
    if prefix:
        text = click.style(f"warnscope: {prefix}:", fg=PREFIX_COLOURS[prefix], bold=True) + f" {text}"
    if not err and text is not None and _longer_than_the_terminal(text):
        click.echo_via_pager(text)  # which ends it with a newline
        return
    click.echo(text, err=err, nl=nl)


def _longer_than_the_terminal(text: str) -> bool:
    """Whether ``text`` would scroll off the terminal that standard output (and input:
    the pager reads its keys there) is."""
    if not (sys.stdout.isatty() and sys.stdin.isatty()):
        return False
    return text.count("\n") + 1 >= shutil.get_terminal_size().lines


#: the packages whose modules say what they are doing (``log.info``: a download, a parse)
NOTICE_LOGGERS = ("warnscope", "flagdb", "analyzer")
#: erase the terminal's current line (carriage return, erase to its end)
_ERASE = "\r\x1b[K"


class _StatusLine(logging.Handler):
    """Each notice as the one transient line at the bottom of a terminal, replaced by
    the next and erased before anything else is printed (:func:`echo`) or at the end."""

    shown = False

    def emit(self, record: logging.LogRecord) -> None:
        width = max(shutil.get_terminal_size().columns - 1, 10)
        line = visible(record.getMessage())
        line = line if len(line) <= width else line[:width - 1] + "…"
        sys.stderr.write(_ERASE + line)
        sys.stderr.flush()
        _StatusLine.shown = True

    @staticmethod
    def erase() -> None:
        if _StatusLine.shown:
            sys.stderr.write(_ERASE)
            sys.stderr.flush()
            _StatusLine.shown = False


@contextlib.contextmanager
def notices() -> Iterator[None]:
    """What a long step is doing (downloading a package, reading a compiler's option
    files, storing it), shown while it runs when standard error is a terminal: one line
    that changes and is erased. Elsewhere nothing, so that a script's standard error
    holds only what went wrong, one line."""
    if not sys.stderr.isatty():
        yield
        return
    handler = _StatusLine(logging.INFO)
    loggers = [logging.getLogger(name) for name in NOTICE_LOGGERS]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.addHandler(handler)
        lg.setLevel(logging.INFO)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels):
            lg.removeHandler(handler)
            lg.setLevel(level)
        _StatusLine.erase()
