"""The code of UB cells on the site: labels in the table of configurations, each
configuration's code folded, the first two configurations that behave differently
aligned, and a divergent cell's labels on hover in the matrix; in a real browser.

One small run (the overflowing loop and check-after-use, gcc-12 and clang-16 at -O0
and -O2) in a database of its own, built into a site.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from analyzer.sandbox import runner as sandbox
from analyzer.site import builder
from analyzer.ub import run as ub_run
from analyzer.runtime.toolchain import resolve_list
from warnscope.database import connect

REPO = Path(__file__).resolve().parents[2]
CASES = ["signed-integer-overflow/loop", "null-dereference/check-after-use"]

pytestmark = pytest.mark.skipif(any(shutil.which(c) is None for c in ("gcc-12", "clang-16")),
                                reason="needs gcc-12 and clang-16")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("sitecode")
    corpus = tmp / "corpus"
    for case in CASES:
        (corpus / case).parent.mkdir(parents=True, exist_ok=True)
        for f in (REPO / "corpus").glob(case + ".*"):
            if ".fixed." in f.name:     # the case alone, not its fixed twin
                continue
            shutil.copy(f, (corpus / case).parent)
    conn = connect(tmp / "ub.db")
    summary = ub_run.run(conn, corpus, resolve_list(["gcc-12", "clang-16"]), ["O0", "O2"],
                         limits=sandbox.Limits(timeout=1.0, cpu=2), warnings=False, sanitizers=False)
    assert summary.failures == []
    out = tmp / "site"
    builder.build(conn, out)
    return out


def _case_page(site: Path, name: str) -> Path:
    (page,) = [p for p in (site / "ub").glob("*/*.html") if name in p.name]
    return page


def test_the_case_page_has_labels_folded_code_and_the_aligned_pair(site):
    html = _case_page(site, "loop").read_text()
    assert "loop in main at loop.c:16 kept, its exit test removed" in html
    assert "main is empty: execution runs into _fini" in html
    assert len(re.findall(r'<details class="asm">', html)) == 4          # folded: no 'open'
    assert "<details class=\"asm\" open" not in html
    assert re.search(r'<table class="codediff"', html)
    assert re.search(r"Where the code parts: gcc-12 -O0 and gcc-12 -O2", html)
    assert 'class="differs"' in html
    assert (site / "static" / "pygments.css").is_file()


def test_the_matrix_shows_a_divergent_cells_labels_on_hover(site):
    (matrix,) = [p for p in (site / "ub").glob("*.html") if p.name != "index.html"]
    html = matrix.read_text()
    assert re.search(r'title="clang-16 -O2: nonzero-exit — main is empty: execution runs into _fini', html)


def test_in_a_browser_the_code_unfolds_and_the_diff_marks_rows(site, chromium):
    page = chromium.open(_case_page(site, "loop"))
    first = page.locator("details.asm").first
    assert not first.evaluate("d => d.open")
    assert not first.locator("pre").is_visible()
    first.locator("summary").click()
    assert first.evaluate("d => d.open") and first.locator("pre").is_visible()
    assert "push" in first.locator("pre").inner_text()
    differs = page.locator("table.codediff tr.differs")
    assert differs.count() > 0
    assert page.locator("table.codediff tr.fn").first.inner_text().startswith("main")
    colour = differs.first.evaluate("r => getComputedStyle(r).backgroundColor")
    same = page.locator("table.codediff tr.same")
    if same.count():
        assert same.first.evaluate("r => getComputedStyle(r).backgroundColor") != colour
    assert chromium.errors == []
