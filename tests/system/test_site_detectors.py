"""The site's detector pages from a real database: ``ub run`` and ``ub detectors`` with
gcc-12 and clang-16 on two bundled cases and their fixed twins (a null dereference, an
overflowing loop), the site built, and its pages opened in Debian's Chromium: the UB
index leads to the category x detector matrix per version, a row to the detector's page
with its catches across versions, and a case page lists its detectors; the figures are
those ``ub detectors --json`` prints.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from analyzer.cli import main
from analyzer.runtime import toolchain
from analyzer.site import builder
from analyzer.ub.corpus import bundled_corpus
from warnscope.database import connect

COMPILERS = ("gcc-12", "clang-16")
CASES = ("null-dereference/check-after-use", "signed-integer-overflow/loop")

pytestmark = pytest.mark.skipif(toolchain.installed(list(COMPILERS)) != list(COMPILERS),
                                reason="needs gcc-12 and clang-16")


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("site-detectors")
    corpus = tmp / "scored"
    for case in CASES:
        folder, stem = case.split("/")
        (corpus / folder).mkdir(parents=True)
        for f in (bundled_corpus() / folder).glob(stem + ".*"):
            shutil.copy(f, corpus / folder / f.name)
    path = tmp / "w.db"
    base = ["--db", str(path), "ub"]
    assert main([*base, "run", "--corpus", str(corpus), "--compilers", "clang-16", "--levels", "O0",
                 "--no-sanitizers", "--json"]) == 0
    assert main([*base, "detectors", "--corpus", str(corpus), "--compilers", ",".join(COMPILERS),
                 "--json"]) == 0
    return path, corpus


@pytest.fixture(scope="module")
def site(db, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site-detectors-out") / "site"
    builder.build(connect(db[0]), out)
    return out


@pytest.fixture(scope="module")
def browser(chromium, site):
    pages = chromium.site(site)
    yield pages.open
    assert pages.errors == [] and pages.outside == []


def test_the_matrix_and_a_detectors_page_show_what_ub_detectors_scores(browser, db, site, capsys):
    path, corpus = db
    assert main(["--db", str(path), "ub", "detectors", "--corpus", str(corpus),
                 "--compilers", ",".join(COMPILERS), "--json"]) == 0
    scores = json.loads(capsys.readouterr().out)  # read from the database: no tool runs
    page = browser("ub/index.html")
    page.locator("a", has_text=str(corpus.resolve())).last.click()
    page.wait_for_load_state("load")
    assert page.url.endswith("ub/detectors/scored.html")
    assert json.loads((site / "ub/detectors/scored.json").read_text()) == scores
    for version in COMPILERS:
        table = page.locator(f'table.detectors[data-version="{version}"]')
        heads = table.locator("thead th").all_inner_texts()
        assert heads[5:] == ["null-dereference", "signed-integer-overflow"]
        rows = {r.locator("td").first.inner_text(): r.locator("td").all_inner_texts()
                for r in table.locator("tbody tr").all()}
        mine = [d for d in scores["detectors"] if d["version"] == version]
        assert set(rows) == {d["detector"] for d in mine}
        for d in mine:
            assert rows[d["detector"]][2] == f"{len(d['caught'])}/{d['cases']}"
            assert rows[d["detector"]][4] == f"{len(d['false_alarms'])}/{d['twins']}"
    clang = page.locator('table.detectors[data-version="clang-16"]')
    null = clang.locator("tbody tr", has_text="core.NullDereference").locator("td").all_inner_texts()
    assert null[2] == "1/2" and null[5].strip() == "1/1" and null[6].strip() == ""
    clang.locator("a", has_text="ubsan:signed-integer-overflow").click()
    page.wait_for_load_state("load")
    assert page.locator("h1").inner_text() == "ubsan:signed-integer-overflow"
    rows = page.locator("table.versions-table tbody tr").all_inner_texts()
    assert [r.split("\t")[:2] for r in rows] == [["clang-16", "1/2"], ["gcc-12", "1/2"]]
    grid = page.locator("table.detector-cases tbody tr").all_inner_texts()
    assert [g.split("\t") for g in grid] == [["signed-integer-overflow/loop", "caught", "caught"]]
    page.close()


def test_a_case_page_lists_its_detectors_per_version(browser):
    page = browser("ub/scored/null-dereference--check-after-use.html")
    rows = {r.locator("td").first.inner_text(): r.locator("td").all_inner_texts()
            for r in page.locator("table.case-detectors tbody tr").all()}
    assert set(rows) >= {"clang-16", "gcc-12"}
    assert "core.NullDereference (29)" in rows["clang-16"][1]
    assert "-Wanalyzer-null-dereference (29)" in rows["gcc-12"][1]
    assert rows["gcc-12"][3] == rows["clang-16"][3] == ""
    page.close()
