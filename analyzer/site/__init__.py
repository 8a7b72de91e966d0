"""The report site: the database rendered as static HTML, opened from disk or any host.

One more renderer over the result types of :mod:`flagdb.results` and the UB report of
:mod:`analyzer.ub.report`, like the CLI's text and ``--json``: nothing here parses
rendered text. Templates and static assets live in the top-level ``web/`` folder,
installed beside this package as ``analyzer/site/web``.
"""
from __future__ import annotations

from pathlib import Path

from warnscope.errors import IncompleteInstallation


def web_dir() -> Path:
    """The templates and static assets: installed beside this package as package data
    (``analyzer/site/web``), or ``web/`` at the top of the source tree it runs from."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "web", here.parent.parent / "web"):
        if (candidate / "templates").is_dir():
            return candidate
    raise IncompleteInstallation("the site templates are missing from this installation "
                         "(expected analyzer/site/web or web/ in the source tree)")
