"""Proof that a level's flags reached the compiler the way the cell says they did.

In ``--inject build`` a build (a study's, ``warnings run``'s) hands each level's flags to
the build system (CFLAGS, CMAKE_C_FLAGS, a project's own knob) behind a marker,
``--warnscope-level=NAME``. The
compiler wrapper removes the marker before the compiler runs (the compiler never sees
it) and logs every compiler process's arguments as the build system gave them. A cell
is a measurement only if every compile of its builds carries the marker exactly once,
directly followed by the level's flags for the compile's language; a build system that
dropped, duplicated or reordered them makes the cell a failure that says how many
compiles lacked them, never a figure. In ``--inject wrapper`` the build system must not
carry a marker at all (the wrapper appends the flags itself).
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Callable, Sequence

from analyzer.projects.recipes import is_source
from analyzer.projects.wrapper import MARKER, Record

#: a level's name as it may stand in the marker (what the shell and make pass intact)
_NAME = re.compile(r"[^A-Za-z0-9_.+-]")


def tag(level: str) -> str:
    """``level``'s name as it stands in the marker and in a per-level tree's name."""
    return _NAME.sub("_", level)


def marker(level: str) -> str:
    """The marker in front of ``level``'s flags: ``--warnscope-level=all``."""
    return MARKER + tag(level)


def carried(level: str, flags: list[str]) -> list[str]:
    """What the build system carries for a level: the marker, then its flags."""
    return [marker(level), *flags]


@dataclass(frozen=True)
class Arrival:
    """How the compiles of one build met the level's flags."""

    compiles: int   # compiler processes that compiled a source file (-c / -S)
    lacking: int    # of those, the ones without the level's flags exactly once

    @property
    def proven(self) -> bool:
        return self.compiles > 0 and self.lacking == 0

    def why(self, inject: str) -> str:
        """The failed cell's error when not :attr:`proven`."""
        if self.compiles == 0:
            return "no compile went through the compiler wrapper: the flags cannot be shown to arrive"
        if inject == "build":
            return (f"{self.lacking} of {self.compiles} compiles lacked the level's flags "
                    "(the build system did not pass them as given)")
        return (f"{self.lacking} of {self.compiles} compiles got a level's flags from the build "
                "system although the wrapper adds them")


def is_compile(args: Sequence[str]) -> bool:
    """A compiler process that compiles a source file (not a link, ``-E``, ``-M`` or a
    version query)."""
    return (("-c" in args or "-S" in args) and "-E" not in args
            and any(is_source(a) for a in args))


def compiles_source(args: Sequence[str]) -> bool:
    """A compiler process that compiles source, whether to an object (:func:`is_compile`)
    or straight into a program: sqlite3 compiles its lemon and its shell with the build's
    flags in one compile-and-link, and what they print is in the build's log like any
    other compile's (warnings runs read them all). Not ``-E``/``-M`` (no diagnostics of a
    compile) or a link of objects. The arrival check keeps to :func:`is_compile`: a tool
    the build compiles for itself need not get the level's flags."""
    return any(is_source(a) for a in args) and not {"-E", "-M", "-MM"} & set(args)


def check(records: Sequence[Record], level: str, inject: str,
          flags_of: Callable[[str, list[str], str], list[str]]) -> Arrival:
    """Check each compile of one build's wrapper log. ``flags_of(driver, args, source)``
    gives the level's flags for that compile's language."""
    tag = marker(level)
    compiles = lacking = 0
    for record in records:
        if not record.args:
            continue
        driver, args = record.args[0], list(record.args[1:])
        if not is_compile(args):
            continue
        compiles += 1
        at = [i for i, a in enumerate(args) if a.startswith(MARKER)]
        if inject != "build":
            lacking += bool(at)
            continue
        if len(at) != 1 or args[at[0]] != tag:
            lacking += 1
            continue
        source = next(a for a in args if is_source(a))
        want = flags_of(driver, args, os.path.basename(source))
        got = args[at[0] + 1:at[0] + 1 + len(want)]
        lacking += got != want
    return Arrival(compiles=compiles, lacking=lacking)
