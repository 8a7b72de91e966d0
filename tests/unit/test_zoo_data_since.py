"""Versions across the whole range: ``flags since``, ``flags versions``, the choice of a
Debian package among suites, provenance and its schema migration, on hand-written
GCC trees (no download, no compiler)."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from flagdb import compare, store
from warnscope import apt
from warnscope.apt import Candidate
from warnscope.database import connect
from warnscope.errors import WarnscopeError
from warnscope.schema import SCHEMA, SCHEMA_VERSION

C_OPT_OLD = """Language
C

Wall
C Warning
Enable most warnings.

Wextra
C Var(extra_warnings) Warning
Extra warnings.

Wkept
C Var(warn_kept) Warning
Kept, joins -Wall later.

Wflip
C Var(warn_flip) Init(0) Warning
Default changes later.

Wold
C Var(warn_old) Warning
Gone later.
"""

C_OPT_NEW = """Language
C

Wall
C Warning
Enable most warnings.

Wextra
C Var(extra_warnings) Warning
Extra warnings.

Wkept
C Var(warn_kept) Warning LangEnabledBy(C,Wall)
Kept, joins -Wall later.

Wflip
C Var(warn_flip) Init(1) Warning
Default changes later.

Wfresh
C Var(warn_fresh) Warning EnabledBy(Wextra)
New in this version.
"""


def _tree(root: Path, version: str, c_opt: str, common_opt: str) -> Path:
    (root / "gcc" / "c-family").mkdir(parents=True)
    (root / "gcc" / "BASE-VER").write_text(version + "\n")
    (root / "gcc" / "c-family" / "c.opt").write_text(c_opt)
    (root / "gcc" / "common.opt").write_text(common_opt)
    return root


@pytest.fixture
def since_db(tmp_path, cli_at):
    """gcc-9 and gcc-10 (hand-written trees, gcc-10 changing gcc-9) and gcc-11 (same as 10)."""
    common = "Wcommon\nCommon Var(warn_common) Warning\nIn every version.\n"
    db = tmp_path / "since.db"
    cli = cli_at(db)
    for major, text in ((9, C_OPT_OLD), (10, C_OPT_NEW), (11, C_OPT_NEW)):
        root = _tree(tmp_path / f"gcc{major}", f"{major}.1.0", text, common)
        code, out, err = cli("flags", "ingest", f"gcc-{major}", "--source", str(root))
        assert code == 0, err
    return db


def test_since_one_version(since_db, cli_at):
    code, out, err = cli_at(since_db)("flags", "since", "gcc-10", "--json")
    assert code == 0, err
    (r,) = json.loads(out)
    assert (r["compiler"], r["previous"], r["version"], r["previous_version"]) == (
        "gcc-10", "gcc-9", "10.1.0", "9.1.0")
    assert [f["name"] for f in r["introduced"]] == ["-Wfresh"]
    assert r["introduced"][0] == {"name": "-Wfresh", "default": "off", "in_wall": False,
                                  "in_wextra": True, "description": "New in this version."}
    assert r["removed"] == ["-Wold"]
    assert r["joined_wall"] == ["-Wkept"] and r["left_wall"] == []
    assert r["joined_wextra"] == [] and r["left_wextra"] == []
    assert r["default_changed"] == [{"name": "-Wflip", "old": "off", "new": "on"}]
    code, text, _ = cli_at(since_db)("flags", "since", "gcc-10")
    assert code == 0
    lines = text.splitlines()
    assert lines[0] == ("gcc-10 (10.1.0) since gcc-9 (9.1.0): 1 introduced, 1 removed, "
                        "1 joined -Wall, 0 joined -Wextra, 1 defaults changed")
    assert "  + -Wfresh  [in -Wextra]  New in this version." in lines
    assert "  - -Wold" in lines and "  joined -Wall: -Wkept" in lines
    assert "  ~ -Wflip: default off -> on" in lines


def test_since_every_version(since_db, cli_at):
    code, out, _ = cli_at(since_db)("flags", "since", "--json")
    rows = json.loads(out)
    assert [(r["compiler"], r["previous"]) for r in rows] == [
        ("gcc-9", None), ("gcc-10", "gcc-9"), ("gcc-11", "gcc-10")]
    assert rows[0]["introduced"] == [] and rows[2]["introduced"] == [] and not rows[2]["removed"]
    code, text, _ = cli_at(since_db)("flags", "since")
    assert text.startswith("gcc-9 (9.1.0): the oldest gcc version ingested; the history starts "
                           "here, so nothing is called new in it")


def test_since_orders_by_major_not_by_text(tmp_path, cli_at):
    """gcc-9 comes before gcc-10 (a text sort would put "gcc-10" first)."""
    db = tmp_path / "order.db"
    cli = cli_at(db)
    common = "Wcommon\nCommon Var(warn_common) Warning\nx\n"
    for major, text in ((10, C_OPT_NEW), (9, C_OPT_OLD)):
        root = _tree(tmp_path / f"g{major}", f"{major}.1.0", text, common)
        assert cli("flags", "ingest", f"gcc-{major}", "--source", str(root))[0] == 0
    code, out, _ = cli("flags", "since", "gcc-10", "--json")
    assert json.loads(out)[0]["previous"] == "gcc-9"
    code, out, _ = cli("flags", "history", "-Wfresh", "--json")
    assert [(r["compiler"], r["present"]) for r in json.loads(out)] == [
        ("gcc-9", False), ("gcc-10", True)]


def test_since_bad_input(since_db, fails_on):
    assert "'gcc-12' is not in the database" in fails_on(since_db, "flags", "since", "gcc-12")
    # a name that is neither an id nor a binary (``gcc``, on PATH, is the compiler it runs,
    # as in ub run: tests/system/test_flags_targets.py)
    assert "unknown compiler id 'gcc13x'" in fails_on(since_db, "flags", "since", "gcc13x")


def test_versions_merges_archive_and_database():
    row = store.CompilerRow(name="gcc-12", family="gcc", version="12.2.0",
                            source_kind="debian-package", source="gcc-12-source 12.2.0-14",
                            content_hash="x" * 64, ingested_at="now", flags=408,
                            package="gcc-12-source", debian_version="12.2.0-14", suite="bookworm")
    found = {
        "gcc-12": [Candidate("gcc-12-source", "12.5.0-11", "sid"),
                   Candidate("gcc-12-source", "12.2.0-14", "bookworm")],
        "gcc-9": [Candidate("gcc-9-source", "9.3.0-22", "bullseye")],
        "clang-10": [],
    }
    rows = compare.versions([row], found, choose=lambda cs: cs[-1])
    assert [r.name for r in rows] == ["gcc-9", "gcc-12"]
    gcc9, gcc12 = rows
    assert not gcc9.ingested and gcc9.available.suite == "bullseye" and gcc9.current is None
    assert gcc12.ingested and gcc12.flags == 408 and gcc12.suite == "bookworm"
    assert gcc12.available.debian_version == "12.2.0-14" and gcc12.current is True
    assert [s.suite for s in gcc12.available.in_suites] == ["sid", "bookworm"]
    only_db = compare.versions([row], None)
    assert only_db[0].available is None and only_db[0].current is None


def test_choice_among_suites(monkeypatch):
    monkeypatch.setattr(apt, "HOST_SUITE", "bookworm")
    newest_first = [Candidate("p", "12.5.0-11", "sid"), Candidate("p", "12.4.0-5", "trixie"),
                    Candidate("p", "12.2.0-14+deb12u1", "bookworm")]
    assert apt.choose(newest_first).suite == "bookworm"      # the host's: matches its compiler
    no_host = [Candidate("p", "14.2.0-19", "trixie"), Candidate("p", "14.4.0-3", "sid")]
    assert apt.choose(no_host).suite == "trixie"             # else the newest release, not sid
    only_sid = [Candidate("p", "16.2.0-4", "sid")]
    assert apt.choose(only_sid).suite == "sid"                # sid only for what no release has
    two = [Candidate("p", "1:19.1.7-3~deb12u1", "trixie"), Candidate("p", "1:19.1.7-3", "trixie")]
    assert apt.choose(two).version == "1:19.1.7-3"            # within a suite, dpkg's order
    monkeypatch.setattr(apt, "HOST_SUITE", None)
    assert apt.choose(newest_first).suite == "trixie"


def test_roots_and_flag_data_take_a_compiler_from_the_same_suite(monkeypatch):
    """``flags verify`` compares a version with its own binary only if both agree."""
    from analyzer.runtime import roots
    from warnscope.compilers import CompilerId
    monkeypatch.setattr(apt, "HOST_SUITE", "bookworm")
    for family, majors in (("gcc", range(9, 17)), ("clang", (9, 11, 13, 14, 15, 16, 17, 18,
                                                               19, 21, 22, 23))):
        for major in majors:
            cid = CompilerId(family, major)
            have = roots.suites_for(cid)
            found = [Candidate("p", "1.0-1", s) for s in have]
            assert roots.choose_suite(cid) == apt.choose(found).suite, cid


def test_private_sources_list(tmp_path, monkeypatch):
    monkeypatch.setenv("WARNSCOPE_DEBIAN_MIRROR", "http://mirror.example/debian")
    state = apt.AptState(tmp_path, apt.SUITES, kinds=("deb",))
    lines = state.sources_list().splitlines()
    assert [l.split()[-2] for l in lines] == ["bullseye", "bookworm", "trixie", "sid"]
    assert all(l.startswith("deb [target=Packages") and " http://mirror.example/debian " in l
               for l in lines)
    both = apt.AptState(tmp_path, ("bookworm",), kinds=("deb", "deb-src")).sources_list()
    assert "deb-src [target=Sources" in both and "deb [target=Packages" in both
    with pytest.raises(apt.BadInput, match="not a Debian package name"):
        state.candidates("../etc/passwd")


def test_unreachable_mirror_is_one_line(tmp_path, fails_on, monkeypatch):
    """No network to the registry: one line naming the mirror, the database untouched."""
    monkeypatch.setenv("WARNSCOPE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("WARNSCOPE_DEBIAN_MIRROR", "http://127.0.0.1:9/debian")
    db = tmp_path / "w.db"
    for args in (("flags", "ingest", "gcc-14"), ("flags", "ingest", "clang-18"),
                 ("flags", "versions", "--available")):
        msg = fails_on(db, *args)
        assert "cannot read Debian's package lists from http://127.0.0.1:9/debian" in msg, msg
        assert "bullseye, bookworm, trixie, sid" in msg
    assert not db.exists()


def test_ingested_versions_need_no_archive(since_db, cli_at, monkeypatch):
    monkeypatch.setenv("WARNSCOPE_DEBIAN_MIRROR", "http://127.0.0.1:9/debian")
    code, out, err = cli_at(since_db)("flags", "versions", "--json")
    assert code == 0, err
    rows = json.loads(out)
    assert [r["name"] for r in rows] == ["gcc-9", "gcc-10", "gcc-11"]
    assert all(r["ingested"] and r["available"] is None and r["suite"] is None for r in rows)
    assert rows[0]["source_kind"] == "source-tree"
    code, text, _ = cli_at(since_db)("flags", "versions")
    assert text.splitlines()[0].startswith("gcc-9      9.1.0          6 flags  source-tree: /")


def test_suite_with_source_is_refused(since_db, fails_on, tmp_path):
    assert "--suite picks a Debian package" in fails_on(
        since_db, "flags", "ingest", "gcc-9", "--suite", "sid", "--source", str(tmp_path))


def _schema_v3() -> str:
    """A database of schema version 3 (the fixture made by that version's code) without
    its compilers: the compiler table has no provenance columns yet. (Cutting version 3
    out of today's SCHEMA stops working as soon as a later version adds a column.)"""
    fixture = Path(__file__).resolve().parent.parent / "fixtures" / "schema" / "v3.sql"
    return fixture.read_text() + "\nDELETE FROM flag; DELETE FROM edge; DELETE FROM message;" \
        " DELETE FROM compiler;\n"


def test_migration_from_schema_3_adds_provenance(tmp_path):
    path = tmp_path / "v3.db"
    raw = sqlite3.connect(path)
    raw.executescript(_schema_v3())
    assert "suite" not in {r[1] for r in raw.execute("PRAGMA table_info(compiler)")}
    raw.executemany(
        "INSERT INTO compiler (name, family, version, source_kind, source, content_hash,"
        " ingested_at) VALUES (?, ?, ?, ?, ?, 'h', 't')",
        [("gcc-12", "gcc", "12.2.0", "debian-package", "gcc-12-source 12.2.0-14+deb12u1"),
         ("clang-16", "clang", "16.0.6", "debian-package", "libclang-16-dev 1:16.0.6-15~deb12u1"),
         ("gcc-13", "gcc", "13.1.0", "source-tree", "/src/gcc 13")])
    raw.execute("PRAGMA user_version = 3")
    raw.commit()
    raw.close()
    with pytest.raises(WarnscopeError, match="older than this warnscope"):
        connect(path, write=False)
    conn = connect(path)   # a writer migrates
    rows = {r.name: r for r in store.compilers(conn)}
    assert (rows["gcc-12"].package, rows["gcc-12"].debian_version, rows["gcc-12"].suite) == (
        "gcc-12-source", "12.2.0-14+deb12u1", None)
    assert rows["clang-16"].debian_version == "1:16.0.6-15~deb12u1"
    assert (rows["gcc-13"].package, rows["gcc-13"].debian_version) == (None, None)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
