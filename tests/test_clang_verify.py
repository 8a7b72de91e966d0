"""``verify_clang`` against the installed clang-N and diagtool-N binaries."""
from __future__ import annotations

import copy

import pytest

from analyzer.verify.clang import parse_tree, probe_spellings, verify_clang, _groups
from tests.clang_real import VERSIONS, need_tool, real_data


@pytest.mark.parametrize("major", VERSIONS)
def test_verify_against_binaries(major):
    need_tool(f"clang-{major}")
    need_tool(f"diagtool-{major}")
    report = verify_clang(real_data(major))
    assert report.unexplained == [], report.unexplained[:10]
    assert report.ok
    groups = len(real_data(major).flags) - 1
    assert report.compared["tree"] == groups
    assert report.compared["warnings"] > 1700
    assert report.compared["probe"] == 2 * (groups - 2) + 1
    if major >= 15:
        assert report.compared["names"] == groups


def test_verify_finds_wrong_data():
    need_tool("clang-16")
    need_tool("diagtool-16")
    data = copy.deepcopy(real_data(16))
    data.flag("-Wshadow").default = "on"                 # green in the tree?
    data.flag("-Rpass").name = "-Wpass"                  # clang rejects -Wpass
    data.edges = [e for e in data.edges if (e.parent, e.child) != ("-Wall", "-Wmost")]
    data.messages = [m for m in data.messages if m.diag != "warn_decl_shadow"]
    found = {(f.check, f.flag) for f in verify_clang(data).unexplained}
    assert found == {("tree", "-Wshadow"), ("tree-edge", "-Wall"), ("warnings", "warn_decl_shadow"),
                     ("probe", "-Wpass"), ("probe", "-Rpass")}


def test_missing_tools_are_skipped_with_a_note(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    report = verify_clang(real_data(16))
    assert report.ok and not report.compared
    assert {f.check for f in report.findings} == {"tree", "warnings", "names", "probe"}
    assert all(f.reason for f in report.findings)


def test_parse_tree_colours_and_nesting():
    text = ("\x1b[0;32mGREEN\x1b[0m = enabled by default\n\n"
            "\x1b[0;33m-W\n\x1b[0m  \x1b[0;33m-Wextra\n\x1b[0m    \x1b[0;32m-Wa\n"
            "\x1b[0m  \x1b[0;31m-Wb\n\x1b[0m\x1b[0;32m-Wc\n\x1b[0m")
    colours, edges = parse_tree(text)
    assert colours == {"": "yellow", "extra": "yellow", "a": "green", "b": "red", "c": "green"}
    assert edges == {("", "extra"), ("extra", "a"), ("", "b")}


def test_probe_spellings_cover_both_prefixes():
    tried, accepted = probe_spellings(_groups(real_data(16)))
    assert "-Rpass" in accepted and "-Wpass" in tried and "-Wpass" not in accepted
    assert "-Wall" in accepted and "-Rall" in tried and "-Rall" not in accepted
    assert not any(t.startswith(("-Wframe-larger-than", "-Rframe-larger-than")) for t in tried)


def test_verify_data_read_back_from_the_database(tmp_path):
    """``flags verify`` works on what the store gives back, not only on fresh parses."""
    need_tool("clang-14")
    need_tool("diagtool-14")
    from flagdb import store
    from flagdb.db import connect

    conn = connect(tmp_path / "w.db")
    store.save(conn, real_data(14))
    report = verify_clang(store.load(conn, "clang-14"))
    assert report.ok and report.compared["probe"] > 1800
