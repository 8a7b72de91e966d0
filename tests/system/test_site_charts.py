"""The site's charts in Debian's Chromium over ``file://``, on a real database (gcc-11,
gcc-12 and clang-16 ingested, a small UB run with gcc-12 and clang-16 at -O0 and -O2
and, where both compilers are installed, the two small zlib overhead studies): every
chart the data allows is drawn, its marks are as many as the numbers it stands for, each
mark's value is the one in the table beside it, no request leaves the site's folder, and
a screenshot of each chart page is kept (in ``WARNSCOPE_ARTEFACTS`` if set, else a
temporary directory)."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from analyzer.sandbox import runner as sandbox
from analyzer.site import builder
from analyzer.site.charts import MARK_ID
from analyzer.ub import run as ub_run
from flagdb.ingest import ingest
from warnscope.database import connect

REPO = Path(__file__).resolve().parents[2]
CASES = ("signed-integer-overflow/loop.c", "control/while-one.c", "null-dereference/null-this.cpp")


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
        for rel in CASES:
            src = REPO / "corpus" / rel
            (corpus / src.parent.name).mkdir(parents=True, exist_ok=True)
            shutil.copy(src, corpus / rel)
            shutil.copy(src.with_suffix(".output"), corpus / src.parent.name)
        summary = ub_run.run(conn, corpus, compilers, ["O0", "O2"], limits=sandbox.Limits(timeout=1.0, cpu=2))
        assert summary.failures == []
    out = tmp / "site"
    builder.build(conn, out)
    conn.close()
    return out


def number(text: str) -> float:
    return float(text.strip().lstrip("+").replace("–", "-").split()[0])


#: page -> (figure id, the table's columns the chart draws, the rows to read (None: every
#: row), digits the table rounds to)
def charts_of(site: Path) -> dict[str, list[tuple[str, tuple[int, ...], object, int]]]:
    out: dict[str, list] = {"index.html": [("over-time-chart", (2, 3, 4, 5), None, 0)]}
    if (site / "ub/corpus.levels.svg").is_file():
        out["ub/index.html"] = [("levels-chart-corpus", (3,), None, 0)]
    if (site / "overhead/study-1.html").is_file():
        out["overhead/study-1.html"] = [
            ("ratio-chart", (2,), lambda row: row[1] != "off" and row[2], 3),
            ("cpu-chart", (3, 4), None, 2),
            ("process-chart", (1, 2), None, 2)]
    return out


def test_every_chart_draws_the_numbers_of_its_table(chromium, site):
    pages = chromium.site(site)
    shots = Path(os.environ.get("WARNSCOPE_ARTEFACTS") or site.parent / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    wanted = charts_of(site)
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
                             if rows is None or rows(row) for c in columns)
            svg = pages.open(f"{Path(rel).parent / img.get_attribute('src')}".removeprefix("./"))
            ids = svg.evaluate("() => Array.from(document.querySelectorAll('[id^=\"mark-\"]'), e => e.id)")
            svg.close()
            values = sorted(f"{float(MARK_ID.match(i).group(3)):.{digits}f}" for i in ids)
            assert len(ids) == declared == len(numbers) > 0, (rel, fid, len(ids), declared, numbers)
            assert values == numbers, (rel, fid)
            checked.append(fid)
        page.screenshot(path=str(shots / (rel.replace("/", "_") + ".png")), full_page=True)
        page.close()
    assert "over-time-chart" in checked
    assert pages.errors == []
    assert pages.outside == []
    print(f"charts checked: {', '.join(checked)}; screenshots in {shots}")


def test_no_chart_page_over_a_megabyte(site):
    for rel in charts_of(site):
        assert (site / rel).stat().st_size < 1_000_000, rel
