"""The flag side of the site: a page per compiler, per flag name and per diff, over what is
read once: every compiler, its flags, and every name's history.

Each compiler is loaded once; the histories of every name come from
:func:`flagdb.compare.histories` over those loaded versions (the same answers as
``flags history``, computed once per compiler rather than once per name). On top
of them each flag page gets what differs per version and the CLI spreads over
``flags show`` and ``flags messages``: the argument, what each level turns on, and
clang's diagnostic texts.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from markupsafe import Markup

from flagdb import compare, store
from flagdb.closure import Index, enabled_by_group, typed_on
from flagdb.views import alias_map, everything, flag_info, tree_of
from flagdb.model import CompilerData, Flag, Message
from flagdb.results import FlagInfo, HistoryEntry, TreeNode, as_typed
from flagdb.store import CompilerRow

from analyzer.site import charts, flag_life
from analyzer.site.pages import Headline
from analyzer.site.slugs import base_slug
from warnscope.profiles import profile

if TYPE_CHECKING:
    from analyzer.site.pages import SiteBuild

#: the groups whose trees a compiler page draws
TREE_GROUPS = ("-Wall", "-Wextra")
EVERYTHING = "-Weverything"


@dataclass
class CompilerView:
    """One stored compiler version, with what its page and the histories need."""

    row: CompilerRow
    data: CompilerData
    index: Index
    #: the C-family flags, as ``flags list --json`` gives them
    flags: list[FlagInfo]
    #: flag name -> the aliases that spell it
    aliases: dict[str, list[str]]
    #: flag name -> its entry of :attr:`flags`
    info: dict[str, FlagInfo] = field(default_factory=dict)
    trees: dict[str, TreeNode] = field(default_factory=dict)
    #: clang: the -Weverything tree; GCC: its "all warnings" set (``flags everything``)
    everything: TreeNode | list[str] = field(default_factory=list)
    #: flag name -> the diagnostics it controls itself (clang; ``flags show``'s messages)
    messages: dict[str, list[Message]] = field(default_factory=dict)

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
        data = store.load(conn, row.name)
        index = Index(data)
        view = CompilerView(
            row=row, data=data, index=index,
            flags=[flag_info(index, f) for f in data.flags if index.applies(f, None)],
            aliases=alias_map(index),
        )
        view.info = {f.name: f for f in view.flags}
        for group in TREE_GROUPS:
            if index.resolve(group) is not None:
                view.trees[group] = tree_of(index, group)
        view.everything = everything_tree(index) if profile(row.family).clang \
            else everything(data, None)
        for m in data.messages:
            view.messages.setdefault(m.flag, []).append(m)
        out.append(view)
    return out


def everything_tree(index: Index) -> TreeNode:
    """clang's ``-Weverything`` as a tree: it is implicit (no group of the table lists
    its members), so its children are the warning groups no other group contains,
    each with its own tree; remarks (``-R``) are not turned on by it."""
    flag = index.flags.get(EVERYTHING)
    root = TreeNode(name=EVERYTHING, typed=EVERYTHING, value=None,
                    default=flag.default if flag else None)
    for f in sorted(index.data.flags, key=lambda f: f.name):
        if f.name == EVERYTHING or f.kind != "warning" or f.name in index.by_child \
                or f.alias_of or not index.applies(f, None):
            continue
        root.children.append(tree_of(index, f.name))
    return root


def ungrouped(view: CompilerView) -> list[str]:
    """clang's diagnostics no flag controls, which only ``-Weverything`` turns on."""
    flag = view.index.flags.get(EVERYTHING)
    return list(flag.clang.ungrouped) if flag is not None else []


@dataclass
class Variant:
    """One answer and the versions that give it (a level's effect, an argument, a message)."""

    versions: list[str]
    value: object


@dataclass
class Level:
    """One level of a level option (``-Wformat=2``) and what it turns on, per version."""

    level: str
    typed: str
    variants: list[Variant]


@dataclass
class FlagHistory:
    """One flag name across every ingested version, with each version's description."""

    name: str
    entries: list[HistoryEntry]
    descriptions: list[str]
    kinds: list[str]
    #: family -> (first version present, last version present if it left, else None)
    spans: dict[str, str]
    #: the argument as each version writes it (``<0,2>``, ``[none|id|nfc|nfkc]``)
    arguments: list[Variant] = field(default_factory=list)
    levels: list[Level] = field(default_factory=list)
    #: the diagnostics the flag controls: (diag, severity, text) and the versions having it
    messages: list[Variant] = field(default_factory=list)
    #: what turns it on and what it turns on (``flags show``'s "enabled by" and the
    #: edges below it): :class:`Edges` and the versions having them
    edges: list[Variant] = field(default_factory=list)


@dataclass(frozen=True)
class Edge:
    """One flag at the other end of an enabling edge, as a flag page shows it: ``name``
    (its page), ``typed``, and the conditions: ``-Wextra && -Wunused``, ``from -Wformat=2``,
    ``sets -Wformat=1``."""

    name: str
    typed: str
    requires: tuple[str, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class Edges:
    """A flag's enabling edges in one version: what turns it on, what it turns on."""

    enabled_by: tuple[Edge, ...]
    enables: tuple[Edge, ...]


def all_names(views: list[CompilerView]) -> list[str]:
    """Every C-family flag name of every compiler, sorted."""
    return sorted({f.name for v in views for f in v.flags})


def histories(conn: sqlite3.Connection, views: list[CompilerView],
              names: list[str]) -> list[FlagHistory]:
    """Every name's history (:func:`flagdb.compare.histories` over the loaded versions)
    with the per-version details of its flag page."""
    answers = compare.histories(conn, names, {v.name: v.index for v in views})
    out = []
    for name in names:
        entries = answers[name]
        flags = [view.index.flags.get(entry.name) if entry.present else None
                 for view, entry in zip(views, entries)]
        h = FlagHistory(name=name, entries=entries,
                        descriptions=[f.description if f else "" for f in flags],
                        kinds=[f.kind if f else "" for f in flags],
                        spans=spans(views, entries))
        _details(h, views, flags)
        out.append(h)
    return out


def _details(h: FlagHistory, views: list[CompilerView], flags: list[Flag | None]) -> None:
    """Arguments, levels and messages, each answer once with the versions giving it."""
    arguments: dict[object, list[str]] = {}
    levels: dict[str, tuple[str, dict[object, list[str]]]] = {}
    messages: dict[object, list[str]] = {}
    edges: dict[Edges, list[str]] = {}
    for view, flag in zip(views, flags):
        if flag is None:
            continue
        info = view.info.get(flag.name)
        if info is not None and (info.enabled_by or info.enables):
            edges.setdefault(edges_of(info), []).append(view.name)
        if flag.takes_argument:
            arguments.setdefault(flag.argument or "", []).append(view.name)
            for level in levels_of(flag):
                typed = flag.name + level
                on = enabled_by_group(view.index, typed)
                effect = tuple((n, typed_on(view.index, n, v)) for n, v in sorted(on.items()))
                levels.setdefault(level, (typed, {}))[1].setdefault(effect, []).append(view.name)
        for m in view.messages.get(flag.name, []):
            messages.setdefault((m.diag, m.severity, m.text), []).append(view.name)
    h.arguments = [Variant(v, a) for a, v in arguments.items()]
    h.levels = [Level(level, typed, [Variant(v, [list(p) for p in e]) for e, v in effects.items()])
                for level, (typed, effects) in levels.items()]
    h.messages = [Variant(v, m) for m, v in messages.items()]
    h.edges = [Variant(v, e) for e, v in edges.items()]


def edges_of(info: FlagInfo) -> Edges:
    """``flags show``'s edges of a flag (:func:`flagdb.text.enabled_by`, :func:`flagdb.text.enables`)."""
    by = [Edge(r.name, r.typed, tuple(r.requires),
               f"sets {as_typed(info.name, r.value)}" if r.value != "1" or info.takes_argument else "")
          for r in info.enabled_by]
    on = [Edge(r.name, r.typed, tuple(r.requires),
               f"from {info.name}{r.from_level}" if r.from_level is not None else "")
          for r in info.enables]
    return Edges(tuple(dict.fromkeys(by)), tuple(dict.fromkeys(on)))


def levels_of(flag: Flag) -> list[str]:
    """The levels a level option takes, as typed: ``IntegerRange`` numbers, or an enum's
    names (``none``, ``global``, ``all``); none for a free argument (``<bytes>``)."""
    if not flag.name.endswith("="):
        return []
    if flag.gcc.range:
        lo, hi = flag.gcc.range
        return [str(n) for n in range(lo, hi + 1)] if hi - lo <= 10 else []
    return list(dict.fromkeys(flag.gcc.enum_values.values()))


def spans(views: list[CompilerView], entries: list[HistoryEntry]) -> dict[str, str]:
    """Per family: the first version holding the name and, if the newest does not, the
    last (:func:`flagdb.compare.spans`, as the template reads it)."""
    return {s.family: s.text for s in compare.spans(entries)}


# ------------------------------------------------------------------ the pages

def compiler_pages(b: SiteBuild) -> None:
    """One page per compiler version: its flags with a filter box, its -Wall/-Wextra trees;
    beside it a page of everything it can warn about (clang's -Weverything tree, GCC's
    "all warnings" set), kept apart so the compiler page stays light."""
    for view in b.compilers:
        trees = [(group, base_slug(group), node) for group, node in view.trees.items()]
        # each flag with its history entry, joined here rather than by a call per row
        rows = [(f, b.entry.get((view.name, f.name))) for f in view.flags]
        b.page(f"compilers/{view.name}.html", "compiler.html", view=view, trees=trees, rows=rows)
        b.json(f"compilers/{view.name}.json", view.flags)
        for group, tree in view.trees.items():
            b.json(f"compilers/{view.name}.{base_slug(group)}.json", tree)
        b.page(f"compilers/{view.name}.everything.html", "everything.html", view=view,
               ungrouped=ungrouped(view))
        b.json(f"compilers/{view.name}.everything.json", view.everything)
    b.json("compilers.json", [v.row for v in b.compilers])


def flag_pages(b: SiteBuild) -> None:
    """One page per flag name across both families: its life chart and history table.

    A page has a history row per version (some 30,000 in a build of 20 versions); the
    row's first cells depend only on the version, so each distinct one is rendered once
    (``_macros.html``'s ``history_head``) and reused as markup, rather than escaped again
    on every page. The life chart (:mod:`analyzer.site.flag_life`) is SVG in the page."""
    names = [(h.name, b.slugs[h.name]) for h in b.histories]
    macros = b.env.get_template("_macros.html").module
    root = "../"  # flags/X.html
    heads: dict[tuple, Markup] = {}
    for h in b.histories:
        slug = b.slugs[h.name]
        rows = []
        for e, desc, kind in zip(h.entries, h.descriptions, h.kinds):
            version = (e.compiler, e.version, e.present)
            head = heads.get(version)
            if head is None:
                head = heads[version] = macros.history_head(e, root)
            rows.append((e, desc, kind, head))
        life = flag_life.life_chart(h.name, h.entries)
        b.page(f"flags/{slug}.html", "flag.html", h=h, slug=slug, rows=rows,
               fired=b.fired.get(h.name, []), built=b.built, life=life,
               life_svg=Markup(life.svg.decode()) if life else None)
        b.json(f"flags/{slug}.json", h.entries)
    b.page("flags/index.html", "flags.html", names=names)
    b.writer.write("data/names.json", json.dumps(names, separators=(",", ":")) + "\n")
    b.writer.write("data/names.js", "window.WARNSCOPE_FLAGS = "
                   + json.dumps(names, separators=(",", ":")) + ";\n")


def diff_pairs(views: list[CompilerView]) -> list[tuple[str, str]]:
    """Consecutive versions of each family, then across families: every GCC against the
    newest clang and the newest GCC against every clang. Not every GCC against every
    clang: with a dozen versions of each that product would be most of the build and
    of the site's weight, and the pairs kept answer the questions asked (what moving
    to today's clang changes; how today's GCC compares with each clang)."""
    pairs = []
    by_family: dict[str, list[str]] = {}
    for v in views:
        by_family.setdefault(v.family, []).append(v.name)
    for names in by_family.values():
        pairs += list(zip(names, names[1:]))
    gccs, clangs = by_family.get("gcc", []), by_family.get("clang", [])
    if gccs and clangs:
        cross = [(g, clangs[-1]) for g in gccs] + [(gccs[-1], c) for c in clangs]
        pairs += list(dict.fromkeys(cross))
    return pairs


def diff_pages(b: SiteBuild) -> None:
    views = {v.name: v for v in b.compilers}
    for old, new in diff_pairs(b.compilers):
        result = compare.diff(views[old].data, views[new].data)
        stem = f"{old}--{new}"
        b.diffs.append((old, new, stem, result))
        b.page(f"diffs/{stem}.html", "diff.html", d=result)
        b.json(f"diffs/{stem}.json", result)
    b.page("diffs/index.html", "diffs.html", diffs=b.diffs)


# ------------------------------------------------------------------ flags over time

#: the counts the front page's chart draws per release, in the order of its legend
COUNTED = ("warnings", "-Wall", "-Wextra", "on by default")
#: defaults that leave a warning off
OFF = frozenset({"off", "0", ""})


@dataclass
class FlagCounts:
    """One compiler version's warning options: how many there are (C-family, aliases
    not counted again), how many ``-Wall`` and ``-Wextra`` turn on, how many are on
    without either, and how many are new since the family's release before (None for
    its first ingested release)."""

    compiler: str
    family: str
    version: str
    warnings: int
    wall: int
    wextra: int
    on_by_default: int
    added: int | None

    def counts(self) -> dict[str, int]:
        return dict(zip(COUNTED, (self.warnings, self.wall, self.wextra, self.on_by_default)))


def _turned_on(node: TreeNode | None) -> set[str]:
    """The flags a tree turns on, its root left out."""
    out: set[str] = set()
    todo = list(node.children) if node is not None else []
    while todo:
        n = todo.pop()
        out.add(n.name)
        todo.extend(n.children)
    return out


def flag_counts(views: list[CompilerView]) -> list[FlagCounts]:
    """Each version's :class:`FlagCounts`, in the views' order (GCC before clang, oldest first)."""
    out = []
    before: dict[str, set[str]] = {}
    for view in views:
        warnings = {f.name for f in view.flags if f.kind == "warning" and not f.alias_of}
        on = {f.name for f in view.flags if f.name in warnings and (f.default or "").lower() not in OFF}
        previous = before.get(view.family)
        out.append(FlagCounts(
            compiler=view.name, family=view.family, version=view.row.version, warnings=len(warnings),
            wall=len(_turned_on(view.trees.get("-Wall")) & warnings),
            wextra=len(_turned_on(view.trees.get("-Wextra")) & warnings),
            on_by_default=len(on), added=len(warnings - previous) if previous is not None else None))
        before[view.family] = warnings
    return out


def over_time(b: SiteBuild) -> None:
    """The front page's flags over time: per family, the warning options per release and
    what ``-Wall``, ``-Wextra`` and the defaults turn on (a chart beside its table, the
    counts as JSON in ``charts/flags-over-time.json``)."""
    counts = flag_counts(b.compilers)
    chart = charts.releases_chart(
        [charts.Release(c.family, c.compiler, c.counts(), c.added) for c in counts], COUNTED)
    if chart is not None:
        b.writer.write("charts/flags-over-time.svg", chart.svg)
    b.json("charts/flags-over-time.json", counts)
    b.headlines.append(Headline("_flags_headline.html", {"counts": counts, "chart": chart,
                                                         "most": most_added(counts)}))


def most_added(counts: list[FlagCounts]) -> set[str]:
    """Per family, the release that added the most warning options (the one the chart
    labels; the first of a tie), by compiler name."""
    best: dict[str, FlagCounts] = {}
    for c in counts:
        if c.added and (c.family not in best or c.added > (best[c.family].added or 0)):
            best[c.family] = c
    return {c.compiler for c in best.values()}
