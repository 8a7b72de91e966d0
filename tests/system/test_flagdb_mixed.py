"""The flag CLI over GCC and clang versions in one database, from the real packages:
gcc-11/12 option files and the libclang-N-dev tables of clang 13–22."""
from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from flagdb import store
from warnscope.database import connect


@pytest.fixture(scope="module")
def mixed_db(gcc_db, tmp_path_factory, real_data, clang_versions):
    path = tmp_path_factory.mktemp("mixed") / "mixed.db"
    shutil.copy(gcc_db, path)
    conn = connect(path)
    for major in clang_versions:
        store.save(conn, real_data(major))
    conn.close()
    return path


@pytest.fixture
def cli(mixed_db, cli_at):
    """The CLI on gcc-11, gcc-12 and every clang of ``clang_versions`` in one database."""
    return cli_at(mixed_db)


def test_messages_of_a_clang_group_with_texts(cli, require):
    code, out, _ = cli("flags", "messages", "-Wshadow", "--compiler", "clang-16", "--json")
    assert code == 0
    rows = json.loads(out)
    by_diag = {r["diag"]: r for r in rows}
    assert by_diag["warn_decl_shadow"]["flag"] == "-Wshadow"
    assert by_diag["warn_decl_shadow"]["severity"] == "Ignored"          # off by default
    assert by_diag["warn_decl_shadow"]["text"].startswith("declaration shadows a ")
    assert by_diag["warn_ivar_use_hidden"]["flag"] == "-Wshadow-ivar"
    assert by_diag["warn_ivar_use_hidden"]["severity"] == "Warning"      # on by default
    assert all(r["text"] and r["diag_class"] in ("WARNING", "EXTENSION") for r in rows)
    # The groups the texts come from are the groups diagtool shows under -Wshadow.
    tree = subprocess.run([require("diagtool-16"), "tree", "shadow"], capture_output=True,
                          text=True, check=True).stdout
    groups = {l.strip() for l in tree.splitlines() if l.strip().startswith("-W")}
    assert {r["flag"] for r in rows} <= groups and "-Wshadow" in groups
    code, out, _ = cli("flags", "messages", "-Wshadow", "--compiler", "clang-16")
    assert code == 0 and "declaration shadows a" in out


def test_messages_of_gcc_say_there_are_none(cli):
    code, out, _ = cli("flags", "messages", "-Wshadow", "--compiler", "gcc-12")
    assert code == 0 and "GCC's option files carry no messages" in out


def test_everything_of_clang_is_weverything(cli):
    code, out, _ = cli("flags", "everything", "clang-16", "--json")
    assert code == 0 and json.loads(out) == ["-Weverything"]
    code, out, _ = cli("flags", "everything", "clang-16")
    assert out.strip() == "-Weverything"


def test_export_list_of_clang(cli):
    code, out, _ = cli("flags", "export", "clang-16", "--format", "list")
    assert code == 0
    lines = out.splitlines()
    assert "-W = -Wextra" in lines
    assert "-Wabi # IGNORED switch" in lines
    assert "-Wall # Partially enabled by default." in lines
    assert "-Wshadow-ivar # Enabled by default." in lines
    assert "-Wshadow-field" in lines                             # off by default: no comment
    i = lines.index("-Wshadow # Partially enabled by default.")  # -Wshadow-ivar is on
    assert lines[i + 1:i + 3] == ["# -Wshadow-field-in-constructor-modified", "# -Wshadow-ivar"]
    assert sum(l.endswith("# IGNORED switch") for l in lines) == 40       # clang-16's tables: 40
    assert sum(" = " in l for l in lines if not l.startswith("#")) == 45  # and 45 aliases


def test_history_of_unsafe_buffer_usage(cli, clang_versions):
    code, out, _ = cli("flags", "history", "-Wunsafe-buffer-usage", "--json")
    assert code == 0
    rows = {r["compiler"]: r for r in json.loads(out)}
    assert set(rows) == {"gcc-11", "gcc-12"} | {f"clang-{v}" for v in clang_versions}
    for name, row in rows.items():
        major = int(name.rpartition("-")[2])
        assert row["present"] == (name.startswith("clang") and major >= 16), name
    assert rows["clang-16"]["default"] == "off" and not rows["clang-16"]["in_wall"]
    code, out, _ = cli("flags", "history", "-Wunsafe-buffer-usage")
    lines = out.splitlines()
    assert re.match(r"gcc-12\s+12\.2\.0\s+absent$", lines[1])
    assert re.match(r"clang-16\s+16\.\S+\s+default off$", lines[5])


def test_cross_family_diff_json(cli):
    code, out, _ = cli("flags", "diff", "gcc-12", "clang-16", "--json")
    assert code == 0
    result = json.loads(out)
    assert set(result) == {"old", "new", "cross_family", "in_both", "added", "removed", "changed"}
    assert result["cross_family"] is True
    both = set(result["in_both"])
    only_clang = {f["name"] for f in result["added"]}
    only_gcc = {f["name"] for f in result["removed"]}
    assert {"-Wall", "-Wextra", "-Wshadow", "-Wformat", "-Wabi"} <= both
    assert "-Wunsafe-buffer-usage" in only_clang and "-Weverything" in only_clang
    assert "-Wdangling-pointer=" in only_gcc and "-Wformat=" in only_gcc
    assert not both & only_clang and not both & only_gcc
    changed = {c["name"]: {ch["attribute"]: ch for ch in c["changes"]} for c in result["changed"]}
    assert set(changed) <= both
    assert changed["-Wabi"]["ignored"]["new"] is True                  # a no-op in clang
    assert changed["-Wall"]["default"] == {"attribute": "default", "old": "off", "new": "partial"}
    code, out, _ = cli("flags", "diff", "gcc-12", "clang-16")
    assert "~ -Wall: default changed: off -> partial" in out.splitlines()
    # Descriptions come from different projects and are not compared across families.
    assert not any("description" in c for c in changed.values())
    # -Wformat is in -Wall in both (in GCC through its alias -Wformat=1).
    assert "in_wall" not in changed.get("-Wformat", {})
    code, out, _ = cli("flags", "diff", "gcc-12", "clang-16")
    assert out.splitlines()[0] == (f"gcc-12 vs clang-16: {len(both)} names in both, "
                                   f"{len(changed)} of them differ; {len(only_gcc)} only in "
                                   f"gcc-12, {len(only_clang)} only in clang-16")


def test_check_remark_forms_as_clang_takes_them(cli, require):
    """clang takes -Rno-X for a remark group and -Rpass=<regex> (a driver option over the
    optimisation remarks); the binary's probe decides."""
    clang = require("clang-16")
    flags = ["-Rno-pass", "-Rpass=inline", "-Rpass-missed=.*", "-Rno-bogus", "-Rpass-bogus=x"]
    code, out, _ = cli("flags", "check", "-c", "clang-16", "--json", "--", *flags)
    got = {r["flag"]: r["status"] for r in json.loads(out)}
    for flag in flags:
        probe = subprocess.run([clang, "-Werror=unknown-warning-option", flag, "-x", "c",
                                "-fsyntax-only", "/dev/null"], capture_output=True, text=True)
        accepted = probe.returncode == 0
        assert got[flag] == ("known" if accepted else "unknown"), (flag, probe.stderr)
    assert got["-Rno-pass"] == "known" and got["-Rno-bogus"] == "unknown"


def test_pedantic_spellings_in_both_families(cli, require):
    """gcc-12's data holds -pedantic/--pedantic as aliases of -Wpedantic; clang's tables
    hold no driver spellings, and clang takes both: ``check`` knows them there too."""
    require("clang-16")
    for typed in ("-pedantic", "--pedantic"):
        proc = subprocess.run(["clang-16", typed, "-std=c11", "-x", "c", "-fsyntax-only", "-"],
                              input="", capture_output=True, text=True)
        assert proc.returncode == 0 and "[-Wempty-translation-unit]" in proc.stderr, proc.stderr
    code, out, _ = cli("flags", "check", "-c", "gcc-12,clang-16", "--json", "-pedantic", "--pedantic")
    assert code == 0
    got = {(r["flag"], r["compiler"]): (r["status"], r["alias_of"]) for r in json.loads(out)}
    assert got == {("-pedantic", "gcc-12"): ("alias", "-Wpedantic"),
                   ("--pedantic", "gcc-12"): ("alias", "-Wpedantic"),
                   ("-pedantic", "clang-16"): ("known", None),
                   ("--pedantic", "clang-16"): ("known", None)}


def test_a_compiler_not_ingested_is_its_own_error(mixed_db):
    """Callers that would ingest what is missing catch exactly this, never a busy or
    damaged database."""
    from warnscope.errors import NotIngested

    with pytest.raises(NotIngested, match="'gcc-9' is not in the database"):
        store.load(connect(mixed_db, write=False), "gcc-9")
