"""Answers across compiler versions: what changed between two (``diff``), what each
version changed from the one before (``since``), a flag in every version
(``history``), and the versions ingested or available (``versions``).

Like :mod:`flagdb.views`, every function returns the dataclasses of
:mod:`flagdb.results`; the questions spanning versions take a connection and read
each version through :mod:`flagdb.store`.
"""
from __future__ import annotations

import sqlite3
from typing import Mapping

from flagdb import store
from flagdb.closure import Index, enabled_by_group, typed_child, typed_on
from flagdb.model import CompilerData, Flag
from flagdb.results import (
    Available, Change, DefaultChange, DiffResult, FlagChanges, HistoryEntry, Introduced, SinceResult,
    Span, SuiteVersion, VersionInfo,
)
from flagdb.views import alias_map, flag_info
from warnscope.compilers import CompilerId, sort_key
from warnscope.errors import BadInput


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


def versions(rows: list[store.CompilerRow], available: Mapping[str, list] | None,
             choose=None, upstream: list | None = None) -> list[VersionInfo]:
    """Ingested entries and the archive's packages, one line per compiler version.

    ``available`` maps a compiler id to its package's versions per suite (a list of
    :class:`warnscope.apt.Candidate`, newest first; None: the archive was not asked);
    ``choose`` picks the one an ingest takes (:func:`warnscope.apt.choose`); ``upstream``
    the releases of :mod:`flagdb.upstream` to list beside them.
    """

    out: dict[str, VersionInfo] = {}
    for row in rows:
        info = VersionInfo(name=row.name, family=row.family,
                           major=CompilerId.parse(row.name).major, ingested=True)
        for key in ("version", "source_kind", "source", "content_hash", "ingested_at", "flags",
                    "package", "debian_version", "suite", "c_family_flags"):
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
    for release in upstream or []:   # flagdb.upstream.Release: where --source comes from
        info = out.get(release.compiler)
        if info is None:
            cid = CompilerId.parse(release.compiler)
            info = out[release.compiler] = VersionInfo(name=release.compiler, family=cid.family,
                                                       major=cid.major, ingested=False)
        info.upstream.append(release)
    return sorted(out.values(), key=lambda v: sort_key(v.name))


def is_host(name: str) -> bool:
    """Is ``name`` a release for the host's target (not ``gcc-12@aarch64-linux-gnu``)?
    Only those make a family's history: a cross compiler of version N is that release
    built for another target, not the version after N."""
    try:
        return not CompilerId.parse(name).target
    except ValueError:
        return True


def since(conn: sqlite3.Connection, compiler: str | None = None) -> list[SinceResult]:
    """What ``compiler`` (or every ingested version) introduced, removed, moved into or
    out of -Wall/-Wextra, and whose default changed, relative to the previous ingested
    version of the same family (ordered by major). C-family flags only, as ``diff``.

    The releases are the host's; a compiler for another target is compared with its
    host release beside it (``SinceResult.target``), after them."""
    rows = store.compilers(conn)
    if compiler is not None:
        store.compiler_row(conn, compiler)  # the error naming what is ingested
    wanted = [r for r in rows if compiler is None or r.name == compiler]
    wanted.sort(key=lambda r: not is_host(r.name))
    hosts = [r for r in rows if is_host(r.name)]
    loaded: dict[str, CompilerData] = {}

    def data(name: str) -> CompilerData:
        if name not in loaded:
            loaded[name] = store.load(conn, name, with_messages=False)
        return loaded[name]

    out = []
    for row in wanted:
        cid = CompilerId.parse(row.name)
        if cid.target:
            host = next((r for r in hosts if r.name == str(cid.host)), None)
            if host is None:
                out.append(SinceResult(compiler=row.name, version=row.version, previous=None,
                                       previous_version=None, target=cid.target))
            else:
                result = _since(data(host.name), data(row.name))
                result.target = cid.target
                out.append(result)
            continue
        line = cid.family   # Apple's clang: a line of its own
        family = [r for r in hosts if CompilerId.parse(r.name).family == line]
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


def history(conn: sqlite3.Connection, typed: str) -> list[HistoryEntry]:
    """The flag in every ingested version: present, default, in -Wall/-Wextra, aliases.

    "In -Wall" means -Wall gives what was typed: through an alias to its target
    (``-Wformat`` is ``-Wformat=1``), and at the typed level (``-Wformat=2`` is not in
    -Wall, which sets ``-Wformat=1``).

    A name no ingested version has is an error naming the closest flag of the newest
    versions (``-Wshadw``: did you mean -Wshadow?), not a table of "absent".
    """
    entries = histories(conn, [typed])[typed]
    if entries and not any(e.present for e in entries):
        raise _no_such_flag(conn, typed, [e.compiler for e in entries])
    # the releases first, then the compilers for other targets (not releases of their own)
    return sorted(entries, key=lambda e: not is_host(e.compiler))


def versions_having(conn: sqlite3.Connection, typed: str) -> list[CompilerData]:
    """Every ingested version that has the flag ``typed``, oldest first; none having it
    is the error :func:`history` gives, with the closest flag."""
    rows = store.compilers(conn)
    out = [data for row in rows if Index(data := store.load(conn, row.name)).resolve(typed) is not None]
    if not out and rows:
        raise _no_such_flag(conn, typed, [r.name for r in rows])
    return out


def _no_such_flag(conn: sqlite3.Connection, typed: str, versions: list[str]) -> BadInput:
    """The error for a flag none of ``versions`` (the ingested ones, oldest first) has,
    naming the closest flag of the newest versions (``-Wshadw``: did you mean -Wshadow?)."""
    hint = _closest(conn, typed)
    return BadInput(f"no ingested version has a warning flag {typed} ({versions[0]} … {versions[-1]})"
                    + (f": did you mean {hint}?" if hint else ""))


def _closest(conn: sqlite3.Connection, typed: str) -> str | None:
    """The flag closest to ``typed`` in the newest ingested version of each family."""
    newest: dict[str, str] = {}
    for row in store.compilers(conn):  # oldest first: the last of a family is its newest
        if is_host(row.name):
            newest[CompilerId.parse(row.name).family] = row.name
    hints = [Index(store.load(conn, name, with_messages=False)).suggest(typed)
             for name in newest.values()]
    return next((h for h in hints if h), None)


def spans(entries: list[HistoryEntry]) -> list[Span]:
    """Per family, in the order of ``entries`` (a :func:`history`, oldest version first):
    where the name first appeared and, if it is gone from the newest, where it was last.
    Over the host's releases only: a compiler for another target is no release."""
    by_family: dict[str, list[HistoryEntry]] = {}
    for e in entries:
        if is_host(e.compiler):
            by_family.setdefault(CompilerId.parse(e.compiler).family, []).append(e)
    out = []
    for family, mine in by_family.items():
        present = [e.compiler for e in mine if e.present]
        if present:
            out.append(Span(family, present[0], None if mine[-1].present else present[-1],
                            oldest=mine[0].compiler, newest=mine[-1].compiler,
                            every=len(present) == len(mine)))
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
