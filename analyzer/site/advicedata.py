"""The advice per project for the site: ``warnscope advise`` with its default rules,
for the compilers that built the project at ``all`` and are in the flag database (the
same :class:`~analyzer.advise.results.Advice` the command prints as JSON)."""
from __future__ import annotations

import sqlite3

from flagdb.closure import Index

from analyzer.advise import store
from analyzer.advise.advice import advise
from analyzer.advise.results import Advice
from analyzer.advise.rules import Rules
from analyzer.site.warningsdata import ProjectView
from analyzer.ub.compile import checks_flags
from warnscope.compilers import sort_key


def load(conn: sqlite3.Connection, projects: list[ProjectView], indexes: dict[str, Index]) -> dict[str, Advice]:
    """Project slug -> its advice, for each project built at ``all`` by an ingested compiler."""
    out = {}
    flags = checks_flags()
    for v in projects:
        built = [p.build for p in v.builds if p.build.level == store.LEVEL and p.build.compiler in indexes]
        if not built:
            continue
        compilers = sorted({b.compiler for b in built}, key=sort_key)
        languages = sorted({lang for b in built for lang in b.flags}) or ["c"]
        out[v.slug] = advise(conn, v.project, languages, compilers, Rules(), ub_flags=flags, indexes=indexes)
    return out
