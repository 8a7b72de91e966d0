"""Database files that are not ours, missing, empty or not SQLite at all: one error line,
and the file exactly as it was (queries open read-only; a failed ingest writes nothing).

Ingests here read hand-written GCC source trees; the damaged, busy, read-only and full
databases built from the real packages are in tests/system/test_databases.py."""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from warnscope.schema import SCHEMA_VERSION


def _foreign(path: Path) -> Path:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE contacts (name TEXT, phone TEXT)")
    conn.execute("INSERT INTO contacts VALUES ('Ada', '555')")
    conn.commit()
    conn.close()
    return path


def test_query_on_another_applications_database(tmp_path, fails_on):
    db = _foreign(tmp_path / "contacts.db")
    assert "not a warnscope database (it holds other tables: contacts)" in fails_on(db, "flags", "versions")


def test_ingest_into_another_applications_database(tmp_path, fails_on, gcc_tree, common_opt):
    db = _foreign(tmp_path / "contacts.db")
    root = gcc_tree(tmp_path / "src", {"common.opt": common_opt})
    msg = fails_on(db, "flags", "ingest", "gcc-99", "--source", str(root))
    assert "not a warnscope database" in msg


def test_query_on_a_missing_database_creates_nothing(tmp_path, fails_on):
    db = tmp_path / "nope.db"
    assert "no such database" in fails_on(db, "flags", "list", "gcc-12")
    assert not db.exists() and not list(tmp_path.iterdir())


def test_query_on_an_empty_file(tmp_path, fails_on):
    db = tmp_path / "empty.db"
    db.touch()
    assert "empty database, nothing ingested yet" in fails_on(db, "flags", "versions")
    assert db.stat().st_size == 0


def test_failed_ingest_leaves_an_empty_file_empty(tmp_path, fails_on, gcc_tree, common_opt):
    db = tmp_path / "empty.db"
    db.touch()
    root = gcc_tree(tmp_path / "src", {"common.opt": common_opt.replace("Var(warn_deflt) Init(1)",
                                                                 "Var(warn_deflt Init(1)")})
    assert "common.opt:" in fails_on(db, "flags", "ingest", "gcc-99", "--source", str(root))
    assert db.stat().st_size == 0


def test_failed_ingest_creates_no_file(tmp_path, fails_on):
    db = tmp_path / "new.db"
    fails_on(db, "flags", "ingest", "gcc-99", "--source", str(tmp_path / "nowhere"))
    assert not db.exists()


def test_first_ingest_creates_schema_and_data_together(tmp_path, gcc_tree, common_opt, cli_at):
    db = tmp_path / "new.db"
    root = gcc_tree(tmp_path / "src", {"common.opt": common_opt})
    code, out, _ = cli_at(db)("flags", "ingest", "gcc-99", "--source", str(root))
    assert code == 0 and "gcc-99: added" in out
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_not_sqlite_at_all(tmp_path, fails_on, gcc_tree, common_opt):
    db = tmp_path / "notes.txt"
    db.write_text("dear diary\n" * 500)
    assert "not a warnscope database" in fails_on(db, "flags", "versions")
    root = gcc_tree(tmp_path / "src", {"common.opt": common_opt})
    assert "not a warnscope database" in fails_on(db, "flags", "ingest", "gcc-99", "--source", str(root))


def test_database_name_not_utf8(tmp_path, gcc_tree, warnscope, common_opt, one_error):
    db = os.fsencode(tmp_path) + b"/\xff.db"
    root = gcc_tree(tmp_path / "src", {"common.opt": common_opt})
    assert "\\xff.db: no such database" in one_error(warnscope("--db", db, "flags", "versions"))
    proc = warnscope("--db", db, "flags", "ingest", "gcc-99", "--source", str(root))
    assert proc.returncode == 0 and os.path.exists(db), proc.stderr
    proc = warnscope("--db", db, "flags", "versions")
    assert proc.returncode == 0 and b"gcc-99" in proc.stdout


def test_corrupt_database(tmp_path, cli_at):
    db = tmp_path / "corrupt.db"
    db.write_bytes(b"SQLite format 3\x00" + b"\x13" * 4000)
    before = db.read_bytes()
    cli = cli_at(db)
    code, _, err = cli("flags", "versions")
    assert code == 1 and "not a warnscope database" in err and len(err.strip().splitlines()) == 1
    assert db.read_bytes() == before


def test_text_file_as_database(tmp_path, cli_at):
    db = tmp_path / "notes.txt"
    db.write_text("just some notes\n" * 100)
    code, _, err = cli_at(db)("flags", "versions")
    assert code == 1 and "not a warnscope database" in err
    assert db.read_text() == "just some notes\n" * 100


def test_a_fifo_or_device_as_database_is_one_line_not_a_hang(tmp_path, warnscope, one_error,
                                                             gcc_tree, common_opt):
    """Opening a FIFO blocks until a writer comes, inside SQLite where no signal ends it:
    the file is looked at (stat) before anything opens it."""
    fifo = tmp_path / "fifo.db"
    os.mkfifo(fifo)
    root = gcc_tree(tmp_path / "src", {"common.opt": common_opt})
    for db, kind in ((fifo, "a FIFO"), (Path("/dev/null"), "a character device")):
        for args in (("flags", "list", "gcc-12"), ("flags", "ingest", "gcc-99", "--source", str(root))):
            line = one_error(warnscope("--db", str(db), *args, timeout=60))
            assert f"not a regular file ({kind})" in line, line
    assert fifo.exists() and not fifo.is_file()
