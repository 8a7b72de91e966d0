"""All SQL of the flag tables: save a :class:`CompilerData`, load it back, list versions.

Saving is one transaction that replaces the compiler's rows wholesale; if the parsed
content hash equals the stored one nothing is written at all, so re-ingesting
identical data changes nothing (not even ``ingested_at``).
"""
from __future__ import annotations

import datetime as _dt
import json
import sqlite3
from dataclasses import dataclass

from .db import transaction
from .errors import WarnscopeError
from .model import CompilerData, Edge, Flag, Message


@dataclass
class CompilerRow:
    """A stored compiler version with its provenance."""

    name: str
    family: str
    version: str
    source_kind: str
    source: str
    content_hash: str
    ingested_at: str
    flags: int = 0


def save(conn: sqlite3.Connection, data: CompilerData) -> str:
    """Store ``data``; returns ``added``, ``replaced`` or ``unchanged``."""
    digest = data.content_hash()
    with transaction(conn):
        row = conn.execute(
            "SELECT id, content_hash, source_kind, source FROM compiler WHERE name = ?",
            (data.compiler,),
        ).fetchone()
        if row and row["content_hash"] == digest:
            if (row["source_kind"], row["source"]) != (data.source_kind, data.source):
                # Same content from somewhere else: keep the rows, record the new provenance.
                conn.execute("UPDATE compiler SET source_kind = ?, source = ? WHERE id = ?",
                             (data.source_kind, data.source, row["id"]))
                return "unchanged content, provenance updated"
            return "unchanged"
        if row:
            conn.execute("DELETE FROM compiler WHERE id = ?", (row["id"],))
        now = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
        cid = conn.execute(
            "INSERT INTO compiler (name, family, version, source_kind, source, content_hash, ingested_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (data.compiler, data.family, data.version, data.source_kind, data.source, digest, now),
        ).lastrowid
        conn.executemany(
            "INSERT INTO flag (compiler_id, name, kind, alias_of, default_state, languages,"
            " takes_argument, argument, ignored, removed, description, origin, c_family, extra)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (cid, f.name, f.kind, f.alias_of, f.default, json.dumps(f.languages),
                 int(f.takes_argument), f.argument, int(f.ignored), int(f.removed),
                 f.description, f.origin, int(f.c_family), json.dumps(f.extra, sort_keys=True))
                for f in data.flags
            ],
        )
        conn.executemany(
            "INSERT INTO edge (compiler_id, parent, child, value, parent_min, requires, languages)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (cid, e.parent, e.child, e.value, e.parent_min, json.dumps(e.requires),
                 json.dumps(e.languages))
                for e in data.edges
            ],
        )
        conn.executemany(
            "INSERT INTO message (compiler_id, flag, diag, diag_class, severity, text)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [(cid, m.flag, m.diag, m.diag_class, m.severity, m.text) for m in data.messages],
        )
    return "replaced" if row else "added"


def compilers(conn: sqlite3.Connection) -> list[CompilerRow]:
    """Every stored compiler version, GCC before clang, oldest major first."""
    rows = conn.execute(
        "SELECT c.*, (SELECT count(*) FROM flag f WHERE f.compiler_id = c.id) AS flags"
        " FROM compiler c"
    ).fetchall()
    out = [CompilerRow(**{k: r[k] for k in r.keys() if k != "id"}) for r in rows]
    return sorted(out, key=compiler_sort_key)


def compiler_sort_key(row: CompilerRow | str) -> tuple:
    name = row if isinstance(row, str) else row.name
    family, _, major = name.rpartition("-")
    return (family != "gcc", family, int(major) if major.isdigit() else 0, name)


def compiler_row(conn: sqlite3.Connection, name: str) -> CompilerRow:
    for row in compilers(conn):
        if row.name == name:
            return row
    known = ", ".join(r.name for r in compilers(conn)) or "none yet"
    raise WarnscopeError(
        f"compiler {name!r} is not in the database (ingested: {known}); "
        f"run: warnscope flags ingest {name}"
    )


def _compiler_id(conn: sqlite3.Connection, name: str) -> int:
    compiler_row(conn, name)  # a clear error for an unknown compiler
    return conn.execute("SELECT id FROM compiler WHERE name = ?", (name,)).fetchone()[0]


def flag_names(conn: sqlite3.Connection, name: str) -> set[str]:
    """All flag names of one compiler version."""
    cid = _compiler_id(conn, name)
    return {r[0] for r in conn.execute("SELECT name FROM flag WHERE compiler_id = ?", (cid,))}


def load_subset(conn: sqlite3.Connection, name: str, flag_names_: set[str]) -> CompilerData:
    """A compiler version with only the named flags (no edges, no messages)."""
    row = compiler_row(conn, name)
    cid = _compiler_id(conn, name)
    marks = ",".join("?" * len(flag_names_))
    rows = conn.execute(
        f"SELECT * FROM flag WHERE compiler_id = ? AND name IN ({marks})", (cid, *flag_names_)
    ).fetchall() if flag_names_ else []
    return CompilerData(compiler=row.name, family=row.family, version=row.version,
                        source_kind=row.source_kind, source=row.source,
                        flags=[_flag(r) for r in rows])


def _flag(r: sqlite3.Row) -> Flag:
    return Flag(
        name=r["name"], kind=r["kind"], alias_of=r["alias_of"], default=r["default_state"],
        languages=json.loads(r["languages"]), takes_argument=bool(r["takes_argument"]),
        argument=r["argument"], ignored=bool(r["ignored"]), removed=bool(r["removed"]),
        description=r["description"], origin=r["origin"], c_family=bool(r["c_family"]),
        extra=json.loads(r["extra"]),
    )


def load(conn: sqlite3.Connection, name: str, with_messages: bool = True) -> CompilerData:
    """Read a stored compiler version back into the plain data the queries use.

    ``with_messages=False`` skips the diagnostic texts (thousands of rows for clang)
    for questions that do not need them.
    """
    row = compiler_row(conn, name)
    cid = conn.execute("SELECT id FROM compiler WHERE name = ?", (name,)).fetchone()[0]
    flags = [_flag(r) for r in
             conn.execute("SELECT * FROM flag WHERE compiler_id = ? ORDER BY name", (cid,))]
    edges = [
        Edge(parent=r["parent"], child=r["child"], value=r["value"], parent_min=r["parent_min"],
             requires=json.loads(r["requires"]), languages=json.loads(r["languages"]))
        for r in conn.execute("SELECT * FROM edge WHERE compiler_id = ? ORDER BY rowid", (cid,))
    ]
    messages = [
        Message(flag=r["flag"], diag=r["diag"], diag_class=r["diag_class"],
                severity=r["severity"], text=r["text"])
        for r in conn.execute("SELECT * FROM message WHERE compiler_id = ? ORDER BY rowid", (cid,))
    ] if with_messages else []
    return CompilerData(
        compiler=row.name, family=row.family, version=row.version,
        source_kind=row.source_kind, source=row.source,
        flags=flags, edges=edges, messages=messages,
    )
