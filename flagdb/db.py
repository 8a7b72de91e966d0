"""Opening the one SQLite database, with the schema applied and checked.

A file that is not SQLite, or a database from a newer warnscope, is refused with
one clear line; nothing is written to it.
"""
from __future__ import annotations

import datetime as _dt
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from flagdb.errors import WarnscopeError
from flagdb.schema import MIGRATIONS, SCHEMA, SCHEMA_VERSION


def connect(path: str | Path) -> sqlite3.Connection:
    """Open (creating if needed) the database at ``path`` and bring its schema up to date."""
    path = Path(path)
    if path.is_dir():
        raise WarnscopeError(f"{path}: is a directory, not a database file")
    try:
        conn = sqlite3.connect(path, isolation_level=None, timeout=30)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA foreign_keys = ON")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise WarnscopeError(f"{path}: not a warnscope database ({exc})") from None
    if version > SCHEMA_VERSION:
        conn.close()
        raise WarnscopeError(
            f"{path}: schema version {version} is newer than this warnscope ({SCHEMA_VERSION})"
        )
    if version < SCHEMA_VERSION:
        try:
            with transaction(conn):
                if version == 0:
                    for statement in _statements(SCHEMA):
                        conn.execute(statement)
                else:
                    for v in range(version + 1, SCHEMA_VERSION + 1):
                        for statement in _statements(MIGRATIONS[v]):
                            conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise WarnscopeError(f"{path}: not a warnscope database ({exc})") from None
    return conn


def _statements(sql: str) -> list[str]:
    """Split a script into statements (``executescript`` would commit mid-transaction)."""
    out, buf = [], []
    for line in sql.splitlines():
        buf.append(line)
        candidate = "\n".join(buf)
        if candidate.strip() and sqlite3.complete_statement(candidate):
            out.append(candidate)
            buf = []
    return [s for s in out if s.strip().strip(";").strip() and not _only_comments(s)]


def _only_comments(statement: str) -> bool:
    return all(not l.strip() or l.strip().startswith("--") for l in statement.splitlines())


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """BEGIN IMMEDIATE … COMMIT, rolled back on any exception (including Ctrl-C)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def utc_now() -> str:
    """The timestamp stored with ingests and results: UTC, to the second."""
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
