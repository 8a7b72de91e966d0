"""What a database file from someone else may hold, and what it may make SQLite do.

A database file is input like any other: its author chose every byte of it, the
schema included. SQLite runs what a schema holds -- a trigger fires on warnscope's
own INSERT, a view runs whatever query it names -- so a file with a planted
``AFTER INSERT`` trigger turns an ingest into silent data loss, a ``RAISE(ABORT, …)``
prints its author's text, an endless recursive query hangs the command. So, on
every connection (:func:`harden`):

* **the schema is checked before anything runs** (:func:`check`): every object of
  ``sqlite_master`` must be one of warnscope's own tables and indexes, with the very
  definition a fresh database of that version has (compared as SQL with comments and
  spacing normalised away, built in memory from :data:`~warnscope.schema.SCHEMA`);
  warnscope has no triggers and no views, so any is planted. Anything else is one
  line naming the object (:class:`~warnscope.errors.ForeignSchema`), the file
  untouched. An older version, which a writer migrates, holds only warnscope's table
  and index names (no trigger, no view, nothing else), and is checked in full after
  its migration, inside the migration's transaction: a mismatch rolls it back.
* ``PRAGMA trusted_schema = OFF``: SQL functions with side effects cannot be used
  from the schema (a CHECK, a DEFAULT, a generated column, an index expression).
* SQLite's *defensive* mode is set with ``sqlite3_db_config``, which Python's
  ``sqlite3`` exposes only from 3.12 (``Connection.setconfig``). On 3.11 the same
  statements are refused by an authorizer (:func:`_authorize`, a public API): ``PRAGMA
  writable_schema``, ``PRAGMA schema_version = N``, ``PRAGMA journal_mode = OFF``,
  writes to ``sqlite_dbpage``, ``ATTACH``, creating a trigger,
  view or virtual table, and every write a trigger makes (the authorizer is told when
  a write comes from one: warnscope has none, so one that fires anyway is refused;
  reads cannot be told apart this way, as a query's own ``WITH`` names its reads as
  well). Where ``setconfig`` exists, defensive mode is set as well.
* ``PRAGMA cell_size_check = ON``: a damaged page is found when read, not followed.
* **signals end a query** (:class:`_Signals`): SQLite runs a query in C, where no
  Python signal handler runs; a progress handler gives Ctrl-C and SIGTERM their turn
  every :data:`PROGRESS_STEPS` virtual-machine steps and interrupts the query if one
  came, which :func:`interrupted` then raises where the query was.
"""
from __future__ import annotations

import re
import sqlite3
from functools import lru_cache

from warnscope.errors import ForeignSchema
from warnscope.schema import MIGRATIONS, SCHEMA, SCHEMA_VERSION

#: SQLite virtual-machine steps between two looks at pending signals (about a
#: millisecond of work; the look itself costs a microsecond).
PROGRESS_STEPS = 20_000

#: Every table and named index warnscope has created in any version (the names an
#: older file may hold before it is migrated).
_CREATED = re.compile(r"CREATE\s+(?:UNIQUE\s+)?(TABLE|INDEX)\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)", re.I)
KNOWN = frozenset(m.group(2) for sql in (SCHEMA, *MIGRATIONS.values()) for m in _CREATED.finditer(sql))


# ------------------------------------------------------------------ the schema

def normalised(sql: str | None) -> str | None:
    """``sql`` without comments, with one space at most between tokens and none
    around punctuation, keywords lower-cased, ``IF NOT EXISTS`` dropped: two texts of
    one definition compare equal however they were commented or laid out (a migrated
    table's text keeps its version's comments). Quoted strings and names are kept
    as they are."""
    if sql is None:
        return None
    out: list[str] = []
    i, n = 0, len(sql)
    space = False
    while i < n:
        ch = sql[i]
        if sql.startswith("--", i):
            end = sql.find("\n", i)
            i = n if end < 0 else end
            space = True
        elif sql.startswith("/*", i):
            end = sql.find("*/", i + 2)
            i = n if end < 0 else end + 2
            space = True
        elif ch.isspace():
            i += 1
            space = True
        elif ch in "'\"`[":
            close = "]" if ch == "[" else ch
            j = i + 1
            while j < n:
                if sql[j] == close:
                    if close != "]" and j + 1 < n and sql[j + 1] == close:
                        j += 2  # a doubled quote inside
                        continue
                    break
                j += 1
            if space and out and out[-1] not in "(,":
                out.append(" ")
            out.append(sql[i:j + 1])
            i = j + 1
            space = False
        elif ch in "(),;":
            while out and out[-1] == " ":
                out.pop()
            out.append(ch)
            i += 1
            space = False
        else:
            j = i
            while j < n and not sql[j].isspace() and sql[j] not in "(),;'\"`[" \
                    and not sql.startswith("--", j) and not sql.startswith("/*", j):
                j += 1
            if space and out and out[-1] not in "(,":
                out.append(" ")
            out.append(sql[i:j].lower())
            i = j
            space = False
    text = "".join(out).rstrip(";")
    return re.sub(r"^create (unique )?(table|index) if not exists ", r"create \1\2 ", text)


@lru_cache(maxsize=None)
def expected() -> dict[tuple[str, str], tuple[str, str | None]]:
    """(type, name) -> (table it belongs to, normalised SQL) of every object a fresh
    database of :data:`SCHEMA_VERSION` has, as SQLite itself records them (built in
    memory; the automatic indexes of UNIQUE and PRIMARY KEY constraints included)."""
    mem = sqlite3.connect(":memory:")
    try:
        mem.executescript(SCHEMA)
        return {(t, name): (table, normalised(sql)) for t, name, table, sql in
                mem.execute("SELECT type, name, tbl_name, sql FROM sqlite_master")}
    finally:
        mem.close()


def _objects(conn: sqlite3.Connection) -> list[tuple[str, str, str, str | None]]:
    return sqlite3.Connection.execute(
        conn, "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid").fetchall()


def check(conn: sqlite3.Connection, version: int, where: str) -> None:
    """Refuse a schema warnscope did not make (see the module's text). ``version`` is
    the file's ``user_version``; 0 (a new file) must hold nothing at all."""
    found = _objects(conn)
    if version == 0:
        for kind, name, _table, _sql in found:
            raise ForeignSchema(f"{where}: not a warnscope database: an empty one holds "
                                f"{_named(kind, name)}; refused, the file is unchanged")
        return
    if version < SCHEMA_VERSION:
        for kind, name, table, _sql in found:
            if kind not in ("table", "index") or name not in KNOWN and not (
                    kind == "index" and name.startswith(f"sqlite_autoindex_{table}_") and table in KNOWN):
                raise _planted(where, kind, name)
        return
    want = expected()
    seen = set()
    for kind, name, table, sql in found:
        mine = want.get((kind, name))
        if mine is None:
            raise _planted(where, kind, name)
        if mine != (table, normalised(sql)):
            raise ForeignSchema(f"{where}: {_named(kind, name)} is not defined as warnscope defines it "
                                "(changed by another program); refused, the file is unchanged")
        seen.add((kind, name))
    missing = sorted(name for kind, name in set(want) - seen if kind == "table")
    if missing:
        from warnscope.errors import CorruptDatabase

        raise CorruptDatabase(f"{where}: damaged warnscope database (table "
                              f"{', '.join(missing)} missing)")


def _named(kind: str, name: str) -> str:
    from warnscope.extract import shown

    return f"{kind} {shown(name)!s}"


def _planted(where: str, kind: str, name: str) -> ForeignSchema:
    return ForeignSchema(f"{where}: {_named(kind, name)} is not warnscope's (planted by another "
                         "program); refused, the file is unchanged")


# ------------------------------------------------------------------ the connection

#: Pragmas no warnscope statement sets, which can damage a file or its schema.
_DANGEROUS_PRAGMAS = frozenset({"writable_schema", "schema_version", "trusted_schema"})
#: SQLite's raw pages, which warnscope never writes (``sqlite_master`` cannot be written
#: without ``writable_schema``, and SQLite's own CREATE and ALTER write it through here).
_INTERNAL = frozenset({"sqlite_dbpage"})
_WRITES = (sqlite3.SQLITE_INSERT, sqlite3.SQLITE_UPDATE, sqlite3.SQLITE_DELETE)
_REFUSED = frozenset({sqlite3.SQLITE_ATTACH, sqlite3.SQLITE_DETACH, sqlite3.SQLITE_CREATE_TRIGGER,
                      sqlite3.SQLITE_CREATE_TEMP_TRIGGER, sqlite3.SQLITE_CREATE_VIEW,
                      sqlite3.SQLITE_CREATE_TEMP_VIEW, sqlite3.SQLITE_CREATE_VTABLE})


def _authorize(action: int, arg1: str | None, arg2: str | None, _db: str | None,
               inner: str | None) -> int:
    """The defensive mode of SQLite, as an authorizer (see the module's text)."""
    if inner is not None and action in _WRITES:
        return sqlite3.SQLITE_DENY  # a write by a trigger: warnscope has none
    if action in _REFUSED:
        return sqlite3.SQLITE_DENY
    if action == sqlite3.SQLITE_PRAGMA:
        name = (arg1 or "").lower()
        if name in _DANGEROUS_PRAGMAS and (arg2 is not None or name == "writable_schema"):
            return sqlite3.SQLITE_DENY
        if name == "journal_mode" and (arg2 or "").lower() == "off":
            return sqlite3.SQLITE_DENY
    if action in _WRITES and (arg1 or "").lower() in _INTERNAL:
        return sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_OK


class _Signals:
    """The progress handler: lets a pending Ctrl-C or SIGTERM run its Python handler
    while SQLite works, and interrupts the query when it raised.

    It is a generator's ``__next__``: Python runs pending signal handlers when a frame
    resumes, and this frame resumes at its ``yield``, inside the ``try``, so the
    handler's exception (``KeyboardInterrupt``, the CLI's SIGTERM exception) is caught
    here instead of being lost in SQLite's callback. It is kept for
    :func:`interrupted`, and the query is interrupted (a non-zero answer)."""

    def __init__(self) -> None:
        self.pending: BaseException | None = None
        self._gen = self._watch()
        next(self._gen)  # started: from now on a call resumes at the yield
        #: what SQLite calls: the generator's ``__next__`` (no frame of its own to enter)
        self.tick = self._gen.__next__

    def _watch(self):
        stop = 0
        while True:
            try:
                while True:  # the loop inside the try: its jump back is covered too
                    yield stop
                    stop = 0
            except GeneratorExit:  # the connection is gone
                return
            except BaseException as exc:  # a signal handler's, raised at the yield
                self.pending = exc
                stop = 1


def harden(conn: sqlite3.Connection) -> None:
    """Set up a new connection as the module's text says (before the schema check)."""
    raw = sqlite3.Connection.execute
    raw(conn, "PRAGMA trusted_schema = OFF")
    raw(conn, "PRAGMA cell_size_check = ON")
    setconfig = getattr(conn, "setconfig", None)  # Python 3.12 and later
    defensive = getattr(sqlite3, "SQLITE_DBCONFIG_DEFENSIVE", None)
    if setconfig is not None and defensive is not None:
        setconfig(defensive, True)
    conn.set_authorizer(_authorize)
    signals = _Signals()
    conn.set_progress_handler(signals.tick, PROGRESS_STEPS)
    conn._signals = signals  # type: ignore[attr-defined]


def interrupted(conn: sqlite3.Connection, exc: sqlite3.Error) -> None:
    """After a query was interrupted: raise the signal's exception that interrupted it
    (Ctrl-C, SIGTERM), where the query was. Other errors: nothing."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    signals = getattr(conn, "_signals", None)
    if not (name.startswith("SQLITE_INTERRUPT") or str(exc) == "interrupted") or signals is None:
        return
    pending, signals.pending = signals.pending, None
    if pending is not None:
        raise pending.with_traceback(None) from None
    raise KeyboardInterrupt() from None  # interrupted without a recorded cause
