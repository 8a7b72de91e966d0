"""The UB side of the site: a matrix per corpus and a page per case, from each corpus's
report (the :class:`~analyzer.ub.results.Report`
that ``ub report --json`` prints) and sources.

The sources are read from the corpus directory the run recorded, through
:func:`analyzer.ub.corpus.discover`; a corpus moved or edited since the run still
renders, its pages saying the source is missing or has changed. The directory is the
database's word: it is read only if this user's warnscope ran on it here (or it is in
the cache, or the bundled corpus; :func:`warnscope.trusted_roots.confined`), so a
database from someone else cannot publish files of its choosing.
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from markupsafe import Markup

from warnscope.compilers import level_key, sort_key
from warnscope.errors import BadInput
from warnscope.trusted_roots import confined

from analyzer.ub import explain as ub_explain
from analyzer.ub import report as ub_report
from analyzer.ub import store as ub_store
from analyzer.ub.corpus import Case, discover
from analyzer.ub.disasm import Function
from analyzer.ub.results import Explanation, Report
from analyzer.site.detectors import detector_pages
from analyzer.site.pages import Headline
from analyzer.site.slugs import path_slug, slug_map, unique_slug

if TYPE_CHECKING:
    from analyzer.site.pages import Build


@dataclass
class CaseSource:
    """A case's program as the site shows it, read from the corpus directory now."""

    language: str
    text: str | None
    #: why there is no text, or a remark (the file changed since the run)
    note: str = ""


@dataclass
class CorpusView:
    """One corpus's pages: its report (the very object ``ub report --json`` prints,
    written beside the matrix as it is) and each case's source by case id."""

    corpus: str
    report: Report
    sources: dict[str, CaseSource] = field(default_factory=dict)
    #: each case's code per configuration, and the first two that behave differently
    #: aligned (``ub explain``'s objects)
    explanations: dict[str, Explanation] = field(default_factory=dict)

    @property
    def divergent(self) -> int:
        return sum(1 for c in self.report.cases if c.diverges)


def load_corpora(conn: sqlite3.Connection) -> list[CorpusView]:
    """Every corpus with results, most recently run first."""
    out = []
    for corpus in ub_store.corpora(conn):
        data = ub_report.load(conn, corpus)
        view = CorpusView(corpus=corpus, report=ub_report.build(data))
        by_case: dict[str, list] = {}
        for cell in data.cells:
            by_case.setdefault(cell.case_id, []).append(cell)
        view.explanations = {case_id: ub_explain.explanation(corpus, cells, data.codes,
                                                             first_divergent=True,
                                                             causes=data.causes)
                             for case_id, cells in by_case.items()}
        root = confined(corpus)
        found = _discover(str(root)) if root is not None else {}
        for case in data.cases:
            on_disk = found.get(case.id)
            if on_disk is None:
                view.sources[case.id] = CaseSource(
                    case.language, None, f"source not found under {corpus}" if root is not None else
                    f"source not shown: {corpus} is not a corpus warnscope ran on here")
                continue
            note = "" if on_disk.source_hash == case.source_hash else \
                "the source has changed since these results were recorded"
            # read when the corpus loaded, as a regular file inside it (never a path again)
            text = on_disk.source.decode("utf-8", errors="replace")
            view.sources[case.id] = CaseSource(case.language, text, note)
        out.append(view)
    return out


def _discover(corpus: str) -> dict[str, Case]:
    """The corpus's cases as they are on disk now, by id; none when the directory is
    gone or no longer reads as a corpus (moved, emptied, a case's metadata broken):
    its pages then say the sources are not found, and the results still render."""
    try:
        return {c.id: c for c in discover(Path(corpus))}
    except BadInput:
        return {}


@lru_cache(maxsize=None)
def _formatter():
    from pygments.formatters import HtmlFormatter

    return HtmlFormatter(cssclass="code", linenos="table")


def highlight(source: CaseSource) -> str:
    """The source as Pygments HTML (escaped by Pygments; marked safe by the caller)."""
    from pygments import highlight as pyg
    from pygments.lexers import CLexer, CppLexer

    lexer = CppLexer() if source.language == "c++" else CLexer()
    return pyg(source.text or "", lexer, _formatter())


def assembly(functions: list[Function]) -> str:
    """A configuration's code as Pygments HTML of GNU assembler text: a label per
    function, an instruction per line with its source line as a comment."""
    from pygments import highlight as pyg
    from pygments.lexers import GasLexer

    lines = []
    for f in functions:
        if not f.insns:
            lines.append(f"{f.name}:    # empty: runs into {f.next or 'what follows'}")
            continue
        lines.append(f"{f.name}:")
        last = None
        for i in f.insns:
            note = f"    # {i.line}" if i.line and i.line != last else ""
            last = i.line or last
            lines.append(f"    {i.mnemonic:<8} {i.operands}{note}")
        if f.cut:
            lines.append(f"    # ... cut: {f.cut} more instructions")
    return pyg("\n".join(lines) + "\n", GasLexer(), _asm_formatter())


@lru_cache(maxsize=None)
def _asm_formatter():
    from pygments.formatters import HtmlFormatter

    return HtmlFormatter(cssclass="code")


def pygments_css() -> str:
    """The highlighting style, shipped as a static file (no inline styles needed)."""
    return _formatter().get_style_defs(".code")


# ------------------------------------------------------------------ the pages

def ub_pages(b: Build) -> None:
    """Per corpus: the matrix (divergent cases first) and a page per case; the detectors'
    pages (:mod:`analyzer.site.detectors`) of the corpora ``ub detectors`` ran on."""
    corpora = load_corpora(b.conn)
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
            code = Markup(highlight(source)) if source and source.text is not None else None
            cells = sorted(case.cells, key=lambda c: (sort_key(c.compiler), c.flags,
                                                      level_key(c.level)))
            sanitizers = sorted(case.sanitizers.items(), key=lambda kv: sort_key(kv[0]))
            ex = view.explanations.get(case.case)
            asm = [(cc, Markup(assembly(cc.functions)) if cc.functions else None)
                   for cc in (ex.configurations if ex else [])]
            b.page(f"ub/{stem}/{case_slugs[case.case]}.html", "ub_case.html", case=case,
                   stem=stem, view=view, source=source, code=code, cells=cells,
                   sanitizers=sanitizers, asm=asm, diff=ex.diff if ex else None)
        listed.append((view, stem))
    scored = detector_pages(b, stems)
    b.writer.write("static/pygments.css", pygments_css() + "\n")
    b.page("ub/index.html", "ub_index.html", corpora=listed, scored=scored)
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


def _columns(configurations: list) -> list[tuple[str, str, list[str]]]:
    """(compiler, flag set, levels) column groups of the matrix, in the report's order."""
    groups: dict[tuple[str, str], list[str]] = {}
    for compiler, level, flags in configurations:
        groups.setdefault((compiler, flags), []).append(level)
    return [(c, f, levels) for (c, f), levels in groups.items()]
