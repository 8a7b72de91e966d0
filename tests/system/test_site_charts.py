"""The site's charts in Debian's Chromium over ``file://``, on a real database (gcc-11,
gcc-12 and clang-16 ingested, a small UB run with gcc-12 and clang-16 at -O0 and -O2,
their detectors scored on the same cases and twins (warnings, sanitizers, GCC's analyzer)
and, where both compilers are installed, the two small zlib overhead studies): every
chart the data allows is drawn, its marks are as many as the numbers it stands for, each
mark's value is the one in the table beside it (a grid's cells, each a state, counted
against the table by state), no request leaves the site's folder, and a screenshot of
each chart page is kept (in ``WARNSCOPE_ARTEFACTS`` if set, else a temporary directory)."""
from __future__ import annotations

import json
import os
import shutil
from collections import Counter
from pathlib import Path

import pytest

from analyzer.sandbox import runner as sandbox
from analyzer.site import builder, flag_life
from analyzer.site.charts import MARK_ID
from analyzer.cli import main
from analyzer.ub.corpus import bundled_corpus
from analyzer.ub import run as ub_run
from analyzer.runtime.toolchain import resolve_list
from flagdb.ingest import ingest
from warnscope.database import connect

REPO = Path(__file__).resolve().parents[2]
#: cases with their fixed twins, and a control
CASES = ("signed-integer-overflow/loop", "null-dereference/check-after-use", "control/while-one")


@pytest.fixture(scope="module")
def site(gcc_db, request, tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("charts")
    db = tmp / "charts.db"
    try:
        shutil.copy(request.getfixturevalue("zlib_studies"), db)
    except pytest.skip.Exception:
        shutil.copy(gcc_db, db)
    conn = connect(db)
    ingest(conn, "clang-16")
    compilers = [c for c in ("gcc-12", "clang-16") if shutil.which(c)]
    if compilers:
        corpus = tmp / "corpus"
        for case in CASES:
            folder, stem = case.split("/")
            (corpus / folder).mkdir(parents=True, exist_ok=True)
            for f in (bundled_corpus() / folder).glob(stem + ".*"):
                shutil.copy(f, corpus / folder / f.name)
        summary = ub_run.run(conn, corpus, resolve_list(compilers), ["O0", "O2"], limits=sandbox.Limits(timeout=1.0, cpu=2))
        assert summary.failures == []
    conn.close()
    if compilers:
        assert main(["--db", str(db), "ub", "detectors", "--corpus", str(corpus), "--compilers",
                     ",".join(compilers), "--tools", "warnings,sanitizers,gcc-analyzer", "--json"]) == 0
    conn = connect(db)
    out = tmp / "site"
    builder.build(conn, out)
    conn.close()
    return out


def number(text: str) -> float:
    """A table cell's first number (``+23``, ``1.145``, ``3/4``: 3)."""
    return float(text.strip().lstrip("+").replace("–", "-").split()[0].split("/")[0])


def scored(row: list[str]) -> bool:
    """A detectors' table row with a point: its tool ran on a UB case and on a program
    without UB (caught ``n/cases``, false alarms ``n/clean``)."""
    return all(number(row[c].split("/", 1)[1]) > 0 for c in (2, 4))


#: page -> (figure id, the table's columns the chart draws, the rows to read (None: every
#: row), digits the table rounds to); a stacked chart draws no mark for a zero part
def charts_of(site: Path) -> dict[str, list[tuple[str, tuple[int, ...], object, int]]]:
    out: dict[str, list] = {"index.html": [("over-time-chart", (2, 3, 4, 5), None, 0)]}
    if (site / "ub/corpus.levels.svg").is_file():
        out["ub/index.html"] = [("levels-chart-corpus", (3,), None, 0)]
    if (site / "ub/detectors/corpus.html").is_file():
        out["ub/detectors/corpus.html"] = [(f"detectors-chart-{i}", (2,), scored, 0)
                                           for i in (1, 2)]
    if (site / "overhead/study-1.html").is_file():
        out["overhead/study-1.html"] = [
            ("ratio-chart", (2,), lambda row: row[1] != "off" and row[2], 3),
            ("time-chart", (6,), lambda row: row[6].strip() != "", 2),
            ("cpu-chart", (3, 4), None, 2),
            ("process-chart", (1, 2), None, 2)]
    return out


STACKED = {"cpu-chart", "process-chart", "errors-chart", "flips-chart"}


def test_every_chart_draws_the_numbers_of_its_table(chromium, site):
    checked = check_charts(chromium, site, charts_of(site))
    assert "over-time-chart" in checked
    if shutil.which("gcc-12") and shutil.which("clang-16"):
        assert {"levels-chart-corpus", "detectors-chart-1", "detectors-chart-2"} <= set(checked)
        # the zlib studies are made where both compilers are: a study's page charts them
        assert {"ratio-chart", "time-chart", "cpu-chart"} <= set(checked)


def test_the_matrix_at_a_glance(chromium, site):
    """The UB index's overview: a cell per case and configuration, its colour the outcome;
    per configuration, the cells of each outcome are as many as the table beside it
    says; the ticks above are the cases the note says diverge by the optimiser."""
    if not (site / "ub/corpus.overview.svg").is_file():
        pytest.skip("no UB run: gcc-12 or clang-16 is missing")
    pages = chromium.site(site)
    requests, errors = len(chromium.requests), len(chromium.errors)
    page = pages.open("ub/index.html")
    figure = page.locator("#overview-chart-corpus")
    assert figure.locator("img").evaluate("i => i.complete && i.naturalWidth") > 300
    head = page.locator("#overview-table-corpus thead th").all_inner_texts()
    rows = page.locator("#overview-table-corpus").evaluate(
        "t => Array.from(t.tBodies[0].rows, r => Array.from(r.cells, c => c.innerText))")
    by_level = int(page.locator("#overview-note-corpus .by-level").inner_text())
    declared = int(figure.get_attribute("data-marks"))
    page.screenshot(path=str(shots(site) / "ub_index_overview.png"), full_page=True)
    page.close()
    svg = pages.open("ub/corpus.overview.svg")
    ids = svg.evaluate("() => Array.from(document.querySelectorAll('[id]'), e => e.id)")
    svg.close()
    cells = [MARK_ID.match(i) for i in ids if i.startswith("mark-")]
    outcomes = head[1:-1]
    drawn = Counter((int(m.group(1)), outcomes[int(float(m.group(3)))]) for m in cells)
    table = Counter({(lane, outcome): int(row[1 + k]) for lane, row in enumerate(rows)
                     for k, outcome in enumerate(outcomes) if int(row[1 + k])})
    assert len(rows) == 4  # gcc-12 and clang-16 at -O0 and -O2
    assert drawn == table and len(cells) == declared == \
        sum(int(row[-1]) for row in rows) > 0
    assert len([i for i in ids if i.startswith("tick-0-")]) == by_level > 0
    assert chromium.errors[errors:] == []
    assert [url for url in pages.outside if url in chromium.requests[requests:]] == []


#: flags whose life differs between the versions of the site's database
LIVES = ("-Wimplicit-fallthrough", "-Wunused-variable", "-Wall", "-Wextra-semi", "-Wuse-after-free")


def test_a_flags_life(chromium, site):
    """A flag page's life chart (SVG in the page): a cell per version of the history
    table beside it, each cell's state the one the table's row says (present, no-op,
    another name, -Wall, -Wextra, on by default)."""
    slugs = dict(json.loads((site / "data/names.json").read_text()))
    pages = chromium.site(site)
    requests, errors = len(chromium.requests), len(chromium.errors)
    states = set()
    for name in LIVES:
        page = pages.open(f"flags/{slugs[name]}.html")
        figure = page.locator("#life-chart")
        assert figure.count() == 1, name
        ids = figure.evaluate("f => Array.from(f.querySelectorAll('svg [id^=\"mark-\"]'), e => e.id)")
        rows = page.locator("#history").evaluate(
            "t => Array.from(t.tBodies[0].rows, r => Array.from(r.cells, c => c.innerText))")
        drawn = sorted(int(float(MARK_ID.match(i).group(3))) for i in ids)
        assert drawn == sorted(state_of(row) for row in rows), name
        assert len(ids) == int(figure.get_attribute("data-marks")) == len(rows) > 0
        assert figure.locator("svg").bounding_box()["width"] > 100
        states.update(drawn)
        page.screenshot(path=str(shots(site) / f"flag_{slugs[name]}.png"), full_page=True)
        page.close()
    assert {flag_life.WALL, flag_life.ABSENT} <= states
    assert chromium.errors[errors:] == []
    assert [url for url in pages.outside if url in chromium.requests[requests:]] == []


def state_of(row: list[str]) -> int:
    """A history row's state, read from its cells as a reader reads them."""
    present, default, wall, wextra = row[2], row[4], row[5], row[6]
    if present.strip() == "no":
        return flag_life.ABSENT
    if "no-op" in present or "removed" in present:
        return flag_life.NOOP
    if present.startswith("as "):
        return flag_life.RENAMED
    if wall.strip() == "yes":
        return flag_life.WALL
    if wextra.strip() == "yes":
        return flag_life.WEXTRA
    if default.strip().lower() not in flag_life.OFF:
        return flag_life.DEFAULT
    return flag_life.PRESENT


def shots(site: Path) -> Path:
    out = Path(os.environ.get("WARNSCOPE_ARTEFACTS") or site.parent / "shots")
    out.mkdir(parents=True, exist_ok=True)
    return out


def check_charts(chromium, site: Path, wanted: dict) -> list[str]:
    """Open each page and check its charts; the ids of those checked."""
    pages = chromium.site(site)
    requests, errors = len(chromium.requests), len(chromium.errors)  # the module's browser is shared
    kept = shots(site)
    checked = []
    for rel, figures in wanted.items():
        page = pages.open(rel)
        for fid, columns, rows, digits in figures:
            figure = page.locator(f"#{fid}")
            if fid == "process-chart" and figure.count() == 0:
                continue  # the kernel's per-process account needs bpftrace
            assert figure.count() == 1, (rel, fid)
            img = figure.locator("img")
            assert img.evaluate("i => i.complete && i.naturalWidth") > 300, (rel, fid)
            declared = int(figure.get_attribute("data-marks"))
            table = page.locator(f"#{figure.get_attribute('data-table')}")
            cells = table.evaluate("t => Array.from(t.tBodies[0].rows, r => Array.from(r.cells, c => c.innerText))")
            numbers = sorted(f"{number(row[c]):.{digits}f}" for row in cells
                             if rows is None or rows(row) for c in columns
                             if fid not in STACKED or number(row[c]) != 0)
            svg = pages.open(f"{Path(rel).parent / img.get_attribute('src')}".removeprefix("./"))
            ids = svg.evaluate("() => Array.from(document.querySelectorAll('[id^=\"mark-\"]'), e => e.id)")
            svg.close()
            values = sorted(f"{float(MARK_ID.match(i).group(3)):.{digits}f}" for i in ids)
            assert len(ids) == declared == len(numbers) > 0, (rel, fid, len(ids), declared, numbers)
            assert values == numbers, (rel, fid)
            checked.append(fid)
        page.screenshot(path=str(kept / (rel.replace("/", "_") + ".png")), full_page=True)
        page.close()
    assert chromium.errors[errors:] == []
    assert [url for url in pages.outside if url in chromium.requests[requests:]] == []
    print(f"charts checked: {', '.join(checked)}; screenshots in {kept}")
    return checked


def test_no_chart_page_over_a_megabyte(site):
    for rel in charts_of(site):
        assert (site / rel).stat().st_size < 1_000_000, rel


AUTOTOOLS = REPO / "tests" / "fixtures" / "upgrade" / "gcc14-autotools"
UPGRADE = "projects/local_3agcc14-autotools/upgrades/clang-14--clang-16.html"


@pytest.mark.skipif(not all(shutil.which(c) for c in ("clang-14", "clang-16")), reason="needs clang-14 and clang-16")
def test_an_upgrade_charts_its_new_errors(chromium, tmp_path):
    """``warnscope upgrade`` of the autotools fixture from clang-14 to clang-16 (new errors in
    C: implicit declarations and implicit int; configure checks that flip), then ``site
    build``: the page charts the errors by option and the flipped checks by build system
    and way, each with the same counts as its table."""
    db = tmp_path / "up.db"
    assert main(["--db", str(db), "upgrade", "--source", str(AUTOTOOLS), "--build", "make",
                 "--from", "clang-14", "--to", "clang-16", "--quiet"]) == 0
    assert main(["--db", str(db), "site", "build", "-o", str(tmp_path / "site")]) == 0
    checked = check_charts(chromium, tmp_path / "site", {UPGRADE: [("errors-chart", (1, 2), None, 0),
                                                                   ("flips-chart", (1, 2, 3), None, 0)]})
    assert checked == ["errors-chart", "flips-chart"]
