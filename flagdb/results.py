"""The answers of the flag questions (:mod:`flagdb.views`, :mod:`flagdb.compare`,
:mod:`flagdb.check`), as plain data.

Every query returns these dataclasses; ``--json`` prints :func:`to_json` of them and
the text output is one renderer over the same objects (:mod:`flagdb.text`),
so nothing ever parses rendered text. Name-like fields hold flag names only
(``-Wunused-parameter``, ``-Wformat=``, ``-Waligned-new=global``); qualifiers such as
"with -Wunused" or "from level 2" are fields of their own.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from flagdb.model import Message
from warnscope.serial import OPTIONAL


def as_typed(name: str, value: str | None) -> str:
    """A flag as a user types it to give it ``value``: ``-Wformat=`` at ``2`` is
    ``-Wformat=2``, ``-Wshadow`` at ``0`` is ``-Wno-shadow`` (clang's ``-Rno-pass``)."""
    if name.endswith("="):
        return name + (value or "")
    if value == "0":
        return name[:2] + "no-" + name[2:]
    return name


@dataclass
class EdgeRef:
    """One enabling edge seen from one of its ends: the flag at the other end.

    In ``enables`` the other end is the child: ``name`` the child as stored, ``value``
    what it is set to, ``typed`` the two as a user types them (``-Waligned-new=global``).
    In ``enabled_by`` it is the parent: ``name`` the parent, ``typed`` the parent at
    its lowest level (``-Wformat=2``), ``value`` what the edge sets the flag itself to.
    """

    name: str
    typed: str
    value: str
    #: further flags that must be on as well (GCC ``EnabledBy(A && B)``)
    requires: list[str] = field(default_factory=list)
    #: the parent's lowest level giving the edge (``-Wformat=`` enables
    #: ``-Wformat-security`` only from 2); None: any level
    from_level: int | None = None
    #: languages the edge is limited to (GCC ``LangEnabledBy``); [] = all
    languages: list[str] = field(default_factory=list)


@dataclass
class FlagInfo:
    """One flag, as ``flags list`` and ``export --format json`` give it."""

    name: str
    kind: str
    alias_of: str | None
    enables: list[EdgeRef]
    enabled_by: list[EdgeRef]
    default: str
    languages: list[str]
    takes_argument: bool
    argument: str | None
    ignored: bool
    removed: bool
    c_family: bool
    description: str


@dataclass
class TurnedOn:
    """A flag a closure turns on: ``name`` as stored, its ``value``, and as typed."""

    name: str
    value: str
    typed: str


#: A diagnostic a flag controls (clang ``DIAG`` rows): the stored message itself, not a copy.
MessageInfo = Message


@dataclass
class ShowResult(FlagInfo):
    """``flags show``: one flag in detail, at a level if one was typed."""

    compiler: str = ""
    #: what was asked, as typed (``-Wformat=2``, ``-Wno-shadow``)
    typed: str = ""
    #: the level or value typed (``2``; ``0`` for a ``-Wno-`` form), None for none
    level: str | None = None
    origin: str = ""
    turns_on: list[TurnedOn] = field(default_factory=list)
    messages: list[MessageInfo] = field(default_factory=list)
    #: "fires on real code": the stored warnings builds of this compiler in which the flag
    #: fired (``analyzer.warnings`` fills it: the builds are not the flag database's);
    #: [] when it fired in none, None (left out of JSON) when there is no build
    real_code: list[Any] | None = field(default=None, metadata=OPTIONAL)


@dataclass
class TreeNode:
    """One node of ``flags tree``: a flag, what turns it on here, and what it turns on."""

    #: the flag as stored (``-Wformat=``, ``-Wextra`` for ``-Wno-extra``)
    name: str
    #: as typed at this place (``-Wformat=2``, ``-Wno-extra``, ``-Waligned-new=global``)
    typed: str
    #: the value it has here (None at the root when typed without one)
    value: str | None
    requires: list[str] = field(default_factory=list)
    #: its default; None for a name the compiler has no flag of
    default: str | None = None
    ignored: bool = False
    #: it is on the path above already: its children are not repeated
    cycle: bool = False
    #: what it turns on is decided in the compiler's C code, not in its option files
    #: (GCC before 4.8): the children are unknown, not none
    members_unknown: bool = False
    children: list["TreeNode"] = field(default_factory=list)
    #: the C-family languages in which its parent turns it on, where that is not all of
    #: them (``-Wall`` turns on ``-Wc++11-compat`` for ``["C++", "ObjC++"]`` only);
    #: empty where it is on for every one, and at the root
    languages: list[str] = field(default_factory=list)


@dataclass
class Change:
    """One attribute of a flag that differs between two compilers."""

    attribute: str      # one of flagdb.compare.DIFF_ATTRIBUTES
    old: Any
    new: Any


@dataclass
class FlagChanges:
    name: str
    changes: list[Change]


@dataclass
class DiffResult:
    """``flags diff``: versions of one compiler, or two compilers (``cross_family``)."""

    old: str
    new: str
    cross_family: bool
    #: names both have
    in_both: list[str]
    #: only in ``new`` / only in ``old``
    added: list[FlagInfo]
    removed: list[FlagInfo]
    changed: list[FlagChanges]


@dataclass
class Span:
    """Where a flag name lives in one family's ingested versions: the first version
    that has it and, if the newest does not, the last one (``last`` None: still there).

    ``oldest``/``newest`` are the family's oldest and newest ingested versions: a flag
    present in ``oldest`` may be older still (the history starts there), so it is
    never called new there; ``every``: present in every ingested version."""

    family: str
    first: str
    last: str | None = None
    oldest: str = ""
    newest: str = ""
    every: bool = False

    @property
    def text(self) -> str:
        """The span as one phrase: ``present in every ingested version (gcc-4.4 … gcc-16)``."""
        if self.every and self.oldest == self.newest:
            return f"present in {self.oldest}, the only ingested version"
        if self.every:
            return f"present in every ingested version ({self.oldest} … {self.newest})"
        if self.first == self.oldest:
            head = (f"present in {self.oldest}, the oldest ingested version (the history "
                    "starts there)")
        else:
            head = f"first in {self.first}"
        return head + (f", last in {self.last}" if self.last else ", still present")


@dataclass
class HistoryEntry:
    """``flags history``: the flag in one ingested compiler version."""

    compiler: str
    version: str
    present: bool
    #: the flag the typed name resolves to; the fields below are None/False/[] when absent
    name: str | None = None
    default: str | None = None
    in_wall: bool = False
    in_wextra: bool = False
    alias_of: str | None = None
    aliases: list[str] = field(default_factory=list)
    ignored: bool = False
    removed: bool = False
    #: "fires on real code" in this version's stored warnings builds, as in
    #: :attr:`ShowResult.real_code` (None, left out of JSON: no build of this version)
    real_code: list[Any] | None = field(default=None, metadata=OPTIONAL)


@dataclass
class SuiteVersion:
    """A package's version in one Debian suite."""

    suite: str
    debian_version: str


@dataclass
class Available:
    """Where Debian's archive has a compiler's data package, and which version an
    ingest takes (:func:`warnscope.apt.choose`)."""

    package: str
    suite: str
    debian_version: str
    #: every suite that has the package, newest version first
    in_suites: list[SuiteVersion] = field(default_factory=list)


@dataclass
class VersionInfo:
    """``flags versions``: one compiler version, ingested or available or both.

    The fields from ``version`` to ``suite`` describe the stored entry (None when it is
    not ingested); ``available`` the archive (None when Debian has no package for it,
    or without ``--available``, when the archive is not asked).
    """

    name: str
    family: str
    major: int
    ingested: bool
    version: str | None = None
    source_kind: str | None = None
    source: str | None = None
    content_hash: str | None = None
    ingested_at: str | None = None
    #: every flag stored, other front ends' (Fortran, Ada …) too
    flags: int = 0
    package: str | None = None
    debian_version: str | None = None
    suite: str | None = None
    available: Available | None = None
    #: the entry is from the package version an ingest would take now (None: not
    #: ingested from Debian, or the archive was not asked)
    current: bool | None = None
    #: upstream releases of it to give ``--source`` (:class:`flagdb.upstream.Release`:
    #: compiler, release, url, note), with ``--available``
    upstream: list = field(default_factory=list)
    #: the flags of the C family (C, C++, Objective-C): what ``flags list`` and the site list
    c_family_flags: int = 0


@dataclass
class Introduced:
    """A flag a version added: its default and whether -Wall/-Wextra turn it on."""

    name: str
    default: str
    in_wall: bool
    in_wextra: bool
    description: str


@dataclass
class DefaultChange:
    """A flag whose default differs from the previous version."""

    name: str
    old: str
    new: str


@dataclass
class SinceResult:
    """``flags since``: what a version changed relative to the previous ingested version
    of its family (``previous`` None: the first one ingested, nothing to compare).

    A compiler for another target (``gcc-12@aarch64-linux-gnu``) is no release of its own:
    its ``target`` is set, and ``previous`` is its host release (``gcc-12``, None when
    that is not ingested), compared beside it rather than before it."""

    compiler: str
    version: str
    previous: str | None
    previous_version: str | None
    introduced: list[Introduced] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    joined_wall: list[str] = field(default_factory=list)
    left_wall: list[str] = field(default_factory=list)
    joined_wextra: list[str] = field(default_factory=list)
    left_wextra: list[str] = field(default_factory=list)
    default_changed: list[DefaultChange] = field(default_factory=list)
    #: the target of a cross compiler ('' for a release of the host's)
    target: str = ""


class CheckStatus(str, enum.Enum):
    """What a compiler does with a flag as typed."""

    KNOWN = "known"
    ALIAS = "alias"
    NOOP = "no-op"
    REMOVED = "removed"
    BAD_VALUE = "bad-value"
    UNKNOWN = "unknown"


class BuildEffect(str, enum.Enum):
    """What a compile given the flag does with it (``flags check``'s build column)."""

    #: the compiler acts on the flag
    APPLIES = "applies"
    #: accepted and does nothing (GCC's ``Ignore`` switches, clang's no-op groups)
    NO_EFFECT = "no effect"
    #: accepted without a word (GCC and an unknown ``-Wno-…``, unless another
    #: diagnostic is printed: then a note says it may have been meant to silence it)
    SILENT = "ignored silently"
    #: a warning about the flag, and the build goes on (an error under ``-Werror``)
    WARNS = "warns, goes on"
    #: an error: the compile fails
    STOPS = "error, stops"


@dataclass
class CheckResult:
    """``flags check``: one flag as typed against one compiler."""

    flag: str
    compiler: str
    status: CheckStatus
    #: what the flag does (its description, or the meaning of -Werror and the like)
    description: str = ""
    #: for an alias: what it stands for as typed (``-Wformat=1``)
    alias_of: str | None = None
    #: the closest known flag, as it would be typed instead (a likely typo)
    suggestion: str | None = None
    #: why it is unknown, removed or a bad value, when there is more to say
    reason: str | None = None
    #: a remark on how the compiler treats it (GCC's silence on an unknown -Wno-…)
    note: str | None = None
    #: what a compile given the flag does with it
    build: BuildEffect = BuildEffect.APPLIES
