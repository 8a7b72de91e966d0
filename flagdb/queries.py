"""Questions asked of the flag database, over plain :class:`CompilerData`.

Every function here takes loaded data (or a connection for questions spanning
versions) and returns the dataclasses of :mod:`flagdb.results`, which the CLI
prints as JSON or renders as text, so the tests call exactly what users run.
"""
from __future__ import annotations

import re
import sqlite3
from collections import Counter, defaultdict
from itertools import islice
from operator import add
from typing import Mapping

from flagdb import store
from flagdb.model import CompilerData, Edge, Flag
from flagdb.results import (
    Available, Change, CheckResult, CheckStatus, DefaultChange, DiffResult, EdgeRef,
    FlagChanges, FlagInfo, HistoryEntry, Introduced, MessageInfo, ShowResult, SinceResult, Span,
    SuiteVersion, TreeNode, TurnedOn, VersionInfo, as_typed,
)
from warnscope.compilers import CompilerId, sort_key

C_FAMILY = ("C", "ObjC", "C++", "ObjC++")
LANGS = {"c": "C", "c++": "C++", "objc": "ObjC", "objc++": "ObjC++"}


def lang_name(lang: str | None) -> str | None:
    """``c`` / ``c++`` as typed on the command line -> the compiler's language tag."""
    if lang is None:
        return None
    try:
        return LANGS[lang.lower()]
    except KeyError:
        from warnscope.errors import WarnscopeError

        raise WarnscopeError(f"unknown language {lang!r} (use c or c++)") from None


# ------------------------------------------------------------------ lookups

class Index:
    """Fast lookups over one compiler's data: flags by name, edges by parent/child."""

    def __init__(self, data: CompilerData, all_names: set[str] | None = None,
                 suggester: "Suggester | None" = None):
        self.data = data
        self.flags: dict[str, Flag] = {f.name: f for f in data.flags}
        #: every flag name of the compiler, for suggestions (``data`` may hold a subset)
        self.all_names = all_names if all_names is not None else set(self.flags)
        #: shared by the indexes of one ``check`` (their names mostly overlap); else built on demand
        self._suggester = suggester
        #: a shared suggester knows other compilers' names too: answers are limited to these
        self._known: dict[str, str] | None = None
        self.by_parent: dict[str, list[Edge]] = {}
        self.by_child: dict[str, list[Edge]] = {}
        for e in data.edges:
            self.by_parent.setdefault(e.parent, []).append(e)
            self.by_child.setdefault(e.child, []).append(e)

    def resolve(self, typed: str) -> tuple[Flag, str | None] | None:
        """``-Wformat=2`` -> (flag ``-Wformat=``, ``"2"``); ``-Wno-shadow`` -> (``-Wshadow``, ``"0"``)."""
        if typed in self.flags:
            return self.flags[typed], None
        if is_negative(typed):  # -Wno-shadow; clang's remarks too: -Rno-pass
            positive = self.flags.get(positive_of(typed))
            if positive is not None and negatable(positive):
                return positive, "0"
        if "=" in typed:
            base, _, value = typed.partition("=")
            if base + "=" in self.flags:
                return self.flags[base + "="], value
            if is_negative(base):
                # -Wno-alloca-larger-than=100: a Joined option without RejectNegative
                joined = self.flags.get(positive_of(base) + "=")
                if joined is not None and not rejects_negative(joined):
                    return joined, "0"
        return None

    def target(self, typed: str) -> tuple[Flag, str | None] | None:
        """:meth:`resolve`, then through an alias to the option it spells, as GCC does:
        ``-Wformat`` -> (``-Wformat=``, ``"1"``); ``-Wno-bidi-chars`` -> (``-Wbidi-chars=``,
        ``"none"``), the alias's negative argument. Not an alias: as :meth:`resolve`."""
        hit = self.resolve(typed)
        if hit is None or not hit[0].alias_of:
            return hit
        flag, value = hit
        if value == "0" and flag.gcc.alias_negative:
            return self.resolve(flag.gcc.alias_negative) or hit
        aliased = self.resolve(flag.alias_of)
        if aliased is None:
            return hit
        return aliased[0], "0" if value == "0" else aliased[1]

    def applies(self, flag: Flag, lang: str | None) -> bool:
        """Does the flag exist for this language (None: for the C family)?"""
        if self.data.family == "gcc" and not flag.c_family:
            return False  # only in other front ends' or targets' files
        if self.data.family != "gcc" or not flag.languages or "Common" in flag.languages:
            return True
        if lang is None:
            return any(l in C_FAMILY for l in flag.languages)
        return lang in flag.languages

    def edge_applies(self, edge: Edge, lang: str | None) -> bool:
        if edge.languages:
            if lang is None:
                if not any(l in C_FAMILY for l in edge.languages):
                    return False
            elif lang not in edge.languages:
                return False
        child = self.flags.get(edge.child)
        return child is None or self.applies(child, lang)

    def children(self, name: str, level: str | None, lang: str | None) -> list[Edge]:
        """Edges that fire when ``name`` is given (at ``level`` for a level option)."""
        out = []
        for e in self.by_parent.get(name, []):
            if not self.edge_applies(e, lang):
                continue
            if e.parent_min is not None:
                try:
                    if level is None or int(level) < e.parent_min:
                        continue
                except ValueError:
                    continue
            out.append(e)
        return out

    def is_noop(self, flag: Flag) -> bool:
        return flag.ignored

    def suggest(self, typed: str) -> str | None:
        """This compiler's flag name closest to ``typed``, if close enough to be a typo."""
        if self._suggester is None:
            self._suggester = Suggester(self.all_names)
        elif self._known is None and self._suggester.names is not self.all_names:
            self._known = spellings(self.all_names)
        return self._suggester.closest(typed, self._known)


def is_negative(typed: str) -> bool:
    """``-Wno-shadow``, and clang's negative remark form ``-Rno-pass``."""
    return typed[:5] in ("-Wno-", "-Rno-")


def positive_of(typed: str) -> str:
    """``-Wno-shadow`` -> ``-Wshadow``, ``-Rno-pass`` -> ``-Rpass``; others unchanged."""
    return typed[:2] + typed[5:] if is_negative(typed) else typed


def rejects_negative(flag: Flag) -> bool:
    """GCC's ``RejectNegative``: no ``-Wno-`` form (clang groups have none)."""
    return flag.gcc.reject_negative


def negatable(flag: Flag) -> bool:
    """Has the plain switch a ``-Wno-`` form? Not when it takes an argument or is
    RejectNegative."""
    return not flag.takes_argument and not rejects_negative(flag)


def typed_value(index: Index, name: str, value: str) -> str:
    """A value as typed: an enum option's number by its name (``1`` of
    ``-Waligned-new=`` is ``global``); others unchanged."""
    if name.endswith("="):
        flag = index.flags.get(name)
        if flag is not None:
            return flag.gcc.enum_values.get(value, value)
    return value


def typed_child(e: Edge, index: Index) -> str:
    """The child as typed; an enum level shown by its name (``-Waligned-new=global``)."""
    return as_typed(e.child, typed_value(index, e.child, e.value))


def typed_parent(e: Edge) -> str:
    """The parent as typed at the lowest level that gives the edge (``-Wformat=2``)."""
    return f"{e.parent}{e.parent_min}" if e.parent_min is not None else e.parent


# ------------------------------------------------------------------ closure

def closure(index: Index, start: list[str], lang: str | None = None) -> dict[str, str]:
    """Every flag that ends up on (name as stored -> value) when ``start`` is given.

    Follows edges with levels; an ``A && B`` edge fires only once both are on.
    Explicitly given flags win over values implied by edges, as in GCC.
    """
    on: dict[str, str] = {}
    for typed in start:
        hit = index.target(typed)
        if hit is not None:
            flag, value = hit
            on[flag.name] = value if value is not None else "1"  # the last one given wins
    explicit = set(on)
    queue: list[tuple[str, str | None]] = list(on.items())
    pending: list[Edge] = []
    while queue or pending:
        while queue:
            name, level = queue.pop()
            if level == "0":
                continue
            for e in index.children(name, level, lang):
                pending.append(e)
        progressed = False
        still: list[Edge] = []
        for e in pending:
            if any(r not in on or on[r] == "0" for r in e.requires):
                still.append(e)
                continue
            if e.child in explicit or e.child in on:
                continue
            on[e.child] = e.value
            queue.append((e.child, e.value))
            progressed = True
        pending = still
        if not progressed and not queue:
            break
    return on


def enabled_by_group(index: Index, group: str, lang: str | None = None) -> dict[str, str]:
    """What ``-Wall`` (or ``-Wextra`` …) turns on, without the group itself."""
    got = closure(index, [group], lang)
    hit = index.target(group)  # an alias turns on what its target does, not the target
    got.pop(hit[0].name if hit else group, None)
    return got


# ------------------------------------------------------------------ list / show

def find(index: Index, typed: str) -> tuple[Flag, str | None]:
    """:meth:`Index.resolve`, or the error a user sees, with the closest name if any."""
    hit = index.resolve(typed)
    if hit is None:
        from warnscope.errors import WarnscopeError

        hint = index.suggest(typed)
        raise WarnscopeError(f"{index.data.compiler} has no warning flag {typed}"
                             + (f" (did you mean {hint}?)" if hint else ""))
    return hit


def flag_info(index: Index, flag: Flag, lang: str | None = None) -> FlagInfo:
    """One flag with its edges both ways, as ``flags list --json`` prints it."""
    enables: list[EdgeRef] = []
    for e in index.by_parent.get(flag.name, []):
        if index.edge_applies(e, lang):
            value = typed_value(index, e.child, e.value)
            _add(enables, EdgeRef(name=e.child, typed=as_typed(e.child, value), value=value,
                                  requires=list(e.requires), from_level=e.parent_min,
                                  languages=list(e.languages)))
    enabled_by: list[EdgeRef] = []
    for e in index.by_child.get(flag.name, []):
        if index.edge_applies(e, lang):
            _add(enabled_by, EdgeRef(name=e.parent, typed=typed_parent(e),
                                     value=typed_value(index, e.child, e.value),
                                     requires=list(e.requires), from_level=e.parent_min,
                                     languages=list(e.languages)))
    return FlagInfo(
        name=flag.name, kind=flag.kind, alias_of=flag.alias_of, enables=enables,
        enabled_by=enabled_by, default=flag.default, languages=list(flag.languages),
        takes_argument=flag.takes_argument, argument=flag.argument, ignored=flag.ignored,
        removed=flag.removed, c_family=flag.c_family, description=flag.description,
    )


def _add(refs: list[EdgeRef], ref: EdgeRef) -> None:
    """Append ``ref`` unless an edge to the same flag with the same effect is there
    (the same edge from several records, or for several languages: languages merged)."""
    for other in refs:
        if (other.name, other.typed, other.value, other.requires, other.from_level) == (
                ref.name, ref.typed, ref.value, ref.requires, ref.from_level):
            if other.languages and ref.languages:
                other.languages = sorted(set(other.languages) | set(ref.languages))
            else:
                other.languages = []
            return
    refs.append(ref)


def list_flags(data: CompilerData, include_all: bool = False, lang: str | None = None
               ) -> list[FlagInfo]:
    index = Index(data)
    return [
        flag_info(index, f, lang)
        for f in sorted(data.flags, key=lambda f: f.name)
        if include_all or index.applies(f, lang)
    ]


def show(data: CompilerData, typed: str, lang: str | None = None) -> ShowResult:
    """One flag in detail; a level form (``-Wformat=2``) shows what that level turns on."""
    index = Index(data)
    flag, level = find(index, typed)
    info = flag_info(index, flag, lang)
    return ShowResult(
        **vars(info),
        compiler=data.compiler, typed=typed, level=level, origin=flag.origin,
        turns_on=[TurnedOn(name=n, value=typed_value(index, n, v), typed=typed_on(index, n, v))
                  for n, v in sorted(enabled_by_group(index, typed, lang).items())],
        messages=[m for m in data.messages if m.flag == flag.name],
    )


def typed_on(index: Index, name: str, value: str) -> str:
    """A flag that is on, as a user would type it to get that state."""
    return as_typed(name, typed_value(index, name, value))


# ------------------------------------------------------------------ tree

def tree(data: CompilerData, typed: str, lang: str | None = None) -> TreeNode:
    """The nested view of what a flag turns on.

    A negative form (``-Wno-extra``) turns nothing on. A GCC alias has no edges of its
    own: its one child is its target as it spells it (``-Wformat`` → ``-Wformat=1``),
    the shape clang's alias groups have.
    """
    return tree_of(Index(data), typed, lang)


def tree_of(index: Index, typed: str, lang: str | None = None) -> TreeNode:
    """:func:`tree` over an index already built (``export`` draws a tree per flag)."""
    flag, level = find(index, typed)

    def node(name: str, level: str | None, path: tuple[str, ...], label: str,
             edge: Edge | None = None) -> TreeNode:
        f = index.flags.get(name)
        out = TreeNode(name=name, typed=label,
                       value=typed_value(index, name, level) if level is not None else None,
                       requires=list(edge.requires) if edge else [],
                       default=f.default if f is not None else None,
                       ignored=f.ignored if f is not None else False)
        if name in path:
            out.cycle = True
            return out
        if level == "0":
            return out
        for e in sorted(index.children(name, level, lang), key=lambda e: e.child):
            out.children.append(node(e.child, e.value, path + (name,), typed_child(e, index), e))
        return out

    if level != "0" and flag.alias_of and not index.by_parent.get(flag.name):
        target, target_level = index.target(typed)
        root = node(flag.name, "0", (), typed)
        root.value = level
        if target is not flag:
            spelled = target.name + target_level if target.name.endswith("=") else target.name
            root.children.append(node(target.name, target_level, (flag.name,), spelled))
        return root
    label = flag.name + level if (level is not None and flag.name.endswith("=")) else flag.name
    return node(flag.name, level, (), typed if level == "0" else label)


# ------------------------------------------------------------------ diff

#: the attributes ``diff`` compares, in the order changes are listed
DIFF_ATTRIBUTES = ("default", "in_wall", "in_wextra", "languages", "alias_of", "ignored",
                   "removed", "argument", "takes_argument", "description", "enables")


def _summary(index: Index, flag: Flag, wall: dict, wextra: dict) -> dict:
    target, value = index.target(flag.name)  # an alias is in -Wall if what it spells is
    return {
        "default": flag.default,
        "in_wall": _sets(index, wall, target, value),
        "in_wextra": _sets(index, wextra, target, value),
        "languages": sorted(flag.languages),
        "alias_of": flag.alias_of,
        "ignored": flag.ignored,
        "removed": flag.removed,
        "argument": flag.argument,
        "takes_argument": flag.takes_argument,
        "description": flag.description,
        "enables": sorted({typed_child(e, index) for e in index.by_parent.get(flag.name, [])
                           if index.edge_applies(e, None)}),
    }


def diff(old: CompilerData, new: CompilerData, include_all: bool = False) -> DiffResult:
    """Added, removed and changed flags between two versions (or two compilers).

    Attribute-aware: a flag present in both is compared field by field, so a reworded
    help text is a ``description`` change, not a removal plus an addition. Across
    families (gcc vs clang) descriptions and languages are not compared: they are
    written by different projects and say nothing about behaviour. ``in_both`` lists
    the names both have; ``added`` / ``removed`` are then "only in new / only in old".
    """
    a, b = Index(old), Index(new)
    a_names = {f.name for f in old.flags if include_all or a.applies(f, None)}
    b_names = {f.name for f in new.flags if include_all or b.applies(f, None)}
    a_wall, a_wextra = enabled_by_group(a, "-Wall"), enabled_by_group(a, "-Wextra")
    b_wall, b_wextra = enabled_by_group(b, "-Wall"), enabled_by_group(b, "-Wextra")
    cross = old.family != new.family
    skip = {"description", "languages", "argument", "enables"} if cross else set()
    changed = []
    for name in sorted(a_names & b_names):
        sa = _summary(a, a.flags[name], a_wall, a_wextra)
        sb = _summary(b, b.flags[name], b_wall, b_wextra)
        changes = [Change(attribute=k, old=sa[k], new=sb[k])
                   for k in DIFF_ATTRIBUTES if k not in skip and sa[k] != sb[k]]
        if changes:
            changed.append(FlagChanges(name=name, changes=changes))
    return DiffResult(
        old=old.compiler, new=new.compiler, cross_family=cross,
        in_both=sorted(a_names & b_names),
        added=[flag_info(b, b.flags[n]) for n in sorted(b_names - a_names)],
        removed=[flag_info(a, a.flags[n]) for n in sorted(a_names - b_names)],
        changed=changed,
    )


# ------------------------------------------------------------------ versions

def versions(rows: list[store.CompilerRow], available: Mapping[str, list] | None,
             choose=None) -> list[VersionInfo]:
    """Ingested entries and the archive's packages, one line per compiler version.

    ``available`` maps a compiler id to its package's versions per suite (a list of
    :class:`warnscope.apt.Candidate`, newest first; None: the archive was not asked);
    ``choose`` picks the one an ingest takes (:func:`warnscope.apt.choose`).
    """

    out: dict[str, VersionInfo] = {}
    for row in rows:
        info = VersionInfo(name=row.name, family=row.family,
                           major=CompilerId.parse(row.name).major, ingested=True)
        for key in ("version", "source_kind", "source", "content_hash", "ingested_at", "flags",
                    "package", "debian_version", "suite"):
            setattr(info, key, getattr(row, key))
        out[row.name] = info
    for name, found in (available or {}).items():
        if not found:
            continue
        best = choose(found) if choose else found[0]
        info = out.get(name)
        if info is None:
            cid = CompilerId.parse(name)
            info = out[name] = VersionInfo(name=name, family=cid.family, major=cid.major,
                                           ingested=False)
        info.available = Available(package=best.package, suite=best.suite,
                                   debian_version=best.version,
                                   in_suites=[SuiteVersion(c.suite, c.version) for c in found])
        if info.ingested and info.source_kind == "debian-package":
            info.current = info.debian_version == best.version
    return sorted(out.values(), key=lambda v: sort_key(v.name))


# ------------------------------------------------------------------ since

def since(conn: sqlite3.Connection, compiler: str | None = None) -> list[SinceResult]:
    """What ``compiler`` (or every ingested version) introduced, removed, moved into or
    out of -Wall/-Wextra, and whose default changed, relative to the previous ingested
    version of the same family (ordered by major). C-family flags only, as ``diff``."""
    rows = store.compilers(conn)
    if compiler is not None:
        store.compiler_row(conn, compiler)  # the error naming what is ingested
    wanted = [r for r in rows if compiler is None or r.name == compiler]
    loaded: dict[str, CompilerData] = {}

    def data(name: str) -> CompilerData:
        if name not in loaded:
            loaded[name] = store.load(conn, name, with_messages=False)
        return loaded[name]

    out = []
    for row in wanted:
        family = [r for r in rows if r.family == row.family]
        position = [r.name for r in family].index(row.name)
        if position == 0:
            out.append(SinceResult(compiler=row.name, version=row.version, previous=None,
                                   previous_version=None))
            continue
        prev = family[position - 1]
        out.append(_since(data(prev.name), data(row.name)))
    return out


def _since(old: CompilerData, new: CompilerData) -> SinceResult:
    result = diff(old, new)
    index = Index(new)
    wall, wextra = enabled_by_group(index, "-Wall"), enabled_by_group(index, "-Wextra")
    out = SinceResult(compiler=new.compiler, version=new.version, previous=old.compiler,
                      previous_version=old.version)
    for f in result.added:
        summary = _summary(index, index.flags[f.name], wall, wextra)
        out.introduced.append(Introduced(name=f.name, default=f.default,
                                         in_wall=summary["in_wall"],
                                         in_wextra=summary["in_wextra"],
                                         description=f.description))
    out.removed = [f.name for f in result.removed]
    for fc in result.changed:
        for c in fc.changes:
            if c.attribute == "in_wall":
                (out.joined_wall if c.new else out.left_wall).append(fc.name)
            elif c.attribute == "in_wextra":
                (out.joined_wextra if c.new else out.left_wextra).append(fc.name)
            elif c.attribute == "default":
                out.default_changed.append(DefaultChange(fc.name, c.old, c.new))
    return out


# ------------------------------------------------------------------ history

def history(conn: sqlite3.Connection, typed: str) -> list[HistoryEntry]:
    """The flag in every ingested version: present, default, in -Wall/-Wextra, aliases.

    "In -Wall" means -Wall gives what was typed: through an alias to its target
    (``-Wformat`` is ``-Wformat=1``), and at the typed level (``-Wformat=2`` is not in
    -Wall, which sets ``-Wformat=1``).
    """
    return histories(conn, [typed])[typed]


def spans(entries: list[HistoryEntry]) -> list[Span]:
    """Per family, in the order of ``entries`` (a :func:`history`, oldest version first):
    where the name first appeared and, if it is gone from the newest, where it was last."""
    by_family: dict[str, list[HistoryEntry]] = {}
    for e in entries:
        by_family.setdefault(CompilerId.parse(e.compiler).family, []).append(e)
    out = []
    for family, mine in by_family.items():
        present = [e.compiler for e in mine if e.present]
        if present:
            out.append(Span(family, present[0], None if mine[-1].present else present[-1]))
    return out


def histories(conn: sqlite3.Connection, names: list[str],
              indexes: Mapping[str, Index] | None = None) -> dict[str, list[HistoryEntry]]:
    """:func:`history` of many names at once (the report site asks for every name).

    Each compiler is loaded, and its -Wall/-Wextra closures and alias map computed,
    once for all names rather than once per name. ``indexes`` (compiler name -> an
    :class:`Index` over its stored data) spares loading the versions a caller holds
    already; the others are loaded here.
    """
    out: dict[str, list[HistoryEntry]] = {name: [] for name in names}
    for row in store.compilers(conn):
        index = (indexes or {}).get(row.name)
        if index is None:
            index = Index(store.load(conn, row.name, with_messages=False))
        wall = enabled_by_group(index, "-Wall")
        wextra = enabled_by_group(index, "-Wextra")
        aliases = alias_map(index)
        for typed in out:
            out[typed].append(_history_entry(row, index, wall, wextra, aliases, typed))
    return out


def alias_map(index: Index) -> dict[str, list[str]]:
    """Flag name -> the aliases that spell it (``-Wformat=`` -> ``[-Wformat]``), sorted."""
    out: dict[str, list[str]] = {}
    for f in index.data.flags:
        if f.alias_of:
            hit = index.resolve(f.alias_of)
            if hit is not None:
                out.setdefault(hit[0].name, []).append(f.name)
    return {name: sorted(spellers) for name, spellers in out.items()}


def _history_entry(row: store.CompilerRow, index: Index, wall: dict[str, str],
                   wextra: dict[str, str], aliases: dict[str, list[str]],
                   typed: str) -> HistoryEntry:
    hit = index.resolve(typed)
    entry = HistoryEntry(compiler=row.name, version=row.version, present=hit is not None)
    if hit is None:
        return entry
    flag, _ = hit
    target, value = index.target(typed)
    entry.name = flag.name
    entry.default = flag.default
    entry.in_wall = _sets(index, wall, target, value)
    entry.in_wextra = _sets(index, wextra, target, value)
    entry.alias_of = flag.alias_of
    entry.aliases = list(aliases.get(flag.name, []))
    entry.ignored = flag.ignored
    entry.removed = flag.removed
    return entry


def _sets(index: Index, on: dict[str, str], flag: Flag, value: str | None) -> bool:
    """Does the closure ``on`` hold ``flag`` at ``value`` (at any value for None)?
    Values are compared as typed, so an enum's number and its string are one value."""
    if flag.name not in on:
        return False
    return value is None or typed_on(index, flag.name, on[flag.name]) == typed_on(index, flag.name, value)


# ------------------------------------------------------------------ check

def _bigrams(text: str) -> set[str]:
    """The pairs of adjacent characters in ``text``."""
    return set(map(add, text, text[1:]))


def spellings(names: set[str]) -> dict[str, str]:
    """Name without a trailing ``=`` -> the name as stored (``-Wframe-larger-than=``);
    the plain switch wins where both exist (``-Wnormalized``, ``-Wnormalized=``)."""
    return {n.rstrip("="): n for n in sorted(names, reverse=True)}


class Suggester:
    """Typo suggestions ("did you mean -Wshadow?") over the flag names of one or more
    compilers.

    Candidates come from an index of character pairs (pairs shared by more than a
    quarter of the names, such as ``-W``, are left out of it); only the best few go
    through difflib's sequence matching, which is what costs. One suggester serves
    every compiler of a ``check``: their names mostly overlap, so the pair counts and
    the match scores of a typed flag are computed once, not once per compiler.
    """

    #: how many pair-index candidates go through sequence matching
    CANDIDATES = 12
    #: difflib ratio a name needs to be suggested (``get_close_matches``' cutoff)
    CUTOFF = 0.75

    def __init__(self, names: set[str]):
        self.names = names
        self.spelled: dict[str, str] = {}
        #: character pair -> the names holding it, alphabetical; built at the first typo
        self._grams: dict[str, list[str]] | None = None
        #: typed base -> names sharing character pairs with it, most shared first
        self._ranked: dict[str, list[str]] = {}
        self._scores: dict[tuple[str, str], float] = {}
        self._matchers: dict = {}  # typed base -> difflib.SequenceMatcher

    def _index(self) -> dict[str, list[str]]:
        """The pair index, built at the first typo: a check of known flags never needs it."""
        if self._grams is None:
            self.spelled = spellings(self.names)
            sorted_names = sorted(self.spelled)
            grams: dict[str, list[str]] = defaultdict(list)
            for name in sorted_names:
                for gram in _bigrams(name):
                    grams[gram].append(name)
            common = len(sorted_names) // 4
            self._grams = {g: ns for g, ns in grams.items() if len(ns) <= common}
        return self._grams

    def closest(self, typed: str, known: dict[str, str] | None = None) -> str | None:
        """The known name closest to ``typed``, if close enough to be a typo.

        ``known`` (one compiler's :func:`spellings`) limits the answer to that compiler.
        """
        base = positive_of(typed.split("=", 1)[0])
        ranked = self._ranked.get(base)
        if ranked is None:
            counts: Counter = Counter()
            grams = self._index()
            for gram in sorted(_bigrams(base)):  # a fixed order, so ties never depend on hashing
                counts.update(grams.get(gram, ()))
            ranked = self._ranked[base] = [name for name, _ in counts.most_common()]
        if known is not None:
            ranked = (n for n in ranked if n in known)
        candidates = list(islice(ranked, self.CANDIDATES))
        scored = [(self._score(base, n), n) for n in candidates]
        best = max(scored, default=(0.0, None))
        if best[0] < self.CUTOFF:
            return None
        return (self.spelled if known is None else known)[best[1]]

    def _score(self, base: str, name: str) -> float:
        """difflib's similarity ratio as ``get_close_matches`` computes it (0 below the cutoff)."""
        key = (base, name)
        if key not in self._scores:
            m = self._matchers.get(base)
            if m is None:
                from difflib import SequenceMatcher  # only typos pay for loading difflib

                m = self._matchers[base] = SequenceMatcher(None, "", base)
            m.set_seq1(name)
            score = 0.0
            if m.real_quick_ratio() >= self.CUTOFF and m.quick_ratio() >= self.CUTOFF:
                score = m.ratio()
            self._scores[key] = score if score >= self.CUTOFF else 0.0
        return self._scores[key]


#: switches that steer diagnostics rather than name a warning; GCC and clang take them all
DIAGNOSTIC_CONTROLS = {
    "-Werror": "every warning is an error",
    "-Wno-error": "warnings are not errors",
    "-Wfatal-errors": "stop at the first error",
    "-Wno-fatal-errors": "do not stop at the first error",
    "-w": "no warnings at all",
    "-pedantic": "the same as -Wpedantic",
    "-pedantic-errors": "the -Wpedantic warnings are errors",
}
#: clang's driver options -Rpass=<regex>, -Rpass-missed=<regex>, -Rpass-analysis=<regex>
REMARK_REGEX = re.compile(r"-Rpass(-missed|-analysis)?=.+")
#: -Werror=X / -Wno-error=X: X must be a warning option, named positively
ERROR_FOR = re.compile(r"-W(no-)?error=(.+)")


def check_flag(index: Index, typed: str) -> CheckResult:
    """What one compiler version does with one flag as typed."""
    data = index.data

    def result(status: CheckStatus, **fields) -> CheckResult:
        return CheckResult(flag=typed, compiler=data.compiler, status=status, **fields)

    if typed in DIAGNOSTIC_CONTROLS:
        return result(CheckStatus.KNOWN, description=DIAGNOSTIC_CONTROLS[typed])
    if data.family == "clang" and REMARK_REGEX.fullmatch(typed):
        return result(CheckStatus.KNOWN, description="optimization remarks of the passes "
                                                     "matching the regular expression")
    m = ERROR_FOR.fullmatch(typed)
    if m:
        name = "-W" + m.group(2)
        hit = None if m.group(2).startswith("no-") else index.resolve(name)
        if hit is None:
            hint = index.suggest(name)
            if hint:
                return result(CheckStatus.UNKNOWN,
                              suggestion=f"-W{m.group(1) or ''}error={hint[2:]}")
            return result(CheckStatus.UNKNOWN, reason=f"no warning option {name}")
        return result(CheckStatus.KNOWN,
                      description=f"{name} warnings {'are not' if m.group(1) else 'are'} errors")
    negative = typed.startswith("-Wno-")
    hit = index.resolve(typed)
    if hit is None:
        hint = index.suggest(typed)
        positive = index.flags.get("-W" + typed[5:]) if negative else None
        if positive is not None and not positive.takes_argument and not negatable(positive):
            return result(CheckStatus.UNKNOWN,
                          reason=f"{positive.name} cannot be negated (RejectNegative): "
                                 f"{data.compiler} rejects {typed}")
        note = None
        if negative and data.family == "gcc":
            note = ("GCC accepts an unknown -Wno-… silently (it only complains if another "
                    f"diagnostic is issued); -W{typed[5:]} would be rejected")
        return result(CheckStatus.UNKNOWN, suggestion=hint,
                      reason=None if hint else "no such warning option", note=note)
    flag, value = hit
    if flag.removed:
        return result(CheckStatus.REMOVED, description=flag.description or "removed option")
    if flag.ignored:
        return result(CheckStatus.NOOP, description="accepted, does nothing")
    if value is not None and value != "0" and flag.takes_argument:
        problem = _bad_value(flag, value)
        if problem:
            return result(CheckStatus.BAD_VALUE, description=flag.description, reason=problem)
    if flag.alias_of:
        return result(CheckStatus.ALIAS, description=flag.description,
                      alias_of=alias_spelling(flag, value))
    return result(CheckStatus.KNOWN, description=flag.description)


def alias_spelling(flag: Flag, value: str | None) -> str:
    """What an alias stands for as typed: ``-Wno-aligned-new`` is ``-Waligned-new=none``
    (the alias's negative argument), ``-Wno-shadow=global`` is ``-Wno-shadow``."""
    if value == "0":
        if flag.gcc.alias_negative:
            return flag.gcc.alias_negative
        if "=" not in flag.alias_of:
            return flag.alias_of[:2] + "no-" + flag.alias_of[2:]
    return flag.alias_of


def _bad_value(flag: Flag, value: str) -> str | None:
    rng = flag.gcc.range
    if rng:
        lo, hi = rng
        if not value.isdigit() or not lo <= int(value) <= hi:
            return f"{flag.name} takes a level from {lo} to {hi}"
    arg = flag.argument or ""
    if arg.startswith("[") and arg.endswith("]"):
        choices = arg[1:-1].split("|")
        if value not in choices:
            return f"{flag.name} takes one of {', '.join(choices)}"
    return None


def check(datas: list[CompilerData], flags: list[str]) -> list[CheckResult]:
    """The table of every flag against every compiler, flag-major."""
    indexes = [Index(d) for d in datas]
    return [check_flag(index, typed) for typed in flags for index in indexes]


def candidate_names(typed: str) -> list[str]:
    """Every stored name that ``typed`` could resolve to (see :meth:`Index.resolve`;
    for ``-Werror=X``, the names of ``-WX``)."""
    m = ERROR_FOR.fullmatch(typed)
    if m:
        typed = "-W" + m.group(2)
    names = [typed]
    if is_negative(typed):
        names.append(positive_of(typed))
    if "=" in typed:
        base = typed.partition("=")[0]
        names += [base + "=", positive_of(base) + "="]
    return names


def check_in_db(conn: sqlite3.Connection, compilers: list[str], flags: list[str]) -> list[CheckResult]:
    """:func:`check` reading only the flags asked about (and the names, for suggestions),
    so checking a few flags against many compilers stays fast."""
    wanted = {n for typed in flags for n in candidate_names(typed)}
    names = {compiler: store.flag_names(conn, compiler) for compiler in compilers}
    suggester = Suggester(set().union(*names.values()))
    indexes = [Index(store.load_subset(conn, compiler, wanted), names[compiler], suggester)
               for compiler in compilers]
    return [check_flag(index, typed) for typed in flags for index in indexes]


def portable(results: list[CheckResult]) -> list[str]:
    """Flags every named compiler knows and that do something in each."""
    by_flag: dict[str, list[CheckResult]] = {}
    for r in results:
        by_flag.setdefault(r.flag, []).append(r)
    ok = (CheckStatus.KNOWN, CheckStatus.ALIAS)
    return [f for f, rs in by_flag.items() if all(r.status in ok for r in rs)]


# ------------------------------------------------------------------ everything / messages

def everything(data: CompilerData, lang: str | None) -> list[str]:
    """The "all warnings" set: clang's ``-Weverything``; for GCC every flag that does
    something for the language and takes no argument, level options at their top level."""
    if data.family == "clang":
        return ["-Weverything"]
    index = Index(data)
    out = []
    for f in sorted(data.flags, key=lambda f: f.name):
        if not f.c_family or not index.applies(f, lang) or f.ignored or f.removed or f.alias_of:
            continue
        if f.name.startswith("-Wno-"):
            continue
        if f.takes_argument:
            rng = f.gcc.range
            if not rng or not f.name.endswith("="):
                continue
            top = rng[1]
            base = f.name[:-1]
            if base in index.flags and not index.flags[base].takes_argument and \
                    not index.flags[base].alias_of:
                continue  # the plain switch is listed already
            out.append(f"{f.name}{top}")
        else:
            out.append(f.name)
    return out


def messages(data: CompilerData, typed: str) -> list[MessageInfo]:
    """Diagnostics a flag controls, with the flag (below it) that owns each."""
    index = Index(data)
    flag, _ = find(index, typed)
    target = index.target(flag.name)[0]  # an alias group controls its target's diagnostics
    names = {flag.name, target.name} | set(closure(index, [target.name]))
    return [m for m in data.messages if m.flag in names]
