"""The chosen flags written into a project's build: ``write(targets, fmt)`` is the text
of one format, for the targets of :mod:`analyzer.advise.targets` (what each compiler
of the list gets, per language). The guard rule and the order of flags are
:mod:`.plan`'s; each format is a module of its own.
"""
from __future__ import annotations

from analyzer.advise.export import cmake, flags, make, meson
from analyzer.advise.export.plan import plan
from analyzer.advise.targets import Target
from warnscope.errors import BadInput

#: the formats ``--format`` takes, each a module with ``render(plan) -> str``
FORMATS = ("cmake", "meson", "make", "flags")
_RENDER = {"cmake": cmake.render, "meson": meson.render, "make": make.render,
           "flags": flags.render}


def write(targets: list[Target], fmt: str) -> str:
    """The text of format ``fmt`` giving each target exactly its flags."""
    if fmt not in _RENDER:
        raise BadInput(f"unknown export format {fmt!r} (use {', '.join(FORMATS)})")
    return _RENDER[fmt](plan(targets))
