"""The site's upgrade report from a real upgrade: ``warnscope upgrade`` of the autotools
fixture from clang-14 to clang-16 (clang 16 made implicit declarations and implicit int
errors in C: the ``__progname`` check flips, HAVE___PROGNAME is lost, the build fails, the
``-Wno-error=`` hatch is proven), then ``site build``; the page in Debian's Chromium,
reached from the index: it loads clean, asks for nothing outside the site, shows the
flip's row, and reads at a phone's width. About 20 seconds on 2 cores.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from analyzer.cli import main

AUTOTOOLS = Path(__file__).resolve().parents[1] / "fixtures" / "upgrade" / "gcc14-autotools"
SLUG = "local_3agcc14-autotools"
PAGE = f"projects/{SLUG}/upgrades/clang-14--clang-16.html"

pytestmark = pytest.mark.skipif(not all(shutil.which(c) for c in ("clang-14", "clang-16")),
                                reason="needs clang-14 and clang-16")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("site-upgrade")
    db = base / "up.db"
    assert main(["--db", str(db), "upgrade", "--source", str(AUTOTOOLS), "--build", "make",
                 "--from", "clang-14", "--to", "clang-16", "--quiet"]) == 0
    assert main(["--db", str(db), "site", "build", "-o", str(base / "site")]) == 0
    return base / "site"


def test_the_page_is_the_stored_report(site):
    report = json.loads((site / PAGE).with_suffix(".json").read_text())
    (pair,) = report["pairs"]
    assert [(f["name"], f["old"], f["new"]) for f in pair["flips"]] == [
        ("if libc defines __progname", "yes", "no")]
    assert pair["hatch"]["status"] == "ok"
    assert (site / PAGE).stat().st_size < 1_000_000


def test_the_page_in_chromium(site, chromium, readable, tmp_path_factory):
    browser = chromium.site(site)
    page = browser.open("index.html")
    page.locator("ul.upgrades a", has_text="clang-14 → clang-16").click()
    page.wait_for_load_state("load")
    assert page.url.endswith(PAGE)
    assert page.title() == "local:gcc14-autotools: clang-14 → clang-16 (upgrade) · warnscope"
    flip = page.locator("#flips tr.flip")
    assert flip.count() == 1 and flip.is_visible()
    assert flip.locator("td").all_inner_texts()[:4] == ["autoconf", "if libc defines __progname", "yes", "no"]
    macro = page.locator("#macros tr.lost")
    assert macro.is_visible() and "HAVE___PROGNAME" in macro.inner_text() and "#undef" in macro.inner_text()
    # the silent damage comes before the build's fate, on the first screen
    assert flip.bounding_box()["y"] < page.locator("#build").bounding_box()["y"] < 900 * 1.5
    assert page.locator("#errors tbody tr").count() == 2
    assert page.locator("#hatch .proven").is_visible()
    shots = tmp_path_factory.mktemp("shots")
    page.screenshot(path=str(shots / "upgrade.png"), full_page=True)
    page.close()
    # the project page links it too; at a phone's width the page reads
    page = browser.open(f"projects/{SLUG}.html")
    assert page.locator("#upgrade-reports-table a").get_attribute("href") == \
        f"{SLUG}/upgrades/clang-14--clang-16.html"
    page.close()
    page = browser.open(PAGE, width=390)
    assert readable(page, 390) == []
    page.close()
    assert browser.errors == []
    assert browser.outside == []
    print(f"screenshot in {shots}")
