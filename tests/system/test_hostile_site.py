"""The report site from hostile names and a hostile output directory.

* Case ids that meet once ``/`` is spelled ``--`` (``a/b--c`` and ``a--b/c``) still get
  a page each, every page holding its own case.
* A manifest of a previous build names only what the site may remove: an absolute
  path, ``../outside``, a path through a symbolic link to a directory outside the site
  and a link to a file outside are left alone, each with one warning line, and nothing
  outside the site is touched.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from analyzer.site.output import MANIFEST

IDS = ("a/b--c", "a--b/c")
PROGRAM = '#include <stdio.h>\nint main(void) { puts("%s"); return 0; }\n'

pytestmark = pytest.mark.skipif(shutil.which("gcc-12") is None, reason="needs gcc-12")


@pytest.fixture(scope="module")
def colliding_db(tmp_path_factory) -> Path:
    """A UB run of two programs whose ids meet under ``path_slug``: gcc-12, -O0 only."""
    from analyzer.cli import main

    tmp = tmp_path_factory.mktemp("collide")
    for case in IDS:
        source = tmp / "corpus" / f"{case}.c"
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text(PROGRAM % case)
    db = tmp / "ub.db"
    assert main(["--db", str(db), "ub", "run", "--corpus", str(tmp / "corpus"), "--compilers", "gcc-12",
                 "--levels", "O0", "--no-warnings", "--no-sanitizers", "--json"]) == 0
    return db


def case_pages(site: Path) -> dict[str, str]:
    """Case id (from the page's heading) -> the page's path under the site."""
    pages = {}
    for page in sorted(site.glob("ub/*/*.html")):
        heading = re.search(r"<h1><code>(.*?)</code>", page.read_text())
        assert heading, page
        pages[heading.group(1)] = page.relative_to(site).as_posix()
    return pages


def test_colliding_case_ids_get_a_page_each(colliding_db, cli_at, tmp_path):
    site = tmp_path / "site"
    code, out, err = cli_at(colliding_db)("site", "build", "-o", str(site))
    assert code == 0, err
    pages = case_pages(site)
    assert set(pages) == set(IDS) and len(set(pages.values())) == 2
    stem = pages["a--b/c"].split("/")[1]
    assert pages["a--b/c"] == f"ub/{stem}/a--b--c.html"      # the first in order keeps the plain name
    assert re.fullmatch(rf"ub/{stem}/a--b--c~[0-9a-f]{{8}}\.html", pages["a/b--c"])
    matrix = (site / f"ub/{stem}.html").read_text()
    for case, page in pages.items():
        assert f'href="{page[len("ub/"):]}">{case}</a>' in matrix


def test_the_manifest_removes_only_files_of_the_site(colliding_db, cli_at, tmp_path):
    site, outside = tmp_path / "site", tmp_path / "outside"
    build = cli_at(colliding_db)
    assert build("site", "build", "-o", str(site))[0] == 0
    outside.mkdir()
    for name in ("absolute.html", "x.html", "target.html"):
        (outside / name).write_text("not the site's")
    (tmp_path / "dotdot").write_text("not the site's")
    (site / "sub").symlink_to(outside, target_is_directory=True)
    (site / "link.html").symlink_to(outside / "target.html")
    (site / "stale.html").write_text("the previous build's")
    hostile = [str(outside / "absolute.html"), "../dotdot", "sub/x.html", "link.html", "a//b", "./c"]
    manifest = site / MANIFEST
    manifest.write_text(manifest.read_text() + "\n".join([*hostile, "stale.html"]) + "\n")

    code, out, err = build("site", "build", "-o", str(site))
    assert code == 0, err
    warnings = err.strip().splitlines()
    assert len(warnings) == len(hostile)
    for entry, line in zip(hostile, warnings):
        assert line.startswith("warnscope: warning: ") and f"entry '{entry}' not removed" in line
    assert "symbolic link" in warnings[2] and "not a regular file" in warnings[3]
    assert all((outside / name).read_text() == "not the site's" for name in ("absolute.html", "x.html",
                                                                               "target.html"))
    assert (tmp_path / "dotdot").exists() and (site / "link.html").is_symlink()
    assert not (site / "stale.html").exists()                      # what the site wrote still goes
    assert "1 removed" in out
    assert not any(e in manifest.read_text().split("\n") for e in [*hostile, "stale.html"])


# ------------------------------------------------------------------ invisible characters

#: a project's directory holding a right-to-left override and a zero-width space: on a
#: page as on a terminal, its name must read as what it holds
REORDERED = "evil\u202ec.exe\u200b"


@pytest.fixture(scope="module")
def reordered_db(tmp_path_factory, gcc_db) -> Path:
    """A warnings build of a tree named :data:`REORDERED` whose one file warns."""
    from analyzer.cli import main

    tmp = tmp_path_factory.mktemp("rlo")
    tree = tmp / REORDERED
    tree.mkdir()
    (tree / "a.c").write_text("int f(void) { int unused; return 0; }\n")
    db = tmp / "w.db"
    shutil.copyfile(gcc_db, db)
    assert main(["--db", str(db), "warnings", "run", "--source", str(tree), "--build", "$CC $CFLAGS -c a.c",
                 "--compilers", "gcc-12", "--level", "all", "--quiet"]) == 0
    return db


def test_format_characters_of_a_name_are_written_out_on_every_page(reordered_db, cli_at, tmp_path):
    """The site writes a name's U+202E and U+200B as the terminal shows them (``\\u202e``),
    never as the characters a browser would reorder the name by or draw as nothing."""
    site = tmp_path / "site"
    code, out, err = cli_at(reordered_db)("site", "build", "-o", str(site))
    assert code == 0, err
    pages = {p.relative_to(site).as_posix(): p.read_text() for p in site.rglob("*.html")}
    assert [p for p, text in pages.items() if "\u202e" in text or "\u200b" in text] == []
    shown = "evil\\u202ec.exe\\u200b"
    named = [p for p, text in pages.items() if shown in text]
    assert "index.html" in named and any(p.startswith("projects/") for p in named), named
