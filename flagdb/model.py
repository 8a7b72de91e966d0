"""Plain data passed between the parsers, the store and the queries.

Every parser (GCC option files, clang diagnostic tables, the GCC plugin) produces a
:class:`CompilerData`; the store saves and loads exactly that; the queries read it.
Names are always spelled as a user types them: ``-Wshadow``, ``-Wformat=`` (the
joined form that takes a value), ``-Wall``, ``-Rpass`` for clang remark groups.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from warnscope.profiles import profile


#: the languages a C-family flag is for (GCC's names)
C_FAMILY = ("C", "ObjC", "C++", "ObjC++")


def applies(family: str, c_family: bool, languages: list[str], lang: str | None) -> bool:
    """Does a flag of a ``family`` compiler exist for ``lang`` (None: for the C family)?
    A GCC flag only in other front ends' or targets' files does not; a flag of no
    language, of ``Common`` or of any clang flag does."""
    if profile(family).gcc and not c_family:
        return False
    if not profile(family).gcc or not languages or "Common" in languages:
        return True
    if lang is None:
        return any(l in C_FAMILY for l in languages)
    return lang in languages


@dataclass
class Flag:
    """One warning option of one compiler version."""

    name: str
    #: ``warning`` (a GCC option or a clang group with diagnostics), ``remark`` (clang -R)
    kind: str = "warning"
    #: The option this one is a spelling of, as typed with its value: ``-Wformat=1``.
    alias_of: str | None = None
    #: ``on``, ``off``, ``partial`` (clang: some diagnostics below it are on), a value
    #: such as ``nfc`` or ``1`` for options with an argument, or ``code`` when the
    #: compiler decides it in code after option parsing (GCC's ``Init(-1)``).
    default: str = "off"
    #: Languages the option applies to, as the compiler names them
    #: (``C``, ``C++``, ``ObjC``, ``ObjC++``, ``Common`` …). Empty means every language.
    languages: list[str] = field(default_factory=list)
    takes_argument: bool = False
    #: How the argument is written: ``<0,2>``, ``[none|id|nfc|nfkc]``, ``<number>`` …
    argument: str | None = None
    #: Accepted but does nothing (GCC ``Ignore``; clang group with nothing below it).
    ignored: bool = False
    #: Accepted for compatibility and reported as removed (GCC ``WarnRemoved``).
    removed: bool = False
    description: str = ""
    #: Where the option comes from (GCC: the .opt files that define it).
    origin: str = ""
    #: False for options only in other front ends' files (Fortran, Ada, targets …).
    c_family: bool = True
    #: Family-specific facts (:class:`GccFacts` or :class:`ClangFacts`), the same
    #: shape whichever route (option files, binary, clang tables) built the entry.
    facts: "GccFacts | ClangFacts" = field(default_factory=lambda: GccFacts())

    @property
    def gcc(self) -> "GccFacts":
        """The GCC facts; an empty :class:`GccFacts` for a clang flag, so questions
        such as "does it reject -Wno-?" have the neutral answer there."""
        return self.facts if isinstance(self.facts, GccFacts) else NO_GCC_FACTS

    @property
    def clang(self) -> "ClangFacts":
        """The clang facts; an empty :class:`ClangFacts` for a GCC flag."""
        return self.facts if isinstance(self.facts, ClangFacts) else NO_CLANG_FACTS


@dataclass(frozen=True)
class GccFacts:
    """What GCC's option table says of one option beyond :class:`Flag`'s common fields.

    Both GCC routes fill this one shape: the option files (``gcc_ingest``) and the
    binary's own option table through the plugin (``analyzer.gccplugin.binary``).
    A fact one route cannot know keeps its empty default (the binary has no
    variable names, the option files no variable offsets).
    """

    #: ``Var(name)``: the variable holding the state (option files).
    var: str | None = None
    #: ``Var(name, value)``: the option is on when the variable equals this.
    var_value: str | None = None
    #: ``Init(...)`` as written (option files): ``-1`` means decided in code.
    init: str | None = None
    #: ``RejectNegative``: no ``-Wno-`` form.
    reject_negative: bool = False
    #: ``IntegerRange(lo, hi)``: the levels a level option takes.
    range: tuple[int, int] | None = None
    #: An ``Enum`` option's values: the value as this entry's edges and defaults
    #: carry it -> its name (option files: ``{"1": "global"}``; the binary reports
    #: enum states by name, so there ``{"global": "global"}``). In GCC's order.
    enum_values: dict[str, str] = field(default_factory=dict)
    #: ``Alias(X, pos, neg)``: what the ``-Wno-`` form stands for (``-Wbidi-chars=none``).
    alias_negative: str | None = None
    #: ``Warn(...)``: the message GCC prints when the option is used.
    warn_message: str | None = None
    #: ``ByteSize``: a size in bytes (``-Q`` prints it with "bytes").
    byte_size: bool = False
    #: ``CPP(...)``: the state lives in libcpp and is copied after option parsing.
    cpp: bool = False
    #: ``Undocumented``.
    undocumented: bool = False
    #: A warning switch without the ``Warning`` property (an alias, ``Ignore`` or
    #: ``WarnRemoved`` option): GCC accepts it, ``--help=warnings`` does not list it.
    unlisted: bool = False
    #: The binary's variable type (``integer``, ``enum``, ``equal`` …; binary route).
    var_type: str | None = None
    #: The variable's offset in ``struct gcc_options`` (binary route): options sharing
    #: it are one state under two names.
    var_offset: int | None = None
    #: Resolved default per language (``{"C": "off", "C++": "on"}``; binary route).
    defaults: dict[str, str] = field(default_factory=dict)
    #: Per language, the state at the three moments the plugin sees (binary route):
    #: ``init_states``, ``option_states``, ``states``.
    states: dict[str, dict[str, str | None]] = field(default_factory=dict)


@dataclass(frozen=True)
class ClangFacts:
    """What clang's diagnostic tables say of one group beyond :class:`Flag`'s fields."""

    #: The group's documentation text (also the flag's description).
    docs: str = ""
    #: Diagnostics at or below the group.
    diagnostics: int = 0
    #: Diagnostics whose ``DIAG`` row names this group.
    direct: int = 0
    #: Member copies made by TableGen's "inferred pedantic" step (``-Wpedantic``).
    inferred_members: int = 0
    #: Remarks at or below the group.
    remarks: int = 0
    #: Not a group of the table (``-Weverything``).
    implicit: bool = False
    #: ``-Weverything``: warnings in no group, and how many of them are on by default.
    ungrouped: list[str] = field(default_factory=list)
    ungrouped_on_by_default: int = 0


NO_GCC_FACTS = GccFacts()
NO_CLANG_FACTS = ClangFacts()


@dataclass
class Edge:
    """``parent`` turns on ``child`` (GCC ``EnabledBy``/``LangEnabledBy``; clang subgroup).

    ``value`` is the value the child gets (``"1"`` for plain switches, a level such
    as ``"2"`` for ``-Wdangling-pointer=``). ``parent_min`` limits the edge to parent
    levels at or above it (``-Wformat=`` turns on ``-Wformat-security`` only from 2).
    ``requires`` lists further flags that must also be on (``-Wunused && -Wextra``).
    ``languages`` limits the edge to some languages (GCC ``LangEnabledBy``); empty
    means all the child's languages.
    """

    parent: str
    child: str
    value: str = "1"
    parent_min: int | None = None
    requires: list[str] = field(default_factory=list)
    languages: list[str] = field(default_factory=list)


@dataclass
class Message:
    """A diagnostic controlled by a flag (clang: one ``DIAG`` row)."""

    flag: str
    diag: str
    diag_class: str
    severity: str
    text: str


#: GCC options whose members were decided in C code before the option files could say
#: it (``EnabledBy``/``LangEnabledBy`` came with 4.8)
CODE_DECIDED = ("Wall", "Wextra", "W", "Wunused", "Wformat", "Wformat=", "pedantic", "Wpedantic")


@dataclass
class CompilerData:
    """Everything one ingest learns about one compiler version."""

    #: ``gcc-12``, ``clang-16``.
    compiler: str
    #: ``gcc`` or ``clang``.
    family: str
    #: Exact version: ``12.2.0``.
    version: str
    #: ``debian-package``, ``source-tree``, ``tarball``, ``binary``, ``inc-dir``.
    source_kind: str
    #: Package and version (``gcc-12-source 12.2.0-14+deb12u1``) or a path.
    source: str
    flags: list[Flag] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    messages: list[Message] = field(default_factory=list)
    #: A Debian package's provenance (None for any other source): the package
    #: (``gcc-14-source``), its exact Debian version (``14.2.0-19``) and the suite it
    #: was taken from (``trixie``).
    package: str | None = None
    debian_version: str | None = None
    suite: str | None = None

    def set_package(self, candidate) -> None:
        """Record the Debian package (an :class:`warnscope.apt.Candidate`, or None) the
        data came from."""
        self.package = candidate.package if candidate else None
        self.debian_version = candidate.version if candidate else None
        self.suite = candidate.suite if candidate else None

    def content_hash(self) -> str:
        """Hash of the parsed content, so re-ingesting identical data changes nothing."""
        import hashlib  # only ingest hashes; queries should not pay for loading it

        payload = {
            "version": self.version,
            # vars(), not asdict(): the fields hold plain lists and dicts already, and
            # asdict's deep copy was half the cost of saving a clang version.
            "flags": sorted(({**vars(f), "facts": vars(f.facts)} for f in self.flags),
                            key=lambda d: d["name"]),
            "edges": sorted(json.dumps(vars(e), sort_keys=True) for e in self.edges),
            "messages": sorted(json.dumps(vars(m), sort_keys=True) for m in self.messages),
        }
        blob = json.dumps(payload, sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()

    def members_in_code(self, name: str) -> bool:
        """Is what flag ``name`` turns on decided in the compiler's C code, which this
        entry cannot show? True for GCC's grouping options (:data:`CODE_DECIDED`) in an
        entry with no edges at all: option files from before ``EnabledBy`` existed (4.8)."""
        return profile(self.family).gcc and not self.edges and name.lstrip("-") in CODE_DECIDED

    def flag(self, name: str) -> Flag | None:
        for f in self.flags:
            if f.name == name:
                return f
        return None
