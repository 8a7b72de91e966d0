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

A compile that also links (``cc $(CFLAGS) -o prog a.c b.c``, ``cc a.c``: how most small
projects build) is a compile like any other, counted once per source it compiles. One
that carries no marker in ``--inject build`` is a program the build compiles for itself
with flags of its own (sqlite3's ``lemon`` through ``$(BCC)``, configure's
``BUILD_CFLAGS``): it proves nothing either way and is counted apart (:attr:`Arrival.tools`).
A link of objects, ``-E`` and ``-M``/``-MM`` compile nothing and are not counted.
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
    """How the compiles of one build met the level's flags, counted per source compiled."""

    compiles: int   # sources compiled (-c, -S, or compiled and linked with the marker in --inject build)
    lacking: int    # of those, the ones without the level's flags exactly once
    tools: int = 0  # sources compiled and linked in one command without any marker (--inject build)

    @property
    def proven(self) -> bool:
        return self.compiles > 0 and self.lacking == 0

    def why(self, inject: str) -> str:
        """The failed cell's error when not :attr:`proven`."""
        if self.compiles == 0 and self.tools:
            return (f"{self.tools} of {self.tools} compiles lacked the level's flags, each compiled "
                    "and linked in one command (the build system did not pass them as given)")
        if self.compiles == 0:
            return "no compile went through the compiler wrapper: the flags cannot be shown to arrive"
        if inject == "build":
            return (f"{self.lacking} of {self.compiles} compiles lacked the level's flags "
                    "(the build system did not pass them as given)")
        return (f"{self.lacking} of {self.compiles} compiles got a level's flags from the build "
                "system although the wrapper adds them")


def compiles_source(args: Sequence[str]) -> bool:
    """A compiler process that compiles source, whether to an object (``-c``, ``-S``) or
    straight into a program (``cc -o prog a.c b.c``: sqlite3 builds its lemon and its
    shell so). Not ``-E``/``-M``/``-MM`` (no diagnostics of a compile), a link of
    objects, or a version query."""
    return any(is_source(a) for a in args) and not {"-E", "-M", "-MM"} & set(args)


def links(args: Sequence[str]) -> bool:
    """A compile (:func:`compiles_source`) that also links: no ``-c``, ``-S`` or
    ``-fsyntax-only``."""
    return not {"-c", "-S", "-fsyntax-only"} & set(args)


def sources(args: Sequence[str]) -> list[str]:
    """The source files a compile (``args`` without the driver) compiles, in order."""
    return [a for a in args if is_source(a)]


def check(records: Sequence[Record], level: str, inject: str,
          flags_of: Callable[[str, list[str], str], list[str]]) -> Arrival:
    """Check each compile of one build's wrapper log, once per source it compiles.
    ``flags_of(driver, args, source)`` gives the level's flags for that source's language."""
    tag = marker(level)
    compiles = lacking = tools = 0
    for record in records:
        if not record.args:
            continue
        driver, args = record.args[0], list(record.args[1:])
        if not compiles_source(args):
            continue
        found = sources(args)
        at = [i for i, a in enumerate(args) if a.startswith(MARKER)]
        if inject == "build" and not at and links(args):
            tools += len(found)
            continue
        compiles += len(found)
        if inject != "build":
            lacking += len(found) if at else 0
            continue
        if len(at) != 1 or args[at[0]] != tag:
            lacking += len(found)
            continue
        for source in found:
            want = flags_of(driver, args, os.path.basename(source))
            lacking += args[at[0] + 1:at[0] + 1 + len(want)] != want
    return Arrival(compiles=compiles, lacking=lacking, tools=tools)
