"""Bad clang input gives one clear error and leaves the database as it was.

Real files from the packages, damaged the ways files get damaged: cut short, of a
layout we do not know, a package that does not exist, a corrupt download.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from flagdb import store
from warnscope import apt
from flagdb.clang_ingest import fetch_package, load_clang
from warnscope.database import connect
from warnscope.errors import ParseError, WarnscopeError


@pytest.fixture
def db(tmp_path, real_data):
    """A database already holding clang-16, and a snapshot of its content."""
    conn = connect(tmp_path / "w.db")
    store.save(conn, real_data(16))
    return conn


def dump(conn) -> list[str]:
    return list(conn.iterdump())


def ingest_fails(conn, compiler: str, source: str | None = None) -> WarnscopeError:
    """Run ingest+save the way the CLI does; it must fail and change nothing."""
    before = dump(conn)
    with pytest.raises(WarnscopeError) as info:
        store.save(conn, load_clang(compiler, source))
    assert dump(conn) == before
    message = str(info.value)
    assert message and "\n" not in message
    return info.value


def real_copy(tmp_path: Path, major: int) -> Path:
    src, _ = fetch_package(major)
    dest = tmp_path / f"inc{major}"
    shutil.copytree(src, dest)
    return dest


@pytest.mark.parametrize("major", (13, 16, 22))
def test_truncated_groups_file(tmp_path, db, major):
    d = real_copy(tmp_path, major)
    path = d / "DiagnosticGroups.inc"
    text = path.read_text()
    path.write_text(text[: len(text) * 3 // 4])
    err = ingest_fails(db, f"clang-{major}", str(d))
    assert isinstance(err, ParseError) and err.path == str(path) and err.line
    assert str(err).startswith(f"{path}:{err.line}: ")


@pytest.mark.parametrize("cut", (0.05, 0.3, 0.5, 0.9))
def test_truncated_groups_file_anywhere(tmp_path, db, cut):
    d = real_copy(tmp_path, 19)
    path = d / "DiagnosticGroups.inc"
    text = path.read_text()
    path.write_text(text[: int(len(text) * cut)])
    err = ingest_fails(db, "clang-19", str(d))
    assert isinstance(err, ParseError) and err.path == str(path) and err.line


def test_truncated_kinds_file(tmp_path, db):
    d = real_copy(tmp_path, 14)
    path = d / "DiagnosticSemaKinds.inc"
    text = path.read_text()
    path.write_text(text[: len(text) // 2])
    err = ingest_fails(db, "clang-14", str(d))
    assert isinstance(err, ParseError) and err.path == str(path)
    assert err.line == len(path.read_text().splitlines())


def test_unknown_layout(tmp_path, db):
    d = real_copy(tmp_path, 16)
    path = d / "DiagnosticGroups.inc"
    path.write_text(path.read_text().replace("DIAG_ENTRY(", "DIAG_GROUP("))
    err = ingest_fails(db, "clang-16", str(d))
    assert isinstance(err, ParseError) and "unknown layout" in str(err)


def test_version_without_a_package(db):
    err = ingest_fails(db, "clang-10")
    assert "libclang-10-dev" in str(err) and "bullseye, bookworm, trixie, sid" in str(err)


def test_not_a_directory(db, tmp_path):
    ingest_fails(db, "clang-16", str(tmp_path / "missing"))


def _planted_deb(tmp_path: Path, monkeypatch, content: bytes, seeded_cache) -> Path:
    """Put ``content`` in an empty cache where libclang-16-dev's .deb belongs."""
    version = apt.archive().best("libclang-16-dev").version.replace(":", "%3a")
    monkeypatch.setenv("WARNSCOPE_CACHE", str(seeded_cache(tmp_path / "cache")))
    deb = tmp_path / "cache" / "debs" / f"libclang-16-dev_{version}_amd64.deb"
    deb.parent.mkdir(parents=True)
    deb.write_bytes(content)
    return deb


def test_corrupt_download(tmp_path, db, monkeypatch, seeded_cache):
    deb = _planted_deb(tmp_path, monkeypatch, b"<html>503 Service Unavailable</html>\n", seeded_cache)
    err = ingest_fails(db, "clang-16")
    assert str(deb) in str(err) and "not a Debian package" in str(err)
    assert not [p for p in (tmp_path / "cache" / "clang").iterdir() if p.suffix != ".lock"]   # nothing half-extracted left


def test_truncated_download(tmp_path, db, monkeypatch, seeded_cache):
    real = apt.archive().fetch(apt.archive().best("libclang-16-dev"))
    with open(real, "rb") as fh:
        head = fh.read(2_000_000)
    deb = _planted_deb(tmp_path, monkeypatch, head, seeded_cache)
    err = ingest_fails(db, "clang-16")
    assert str(deb) in str(err) and "corrupt" in str(err) and "delete it" in str(err)
    assert not [p for p in (tmp_path / "cache" / "clang").iterdir() if p.suffix != ".lock"]
