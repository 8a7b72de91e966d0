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


def test_a_rebuild_removes_what_it_dropped_and_nothing_else(tmp_path: Path):
    out = tmp_path / "site"
    first = SiteWriter(out)
    first.write("keep.html", "k")
    first.write("deep/gone.html", "g")
    first.finish()
    (out / "mine.txt").write_text("not the site's")
    again = SiteWriter(out)
    again.write("keep.html", "k")
    stats = again.finish()
    assert stats.removed == ["deep/gone.html"] and stats.skipped == []
    assert not (out / "deep/gone.html").exists() and (out / "mine.txt").exists()
    assert (out / MANIFEST).read_text() == "keep.html\n"


def test_manifest_entries_outside_the_site_are_left_alone(tmp_path: Path):
    """An absolute path, ``..``, a path through a link to a directory outside, a link to
    a file outside, a directory: each is reported, none is followed or removed."""
    out, outside = tmp_path / "site", tmp_path / "outside"
    outside.mkdir()
    for name in ("abs.html", "x.html", "target.html"):
        (outside / name).write_text("outside")
    out.mkdir()
    (out / "sub").symlink_to(outside, target_is_directory=True)
    (out / "link.html").symlink_to(outside / "target.html")
    (out / "adir").mkdir()
    hostile = [str(outside / "abs.html"), "../outside/x.html", "sub/x.html", "link.html", "adir",
               "a//b", "./x.html", "sub/../x.html"]
    (out / MANIFEST).write_text("\n".join(hostile) + "\n")
    writer = SiteWriter(out)
    writer.write("index.html", "i")
    stats = writer.finish()
    assert stats.removed == []
    assert len(stats.skipped) == len(hostile)
    for entry, line in zip(hostile, stats.skipped):
        assert f"entry '{entry}' not removed" in line
    assert all((outside / n).read_text() == "outside" for n in ("abs.html", "x.html", "target.html"))
    assert (out / "link.html").is_symlink() and (out / "adir").is_dir()
    assert (out / MANIFEST).read_text() == "index.html\n"


def test_a_manifest_that_is_a_link_is_not_read(tmp_path: Path):
    out, elsewhere = tmp_path / "site", tmp_path / "list"
    out.mkdir()
    (out / "victim.html").write_text("v")
    elsewhere.write_text("victim.html\n")
    (out / MANIFEST).symlink_to(elsewhere)
    writer = SiteWriter(out)
    writer.write("index.html", "i")
    stats = writer.finish()
    assert stats.removed == [] and "not read: a symbolic link" in stats.skipped[0]
    assert (out / "victim.html").exists() and elsewhere.read_text() == "victim.html\n"
    assert not (out / MANIFEST).is_symlink() and (out / MANIFEST).read_text() == "index.html\n"


def test_the_builder_and_its_worker_share_a_section_with_nothing_left_or_twice(tmp_path: Path):
    """A section both processes render (the UB cases' pages): each item is rendered by
    exactly one of them, whatever the count, and each gets items from all through the list."""
    from analyzer.site.builder import BUILDER_SHARE, WORKER_SHARE
    from analyzer.site.pages import SiteBuild

    for n in (0, 1, 2, 3, 7, 225):
        items = list(range(n))
        parts = []
        for share in (BUILDER_SHARE, WORKER_SHARE):
            b = SiteBuild(conn=None, writer=None, env=None, share=share)
            parts.append(b.mine(items))
        assert sorted(parts[0] + parts[1]) == items
        assert not set(parts[0]) & set(parts[1])
    builder_part, worker_part = parts
    assert builder_part[-1] > 200 and worker_part[-1] > 200      # interleaved, not halves
    assert SiteBuild(conn=None, writer=None, env=None).mine(items) == items  # one process: all
