"""No UB matrix page over a megabyte (10^6 bytes) at the zoo's scale, and every cell of
the matrix still on a page (issue 48).

The whole matrix (every case x every configuration) was one page: 2.88 MB for the
bundled corpus (225 cases) over 20 compilers x 6 levels. Now it is one page only
where its table fits :data:`analyzer.site.ub.PAGE_BUDGET` (900 kB, the demo's 225 x 6
cells take 168 kB); past that, ``ub/<corpus>.html`` is a summary by class of undefined
behaviour and each class has its own matrix page, split by compiler (and, past even
that, by cases) where one class over every configuration would not fit.

A real run: three classes of the bundled corpus (signed-integer-overflow, the largest
class, 12 programs; left-shift-negative, 6; division-by-zero, 4) through the real
runner with each of the host's five compilers at -O0 and -O2, with warnings (a cell
that warns carries its warnings in its title): 22 cases x 10 configurations = 220
cells, some 12 s. Its site is built at the real bound (one page) and with smaller
bounds that force each layout: a page per class, a class in parts by compiler, and
parts by cases too.
"""
from __future__ import annotations

import html as htmllib
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from analyzer.sandbox import runner as sandbox
from analyzer.site import builder, ub
from analyzer.site.slugs import path_slug, slug_map
from analyzer.ub import report as ub_report
from analyzer.ub import run as ub_run
from analyzer.runtime.toolchain import resolve_list
from analyzer.ub import store as ub_store
from analyzer.ub.corpus import discover
from warnscope.database import connect

REPO = Path(__file__).resolve().parents[2]
COMPILERS = ["gcc-11", "gcc-12", "clang-14", "clang-16", "clang-19"]
LEVELS = ["O0", "O2"]
CLASSES = ["signed-integer-overflow", "left-shift-negative", "division-by-zero"]
#: the bound, in bytes: a decimal megabyte
MB = 1_000_000
#: the most configurations a site over the zoo can have: every GCC 9-16 and clang 9-23
#: (23 compilers, of which warnscope runs some 17) at the six levels a run may take
ZOO_CONFIGURATIONS = 23 * 6

pytestmark = pytest.mark.skipif(any(shutil.which(c) is None for c in COMPILERS),
                                reason="needs " + ", ".join(COMPILERS))


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """The database of the real run."""
    tmp = tmp_path_factory.mktemp("matrix")
    corpus = tmp / "corpus"
    for category in CLASSES:
        shutil.copytree(REPO / "corpus" / category, corpus / category)
    db = tmp / "ub.db"
    conn = connect(db)
    summary = ub_run.run(conn, corpus, resolve_list(COMPILERS), LEVELS,
                         limits=sandbox.Limits(timeout=2.0, cpu=2), warnings=True,
                         sanitizers=False)
    conn.close()
    assert summary.failures == [] and summary.cells == 22 * 10
    return db


def _report(db: Path):
    conn = connect(db)
    try:
        (corpus,) = ub_store.corpora(conn)
        return ub_report.build(ub_report.load(conn, corpus))
    finally:
        conn.close()


def _layout(db: Path, budget: int | None = None) -> ub.MatrixLayout:
    report = _report(db)
    return ub.matrix_layout(report, "corpus",
                            slug_map([c.case for c in report.cases], base=path_slug), budget)


def _build(db: Path, out: Path, budget: int | None = None) -> Path:
    with pytest.MonkeyPatch.context() as mp:
        if budget is not None:
            mp.setattr(ub, "PAGE_BUDGET", budget)
        conn = connect(db)
        builder.build(conn, out)
        conn.close()
    return out


def _cells(page: Path) -> list[tuple[str, str]]:
    """(case, 'compiler level') of every cell of a matrix page, read from its HTML."""
    html = page.read_text()
    body = html[html.index("<tbody>"):html.index("</tbody>")]
    out = []
    for row in body.split("<tr")[1:]:
        case = htmllib.unescape(re.search(r'<td class="case"><a href="[^"]+">([^<]*)</a>', row)[1])
        for title in re.findall(r'<td class="cell o-[^"]*" title="([^"]*)"', row):
            out.append((case, htmllib.unescape(title).split(":")[0]))
    return out


def _links(page: Path) -> list[Path]:
    return [(page.parent / h).resolve() for h in re.findall(r'href="([^"#]+)"', page.read_text())
            if not h.startswith(("http:", "https:", "data:"))]


def _expected(db: Path) -> Counter:
    return Counter((c.case, f"{c.compiler} {c.level}") for case in _report(db).cases for c in case.cells)


def test_at_the_real_bound_the_run_is_one_matrix_page(run, tmp_path):
    """220 cells fit one page: the matrix is ``ub/corpus.html`` as it always was."""
    site = _build(run, tmp_path / "site")
    page = site / "ub/corpus.html"
    assert Counter(_cells(page)) == _expected(run)
    assert page.read_text().count('<td class="case">') == 22
    assert not (site / "ub/corpus/matrix").exists()
    assert max(p.stat().st_size for p in site.rglob("*.html")) < MB


def test_over_the_bound_each_class_has_its_page_and_every_cell_is_on_one(run, tmp_path):
    """A bound the whole matrix is over and each class is under: the summary links every
    class's page and every case that diverges; each cell is on exactly one class page,
    under its case's link; every link resolves; a page's bytes are its table's, as
    :func:`analyzer.site.ub.page_size` counts them, and a frame of some 5 kB."""
    whole = _layout(run)
    assert whole.whole is not None
    largest = max(ub.page_size(rows, list(range(len(whole.columns))), whole.columns, 50)
                  for rows in _by_class(whole.whole.rows).values())
    budget = largest + 1000
    layout = _layout(run, budget)
    assert layout.whole is None and [c for c, _, _ in layout.classes] == sorted(CLASSES)
    assert all(len(pages) == 1 for _, _, pages in layout.classes)

    site = _build(run, tmp_path / "site", budget)
    summary = site / "ub/corpus.html"
    assert 'id="matrix"' not in summary.read_text()
    targets = set(_links(summary))
    seen: Counter = Counter()
    for category in CLASSES:
        page = site / f"ub/corpus/matrix/{category}.html"
        assert page.resolve() in targets
        cells = _cells(page)
        assert {case.split("/")[0] for case, _ in cells} == {category}
        seen.update(cells)
        assert all(link.is_file() for link in _links(page)), page
        assert page.stat().st_size < budget + 10_000
    assert seen == _expected(run)
    for case in _report(run).cases:
        if case.diverges:
            assert (site / f"ub/corpus/{path_slug(case.case)}.html").resolve() in targets
    assert all(link.is_file() for link in _links(summary))


def _by_class(rows) -> dict[str, list]:
    out: dict[str, list] = {}
    for row in rows:
        out.setdefault(row.case.category, []).append(row)
    return out


def test_a_class_over_the_bound_is_split_by_compiler_then_by_cases(run, tmp_path):
    """A bound under the largest class's table: that class is in parts, each a run of
    whole compilers (both levels of a compiler on one part) with every case of the class;
    a bound under one compiler's column of it: parts by compiler and by cases. Either
    way each cell is on exactly one page, and the parts link each other."""
    layout = _layout(run)
    cols = layout.columns
    rows = _by_class(layout.whole.rows)["signed-integer-overflow"]
    table = ub.page_size(rows, list(range(len(cols))), cols, 50)
    halves = _build(run, tmp_path / "halves", table // 2)
    parts = sorted((halves / "ub/corpus/matrix").glob("signed-integer-overflow*.html"))
    assert len(parts) >= 2
    seen: Counter = Counter()
    for part in parts:
        cells = _cells(part)
        compilers = Counter(config.split()[0] for _, config in cells)
        assert set(compilers.values()) == {len(rows) * len(LEVELS)}   # whole compilers, every case
        seen.update(cells)
        assert all(link.is_file() for link in _links(part))
        assert {p.resolve() for p in parts} <= set(_links(part)) | {part.resolve()}
    assert seen == Counter(c for c in _expected(run).elements() if c[0].startswith("signed-"))

    one_column = ub.page_size(rows, [0], cols, 50)
    runs = _build(run, tmp_path / "runs", one_column // 3)
    seen = Counter()
    for page in (runs / "ub/corpus/matrix").glob("*.html"):
        cells = _cells(page)
        assert len({config.split()[0] for _, config in cells}) == 1
        seen.update(cells)
        assert page.stat().st_size < one_column // 3 + 10_000
    assert seen == _expected(run)


def test_a_class_page_is_the_same_whatever_else_the_corpus_holds(run, tmp_path):
    """A class's page depends on its own cases and configurations only: with another
    class's results deleted from the database, signed-integer-overflow's page is the
    same, byte for byte."""
    layout = _layout(run)
    classes = _by_class(layout.whole.rows)
    every = list(range(len(layout.columns)))
    budget = max(ub.page_size(r, every, layout.columns, 50) for r in classes.values()) + 1000
    before = _build(run, tmp_path / "before", budget)
    fewer = tmp_path / "fewer.db"
    shutil.copy(run, fewer)
    conn = connect(fewer)
    conn.execute("DELETE FROM ub_case WHERE id LIKE 'division-by-zero/%'")
    conn.commit()
    conn.close()
    assert not any(c.category == "division-by-zero" for c in _report(fewer).cases)
    after = _build(fewer, tmp_path / "after", budget)
    page = "ub/corpus/matrix/signed-integer-overflow.html"
    assert (before / page).read_bytes() == (after / page).read_bytes()
    assert not (after / "ub/corpus/matrix/division-by-zero.html").exists()


def test_the_zoo_bound(run, tmp_path):
    """The arithmetic of the bound, on the real run's bytes.

    Measured: the real run's class pages (each class over all 10 configurations) cost
    at most C bytes per cell, the page's frame, row heads and column heads counted in
    (C is some 150-250 bytes: the smallest class, 4 cases x 10 cells, pays the most
    frame per cell). At the zoo's scale the largest class page has the largest class
    of the bundled corpus (12 programs, signed-integer-overflow) over every
    configuration (at most 23 compilers x 6 levels = 138): 12 x 138 = 1,656 cells,
    so at most 1,656 x C bytes, some 0.25-0.4 MB, under 1 MB. The whole corpus on one
    page would be 225 x 138 = 31,050 cells, over 3 MB: the layout splits it, and no
    page's size depends on the number of classes (the summary's does, by a row per
    class and a link per divergent case: some 12 kB for 225 cases). Where a class
    grows past the page (more programs, more compilers), it is split further by
    compiler, so the bound holds by construction; past the budget no page is made.
    """
    layout = _layout(run)
    every = list(range(len(layout.columns)))
    classes = _by_class(layout.whole.rows)
    budget = max(ub.page_size(r, every, layout.columns, 50) for r in classes.values()) + 1000
    site = _build(run, tmp_path / "site", budget)
    width = sum(len(c.levels) for c in layout.columns)
    assert width == len(COMPILERS) * len(LEVELS)
    per_cell = max((site / f"ub/corpus/matrix/{c}.html").stat().st_size / (len(rows) * width)
                   for c, rows in classes.items())
    assert per_cell < 300, per_cell
    largest = max(Counter(case.id.split("/")[0] for case in discover(REPO / "corpus")).values())
    assert largest == 12
    assert largest * ZOO_CONFIGURATIONS * per_cell < MB / 2
    # the whole corpus over the zoo on one page would be over the bound: it is split
    whole = len(list(discover(REPO / "corpus"))) * ZOO_CONFIGURATIONS * per_cell
    assert whole > ub.PAGE_BUDGET
    assert ub.PAGE_MAX == MB and ub.PAGE_BUDGET + 100_000 <= MB


def test_in_a_browser_the_summary_leads_to_a_class_and_its_filter_works(run, tmp_path, chromium):
    layout = _layout(run)
    every = list(range(len(layout.columns)))
    budget = max(ub.page_size(r, every, layout.columns, 50)
                 for r in _by_class(layout.whole.rows).values()) + 1000
    site = _build(run, tmp_path / "site", budget)
    page = chromium.open(site / "ub/corpus.html")
    assert page.locator("#classes tbody tr").count() == 3
    page.locator("#classes a", has_text="signed-integer-overflow").first.click()
    page.wait_for_load_state()
    assert page.url.endswith("ub/corpus/matrix/signed-integer-overflow.html")
    assert page.locator("#matrix tbody tr").count() == 12
    assert page.locator("#matrix thead th.level").count() == 10
    page.fill("#filter", "abs-int-min")
    assert page.locator("#matrix tbody tr:visible").count() == 2      # the case and its twin
    page.locator("a[rel=prev]").click()                               # the class before it
    page.wait_for_load_state()
    assert page.url.endswith("ub/corpus/matrix/left-shift-negative.html")
    assert page.locator("#matrix tbody tr").count() == 6
    page.close()
    assert chromium.errors == []


def test_clip_never_cuts_a_character_or_an_entity():
    assert ub.clip("a<b", 10) == "a&lt;b"
    text = 'é"' * 100
    for limit in range(4, 60):
        out = str(ub.clip(text, limit))
        assert len(out.encode()) <= limit and out.endswith("…")
        body = out[:-1]
        assert htmllib.unescape(body) == text[:len(htmllib.unescape(body))]
        assert not re.search(r"&[^;]*$", body)

