"""The site's warnings pages from a real database: gcc-11, gcc-12 and clang-16 ingested
from Debian's packages, the fixture project tests/fixtures/warnings/upgrade built by
gcc-11, gcc-12, clang-14 (not ingested) and clang-16, and one diagnostic of an option
no flag database knows (its message hostile). Checked on disk against the CLI's answers
and in Debian's Chromium: the project page, the upgrade (diff) pages, the examples and
the flag pages' "fires on real code", linked to one another.
"""
from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from analyzer.cli import main
from analyzer.site import builder
from warnscope.database import connect

UPGRADE = Path(__file__).resolve().parents[1] / "fixtures" / "warnings" / "upgrade"
LEVEL = ("--flag-set", "upgrade=wextra -Wstrict-prototypes", "--level", "upgrade")
HOST = ("gcc-11", "gcc-12", "clang-14", "clang-16")
PROJECT = "local:upgrade"
SLUG = "local_3aupgrade"
XSS = "<script>window.__xss=1</script>"
UNKNOWN = "-Wnot-an-option-anywhere"

pytestmark = pytest.mark.skipif(not all(shutil.which(c) for c in HOST),
                                reason="needs gcc-11, gcc-12, clang-14 and clang-16")


def _json(db: Path, capsys, *args: str):
    assert main(["--db", str(db), *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture(scope="module")
def wn_db(gcc_clang_db, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("site-warnings") / "w.db"
    shutil.copy(gcc_clang_db, path)
    assert main(["--db", str(path), "warnings", "run", "--source", str(UPGRADE), "--build", "make",
                 "--compilers", ",".join(HOST), *LEVEL, "--quiet"]) == 0
    raw = sqlite3.connect(path)  # a diagnostic of an option gcc-12's flag data does not know
    raw.execute("INSERT INTO wn_diag (build_id, option, severity, file, line, col, message, printed) "
                "SELECT id, ?, 'warning', 'gcc_changes.c', 1, 1, ?, 1 FROM wn_build WHERE compiler = 'gcc-12'",
                (UNKNOWN, XSS))
    raw.commit()
    raw.close()
    return path


@pytest.fixture(scope="module")
def site(wn_db, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site-warnings-out") / "site"
    builder.build(connect(wn_db), out)
    return out


# ------------------------------------------------------------------ on disk

def test_pages_hold_the_cli_answers(site, wn_db, capsys):
    """The JSON beside the project, diff and flag pages is what the CLI prints."""
    report = _json(wn_db, capsys, "warnings", "report", "--project", PROJECT)
    assert json.loads((site / f"projects/{SLUG}.json").read_text()) == report
    assert [b["compiler"] for b in report["builds"]] and len(report["builds"]) == 4
    for old, new in (("gcc-11", "gcc-12"), ("clang-14", "clang-16")):
        diff = _json(wn_db, capsys, "warnings", "diff", old, new, "--project", PROJECT, "--level", "upgrade")
        assert json.loads((site / f"projects/{SLUG}/{old}--{new}.upgrade.json").read_text()) == diff
    history = _json(wn_db, capsys, "flags", "history", "-Wunused-variable")
    assert json.loads((site / "flags/wunused-variable.json").read_text()) == history
    assert [(e["compiler"], [(f["project"], f["diagnostics"], f["printed"]) for f in e["real_code"]])
            for e in history] == [(c, [(PROJECT, 1, 2)]) for c in ("gcc-11", "gcc-12", "clang-16")]


def test_flags_show_json_carries_the_section(wn_db, capsys):
    show = _json(wn_db, capsys, "flags", "show", "-Wuse-after-free", "-c", "gcc-12")
    count = sqlite3.connect(wn_db).execute(
        "SELECT count(*) FROM wn_diag d JOIN wn_build b ON b.id = d.build_id "
        "WHERE b.compiler = 'gcc-12' AND d.option = '-Wuse-after-free'").fetchone()[0]
    assert count == 1
    assert [(f["project"], f["level"], f["diagnostics"], f["files"], f["options"]) for f in show["real_code"]] \
        == [(PROJECT, "upgrade", count, 1, ["-Wuse-after-free"])]
    # a GCC level option: -Wdangling-pointer as typed is -Wdangling-pointer= as GCC prints it
    dangling = _json(wn_db, capsys, "flags", "show", "-Wdangling-pointer", "-c", "gcc-12")
    assert [f["options"] for f in dangling["real_code"]] == [["-Wdangling-pointer="]]
    assert _json(wn_db, capsys, "flags", "show", "-Wshadow", "-c", "gcc-11")["real_code"] == []
    assert main(["--db", str(wn_db), "flags", "show", "-Wuse-after-free", "-c", "gcc-12"]) == 0
    text = capsys.readouterr().out
    assert "fires on real code (gcc-12's stored warnings builds):" in text
    assert "local:upgrade at upgrade: 1 diagnostics in 1 files (1 printed) as -Wuse-after-free; examples: " \
           "warnscope warnings show -Wuse-after-free --project local:upgrade" in text


def test_project_links_resolve(site, page_links):
    """Every link of the project pages and of the flag pages' sections names a page of
    the site and an anchor on it."""
    pages = sorted((site / "projects").rglob("*.html")) + [site / "flags/wunused-variable.html",
                                                            site / "flags/wuse-after-free.html"]
    links = page_links

    checked = 0
    for page in pages:
        for ref in links(page).refs:
            parts = urlsplit(ref)
            if ref == "data:," or not parts.path:
                continue
            target = (page.parent / unquote(parts.path)).resolve()
            assert target.is_file() and site.resolve() in target.parents, (page, ref)
            if parts.fragment and target.suffix == ".html":
                assert parts.fragment in links(target).ids, (page, ref)
            checked += 1
    assert checked > 100


# ------------------------------------------------------------------ in Chromium

@pytest.fixture(scope="module")
def browser(chromium, site):
    pages = chromium.site(site)
    yield pages.open
    assert pages.errors == [] and pages.outside == []


def test_from_the_index_to_the_project_and_its_upgrade(browser, wn_db, capsys):
    page = browser("index.html")
    page.locator("#projects + ul a", has_text=PROJECT).click()
    page.wait_for_load_state("load")
    assert page.url.endswith(f"projects/{SLUG}.html")
    assert page.locator("h1").inner_text() == PROJECT
    report = _json(wn_db, capsys, "warnings", "report", "--project", PROJECT)
    rows = page.locator("#builds-table tbody tr")
    assert rows.count() == 4
    for i, b in enumerate(report["builds"]):
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert cells[0] == b["compiler"] and cells[2] == "upgrade"
        assert int(cells[5]) == b["diagnostics"] and int(cells[6]) == b["printed"]
    # each build's options with their counts; the unknown option marked, its text inert
    gcc12 = page.locator("section#gcc-12\\.upgrade")
    by = {r.locator("td").first.inner_text(): r.locator("td").nth(1).inner_text()
          for r in gcc12.locator("table.by-option tbody tr").all()}
    expected = next(b for b in report["builds"] if b["compiler"] == "gcc-12")["by_option"]
    assert {o["option"] or "(no option)" for o in expected} == {k.replace(" not in the flag database", "") for k in by}
    assert by[f"{UNKNOWN} not in the flag database"] == "1"
    assert by["-Wuse-after-free"] == "1"
    assert page.evaluate("window.__xss") is None
    assert "not in the flag database" in page.locator("section#clang-14\\.upgrade").inner_text()
    upgrades = page.locator("#upgrades-table tbody tr").all_inner_texts()
    assert len(upgrades) == 2 and "gcc-11 → gcc-12" in upgrades[0] and "clang-14 → clang-16" in upgrades[1]
    page.locator("#upgrades-table a", has_text="gcc-11 → gcc-12").click()
    page.wait_for_load_state("load")
    assert page.url.endswith(f"projects/{SLUG}/gcc-11--gcc-12.upgrade.html")
    diff = _json(wn_db, capsys, "warnings", "diff", "gcc-11", "gcc-12", "--project", PROJECT, "--level", "upgrade")
    assert page.locator(".lead").inner_text() == (f"{diff['added']} added, {diff['removed']} removed, "
                                                  f"{diff['changed']} reworded, {diff['unchanged']} unchanged.")
    added = page.locator("ul.diff li.added").all_inner_texts()
    assert len(added) == diff["added"] == 3
    assert any("gcc_changes.c:10" in t and "used after" in t for t in added)
    assert any("gcc_changes.c:15" in t and "dangling pointer" in t for t in added)
    assert any(XSS in t for t in added) and page.evaluate("window.__xss") is None
    page.fill("#filter", "dangling")
    assert page.locator("ul.diff li:visible").count() == 1
    page.close()
    page = browser(f"projects/{SLUG}/clang-14--clang-16.upgrade.html")
    changed = page.locator("ul.diff li.changed").all_inner_texts()
    assert len(changed) == 2 and any("was: this function declaration is not a prototype" in t for t in changed)
    page.close()


def test_a_flag_page_fires_on_real_code_with_its_examples(browser):
    page = browser("flags/wunused-variable.html")
    rows = page.locator("#real-code-table tbody tr")
    texts = rows.all_inner_texts()
    assert [t.split("\t")[0].split()[0] for t in texts] == ["gcc-11", "gcc-12", "clang-16", "clang-14"]
    assert "matched by name" in texts[3] and all(PROJECT in t for t in texts)
    assert all(t.split("\t")[3:6] == ["1", "1", "2"] for t in texts)
    page.close()
    page = browser("flags/wuse-after-free.html")
    rows = page.locator("#real-code-table tbody tr")
    assert rows.count() == 1 and rows.first.inner_text().startswith("gcc-12")
    rows.first.locator("a", has_text="examples").click()
    page.wait_for_load_state("load")
    assert page.url.endswith(f"projects/{SLUG}/gcc-12.upgrade.html#o-wuse-after-free")
    section = page.locator("section#o-wuse-after-free")
    assert "gcc_changes.c:10:12" in section.inner_text() and "used after" in section.inner_text()
    assert section.locator("pre.source").inner_text() == "return *p;"   # read from the project's tree
    assert section.locator("h2 a.flag").get_attribute("href") == "../../flags/wuse-after-free.html"
    page.close()
    page = browser("flags/wdangling-pointer_eq.html")
    assert page.locator("#real-code-table tbody tr").count() == 1
    page.close()


#: one page of each kind of the warnings side
PROJECT_KINDS = {"projects": "projects/index.html", "project": f"projects/{SLUG}.html",
                 "project-build": f"projects/{SLUG}/gcc-12.upgrade.html",
                 "project-diff": f"projects/{SLUG}/gcc-11--gcc-12.upgrade.html"}


@pytest.mark.parametrize("width", [1200, 390])
def test_project_pages_read_at_desktop_and_phone_width(browser, readable, width):
    problems = {}
    for kind, rel in PROJECT_KINDS.items():
        page = browser(rel, width=width)
        found = readable(page, width)
        if found:
            problems[kind] = found
        page.close()
    assert problems == {}


def test_project_screenshots(browser, tmp_path_factory, take_screenshots):
    """The project pages' screenshots beside test_site.py's (WARNSCOPE_SCREENSHOTS)."""
    import os

    shots = Path(os.environ.get("WARNSCOPE_SCREENSHOTS") or tmp_path_factory.mktemp("shots"))
    shots.mkdir(parents=True, exist_ok=True)
    wanted = [(f"{kind}{suffix}.png", kind, width) for kind in ("project", "project-build", "project-diff")
              for suffix, width in (("", 1200), ("-phone", 390))]
    assert len(take_screenshots(lambda rel, width: browser(rel, width=width), PROJECT_KINDS,
                                wanted, shots)) == 6


def test_a_large_upgrade_stays_under_a_megabyte_with_the_rest_in_its_json(wn_db, tmp_path, capsys):
    """Thousands of new diagnostics in one upgrade: the diff page shows the first of each
    option and says how many more its JSON holds; no page passes a megabyte."""
    db = tmp_path / "big.db"
    shutil.copy(wn_db, db)
    raw = sqlite3.connect(db)
    raw.executemany("INSERT INTO wn_diag (build_id, option, severity, file, line, col, message, printed) "
                    "SELECT id, ?, 'warning', ?, ?, 1, ?, 1 FROM wn_build WHERE compiler = 'gcc-12'",
                    [(f"-Wshadow" if n % 3 else "-Wconversion", f"src/file{n % 97}.c", n,
                      f"a long message number {n} " + "x" * 200) for n in range(8000)])
    raw.commit()
    raw.close()
    out = tmp_path / "site"
    builder.build(connect(db), out)
    assert max(p.stat().st_size for p in out.rglob("*.html")) < 1_000_000
    diff = json.loads((out / f"projects/{SLUG}/gcc-11--gcc-12.upgrade.json").read_text())
    assert diff["added"] > 8000
    page = (out / f"projects/{SLUG}/gcc-11--gcc-12.upgrade.html").read_text()
    shadow = next(o for o in diff["by_option"] if o["option"] == "-Wshadow")
    assert f"… and {len(shadow['entries']) - 60} more of -Wshadow in the" in page
    assert 'href="gcc-11--gcc-12.upgrade.json"' in page


def test_phone_width_does_not_overflow(browser):
    for rel in (f"projects/{SLUG}.html", f"projects/{SLUG}/gcc-11--gcc-12.upgrade.html",
                f"projects/{SLUG}/gcc-12.upgrade.html", "flags/wunused-variable.html", "projects/index.html"):
        page = browser(rel, width=390)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, rel
        page.close()
