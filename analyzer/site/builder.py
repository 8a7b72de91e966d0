"""``warnscope site build``: the database rendered into a static site.

The data is loaded once; then each family's module writes its pages (HTML beside the
JSON of the same results the CLI's ``--json`` prints): :mod:`analyzer.site.flags`,
``projects`` (the warnings builds), ``upgrade`` (their upgrade reports), ``advise``, ``ub``
and ``overhead``, each with the loading and shaping its pages read; the index comes last,
with the headlines the sections left. A later capability adds its pages by adding a
module and its section to :data:`SECTIONS`.

Every link is relative, so the site works from ``file://`` and from any static
host; no page loads anything from outside the site.
"""
from __future__ import annotations

import concurrent.futures as cf
import functools
import gc
import signal as signals
import sqlite3
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Callable

from markupsafe import Markup, escape

from flagdb.describe import describe_change
from flagdb.model import C_FAMILY
from warnscope.errors import WorkerDied

from analyzer.runtime.executors import LocalExecutor, can_fork, cores
from analyzer.site import advise, flags, overhead, projects, rebuilds, ub, upgrade, web_dir
from analyzer.site.output import SiteWriter, WriteStats, WrittenPart
from analyzer.site.pages import SiteBuild
from analyzer.site.slugs import slug_map
from analyzer.ub.results import Outcome


def environment(build_ref: list[SiteBuild]):
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

    env.filters["when"] = when
    env.filters["c_family"] = c_family
    env.globals.update(
        flag=flag, typed_flag=typed_flag, yes=yes,
        flag_href=lambda name: build_ref[0].flag_href(name),
        describe_change=describe_change, outcomes=Outcome, signal_name=signal_name)
    return env


def when(stamp: str | None) -> Markup:
    """A stored ISO 8601 time as people write it (``26 Nov 2026 21:46 UTC``), the ISO
    text kept in ``<time datetime>``; text that does not read as a time is shown as it is."""
    if not stamp:
        return Markup("")
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return Markup("{}").format(stamp)
    zone = "UTC" if moment.utcoffset() == timedelta(0) else moment.strftime("%z") if moment.tzinfo else ""
    shown = f"{moment.day} {moment:%b %Y %H:%M} {zone}".rstrip()
    return Markup('<time datetime="{}">{}</time>').format(stamp, shown)


def c_family(languages: list[str]) -> list[str]:
    """A flag's languages as a C-family page shows them: only C, C++ and Objective-C,
    and none at all when it is for each of them (no other front end's names)."""
    mine = [lang for lang in C_FAMILY if lang in languages]
    return [] if not languages or "Common" in languages or len(mine) == len(C_FAMILY) else mine


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


#: the sections in build order; the index page is written after all of them
SECTIONS: tuple[Callable[[SiteBuild], None], ...] = (
    flags.compiler_pages, flags.flag_pages, flags.diff_pages, flags.over_time, upgrade.upgrade_pages,
    rebuilds.rebuild_pages, projects.project_pages, advise.advice_pages, ub.ub_pages, ub.case_pages,
    overhead.overhead_pages)
#: the sections a forked worker renders while the builder renders the others; they
#: change nothing in the build the others read (the headlines and the diff list for the
#: index page come from the builder's sections)
WORKER_SECTIONS: tuple[Callable[[SiteBuild], None], ...] = (flags.compiler_pages, flags.flag_pages)
#: the sections both render, each its share of their pages (:meth:`SiteBuild.mine`):
#: the UB cases' pages, half the rendering of the demo's site
SHARED_SECTIONS: tuple[Callable[[SiteBuild], None], ...] = (ub.case_pages,)
#: the shares of the builder and of its worker: the worker renders two of every three
#: case pages, since the builder's own sections cost about twice the worker's (on the
#: demo's site: bench/README.md)
BUILDER_SHARE, WORKER_SHARE = ((0,), 3), ((1, 2), 3)


# ------------------------------------------------------------------ the build

@dataclass
class BuildResult:
    out_dir: Path
    stats: WriteStats
    seconds: float
    pages: int


#: the build a forked worker renders from: set by :func:`build` just before it forks
#: the worker, which inherits it (nothing is pickled but the worker's answer)
_FORKED: SiteBuild | None = None


def _sections_in_worker(_job: None = None) -> WrittenPart:
    """The :data:`WORKER_SECTIONS` in the forked worker, and its share of the
    :data:`SHARED_SECTIONS`; what its writer wrote."""
    assert _FORKED is not None
    _FORKED.share = WORKER_SHARE
    for section in WORKER_SECTIONS + SHARED_SECTIONS:
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
    compiler and flag pages and every other UB case page while this process renders the
    rest (both write their own files; the worker's list joins this writer's before the
    manifest is saved)."""
    global _FORKED
    start = time.monotonic()
    out = Path(out_dir)
    writer = SiteWriter(out)
    ref: list[SiteBuild] = []
    b = SiteBuild(conn=conn, writer=writer, env=environment(ref))
    ref.append(b)
    b.compilers = flags.load_compilers(conn)
    names = flags.all_names(b.compilers)
    b.slugs = slug_map(names, reserved={"index"})  # flags/index.html lists them
    b.histories = flags.histories(conn, b.compilers, names)
    for h in b.histories:
        for view, entry in zip(b.compilers, h.entries):
            b.entry[(view.name, h.name)] = entry
    b.projects = projects.load_projects(conn, {v.name: v.index for v in b.compilers})
    b.fired, b.built = projects.fires_on_flags(conn, b.histories, b.compilers, b.projects)
    b.advice = advise.load(conn, b.projects, {v.name: v.index for v in b.compilers})
    b.ub = ub.load(conn)
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
            b.share = BUILDER_SHARE
        for section in SECTIONS:
            if in_worker is None or section not in WORKER_SECTIONS:
                section(b)
        if in_worker is not None:
            try:
                writer.merge(in_worker.result())
            except cf.process.BrokenProcessPool:
                raise WorkerDied("the site's worker process died (out of memory, or killed): "
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
