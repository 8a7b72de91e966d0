"""The advice page per project: ``warnscope advise`` with its default rules,
for the compilers that built the project at ``all`` and are in the flag database (a
compiler of another target also where its host id is: the advice says so) (the
same :class:`~analyzer.advise.results.Advice` the command prints as JSON)."""
from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from flagdb.closure import Index

from analyzer.advise import store
from analyzer.advise.advice import advise
from analyzer.advise.results import Advice
from analyzer.advise.rules import Rules
from analyzer.site.projects import ProjectView
from warnscope.compilers import CompilerId, sort_key

if TYPE_CHECKING:
    from analyzer.site.pages import SiteBuild


def load(conn: sqlite3.Connection, projects: list[ProjectView], indexes: dict[str, Index]) -> dict[str, Advice]:
    """Project slug -> its advice, for each project built at ``all`` by an ingested compiler."""
    out = {}
    evidence = store.ub_evidence(conn)      # the same for every project: read once
    for v in projects:
        built = [p.build for p in v.builds if p.build.level == store.LEVEL and _readable(p.build.compiler, indexes)]
        if not built:
            continue
        compilers = sorted({b.compiler for b in built}, key=sort_key)
        languages = sorted({lang for b in built for lang in b.flags}) or ["c"]
        out[v.slug] = advise(conn, v.project, languages, compilers, Rules(), indexes=indexes,
                             evidence=evidence)
    return out


def _readable(compiler: str, indexes: dict[str, Index]) -> bool:
    """The compiler has flag data: its own, or (one of another target) its host id's,
    which the advice reads in its stead and says so."""
    if compiler in indexes:
        return True
    try:
        cid = CompilerId.parse(compiler)
    except ValueError:
        return False
    return bool(cid.target) and str(cid.host) in indexes


# ------------------------------------------------------------------ the pages

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

def advice_pages(b: SiteBuild) -> None:
    """Per project built at ``all``: which warnings to turn on, the rows by verdict with
    their reasons and the set per compiler; the JSON beside it is ``warnscope advise
    --json`` with the default rules."""
    for v in b.projects:
        advice = b.advice.get(v.slug)
        if advice is not None:
            b.page(f"projects/{v.slug}/advice.html", "advice.html", v=v, a=advice, verdicts=ADVICE_SECTIONS)
            b.json(f"projects/{v.slug}/advice.json", advice)
