"""Shared fixtures: a real database with gcc-11 and gcc-12 ingested from Debian's packages.

The first run downloads gcc-N-source (about 80 MB each) into the cache and streams
the option files out; later runs reuse the cache. Nothing here is mocked.
"""
from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from analyzer.cli import main
from flagdb import store
from flagdb.db import connect
from flagdb.ingest import ingest


def dump(path: Path) -> list[str]:
    """The whole database as SQL text, to prove a failed command changed nothing."""
    if not path.exists():
        return []
    conn = sqlite3.connect(path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


class Cli:
    """Runs ``warnscope`` in-process, as the console script does."""

    def __init__(self, db: Path, capsys):
        self.db = db
        self.capsys = capsys

    def __call__(self, *args: str) -> tuple[int, str, str]:
        self.capsys.readouterr()
        code = main(["--db", str(self.db), *args])
        out, err = self.capsys.readouterr()
        return code, out, err


@pytest.fixture(scope="session")
def gcc_db(tmp_path_factory) -> Path:
    """A database holding the real gcc-11 and gcc-12 option data."""
    path = tmp_path_factory.mktemp("db") / "gcc.db"
    conn = connect(path)
    for compiler in ("gcc-11", "gcc-12"):
        ingest(conn, compiler)
    conn.close()
    return path


@pytest.fixture
def gcc_db_copy(gcc_db, tmp_path) -> Path:
    """A private copy for tests that write."""
    path = tmp_path / "copy.db"
    shutil.copy(gcc_db, path)
    return path


@pytest.fixture(scope="session")
def gcc12(gcc_db):
    return store.load(connect(gcc_db), "gcc-12")


@pytest.fixture(scope="session")
def gcc11(gcc_db):
    return store.load(connect(gcc_db), "gcc-11")


@pytest.fixture
def cli(gcc_db, capsys) -> Cli:
    return Cli(gcc_db, capsys)


def require(binary: str) -> None:
    if shutil.which(binary) is None:
        pytest.skip(f"{binary} is not installed")
