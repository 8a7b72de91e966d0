"""Real databases damaged, busy, read-only or full: one error line, and the file exactly
as it was (queries open read-only; a failed ingest writes nothing)."""
from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest


def _smash(db: Path, first: int, last: int) -> None:
    """Overwrite pages ``first``..``last`` (1-based) with garbage."""
    page = sqlite3.connect(db).execute("PRAGMA page_size").fetchone()[0]
    data = bytearray(db.read_bytes())
    for n in range(first - 1, last):
        data[n * page:(n + 1) * page] = b"\xa5" * page
    db.write_bytes(bytes(data))


def test_corrupt_data_page(gcc_db_copy, fails_on):
    """The schema reads fine; the flag rows do not: found by the query, said in one line."""
    conn = sqlite3.connect(gcc_db_copy)
    schema_pages = max(r[0] for r in conn.execute("SELECT rootpage FROM sqlite_master"))
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.close()
    _smash(gcc_db_copy, schema_pages + 1, pages)
    assert "damaged database (database disk image is malformed)" in fails_on(
        gcc_db_copy, "flags", "list", "gcc-12")


def test_corrupt_schema_page(gcc_db_copy, fails_on):
    _smash(gcc_db_copy, 2, 30)
    assert "damaged database" in fails_on(gcc_db_copy, "flags", "versions")


def test_negative_user_version(gcc_db_copy, fails_on):
    conn = sqlite3.connect(gcc_db_copy)
    conn.execute("PRAGMA user_version = -3")
    conn.close()
    assert "not a warnscope database (schema version -3)" in fails_on(gcc_db_copy, "flags", "versions")
    assert "schema version -3" in fails_on(gcc_db_copy, "flags", "ingest", "gcc-12")


def test_newer_schema(gcc_db_copy, fails_on):
    conn = sqlite3.connect(gcc_db_copy)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    assert "newer than this warnscope" in fails_on(gcc_db_copy, "flags", "versions")


def test_dropped_table(gcc_db_copy, fails_on):
    conn = sqlite3.connect(gcc_db_copy)
    conn.execute("DROP TABLE edge")
    conn.commit()
    conn.close()
    assert "damaged warnscope database (table edge missing)" in fails_on(gcc_db_copy, "flags", "list", "gcc-12")


def test_bad_json_in_a_column(gcc_db_copy, fails_on):
    conn = sqlite3.connect(gcc_db_copy)
    conn.execute("UPDATE flag SET facts = '{\"var\": ' WHERE name = '-Wall'")
    conn.commit()
    conn.close()
    assert "JSON column holds invalid text" in fails_on(gcc_db_copy, "flags", "list", "gcc-12")


def _hold_lock(db: Path, mode: str) -> tuple[threading.Thread, threading.Event]:
    """Hold a lock on ``db`` until the returned event is set (or 300 s pass): however
    long a command takes to reach its write (an ingest fetches first), it finds the
    database locked."""
    ready, release = threading.Event(), threading.Event()

    def hold():
        conn = sqlite3.connect(db, isolation_level=None)
        conn.execute(f"BEGIN {mode}")
        ready.set()
        release.wait(300)
        conn.execute("ROLLBACK")
        conn.close()

    t = threading.Thread(target=hold)
    t.start()
    ready.wait()
    return t, release


@pytest.mark.parametrize("args", [("flags", "versions"), ("flags", "ingest", "gcc-12", "--force")])
def test_locked_database_waits_a_bounded_time(gcc_db_copy, fails_on, monkeypatch, args):
    monkeypatch.setenv("WARNSCOPE_DB_TIMEOUT", "0.5")
    holder, release = _hold_lock(gcc_db_copy, "EXCLUSIVE")
    try:
        start = time.monotonic()
        msg = fails_on(gcc_db_copy, *args)
        assert time.monotonic() - start < 4 or "ingest" in args
        assert "database is busy" in msg and "0.5 s" in msg
    finally:
        release.set()
        holder.join()


def test_read_only_database(gcc_db_copy, tmp_path, dump, in_namespace, one_error):
    """On a read-only mount queries work and an ingest says it cannot write."""
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


def test_full_disk(tmp_path, in_namespace, one_error):
    small = tmp_path / "small"
    small.mkdir()
    proc = in_namespace(f"mount -t tmpfs -o size=64k tmpfs {small}",
                        "--db", str(small / "w.db"), "flags", "ingest", "gcc-12")
    assert "disk full" in one_error(proc)
