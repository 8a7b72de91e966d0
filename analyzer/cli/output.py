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

import shutil
import sys

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
