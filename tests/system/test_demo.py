"""``warnscope demo``, the README's first quick-start command, end to end: it ends with
the report site built beside the database, and a second run rewrites no page."""
from __future__ import annotations

import re
import shutil
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

CHROMIUM = Path("/usr/bin/chromium")


def _site_files(root: Path) -> dict[Path, int]:
    return {p: p.stat().st_mtime_ns for p in root.rglob("*") if p.is_file()}


@pytest.mark.skipif(any(shutil.which(c) is None for c in ("gcc-11", "gcc-12", "clang-16")),
                    reason="the demo needs gcc-11, gcc-12 and clang-16")
def test_demo_end_to_end(tmp_path, cli_at):
    cli = cli_at(tmp_path / "demo.db")
    code, out, err = cli("demo")
    assert code == 0, err
    assert "gcc-11: added" in out and "gcc-12: added" in out
    assert out.count(" 0 unexplained") == 2                       # both GCCs verified
    assert "+ -Wuse-after-free " in out and "+ -Wdangling-pointer " in out
    assert "What -Wall turns on in gcc-12 for C (" in out and "-Wformat=1" in out
    assert "What -Wall turns on in gcc-12 for C++ (" in out and "-Wreorder" in out
    # The UB part: the whole corpus on gcc-12 and clang-16, the classic case in detail.
    assert "signed-integer-overflow/loop  (C17 6.5p5)  DIVERGES" in out
    assert "-O0 expected; -O2 hang" in out
    assert "control/unsigned-loop" in out
    # The site, beside the database, and where to open it.
    site = tmp_path / "warnscope-site"
    index = site / "index.html"
    assert f"open {index.as_uri()}" in out
    assert (site / "compilers/gcc-12.html").is_file() and (site / "flags/wshadow.html").is_file()
    assert (site / "diffs/gcc-11--gcc-12.html").is_file()
    assert len(list((site / "ub").glob("*/*.html"))) > 20        # a page per corpus case
    before = _site_files(site)
    # A second run finds everything stored: nothing is ingested or run again, no page rewritten.
    code, out, err = cli("demo")
    assert code == 0, err
    assert "gcc-12: unchanged" in out and "(0 run now)" in out
    assert "(0 files written," in out and f"open {index.as_uri()}" in out
    assert _site_files(site) == before
    _loads_in_chromium(site)


def _loads_in_chromium(site: Path) -> None:
    """The demo's site in Debian's Chromium from file://: the index, a flag page and the
    UB matrix load with no console error and no request outside the site."""
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed (/usr/bin/chromium): apt-get install chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright for Python is not installed: pip install playwright")
    matrix = next(p for p in sorted((site / "ub").glob("*.html")) if p.name != "index.html")
    errors: list[str] = []
    outside: list[str] = []
    root = site.resolve()

    def request(req) -> None:
        if req.url.startswith("data:"):
            return
        if not req.url.startswith("file://") or \
                root not in Path(unquote(urlsplit(req.url).path)).resolve().parents:
            outside.append(req.url)

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM))
        try:
            context = browser.new_context()
            context.on("request", request)
            context.route(re.compile(r"^(?!file://).*"), lambda route: route.abort())
            for target, heading in ((site / "index.html", "warnscope report"),
                                    (site / "flags/wshadow.html", "-Wshadow"),
                                    (matrix, "UB matrix")):
                page = context.new_page()
                page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.goto(target.as_uri())
                page.wait_for_load_state("load")
                assert page.locator("h1").first.inner_text() == heading
                if target == matrix:
                    assert page.locator("#matrix tbody tr").count() > 20
                page.close()
        finally:
            browser.close()
    assert errors == [] and outside == []
