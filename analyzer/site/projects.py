"""The warnings side of the site: a page per project built by ``warnings run`` (per
compiler, the diagnostics by option and the level's options that never fired), a page
of examples per build, a diff page per upgrade (consecutive versions of one family at
one level), and each flag's "fires on real code".

Every answer is the warnings family's own (:func:`analyzer.warnings.queries.report_of`,
``diff_of``, ``fired_by_flag``), over the builds loaded once; the JSON beside each page
is what the CLI's ``--json`` prints for the same question. Everything read from the
builds (file names, messages, options, project and level names) is text from the
projects' compilers: the templates escape it, and file names come from
:mod:`analyzer.site.slugs`.
"""
from __future__ import annotations

import sqlite3
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from flagdb.closure import Index
from warnscope.compilers import sort_key

from analyzer.site.pages import Headline
from analyzer.site.slugs import base_slug, slug_map, unique_slug
from analyzer.warnings import queries, store
from analyzer.warnings.results import Build, CompilerReport, Diagnostic, Diff, Fired, WarningsReport

if TYPE_CHECKING:
    from analyzer.site import pages
    from analyzer.site.upgrade import UpgradePage

#: examples of one option shown on a build's page (its JSON has every diagnostic)
EXAMPLES = 20
#: changes of one option a diff page shows, and of all options together: an upgrade of a
#: large project changes thousands of lines (its JSON has every one; the page stays
#: under a megabyte and quick to open on a phone)
DIFF_ENTRIES, DIFF_TOTAL = 60, 1500
#: the id of the examples of diagnostics no option controls (option anchors start ``o-``)
NO_OPTION = "no-option"


@dataclass
class BuildPage:
    """One build (project x compiler x level): its report and its examples page."""

    build: Build
    report: CompilerReport
    #: the page's name under ``projects/<project>/`` (without ``.html``)
    stem: str
    #: option as printed (None: no option) -> its anchor on the examples page
    anchors: dict[str | None, str] = field(default_factory=dict)
    #: option -> its first :data:`EXAMPLES` diagnostics, those in the project's files first,
    #: each with its source line where the project's tree is still there (as ``warnings show``)
    examples: dict[str | None, list[tuple[Diagnostic, str | None]]] = field(default_factory=dict)


@dataclass
class DiffPage:
    """What one upgrade changes for a project: ``warnings diff OLD NEW --levels L``."""

    stem: str
    diff: Diff

    def shown(self) -> int:
        """How many changes each option shows at most: :data:`DIFF_ENTRIES`, fewer when
        so many options changed that all of them would pass :data:`DIFF_TOTAL`."""
        options = max(1, len(self.diff.by_option))
        return max(5, min(DIFF_ENTRIES, DIFF_TOTAL // options))


@dataclass
class ProjectView:
    project: str
    slug: str
    report: WarningsReport
    builds: list[BuildPage]
    diffs: list[DiffPage]
    #: the upgrade reports of its stored pairs of compilers (:mod:`analyzer.site.upgrade`)
    upgrades: list[UpgradePage] = field(default_factory=list)

    @property
    def compilers(self) -> list[str]:
        return sorted({p.build.compiler for p in self.builds}, key=sort_key)

    @property
    def levels(self) -> list[str]:
        return list(dict.fromkeys(p.build.level for p in self.builds))


def load_projects(conn: sqlite3.Connection, indexes: dict[str, Index]) -> list[ProjectView]:
    """Every project with stored builds, by name; ``indexes`` are the ingested
    compilers' (the flag pages' own), so nothing is loaded twice."""
    if not store.has_builds(conn):
        return []
    view = queries.FlagView(conn, indexes)
    names = store.projects(conn)
    slugs = slug_map(names, reserved={"index"})
    sources = queries.SourceLines()
    out = []
    for project in names:
        builds = store.builds(conn, project)   # in `warnings report`'s order: its JSON is the page's
        report = queries.report_of(project, builds, view)
        taken: set[str] = set()
        pages = []
        for b, r in zip(builds, report.builds):
            stem = unique_slug(f"{base_slug(b.compiler)}.{base_slug(b.level)}", f"{b.compiler}\n{b.level}", taken)
            page = BuildPage(build=b, report=r, stem=stem)
            options = [c.option for c in r.by_option]
            named = slug_map([o for o in options if o is not None])
            page.anchors = {o: ("o-" + named[o]) if o is not None else NO_OPTION for o in options}
            # the project's own files first: a system header's warnings say less about the code
            for d in sorted(b.diagnostics, key=lambda d: outside_tree(d.file)):
                shown = page.examples.setdefault(d.option, [])
                if len(shown) < EXAMPLES:
                    shown.append((d, sources.line(b, d.file, d.line)))
            pages.append(page)
        diffs = []
        for old, new in upgrade_pairs(builds):
            stem = unique_slug(f"{base_slug(old.compiler)}--{base_slug(new.compiler)}.{base_slug(old.level)}",
                               f"{old.compiler}\n{new.compiler}\n{old.level}", taken)
            diffs.append(DiffPage(stem=stem, diff=queries.diff_of(old, new)))
        out.append(ProjectView(project=project, slug=slugs[project], report=report, builds=pages, diffs=diffs))
    return out


def outside_tree(file: str | None) -> bool:
    """A diagnostic's file is not the project's: none, a system header (absolute) or the
    compiler's own (``<gcc>/include/stddef.h``)."""
    return not file or file.startswith(("/", "<"))


def upgrade_pairs(builds: list[Build]) -> list[tuple[Build, Build]]:
    """Consecutive versions of each family built at the same level: what each upgrade
    adds (gcc-11 -> gcc-12, clang-14 -> clang-16 when no clang-15 was built)."""
    groups: dict[tuple[str, str], list[Build]] = defaultdict(list)
    for b in builds:
        groups[(b.level, b.compiler.rpartition("-")[0])].append(b)
    pairs = []
    for (_level, _family), group in sorted(groups.items(), key=lambda kv: (kv[0][0], sort_key(kv[1][0].compiler))):
        group.sort(key=lambda b: sort_key(b.compiler))
        pairs += list(zip(group, group[1:]))
    return pairs


@dataclass
class FiredLink:
    """A flag page's row of "fires on real code": the build and where its examples are."""

    fired: Fired
    #: the examples of the option in the build's page, from the site root
    href: str


def links(projects: list[ProjectView]) -> dict[tuple[str, str, str], tuple[str, dict[str | None, str]]]:
    """(project, compiler, level) -> (its examples page from the site root, option anchors)."""
    return {(v.project, p.build.compiler, p.build.level): (f"projects/{v.slug}/{p.stem}.html", p.anchors)
            for v in projects for p in v.builds}


def fired_link(f: Fired, pages: dict) -> FiredLink:
    page, anchors = pages[(f.project, f.compiler, f.level)]
    anchor = anchors.get(f.options[0])
    return FiredLink(f, f"{page}#{anchor}" if anchor else page)


def fires_on_flags(conn: sqlite3.Connection, histories: list, views: list, projects: list[ProjectView]
                   ) -> tuple[dict[str, list[FiredLink]], list[str]]:
    """Each flag page's "fires on real code", and the compilers with stored builds.

    Each history entry (one ingested version) gets the builds of its version where the
    flag fired, as ``flags history --json`` gives them (the page's JSON stays that
    answer); the page's rows are those, then the builds of compilers the flag database
    does not hold whose printed option is the page's name (matched by spelling)."""
    indexes = {v.name: v.index for v in views}
    fired, built = queries.fired_by_flag(conn, queries.FlagView(conn, indexes))
    if not built:
        return {}, []
    pages = links(projects)
    ingested = set(indexes)
    by_spelling: dict[str, list[Fired]] = defaultdict(list)
    for (compiler, name), rows in fired.items():
        if compiler not in ingested:
            by_spelling[name] += rows
    built_set = set(built)
    out: dict[str, list[FiredLink]] = {}
    for h in histories:
        rows: list[Fired] = []
        for view, entry in zip(views, h.entries):
            if view.name not in built_set:
                continue
            key = queries.flag_of(view.index, h.name) if entry.present else None
            entry.real_code = list(fired.get((view.name, key), [])) if key is not None else []
            rows += entry.real_code
        rows += by_spelling.get(h.name, [])
        if rows:
            out[h.name] = [fired_link(f, pages) for f in rows]
    return out, built


# ------------------------------------------------------------------ the pages

def project_pages(b: pages.SiteBuild) -> None:
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
                   limit=EXAMPLES)
            b.json(f"projects/{v.slug}/{p.stem}.json", p.build)
        for d in v.diffs:
            b.page(f"projects/{v.slug}/{d.stem}.html", "project_diff.html", v=v, d=d)
            b.json(f"projects/{v.slug}/{d.stem}.json", d.diff)
    b.page("projects/index.html", "projects.html", projects=b.projects, rebuilds=b.rebuilds)
    b.headlines.append(Headline("_projects_headline.html", {"projects": b.projects}))
