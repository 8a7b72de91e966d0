"""Every earlier schema version migrates to the tables a fresh database gets, keeping its rows.

The databases are tests/fixtures/schema/vN.sql: small dumps made by the code of each
version (the README there says which commit). Each is loaded into a file and opened for
writing, which migrates it; its tables, columns, indexes and foreign keys are then
compared with a fresh database's, normalised from SQLite's own account of them (not the
SQL text, whose comments may differ), and its rows with the rows it had.

The frozen migrations are held to the versions that introduced them: the tables a
migration creates have, in the migrated file, the very SQL text the fixture of that
version has. A migration cut out of today's ``SCHEMA`` fails that as soon as a comment
in ``SCHEMA`` is edited.
"""
from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from dataclasses import fields
from pathlib import Path

import pytest

from flagdb import store
from flagdb.model import GccFacts
from warnscope import database
from warnscope.errors import CorruptDatabase, DatabaseError
from warnscope.schema import MIGRATIONS, SCHEMA_VERSION

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "schema"
ROOT = Path(__file__).resolve().parents[2]
VERSIONS = range(1, SCHEMA_VERSION + 1)


def _load(version: int, path: Path) -> Path:
    """The fixture of ``version`` as a database file at ``path``."""
    conn = sqlite3.connect(path)
    conn.executescript((FIXTURES / f"v{version}.sql").read_text())
    conn.close()
    return path


def _shape(conn: sqlite3.Connection) -> dict[str, dict]:
    """Tables with their columns, foreign keys and indexes, as SQLite reports them."""
    raw = sqlite3.Connection.execute
    shape = {}
    for (table,) in raw(conn, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
        columns = [(name, type_.upper(), notnull, default, pk)
                   for _cid, name, type_, notnull, default, pk in raw(conn, f"PRAGMA table_info({table})")]
        foreign = sorted((r[2], r[3], r[4], r[5], r[6])
                         for r in raw(conn, f"PRAGMA foreign_key_list({table})"))
        indexes = sorted(
            (name if origin == "c" else origin, unique, partial,
             tuple(r[2] for r in raw(conn, f"PRAGMA index_info('{name}')")))
            for _seq, name, unique, origin, partial in raw(conn, f"PRAGMA index_list({table})"))
        shape[table] = {"columns": columns, "foreign_keys": foreign, "indexes": indexes}
    return shape


def _sql(conn: sqlite3.Connection) -> dict[str, str]:
    return dict(sqlite3.Connection.execute(
        conn, "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL"))


def _rows(conn: sqlite3.Connection) -> dict[str, list[tuple]]:
    """Every table's rows, sorted (``rowid`` order is no promise)."""
    raw = sqlite3.Connection.execute
    tables = [r[0] for r in raw(conn, "SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {t: sorted(map(tuple, raw(conn, f"SELECT * FROM {t}")), key=repr) for t in tables}


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in sqlite3.Connection.execute(conn, f"PRAGMA table_info({table})")]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> dict[str, dict]:
    """The shape of a database created by this code."""
    path = tmp_path_factory.mktemp("fresh") / "fresh.db"
    conn = database.open_write(path)
    with database.transaction(conn):
        pass  # the first write transaction creates the schema
    shape = _shape(conn)
    conn.close()
    return shape


@pytest.mark.parametrize("version", VERSIONS)
def test_a_database_of_every_version_migrates_to_the_fresh_schema(version, fresh, tmp_path):
    path = _load(version, tmp_path / f"v{version}.db")
    before = sqlite3.connect(path)
    assert before.execute("PRAGMA user_version").fetchone()[0] == version
    rows_before = _rows(before)
    columns_before = {t: _columns(before, t) for t in rows_before}
    before.close()

    conn = database.open_write(path)  # migrates
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert _shape(conn) == fresh
    assert sqlite3.Connection.execute(conn, "PRAGMA foreign_key_check").fetchall() == []
    assert sqlite3.Connection.execute(conn, "PRAGMA integrity_check").fetchone()[0] == "ok"

    # Every row is still there, with the values it had; only what a migration rewrites
    # (migration 2: flag.extra becomes flag.facts and content hashes are cleared) differs.
    rewritten = {("flag", "extra"), ("compiler", "content_hash")} if version < 2 else set()
    for table, rows in rows_before.items():
        kept = [c for c in columns_before[table] if (table, c) not in rewritten]
        now = sorted(map(tuple, sqlite3.Connection.execute(conn, f"SELECT {', '.join(kept)} FROM {table}")),
                     key=repr)
        index = [columns_before[table].index(c) for c in kept]
        assert now == sorted((tuple(r[i] for i in index) for r in rows), key=repr), table
    for table in set(fresh) - set(rows_before):
        assert conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] == 0, table
    # and the families' own code reads them
    for name in ("gcc-99", "clang-13", "gcc-12"):
        assert store.load(conn, name).flags
    conn.close()


@pytest.mark.parametrize("version", [v for v in VERSIONS if v > 1])
def test_a_migration_creates_the_tables_its_version_created(version, tmp_path):
    """The tables migration N creates in a database of version N-1 have the SQL text the
    code of version N created them with (its fixture), comments and all."""
    conn = sqlite3.connect(_load(version - 1, tmp_path / "old.db"))
    old = _sql(conn)
    for statement in database._statements(MIGRATIONS[version]):
        conn.execute(statement)
    created = {name: sql for name, sql in _sql(conn).items() if name not in old}
    conn.close()
    made = _sql(sqlite3.connect(_load(version, tmp_path / "new.db")))
    assert created == {name: made[name] for name in created}
    assert set(made) == set(old) | set(created)


def test_migration_2_rewrites_gcc_facts_to_the_typed_shape(tmp_path):
    """v1's two ``extra`` shapes (option files', binary's) become :class:`GccFacts`; for
    the option files' flags, the facts version 6's own ingest builds."""
    path = _load(1, tmp_path / "v1.db")
    clang_query = ("SELECT f.name, f.{} FROM flag f JOIN compiler c ON c.id = f.compiler_id"
                   " WHERE c.name = 'clang-13'")
    clang_v1 = dict(sqlite3.connect(path).execute(clang_query.format("extra")).fetchall())
    conn = database.open_write(path)
    facts = {name: json.loads(text) for name, text in conn.execute(
        "SELECT flag.name, facts FROM flag JOIN compiler ON compiler.id = compiler_id WHERE family = 'gcc'"
        " AND compiler.name = ?", ("gcc-99",))}
    assert {c[0] for c in conn.execute("SELECT content_hash FROM compiler")} == {"migrated-from-schema-1"}
    v6 = sqlite3.connect(_load(6, tmp_path / "v6.db"))
    ingested = {name: json.loads(text) for name, text in v6.execute(
        "SELECT flag.name, facts FROM flag JOIN compiler ON compiler.id = compiler_id"
        " WHERE compiler.name = 'gcc-99'")}
    assert facts == ingested
    binary = json.loads(conn.execute("SELECT facts FROM flag WHERE name = '-Wx='").fetchone()[0])
    assert set(binary) == {f.name for f in fields(GccFacts)}
    assert (binary["range"], binary["enum_values"], binary["warn_message"], binary["unlisted"]) == (
        [0, 3], {"none": "none", "some": "some"}, "bad %s", True)
    # clang's v1 keys were already the v2 fields: left as they were
    assert clang_v1 and dict(conn.execute(clang_query.format("facts")).fetchall()) == clang_v1


@pytest.mark.parametrize("version", [v for v in VERSIONS if v < 5])
def test_migration_5_reads_a_debian_packages_provenance_back(version, tmp_path):
    conn = database.open_write(_load(version, tmp_path / "old.db"))
    got = {r[0]: tuple(r[1:])
           for r in conn.execute("SELECT name, package, debian_version, suite FROM compiler")}
    assert got == {"gcc-12": ("gcc-12-source", "12.2.0-14", None), "gcc-99": (None, None, None),
                   "clang-13": (None, None, None)}


def _broken_v1(path: Path) -> Path:
    """v1 whose GCC flag holds malformed JSON: migration 2 fails after renaming the column."""
    conn = sqlite3.connect(_load(1, path))
    conn.execute("UPDATE flag SET extra = '{not json' WHERE name = '-Wall'")
    conn.commit()
    conn.close()
    return path


def _broken_v3(path: Path) -> Path:
    """v3 that already has a ``suite`` column: migration 5 fails on its third statement,
    after migration 4 created its tables and migration 5 added two columns."""
    conn = sqlite3.connect(_load(3, path))
    conn.execute("ALTER TABLE compiler ADD COLUMN suite TEXT")
    conn.commit()
    conn.close()
    return path


@pytest.mark.parametrize("broken, step", [(_broken_v1, "1 to 2 .malformed JSON"),
                                          (_broken_v3, "4 to 5 .duplicate column name: suite")])
def test_a_failed_migration_leaves_the_file_as_it_was(broken, step, tmp_path):
    path = broken(tmp_path / "broken.db")
    digest, version = _digest(path), sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0]
    with pytest.raises(CorruptDatabase,
                       match=rf"cannot upgrade schema version {step}.*the file is unchanged"):
        database.open_write(path)
    assert _digest(path) == digest
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == version
    assert "extra" in _columns(conn, "flag") or version > 1
    assert not conn.execute("SELECT name FROM sqlite_master WHERE name LIKE 'oh_attr%'").fetchall()


def test_a_read_only_open_does_not_migrate(tmp_path):
    path = _load(1, tmp_path / "v1.db")
    digest = _digest(path)
    with pytest.raises(DatabaseError, match="schema version 1 is older than this warnscope"):
        database.open_read(path)
    assert _digest(path) == digest


def test_the_modules_the_schema_names_exist():
    """The schema's comments name the modules that hold each family's SQL; a renamed or
    merged module must take its name out of them."""
    text = (ROOT / "warnscope" / "schema.py").read_text()
    named = set(re.findall(r"\b(?:flagdb|analyzer|warnscope)/[\w/]+\.py\b", text))
    assert {"flagdb/store.py", "analyzer/ub/store.py", "analyzer/overhead/store.py"} <= named
    assert [n for n in sorted(named) if not (ROOT / n).is_file()] == []
