"""The UB side of the site: a matrix per corpus (one page, or where that page would
pass the site's bound a summary and a page per class of undefined behaviour) and a page
per case, from each corpus's
report (the :class:`~analyzer.ub.results.UbReport`
that ``ub report --json`` prints) and sources.

The sources are read from the corpus directory the run recorded, through
:func:`analyzer.ub.corpus.discover`; a corpus moved or edited since the run still
renders, its pages saying the source is missing or has changed. The directory is the
database's word: it is read only if this user's warnscope ran on it here (or it is in
the cache, or the bundled corpus; :func:`warnscope.trusted_roots.confined`), so a
database from someone else cannot publish files of its choosing.
"""
from __future__ import annotations

import posixpath
import re
import sqlite3
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from markupsafe import Markup, escape

from warnscope.compilers import level_key, sort_key
from warnscope.errors import BadInput
from warnscope.trusted_roots import confined

from analyzer.ub.explain import explain as ub_explain
from analyzer.ub import report as ub_report
from analyzer.ub import store as ub_store
from analyzer.ub.corpus import SOURCE_SUFFIXES, Case, discover
from analyzer.ub.disasm import Function
from analyzer.ub.results import CaseReport, Cell, CorpusKind, Explanation, StoredResults, UbReport
from analyzer.site.detectors import detector_pages
from analyzer.site.pages import Headline
from analyzer.site.ub_overview import corpus_charts
from analyzer.site.slugs import base_slug, path_slug, slug_map, unique_slug

if TYPE_CHECKING:
    from analyzer.site.pages import SiteBuild


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
    report: UbReport
    sources: dict[str, CaseSource] = field(default_factory=dict)
    #: the stored results the report was built from, their code texts read once and
    #: every cell's labels: what a case's explanation is worked out from
    data: StoredResults | None = None
    codes: dict = field(default_factory=dict)
    labels: dict = field(default_factory=dict)
    #: the stored cells by case id
    by_case: dict[str, list] = field(default_factory=dict)

    def explanation(self, case_id: str) -> Explanation | None:
        """The case's code per configuration, and the first two that behave differently
        aligned (``ub explain``'s objects); worked out when its page is rendered, in
        whichever process renders it."""
        cells = self.by_case.get(case_id)
        if not cells or self.data is None:
            return None
        return ub_explain.explanation(self.corpus, cells, self.data.codes, first_divergent=True,
                                      causes=self.data.causes, codes=self.codes, labels=self.labels)

    @property
    def divergent(self) -> int:
        return sum(1 for c in self.report.cases if c.diverges)

    @property
    def by_target(self) -> int:
        """Of the divergent cases, those that diverge by target."""
        return sum(1 for c in self.report.cases if c.diverges_by_target)

    @property
    def kind(self) -> CorpusKind:
        return self.report.corpus_kind

    @property
    def content(self) -> str:
        return self.report.corpus_content


def load_corpora(conn: sqlite3.Connection) -> list[CorpusView]:
    """Every corpus with results, most recently run first."""
    out = []
    for corpus in ub_store.corpora(conn):
        data = ub_report.load(conn, corpus)
        codes = ub_explain.parsed_codes(data.cells, data.codes)
        labels = ub_explain.labelled(data.cells, data.codes, codes)
        view = CorpusView(corpus=corpus, report=ub_report.build(data, labels), data=data,
                          codes=codes, labels=labels)
        for cell in data.cells:
            view.by_case.setdefault(cell.case_id, []).append(cell)
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


def asm_lines(f: Function, symbol=lambda name: name) -> list[str]:
    """One function as GNU assembler text: its label, an instruction per line with its
    source line as a comment where it changes (the listing and the page write the same).
    ``symbol`` writes the function's name and a symbol an instruction names (a branch's
    target, the ``<name>`` of an address)."""
    label = symbol(f.name)
    if not f.insns:
        return [f"{label}:    # empty: runs into {f.next or 'what follows'}"]
    lines = [f"{label}:"]
    last = None
    for i in f.insns:
        note = f"    # {i.line}" if i.line and i.line != last else ""
        last = i.line or last
        operands = i.operands
        if i.target is not None and operands == i.target:
            operands = symbol(operands)
        else:
            m = _NAMED.search(operands)
            if m:
                operands = operands[:m.start(1)] + symbol(m.group(1)) + ">"
        lines.append(f"    {i.mnemonic:<8} {operands}{note}")
    if f.cut:
        lines.append(f"    # ... cut: {f.cut} more instructions")
    return lines


#: the symbol objdump names for an address operand, at its end: ``(%rip),%rax <name>``
_NAMED = re.compile(r" <(.+)>$")
#: Pygments' spans around plain white space: a third of the bytes of highlighted
#: assembly, and no colour (the stylesheet gives ``.w`` none that matters)
_SPACE_SPAN = re.compile(r'<span class="w">( *)</span>')


def _highlighted(f: Function) -> str:
    """One function's lines as highlighted HTML (escaped by Pygments), without the
    ``<div><pre>`` around them (:func:`_wrap`), white space unwrapped. The function's
    name and a symbol an instruction names are one token each (the lexer splits a
    demangled C++ name into some 30 spans, and a label at its first colon): it sees a
    placeholder, replaced by the escaped name after. Each line is highlighted on its own
    (:func:`_line_html`)."""
    names: list[str] = []
    plain = "\n".join(asm_lines(f)) + "\n"
    mark = "wsym"
    while mark in plain:            # a placeholder the text itself cannot hold
        mark += "q"

    def symbol(name: str) -> str:
        names.append(name)
        return f"{mark}{len(names) - 1}x"

    html = "".join(_line_html(line + "\n") for line in asm_lines(f, symbol))
    html = re.sub(rf"{mark}(\d+)x", lambda m: str(escape(names[int(m.group(1))])), html)
    return _SPACE_SPAN.sub(r"\1", html)


@lru_cache(maxsize=1 << 16)
def _line_html(line: str) -> str:
    """One line of assembly as Pygments HTML. Line by line, the lexer starts every line
    in the same state: a mnemonic is always a mnemonic (over a whole function, GasLexer
    took some after a line's comment for constants), and a line met before (a third of
    a site's lines are new) is not lexed again."""
    from pygments import highlight as pyg

    return pyg(line, _gas_lexer(), _bare_formatter())


@lru_cache(maxsize=None)
def _gas_lexer():
    """One GasLexer for every line (a lexer keeps no state between texts)."""
    from pygments.lexers import GasLexer

    return GasLexer()


def _wrap(inner: str) -> str:
    return f'<div class="code"><pre><span></span>{inner}</pre></div>\n'


@lru_cache(maxsize=None)
def _bare_formatter():
    from pygments.formatters import HtmlFormatter

    return HtmlFormatter(cssclass="code", nowrap=True)


# ------------------------------------------------------------------ the program's own code

#: No page of the site over a megabyte (10^6 bytes): what the code of a case's
#: configurations may take of a case page (the program's own functions highlighted, a
#: line per folded one), and what the aligned pair may take; the rest of the page
#: (source, tables, sanitizers) stays well inside the bound.
CODE_BUDGET = 500_000
DIFF_BUDGET = 200_000
#: Characters of a folded function's name shown on the page (the listing has it all).
NAME_SHOWN = 120

#: The namespaces of the C++ library and of the compiler's support code.
_LIBRARY_SPACES = frozenset({"std", "__gnu_cxx", "__gnu_debug", "__cxxabiv1", "__pstl", "__detail"})
#: The suffix of a compiler's clone of a function: ``main.cold``, ``f.part.0``,
#: ``f(int) [clone .constprop.0]``.
_CLONE = re.compile(r"(?:\s*\[clone [^\]]*\])+$|\.(?:cold|part|constprop|isra|lto_priv|localalias)"
                    r"(?:\.\d+)*(?:\.(?:cold|part|constprop|isra)(?:\.\d+)*)*$")
_LINE = re.compile(r"^(.*):(\d+)$")


@dataclass(frozen=True)
class Folded:
    """A function a case page shows as one line: its name, its size in instructions
    (those kept and those cut), and why it is folded ('library code from
    stl_vector.h', 'runtime code', or that the page's bound left no room for it)."""

    name: str
    insns: int
    why: str

    @property
    def shown(self) -> str:
        return self.name if len(self.name) <= NAME_SHOWN else self.name[:NAME_SHOWN - 1] + "…"


def case_files(case_id: str) -> frozenset[str]:
    """The names the line table gives a case's own source file: the compile names it by
    its base name (``strings.cpp`` for ``control/strings``, ``divide.c`` for the id
    ``x/divide.c`` that keeps its suffix)."""
    base = posixpath.basename(case_id)
    if posixpath.splitext(base)[1] in SOURCE_SUFFIXES:
        return frozenset({base})
    return frozenset(base + suffix for suffix in SOURCE_SUFFIXES)


def qualified_name(name: str) -> str:
    """A demangled function name without its return type, template arguments,
    parameters, qualifiers and clone suffix: ``std::vector::~vector`` for
    ``std::vector<int, std::allocator<int> >::~vector()``, ``main::::operator()`` for a
    lambda of ``main``, ``grows`` for ``grows(int) [clone .cold]``."""
    text = _CLONE.sub("", name.strip())
    text = text.replace("operator()", "operator\x00")  # its parentheses are its name
    plain, depth = [], 0
    for ch in text:
        if ch in "<({[":
            if ch == "(" and depth == 0 and plain and plain[-1] != " ":
                break                       # the parameter list: the name ended
            depth += 1
        elif ch in ">)}]":
            depth = max(depth - 1, 0)
        elif depth == 0:
            plain.append(ch)
    words = "".join(plain).replace("\x00", "()").split()
    if not words:
        return name
    if len(words) > 1 and (words[-2] == "operator" or words[-2].endswith("::operator")):
        return f"{words[-2]} {words[-1]}"   # operator new, operator delete[]
    return words[-1]


def library_name(name: str) -> bool:
    """Whether a demangled name is the C++ library's (``std::``, ``__gnu_cxx::``, ...)
    or, by its name, the implementation's: a name that begins with ``__`` or ``_`` and a
    capital letter is reserved to the compiler and the library (``__gthread_active_p``,
    ``_GLOBAL__sub_I_strings.cpp``, ``__static_initialization_and_destruction_0``)."""
    first = qualified_name(name).split("::", 1)[0]
    return first in _LIBRARY_SPACES or bool(re.match(r"__|_[A-Z]", first))


def _in_case(line: str, files: frozenset[str], length: int | None) -> bool:
    """Whether ``file:line`` is a line of the case's own file (a line number past the
    file's end is a header's: objdump names some DWARF 5 header lines by the main file)."""
    m = _LINE.match(line)
    return bool(m) and m.group(1) in files and (length is None or int(m.group(2)) <= length)


def _base(name: str) -> str:
    return _CLONE.sub("", name.strip())


def fold_reasons(functions: list[Function], files: frozenset[str],
                 length: int | None = None) -> list[str]:
    """Per function, '' where it is the program's own (shown in full on the case page),
    else why it is folded. The program's own: a function with an instruction from a
    line of the case's file (``files``; ``length`` its number of lines where known) that
    is not the library's by name (:func:`library_name`: its templates, instantiated from
    headers, may inline the program's lambdas, and objdump may name header lines by the
    main file); a function without any source line (empty, or no line table) that is
    not the library's by name; and a compiler's clone (``main.cold``) of an own one."""
    why = []
    for f in functions:
        lines = [i.line for i in f.insns if i.line]
        if library_name(f.name):
            origin = _origin(lines, files)
            why.append(("library code" if "::" in qualified_name(f.name) else "runtime code")
                       + (f" from {origin}" if origin else ""))
        elif not lines:
            why.append("")
        elif any(_in_case(line, files, length) for line in lines):
            why.append("")
        else:
            origin = _origin(lines, files)
            why.append("library code" + (f" from {origin}" if origin else ""))
    own = {_base(f.name) for f, w in zip(functions, why) if not w}
    return ["" if w and _base(f.name) != f.name and _base(f.name) in own else w
            for f, w in zip(functions, why)]


def _origin(lines: list[str], files: frozenset[str]) -> str:
    """The header a function comes from: the file of its first line that is not the
    case's own (its opening line, where the line table gives one; the lines after may
    be other headers' code inlined into it)."""
    for line in lines:
        m = _LINE.match(line)
        if m and m.group(1) not in files:
            return m.group(1)
    return ""


class Budget:
    """Bytes a page may still spend, on pieces of a kind ('code', 'line', ...) taken in
    page order: once a piece of a kind does not fit, no later piece of that kind is
    taken either (a smaller one further down does not jump the queue), while pieces of
    another kind may still use what is left."""

    def __init__(self, total: int):
        self.left = total
        self.closed: set[str] = set()

    def take(self, size: int, kind: str = "") -> bool:
        if kind in self.closed or size > self.left:
            self.closed.add(kind)
            return False
        self.left -= size
        return True


@dataclass
class FoldedRun:
    """Functions in a row that the page folds: a line each (``named``), and past the
    page's bound ``more`` of them (``more_insns`` instructions) in one line."""

    named: list[Folded] = field(default_factory=list)
    more: int = 0
    more_insns: int = 0


@dataclass
class CellView:
    """One configuration's code as the case page shows it: ``segments`` in address
    order, each a run of the program's own functions highlighted (``("code",
    Markup)``) or of folded ones (``("folded", FoldedRun)``); ``listing`` the page's
    link to the whole code ('' where nothing is folded); ``same_as`` the configuration
    above with the very same code, which the page shows once."""

    segments: list[tuple[str, object]] = field(default_factory=list)
    listing: str = ""
    same_as: str = ""
    functions: int = 0
    insns: int = 0

    @property
    def folds(self) -> bool:
        return any(kind == "folded" for kind, _ in self.segments)


def _size(f: Function) -> int:
    return len(f.insns) + f.cut


def cell_view(functions: list[Function], reasons: list[str], budget: Budget) -> CellView:
    """The segments of one configuration's code: own functions highlighted while the
    budget lasts, the others folded to a line each (bounded too: past the budget the
    folded functions are counted in one line)."""
    view = CellView(functions=len(functions), insns=sum(_size(f) for f in functions))
    code: list[str] = []
    run = FoldedRun()

    def flush_code() -> None:
        if code:
            view.segments.append(("code", Markup(_wrap("".join(code)))))
            code.clear()

    def flush_folded() -> None:
        nonlocal run
        if run.named or run.more:
            view.segments.append(("folded", run))
            run = FoldedRun()

    for f, why in zip(functions, reasons):
        if not why:
            html = _highlighted(f)
            if budget.take(len(html) + 40, "code"):
                flush_folded()
                code.append(html)
                continue
            why = "not shown here: this page's code is bounded"
        flush_code()
        item = Folded(f.name, _size(f), why)
        if budget.take(len(item.shown) + len(why) + 120, "line"):
            run.named.append(item)
        else:
            run.more += 1
            run.more_insns += item.insns
    flush_code()
    flush_folded()
    return view


@dataclass
class DiffFold:
    """A function of the aligned pair that the page folds: its rows, how many differ,
    and why (library code, or the page's bound)."""

    name: str
    rows: int
    differ: int
    why: str

    @property
    def shown(self) -> str:
        return self.name if len(self.name) <= NAME_SHOWN else self.name[:NAME_SHOWN - 1] + "…"


def diff_view(diff, own: set[str], budget: Budget) -> list[tuple[str, object]]:
    """The aligned pair's functions as the page shows them: ``("rows", FunctionDiff)``
    for the program's own functions (``own``, by name) while the budget lasts, else
    ``("folded", DiffFold)``, a line each; past the budget ``("more", (functions,
    rows))`` counts the rest in one line."""
    out: list[tuple[str, object]] = []
    more, more_rows = 0, 0
    for f in diff.functions:
        differ = sum(1 for r in f.rows if not r.same)
        if f.name in own:
            size = sum(len(r.left or "") + len(r.right or "") + 140 for r in f.rows) + 200
            if budget.take(size, "rows"):
                out.append(("rows", f))
                continue
            why = "not shown here: this page's code is bounded"
        else:
            why = "library or runtime code"
        fold = DiffFold(f.name, len(f.rows), differ, why)
        if budget.take(len(fold.shown) + len(why) + 200, "line"):
            out.append(("folded", fold))
        else:
            more, more_rows = more + 1, more_rows + len(f.rows)
    if more:
        out.append(("more", (more, more_rows)))
    return out


def listing_text(title: str, functions: list[Function], reasons: list[str]) -> str:
    """The whole code of one configuration as plain text, every function in full, each
    label saying whether the case page shows it or folds it and why."""
    out = [f"# {title}",
           "# the whole code of the binary's functions as objdump read it (normalised: offsets",
           "# and symbols, not addresses); the case page shows the program's own functions",
           ""]
    for f, why in zip(functions, reasons):
        lines = asm_lines(f)
        lines[0] += f"    # folded on the page: {why}" if why else ""
        out += lines
        out.append("")
    return "\n".join(out)


def pygments_css() -> str:
    """The highlighting style, shipped as a static file (no inline styles needed)."""
    return _formatter().get_style_defs(".code")


# ------------------------------------------------------------------ the pages

@dataclass
class UbSite:
    """What the UB pages are rendered from, loaded once before the build's processes part
    (:func:`load`): each corpus's view, its page name under ``ub/``, its cases' page names
    and the names of its configurations' code listings."""

    corpora: list[CorpusView]
    stems: dict[str, str]
    #: corpus -> case id -> page slug
    case_slugs: dict[str, dict[str, str]]
    #: corpus -> configuration -> listing name (:func:`_listing_names`)
    listings: dict[str, dict[str, str]]


def load(conn: sqlite3.Connection) -> UbSite:
    corpora = load_corpora(conn)
    case_slugs = {view.corpus: slug_map([c.case for c in view.report.cases], base=path_slug)
                  for view in corpora}
    return UbSite(corpora=corpora, stems=corpus_stems([view.corpus for view in corpora]),
                  case_slugs=case_slugs,
                  listings={view.corpus: _listing_names(view.report, case_slugs[view.corpus])
                            for view in corpora})


def ub_pages(b: SiteBuild) -> None:
    """Per corpus: the matrix (divergent cases first), its JSON and charts; the detectors'
    pages (:mod:`analyzer.site.detectors`) of the corpora ``ub detectors`` ran on; the
    UB index. The cases' pages are :func:`case_pages`."""
    site: UbSite = b.ub
    listed, drawn = [], []
    for view in site.corpora:
        stem = site.stems[view.corpus]
        report = view.report
        matrix_pages(b, view, stem, site.case_slugs[view.corpus])
        b.json(f"ub/{stem}.json", report)
        listed.append((view, stem))
        drawn.append(corpus_charts(b, report, stem))
    scored = detector_pages(b, site.stems)
    b.writer.write("static/pygments.css", pygments_css() + "\n")
    b.page("ub/index.html", "ub_index.html", corpora=listed, scored=scored, charts=drawn)
    b.headlines.append(Headline("_ub_headline.html", {"corpora": listed}))


def case_pages(b: SiteBuild) -> None:
    """A page per case of every corpus (its source, its cells, its code and the first
    pair that diverges), and the code listings it links to: this process's share of
    them (:meth:`~analyzer.site.pages.SiteBuild.mine`)."""
    site: UbSite = b.ub
    every = [(view, case) for view in site.corpora for case in view.report.cases]
    for view, case in b.mine(every):
        stem = site.stems[view.corpus]
        source = view.sources.get(case.case)
        code = Markup(highlight(source)) if source and source.text is not None else None
        cells = sorted(case.cells, key=lambda c: (sort_key(c.compiler), c.flags,
                                                  level_key(c.level)))
        sanitizers = sorted(case.sanitizers.items(), key=lambda kv: sort_key(kv[0]))
        ex = view.explanation(case.case)
        asm, diff = _case_code(b, stem, case.case, source, ex, site.listings[view.corpus])
        b.page(f"ub/{stem}/{site.case_slugs[view.corpus][case.case]}.html", "ub_case.html",
               case=case, stem=stem, view=view, source=source, code=code, cells=cells,
               sanitizers=sanitizers, asm=asm, diff=ex.diff if ex else None,
               diff_functions=diff)


# ------------------------------------------------------------------ the matrix

#: No page of the site over 10^6 bytes. A matrix page holds at most PAGE_BUDGET bytes of
#: rows, cells and column heads, each piece measured as written; the page's frame (head,
#: navigation, legend, lead) stays inside the rest, whatever the corpus.
PAGE_MAX = 1_000_000
PAGE_BUDGET = 900_000
#: The markup around a column head's clipped text (its compiler and flags) and around a
#: level's, in bytes, rounded up.
HEAD_BYTES, LEVEL_BYTES = 60, 40
#: A row's markup around its link, name and summary (the divergence, target and control
#: marks: 230 bytes with all three).
ROW_BYTES = 240
#: Clips, in bytes of HTML: a cell's title (what it did, its warnings, labels and
#: cause; the real ones are under 500), a case's name and summary, a column's head
#: and level. The whole text is on the case's page.
TITLE_MAX, NAME_MAX, SUMMARY_MAX, HEAD_MAX, LEVEL_MAX = 600, 200, 300, 200, 40


def clip(text: str, limit: int) -> Markup:
    """``text`` escaped, at most ``limit`` bytes of UTF-8: cut where longer (never inside
    a character or an entity), ending with an ellipsis."""
    html = str(escape(text))
    raw = html.encode()
    if len(raw) <= limit:
        return Markup(html)
    cut = raw[:limit - 3].decode("utf-8", errors="ignore")
    if cut.rfind("&") > cut.rfind(";"):
        cut = cut[:cut.rfind("&")]
    return Markup(cut + "…")


def cell_title(case: CaseReport, c: Cell) -> str:
    """What a matrix cell says on hover: its configuration, outcome and warnings, and
    for a case that diverges its code's labels; its cause where ``--why`` found one."""
    text = " ".join(p for p in (f"{c.compiler} {c.level}", c.flags) if p) + f": {c.outcome}"
    if c.warnings:
        text += "; warns " + ", ".join(c.warnings)
    if case.diverges and c.labels:
        text += " — " + "; ".join(label.text for label in c.labels)
        if case.ub is False:
            text += " (not a finding: no UB)"
    if c.why:
        text += f"; why: {c.why.summary}"
    return text


def cell_html(case: CaseReport, c: Cell | None) -> str:
    """One ``<td>`` of the matrix, its title clipped to :data:`TITLE_MAX` bytes."""
    if c is None:
        return '<td class="cell"></td>\n'
    sup = "<sup>w</sup>" if c.warnings else ""
    return (f'<td class="cell o-{c.outcome}" title="{clip(cell_title(case, c), TITLE_MAX)}">'
            f"{c.outcome.letter}{sup}</td>\n")


@dataclass
class MatrixColumn:
    """A column group: one compiler and flag set, its levels; the text of its head."""

    compiler: str
    flags: str
    levels: list[str]
    head: Markup
    level_heads: list[Markup]

    @property
    def size(self) -> int:
        return len(self.head.encode()) + HEAD_BYTES + sum(len(h.encode()) + LEVEL_BYTES
                                                          for h in self.level_heads)


@dataclass
class MatrixRow:
    """A case's row: its link, name and summary (clipped) and its cells, by column group."""

    case: CaseReport
    slug: str
    name: Markup
    summary: Markup
    #: per column group (the page's own), the cells' HTML and its size in bytes
    cells: list[tuple[str, int]]

    def size(self, groups: list[int], href: int) -> int:
        return ROW_BYTES + href + len(self.name.encode()) + len(self.summary.encode()) + \
            sum(self.cells[g][1] for g in groups)


@dataclass
class MatrixPage:
    """One page of the matrix: the whole of it, or a part of one class's (its rows and
    its column groups, by index)."""

    rel: str
    category: str | None
    rows: list[MatrixRow]
    groups: list[int]
    part: int = 1
    parts: int = 1
    #: what sets the part apart: its compilers, or its cases
    label: str = ""
    #: its configurations (columns)
    width: int = 0


def page_size(rows: list[MatrixRow], groups: list[int], columns: list[MatrixColumn],
              href: int) -> int:
    """The bytes a page's rows, cells and heads take, as written (an upper bound)."""
    return sum(columns[g].size for g in groups) + sum(r.size(groups, href) for r in rows)


def split(rows: list[MatrixRow], columns: list[MatrixColumn], href: int,
          budget: int = PAGE_BUDGET) -> list[tuple[list[MatrixRow], list[int]]]:
    """One class's matrix as pages of at most ``budget`` bytes: every row on the fewest
    parts of the column groups (whole compilers, in order, balanced by columns) that
    each fit; where even one group's column is too tall for a page, each group's rows in
    runs that fit (a run has one row at least: one compiler's cells of one case, each
    clipped, a few kB at most). Every cell is on exactly one page."""
    every = list(range(len(columns)))
    total = sum(len(c.levels) for c in columns) or 1
    for n in range(1, len(columns) + 1):
        parts: list[list[int]] = [[]]
        done = 0
        for g in every:
            width = len(columns[g].levels)
            if parts[-1] and done + width / 2 > total * len(parts) / n:
                parts.append([])
            parts[-1].append(g)
            done += width
        if all(page_size(rows, p, columns, href) <= budget for p in parts):
            return [(rows, p) for p in parts]
    out: list[tuple[list[MatrixRow], list[int]]] = []
    for g in every:
        run: list[MatrixRow] = []
        for row in rows:
            if run and page_size(run + [row], [g], columns, href) > budget:
                out.append((run, [g]))
                run = []
            run.append(row)
        out.append((run, [g]))
    return out


@dataclass
class MatrixLayout:
    """The matrix's pages: ``whole`` where it fits one page, else ``classes``, each
    class with its cases and its pages (one, or its parts)."""

    columns: list[MatrixColumn]
    whole: MatrixPage | None
    classes: list[tuple[str, list, list[MatrixPage]]] = field(default_factory=list)

    @property
    def pages(self) -> list[MatrixPage]:
        return [self.whole] if self.whole else [p for _, _, pages in self.classes for p in pages]


def matrix_layout(report: UbReport, stem: str, case_slugs: dict[str, str],
                  budget: int | None = None) -> MatrixLayout:
    """The matrix as pages of at most ``budget`` bytes of table (:data:`PAGE_BUDGET`):
    the whole of it on ``ub/<corpus>.html`` where it fits; else a page per class of
    undefined behaviour, ``ub/<corpus>/matrix/<class>.html``, with parts
    ``<class>~2.html`` ... where one class over every configuration does not fit
    (:func:`split`). A page's size is bounded by its own rows and columns, never by the
    whole corpus times the whole zoo."""
    budget = PAGE_BUDGET if budget is None else budget
    cols = [MatrixColumn(compiler, flags, levels,
                         clip(" ".join(p for p in (compiler, flags) if p), HEAD_MAX),
                         [clip(level, LEVEL_MAX) for level in levels])
            for compiler, flags, levels in _columns(report.configurations)]
    rows = []
    for case in report.cases:
        by = {(c.compiler, c.level, c.flags): c for c in case.cells}
        cells = []
        for col in cols:
            html = "".join(cell_html(case, by.get((col.compiler, level, col.flags)))
                           for level in col.levels)
            cells.append((html, len(html.encode())))
        rows.append(MatrixRow(case, case_slugs[case.case], clip(case.case, NAME_MAX),
                              clip(case.summary, SUMMARY_MAX), cells))
    every = list(range(len(cols)))
    longest = max((len(r.slug) for r in rows), default=0) + len(".html")
    if page_size(rows, every, cols, len(stem) + 1 + longest) <= budget:
        return MatrixLayout(cols, MatrixPage(f"ub/{stem}.html", None, rows, every,
                                             width=len(report.configurations)))
    classes: dict[str, list[MatrixRow]] = {}
    for row in rows:
        classes.setdefault(row.case.category, []).append(row)
    slugs = slug_map(classes)
    layout = MatrixLayout(cols, None)
    for category in sorted(classes):
        pieces = split(classes[category], cols, len("../") + longest, budget)
        by_rows = len({id(chunk) for chunk, _ in pieces}) > 1
        pages = []
        for i, (chunk, groups) in enumerate(pieces, 1):
            rel = f"ub/{stem}/matrix/{slugs[category]}" + (f"~{i}" if i > 1 else "") + ".html"
            label = _part_label(chunk, [cols[g] for g in groups], by_rows) if len(pieces) > 1 else ""
            pages.append(MatrixPage(rel, category, chunk, groups, i, len(pieces), label,
                                    sum(len(cols[g].levels) for g in groups)))
        layout.classes.append((category, [r.case for r in classes[category]], pages))
    return layout


def _part_label(rows: list[MatrixRow], groups: list[MatrixColumn], by_rows: bool) -> str:
    """What one part of a class's matrix holds: its compilers, and its cases where the
    parts split the rows too."""
    def name(col: MatrixColumn) -> str:
        return " ".join(p for p in (col.compiler, col.flags) if p)

    label = name(groups[0]) + (f" … {name(groups[-1])}" if len(groups) > 1 else "")
    if by_rows:
        label += f", {rows[0].case.case}" + (f" … {rows[-1].case.case}" if len(rows) > 1 else "")
    return label


def matrix_pages(b: SiteBuild, view: CorpusView, stem: str, case_slugs: dict[str, str]) -> None:
    """The matrix's pages (:func:`matrix_layout`); where it is split, ``ub/<corpus>.html``
    is the summary by class that links them."""
    layout = matrix_layout(view.report, stem, case_slugs)
    cols = layout.columns
    if layout.whole is not None:
        b.page(layout.whole.rel, "ub_matrix.html", view=view, stem=stem, page=layout.whole,
               columns=cols, cases=f"{stem}/", json=f"{stem}.json", summary=None)
        return
    here = len(f"ub/{stem}/matrix/")
    firsts = [(category or "no class", pages[0].rel[here:]) for category, _, pages in layout.classes]
    for n, (_, _, pages) in enumerate(layout.classes):
        for page in pages:
            b.page(page.rel, "ub_matrix.html", view=view, stem=stem, page=page, columns=cols,
                   cases="../", json=f"../../{stem}.json",
                   summary={"parts": pages, "from": here,
                            "previous": firsts[n - 1] if n else None,
                            "next": firsts[n + 1] if n + 1 < len(firsts) else None})
    b.page(f"ub/{stem}.html", "ub_matrix_index.html", view=view, stem=stem,
           classes=layout.classes, case_slugs=case_slugs, columns=cols)


def _config_name(case: str, compiler: str, level: str, flags: str) -> str:
    return "\0".join((case, compiler, level, flags))


def _listing_names(report: UbReport, case_slugs: dict[str, str]) -> dict[str, str]:
    """Each cell's listing file name under ``ub/<corpus>/code/``, by :func:`_config_name`:
    ``<case>--<compiler>--<level>[--<flags>]``, unique in the corpus (slugs, as pages)."""
    def base(name: str) -> str:
        case, *config = name.split("\0")
        return "--".join([case_slugs[case], *(base_slug(p) for p in config if p)])

    return slug_map([_config_name(c.case, c.compiler, c.level, c.flags)
                     for case in report.cases for c in case.cells], base=base)


def _case_code(b: SiteBuild, stem: str, case_id: str, source: CaseSource | None,
               ex: Explanation | None, listings: dict[str, str]) -> tuple[list, dict | None]:
    """The code of a case's configurations as its page shows it (:func:`cell_view`,
    within :data:`CODE_BUDGET`; a configuration with the same code as one above refers
    to it) and the aligned pair's functions (:func:`diff_view`, within
    :data:`DIFF_BUDGET`, with the links to the pair's listings). Writes the listing of
    every configuration the page folds code of, ``ub/<corpus>/code/<case>--<compiler>--
    <level>.txt``: the page's own links lead there."""
    if ex is None:
        return [], None
    files = case_files(case_id)
    length = len(source.text.splitlines()) if source and source.text is not None and \
        not source.note else None
    budget = Budget(CODE_BUDGET)
    seen: dict[int, tuple[str, CellView]] = {}
    own: set[str] = set()
    asm = []
    #: (compiler, level, flags) -> the link to its listing ('' where it has none)
    links: dict[tuple[str, str, str], str] = {}
    for cc in ex.configurations:
        label = " ".join(p for p in (cc.compiler, cc.level, cc.flags) if p)
        if not cc.functions:
            asm.append((cc, None))
            continue
        reasons = fold_reasons(cc.functions, files, length)
        own.update(f.name for f, why in zip(cc.functions, reasons) if not why)
        earlier = seen.get(id(cc.functions))
        if earlier is not None:
            asm.append((cc, CellView(listing=earlier[1].listing, same_as=earlier[0],
                                     functions=earlier[1].functions, insns=earlier[1].insns)))
            links[(cc.compiler, cc.level, cc.flags)] = earlier[1].listing
            continue
        view = cell_view(cc.functions, reasons, budget)
        if view.folds:
            name = listings.get(_config_name(case_id, cc.compiler, cc.level, cc.flags))
            if name is not None:
                rel = f"code/{name}.txt"
                b.writer.write(f"ub/{stem}/{rel}", listing_text(
                    f"{case_id}, {label}: {view.functions} functions, {view.insns} instructions",
                    cc.functions, reasons))
                view.listing = rel
        seen[id(cc.functions)] = (label, view)
        links[(cc.compiler, cc.level, cc.flags)] = view.listing
        asm.append((cc, view))
    if ex.diff is None:
        return asm, None
    d = ex.diff
    return asm, {"functions": diff_view(d, own, Budget(DIFF_BUDGET)),
                 "left": links.get((d.left.compiler, d.left.level, d.left.flags), ""),
                 "right": links.get((d.right.compiler, d.right.level, d.right.flags), "")}


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
