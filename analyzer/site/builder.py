"""``warnscope site build``: the database rendered into a static site.

Sections each write their pages (HTML beside the JSON of the same results the CLI's
``--json`` prints); the index comes last, with the headlines the sections left. A
later capability adds its pages by adding a section to :data:`SECTIONS`.

Every link is relative, so the site works from ``file://`` and from any static
host; no page loads anything from outside the site.
"""
from __future__ import annotations

import concurrent.futures as cf
import functools
import gc
import json
import signal as signals
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from markupsafe import Markup, escape

from flagdb import compare
from flagdb.describe import describe_change
from warnscope.errors import WarnscopeError

from analyzer.site import advicedata, flagdata, overheaddata, ubdata, warningsdata, web_dir
from analyzer.runtime.executors import LocalExecutor, can_fork, cores
from analyzer.site.output import SiteWriter, WriteStats, WrittenPart
from analyzer.site.slugs import base_slug, path_slug, slug_map, unique_slug
from analyzer.ub.results import Outcome
from warnscope import serial
from warnscope.compilers import level_key, sort_key

#: the top navigation: title -> page (relative to the site root)
NAV = (("Compilers", "index.html#compilers"), ("Flags", "flags/index.html"),
       ("Diffs", "diffs/index.html"), ("Projects", "projects/index.html"), ("UB", "ub/index.html"),
       ("Overhead", "overhead/index.html"))


@dataclass
class Headline:
    """A block of the index page a section contributes (``template`` in ``web/templates``)."""

    template: str
    context: dict[str, Any]


@dataclass
class Build:
    """One build: the loaded data, the template environment, the writer."""

    conn: sqlite3.Connection
    writer: SiteWriter
    env: Any
    compilers: list[flagdata.CompilerView] = field(default_factory=list)
    histories: list[flagdata.FlagHistory] = field(default_factory=list)
    #: flag name -> page slug
    slugs: dict[str, str] = field(default_factory=dict)
    #: (compiler, flag name) -> its history entry
    entry: dict[tuple[str, str], Any] = field(default_factory=dict)
    headlines: list[Headline] = field(default_factory=list)
    #: diff pages: (old, new, file stem, result)
    diffs: list[tuple[str, str, str, Any]] = field(default_factory=list)
    #: the projects of the warnings builds, and the compilers that built them
    projects: list[warningsdata.ProjectView] = field(default_factory=list)
    built: list[str] = field(default_factory=list)
    #: flag name -> the builds it fired in, with the link to their examples
    fired: dict[str, list[warningsdata.FiredLink]] = field(default_factory=dict)
    #: project slug -> which warnings to turn on (``warnscope advise``, default rules)
    advice: dict[str, Any] = field(default_factory=dict)

    def page(self, rel: str, template: str, **context: Any) -> None:
        """Render ``template`` to ``rel``; ``root`` leads from the page back to the site root."""
        root = "../" * rel.count("/")
        html = self.env.get_template(template).render(root=root, nav=NAV, **context)
        self.writer.write(rel, html)

    def json(self, rel: str, value: Any) -> None:
        """The results beside the page: the objects ``--json`` prints (:func:`plain`'s
        values), in compact form (no indentation: a third of the size). The encoder walks
        lists, dicts and strings at C speed (:mod:`warnscope.serial`)."""
        self.writer.write(rel, serial.dumps(value) + "\n")

    def flag_href(self, name: str | None) -> str | None:
        """The flag page of a name, from the site root; None for a name with no page."""
        slug = self.slugs.get(name) if name else None
        return f"flags/{slug}.html" if slug else None



def environment(build_ref: list[Build]):
    """Jinja2 with autoescaping on for every template (flag help holds ``<``, ``>``, ``&``).
    ``auto_reload`` is off: the templates do not change during a build, and checking
    them would stat each template file again for every page (three per page, through
    ``extends`` and ``from … import``)."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(web_dir() / "templates"),
        autoescape=True, undefined=jinja2.StrictUndefined, auto_reload=False,
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)

    @functools.lru_cache(maxsize=None)
    def flag(name: str, root: str) -> Markup:
        return typed_flag(name, name, root)

    @functools.lru_cache(maxsize=None)
    def typed_flag(name: str, typed: str, root: str) -> Markup:
        """A flag's name (or as typed, ``-Wformat=2``) linking to its page, if it has one.
        Cached for the build (this environment's): a flag is linked from hundreds of pages
        at the same depth, and ``Markup.format`` per link was a fifth of the build."""
        href = build_ref[0].flag_href(name) if name else None
        if href:
            return Markup(f'<a class="flag" href="{escape(root)}{escape(href)}">{escape(typed)}</a>')
        return Markup(f"<code>{escape(typed)}</code>")

    env.globals.update(
        flag=flag, typed_flag=typed_flag, yes=yes,
        flag_href=lambda name: build_ref[0].flag_href(name),
        describe_change=describe_change, outcomes=Outcome, signal_name=signal_name)
    return env


def yes(value: object) -> Markup:
    return _YES if value else _NO


_YES, _NO = Markup('<span class="yes">yes</span>'), Markup('<span class="no">–</span>')


def signal_name(number: int | None) -> str:
    if number is None:
        return ""
    try:
        return signals.Signals(number).name
    except ValueError:
        return f"signal {number}"


# ------------------------------------------------------------------ sections

#: the advice page's sections: (verdict, title), listed in full
ADVICE_SECTIONS = (
    ("breaks-build", "Breaks the build: a build at all failed on it"),
    ("turn-on", "Turn on now: silent here, catches UB"),
    ("fix-first", "Fix first: fires here and catches UB (by UB cases per diagnostic)"),
    ("costly", "Costly: would be turned on, but for its measured cost"),
    ("not-portable", "Not portable: would be turned on, not every compiler knows it"),
    ("review", "Review: fires a few times, catches no UB"),
    ("style", "Style, your call: fires often for what it catches"),
)

def compiler_pages(b: Build) -> None:
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
               ungrouped=flagdata.ungrouped(view))
        b.json(f"compilers/{view.name}.everything.json", view.everything)
    b.json("compilers.json", [v.row for v in b.compilers])


def flag_pages(b: Build) -> None:
    """One page per flag name across both families: its history table and timeline.

    A page has a timeline item and a history row per version (some 30,000 of each in a
    build of 20 versions); the item and the row's first cells depend only on the version
    and on the entry's state, so each distinct one is rendered once (the macros of
    ``_macros.html``) and reused as markup, rather than escaped again on every page."""
    names = [(h.name, b.slugs[h.name]) for h in b.histories]
    macros = b.env.get_template("_macros.html").module
    root = "../"  # flags/X.html
    items: dict[tuple, Markup] = {}
    heads: dict[tuple, Markup] = {}
    for h in b.histories:
        slug = b.slugs[h.name]
        rows = []
        for e, desc, kind in zip(h.entries, h.descriptions, h.kinds):
            state = (e.compiler, e.present, e.in_wall, e.in_wextra)
            item = items.get(state)
            if item is None:
                item = items[state] = macros.timeline_item(e)
            version = (e.compiler, e.version, e.present)
            head = heads.get(version)
            if head is None:
                head = heads[version] = macros.history_head(e, root)
            rows.append((e, desc, kind, item, head))
        b.page(f"flags/{slug}.html", "flag.html", h=h, slug=slug, rows=rows,
               fired=b.fired.get(h.name, []), built=b.built)
        b.json(f"flags/{slug}.json", h.entries)
    b.page("flags/index.html", "flags.html", names=names)
    b.writer.write("data/names.json", json.dumps(names, separators=(",", ":")) + "\n")
    b.writer.write("data/names.js", "window.WARNSCOPE_FLAGS = "
                   + json.dumps(names, separators=(",", ":")) + ";\n")


def diff_pairs(views: list[flagdata.CompilerView]) -> list[tuple[str, str]]:
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


def diff_pages(b: Build) -> None:
    views = {v.name: v for v in b.compilers}
    for old, new in diff_pairs(b.compilers):
        result = compare.diff(views[old].data, views[new].data)
        stem = f"{old}--{new}"
        b.diffs.append((old, new, stem, result))
        b.page(f"diffs/{stem}.html", "diff.html", d=result)
        b.json(f"diffs/{stem}.json", result)
    b.page("diffs/index.html", "diffs.html", diffs=b.diffs)


def project_pages(b: Build) -> None:
    """Per project of the warnings builds: its page (per build, the diagnostics by option,
    the options the flag database does not know marked, the level's options that never
    fired; the upgrades), a page of examples per build and a diff page per upgrade. The
    JSON beside them is ``warnings report --json``, the build as ``warnings run --json``
    gives it, and ``warnings diff --json``."""
    for v in b.projects:
        b.page(f"projects/{v.slug}.html", "project.html", v=v, advice=b.advice.get(v.slug))
        b.json(f"projects/{v.slug}.json", v.report)
        for p in v.builds:
            b.page(f"projects/{v.slug}/{p.stem}.html", "project_build.html", v=v, p=p,
                   limit=warningsdata.EXAMPLES)
            b.json(f"projects/{v.slug}/{p.stem}.json", p.build)
        for d in v.diffs:
            b.page(f"projects/{v.slug}/{d.stem}.html", "project_diff.html", v=v, d=d)
            b.json(f"projects/{v.slug}/{d.stem}.json", d.diff)
    b.page("projects/index.html", "projects.html", projects=b.projects)
    b.headlines.append(Headline("_projects_headline.html", {"projects": b.projects}))


def advice_pages(b: Build) -> None:
    """Per project built at ``all``: which warnings to turn on, the rows by verdict with
    their reasons and the set per compiler; the JSON beside it is ``warnscope advise
    --json`` with the default rules."""
    for v in b.projects:
        advice = b.advice.get(v.slug)
        if advice is not None:
            b.page(f"projects/{v.slug}/advice.html", "advice.html", v=v, a=advice, verdicts=ADVICE_SECTIONS)
            b.json(f"projects/{v.slug}/advice.json", advice)


def ub_pages(b: Build) -> None:
    """Per corpus: the matrix (divergent cases first) and a page per case."""
    corpora = ubdata.load_corpora(b.conn)
    stems = corpus_stems([view.corpus for view in corpora])
    listed = []
    for view in corpora:
        stem = stems[view.corpus]
        report = view.report
        columns = _columns(report.configurations)
        case_slugs = slug_map([c.case for c in report.cases], base=path_slug)
        outcome = {(c.case, c.compiler, c.level, c.flags): c
                   for case in report.cases for c in case.cells}
        b.page(f"ub/{stem}.html", "ub_matrix.html", view=view, stem=stem, columns=columns,
               case_slugs=case_slugs, outcome=outcome)
        b.json(f"ub/{stem}.json", report)
        for case in report.cases:
            source = view.sources.get(case.case)
            code = Markup(ubdata.highlight(source)) if source and source.text is not None else None
            cells = sorted(case.cells, key=lambda c: (sort_key(c.compiler), c.flags,
                                                      level_key(c.level)))
            sanitizers = sorted(case.sanitizers.items(), key=lambda kv: sort_key(kv[0]))
            ex = view.explanations.get(case.case)
            asm = [(cc, Markup(ubdata.assembly(cc.functions)) if cc.functions else None)
                   for cc in (ex.configurations if ex else [])]
            b.page(f"ub/{stem}/{case_slugs[case.case]}.html", "ub_case.html", case=case,
                   stem=stem, view=view, source=source, code=code, cells=cells,
                   sanitizers=sanitizers, asm=asm, diff=ex.diff if ex else None)
        listed.append((view, stem))
    b.writer.write("static/pygments.css", ubdata.pygments_css() + "\n")
    b.page("ub/index.html", "ub_index.html", corpora=listed)
    b.headlines.append(Headline("_ub_headline.html", {"corpora": listed}))


def corpus_stems(corpora: list[str]) -> dict[str, str]:
    """Each corpus directory's page name under ``ub/``: its base name's slug, and for a
    later corpus of the same base name its whole path's; never ``index`` (the page
    listing them), never one name for two corpora. ``corpora`` come most recently run
    first: that one keeps the short name."""
    names = slug_map([Path(c).name or "corpus" for c in corpora], reserved={"index"})
    taken = {"index"}
    stems = {}
    for corpus in corpora:
        stem = names[Path(corpus).name or "corpus"]
        if stem in taken:  # two corpora of one base name: the path tells them apart
            stem = path_slug(corpus)
        stems[corpus] = unique_slug(stem, corpus, taken)
    return stems


def overhead_pages(b: Build) -> None:
    """Per study: the classic table (ratio to ``off`` with its min–max range), charts with
    min–max error bars, the compiler vs build-system CPU split, the CPU by process group
    and where each level's added CPU went (where the kernel accounted for every
    process), both inject modes side by side where both ran, the top TUs of a
    tu-mode study and attribution where stored; the JSON beside each page is
    ``overhead report --json`` (and the cells of ``overhead run --json``)."""
    views = overheaddata.load_studies(b.conn)
    for view in views:
        charts = {}
        for kind, make in (("ratio", overheaddata.ratio_chart), ("cpu", overheaddata.cpu_chart),
                           ("process", overheaddata.process_chart)):
            svg = make(view)
            if svg is not None:
                charts[kind] = f"{view.stem}.{kind}.svg"
                b.writer.write(f"overhead/{charts[kind]}", svg)
        b.page(f"overhead/{view.stem}.html", "overhead_study.html", view=view, charts=charts,
               alt=overheaddata.chart_alt(view), process_alt=overheaddata.process_alt(view),
               headers=OVERHEAD_HEADERS, top=overheaddata.TOP_TUS)
        b.json(f"overhead/{view.stem}.json", view.report)
        b.json(f"overhead/{view.stem}.cells.json", {"study": view.id, "cells": view.cells})
        if view.attribution:
            b.json(f"overhead/{view.stem}.attribution.json", view.attribution)
    b.page("overhead/index.html", "overhead_index.html", studies=views)
    b.json("overhead/index.json", overheaddata.summary_json(views))
    b.headlines.append(Headline("_overhead_headline.html",
                                {"studies": views[:overheaddata.LATEST], "count": len(views)}))


#: the classic table's columns (the text report's, the ratio first: what a phone shows unscrolled)
OVERHEAD_HEADERS = ("compiler", "level", "ratio", "range", "overhead", "runs", "CPU s median", "min–max",
                    "added: compilers", "added: build system", "wall s", "warnings", "")


def _columns(configurations: list) -> list[tuple[str, str, list[str]]]:
    """(compiler, flag set, levels) column groups of the matrix, in the report's order."""
    groups: dict[tuple[str, str], list[str]] = {}
    for compiler, level, flags in configurations:
        groups.setdefault((compiler, flags), []).append(level)
    return [(c, f, levels) for (c, f), levels in groups.items()]


#: the sections in build order; the index page is written after all of them
SECTIONS: tuple[Callable[[Build], None], ...] = (
    compiler_pages, flag_pages, diff_pages, project_pages, advice_pages, ub_pages, overhead_pages)
#: the sections a forked worker renders while the builder renders the others: some
#: 60 % of the rendering, and they change nothing in the build the others read (the
#: headlines and the diff list for the index page come from the builder's sections)
WORKER_SECTIONS: tuple[Callable[[Build], None], ...] = (compiler_pages, flag_pages)


# ------------------------------------------------------------------ the build

@dataclass
class BuildResult:
    out_dir: Path
    stats: WriteStats
    seconds: float
    pages: int


#: the build a forked worker renders from: set by :func:`build` just before it forks
#: the worker, which inherits it (nothing is pickled but the worker's answer)
_FORKED: Build | None = None


def _sections_in_worker(_job: None = None) -> WrittenPart:
    """The :data:`WORKER_SECTIONS` in the forked worker, and what its writer wrote."""
    assert _FORKED is not None
    for section in WORKER_SECTIONS:
        section(_FORKED)
    return _FORKED.writer.part()


def _helper() -> LocalExecutor | None:
    """One forked worker for :data:`WORKER_SECTIONS` (:meth:`LocalExecutor.submit`),
    where this process may use two cores and fork exists; None (everything in this
    process) elsewhere. The worker starts without importing anything again and
    inherits the loaded data; like every worker it dies with this process, and is
    terminated at once if the build fails or is interrupted."""
    if cores() < 2 or not can_fork():
        return None
    return LocalExecutor(1)


def build(conn: sqlite3.Connection, out_dir: str | Path) -> BuildResult:
    """Render everything in the database into ``out_dir``; write only changed files.

    The data is loaded once; then, on two or more cores, a forked worker renders the
    compiler and flag pages while this process renders the rest (both write their own
    files; the worker's list joins this writer's before the manifest is saved)."""
    global _FORKED
    start = time.monotonic()
    out = Path(out_dir)
    writer = SiteWriter(out)
    ref: list[Build] = []
    b = Build(conn=conn, writer=writer, env=environment(ref))
    ref.append(b)
    b.compilers = flagdata.load_compilers(conn)
    names = flagdata.all_names(b.compilers)
    b.slugs = slug_map(names, reserved={"index"})  # flags/index.html lists them
    b.histories = flagdata.histories(conn, b.compilers, names)
    for h in b.histories:
        for view, entry in zip(b.compilers, h.entries):
            b.entry[(view.name, h.name)] = entry
    b.projects = warningsdata.load_projects(conn, {v.name: v.index for v in b.compilers})
    b.fired, b.built = warningsdata.fires_on_flags(conn, b.histories, b.compilers, b.projects)
    b.advice = advicedata.load(conn, b.projects, {v.name: v.index for v in b.compilers})
    # The loaded data (about a million objects) is kept out of the collector's reach
    # while the pages are rendered: each full collection would visit all of it again
    # (a good part of a build's CPU), and in the forked worker it would write to every
    # object it visits, copying the memory the worker shares with this process.
    gc.freeze()
    helper = _helper()
    try:
        in_worker = None
        if helper is not None:
            # forked before this process writes anything: the writer's thread does not
            # exist yet, and the worker starts its own
            _FORKED = b
            in_worker = helper.submit(_sections_in_worker, None)
        for section in SECTIONS:
            if in_worker is None or section not in WORKER_SECTIONS:
                section(b)
        if in_worker is not None:
            try:
                writer.merge(in_worker.result())
            except cf.process.BrokenProcessPool:
                raise WarnscopeError("the site's worker process died (out of memory, or killed): "
                                     "run site build again") from None
        static = web_dir() / "static"
        for path in sorted(static.rglob("*")):
            if path.is_file():
                writer.write(f"static/{path.relative_to(static).as_posix()}", path.read_bytes())
        b.page("index.html", "index.html", compilers=b.compilers, headlines=b.headlines,
               flag_count=len(names), diff_count=len(b.diffs))
        stats = writer.finish()
    except BaseException:
        if helper is not None:
            helper.abort()  # a failed or interrupted build: the worker stops now, unwaited
        raise
    finally:
        if helper is not None:
            helper.close()
        _FORKED = None
        writer.close()
        gc.unfreeze()
    pages = sum(1 for rel in writer.files if rel.endswith(".html"))
    return BuildResult(out_dir=out, stats=stats, seconds=time.monotonic() - start, pages=pages)
