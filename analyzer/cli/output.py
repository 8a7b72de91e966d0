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

import click

from warnscope.text import visible


def echo(message: object = None, err: bool = False, nl: bool = True, bold: bool = False) -> None:
    """``click.echo(message, err=err, nl=nl)`` of the message's visible form; ``bold``
    styles it (as ``click.secho``) after the controls in it were made visible, so the
    style's own escape is the only one printed (and dropped where not a terminal)."""
    text = None if message is None else visible(str(message))
    if bold and text is not None:
        text = click.style(text, bold=True)
    click.echo(text, err=err, nl=nl)
