"""The upgrade reports on the site: per project, a page per stored pair of compilers,
``warnscope upgrade --from OLD --to NEW --stored`` rendered as HTML.

A project whose ``default`` builds (:data:`analyzer.warnings.upgrade.LEVEL`) are stored
for two or more compilers gets a page per pair, older compiler first
(:func:`warnscope.compilers.sort_key`):

* consecutive versions of one family (and target): gcc-12 -> gcc-13 -> gcc-14, so their
  number grows with the number of compilers built, not with its square;
* the pairs a user asked about: a compiler with stored ``upgrade-hatch`` builds was the
  new compiler of a question whose build failed, and the old compiler of that question is
  one for whose new errors every build the library makes is stored
  (:func:`~analyzer.warnings.upgrade.hatch_of`, the same reasoning that built them):
  gcc-12 -> gcc-14 beside gcc-13, or gcc-12 -> clang-16. Where no stored build gives that
  hatch (a hatch of an older warnscope), the nearest compiler before it whose build
  succeeded stands in.

Each page is :func:`~analyzer.warnings.upgrade.from_store`'s :class:`UpgradePair`, the
object the text report reads; the JSON beside it is what ``--stored --json`` prints.
Everything in it is text of the projects' builds and compilers (messages, check names,
macro values): the template escapes it and caps the long lists (the JSON has them all).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from warnscope.compilers import CompilerId, sort_key

from analyzer.projects.cell import BuildStatus
from analyzer.projects.levels import language_word
from analyzer.site.slugs import base_slug, unique_slug
from analyzer.site.upgrade_charts import errors_by_option, errors_chart, flips_by_system, flips_chart
from analyzer.warnings import upgrade as up
from analyzer.warnings.results import Build, OptionDiff, Upgrade, UpgradePair, std_name

if TYPE_CHECKING:
    from analyzer.site import pages
    from analyzer.site.projects import ProjectView

#: what a page shows of each list at most (the JSON beside it has every item): with the
#: long texts clipped (:data:`CLIP`), a page stays well under a megabyte
SHOWN = {"flips": 200, "macros": 200, "errors": 150, "options": 100, "warnings": 40}
#: characters of one message, check error or macro value a page shows
CLIP = {"message": 600, "value": 200}


@dataclass
class UpgradePage:
    """One pair of a project: its report and what the page says beside it."""

    #: the page's name under ``projects/<project>/upgrades/`` (without ``.html``)
    stem: str
    #: ``from_store(conn, project, old, [new])``: one pair, the page's JSON
    report: Upgrade
    #: the stored hatch builds of the new compiler answer this pair's new errors (made for
    #: this question, or one with the same switches); False: none, or made for another
    asked: bool
    #: the two ``default`` builds the pair compares (their versions, checks, options)
    old_build: Build
    new_build: Build
    #: the warnings diff page of the same two builds (``projects/<project>/<stem>.html``)
    diff_stem: str | None = None

    @property
    def pair(self) -> UpgradePair:
        return self.report.pairs[0]

    def same_defaults(self) -> list[tuple[str, str]]:
        """(language, default standard) of the project's languages whose default is the
        same in both compilers (those that differ are the pair's ``defaults``)."""
        used = {t.language for t in (*self.old_build.tus, *self.new_build.tus)} or {"c", "c++"}
        old, new = self.old_build.std_defaults, self.new_build.std_defaults
        return [(lang, new[lang]) for lang in ("c", "c++") if lang in used and lang in new
                and old.get(lang) == new[lang]]

    def warning_options(self) -> list[OptionDiff]:
        """The options of the warnings' diff, those that changed most first (as the text
        report lists them)."""
        return sorted(self.pair.warnings.by_option,
                      key=lambda o: (-(o.added + o.removed + o.changed), o.option or ""))


def _compiler_id(name: str) -> CompilerId | None:
    try:
        return CompilerId.parse(name)
    except ValueError:
        return None


def _group(name: str) -> tuple[str, str]:
    """The family and target a compiler's upgrades stay within (its name's stem where it
    is not an id)."""
    cid = _compiler_id(name)
    return (cid.family, cid.target) if cid else (name.rpartition("-")[0] or name, "")


def hatch_answers(old: Build, new: Build, hatches: dict[str, Build]) -> bool:
    """The stored hatch builds of ``new`` (``hatches``, by level) answer the move from
    ``old``: ``new`` fails with new errors, and every build the library makes for them is
    stored."""
    return up.hatch_of(old, new, hatches.get) is not None


def pairs_of(builds: list[Build]) -> list[tuple[Build, Build, bool]]:
    """(old, new, asked) of a project's builds: consecutive versions of each family at the
    ``default`` level, and the moves its ``upgrade-hatch`` builds were made for (asked:
    the hatch builds of the new compiler answer the pair), older compiler first."""
    defaults = sorted((b for b in builds if b.level == up.LEVEL), key=lambda b: sort_key(b.compiler))
    hatches: dict[str, dict[str, Build]] = {}
    for b in builds:
        if up.hatch_words(b.level) is not None:
            hatches.setdefault(b.compiler, {})[b.level] = b
    chosen: dict[tuple[str, str], bool] = {}
    groups: dict[tuple[str, str], list[Build]] = {}
    for b in defaults:
        groups.setdefault(_group(b.compiler), []).append(b)
    for group in groups.values():
        for old, new in zip(group, group[1:]):
            chosen[(old.compiler, new.compiler)] = False
    by_name = {b.compiler: b for b in defaults}
    for i, new in enumerate(defaults):
        stored = hatches.get(new.compiler)
        if stored is None:
            continue
        before = defaults[:i]
        asked = [old for old in before if hatch_answers(old, new, stored)]
        if not asked:   # hatches no stored build explains: the nearest build that succeeded
            asked = [old for old in reversed(before) if old.status == BuildStatus.OK][:1]
        for old in asked:
            chosen[(old.compiler, new.compiler)] = hatch_answers(old, new, stored)
    return sorted(((by_name[o], by_name[n], asked) for (o, n), asked in chosen.items()),
                  key=lambda t: (sort_key(t[0].compiler), sort_key(t[1].compiler)))


def load(b: pages.SiteBuild, views: list[ProjectView]) -> None:
    """Each project's upgrade pages (``v.upgrades``), from the builds already loaded."""
    for v in views:
        builds = [p.build for p in v.builds]
        if len({x.compiler for x in builds if x.level == up.LEVEL}) < 2:
            continue
        diffs = {(d.diff.old, d.diff.new): d.stem for d in v.diffs if d.diff.level == up.LEVEL}
        taken: set[str] = set()
        for old, new, asked in pairs_of(builds):
            stem = unique_slug(f"{base_slug(old.compiler)}--{base_slug(new.compiler)}",
                               f"{old.compiler}\n{new.compiler}", taken)
            report = up.from_store(b.conn, v.project, old.compiler, [new.compiler])
            v.upgrades.append(UpgradePage(stem=stem, report=report, asked=asked, old_build=old,
                                          new_build=new, diff_stem=diffs.get((old.compiler, new.compiler))))


def upgrade_pages(b: pages.SiteBuild) -> None:
    """The upgrade pages of every project, and their JSON (``warnscope upgrade --stored
    --json``); run before the project pages, which link them."""
    load(b, b.projects)
    for v in b.projects:
        for u in v.upgrades:
            by_option = errors_by_option(u.pair)
            chart = errors_chart(by_option)
            if chart is not None:
                b.writer.write(f"projects/{v.slug}/upgrades/{u.stem}.errors.svg", chart.svg)
            by_system = flips_by_system(u.pair)
            flipped = flips_chart(by_system)
            if flipped is not None:
                b.writer.write(f"projects/{v.slug}/upgrades/{u.stem}.flips.svg", flipped.svg)
            b.page(f"projects/{v.slug}/upgrades/{u.stem}.html", "upgrade.html", v=v, u=u, p=u.pair,
                   shown=SHOWN, clip=CLIP, std_name=std_name, hatch_word=hatch_word,
                   by_option=by_option, chart=chart, by_system=by_system, flipped=flipped)
            b.json(f"projects/{v.slug}/upgrades/{u.stem}.json", u.report)


def hatch_word(word: str) -> tuple[str, str]:
    """A hatch word as (option, the language it is for, '' for all)."""
    only, option = language_word(word)
    return option, {"c": "C", "c++": "C++"}.get(only or "", "")
