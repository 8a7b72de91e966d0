"""Every GCC and clang that Debian packages, read from the real packages of four suites.

By default a few extra versions beyond the shared gcc-11/gcc-12 database: gcc-10
(bullseye, the old .opt layout) and gcc-14, clang-11 (the old table layout) and
clang-18, plus clang-9 (the oldest DIAG rows), about 230 MB of downloads into the shared cache on the first run.
``WARNSCOPE_ZOO_ALL=1`` adds the test that ingests every version (gcc-9 … gcc-16,
clang-9 … clang-23: about 1.2 GB downloaded once) and prints a table of them.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time

import pytest

from flagdb import compare, store
from warnscope import apt
from warnscope.database import connect
from flagdb.ingest import ingest
from flagdb.closure import Index, enabled_by_group

GCC_ALL = tuple(range(9, 17))
CLANG_ALL = (9, 11, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23)
ALL = os.environ.get("WARNSCOPE_ZOO_ALL") == "1"


@pytest.fixture(scope="module")
def zoo_db(gcc_db, tmp_path_factory):
    """gcc-10, gcc-11, gcc-12 and gcc-14 in one database."""
    path = tmp_path_factory.mktemp("zoo") / "zoo.db"
    shutil.copy(gcc_db, path)
    conn = connect(path)
    for compiler in ("gcc-10", "gcc-14"):
        ingest(conn, compiler)
    conn.close()
    return path


def _wall(data) -> int:
    return len(enabled_by_group(Index(data), "-Wall", "C"))


def test_old_and_new_gcc_provenance(zoo_db, cli_at):
    code, out, err = cli_at(zoo_db)("flags", "versions", "--json")
    assert code == 0, err
    rows = {r["name"]: r for r in json.loads(out)}
    assert list(rows) == ["gcc-10", "gcc-11", "gcc-12", "gcc-14"]   # by major, not by text
    assert rows["gcc-10"]["suite"] == "bullseye" and rows["gcc-10"]["version"].startswith("10.2.")
    assert re.fullmatch(r"10\.2\.1-\S+", rows["gcc-10"]["debian_version"])
    assert rows["gcc-10"]["package"] == "gcc-10-source"
    assert rows["gcc-14"]["suite"] in ("trixie", "sid")
    assert rows["gcc-14"]["source"] == f"gcc-14-source {rows['gcc-14']['debian_version']}"


def test_counts_grow_with_the_version(zoo_db):
    conn = connect(zoo_db, write=False)
    datas = [store.load(conn, f"gcc-{m}", with_messages=False) for m in (10, 11, 12, 14)]
    counts = [len(d.flags) for d in datas]
    walls = [_wall(d) for d in datas]
    assert counts == sorted(counts) and 300 < counts[0] and counts[-1] < 700, counts
    assert walls == sorted(walls) and walls[0] > 40, walls


def test_dangling_pointer_first_appears_in_gcc12(zoo_db, cli_at):
    cli = cli_at(zoo_db)
    code, out, _ = cli("flags", "history", "-Wdangling-pointer", "--json")
    rows = {r["compiler"]: r for r in json.loads(out)}
    assert [c for c, r in rows.items() if r["present"]] == ["gcc-12", "gcc-14"]
    assert rows["gcc-12"]["in_wall"] and rows["gcc-14"]["in_wall"]
    code, text, _ = cli("flags", "history", "-Wdangling-pointer")
    assert text.splitlines()[0].split()[-1] == "absent" and "gcc-12" in text.splitlines()[2]
    assert "gcc: first in gcc-12, still present" in text.splitlines()
    code, out, _ = cli("flags", "since", "gcc-12", "--json")
    (since,) = json.loads(out)
    assert since["previous"] == "gcc-11"
    new = {f["name"]: f for f in since["introduced"]}
    assert "-Wdangling-pointer=" in new and "-Wbidi-chars=" in new
    code, out, _ = cli("flags", "since", "gcc-14", "--json")
    assert json.loads(out)[0]["previous"] == "gcc-12"   # the previous *ingested* version


def test_diff_across_four_majors(zoo_db, cli_at):
    code, out, _ = cli_at(zoo_db)("flags", "diff", "gcc-10", "gcc-14", "--json")
    result = json.loads(out)
    added = {f["name"] for f in result["added"]}
    assert {"-Wdangling-pointer=", "-Wuse-after-free=", "-Winfinite-recursion"} <= added


@pytest.mark.parametrize("major", [9, 11, 18])
def test_old_and_new_clang_tables(major, real_data, real_tables):
    data = real_data(major)
    assert data.version.startswith(f"{major}.") and data.package == f"libclang-{major}-dev"
    assert data.suite in apt.SUITES and data.source == f"{data.package} {data.debian_version}"
    flags = {f.name: f for f in data.flags}
    assert flags["-W"].alias_of == "-Wextra"
    assert ("-Wall", "-Wmost") in {(e.parent, e.child) for e in data.edges}
    assert flags["-Wall"].default == "partial" and flags["-Rpass"].kind == "remark"
    assert real_tables(major).layout == ("table" if major <= 13 else "docs")
    assert 700 < len(data.flags) < 1200
    assert ("-Wunsafe-buffer-usage" in flags) == (major >= 16)
    assert ("-Wdeprecated-copy" in flags) == (major >= 10)   # new in clang 10


def test_clang9_rows_have_nine_fields(real_tables):
    """clang 9 wrote DIAG rows without the DEFERRABLE field clang 11 added: the
    parser reads every one of them and keeps their groups."""
    tables = real_tables(9)
    unused = tables.diags["warn_unused_variable"]
    assert unused.group and tables.groups[unused.group].name == "unused-variable"
    assert tables.diags["err_asm_invalid_escape"].group is None


@pytest.mark.parametrize("compiler, said", [
    # older than any Debian suite serves: where its source comes from instead
    ("gcc-8", "gcc-8: Debian packages no option files of it; give its source tree or release tarball "
              "with --source (flags versions --available lists where to get one)"),
    ("clang-10", "Debian has no package libclang-10-dev in bullseye, bookworm, trixie, sid")])
def test_version_debian_does_not_have(compiler, said, gcc_db_copy, fails_on):
    assert said in fails_on(gcc_db_copy, "flags", "ingest", compiler)


def test_suite_can_be_pinned(tmp_path, cli_at):
    code, out, err = cli_at(tmp_path / "p.db")("flags", "ingest", "gcc-12", "--suite", "bookworm")
    assert code == 0, err
    row = store.compiler_row(connect(tmp_path / "p.db", write=False), "gcc-12")
    assert row.suite == "bookworm" and row.debian_version.startswith("12.2.0-")
    msg = cli_at(tmp_path / "p.db")("flags", "ingest", "gcc-9", "--suite", "sid")
    assert msg[0] != 0 and "Debian has no package gcc-9-source in sid" in msg[2]


def test_versions_lists_the_archive(gcc_db, cli_at):
    code, out, err = cli_at(gcc_db)("flags", "versions", "--available", "--json")
    assert code == 0, err
    rows = {r["name"]: r for r in json.loads(out)}
    for major in GCC_ALL:
        assert rows[f"gcc-{major}"]["available"]["package"] == f"gcc-{major}-source"
    for major in CLANG_ALL:
        assert rows[f"clang-{major}"]["available"]["suite"] in apt.SUITES
    for name in ("gcc-8", "clang-10"):   # no Debian package: listed with the upstream release only
        assert rows[name]["available"] is None and rows[name]["upstream"], rows[name]
    assert rows["gcc-9"]["available"]["suite"] == "bullseye" and not rows["gcc-9"]["ingested"]
    assert rows["gcc-12"]["ingested"] and rows["gcc-12"]["available"]["suite"] == "bookworm"
    assert rows["gcc-12"]["current"] is True
    code, text, _ = cli_at(gcc_db)("flags", "versions", "--available")
    line = next(l for l in text.splitlines() if l.startswith("gcc-9 "))
    assert re.search(r"bullseye 9\.3\.0-\S+ +not ingested$", line), line


def test_interrupted_extraction_resumes(tmp_path, seeded_cache, warnscope):
    """A first ingest killed mid-extraction leaves no half-filled directory that a
    second one trips over: the second one ingests the same version completely."""
    shared = apt.archive()
    deb = shared.fetch(shared.best("gcc-10-source"))
    cache = seeded_cache(tmp_path / "cache")
    (cache / "debs").mkdir()
    os.link(deb, cache / "debs" / deb.name)
    env = {"WARNSCOPE_CACHE": str(cache)}
    cmd = [sys.executable, "-c", "import sys; from analyzer.cli import main; sys.exit(main())",
           "--db", str(tmp_path / "w.db"), "flags", "ingest", "gcc-10"]
    child = subprocess.Popen(cmd, env={**os.environ, "PYTHONPATH": os.getcwd(), **env},
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while not list((cache / "gcc").glob(".*.part-*")) and time.monotonic() < deadline:
        time.sleep(0.05)
    child.kill()
    child.wait()
    assert not (tmp_path / "w.db").exists() or not store.compilers(connect(tmp_path / "w.db"))
    proc = warnscope("--db", str(tmp_path / "w.db"), "flags", "ingest", "gcc-10", env=env)
    assert proc.returncode == 0, proc.stderr
    assert b"gcc-10: added (10.2.1" in proc.stdout   # BASE-VER after Debian's git-updates.diff
    assert [p.name for p in (cache / "gcc").iterdir() if not p.name.endswith(".lock")] == [
        f"10_{deb.name.split('_')[1]}"]


@pytest.mark.skipif(not ALL, reason="ingests every version (~1.2 GB once): WARNSCOPE_ZOO_ALL=1")
def test_every_version(tmp_path):
    """Every GCC and clang Debian packages, ingested into one database; prints the table."""
    conn = connect(tmp_path / "all.db")
    lines = []
    previous: dict[str, int] = {}
    for compiler in [f"gcc-{m}" for m in GCC_ALL] + [f"clang-{m}" for m in CLANG_ALL]:
        data, _ = ingest(conn, compiler)
        family = data.family
        wall = _wall(data)
        lines.append(f"{compiler:9} {data.version:8} {data.suite:9} {data.debian_version:22} "
                     f"{len(data.flags):5} flags {wall:4} in -Wall")
        assert data.version.split(".")[0] == compiler.split("-")[1]
        if family in previous:   # monotone-ish: no version loses a tenth of its flags
            assert len(data.flags) >= 0.9 * previous[family], lines
        previous[family] = len(data.flags)
    print("\n" + "\n".join(lines))
    history = {e.compiler: e for e in compare.history(conn, "-Wdangling-pointer")}
    assert [c for c, e in history.items() if e.present and c.startswith("gcc")] == [
        f"gcc-{m}" for m in GCC_ALL if m >= 12]
    unsafe = {e.compiler: e.present for e in compare.history(conn, "-Wunsafe-buffer-usage")}
    assert [c for c, p in unsafe.items() if p] == [f"clang-{m}" for m in CLANG_ALL if m >= 16]
    since = {r.compiler: r for r in compare.since(conn)}
    assert since["gcc-9"].previous is None and since["gcc-10"].previous == "gcc-9"
    assert since["clang-11"].previous == "clang-9" and since["clang-23"].previous == "clang-22"
    assert "-Wdangling-pointer=" in {f.name for f in since["gcc-12"].introduced}
