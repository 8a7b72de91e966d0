"""The rebuild summaries on the site: per pair of compilers that two or more projects'
upgrade reports compare, ``warnscope rebuild --stored``'s summary across those projects
(:func:`analyzer.warnings.rebuild.summarize`), rendered as HTML at
``rebuilds/OLD--NEW.html`` with its JSON beside it.

Each project's outcome and causes are :func:`~analyzer.warnings.rebuild.outcome_of` of
the pair its upgrade page shows (:mod:`analyzer.site.upgrade`, loaded first), with the
shipped list of configure checks expected to fail on Linux: the page counts what the
command counts, and links each project to its upgrade page. A list's own ``skip=`` words
are the command's alone (the database does not keep the list)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from analyzer.site.slugs import base_slug, unique_slug
from analyzer.warnings.rebuild import ProjectReport, Summary, outcome_of, summarize

if TYPE_CHECKING:
    from analyzer.site import pages

#: projects a pair needs before it gets a summary page (one project's is its upgrade page)
MIN_PROJECTS = 2


@dataclass
class RebuildPage:
    """One pair's summary: its page's name under ``rebuilds/`` (without ``.html``), the
    summary, and each project's upgrade page (from the site's root)."""

    stem: str
    summary: Summary
    hrefs: dict[str, str]


def load(b: pages.SiteBuild) -> list[RebuildPage]:
    """The summaries of the pairs the projects' upgrade pages share, most projects first."""
    by_pair: dict[tuple[str, str], list[tuple[ProjectReport, str]]] = {}
    for v in b.projects:
        for u in v.upgrades:
            outcome, why, causes, expected = outcome_of(u.pair)
            report = ProjectReport(v.project, "", outcome, why, causes, expected, u.report)
            by_pair.setdefault((u.pair.old, u.pair.new), []).append(
                (report, f"projects/{v.slug}/upgrades/{u.stem}.html"))
    out: list[RebuildPage] = []
    taken: set[str] = set()
    for (old, new), found in sorted(by_pair.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        if len(found) < MIN_PROJECTS:
            continue
        stem = unique_slug(f"{base_slug(old)}--{base_slug(new)}", f"{old}\n{new}", taken)
        out.append(RebuildPage(stem, summarize(old, new, [r for r, _ in found], []),
                               {r.project: href for r, href in found}))
    return out


def rebuild_pages(b: pages.SiteBuild) -> None:
    """Each pair's summary page and its JSON (what ``rebuild --stored --json`` prints of
    those projects); run after the upgrade pages, before the project pages, which list
    them."""
    b.rebuilds = load(b)
    for r in b.rebuilds:
        b.page(f"rebuilds/{r.stem}.html", "rebuild.html", r=r, s=r.summary)
        b.json(f"rebuilds/{r.stem}.json", r.summary)
