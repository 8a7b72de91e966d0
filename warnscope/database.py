"""Opening the one SQLite database, read-only for questions and read-write for ingests.

The database path comes from the user, so it may name anything: another
application's SQLite file, a text file, nothing at all, a read-only or full disk.
The rules:

* queries open it read-only (``mode=ro``): they never create, migrate or alter a file;
  a missing file is an error that says how to make one;
* writers open it read-write; the schema of a new (empty) database is created inside
  the transaction of the first write, so a failed ingest leaves an empty file empty;
* a file that is not warnscope's (not SQLite, tables of another application, a
  negative or newer ``user_version``, a warnscope table missing) is refused with one
  line and never written;
* the schema must be warnscope's own, checked before anything runs; every connection
  has ``trusted_schema`` off, SQLite's defensive rules and a progress handler that lets
  Ctrl-C and SIGTERM end a query (:mod:`warnscope.dbguard`);
* SQLite errors a user can cause (busy past the timeout, disk full, read-only, a
  damaged page, a dropped table) become one-line :class:`~warnscope.errors.DatabaseError` s (busy, corrupt, unwritable …) naming
  the file, wherever they surface; other SQLite errors are bugs and keep their
  traceback.
"""
from __future__ import annotations

import datetime as _dt
import os
import re
import sqlite3
import stat
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator
from urllib.parse import quote

from warnscope import dbguard, dbvalues
from warnscope.errors import (BadInput, CorruptDatabase, DatabaseBusy, DatabaseError, DatabaseUnwritable,
                              NoData, NotADatabase, OldSchema)
from warnscope.schema import MIGRATIONS, SCHEMA, SCHEMA_VERSION

#: How long a writer waits for another one (seconds); ``WARNSCOPE_DB_TIMEOUT`` overrides.
DEFAULT_TIMEOUT = 30.0
#: SQLite waits for a lock in C, where no signal handler runs: it is given this much at
#: a time, and the rest of the wait is Python's, between tries, so that Ctrl-C and
#: SIGTERM end a command waiting on a busy database at once.
BUSY_SLICE = 0.1

#: The tables a warnscope database has, as the schema creates them.
TABLES = frozenset(re.findall(r"CREATE TABLE IF NOT EXISTS (\w+)", SCHEMA))


def _shown(path: Path | str) -> str:
    from warnscope.extract import shown

    return shown(str(path))


def timeout() -> float:
    """The busy timeout, from ``WARNSCOPE_DB_TIMEOUT`` (seconds) or 30 s."""
    raw = os.environ.get("WARNSCOPE_DB_TIMEOUT")
    try:
        return max(0.0, float(raw)) if raw else DEFAULT_TIMEOUT
    except ValueError:
        raise BadInput(f"WARNSCOPE_DB_TIMEOUT={raw!r}: not a number of seconds") from None


def explain(exc: sqlite3.Error, path: Path | str) -> DatabaseError | None:
    """The one-line error for a SQLite failure a user can cause; None for a bug."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    text = str(exc)
    where = _shown(path)
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "database is locked" in text:
        return DatabaseBusy(f"{where}: database is busy (another process holds it); gave up after "
                              f"{timeout():g} s (WARNSCOPE_DB_TIMEOUT sets the wait)")
    if name.startswith("SQLITE_FULL"):
        return DatabaseUnwritable(f"{where}: disk full while writing the database; nothing was saved")
    if name.startswith("SQLITE_READONLY"):
        return DatabaseUnwritable(f"{where}: the database is read-only here ({text}); nothing was saved")
    if name.startswith("SQLITE_CORRUPT"):
        return CorruptDatabase(f"{where}: damaged database ({text}); restore a copy or ingest "
                              "into a new file")
    if name.startswith("SQLITE_NOTADB"):
        return NotADatabase(f"{where}: not a warnscope database (not an SQLite file)")
    if name.startswith(("SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")):
        return DatabaseError(f"{where}: cannot open the database ({text})")
    if name.startswith("SQLITE_IOERR"):
        return DatabaseUnwritable(f"{where}: I/O error on the database ({text})")
    if name.startswith("SQLITE_ERROR") and re.match(r"no such (table|column)", text):
        return CorruptDatabase(f"{where}: damaged warnscope database ({text})")
    return None


class Cursor(sqlite3.Cursor):
    """A cursor whose user-caused SQLite errors are one-line WarnscopeErrors, and whose
    rows hold what their columns declare (:mod:`warnscope.dbvalues`)."""

    #: the statement last run, for the row factory (which tables a row comes from)
    sql: str = ""

    def _fail(self, exc: sqlite3.Error):
        dbguard.interrupted(self.connection, exc)  # Ctrl-C or SIGTERM during the query
        err = explain(exc, self.connection.path)
        if err is None:
            raise exc
        raise err from None

    def execute(self, *args):
        self.sql = args[0] if args and isinstance(args[0], str) else ""
        try:
            return retry_busy(lambda: super(Cursor, self).execute(*args))
        except sqlite3.Error as exc:
            self._fail(exc)

    def executemany(self, *args):
        try:
            return super().executemany(*args)
        except sqlite3.Error as exc:
            self._fail(exc)

    def fetchone(self):
        try:
            return super().fetchone()
        except sqlite3.Error as exc:
            self._fail(exc)

    def fetchmany(self, *args):
        try:
            return super().fetchmany(*args)
        except sqlite3.Error as exc:
            self._fail(exc)

    def fetchall(self):
        try:
            return super().fetchall()
        except sqlite3.Error as exc:
            self._fail(exc)

    def __next__(self):
        try:
            return super().__next__()
        except sqlite3.Error as exc:
            self._fail(exc)


class Connection(sqlite3.Connection):
    """A connection that knows its file and whether it may write."""

    path: Path
    writable: bool = False

    def cursor(self, factory=Cursor):  # type: ignore[override]
        return super().cursor(factory)

    def execute(self, *args):  # type: ignore[override]
        return self.cursor().execute(*args)

    def executemany(self, *args):  # type: ignore[override]
        return self.cursor().executemany(*args)


def retry_busy(statement):
    """Run ``statement`` (a call that runs one SQL statement), trying again while the
    database is busy until :func:`timeout` has passed. Each try waits at most
    :data:`BUSY_SLICE` inside SQLite; the sleep between tries is where a signal lands.
    A statement that failed busy did nothing, so trying it again is safe (``BEGIN
    IMMEDIATE``, a read, ``COMMIT``: SQLite's own busy handler retries the same way)."""
    deadline = None
    while True:
        try:
            return statement()
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc):
                raise
            now = time.monotonic()
            deadline = deadline if deadline is not None else now + max(timeout() - BUSY_SLICE, 0)
            if now >= deadline:
                raise
            time.sleep(min(0.02, deadline - now))


def _is_busy(exc: sqlite3.Error) -> bool:
    name = getattr(exc, "sqlite_errorname", "") or ""
    return name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "database is locked" in str(exc)


def connect(path: str | Path, write: bool = True, first: str | None = None) -> Connection:
    """Open the database at ``path``: read-only for queries (``write=False``), or for
    writing, creating the file if needed (its schema comes with the first write).

    A query on a missing file is :class:`NoData` raised here, the one place "no such
    database" is said; ``first`` is the command that makes one for it
    (``warnscope ub run``), else an ingest."""
    path = Path(path)
    where = _shown(path)
    try:
        mode = path.stat().st_mode  # stat, never open: opening a FIFO blocks for ever
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise DatabaseError(f"{where}: cannot open the database ({exc.strerror})") from None
    if mode is not None and stat.S_ISDIR(mode):
        raise NotADatabase(f"{where}: is a directory, not a database file")
    if mode is not None and not stat.S_ISREG(mode):
        raise NotADatabase(f"{where}: not a regular file ({_kind(mode)}), not a database")
    if not write and mode is None:
        hint = f"run '{first}' first" if first else "create one with: warnscope flags ingest gcc-12"
        raise NoData(f"{where}: no such database ({hint}, or give --db)")
    uri = "file:" + quote(os.fsencode(os.path.abspath(path))) + ("?mode=rwc" if write else "?mode=ro")
    try:
        conn = sqlite3.connect(uri, uri=True, isolation_level=None,
                               timeout=min(timeout(), BUSY_SLICE), factory=Connection)
    except sqlite3.Error as exc:
        raise explain(exc, path) or exc from None
    conn.path = path
    conn.writable = write
    conn.row_factory = dbvalues.row  # sqlite3.Row, its values checked against their columns
    try:
        _check(conn)
    except BaseException:
        conn.close()
        raise
    return conn


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device")):
        if test(mode):
            return name
    return "not a plain file"


def open_read(path: str | Path) -> Connection:
    """A read-only connection for questions: never creates, migrates or alters."""
    return connect(path, write=False)


def open_write(path: str | Path) -> Connection:
    """A read-write connection for ingests and runs."""
    return connect(path, write=True)


def _check(conn: Connection) -> None:
    """Refuse files that are not warnscope's; bring an older schema up to date (writers)."""
    where = _shown(conn.path)
    def raw(sql: str) -> list:  # untranslated: here any failure means "not ours"
        return retry_busy(lambda: sqlite3.Connection.execute(conn, sql).fetchall())

    try:
        dbguard.harden(conn)
        raw("PRAGMA foreign_keys = ON")
        version = raw("PRAGMA user_version")[0][0]
        tables = {r[0] for r in raw("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.Error as exc:
        dbguard.interrupted(conn, exc)
        err = explain(exc, conn.path)
        if err is not None and not str(exc).startswith("file is not"):
            raise err from None  # busy, damaged, unreadable: said as such
        raise NotADatabase(f"{where}: not a warnscope database ({exc})") from None
    if version < 0:
        raise NotADatabase(f"{where}: not a warnscope database (schema version {version})")
    if version > SCHEMA_VERSION:
        raise NotADatabase(
            f"{where}: schema version {version} is newer than this warnscope ({SCHEMA_VERSION})")
    if version == 0:
        if tables:
            raise NotADatabase(f"{where}: not a warnscope database (it holds other tables: "
                                 f"{', '.join(sorted(tables)[:5])})")
        dbguard.check(conn, 0, where)  # a view or trigger alone
        if not conn.writable:
            raise NoData(f"{where}: empty database, nothing ingested yet (run: warnscope "
                                 "flags ingest gcc-12)")
        return  # the first write transaction creates the schema
    missing = TABLES - tables if version == SCHEMA_VERSION else set()
    if missing:
        raise CorruptDatabase(f"{where}: damaged warnscope database (table "
                             f"{', '.join(sorted(missing))} missing)")
    try:
        dbguard.check(conn, version, where)  # nothing planted: before anything runs
    except sqlite3.Error as exc:
        dbguard.interrupted(conn, exc)
        raise explain(exc, conn.path) or exc from None
    if version < SCHEMA_VERSION:
        if not conn.writable:
            raise OldSchema(f"{where}: schema version {version} is older than this warnscope "
                                 f"({SCHEMA_VERSION}); a writing command (ingest) upgrades it")
        with transaction(conn):
            pass  # the transaction applies the migrations


def _prepare(conn: Connection) -> None:
    """Inside a write transaction: create the schema of a new database or migrate an
    older one, so that schema and first data are committed (or not) together."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version == SCHEMA_VERSION:
        return
    if version == 0:
        if conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
            raise NotADatabase(f"{_shown(conn.path)}: not a warnscope database (another "
                                 "program created tables in it)")
        for statement in _statements(SCHEMA):
            conn.execute(statement)
    else:
        _migrate(conn, version)
        # the migrated schema, checked in full before it commits (a mismatch rolls back)
        dbguard.check(conn, SCHEMA_VERSION, _shown(conn.path))
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _migrate(conn: Connection, version: int) -> None:
    """Apply each frozen migration after ``version``, in order, inside the caller's
    transaction: a migration that fails rolls back with it and leaves the file as it
    was. A failure the data causes (a row a later statement cannot take) is one line
    naming the file and the migration; the user's file is not ours to repair."""
    for target in range(version + 1, SCHEMA_VERSION + 1):
        for statement in _statements(MIGRATIONS[target]):
            try:
                conn.execute(statement)
            except sqlite3.Error as exc:  # what Cursor left untranslated: the data's doing
                dbguard.interrupted(conn, exc)
                raise CorruptDatabase(
                    f"{_shown(conn.path)}: cannot upgrade schema version {target - 1} to {target} "
                    f"({exc}); the file is unchanged") from None


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
    """BEGIN IMMEDIATE … COMMIT, rolled back on any exception (including Ctrl-C).

    The first write transaction on a new database also creates the schema, and on an
    older one runs the migrations, so they commit or roll back with the data.
    """
    if isinstance(conn, Connection) and not conn.writable:
        raise DatabaseError(f"{_shown(conn.path)}: opened read-only, cannot write")  # a bug, really
    conn.execute("BEGIN IMMEDIATE")
    try:
        if isinstance(conn, Connection):
            _prepare(conn)
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def is_empty(conn: sqlite3.Connection) -> bool:
    """True for a new database whose schema the first write will create."""
    return conn.execute("PRAGMA user_version").fetchone()[0] == 0


def utc_now() -> str:
    """The timestamp stored with ingests and results: UTC, to the second."""
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
