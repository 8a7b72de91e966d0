"""The report site built from a real database (gcc-11, gcc-12 and clang-16 ingested from
Debian's packages, a small UB run with gcc-12), checked on disk and in Debian's Chromium.

The browser tests drive /usr/bin/chromium through Playwright's ``executable_path`` (never
a downloaded browser) over ``file://`` URLs, the way a developer opens the site; they
are skipped, saying why, only where Chromium or Playwright is missing.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import sqlite3
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from markupsafe import escape

from analyzer.sandbox import runner as sandbox
from analyzer.cli import main
from analyzer.runtime.executors import cores
from analyzer.overhead import store as oh_store
from analyzer.site import builder, flags, overhead, pages
from analyzer.site.slugs import base_slug, slug_map
from analyzer.ub import run as ub_run
from analyzer.runtime.toolchain import resolve_list
from flagdb import compare, store, views
from warnscope.database import connect
from warnscope.errors import WarnscopeError
from flagdb.ingest import ingest
from warnscope.serial import plain, to_json

REPO = Path(__file__).resolve().parents[2]
CASES = ("signed-integer-overflow/loop.c", "control/while-one.c", "null-dereference/null-this.cpp")
XSS = "<script>window.__xss=1</script>"


def _studies(request) -> Path | None:
    """The session's zlib overhead studies (tests/conftest.py), None where they cannot run."""
    try:
        return request.getfixturevalue("zlib_studies")
    except pytest.skip.Exception:
        return None


@pytest.fixture(scope="module")
def site_db(gcc_db, request, tmp_path_factory) -> Path:
    """gcc-11 and gcc-12 (the shared fixture), clang-16, a small UB run with gcc-12 and,
    where gcc-12 and clang-16 are installed, the two small zlib overhead studies."""
    tmp = tmp_path_factory.mktemp("site")
    path = tmp / "site.db"
    shutil.copy(_studies(request) or gcc_db, path)
    conn = connect(path)
    ingest(conn, "clang-16")
    if shutil.which("gcc-12"):
        corpus = tmp / "corpus"
        for rel in CASES:
            src = REPO / "corpus" / rel
            (corpus / src.parent.name).mkdir(parents=True, exist_ok=True)
            shutil.copy(src, corpus / rel)
            shutil.copy(src.with_suffix(".output"), corpus / src.parent.name)
        summary = ub_run.run(conn, corpus, resolve_list(["gcc-12"]), ["O0", "O2"],
                             limits=sandbox.Limits(timeout=1.0, cpu=2))
        assert summary.failures == []
    conn.close()
    return path


@pytest.fixture(scope="module")
def site(site_db, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("out") / "site"
    result = builder.build(connect(site_db), out)
    assert result.pages > 1000
    return out


def html_files(root: Path) -> list[Path]:
    return sorted(root.rglob("*.html"))


# ------------------------------------------------------------------ on disk

def test_pages_and_json_are_the_cli_results(site, site_db):
    """The JSON beside each page is what ``--json`` prints for the same question."""
    conn = connect(site_db)
    gcc12 = store.load(conn, "gcc-12")
    assert json.loads((site / "compilers/gcc-12.json").read_text()) == \
        plain(views.list_flags(gcc12))
    diff = compare.diff(store.load(conn, "gcc-11", with_messages=False),
                        store.load(conn, "gcc-12", with_messages=False))
    assert json.loads((site / "diffs/gcc-11--gcc-12.json").read_text()) == plain(diff)
    assert json.loads((site / "compilers/gcc-12.wall.json").read_text()) == \
        plain(views.tree(gcc12, "-Wall"))
    for page in ("index.html", "flags/index.html", "diffs/index.html", "diffs/gcc-12--clang-16.html",
                 "compilers/clang-16.html", "ub/index.html"):
        assert (site / page).is_file(), page
    if shutil.which("gcc-12"):
        report = json.loads(next((site / "ub").glob("*.json")).read_text())
        assert {c["case"] for c in report["cases"]} == {c[:-len(Path(c).suffix)] for c in CASES}


def _needs_studies(site: Path) -> None:
    if not (site / "overhead/study-1.html").is_file():
        pytest.skip("no overhead study in the site's database (gcc-12 and clang-16 are needed)")


def test_overhead_pages_are_the_report(site, site_db, capsys):
    """Each study's JSON is ``overhead report --json`` (and its cells ``overhead run
    --json``'s); the page holds the table, the charts and, in tu mode, the top TUs."""
    _needs_studies(site)
    conn = connect(site_db)
    for study in oh_store.studies(conn):
        assert main(["--db", str(site_db), "overhead", "report", "--study", str(study),
                     "--format", "json", "--top", str(overhead.TOP_TUS)]) == 0
        assert json.loads((site / f"overhead/study-{study}.json").read_text()) == \
            json.loads(capsys.readouterr().out)
        info = oh_store.study_info(conn, study)
        assert json.loads((site / f"overhead/study-{study}.cells.json").read_text()) == \
            json.loads(to_json({"study": study, "cells": oh_store.cells(conn, study, with_tus=info.mode == "tu")}))
    index = json.loads((site / "overhead/index.json").read_text())
    assert [s["mode"] for s in index] == ["tu", "build"]  # newest first
    page = (site / "overhead/study-1.html").read_text()
    report = json.loads((site / "overhead/study-1.json").read_text())
    for row in report["rows"]:
        assert f"<strong>{row['ratio']:.3f}</strong>" in page
        assert f"{row['ratio_min']:.3f}–{row['ratio_max']:.3f}" in page
    for chart in ("study-1.ratio.svg", "study-1.cpu.svg"):
        svg = (site / "overhead" / chart).read_text()
        assert f'src="{chart}"' in page
        assert svg.lstrip().startswith("<?xml") and "<svg" in svg and "dc:date" not in svg
    assert 'id="tu-table"' not in page
    tus = (site / "overhead/study-2.html").read_text()
    top = json.loads((site / "overhead/study-2.json").read_text())["top_tus"]
    assert top and all(f"<code>{escape(t['tu'])}</code>" in tus for t in top)
    assert 'id="tu-table"' in tus and 'id="attribution-table"' not in tus
    home = (site / "index.html").read_text()
    assert 'href="overhead/study-1.html"' in home and 'href="overhead/study-2.html"' in home


def test_every_history_equals_the_query(site, site_db):
    """The site computes all histories in one pass; each must be what ``flags history``
    answers, for aliases, level options, negative forms and clang groups alike."""
    conn = connect(site_db)
    names = json.loads((site / "data/names.json").read_text())
    picked = [n for n in names if n[0] in ("-Wformat", "-Wformat=", "-Wall", "-Wextra", "-Wshadow",
                                           "-Wunused-parameter", "-Waligned-new=", "-Wmost",
                                           "-Wimplicit-fallthrough", "-Wno-alloc-size-larger-than")]
    picked += names[::97]
    assert len(picked) > 15
    for name, slug in picked:
        on_page = json.loads((site / "flags" / f"{slug}.json").read_text())
        assert on_page == plain(compare.history(conn, name)), name


def test_flag_pages_show_levels_messages_and_everything(site, site_db):
    """The details ``flags show`` / ``flags messages`` / ``flags everything`` give, on the pages."""
    conn = connect(site_db)
    gcc12, clang16 = store.load(conn, "gcc-12"), store.load(conn, "clang-16")
    page = (site / "flags/wformat_eq.html").read_text()
    levels = page[page.index('id="levels-table"'):]
    row2 = levels[levels.index("<code>-Wformat=2</code>"):levels.index("</tr>", levels.index("<code>-Wformat=2</code>"))]
    for on in views.show(gcc12, "-Wformat=2").turns_on:
        assert f">{on.typed}<" in row2, on.typed
    assert ">-Wformat-security<" in row2 and ">-Wformat-security<" not in \
        levels[levels.index("<code>-Wformat=1</code>"):levels.index("<code>-Wformat=2</code>")]
    assert "&lt;0,2&gt;" in page                                   # the argument, escaped
    shown = views.show(clang16, "-Wformat").messages
    assert len(shown) > 10
    page = (site / "flags/wformat.html").read_text()
    table = page[page.index('id="messages-table"'):]
    for m in shown:
        assert f"<code>{m.diag}</code>" in table and escape(m.text) in table, m.diag
    assert "clang-16" in table and "gcc-12" not in table
    assert 'id="messages-table"' not in (site / "flags/wformat-overflow_eq.html").read_text()  # GCC only
    assert json.loads((site / "compilers/gcc-12.everything.json").read_text()) == \
        views.everything(gcc12, None)
    tree = json.loads((site / "compilers/clang-16.everything.json").read_text())
    tops = {c["name"] for c in tree["children"]}
    assert tree["name"] == "-Weverything" and {"-WCL4", "-Wpedantic"} <= tops
    # -Wall is under -WCL4, -Wformat under -Wmost; remarks are not warnings
    assert not {"-Wall", "-Wformat"} & tops and not any(n.startswith("-R") for n in tops)


def test_cross_family_diffs_grow_with_the_sum_of_versions():
    """Every GCC against the newest clang, the newest GCC against every clang."""
    from types import SimpleNamespace as V

    views = [V(family="gcc", name=f"gcc-{n}") for n in (9, 10, 11, 12, 13, 14)] + \
        [V(family="clang", name=f"clang-{n}") for n in range(10, 20)]
    pairs = flags.diff_pairs(views)
    cross = [(a, b) for a, b in pairs if a[0] != b[0]]
    assert len(pairs) == 5 + 9 + len(cross) and len(cross) == 6 + 10 - 1
    assert ("gcc-9", "clang-19") in cross and ("gcc-14", "clang-10") in cross
    assert ("gcc-9", "clang-10") not in cross


def test_slugs_are_unique_and_safe(site):
    names = [n for n, _ in json.loads((site / "data/names.json").read_text())]
    slugs = slug_map(names)
    assert len({s.lower() for s in slugs.values()}) == len(names)  # case-insensitive filesystems too
    assert all(re.fullmatch(r"[a-z0-9._~-]+", s) and not s.startswith(".") for s in slugs.values())
    assert slugs["-Wformat="] != slugs["-Wformat"]
    assert slug_map(["-WX", "-Wx"]) == {"-WX": "wx", "-Wx": f"wx~{__import__('hashlib').sha1(b'-Wx').hexdigest()[:8]}"}
    assert base_slug("-Wa/b\\c:d") == "wa_2fb_5cc_3ad"


def test_every_relative_link_resolves(site, page_links):
    """Crawl every page: each href/src is relative and names a file of the site
    (and an anchor that exists); nothing points outside."""
    parsed = {page: page_links(page) for page in html_files(site)}
    checked = 0
    for page, p in parsed.items():
        for ref in p.refs:
            if ref == "data:,":  # the empty favicon: no request at all
                continue
            parts = urlsplit(ref)
            assert not parts.scheme and not parts.netloc and not ref.startswith("/"), (page, ref)
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            assert target.is_file(), (page, ref)
            assert site.resolve() in target.parents, (page, ref)
            if parts.fragment and target.suffix == ".html":
                assert parts.fragment in parsed[target].ids, (page, ref)
            checked += 1
    assert checked > 10_000


def test_rebuild_writes_only_what_changed(site_db, tmp_path):
    db = tmp_path / "copy.db"
    shutil.copy(site_db, db)
    out = tmp_path / "site"
    first = builder.build(connect(db), out)
    assert first.stats.unchanged == 0 and len(first.stats.written) > 2000
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    again = builder.build(connect(db), out)
    assert again.stats.written == [] and again.stats.removed == []
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*")} == before
    conn = sqlite3.connect(db)
    conn.execute("UPDATE flag SET description = 'Warn about shadowing, reworded.' WHERE name = "
                 "'-Wshadow' AND compiler_id = (SELECT id FROM compiler WHERE name = 'gcc-12')")
    conn.commit()
    conn.close()
    third = builder.build(connect(db), out)
    written = set(third.stats.written)
    assert {"flags/wshadow.html", "compilers/gcc-12.html",
            "compilers/gcc-12.json", "diffs/gcc-11--gcc-12.html"} <= written
    assert "compilers/gcc-11.html" not in written and "flags/wformat_eq.html" not in written
    assert len(written) < 20


def test_one_process_builds_the_same_site(site, site_db, tmp_path, monkeypatch):
    """Where the builder cannot fork a worker (one core), it renders every section
    itself: the same bytes, the same files, the same manifest."""
    monkeypatch.setattr(builder, "_helper", lambda: None)
    out = tmp_path / "site"
    result = builder.build(connect(site_db), out)
    files = sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(site) for p in site.rglob("*") if p.is_file())
    assert all((out / rel).read_bytes() == (site / rel).read_bytes() for rel in files)
    assert len(result.stats.written) == len(files) - 1  # all but the manifest


def _worker_killed(_job: None = None) -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_dead_worker_is_one_error(site_db, tmp_path, monkeypatch):
    """The forked worker killed (the OOM killer, say): one error, not a traceback."""
    if cores() < 2:
        pytest.skip("one core: the builder forks no worker")
    monkeypatch.setattr(builder, "_sections_in_worker", _worker_killed)
    with pytest.raises(WarnscopeError, match="worker process died"):
        builder.build(connect(site_db), tmp_path / "site")


def _worker_hangs(_job: None = None) -> None:
    Path(os.environ["WARNSCOPE_TEST_WORKER_PID"]).write_text(f"{os.getpid()}\n")
    time.sleep(600)


def test_a_failed_build_stops_its_worker_at_once(site_db, tmp_path, monkeypatch):
    """A section of the builder's own fails (or Ctrl-C) while the worker renders: the
    error comes out at once and the worker is gone, not waited for."""
    if cores() < 2:
        pytest.skip("one core: the builder forks no worker")
    pid_file = tmp_path / "worker.pid"
    monkeypatch.setenv("WARNSCOPE_TEST_WORKER_PID", str(pid_file))
    monkeypatch.setattr(builder, "_sections_in_worker", _worker_hangs)

    def fails(_b) -> None:
        deadline = time.monotonic() + 60
        while not pid_file.is_file() and time.monotonic() < deadline:
            time.sleep(0.05)
        raise WarnscopeError("a section failed")

    monkeypatch.setattr(builder, "SECTIONS", (fails,))
    start = time.monotonic()
    with pytest.raises(WarnscopeError, match="a section failed"):
        builder.build(connect(site_db), tmp_path / "site")
    assert time.monotonic() - start < 60
    worker = int(pid_file.read_text())
    assert not Path(f"/proc/{worker}").exists()


def test_a_dropped_compiler_drops_its_pages(site_db, tmp_path):
    db = tmp_path / "copy.db"
    shutil.copy(site_db, db)
    out = tmp_path / "site"
    builder.build(connect(db), out)
    (out / "mine.txt").write_text("not the site's")
    conn = connect(db)
    conn.execute("DELETE FROM compiler WHERE name = 'clang-16'")
    result = builder.build(conn, out)
    assert "compilers/clang-16.html" in result.stats.removed
    assert not (out / "diffs/gcc-12--clang-16.html").exists()
    assert (out / "mine.txt").read_text() == "not the site's"


def test_cli(site_db, tmp_path, capsys, dump):
    out = tmp_path / "site"
    assert main(["--db", str(site_db), "site", "build", "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "pages" in text and (out / "index.html").as_uri() in text
    missing = tmp_path / "none.db"
    assert main(["--db", str(missing), "site", "build", "-o", str(tmp_path / "x")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("warnscope: error:") and len(err.strip().splitlines()) == 1
    assert not missing.exists()
    afile = tmp_path / "file"
    afile.write_text("")
    before = dump(site_db)
    for bad in (afile, afile / "below"):
        assert main(["--db", str(site_db), "site", "build", "-o", str(bad)]) == 1
        err = capsys.readouterr().err
        assert err.startswith("warnscope: error:") and len(err.strip().splitlines()) == 1
    assert dump(site_db) == before


# ------------------------------------------------------------------ in Chromium

@pytest.fixture(scope="module")
def browser(chromium, site):
    """The site's pages in the module's chromium: ``open(rel, width=)``, ``errors``,
    ``outside`` (requests that left the site)."""
    return chromium.site(site)


def _ub_pages(site: Path) -> list[str]:
    matrix = sorted(p for p in (site / "ub").glob("*.html") if p.name != "index.html")
    cases = sorted((site / "ub").glob("*/*.html"))
    return [p.relative_to(site).as_posix() for p in matrix[:1] + cases[:1]]


MAIN_PAGES = ["index.html", "compilers/gcc-12.html", "compilers/clang-16.html", "flags/index.html",
              "compilers/gcc-12.everything.html", "compilers/clang-16.everything.html", "flags/wformat.html",
              "flags/wformat_eq.html", "flags/wshadow.html", "diffs/index.html",
              "diffs/gcc-11--gcc-12.html", "diffs/gcc-12--clang-16.html", "ub/index.html"]


def _overhead_pages(site: Path) -> list[str]:
    return [rel for rel in ("overhead/index.html", "overhead/study-1.html", "overhead/study-2.html")
            if (site / rel).is_file()]


def test_pages_load_clean_and_stay_inside(browser, site, tmp_path_factory):
    shots = tmp_path_factory.mktemp("screenshots")
    for rel in MAIN_PAGES + _ub_pages(site) + _overhead_pages(site):
        page = browser.open(rel)
        assert page.title().endswith("warnscope"), rel
        page.screenshot(path=str(shots / (rel.replace("/", "_") + ".png")), full_page=False)
        page.close()
    assert browser.errors == []
    assert browser.outside == []
    print(f"screenshots in {shots}")


def test_filter_box_filters(browser):
    page = browser.open("compilers/gcc-12.html")
    rows = page.locator("#flag-table tbody tr")
    total = rows.count()
    page.fill("#filter", "shadow")
    visible = page.locator("#flag-table tbody tr:visible")
    assert 0 < visible.count() < total / 10
    assert all("shadow" in t.lower() for t in visible.all_inner_texts())
    assert "-Wshadow" in visible.all_inner_texts()[0] or any(
        t.startswith("-Wshadow") for t in visible.all_inner_texts())
    page.fill("#filter", "")
    assert page.locator("#flag-table tbody tr:visible").count() == total
    page.close()
    page = browser.open("diffs/gcc-11--gcc-12.html")  # the filter covers every list of a diff
    page.fill("#filter", "dangling")
    shown = page.locator("ul.diff li:visible").all_inner_texts()
    assert shown and all("dangling" in t.lower() for t in shown)
    assert page.locator("ul.diff li").count() > len(shown)
    page.close()


def test_search_finds_a_flag_and_its_history(browser):
    page = browser.open("index.html")
    page.fill("#search", "Wunused-para")
    link = page.locator("#search-results a", has_text="-Wunused-parameter").first
    link.click()
    page.wait_for_load_state("load")
    assert page.url.endswith("flags/wunused-parameter.html")
    assert page.locator("h1").inner_text() == "-Wunused-parameter"
    rows = page.locator("#history tbody tr")
    assert rows.count() == 3  # gcc-11, gcc-12, clang-16
    gcc12 = rows.nth(1).inner_text()
    assert "gcc-12" in gcc12 and "12." in gcc12
    page.close()
    assert browser.errors == []


def test_flag_page_shows_clang_messages(browser):
    page = browser.open("flags/wformat.html")
    rows = page.locator("#messages-table tbody tr")
    assert rows.count() > 10
    texts = rows.all_inner_texts()
    assert any("format string is not null-terminated" in t for t in texts)
    assert all("clang-16" in t for t in texts)
    assert page.locator("#history tbody tr").count() == 3
    page.close()
    page = browser.open("flags/wformat_eq.html")
    level2 = page.locator("#levels-table tr", has_text="-Wformat=2").inner_text()
    assert "-Wformat-security" in level2 and "gcc-12" in level2
    page.close()
    assert browser.errors == []


def test_everything_tree_filters(browser):
    page = browser.open("compilers/clang-16.everything.html")
    assert page.locator("#everything li").count() > 800
    page.fill("#filter", "-Wshadow-field")
    shown = page.locator("#everything li:visible").all_inner_texts()
    assert shown and all("-Wshadow-field" in t for t in shown)
    page.close()
    assert browser.errors == []


def test_overhead_page_shows_its_charts(browser, site):
    _needs_studies(site)
    page = browser.open("overhead/study-1.html")
    for chart in ("#ratio-chart", "#cpu-chart"):
        # a chart's <img> loads lazily: brought into view, it is waited for before measured
        img = page.locator(f"{chart} img")
        img.scroll_into_view_if_needed()
        img.evaluate("i => i.complete || new Promise(done => i.addEventListener('load', done))")
        assert img.evaluate("i => i.naturalWidth") > 100, chart
    rows = page.locator("#overhead-table tbody tr")
    assert rows.count() == 4 and "1.000" in rows.first.inner_text()
    page.locator("a", has_text="Overhead studies").first.click()
    page.wait_for_load_state("load")
    assert page.url.endswith("overhead/index.html") and page.locator("#studies tbody tr").count() == 2
    page.close()
    page = browser.open("overhead/study-2.html")
    total = page.locator("#tu-table tbody tr").count()
    page.fill("#filter", "clang-16")
    shown = page.locator("#tu-table tbody tr:visible").all_inner_texts()
    assert 0 < len(shown) < total and all("clang-16" in t for t in shown)
    page.close()
    assert browser.errors == []


def page_kinds(site: Path) -> dict[str, str]:
    """One page of each kind this site has (the project pages are test_site_warnings.py's)."""
    ub = _ub_pages(site)
    kinds = {"index": "index.html", "compiler": "compilers/gcc-12.html",
             "everything": "compilers/clang-16.everything.html", "flag": "flags/wformat_eq.html",
             "flags": "flags/index.html", "diffs": "diffs/index.html", "diff": "diffs/gcc-11--gcc-12.html",
             "projects": "projects/index.html", "ub-index": "ub/index.html",
             "overhead-index": "overhead/index.html"}
    if ub:
        kinds["ub-matrix"], kinds["ub-case"] = ub[0], ub[1]
    if (site / "overhead/study-1.html").is_file():
        kinds["overhead-study"] = "overhead/study-1.html"
    return kinds


@pytest.mark.parametrize("width", [1200, 390])
def test_every_page_kind_reads_at_desktop_and_phone_width(browser, site, readable, width):
    """Each kind of page at a desktop's and a phone's width: no console error, nothing
    wider than the screen, wide tables saying they scroll, no cell wrapped a few letters
    a line, numbers under right-aligned headers, times as people write them."""
    problems = {}
    for kind, rel in page_kinds(site).items():
        page = browser.open(rel, width=width)
        found = readable(page, width)
        if found:
            problems[kind] = found
        page.close()
    assert problems == {}
    assert browser.errors == []


def test_no_page_over_a_megabyte(site):
    pages = html_files(site)
    assert pages and max(p.stat().st_size for p in pages) < 1_000_000


def test_the_index_counts_flags_as_flags_versions_does(site, site_db, capsys):
    """One flag count everywhere: the index's C-family count is what ``flags list`` lists
    and ``flags versions`` says, its stored count what ``flags versions`` counts."""
    assert main(["--db", str(site_db), "flags", "versions", "--json"]) == 0
    versions = {v["name"]: v for v in json.loads(capsys.readouterr().out)}
    index = (site / "index.html").read_text()
    for name, v in versions.items():
        listed = json.loads((site / f"compilers/{name}.json").read_text())
        assert len(listed) == v["c_family_flags"] <= v["flags"]
        row = index[index.index(f'href="compilers/{name}.html"'):]
        row = row[:row.index("</tr>")]
        assert f'<td class="num">{v["c_family_flags"]}</td><td class="num">{v["flags"]}</td>' in row
        assert f'<time datetime="{v["ingested_at"]}">' in row
    assert versions["gcc-12"]["c_family_flags"] < versions["gcc-12"]["flags"]  # Fortran, Ada …


def test_a_compiler_page_lists_only_c_family_languages(site):
    page = (site / "compilers/gcc-12.html").read_text()
    table = page[page.index('id="flag-table"'):page.index("</table>")]
    assert "C++ ObjC++" in table
    for other in ("Fortran", "Ada", "Go", "D ", "Common"):
        assert f"<td>{other}" not in table and f" {other}</td>" not in table, other


def test_a_flag_page_shows_what_turns_it_on_and_what_it_turns_on(site, site_db):
    conn = connect(site_db)
    gcc12 = store.load(conn, "gcc-12")
    page = (site / "flags/wunused-parameter.html").read_text()
    edges = page[page.index('id="edges-table"'):]
    edges = edges[:edges.index("</table>")]
    shown = views.show(gcc12, "-Wunused-parameter")
    assert shown.enabled_by and all(f">{r.typed}</a>" in edges for r in shown.enabled_by)
    page = (site / "flags/wformat_eq.html").read_text()
    edges = page[page.index('id="edges-table"'):]
    edges = edges[:edges.index("</table>")]
    shown = views.show(gcc12, "-Wformat=2")
    assert shown.enables and all(f">{r.typed}</a>" in edges for r in shown.enables)
    assert "(from -Wformat=2)" in edges and "(sets -Wformat=1)" in edges


def test_the_ub_pages_legend_and_order(site):
    """The matrix's letters are distinct and none reads as a digit; its legend names
    each, the warning mark and the control tag; a case page shows its source before
    what each configuration did, and a control program's code labels are not findings."""
    from analyzer.ub.results import Outcome

    letters = [o.letter for o in Outcome]
    assert len(set(letters)) == len(letters) and not set(letters) & set("O0Il1")
    ub = _ub_pages(site)
    if not ub:
        pytest.skip("no UB run in the site's database (gcc-12 is needed)")
    matrix = (site / ub[0]).read_text()
    legend = matrix[matrix.index('<ul class="legend"'):]
    legend = legend[:legend.index("</ul>")]
    for o in Outcome:
        assert f'<span class="cell o-{o}">{o.letter}</span> {o}' in legend
    assert "<sup>w</sup></span> a warning fired" in legend and "control" in legend
    for case in sorted((site / "ub").glob("*/*.html")):
        html = case.read_text()
        assert html.index('id="source"') < html.index("What each configuration did"), case
        if "no: a control program" in html:
            assert "not a finding" in html
            assert '<ul>' not in html[html.index("<table class=\"cells\">"):html.index("</table>")]


#: (file name, page kind, viewport width) of the screenshots kept in docs/screenshots/: each
#: kind of page at a desktop's width and at a phone's (the project pages: test_site_warnings.py)
SCREENSHOTS = tuple((f"{kind}{suffix}.png", kind, width)
                    for kind in ("index", "compiler", "everything", "flag", "diffs", "diff", "projects",
                                 "ub-index", "ub-matrix", "ub-case", "overhead-index", "overhead-study")
                    for suffix, width in (("", 1200), ("-phone", 390)))


def test_screenshots(browser, site, tmp_path_factory, take_screenshots):
    """The main pages as a reader sees them, saved for review: into WARNSCOPE_SCREENSHOTS
    if set (``docs/screenshots`` is refreshed that way), else a temporary directory.
    One of each kind of page, at a desktop's width and at a phone's."""
    shots = Path(os.environ.get("WARNSCOPE_SCREENSHOTS") or tmp_path_factory.mktemp("shots"))
    shots.mkdir(parents=True, exist_ok=True)
    taken = take_screenshots(browser.open, page_kinds(site), SCREENSHOTS, shots)
    assert "index.png" in taken and "diff.png" in taken and "index-phone.png" in taken
    print(f"screenshots in {shots}: {', '.join(taken)}")



def test_phone_width_does_not_overflow(browser, site):
    for rel in ("index.html", "compilers/gcc-12.html", "flags/wformat_eq.html", "flags/wformat.html",
                "compilers/clang-16.everything.html", "diffs/gcc-11--gcc-12.html",
                *_overhead_pages(site)):
        page = browser.open(rel, width=390)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, (rel, width)
        page.close()


def test_xss_probe_renders_as_text(chromium, site_db, tmp_path):
    db = tmp_path / "xss.db"
    shutil.copy(site_db, db)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE flag SET description = ? WHERE name = '-Wshadow'", (XSS,))
    conn.commit()
    conn.close()
    out = tmp_path / "site"
    builder.build(connect(db), out)
    b = chromium.site(out)
    for rel in ("flags/wshadow.html", "compilers/gcc-12.html", "diffs/gcc-11--gcc-12.html"):
        page = b.open(rel)
        assert page.evaluate("window.__xss") is None, rel
        page.close()
    page = b.open("flags/wshadow.html")
    assert XSS in page.locator("#history").inner_text()
    assert XSS in page.locator(".lead").inner_text()
    page = b.open("compilers/gcc-12.html")
    page.fill("#filter", "window.__xss")  # the filter reads text, never markup
    assert page.locator("#flag-table tbody tr:visible").count() == 1
    assert page.evaluate("window.__xss") is None
    assert b.errors == []


def _attribution(study: int) -> dict:
    """An ``overhead attribute --json`` result in the shape of the overhead branch's
    ``Attribution`` (the site only renders it; measuring one takes minutes)."""
    iv = lambda m, lo, hi: {"median": m, "low": lo, "high": hi}  # noqa: E731
    return {"id": 7, "project": "zlib", "origin": "x", "compiler": "gcc-12", "compiler_version": "12.2.0",
            "opt": "-O2", "runs": 3, "search_runs": 1, "host": "h", "load_average": [0.5, 0.5, 0.5],
            "tus_from": f"study {study}", "tus": [{"tu": "deflate.c", "off_cpu_s": 0.2, "all_cpu_s": 0.3,
                                                   "added_s": 0.1}],
            "off_s": [0.2, 0.2, 0.21], "all_s": [0.3, 0.31, 0.3], "added_s": iv(0.1, 0.09, 0.11),
            "threshold_s": 0.005, "flags_searched": 60, "probes": 20, "search": [],
            "suspects": [{"flags": ["-Wformat", XSS], "diffuse": True, "alone_s": iv(0.04, 0.03, 0.05),
                          "unique_s": iv(0.03, 0.02, 0.04), "alone_share": 0.4, "warnings_alone": 2,
                          "alone_instructions": None, "unique_instructions": None}],
            "explained_share": 0.4, "off_instructions": None, "all_instructions": None,
            "phases": [{"name": "phase opt and generate", "off_s": 0.1, "all_s": 0.15, "added_s": 0.05}],
            "printing": {"method": "-w", "warnings": 12, "all_s": 0.3, "quiet_s": 0.28, "plain_s": 0.29,
                         "finding_s": iv(0.08, 0.07, 0.09), "printing_s": iv(0.02, 0.01, 0.03),
                         "printing_share": 0.2, "caret_s": iv(0.01, 0.0, 0.02)},
            "machine": "m", "notes": ["a note & more"]}


def test_attribution_renders_on_its_study(site, site_db, tmp_path, monkeypatch):
    """The hook for ``overhead attribute``: a result whose TUs came from study 2 lands on
    that page (flags linked, text escaped) with its JSON beside it; one that measured
    its own TUs on the newest study of its project; none on the others."""
    _needs_studies(site)
    views = overhead.load_studies(connect(site_db))
    assert all(v.attribution == [] for v in views)  # none stored in this database
    own = dict(_attribution(0), id=8, tus_from="measured")
    overhead.attach_attributions(views, [_attribution(2), own])
    by_id = {v.id: v for v in views}
    assert views[0].id == 2  # the newest study of zlib: where its own measurement goes too
    assert by_id[2].attribution == [_attribution(2), own] and by_id[1].attribution == []
    # the whole section, as it reads what ``overhead attribute`` stored
    monkeypatch.setattr(overhead, "attributions", lambda conn: [_attribution(2)])
    ref: list = []
    b = pages.SiteBuild(conn=connect(site_db), writer=pages.SiteWriter(tmp_path), env=builder.environment(ref),
                      slugs={"-Wformat": "wformat"})
    ref.append(b)
    overhead.overhead_pages(b)
    b.writer.close()  # a fresh directory's files are written by the writer's thread
    assert json.loads((tmp_path / "overhead/study-2.attribution.json").read_text()) == [_attribution(2)]
    assert not (tmp_path / "overhead/study-1.attribution.json").exists()
    page = (tmp_path / "overhead/study-2.html").read_text()
    part = page[page.index('id="attribution"'):]
    assert '<a class="flag" href="../flags/wformat.html">-Wformat</a>' in part
    assert str(escape(XSS)) in part and XSS not in page
    assert "+0.040 s (+0.030 … +0.050)" in part and "40.0 %" in part and "diffuse" in part
    assert "phase opt and generate" in part and "a note &amp; more" in part
    assert 'href="#attribution"' in page and 'id="attribution"' not in \
        (tmp_path / "overhead/study-1.html").read_text()


def test_serve_previews_on_loopback(site, tmp_path, one_error, warnscope):
    """``site serve`` answers on 127.0.0.1 with the built files; a directory with no
    site, or a port taken, is one line of error."""
    import subprocess
    import sys
    import urllib.request

    proc = subprocess.Popen([sys.executable, "-c", "import sys; from analyzer.cli import main; sys.exit(main())",
                             "site", "serve", "-d", str(site), "--port", "0"],
                            cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert url, line
        with urllib.request.urlopen(url.group(0) + "flags/wshadow.html", timeout=10) as resp:
            assert resp.read() == (site / "flags/wshadow.html").read_bytes()
        taken = warnscope("site", "serve", "-d", str(site), "--port", url.group(1), timeout=60)
        assert "127.0.0.1:" + url.group(1) in one_error(taken)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "no index.html" in one_error(warnscope("site", "serve", "-d", str(empty), timeout=60))
