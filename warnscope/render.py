"""One protocol for every report a command prints, in every format.

A report is a typed object (a family's result dataclass, or one that gathers what a
format reads: a SARIF log also reads the builds a report was made from). A *renderer*
turns it into what is printed: ``render(report, **options) -> Rendered``, where the
options are the command's (``limit``, ``detail``) and a renderer takes those it uses.
A renderer opens no database and runs no SQL (tests/unit/test_renderers.py): what it
reads is in the object, which the family's queries build (its store, its queries).

Each command's formats are declared once, in a :class:`Formats` registry of its family
(``analyzer/<family>/renderers.py``): a format's name, the renderer (``module:function``,
imported when used, so ``--format text`` does not load the SARIF builders), and the
query that builds the object it reads (the command's own, unless the format needs more).
A command asks the registry for ``--format``'s entry: no ``if`` per format; a new format
is its module and one line in its registry.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable

from warnscope.errors import BadInput


@dataclass(frozen=True)
class Rendered:
    """What a renderer gives: the text for stdout (``newline``: whether a line end
    follows it) and notes for stderr (what a SARIF log holds beyond a consumer's limits)."""

    text: str
    notes: list[str] = field(default_factory=list)
    newline: bool = True


def _load(spec: str) -> Callable:
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class Format:
    """One format of a command: its renderer and, where it reads more than the command's
    own report, the query that builds what it reads (both ``module:function``); the
    renderer's text, or the :class:`Rendered` it gives."""

    name: str
    renderer: str
    query: str | None = None
    #: whether a line end follows the text (a text that ends its own lines: False)
    newline: bool = True

    def render(self, report: Any, **options) -> Rendered:
        out = _load(self.renderer)(report, **options)
        return out if isinstance(out, Rendered) else Rendered(out, newline=self.newline)

    def load(self, default: Callable, *args, **kwargs) -> Any:
        """The object this format reads: its own query's, else the command's ``default``."""
        return (_load(self.query) if self.query else default)(*args, **kwargs)


class Formats:
    """A command's formats, by name, in the order ``--format`` lists them (the first is
    the default)."""

    def __init__(self, command: str, *formats: Format):
        self.command = command
        self._by_name = {f.name: f for f in formats}

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._by_name)

    def __iter__(self):
        return iter(self._by_name.values())

    def __getitem__(self, name: str) -> Format:
        try:
            return self._by_name[name]
        except KeyError:
            raise BadInput(f"{self.command}: unknown format {name!r}: one of "
                           f"{', '.join(self._by_name)}") from None


def as_json(report: Any, **_options) -> str:
    """The one JSON renderer: :func:`warnscope.serial.to_json` of the report."""
    from warnscope.serial import to_json
    return to_json(report)


def sarif_log(log: dict, **_options) -> Rendered:
    """A SARIF log (:mod:`warnscope.sarif`) as printed: the log, and a note of what it holds
    beyond GitHub code scanning's limits for one file."""
    from warnscope import sarif
    return Rendered(sarif.dumps(log), [f"warnscope: note: {n}" for n in sarif.beyond_limits(log)])
