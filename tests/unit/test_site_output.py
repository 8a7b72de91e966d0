"""The site writer: a fresh directory gets every file in place (from its writer thread),
an existing build is compared byte for byte, and a file that cannot be created is one
``WarnscopeError`` naming it, never a traceback or a silently missing page."""
from __future__ import annotations

from pathlib import Path

import pytest

from analyzer.site.output import MANIFEST, SiteWriter
from warnscope.errors import WarnscopeError


def test_fresh_directory_writes_every_file(tmp_path: Path):
    out = tmp_path / "site"
    writer = SiteWriter(out)
    assert writer.fresh
    writer.write("index.html", "<p>é</p>\n")
    writer.write("flags/a.json", b"[1]\n")
    writer.write("flags/deep/b.html", "b")
    stats = writer.finish()
    assert stats.written == ["index.html", "flags/a.json", "flags/deep/b.html"]
    assert (out / "index.html").read_text() == "<p>é</p>\n"
    assert (out / "flags/a.json").read_bytes() == b"[1]\n"
    assert (out / "flags/deep/b.html").read_text() == "b"
    assert (out / MANIFEST).read_text() == "flags/a.json\nflags/deep/b.html\nindex.html\n"
    assert sorted(p.name for p in out.rglob("*")) == sorted(
        ["index.html", "flags", "a.json", "deep", "b.html", MANIFEST])  # no temporary left


def test_rebuild_compares_and_keeps_unchanged_files(tmp_path: Path):
    out = tmp_path / "site"
    first = SiteWriter(out)
    first.write("a.html", "same")
    first.write("b.html", "old")
    first.finish()
    again = SiteWriter(out)
    assert not again.fresh
    again.write("a.html", "same")
    again.write("b.html", "new")
    stats = again.finish()
    assert stats.written == ["b.html"] and stats.unchanged == 1
    assert (out / "b.html").read_text() == "new"


def test_a_file_that_cannot_be_created_is_one_error(tmp_path: Path):
    out = tmp_path / "site"
    writer = SiteWriter(out)
    writer.write("a", "a file where a directory is wanted next")
    with pytest.raises(WarnscopeError, match=r"a/b\.html: cannot write"):
        writer.write("a/b.html", "x")
        writer.finish()  # the writer thread's error surfaces here at the latest
    writer.close()
