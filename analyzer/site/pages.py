"""What every section of the site writes with: the build it renders from (the loaded
data, the template environment, the writer), its page and JSON writers, and the index
page's headlines. Each family's pages (:mod:`analyzer.site.flags`, ``projects``,
``advise``, ``ub``, ``overhead``) take a :class:`SiteBuild`; :mod:`analyzer.site.builder`
loads it and runs them."""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from analyzer.site.output import SiteWriter
from warnscope import serial
from warnscope.text import on_page

if TYPE_CHECKING:
    from analyzer.site.flags import CompilerView, FlagHistory
    from analyzer.site.projects import FiredLink, ProjectView

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
class SiteBuild:
    """One build: the loaded data, the template environment, the writer."""

    conn: sqlite3.Connection
    writer: SiteWriter
    env: Any
    compilers: list[CompilerView] = field(default_factory=list)
    histories: list[FlagHistory] = field(default_factory=list)
    #: flag name -> page slug
    slugs: dict[str, str] = field(default_factory=dict)
    #: (compiler, flag name) -> its history entry
    entry: dict[tuple[str, str], Any] = field(default_factory=dict)
    headlines: list[Headline] = field(default_factory=list)
    #: diff pages: (old, new, file stem, result)
    diffs: list[tuple[str, str, str, Any]] = field(default_factory=list)
    #: the projects of the warnings builds, and the compilers that built them
    projects: list[ProjectView] = field(default_factory=list)
    built: list[str] = field(default_factory=list)
    #: flag name -> the builds it fired in, with the link to their examples
    fired: dict[str, list[FiredLink]] = field(default_factory=dict)
    #: project slug -> which warnings to turn on (``warnscope advise``, default rules)
    advice: dict[str, Any] = field(default_factory=dict)
    #: the rebuild summaries of the pairs of compilers projects share (:mod:`analyzer.site.rebuilds`)
    rebuilds: list[Any] = field(default_factory=list)
    #: the UB pages' data (:class:`analyzer.site.ub.UbSite`)
    ub: Any = None
    #: this process's share of a section both processes render: the item at index i is
    #: its own where i % modulus is one of its residues
    share: tuple[tuple[int, ...], int] = ((0,), 1)

    def mine(self, items: list) -> list:
        """This process's share of ``items``, interleaved (every item is rendered by
        exactly one of the build's processes, and each gets some of every kind)."""
        residues, modulus = self.share
        return [item for i, item in enumerate(items) if i % modulus in residues]

    def page(self, rel: str, template: str, **context: Any) -> None:
        """Render ``template`` to ``rel``; ``root`` leads from the page back to the site root.
        Every control and format character the page holds (an untrusted name's right-to-left
        override, a zero-width space) is written out as the terminal shows it
        (:func:`warnscope.text.on_page`): the templates hold none of their own."""
        root = "../" * rel.count("/")
        html = self.env.get_template(template).render(root=root, nav=NAV, **context)
        self.writer.write(rel, on_page(html))

    def json(self, rel: str, value: Any) -> None:
        """The results beside the page: the objects ``--json`` prints (:func:`plain`'s
        values), in compact form (no indentation: a third of the size). The encoder walks
        lists, dicts and strings at C speed (:mod:`warnscope.serial`)."""
        self.writer.write(rel, serial.dumps(value) + "\n")

    def flag_href(self, name: str | None) -> str | None:
        """The flag page of a name, from the site root; None for a name with no page."""
        slug = self.slugs.get(name) if name else None
        return f"flags/{slug}.html" if slug else None
