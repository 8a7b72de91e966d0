"""One build of a project: a compiler at a level, its flags, and how they reach it.

A study measures such a build again and again (:class:`analyzer.overhead.results.StudyCell`
adds its runs); ``warnings run`` builds it once and reads its diagnostics. Both configure
and set it up through :mod:`analyzer.projects.steps`, which marks it failed when a step fails.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field


class BuildStatus(enum.StrEnum):
    """How a build ended (a warnings build, a study's cell), stored and printed as its word."""

    OK = "ok"
    FAILED = "failed"
    #: nothing of the compiler can be told: a Debian package whose build dependencies
    #: cannot be installed in its suite, or whose build reached for the network
    CANNOT_TELL = "cannot tell"


@dataclass
class BuildCell:
    """A compiler x level with the level's flags per language; failed with what went wrong."""

    compiler: str
    compiler_version: str
    compiler_identity: str
    level: str
    flags: dict[str, list[str]]
    #: how the flags reach the compiler: ``build`` (the build system's own variables)
    #: or ``wrapper`` (appended by the compiler wrapper: the compiler-only view)
    inject: str = "wrapper"
    status: BuildStatus = BuildStatus.OK
    error: str | None = None
    log_tail: str | None = None
    #: the level's flags for languages the project is not declared in (a C file in a C++
    #: project gets the C set); not part of a study cell's key, so resuming is unaffected
    other_flags: dict[str, list[str]] = field(default_factory=dict)

    def mark_failed(self, error: str, log_tail: str) -> None:
        """The cell failed: ``error`` says why, ``log_tail`` is the end of the step's output."""
        self.status, self.error, self.log_tail = BuildStatus.FAILED, error, log_tail


def flags_for(cell: BuildCell, language: str) -> list[str]:
    """The cell's flags for a language: a TU gets the level's set of its own language (a
    C file in a C++ project gets the C set, not C++-only flags)."""
    if language in cell.flags:
        return cell.flags[language]
    if language in cell.other_flags:
        return cell.other_flags[language]
    return cell.flags.get(next(iter(cell.flags)), []) if cell.flags else []
