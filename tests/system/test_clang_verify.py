"""``verify_clang`` against the installed clang-N and diagtool-N binaries."""
from __future__ import annotations

import copy

from analyzer.verify.clang import groups_of, probe_spellings, verify_clang


def test_verify_against_binaries(clang_major, real_data, clang_tool):
    major = clang_major
    clang_tool(major, f"clang-{major}")
    clang_tool(major, f"diagtool-{major}")
    report = verify_clang(real_data(major))
    assert report.unexplained == [], report.unexplained[:10]
    assert report.ok
    groups = len(real_data(major).flags) - 1
    assert report.compared["tree"] == groups
    assert report.compared["warnings"] > 1700
    assert report.compared["probe"] == 2 * (groups - 2) + 1
    if major >= 15:
        assert report.compared["names"] == groups


def test_verify_finds_wrong_data(require, real_data):
    require("clang-16")
    require("diagtool-16")
    data = copy.deepcopy(real_data(16))
    data.flag("-Wshadow").default = "on"                 # green in the tree?
    data.flag("-Rpass").name = "-Wpass"                  # clang rejects -Wpass
    data.edges = [e for e in data.edges if (e.parent, e.child) != ("-Wall", "-Wmost")]
    data.messages = [m for m in data.messages if m.diag != "warn_decl_shadow"]
    found = {(f.check, f.flag) for f in verify_clang(data).unexplained}
    assert found == {("tree", "-Wshadow"), ("tree-edge", "-Wall"), ("warnings", "warn_decl_shadow"),
                     ("probe", "-Wpass"), ("probe", "-Rpass")}


def test_missing_tools_are_skipped_with_a_note(monkeypatch, real_data):
    monkeypatch.setenv("PATH", "/nonexistent")
    report = verify_clang(real_data(16))
    assert report.ok and not report.compared
    assert {f.check for f in report.findings} == {"tree", "warnings", "names", "probe"}
    assert all(f.reason for f in report.findings)


def test_probe_spellings_cover_both_prefixes(real_data):
    tried, accepted = probe_spellings(groups_of(real_data(16)))
    assert "-Rpass" in accepted and "-Wpass" in tried and "-Wpass" not in accepted
    assert "-Wall" in accepted and "-Rall" in tried and "-Rall" not in accepted
    assert not any(t.startswith(("-Wframe-larger-than", "-Rframe-larger-than")) for t in tried)


def test_verify_data_read_back_from_the_database(tmp_path, require, real_data):
    """``flags verify`` works on what the store gives back, not only on fresh parses."""
    require("clang-14")
    require("diagtool-14")
    from flagdb import store
    from warnscope.database import connect

    conn = connect(tmp_path / "w.db")
    store.save(conn, real_data(14))
    report = verify_clang(store.load(conn, "clang-14"))
    assert report.ok and report.compared["probe"] > 1800
