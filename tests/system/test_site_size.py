"""No page of the site over a megabyte (10^6 bytes), where the demo's site had a case
page of 6.7 MB: the case pages show the program's own functions in full and fold the
library's (libstdc++ templates instantiated in the binary) to a line each, with the
whole code of the configuration in a listing beside the page.

The demo's own configuration (gcc-12 and clang-16 at -O0 and -O2) on the cases whose
pages were the demo's largest: control/strings (std::string, std::vector, std::sort;
6.7 MB) and the two C++ data races with their fixed twins (std::thread; 0.9-1.15 MB),
in a database of their own, built into a site. A full ``warnscope demo`` runs in
test_demo.py once; this runs only these 5 programs, without warnings and sanitizers.
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
CASES = ["control/strings", "data-race/stop-flag", "data-race/published-pointer"]
#: the bound, in bytes: a decimal megabyte
MB = 1_000_000
CONFIGS = ["gcc-12--o0", "gcc-12--o2", "clang-16--o0", "clang-16--o2"]

pytestmark = pytest.mark.skipif(any(shutil.which(c) is None for c in ("gcc-12", "clang-16")),
                                reason="needs gcc-12 and clang-16")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    """(the database, the site built from it)."""
    tmp = tmp_path_factory.mktemp("sitesize")
    corpus = tmp / "corpus"
    for case in CASES:     # each program with its expected output and its fixed twin
        (corpus / case).parent.mkdir(parents=True, exist_ok=True)
        for f in (REPO / "corpus" / case).parent.glob(Path(case).name + ".*"):
            shutil.copy(f, (corpus / case).parent)
    db = tmp / "ub.db"
    conn = connect(db)
    summary = ub_run.run(conn, corpus, resolve_list(["gcc-12", "clang-16"]), ["O0", "O2"],
                         limits=sandbox.Limits(timeout=2.0, cpu=2), warnings=False,
                         sanitizers=False)
    assert summary.failures == [] and summary.cells == 20
    site = tmp / "site"
    builder.build(conn, site)
    conn.close()
    return db, site


def _pages(site: Path) -> dict[str, int]:
    return {p.relative_to(site).as_posix(): p.stat().st_size for p in site.rglob("*.html")}


def test_no_page_is_over_a_megabyte(built):
    _, site = built
    sizes = _pages(site)
    assert len([p for p in sizes if p.startswith("ub/corpus/")]) == 5
    assert max(sizes.values()) < MB, sorted(sizes.items(), key=lambda kv: -kv[1])[:5]


def _listings(html: str) -> list[str]:
    return sorted(set(re.findall(r'href="(code/[^"]+\.txt)"', html)))


def test_the_strings_page_shows_main_and_links_the_folded_library_to_its_listings(built):
    _, site = built
    page = site / "ub/corpus/control--strings.html"
    html = page.read_text()
    assert _listings(html) == sorted(f"code/control--strings--{c}.txt" for c in CONFIGS)
    assert html.count('<details class="asm">') == 4
    assert html.count('<span class="nl">main:</span>') == 4          # the program's own code
    # every configuration's folded functions: a line each, named in its listing in full
    blocks = re.findall(r'<details class="asm">(.*?)</details>', html, re.S)
    for block in blocks:
        (listing,) = set(re.findall(r'href="(code/[^"]+\.txt)"', block))
        text = (page.parent / listing).read_text()
        folded = re.findall(r'<li><a href="[^"]+" type="text/plain"><code>([^<]*)</code></a> '
                            r'<span class="note">(\d+) instructions?, ([^<]*)</span>', block)
        assert len(folded) > 5 and all("library" in why or "runtime" in why
                                       for _, _, why in folded)
        labels = {line.split(":    # folded on the page: ")[0].replace("&amp;", "&")
                  for line in text.splitlines() if ":    # folded on the page: " in line}
        for name, count, _ in folded:
            name = name.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&") \
                .replace("&#39;", "'").replace("&#34;", '"')
            assert name in labels or name.endswith("…")
        assert "main:\n" in text and "main:    # folded" not in text
        shown = set(re.findall(r'<span class="nl">([^<]*):</span>', block))
        assert "main" in shown and shown <= {"main", "main.cold"}      # nothing of the library
    gcc_o0 = (page.parent / "code/control--strings--gcc-12--o0.txt").read_text()
    assert "void std::sort<" in gcc_o0 and "library code from stl_algo.h" in gcc_o0


def test_the_data_race_pages_keep_the_lambda_and_fold_the_thread(built):
    _, site = built
    html = (site / "ub/corpus/data-race--stop-flag.html").read_text()
    # clang-16's lambda and gcc-12's, shown; std::thread's constructor of them, folded
    assert '<span class="nl">main::$_0::operator()() const:</span>' in html
    assert '<span class="nl">main::{lambda()#1}::operator()() const:</span>' in html
    assert "<code>std::thread::thread&lt;main::$_0, , void&gt;(main::$_0&amp;&amp;)</code>" in html
    assert all((site / "ub/corpus" / rel).is_file() for rel in _listings(html))


def test_a_rebuild_rewrites_no_listing_and_removes_those_of_cells_gone(built, tmp_path):
    db, site = built
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    shutil.copy(db, tmp_path / "ub.db")
    conn = connect(tmp_path / "ub.db")
    again = builder.build(conn, copy)
    assert again.stats.written == [] and again.stats.removed == []
    conn.execute("DELETE FROM ub_cell WHERE case_id = 'control/strings' AND compiler = 'clang-16' "
                 "AND level = '-O0'")
    conn.commit()
    third = builder.build(conn, copy)
    assert "ub/corpus/code/control--strings--clang-16--o0.txt" in third.stats.removed
    assert not (copy / "ub/corpus/code/control--strings--clang-16--o0.txt").exists()
    assert (copy / "ub/corpus/code/control--strings--gcc-12--o0.txt").is_file()
    conn.close()
