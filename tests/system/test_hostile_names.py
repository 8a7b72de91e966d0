"""Option names from a hostile GCC tree, clang table directory or database file never
reach a command line or a shell: the ingest is refused with file:line, a database
holding such a name is refused in one line before anything is built, and nothing the
name spells runs (the file ``F`` it would touch never appears).

Real inputs: Debian's gcc-12 option files and libclang-16-dev tables (from the cache),
the real gcc-11/gcc-12 database, the fixture project tests/fixtures/warnings/upgrade.
"""
from __future__ import annotations

import re
import shutil
import sqlite3
from pathlib import Path

import pytest

UPGRADE = Path(__file__).resolve().parents[1] / "fixtures" / "warnings" / "upgrade"
ERROR = "warnscope: error: "
#: the names a hostile tree or database plants: a plugin, a search path, cpp's include,
#: and shell text for a ``'{cflags}'`` template and for make's recipe shell
HOSTILE = ["fplugin=evil.so", "B/evil/", "Wp,-include,/root/secret.h",
           "Wzz;touch${IFS}F;", "Wzz;touch$${IFS}F;"]


def refused(cli_at, dump, db: Path, *args: str) -> str:
    """Run a command that must exit 1 with one error line and leave ``db`` as it was."""
    before = dump(db)
    code, out, err = cli_at(db)(*args)
    lines = err.strip().splitlines()
    assert code == 1 and len(lines) == 1 and lines[0].startswith(ERROR), (code, out, err)
    assert dump(db) == before
    return lines[0]


# ------------------------------------------------------------------ a GCC option tree

@pytest.fixture(scope="module")
def gcc12_tree() -> Path:
    from flagdb.gcc_ingest import fetch_debian

    return fetch_debian("12")[0]


@pytest.mark.parametrize("name", HOSTILE)
def test_gcc_tree_with_a_hostile_warning_record_is_refused(name, tmp_path, gcc12_tree, gcc_db_copy,
                                                           cli_at, dump, monkeypatch):
    """A copy of the real gcc-12 tree, one record filed as a warning planted in its
    c-family/c.opt: one line naming file:line, exit 1, the database as it was."""
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "gcc12"
    shutil.copytree(gcc12_tree, root)
    c_opt = root / "gcc" / "c-family" / "c.opt"
    text = c_opt.read_text()
    line = text.count("\n") + 2
    c_opt.write_text(text + f"\n{name}\nC ObjC C++ ObjC++ Var(warn_evil) Warning\nEvil.\n")
    msg = refused(cli_at, dump, gcc_db_copy, "flags", "ingest", "gcc-12", "--source", str(root))
    assert f"c-family/c.opt:{line}: " in msg and "refusing the tree" in msg
    assert not (tmp_path / "F").exists()


def test_gcc_tree_with_an_alias_to_a_driver_option_is_refused(tmp_path, gcc12_tree, gcc_db_copy,
                                                              cli_at, dump):
    root = tmp_path / "gcc12"
    shutil.copytree(gcc12_tree, root)
    common = root / "gcc" / "common.opt"
    text = common.read_text()
    line = text.count("\n") + 2
    common.write_text(text + "\nWsneaky\nCommon Warning Alias(fplugin=, /tmp/evil.so)\n")
    msg = refused(cli_at, dump, gcc_db_copy, "flags", "ingest", "gcc-12", "--source", str(root))
    assert f"common.opt:{line}: " in msg and "-fplugin=/tmp/evil.so" in msg


# ------------------------------------------------------------------ a database file

def _rename_flag(db: Path, compiler: str, old: str, new: str) -> None:
    conn = sqlite3.connect(db)
    with conn:
        n = conn.execute("UPDATE flag SET name = ? WHERE name = ? AND compiler_id = "
                         "(SELECT id FROM compiler WHERE name = ?)", (new, old, compiler)).rowcount
    conn.close()
    assert n == 1


@pytest.mark.parametrize("template", ["make CFLAGS='{cflags}'", "make"])
@pytest.mark.parametrize("name", ["-fplugin=/x.so", "-Wzz;touch${IFS}F;", "-Wzz;touch$${IFS}F;",
                                  "-Wp,-include,/etc/shadow"])
def test_database_with_a_hostile_flag_refuses_a_level_all_build(name, template, tmp_path, gcc_db_copy,
                                                                cli_at, dump, monkeypatch):
    """gcc-12's -Wshadow renamed in the database: `warnings run` at level all refuses
    in one line before any build, and the file the name would touch never appears."""
    monkeypatch.chdir(tmp_path)
    _rename_flag(gcc_db_copy, "gcc-12", "-Wshadow", name)
    msg = refused(cli_at, dump, gcc_db_copy, "warnings", "run", "--source", str(UPGRADE),
                  "--build", template, "--compilers", "gcc-12", "--level", "all", "--quiet")
    assert "gcc-12 in the database holds the flag" in msg and "refusing to pass it" in msg
    assert not (tmp_path / "F").exists() and not list(UPGRADE.glob("F"))


def test_database_with_a_hostile_flag_refuses_an_overhead_study(tmp_path, gcc_db_copy, cli_at, dump,
                                                                 monkeypatch):
    monkeypatch.chdir(tmp_path)
    _rename_flag(gcc_db_copy, "gcc-12", "-Wshadow", "-Wzz;touch${IFS}F;")
    msg = refused(cli_at, dump, gcc_db_copy, "overhead", "run", "--source", str(UPGRADE),
                  "--build", "make CFLAGS='{cflags}'", "--compilers", "gcc-12", "--levels", "all",
                  "--runs", "1", "--no-accounting", "--quiet")
    assert "'-Wzz;touch${IFS}F;'" in msg
    assert not (tmp_path / "F").exists()


@pytest.mark.parametrize("flags", ["-Wzz;touch${IFS}F;", "all -Wx';touch${IFS}F;'", "-B/evil/"])
def test_a_flag_set_of_other_characters_is_refused(flags, tmp_path, gcc_db_copy, cli_at, dump,
                                                   monkeypatch):
    monkeypatch.chdir(tmp_path)
    msg = refused(cli_at, dump, gcc_db_copy, "warnings", "run", "--source", str(UPGRADE),
                  "--build", "make CFLAGS='{cflags}'", "--compilers", "gcc-12",
                  "--flag-set", f"x={flags}", "--level", "x", "--quiet")
    assert "--flag-set x: " in msg
    assert not (tmp_path / "F").exists()


def test_level_all_fills_a_quoted_template_word_for_word(gcc_db_copy, cli_at, require):
    """The real level-all flags in ``make CFLAGS='{cflags}'``: the build gets them as
    given (the arrival check passes: every compile carries the level's flags exactly)."""
    require("gcc-12")
    code, out, err = cli_at(gcc_db_copy)("warnings", "run", "--source", str(UPGRADE), "--build",
                                         "make CFLAGS='{cflags}'", "--compilers", "gcc-12",
                                         "--level", "all", "--json", "--quiet")
    assert code == 0, err
    import json
    [build] = json.loads(out)["builds"]
    assert build["status"] == "ok" and build["diagnostics"]


# ------------------------------------------------------------------ clang

def _rename_group(path: Path, hostile_prefix: str) -> tuple[str, int]:
    """Rename a group of a real length-prefixed name table (clang 14–21) in place, to a
    name of the same length that starts with ``hostile_prefix``, so no offset moves;
    returns the new name and its row's line."""
    text = path.read_text()
    for m in re.finditer(r'\\(\d{3})([a-z][a-z0-9+=._-]+)(?=["\\])', text):
        old = m.group(2)
        if int(m.group(1), 8) == len(old) > len(hostile_prefix) and f"/* {old} */" in text:
            new = (hostile_prefix + "x" * len(old))[:len(old)]
            text = text[:m.start(2)] + new + text[m.end(2):]
            row = text.index(f"/* {old} */")
            text = text.replace(f"/* {old} */", f"/* {new} */", 1)
            path.write_text(text)
            return new, text[:row].count("\n") + 1
    raise AssertionError("no group name long enough to rename")


def test_clang_tables_with_a_group_named_like_a_driver_option_are_refused(tmp_path, gcc_db_copy,
                                                                          cli_at, dump):
    """libclang-16-dev's tables with a group renamed ``p,-load,evil.so,…``: as a flag it
    would be ``-Wp,-load,evil.so,…``, which clang hands to cc1 (``flags verify``'s probe
    passes -W<group> for every group). Refused at the row, the database as it was."""
    from flagdb.clang_ingest import fetch_package

    src, _ = fetch_package(16)
    d = tmp_path / "inc16"
    shutil.copytree(src, d)
    groups = d / "DiagnosticGroups.inc"
    new, line = _rename_group(groups, "p,-load,evil.so,")
    msg = refused(cli_at, dump, gcc_db_copy, "flags", "ingest", "clang-16", "--source", str(d))
    assert f"DiagnosticGroups.inc:{line}: " in msg and "-Wp," in msg and "driver option" in msg


def test_database_with_a_hostile_clang_group_refuses_verify(tmp_path, gcc_clang_db, cli_at, dump):
    """A database whose clang-16 group was renamed to ``-Wp,-load,…``: ``flags verify``
    refuses in one line instead of probing clang with it."""
    db = tmp_path / "clang.db"
    shutil.copy(gcc_clang_db, db)
    _rename_flag(db, "clang-16", "-Wshadow", "-Wp,-load,/tmp/evil.so")
    msg = refused(cli_at, dump, db, "flags", "verify", "clang-16")
    assert "clang-16 in the database holds the flag '-Wp,-load,/tmp/evil.so'" in msg
