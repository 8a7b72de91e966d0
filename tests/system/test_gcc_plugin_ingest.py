"""The binary route: a database entry from gcc-12 alone, checked against the option files.

Both routes are real: the option files come from Debian's gcc-12-source (the
session fixture ``gcc12`` of tests/conftest.py), the binary route runs gcc-12 with the
warnscope plugin.
"""
from __future__ import annotations

import copy
import json
import shutil

import click
import pytest
from click.testing import CliRunner

from analyzer.gccplugin import binary as gcc_binary
from analyzer.gccplugin import plugin as gcc_plugin
from analyzer.cli.closure import closure as closure_command
from analyzer.verify.plugin import verify_with_plugin
from analyzer.verify.plugin import compare_with_binary_ingest
from flagdb import store
from flagdb.closure import Index, closure
from warnscope.database import connect
from warnscope.errors import WarnscopeError
from flagdb.ingest import store_data
from flagdb.model import Edge

CLOSURES = [["-Wall"], ["-Wextra"], ["-Wall", "-Wextra"], ["-Wformat=2"], ["-Wpedantic"]]


@pytest.fixture(scope="module")
def binary12():
    return gcc_binary.ingest("gcc-12")


@pytest.fixture(scope="module")
def plugin12():
    return gcc_plugin.locate("gcc-12")


def edges_of(data, parent, child):
    return [e for e in data.edges if e.parent == parent and e.child == child]


# ------------------------------------------------------------------ the entry itself

def test_binary_entry_is_complete(binary12):
    d = binary12
    assert d.source_kind == "binary" and d.family == "gcc"
    assert d.source == f"{shutil.which('gcc-12')} ({d.version})" and d.version.startswith("12.")
    assert len(d.flags) > 350
    assert d.flag("-Wformat").alias_of == "-Wformat=1"
    assert d.flag("-Wnormalized=").argument == "[none|id|nfc|nfkc]"
    assert d.flag("-Wformat=").argument == "<0,2>" and d.flag("-Wformat=").takes_argument
    assert d.flag("-Wunreachable-code").ignored and d.flag("-Wchkp").removed
    assert d.flag("-Wreorder").languages == ["C++", "ObjC++"]
    assert d.flag("-Wshadow").description.startswith("Warn when")
    assert d.flag("-Wnarrowing").gcc.defaults == {"C": "off", "C++": "on"}
    assert d.flag("-Wimplicit-function-declaration").default == "on"
    assert d.flag("-Wshadow").default == "off"


def test_binary_edges(binary12):
    d = binary12
    assert [e.languages for e in edges_of(d, "-Wall", "-Wreorder")] == [["C++"]]
    assert [e.languages for e in edges_of(d, "-Wall", "-Wpointer-sign")] == [["C"]]
    assert [e.languages for e in edges_of(d, "-Wall", "-Wunused")] == [["C", "C++"]]
    # Direct edges only: -Wunused-variable comes through -Wunused.
    assert not edges_of(d, "-Wall", "-Wunused-variable")
    assert edges_of(d, "-Wunused", "-Wunused-variable")
    [param] = edges_of(d, "-Wextra", "-Wunused-parameter")
    assert param.requires == ["-Wunused"]
    [security] = edges_of(d, "-Wformat=", "-Wformat-security")
    assert security.parent_min == 2
    assert [e.value for e in edges_of(d, "-Wall", "-Wstrict-aliasing=")] == ["3"]
    # One state, two names (a shared variable): the edge goes to the level option only,
    # as in the option files.
    assert [e.value for e in edges_of(d, "-Wall", "-Warray-bounds=")] == ["1"]
    assert [e.value for e in edges_of(d, "-Wall", "-Wuse-after-free=")] == ["2"]
    assert not edges_of(d, "-Wall", "-Warray-bounds") and not edges_of(d, "-Wall", "-Wuse-after-free")


def test_stored_binary_entry_gives_gccs_own_closures(tmp_path, plugin12):
    """Stored and loaded, the derived edges give exactly the closures GCC computes."""
    conn = connect(tmp_path / "b.db")
    data = gcc_binary.ingest("gcc-12")
    status = store_data(conn, data)
    assert status == "added"
    assert store_data(conn, gcc_binary.ingest("gcc-12")) == "unchanged"
    index = Index(store.load(conn, "gcc-12"))
    bv = gcc_binary.view(plugin12)
    for lang, label in gcc_binary.LANGS.items():
        for flags in CLOSURES:
            # GCC names a state shared by two options twice (-Warray-bounds and
            # -Warray-bounds=); the entry names it once, by the level option
            gcc = gcc_binary.one_name_per_variable(
                bv, {e.name: e.value for e in gcc_binary.closure(plugin12, flags, lang)
                     if e.via == gcc_binary.VIA_HANDLING})
            given = {index.resolve(f)[0].name for f in flags}
            db = {n: v for n, v in closure(index, flags, label).items() if n not in given}
            assert db == gcc, (lang, flags)


# ------------------------------------------------------------------ the two routes agree

@pytest.mark.parametrize("compiler", ["gcc-11", "gcc-12"])
def test_binary_agrees_with_option_files(request, compiler):
    """Every difference between the two routes has a reason, except languages (below)."""
    findings = compare_with_binary_ingest(request.getfixturevalue(compiler.replace("-", "")))
    unexplained = [f for f in findings if f.reason is None and f.check != "plugin-languages"]
    assert unexplained == []
    reasons = {f.flag: f.reason for f in findings if f.check == "plugin-default-c"}
    assert "Init(-1)" in reasons["-Wimplicit-function-declaration"]
    assert "CPP()" in reasons["-Wmultichar"]
    post = {f.flag: f.reason for f in findings if f.check == "plugin-wextra-c"}
    assert "after option parsing" in post["-Wshift-negative-value"]


def _tree_nodes(node: dict) -> list[dict]:
    return [node] + [n for child in node["children"] for n in _tree_nodes(child)]


@pytest.mark.parametrize("group", ["-Wall", "-Wextra"])
def test_both_routes_tree_the_same_names(group, binary12, cli, cli_at, tmp_path):
    """``flags tree gcc-12 -Wall`` lists each option once, by the name the option files
    use, whichever route built the entry: GCC reports -Warray-bounds and -Warray-bounds=
    (one variable) both on, the binary entry's tree names only -Warray-bounds=1."""
    db = tmp_path / "binary.db"
    store_data(connect(db), binary12)
    trees = {}
    for route, run_cli in (("files", cli), ("binary", cli_at(db))):
        code, out, err = run_cli("flags", "tree", "gcc-12", group, "--json")
        assert code == 0, err
        trees[route] = _tree_nodes(json.loads(out))
    for route, nodes in trees.items():
        for node in nodes:
            children = [c["name"] for c in node["children"]]
            assert len(children) == len(set(children)), (route, node["name"], children)
    offsets = {f.name: f.gcc.var_offset for f in binary12.flags}
    names_of_state: dict[int, set[str]] = {}
    for node in trees["binary"]:
        if offsets.get(node["name"]) is not None:
            names_of_state.setdefault(offsets[node["name"]], set()).add(node["name"])
    assert [names for names in names_of_state.values() if len(names) > 1] == []
    assert {n["typed"] for n in trees["files"]} == {n["typed"] for n in trees["binary"]}
    if group == "-Wall":
        typed = {n["typed"] for n in trees["binary"]}
        assert {"-Warray-bounds=1", "-Wuse-after-free=2"} <= typed
        assert not {"-Warray-bounds", "-Wuse-after-free"} & typed


def test_languages_agree(gcc12):
    findings = compare_with_binary_ingest(gcc12)
    assert [f for f in findings if f.check == "plugin-languages" and f.reason is None] == []


def test_verify_with_plugin_catches_a_wrong_database(gcc12):
    wrong = copy.deepcopy(gcc12)
    wrong.edges = [e for e in wrong.edges
                   if not (e.parent == "-Wall" and e.child == "-Wparentheses")]
    wrong.edges.append(Edge(parent="-Wall", child="-Wshadow"))
    wrong.flag("-Wshadow").default = "on"
    bad = {(f.check, f.flag) for f in verify_with_plugin(wrong) if f.reason is None}
    for lang in ("c", "c++"):
        assert (f"plugin-wall-{lang}", "-Wparentheses") in bad
        assert (f"plugin-wall-{lang}", "-Wshadow") in bad
        assert (f"plugin-default-{lang}", "-Wshadow") in bad
    assert gcc_binary.plugin_available("gcc-12") and not gcc_binary.plugin_available("gcc-99")


# ------------------------------------------------------------------ command line

@click.group()
@click.option("--db", default="warnscope.db")
@click.pass_context
def root(ctx, db):
    ctx.obj = {"db": db}


root.add_command(closure_command)


def run(*args):
    return CliRunner().invoke(root, list(args))


def test_closure_command_json():
    result = run("closure", "gcc-12", "-Wall", "--lang", "c++", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert all({"name", "value"} <= set(r) for r in rows)
    got = {r["name"]: r["value"] for r in rows}
    assert got["-Wreorder"] == "1" and got["-Wformat="] == "1" and "-Wpointer-sign" not in got
    assert "from the GCC plugin" in result.stderr


def test_closure_command_text():
    result = run("closure", "gcc-12", "-Wextra", "-Wunused")
    assert result.exit_code == 0
    assert "from the GCC plugin" in result.stdout
    assert "  -Wunused-parameter\n" in result.stdout
    assert "-Wshift-negative-value   [post-option code]" in result.stdout


def test_closure_command_with_a_standard():
    result = run("closure", "gcc-12", "-Wextra", "--std", "c89")
    assert result.exit_code == 0 and "(c, -std=c89)" in result.stdout
    assert "-Wshift-negative-value" not in result.stdout
    result = run("closure", "gcc-12", "-Wextra", "--std", "c77")
    assert isinstance(result.exception, WarnscopeError) and "c77" in str(result.exception)


def test_closure_command_from_database(tmp_path):
    db = tmp_path / "w.db"
    store_data(connect(db), gcc_binary.ingest("gcc-12"))
    result = run("--db", str(db), "closure", "gcc-12", "-Wformat=2", "--no-plugin", "--json")
    assert result.exit_code == 0
    assert "-Wformat-security" in {r["name"] for r in json.loads(result.stdout)}
    assert "from the database's edges (binary:" in result.stderr


def test_closure_of_an_alias_is_the_plugins(tmp_path):
    """-pedantic is -Wpedantic: what it turns on is what -Wpedantic turns on, without
    -Wpedantic itself, from the database as from the plugin."""
    db = tmp_path / "w.db"
    store_data(connect(db), gcc_binary.ingest("gcc-12"))
    names = {}
    for how in (("--no-plugin",), ()):
        result = run("--db", str(db), "closure", "gcc-12", "-pedantic", *how, "--json")
        assert result.exit_code == 0, result.output
        names[how] = {r["name"] for r in json.loads(result.stdout)}
    assert "-Wpedantic" not in names[("--no-plugin",)]
    assert names[("--no-plugin",)] == names[()]


def test_closure_command_errors(tmp_path):
    db = tmp_path / "w.db"
    result = run("--db", str(db), "closure", "gcc-12", "-Wsuch-thing")
    assert isinstance(result.exception, WarnscopeError)
    assert "\n" not in str(result.exception)
    # No plugin for gcc-99, and no database either (a query creates none): one clear line.
    result = run("--db", str(db), "closure", "gcc-99", "-Wall")
    assert isinstance(result.exception, WarnscopeError)
    assert "no such database" in str(result.exception) and not db.exists()


def test_ingest_from_binary_command(gcc_db_copy, cli_at, dump):
    cli = cli_at(gcc_db_copy)
    code, out, _ = cli("flags", "ingest", "gcc-12", "--from-binary")
    assert code == 0 and "replaced" in out and "(12." in out
    before = dump(gcc_db_copy)
    for compiler, message in (("clang-16", "needs a GCC"), ("gcc-99", "gcc-99: compiler not found")):
        code, out, err = cli("flags", "ingest", compiler, "--from-binary")
        assert code == 1 and err.count("\n") == 1 and message in err
        assert dump(gcc_db_copy) == before
