"""The flag database's one data contract, end to end.

Every ``warnscope flags`` query runs, in text and with ``--json``, over three real
entries: gcc-12 read from Debian's option files, gcc-12 built from the binary through
the warnscope plugin, and clang-16 read from libclang-16-dev's tables. None may crash;
the two GCC routes must give JSON of the same shape; every name in the JSON must be a
flag name (qualifiers are fields, not prose inside names); and a few real facts must
come out of both GCC routes alike.
"""
from __future__ import annotations

import functools
import io
import json
import re
import shutil
import sqlite3
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from analyzer.cli import main
from analyzer.gccplugin import binary as gcc_binary
from analyzer.gccplugin import plugin as gcc_plugin
from flagdb import store
from warnscope.database import connect
from flagdb.ingest import store_data
from warnscope.schema import SCHEMA_VERSION

#: an option name as typed: -W…, clang's -R…, and the few other spellings GCC files as
#: warning options (-pedantic, --all-warnings); never prose (spaces, parentheses, &&)
FLAG_NAME = re.compile(r"--?[A-Za-z][^\s()&]*")
#: JSON keys whose values are flag names (strings or lists of them)
NAME_KEYS = {"name", "typed", "alias_of", "requires", "in_both", "aliases", "suggestion", "flag"}


def _require_plugin() -> None:
    try:
        gcc_plugin.locate("gcc-12")
    except gcc_plugin.PluginUnavailable as exc:
        pytest.skip(f"no GCC plugin: {exc}")


@pytest.fixture(scope="module")
def files_db(gcc_clang_db, tmp_path_factory) -> Path:
    """gcc-11 and gcc-12 from the option files, clang-16 from its tables."""
    path = tmp_path_factory.mktemp("contract") / "files.db"
    shutil.copy(gcc_clang_db, path)
    return path


@pytest.fixture(scope="module")
def binary_db(files_db, tmp_path_factory) -> Path:
    """The same, with gcc-12 built from the binary instead."""
    _require_plugin()
    path = tmp_path_factory.mktemp("contract") / "binary.db"
    shutil.copy(files_db, path)
    conn = connect(path)
    assert store_data(conn, gcc_binary.ingest("gcc-12")) == "replaced"
    assert store.compiler_row(conn, "gcc-12").source_kind == "binary"
    conn.close()
    return path


def commands(compiler: str) -> dict[str, list[str]]:
    """Every query command, named, with arguments that give each a non-empty answer."""
    gcc = compiler.startswith("gcc")
    return {
        "versions": ["versions"],
        "list": ["list", compiler],
        "list-all": ["list", compiler, "--all", "--lang", "c++"],
        "show": ["show", "-Wall", "-c", compiler],
        "show-level": ["show", "-Wformat=2" if gcc else "-Wno-shadow", "-c", compiler],
        "tree": ["tree", compiler, "-Wextra"],
        "tree-alias": ["tree", compiler, "-Wformat" if gcc else "-W"],
        "diff": ["diff", "gcc-11", compiler] if gcc else ["diff", "gcc-12", compiler],
        "history": ["history", "-Wshadow"],
        "check": ["check", "-c", compiler, "--", "-Wall", "-Wshadwo", "-Wno-bogus", "-Wformat=7",
                  "-Wformat", "-Werror=shadwo", "-Wunreachable-code"],
        "check-portable": ["check", "-c", f"{compiler},gcc-11", "--portable", "--",
                           "-Wall", "-Wshadow"],
        "everything": ["everything", compiler],
        "messages": ["messages", "-Wshadow", "-c", compiler],
        "closure": ["closure", compiler, "-Wall", "--no-plugin"],
    }


def run_cli(db: Path, *args: str) -> tuple[int, str, str]:
    """``warnscope --db DB ARGS…`` in-process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["--db", str(db), *args])
    return code, out.getvalue(), err.getvalue()


def run_all(db: Path, compiler: str) -> dict[str, object]:
    """Run every command in text and JSON; return the JSON answers by command name."""
    cli = functools.partial(run_cli, db)
    answers: dict[str, object] = {}
    for name, args in commands(compiler).items():
        code, out, err = cli("flags", *args)
        assert code == 0 and out.strip() and "Traceback" not in out + err, (name, err)
        code, out, err = cli("flags", args[0], "--json", *args[1:])
        assert code == 0 and "Traceback" not in err, (name, err)
        answers[name] = json.loads(out)
    code, out, err = cli("flags", "export", compiler, "--format", "list")
    assert code == 0 and out.strip() and not err
    code, out, err = cli("flags", "export", compiler, "--format", "json")
    assert code == 0 and not err
    answers["export"] = json.loads(out)
    assert answers["export"] == answers["list"]
    for name, value in answers.items():
        if name != "versions":
            assert_names(value, name)
    return answers


def assert_names(value, where: str, key: str | None = None) -> None:
    """Every name-like field holds flag names only: no spaces, no parentheses, no prose."""
    if isinstance(value, dict):
        if value.get("attribute") in ("alias_of", "enables"):  # a diff change of names
            for side in (value["old"], value["new"]):
                assert_names(side, where, "name")
        for k, v in value.items():
            assert_names(v, f"{where}.{k}", k if k in NAME_KEYS else None)
    elif isinstance(value, list):
        for v in value:
            assert_names(v, where, key)
    elif key is not None and value is not None:
        assert isinstance(value, str) and FLAG_NAME.fullmatch(value), (where, value)


def shapes(value, path: str = ".", out: dict | None = None) -> dict[str, set[str]]:
    """The shape of a JSON value: the keys of the objects at each path
    (``.enables[]`` -> {name, typed, value, …}); a list's items share one path."""
    out = {} if out is None else out
    if isinstance(value, dict):
        out.setdefault(path, set()).update(value)
        for k, v in value.items():
            shapes(v, f"{path.rstrip('.')}.{k}", out)
    elif isinstance(value, list):
        for v in value:
            shapes(v, path + "[]", out)
    return out


def assert_same_shape(a, b, name: str) -> None:
    """Objects at the same place have the same keys (a list empty on one side shows none)."""
    sa, sb = shapes(a), shapes(b)
    if not sa and not sb:  # lists of names (everything, check --portable)
        assert type(a) is type(b), name
        return
    common = sa.keys() & sb.keys()
    assert common, name
    for path in sorted(common):
        assert sa[path] == sb[path], (name, path, sa[path] ^ sb[path])


@pytest.fixture(scope="module")
def files_answers(files_db):
    return run_all(files_db, "gcc-12")


@pytest.fixture(scope="module")
def binary_answers(binary_db):
    return run_all(binary_db, "gcc-12")


@pytest.fixture(scope="module")
def clang_answers(files_db):
    return run_all(files_db, "clang-16")


# ------------------------------------------------------------------ every command, every entry

def test_every_query_over_the_option_file_entry(files_answers):
    assert len(files_answers["list"]) > 300


def test_every_query_over_the_binary_entry(binary_answers):
    assert len(binary_answers["list"]) > 300


def test_every_query_over_a_clang_entry(clang_answers):
    assert len(clang_answers["list"]) > 500
    on = {t["name"] for t in clang_answers["show"]["turns_on"]}
    assert "-Wmost" in on
    assert clang_answers["diff"]["cross_family"] is True
    assert clang_answers["messages"] and all(m["flag"].startswith("-W")
                                             for m in clang_answers["messages"])


def test_both_gcc_routes_give_json_of_one_shape(files_answers, binary_answers):
    for name in files_answers:
        assert_same_shape(files_answers[name], binary_answers[name], name)
        if name != "diff":  # gcc-11 -> gcc-12: the binary has options the files leave out
            assert shapes(files_answers[name]).keys() == shapes(binary_answers[name]).keys(), name


def test_same_shape_for_clang(files_answers, clang_answers):
    """clang's answers are the same objects (their keys), whatever the family."""
    for name in ("list", "show", "tree", "check", "history", "closure", "diff", "messages"):
        if clang_answers[name] and files_answers[name]:
            assert_same_shape(clang_answers[name], files_answers[name], name)


@pytest.mark.parametrize("answers", ["files_answers", "binary_answers"])
def test_real_facts_from_both_gcc_routes(request, answers):
    got = request.getfixturevalue(answers)
    rows = {r["name"]: r for r in got["list"]}
    # -Wunused-parameter: -Wextra turns it on only together with -Wunused (and back).
    by = {(e["name"], tuple(e["requires"])) for e in rows["-Wunused-parameter"]["enabled_by"]}
    assert {("-Wextra", ("-Wunused",)), ("-Wunused", ("-Wextra",))} <= by
    extra = {e["name"]: e for e in rows["-Wextra"]["enables"]}
    assert extra["-Wunused-parameter"]["requires"] == ["-Wunused"]
    # -Wall sets -Waligned-new=global, for C++ only.
    [aligned] = [e for e in rows["-Wall"]["enables"] if e["name"] == "-Waligned-new="]
    assert (aligned["typed"], aligned["value"]) == ("-Waligned-new=global", "global")
    assert "C++" in aligned["languages"] and "C" not in aligned["languages"]
    # A level form shows that level's effect; the tree renders qualifiers, not names.
    level = got["show-level"]
    assert (level["name"], level["level"], level["typed"]) == ("-Wformat=", "2", "-Wformat=2")
    assert "-Wformat-security" in {t["name"] for t in level["turns_on"]}
    tree = got["tree"]
    param = next(c for c in tree["children"] if c["name"] == "-Wunused-parameter")
    assert param["requires"] == ["-Wunused"]
    check = {r["flag"]: r for r in got["check"]}
    assert check["-Wshadwo"]["status"] == "unknown" and check["-Wshadwo"]["suggestion"] == "-Wshadow"
    assert check["-Wformat"]["status"] == "alias" and check["-Wformat"]["alias_of"] == "-Wformat=1"
    assert check["-Wformat=7"]["status"] == "bad-value"
    assert "-Wformat=" in check["-Wformat=7"]["reason"]
    assert check["-Wno-bogus"]["note"].startswith("GCC accepts an unknown -Wno-")
    assert "-Wformat=2" in got["everything"]


def test_text_renders_the_same_objects(files_db, binary_db, cli_at):
    for db in (files_db, binary_db):
        cli = cli_at(db)
        code, out, _ = cli("flags", "tree", "gcc-12", "-Wextra")
        assert "  -Wunused-parameter  (with -Wunused)" in out.splitlines()
        code, out, _ = cli("flags", "show", "-Waligned-new=", "-c", "gcc-12")
        assert "  enabled by  -Wall (sets -Waligned-new=global)" in out.splitlines()
        code, out, _ = cli("flags", "check", "-c", "gcc-12", "--", "-Wshadwo", "-Wno-bogus")
        lines = out.splitlines()
        assert lines[1].split() == ["-Wshadwo", "unknown", "(did", "you", "mean", "-Wshadow?)",
                                    "error,", "stops"]
        assert lines[-1].startswith("note: GCC accepts an unknown -Wno-")


# ------------------------------------------------------------------ verify

@pytest.mark.parametrize("db_name, compiler", [("files_db", "gcc-12"), ("binary_db", "gcc-12"),
                                               ("files_db", "clang-16")])
def test_verify_exit_status_says_whether_all_is_explained(request, db_name, compiler, cli_at):
    if shutil.which(compiler) is None:
        pytest.skip(f"{compiler} is not installed")
    cli = cli_at(request.getfixturevalue(db_name))
    code, out, err = cli("flags", "verify", compiler, "--json")
    assert "Traceback" not in err
    report = json.loads(out)
    assert set(report) == {"compiler", "ok", "compared", "findings"}
    assert code == (0 if report["ok"] else 1)
    for f in report["findings"]:
        assert set(f) == {"check", "flag", "expected", "actual", "reason"}
    code_text, out, _ = cli("flags", "verify", compiler)
    assert code_text == code and f"{len([f for f in report['findings'] if not f['reason']])} " \
        "unexplained" in out


def test_verify_exits_1_on_a_wrong_entry(gcc_db_copy, cli_at):
    """The shell sees verification fail: an edge GCC does not have."""
    if shutil.which("gcc-12") is None:
        pytest.skip("gcc-12 is not installed")
    conn = connect(gcc_db_copy)
    cid = conn.execute("SELECT id FROM compiler WHERE name = 'gcc-12'").fetchone()[0]
    conn.execute("INSERT INTO edge VALUES (?, '-Wall', '-Wshadow', '1', NULL, '[]', '[]')", (cid,))
    conn.close()
    code, out, _ = cli_at(gcc_db_copy)("flags", "verify", "gcc-12")
    assert code == 1 and "UNEXPLAINED" in out
    proc = subprocess.run([sys.executable, "-m", "analyzer", "--db", str(gcc_db_copy),
                           "flags", "verify", "gcc-12"], capture_output=True, text=True)
    assert proc.returncode == 1


# ------------------------------------------------------------------ help texts

@pytest.mark.parametrize("db_name", ["files_db", "binary_db"])
def test_help_texts_as_gcc_reads_them(request, db_name):
    data = store.load(connect(request.getfixturevalue(db_name)), "gcc-12")
    assert data.flag("-Wexpansion-to-defined").description == \
        'Warn if "defined" is used outside #if.'
    assert not any("\\\"" in f.description for f in data.flags)
    # The alias keeps no help of its own: its target's record holds it.
    assert "bidirectional control characters" in data.flag("-Wbidi-chars").description


def test_both_routes_describe_every_flag_alike(files_db, binary_db):
    files = {f.name: f for f in store.load(connect(files_db), "gcc-12").flags}
    binary = {f.name: f for f in store.load(connect(binary_db), "gcc-12").flags}
    both = set(files) & set(binary)
    assert len(both) > 350
    differ = sorted(n for n in both if files[n].description != binary[n].description)
    assert differ == []
    # Only an Undocumented option (-Wpsabi) may have no text in any record.
    empty = sorted(n for n in both if not files[n].description and not files[n].gcc.undocumented)
    assert empty == []


def test_facts_have_one_shape_in_both_routes(files_db, binary_db):
    files = store.load(connect(files_db), "gcc-12")
    binary = store.load(connect(binary_db), "gcc-12")
    for name in ("-Wformat=", "-Waligned-new=", "-Wbidi-chars", "-Wnormalized="):
        a, b = files.flag(name).gcc, binary.flag(name).gcc
        assert a.range == b.range and a.reject_negative == b.reject_negative, name
        assert a.alias_negative == b.alias_negative, name
        # (the binary's table holds an enum's names sorted, the files in their order)
        assert sorted(a.enum_values.values()) == sorted(b.enum_values.values()), name
    assert files.flag("-Wformat=").gcc.range == (0, 2)


# ------------------------------------------------------------------ storage

def test_reingest_of_the_binary_entry_writes_nothing(binary_db, tmp_path, dump):
    path = tmp_path / "again.db"
    shutil.copy(binary_db, path)
    before = dump(path)
    assert store_data(connect(path), gcc_binary.ingest("gcc-12")) == "unchanged"
    assert dump(path) == before


def _as_v1(path: Path) -> None:
    """Turn a database into what schema 1 stored: ``extra`` objects in the old shapes
    (option files: properties text, range "lo,hi"; binary: range and enum values as lists)."""
    conn = sqlite3.connect(path)
    rows = conn.execute("SELECT f.rowid, c.source_kind, f.facts FROM flag f JOIN compiler c"
                        " ON c.id = f.compiler_id WHERE c.family = 'gcc'").fetchall()
    for rowid, kind, text in rows:
        new = json.loads(text)
        if kind == "binary":
            old = {"defaults": new["defaults"], "states": new["states"],
                   "var_type": new["var_type"], "var_offset": new["var_offset"]}
            if new["range"]:
                old["range"] = new["range"]
            if new["enum_values"]:
                old["enum_values"] = list(new["enum_values"].values())
            if new["unlisted"]:
                old["not_a_warning"] = True
        else:
            props = " ".join(p for p, on in (("RejectNegative", new["reject_negative"]),
                                              ("ByteSize", new["byte_size"]),
                                              ("CPP(x)", new["cpp"])) if on)
            old = {"properties": "Common Var(x) " + props}
            for key in ("var", "var_value", "init", "alias_negative"):
                if new[key] is not None:
                    old[key] = new[key]
            if new["range"]:
                old["range"] = f"{new['range'][0]},{new['range'][1]}"
            if new["enum_values"]:
                old["enum_values"] = new["enum_values"]
            if new["unlisted"]:
                old["unlisted"] = True
        conn.execute("UPDATE flag SET facts = ? WHERE rowid = ?", (json.dumps(old), rowid))
    conn.execute("ALTER TABLE flag RENAME COLUMN facts TO extra")
    for column in ("package", "debian_version", "suite"):    # schema 5's provenance
        conn.execute(f"ALTER TABLE compiler DROP COLUMN {column}")
    for column in ("code", "code_note"):                        # schema 8's code of a cell
        conn.execute(f"ALTER TABLE ub_cell DROP COLUMN {column}")
    conn.execute("DROP TABLE ub_code")
    conn.execute("ALTER TABLE oh_study DROP COLUMN warmups")     # schema 13's warm-ups
    for column in ("tree_digest", "passed_env"):                 # schema 15's tree and --env
        conn.execute(f"ALTER TABLE wn_build DROP COLUMN {column}")
    for column in ("keep_going", "std_defaults", "project_options"):   # schema 14's upgrade
        conn.execute(f"ALTER TABLE wn_build DROP COLUMN {column}")
    conn.execute("DROP TABLE wn_check")
    conn.execute("DROP TABLE wn_macro")
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()


@pytest.mark.parametrize("db_name", ["files_db", "binary_db"])
def test_a_schema_1_database_migrates(request, tmp_path, db_name, cli_at):
    path = tmp_path / "v1.db"
    shutil.copy(request.getfixturevalue(db_name), path)
    want = store.load(connect(path), "gcc-12")
    _as_v1(path)
    conn = connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    got = store.load(conn, "gcc-12")
    binary = db_name == "binary_db"
    for w, g in zip(want.flags, got.flags):
        assert (g.name, g.gcc.range, g.gcc.enum_values, g.gcc.var, g.gcc.init,
                g.gcc.unlisted, g.gcc.defaults) == (
            w.name, w.gcc.range, w.gcc.enum_values, w.gcc.var, w.gcc.init,
            w.gcc.unlisted, w.gcc.defaults)
        # schema 1 kept none of these for a binary entry: the next ingest brings them
        assert g.gcc.reject_negative == (w.gcc.reject_negative and not binary)
        assert g.gcc.byte_size == (w.gcc.byte_size and not binary)
        assert g.gcc.alias_negative == (None if binary else w.gcc.alias_negative)
    # The migrated rows are rewritten by the next ingest, whatever their content.
    assert store.compiler_row(conn, "gcc-12").content_hash == "migrated-from-schema-1"
    conn.close()
    cli = cli_at(path)
    for args in (["tree", "gcc-12", "-Wall"], ["check", "-c", "gcc-12", "--", "-Wformat=7"],
                 ["everything", "gcc-12"], ["list", "gcc-12", "--json"]):
        code, out, err = cli("flags", *args)
        assert code == 0 and not err, args
