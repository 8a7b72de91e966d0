"""Databases that are not ours, damaged, busy, read-only or full: one error line, and
the file exactly as it was (queries open read-only; a failed ingest writes nothing)."""
from __future__ import annotations

import os
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from conftest import Cli, dump
from flagdb.schema import SCHEMA_VERSION
from test_hostile_sources import ERROR, in_namespace, one_error, require_mounts, warnscope
from test_gcc_opt_parser import COMMON, _tree


@pytest.fixture
def fails(capsys):
    """Run a command on ``db`` that must fail and leave the file byte for byte as it was."""

    def run(db: Path, *args: str) -> str:
        before = db.read_bytes() if db.exists() else None
        code, out, err = Cli(db, capsys)(*args)
        assert code != 0, out
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(ERROR), err
        assert (db.read_bytes() if db.exists() else None) == before
        return lines[0]

    return run


def _foreign(path: Path) -> Path:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE contacts (name TEXT, phone TEXT)")
    conn.execute("INSERT INTO contacts VALUES ('Ada', '555')")
    conn.commit()
    conn.close()
    return path


def test_query_on_another_applications_database(tmp_path, fails):
    db = _foreign(tmp_path / "contacts.db")
    assert "not a warnscope database (it holds other tables: contacts)" in fails(db, "flags", "versions")


def test_ingest_into_another_applications_database(tmp_path, fails):
    db = _foreign(tmp_path / "contacts.db")
    root = _tree(tmp_path / "src", {"common.opt": COMMON})
    msg = fails(db, "flags", "ingest", "gcc-99", "--source", str(root))
    assert "not a warnscope database" in msg


def test_query_on_a_missing_database_creates_nothing(tmp_path, fails):
    db = tmp_path / "nope.db"
    assert "no such database" in fails(db, "flags", "list", "gcc-12")
    assert not db.exists() and not list(tmp_path.iterdir())


def test_query_on_an_empty_file(tmp_path, fails):
    db = tmp_path / "empty.db"
    db.touch()
    assert "empty database, nothing ingested yet" in fails(db, "flags", "versions")
    assert db.stat().st_size == 0


def test_failed_ingest_leaves_an_empty_file_empty(tmp_path, fails):
    db = tmp_path / "empty.db"
    db.touch()
    root = _tree(tmp_path / "src", {"common.opt": COMMON.replace("Var(warn_deflt) Init(1)",
                                                                 "Var(warn_deflt Init(1)")})
    assert "common.opt:" in fails(db, "flags", "ingest", "gcc-99", "--source", str(root))
    assert db.stat().st_size == 0


def test_failed_ingest_creates_no_file(tmp_path, fails):
    db = tmp_path / "new.db"
    fails(db, "flags", "ingest", "gcc-99", "--source", str(tmp_path / "nowhere"))
    assert not db.exists()


def test_first_ingest_creates_schema_and_data_together(tmp_path, capsys):
    db = tmp_path / "new.db"
    root = _tree(tmp_path / "src", {"common.opt": COMMON})
    code, out, _ = Cli(db, capsys)("flags", "ingest", "gcc-99", "--source", str(root))
    assert code == 0 and "gcc-99: added" in out
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def _smash(db: Path, first: int, last: int) -> None:
    """Overwrite pages ``first``..``last`` (1-based) with garbage."""
    page = sqlite3.connect(db).execute("PRAGMA page_size").fetchone()[0]
    data = bytearray(db.read_bytes())
    for n in range(first - 1, last):
        data[n * page:(n + 1) * page] = b"\xa5" * page
    db.write_bytes(bytes(data))


def test_corrupt_data_page(gcc_db_copy, fails):
    """The schema reads fine; the flag rows do not: found by the query, said in one line."""
    conn = sqlite3.connect(gcc_db_copy)
    schema_pages = max(r[0] for r in conn.execute("SELECT rootpage FROM sqlite_master"))
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.close()
    _smash(gcc_db_copy, schema_pages + 1, pages)
    assert "damaged database (database disk image is malformed)" in fails(
        gcc_db_copy, "flags", "list", "gcc-12")


def test_corrupt_schema_page(gcc_db_copy, fails):
    _smash(gcc_db_copy, 2, 30)
    assert "damaged database" in fails(gcc_db_copy, "flags", "versions")


def test_negative_user_version(gcc_db_copy, fails):
    conn = sqlite3.connect(gcc_db_copy)
    conn.execute("PRAGMA user_version = -3")
    conn.close()
    assert "not a warnscope database (schema version -3)" in fails(gcc_db_copy, "flags", "versions")
    assert "schema version -3" in fails(gcc_db_copy, "flags", "ingest", "gcc-12")


def test_newer_schema(gcc_db_copy, fails):
    conn = sqlite3.connect(gcc_db_copy)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    assert "newer than this warnscope" in fails(gcc_db_copy, "flags", "versions")


def test_dropped_table(gcc_db_copy, fails):
    conn = sqlite3.connect(gcc_db_copy)
    conn.execute("DROP TABLE edge")
    conn.commit()
    conn.close()
    assert "damaged warnscope database (table edge missing)" in fails(gcc_db_copy, "flags", "list", "gcc-12")


def test_bad_json_in_a_column(gcc_db_copy, fails):
    conn = sqlite3.connect(gcc_db_copy)
    conn.execute("UPDATE flag SET facts = '{\"properties\": ' WHERE name = '-Wall'")
    conn.commit()
    conn.close()
    assert "JSON column holds invalid text" in fails(gcc_db_copy, "flags", "list", "gcc-12")


def test_not_sqlite_at_all(tmp_path, fails):
    db = tmp_path / "notes.txt"
    db.write_text("dear diary\n" * 500)
    assert "not a warnscope database" in fails(db, "flags", "versions")
    assert "not a warnscope database" in fails(db, "flags", "ingest", "gcc-12")


def _hold_lock(db: Path, mode: str, seconds: float) -> threading.Thread:
    ready = threading.Event()

    def hold():
        conn = sqlite3.connect(db, isolation_level=None)
        conn.execute(f"BEGIN {mode}")
        ready.set()
        time.sleep(seconds)
        conn.execute("ROLLBACK")
        conn.close()

    t = threading.Thread(target=hold)
    t.start()
    ready.wait()
    return t


@pytest.mark.parametrize("args", [("flags", "versions"), ("flags", "ingest", "gcc-12", "--force")])
def test_locked_database_waits_a_bounded_time(gcc_db_copy, fails, monkeypatch, args):
    monkeypatch.setenv("WARNSCOPE_DB_TIMEOUT", "0.5")
    holder = _hold_lock(gcc_db_copy, "EXCLUSIVE", 5)
    try:
        start = time.monotonic()
        msg = fails(gcc_db_copy, *args)
        assert time.monotonic() - start < 4 or "ingest" in args
        assert "database is busy" in msg and "0.5 s" in msg
    finally:
        holder.join()


def test_read_only_database(gcc_db_copy, tmp_path):
    """On a read-only mount queries work and an ingest says it cannot write."""
    require_mounts()
    d = gcc_db_copy.parent
    before = dump(gcc_db_copy)
    conn = sqlite3.connect(gcc_db_copy)
    conn.execute("DELETE FROM compiler WHERE name = 'gcc-11'")  # so that the ingest must write
    conn.commit()
    conn.close()
    before = dump(gcc_db_copy)
    mount = f"mount --bind {d} {d} && mount -o remount,bind,ro {d}"
    ok = in_namespace(mount, "--db", str(gcc_db_copy), "flags", "versions")
    assert ok.returncode == 0 and b"gcc-12" in ok.stdout, ok.stderr
    proc = in_namespace(mount, "--db", str(gcc_db_copy), "flags", "ingest", "gcc-11")
    assert "read-only" in one_error(proc)
    assert dump(gcc_db_copy) == before


def test_full_disk(tmp_path):
    require_mounts()
    small = tmp_path / "small"
    small.mkdir()
    proc = in_namespace(f"mount -t tmpfs -o size=64k tmpfs {small}",
                        "--db", str(small / "w.db"), "flags", "ingest", "gcc-12")
    assert "disk full" in one_error(proc)


def test_database_name_not_utf8(tmp_path):
    db = os.fsencode(tmp_path) + b"/\xff.db"
    root = _tree(tmp_path / "src", {"common.opt": COMMON})
    assert "\\xff.db: no such database" in one_error(warnscope("--db", db, "flags", "versions"))
    proc = warnscope("--db", db, "flags", "ingest", "gcc-99", "--source", str(root))
    assert proc.returncode == 0 and os.path.exists(db), proc.stderr
    proc = warnscope("--db", db, "flags", "versions")
    assert proc.returncode == 0 and b"gcc-99" in proc.stdout
