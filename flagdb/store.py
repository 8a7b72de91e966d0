"""All SQL of the flag tables: save a :class:`CompilerData`, load it back, list versions.

Saving is one transaction that replaces the compiler's rows wholesale; if the parsed
content hash equals the stored one nothing is written at all, so re-ingesting
identical data changes nothing (not even ``ingested_at``).
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, fields

from warnscope.database import is_empty, transaction, utc_now
from warnscope.errors import BadInput, CorruptDatabase, NotIngested
from flagdb.model import ClangFacts, CompilerData, Edge, Flag, GccFacts, Message, applies
from warnscope.compilers import FAMILIES, CompilerId, sort_key

#: family -> the facts class its flags carry
FACTS = {"gcc": GccFacts, "clang": ClangFacts}
_FACT_FIELDS = {family: {f.name for f in fields(cls)} for family, cls in FACTS.items()}


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
    #: every flag stored, other front ends' (Fortran, Ada …) too
    flags: int = 0
    #: a Debian package's provenance (None for other sources; ``suite`` None for an
    #: entry ingested before schema 4)
    package: str | None = None
    debian_version: str | None = None
    suite: str | None = None
    #: the flags of the C family (C, C++, Objective-C): what ``flags list`` and the site list
    c_family_flags: int = 0


def save(conn: sqlite3.Connection, data: CompilerData) -> str:
    """Store ``data``; returns ``added``, ``replaced`` or ``unchanged``."""
    digest = data.content_hash()
    with transaction(conn):
        row = conn.execute(
            "SELECT id, content_hash, source_kind, source, package, debian_version, suite"
            " FROM compiler WHERE name = ?",
            (data.compiler,),
        ).fetchone()
        provenance = (data.source_kind, data.source, data.package, data.debian_version, data.suite)
        if row and row["content_hash"] == digest:
            if tuple(row)[2:] != provenance:
                # Same content from somewhere else: keep the rows, record the new provenance.
                conn.execute("UPDATE compiler SET source_kind = ?, source = ?, package = ?,"
                             " debian_version = ?, suite = ? WHERE id = ?", (*provenance, row["id"]))
                return "unchanged content, provenance updated"
            return "unchanged"
        if row:
            conn.execute("DELETE FROM compiler WHERE id = ?", (row["id"],))
        now = utc_now()
        cid = conn.execute(
            "INSERT INTO compiler (name, family, version, source_kind, source, content_hash,"
            " ingested_at, package, debian_version, suite) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (data.compiler, data.family, data.version, data.source_kind, data.source, digest, now,
             data.package, data.debian_version, data.suite),
        ).lastrowid
        conn.executemany(
            "INSERT INTO flag (compiler_id, name, kind, alias_of, default_state, languages,"
            " takes_argument, argument, ignored, removed, description, origin, c_family, facts)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (cid, f.name, f.kind, f.alias_of, f.default, json.dumps(f.languages),
                 int(f.takes_argument), f.argument, int(f.ignored), int(f.removed),
                 f.description, f.origin, int(f.c_family), encode_facts(f.facts))
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


def encode_facts(facts: GccFacts | ClangFacts) -> str:
    """The one serialisation of a flag's facts: the dataclass's fields as a JSON object
    (sorted keys, so the same facts are always the same text)."""
    return json.dumps(vars(facts), sort_keys=True)


def decode_facts(family: str, value: dict) -> GccFacts | ClangFacts:
    """The one deserialisation (from :func:`encode_facts`' object, already JSON-decoded).

    Keys this code does not know are dropped and missing ones take their defaults,
    so a fact added later does not make older rows unreadable.
    """
    known = _FACT_FIELDS[family]
    kwargs = {k: v for k, v in value.items() if k in known}
    if kwargs.get("range") is not None:
        kwargs["range"] = tuple(kwargs["range"])
    return FACTS[family](**kwargs)


def compilers(conn: sqlite3.Connection) -> list[CompilerRow]:
    """Every stored compiler version, GCC before clang, oldest major first."""
    rows = conn.execute(
        "SELECT c.*, (SELECT count(*) FROM flag f WHERE f.compiler_id = c.id) AS flags"
        " FROM compiler c"
    ).fetchall()
    c_family = _c_family_counts(conn)
    out = [CompilerRow(**{k: r[k] for k in r.keys() if k != "id"},
                       c_family_flags=c_family.get(r["id"], 0)) for r in rows]
    return sorted(out, key=lambda row: sort_key(row.name))


def _c_family_counts(conn: sqlite3.Connection) -> dict[int, int]:
    """compiler id -> its number of C-family flags (:func:`flagdb.model.applies`)."""
    cursor = conn.cursor()
    cursor.row_factory = None
    rows = cursor.execute("SELECT f.compiler_id, c.family, f.c_family, f.languages"
                          " FROM flag f JOIN compiler c ON c.id = f.compiler_id").fetchall()
    counts: dict[int, int] = {}
    for (cid, family, c_family, _), languages in zip(rows, _json_column([r[3] for r in rows])):
        if applies(family, bool(c_family), languages, None):
            counts[cid] = counts.get(cid, 0) + 1
    return counts


def _ingest_command(name: str) -> str:
    """The command that would ingest ``name`` (:func:`flagdb.upstream.ingest_command`)."""
    from flagdb.upstream import ingest_command

    try:
        return ingest_command(name)
    except ValueError:   # not a compiler id: the plain form says what is expected
        return f"warnscope flags ingest {name}"


def compiler_row(conn: sqlite3.Connection, name: "str | CompilerId") -> CompilerRow:
    """The stored row of compiler ``name``; a clear error naming what is there if absent."""
    return _compiler(conn, name)[1]


def known_id(conn: sqlite3.Connection, name: str) -> None:
    """Refuse a name that is no compiler id, naming the versions a family name stands for
    (``gcc``: the ingested gcc-N) or the id a loose spelling means (``gcc13``)."""
    try:
        CompilerId.parse(name)
    except ValueError:
        family = name.strip().lower()
        versions = [] if is_empty(conn) else [r.name for r in compilers(conn)
                                              if r.name.startswith(family + "-")]
        if family in FAMILIES and versions:
            raise BadInput(f"{name!r} names a compiler family, not a version: give one of "
                           f"{', '.join(versions)}") from None
        CompilerId.of(name)


def _compiler(conn: sqlite3.Connection, name: "str | CompilerId") -> tuple[int, CompilerRow]:
    """(id, row) of compiler ``name`` (its typed id, or its text), or the error that tells
    the user how to get it (a name that is no compiler id says so, with the id it most
    likely means)."""
    name = str(name)
    known_id(conn, name)
    if is_empty(conn):  # a new file, whose schema the first write creates: nothing ingested
        raise NotIngested(f"compiler {name!r} is not in the database (nothing ingested yet); "
                          f"run: {_ingest_command(name)}")
    row = conn.execute("SELECT * FROM compiler WHERE name = ?", (name,)).fetchone()
    if row is None:
        known = ", ".join(r.name for r in compilers(conn)) or "none yet"
        raise NotIngested(
            f"compiler {name!r} is not in the database (ingested: {known}); "
            f"run: {_ingest_command(name)}"
        )
    return row["id"], CompilerRow(**{k: row[k] for k in row.keys() if k != "id"})


def names_starting(conn: sqlite3.Connection, prefix: str, compiler: str | None = None) -> list[str]:
    """The stored flag names that start with ``prefix``, of one compiler or of all."""
    if is_empty(conn):
        return []
    sql = "SELECT DISTINCT f.name FROM flag f"
    args: list = [len(prefix), prefix]
    where = "substr(f.name, 1, ?) = ?"
    if compiler is not None:
        sql += " JOIN compiler c ON c.id = f.compiler_id"
        where += " AND c.name = ?"
        args.append(compiler)
    return [r[0] for r in conn.execute(f"{sql} WHERE {where} ORDER BY f.name", args)]


def flag_names(conn: sqlite3.Connection, name: "str | CompilerId") -> set[str]:
    """All flag names of one compiler version."""
    cid, _ = _compiler(conn, name)
    cursor = conn.cursor()
    cursor.row_factory = None
    return {n for (n,) in cursor.execute("SELECT name FROM flag WHERE compiler_id = ?", (cid,))}


def load_subset(conn: sqlite3.Connection, name: "str | CompilerId", flag_names_: set[str]) -> CompilerData:
    """A compiler version with only the named flags (no edges, no messages)."""
    cid, row = _compiler(conn, name)
    marks = ",".join("?" * len(flag_names_))
    flags = _flags(conn, row.family, f"WHERE compiler_id = ? AND name IN ({marks}) ORDER BY name",
                   (cid, *flag_names_)) if flag_names_ else []
    return CompilerData(compiler=row.name, family=row.family, version=row.version,
                        source_kind=row.source_kind, source=row.source, flags=flags)


def _json_column(texts: list[str]) -> list:
    """Decode many small JSON texts (one column of many rows) with a single ``json.loads``:
    for small texts the per-call overhead is most of the cost."""
    try:
        values = json.loads("[" + ",".join(texts) + "]")
    except ValueError as exc:  # an edited or damaged database, not a bug here
        values = exc
    if isinstance(values, Exception) or len(values) != len(texts):
        raise CorruptDatabase(f"damaged warnscope database: a JSON column holds invalid text "
                             f"({values if isinstance(values, Exception) else 'values run together'})")
    return values


def _flags(conn: sqlite3.Connection, family: str, where: str, params: tuple) -> list[Flag]:
    """Flags selected by ``where``, read as plain tuples (loading is on every query's path)."""
    cursor = conn.cursor()
    cursor.row_factory = None
    rows = cursor.execute(
        "SELECT name, kind, alias_of, default_state, takes_argument, argument, ignored, removed,"
        " description, origin, c_family, languages, facts FROM flag " + where, params).fetchall()
    languages = _json_column([r[11] for r in rows])
    facts = [decode_facts(family, f) for f in _json_column([r[12] for r in rows])]
    return [
        Flag(name=name, kind=kind, alias_of=alias_of, default=default, languages=langs,
             takes_argument=bool(takes_argument), argument=argument, ignored=bool(ignored),
             removed=bool(removed), description=description, origin=origin,
             c_family=bool(c_family), facts=fact)
        for (name, kind, alias_of, default, takes_argument, argument, ignored, removed,
             description, origin, c_family, _, _), langs, fact in zip(rows, languages, facts)
    ]


def load(conn: sqlite3.Connection, name: "str | CompilerId", with_messages: bool = True) -> CompilerData:
    """Read a stored compiler version back into the plain data the queries use.

    ``with_messages=False`` skips the diagnostic texts (thousands of rows for clang)
    for questions that do not need them.
    """
    cid, row = _compiler(conn, name)
    flags = _flags(conn, row.family, "WHERE compiler_id = ? ORDER BY name", (cid,))
    cursor = conn.cursor()
    cursor.row_factory = None
    rows = cursor.execute("SELECT parent, child, value, parent_min, requires, languages FROM edge"
                          " WHERE compiler_id = ? ORDER BY rowid", (cid,)).fetchall()
    requires = _json_column([r[4] for r in rows])
    languages = _json_column([r[5] for r in rows])
    edges = [
        Edge(parent=parent, child=child, value=value, parent_min=parent_min,
             requires=needs, languages=langs)
        for (parent, child, value, parent_min, _, _), needs, langs in zip(rows, requires, languages)
    ]
    messages = [
        Message(flag=flag, diag=diag, diag_class=diag_class, severity=severity, text=text)
        for flag, diag, diag_class, severity, text in cursor.execute(
            "SELECT flag, diag, diag_class, severity, text FROM message"
            " WHERE compiler_id = ? ORDER BY rowid", (cid,))
    ] if with_messages else []
    return CompilerData(
        compiler=row.name, family=row.family, version=row.version,
        source_kind=row.source_kind, source=row.source,
        flags=flags, edges=edges, messages=messages,
        package=row.package, debian_version=row.debian_version, suite=row.suite,
    )
