"""Stored values read as what their columns declare, or refused in one line.

SQLite keeps any value in any column (a declared type is an affinity, not a rule), so
a database file from someone else can hold the text ``'nan'``, ``'inf'`` or ``'x'``
where a CPU time belongs, a float in a count, a blob in a name. Read as they are, they
end a report or the site in a traceback deep inside the arithmetic. So every row a
warnscope :class:`~warnscope.database.Cursor` reads passes :func:`row` (the
connection's row factory): each column that is a column of a table the statement reads
(its ``FROM`` and ``JOIN`` tables) must hold its declared type -- an ``INTEGER`` an
int, a ``REAL`` a finite int or float, a ``TEXT`` a string, a ``BLOB`` bytes, ``NULL``
only where the column allows it -- or the row is refused with
:class:`~warnscope.errors.CorruptDatabase` naming the table, the column and the value.
A computed column (``count(*)``, an alias that is no column of those tables) is not
checked: SQLite computed it. A cursor of its own row factory (``row_factory = None``)
reads its rows as they are.
"""
from __future__ import annotations

import json
import math
import re
import sqlite3
from functools import lru_cache

from warnscope.errors import CorruptDatabase
from warnscope.schema import SCHEMA

_KINDS = {"INTEGER": (int,), "REAL": (int, float), "TEXT": (str,), "BLOB": (bytes,)}
_WHAT = {"INTEGER": "an integer", "REAL": "a finite number", "TEXT": "text", "BLOB": "a blob"}
_TABLES = re.compile(r"\b(?:FROM|JOIN)\s+(\w+)", re.I)


@lru_cache(maxsize=None)
def _columns() -> dict[str, dict[str, tuple[str, bool]]]:
    """table -> column -> (declared type, nullable), from a fresh in-memory schema."""
    mem = sqlite3.connect(":memory:")
    try:
        mem.executescript(SCHEMA)
        tables = [r[0] for r in mem.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {t: {name: (decl.upper(), not notnull and not pk)
                    for _cid, name, decl, notnull, _default, pk in mem.execute(f"PRAGMA table_info({t})")}
                for t in tables}
    finally:
        mem.close()


@lru_cache(maxsize=512)
def _spec(sql: str) -> dict[str, tuple[tuple[type, ...], bool, str, str]]:
    """column name -> (allowed Python types, nullable, table, declared type) for the
    columns of the tables ``sql`` reads; a name of two of them allows either."""
    known = _columns()
    outer = re.search(r"\b(LEFT|RIGHT|FULL)\b", sql, re.I) is not None
    spec: dict[str, tuple[tuple[type, ...], bool, str, str]] = {}
    for table in dict.fromkeys(t for t in _TABLES.findall(sql) if t in known):
        for name, (decl, nullable) in known[table].items():
            kinds = _KINDS.get(decl, ())
            if not kinds:
                continue
            if name in spec:
                k, n, t, d = spec[name]
                spec[name] = (tuple(dict.fromkeys(k + kinds)), n or nullable, f"{t}/{table}",
                              d if d == decl else f"{d}/{decl}")
            else:
                spec[name] = (kinds, nullable or outer, table, decl)
    return spec


@lru_cache(maxsize=512)
def _checks(sql: str, names: tuple[str, ...]) -> tuple[tuple[int, tuple[type, ...], bool, str, str], ...]:
    """(index, allowed types, nullable, table, declared type) of each checked column of
    a result with columns ``names``."""
    spec = _spec(sql)
    return tuple((i, *spec[name]) for i, name in enumerate(names) if name in spec)


def row(cursor: sqlite3.Cursor, values: tuple) -> sqlite3.Row:
    """The row factory: ``values`` checked against their columns, as a :class:`sqlite3.Row`."""
    sql = getattr(cursor, "sql", "")
    if sql:
        description = cursor.description
        if getattr(cursor, "_checked", (None,))[0] is not description:  # once per statement
            cursor._checked = (description, _checks(sql, tuple(d[0] for d in description)))
        for i, kinds, nullable, table, decl in cursor._checked[1]:
            value = values[i]
            kind = type(value)
            if kind in kinds:
                if kind is float and not math.isfinite(value):
                    raise _refused(cursor, table, cursor.description[i][0], value, decl)
            elif value is not None or not nullable:
                raise _refused(cursor, table, cursor.description[i][0], value, decl)
    return sqlite3.Row(cursor, values)


def _refused(cursor: sqlite3.Cursor, table: str, column: str, value, decl: str) -> CorruptDatabase:
    from warnscope.extract import shown

    path = getattr(cursor.connection, "path", None)
    where = f"{shown(str(path))}: " if path is not None else ""
    text = repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    what = " or ".join(_WHAT.get(d, d) for d in decl.split("/"))
    return CorruptDatabase(f"{where}damaged warnscope database: {table}.{column} holds {text}, "
                           f"not {what}; refused")


def json_column(text: str | None, kind: type, where: str):
    """A stored JSON column that must hold a ``kind`` (``dict`` or ``list``), decoded; else
    one :class:`CorruptDatabase` line naming it (``where``: its table, column and row)."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        raise CorruptDatabase(f"{where}: not JSON") from None
    if not isinstance(value, kind):
        raise CorruptDatabase(f"{where}: not a JSON {kind.__name__}")
    return value
