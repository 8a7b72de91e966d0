"""A GCC's flags for the ``all`` level: only a compiler missing from the database is
fetched and ingested; a busy or damaged database is reported as such."""
from __future__ import annotations

import sqlite3

import pytest

import flagdb.ingest
from analyzer.projects import levels
from flagdb import store
from warnscope.database import connect, transaction
from warnscope.errors import CorruptDatabase, DatabaseBusy, NotIngested


@pytest.fixture
def db(tmp_path, monkeypatch):
    """An empty warnscope database (schema, no compiler) and an ingest that must not run."""
    monkeypatch.setenv("WARNSCOPE_DB_TIMEOUT", "0")

    def no_download(conn, name, *args, **kwargs):
        raise AssertionError(f"{name} was downloaded and ingested")

    monkeypatch.setattr(flagdb.ingest, "ingest", no_download)
    path = tmp_path / "w.db"
    conn = connect(path)
    with transaction(conn):
        pass  # the schema
    yield path, conn
    conn.close()


def test_a_compiler_not_in_the_database_is_not_ingested(db):
    _path, conn = db
    with pytest.raises(NotIngested, match="'gcc-12' is not in the database"):
        store.load(conn, "gcc-12")
    with pytest.raises(AssertionError, match="downloaded"):  # the one case that fetches
        levels.gcc_data(conn, "gcc-12")


def test_a_busy_database_is_reported_not_downloaded(db):
    path, conn = db
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(DatabaseBusy, match="database is busy"):
            levels.gcc_data(conn, "gcc-12")
    finally:
        other.execute("ROLLBACK")
        other.close()


def test_a_damaged_database_is_reported_not_downloaded(db):
    path, conn = db
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("PRAGMA foreign_keys = OFF")
    other.execute("DROP TABLE compiler")
    other.close()
    with pytest.raises(CorruptDatabase, match="no such table: compiler"):
        levels.gcc_data(conn, "gcc-12")
