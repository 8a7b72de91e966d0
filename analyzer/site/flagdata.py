"""The flag side of the site, read once: every compiler, its flags, and every name's history.

:func:`flagdb.queries.history` answers for one name and loads every compiler to do
so; the site needs the history of every name, so this module loads each compiler
once and asks the same questions of it for all names (a test checks the answers
equal :func:`flagdb.queries.history`'s).
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

from flagdb import queries, store
from flagdb.model import CompilerData
from flagdb.results import FlagInfo, HistoryEntry, TreeNode
from flagdb.store import CompilerRow

#: the groups whose trees a compiler page draws
TREE_GROUPS = ("-Wall", "-Wextra")


@dataclass
class CompilerView:
    """One stored compiler version, with what its page and the histories need."""

    row: CompilerRow
    data: CompilerData
    index: queries.Index
    #: the C-family flags, as ``flags list --json`` gives them
    flags: list[FlagInfo]
    wall: dict[str, str]
    wextra: dict[str, str]
    #: flag name -> the aliases that spell it
    aliases: dict[str, list[str]]
    trees: dict[str, TreeNode] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.row.name

    @property
    def family(self) -> str:
        return self.row.family


def load_compilers(conn: sqlite3.Connection) -> list[CompilerView]:
    """Every stored compiler, GCC before clang, oldest first (``store.compilers``' order)."""
    out = []
    for row in store.compilers(conn):
        data = store.load(conn, row.name, with_messages=False)
        index = queries.Index(data)
        aliases: dict[str, list[str]] = {}
        for f in data.flags:
            if f.alias_of:
                hit = index.resolve(f.alias_of)
                if hit is not None:
                    aliases.setdefault(hit[0].name, []).append(f.name)
        view = CompilerView(
            row=row, data=data, index=index,
            flags=[queries.flag_info(index, f) for f in data.flags if index.applies(f, None)],
            wall=queries.enabled_by_group(index, "-Wall"),
            wextra=queries.enabled_by_group(index, "-Wextra"),
            aliases={k: sorted(v) for k, v in aliases.items()},
        )
        for group in TREE_GROUPS:
            if index.resolve(group) is not None:
                view.trees[group] = queries.tree_of(index, group)
        out.append(view)
    return out


def history_entry(view: CompilerView, typed: str) -> HistoryEntry:
    """:func:`flagdb.queries.history`'s entry for one compiler, over the loaded view."""
    index = view.index
    hit = index.resolve(typed)
    entry = HistoryEntry(compiler=view.name, version=view.row.version, present=hit is not None)
    if hit is None:
        return entry
    flag, _ = hit
    target, value = index.target(typed)
    entry.name = flag.name
    entry.default = flag.default
    entry.in_wall = queries._sets(index, view.wall, target, value)
    entry.in_wextra = queries._sets(index, view.wextra, target, value)
    entry.alias_of = flag.alias_of
    entry.aliases = view.aliases.get(flag.name, [])
    entry.ignored = flag.ignored
    entry.removed = flag.removed
    return entry


@dataclass
class FlagHistory:
    """One flag name across every ingested version, with each version's description."""

    name: str
    entries: list[HistoryEntry]
    descriptions: list[str]
    kinds: list[str]
    #: family -> (first version present, last version present if it left, else None)
    spans: dict[str, tuple[str, str | None]]


def all_names(views: list[CompilerView]) -> list[str]:
    """Every C-family flag name of every compiler, sorted."""
    return sorted({f.name for v in views for f in v.flags})


def histories(views: list[CompilerView], names: list[str]) -> list[FlagHistory]:
    out = []
    for name in names:
        entries, descriptions, kinds = [], [], []
        for view in views:
            entry = history_entry(view, name)
            flag = view.index.flags.get(entry.name) if entry.present else None
            entries.append(entry)
            descriptions.append(flag.description if flag else "")
            kinds.append(flag.kind if flag else "")
        out.append(FlagHistory(name=name, entries=entries, descriptions=descriptions,
                               kinds=kinds, spans=spans(views, entries)))
    return out


def spans(views: list[CompilerView], entries: list[HistoryEntry]) -> dict[str, tuple[str, str | None]]:
    """Per family: the first version holding the name and, if the newest does not, the last."""
    out: dict[str, tuple[str, str | None]] = {}
    families = dict.fromkeys(v.family for v in views)
    for family in families:
        mine = [(v, e) for v, e in zip(views, entries) if v.family == family]
        present = [v.name for v, e in mine if e.present]
        if present:
            left = present[-1] if not mine[-1][1].present else None
            out[family] = (present[0], left)
    return out
