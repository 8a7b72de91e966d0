"""What the advice hands to a build: per compiler of the project's list, per language,
exactly the flags to pass. The exporters (:mod:`analyzer.advise.export`) read only this.
"""
from __future__ import annotations

from dataclasses import dataclass, field

#: the languages a target's flags are split by (the keys of :attr:`Target.flags`)
LANGUAGES = ("c", "c++")


@dataclass(frozen=True)
class Target:
    """One compiler of the project's list and the flags it gets.

    ``family`` is ``gcc`` or ``clang``; ``major`` its major version (``gcc-12`` -> 12);
    ``target`` the triple of a compiler for another target (:attr:`CompilerId.target`);
    ``flags`` maps a language (``c``, ``c++``) to the flags, in order, that every compile
    of that language by this compiler gets: only flags this version knows for that
    language (a C-only flag never on a C++ compile), ``-Wno-`` and level forms
    (``-Wformat=2``, ``-Wshadow=local``) spelled as this compiler takes them."""

    compiler: str
    family: str
    major: int
    flags: dict[str, list[str]] = field(default_factory=dict)
    #: the target triple it builds for where that is not the host's
    #: (``gcc-12@aarch64-linux-gnu``: ``aarch64-linux-gnu``), '' for the host's target
    target: str = ""

    def for_language(self, language: str) -> list[str]:
        return list(self.flags.get(language, []))
