"""The chosen flags written into a project's build: ``write(targets, fmt)`` is the text
of one format, for the targets of :mod:`analyzer.advise.targets` (what each compiler
of the list gets, per language). The guard rule and the order of flags are
:mod:`.plan`'s; each format is a module of its own.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from analyzer.advise.export import cmake, flags, make, meson
from analyzer.advise.export.plan import plan
from analyzer.advise.targets import Target
from warnscope.errors import BadInput
from warnscope.render import Rendered

if TYPE_CHECKING:
    from analyzer.advise.export.plan import Plan
    from analyzer.advise.results import Advice

#: the formats ``--format`` takes, each a module with ``render(plan) -> str``
FORMATS = ("cmake", "meson", "make", "flags")
_RENDER = {"cmake": cmake.render, "meson": meson.render, "make": make.render,
           "flags": flags.render}


def write(targets: list[Target], fmt: str) -> str:
    """The text of format ``fmt`` giving each target exactly its flags."""
    if fmt not in _RENDER:
        raise BadInput(f"unknown export format {fmt!r} (use {', '.join(FORMATS)})")
    return _RENDER[fmt](plan(targets))


def _of_advice(render: "Callable[[Plan], str]") -> Callable[..., Rendered]:
    """``advise --format FMT``'s renderer of the advice: the chosen set in that format, and
    a note for each ``--add`` flag a compiler does not know (left out of its list)."""
    def rendered(advice: "Advice", **_options) -> Rendered:
        notes = [f"warnscope: note: --add {f.flag}: {f.compiler} does not know it: left out of its list"
                 for f in advice.forced if not f.known]
        return Rendered(render(plan(advice.targets)), notes, newline=False)
    return rendered


#: the renderers of the advice in each format (analyzer/advise/renderers.py)
as_cmake, as_meson, as_make, as_flags = (_of_advice(m.render) for m in (cmake, meson, make, flags))
