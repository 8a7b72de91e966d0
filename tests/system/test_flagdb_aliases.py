"""Aliases and negative forms through every query: what a user types is what GCC does.

``-Wformat`` is GCC's alias of ``-Wformat=1``, ``-Wdangling-pointer`` of
``-Wdangling-pointer=2``, ``-Wshadow-local`` of ``-Wshadow=local``; ``-Wno-X`` turns
nothing on. Checked against the real gcc-12 option files and, where the binary can
say, against ``gcc-12 -Q --help=warnings``.
"""
from __future__ import annotations

import json

from flagdb.closure import Index, closure
from analyzer.verify.gcc_q import predict, query


def test_tree_of_an_alias_shows_what_its_target_turns_on(cli):
    code, out, _ = cli("flags", "tree", "gcc-12", "-Wshadow-local")
    assert code == 0
    assert out.splitlines() == ["-Wshadow-local", "  -Wshadow=local", "    -Wshadow=compatible-local"]
    code, out, _ = cli("flags", "tree", "gcc-12", "-Wformat")
    lines = out.splitlines()
    assert lines[:2] == ["-Wformat", "  -Wformat=1"]
    assert "    -Wformat-zero-length" in lines and "    -Wformat-security" not in lines


def test_tree_of_a_negative_form_turns_nothing_on(cli):
    code, out, _ = cli("flags", "tree", "gcc-12", "-Wno-extra", "--json")
    assert code == 0
    node = json.loads(out)
    assert node["typed"] == "-Wno-extra" and node["name"] == "-Wextra"
    assert node["value"] == "0" and node["children"] == []


def test_show_of_an_alias_lists_what_it_turns_on_without_its_target(cli):
    code, out, _ = cli("flags", "show", "-Wformat", "-c", "gcc-12", "--json")
    info = json.loads(out)
    assert info["alias_of"] == "-Wformat=1"
    on = [t["typed"] for t in info["turns_on"]]
    assert "-Wformat-zero-length" in on and "-Wformat=1" not in on


def test_history_of_an_alias_says_whether_wall_sets_it(cli):
    code, out, _ = cli("flags", "history", "-Wdangling-pointer", "--json")
    assert code == 0
    rows = {r["compiler"]: r for r in json.loads(out)}
    assert rows["gcc-12"]["alias_of"] == "-Wdangling-pointer=2" and rows["gcc-12"]["in_wall"]
    code, out, _ = cli("flags", "history", "-Wformat", "--json")
    assert all(r["in_wall"] for r in json.loads(out))


def test_history_of_a_level_says_whether_wall_sets_that_level(cli):
    code, out, _ = cli("flags", "history", "-Wformat=2", "--json")
    assert not any(r["in_wall"] for r in json.loads(out))         # -Wall sets -Wformat=1
    code, out, _ = cli("flags", "history", "-Wformat=1", "--json")
    assert all(r["in_wall"] for r in json.loads(out))
    code, out, _ = cli("flags", "history", "-Waligned-new=global", "--json")
    assert all(r["in_wall"] for r in json.loads(out))             # Value(1) is String(global)


def test_negative_alias_uses_its_negative_argument(gcc12, require):
    """``Alias(Wbidi-chars=,any,none)``: ``-Wno-bidi-chars`` is ``-Wbidi-chars=none``."""
    require("gcc-12")
    index = Index(gcc12)
    assert closure(index, ["-Wno-bidi-chars"], "C")["-Wbidi-chars="] == "none"
    assert closure(index, ["-Wbidi-chars"], "C")["-Wbidi-chars="] == "any"
    for typed in ("-Wno-bidi-chars", "-Wbidi-chars", "-Wno-dangling-pointer", "-Wdangling-pointer"):
        target = index.target(typed)[0].name
        assert predict(index, "C", [typed])[target] == query("gcc-12", "C", [typed])[target], typed


def test_enum_levels_are_spelled_by_name_everywhere(cli):
    """``LangEnabledBy(C++ ObjC++,Wall,1,0)`` on an Enum option: value 1 is ``global``."""
    code, out, _ = cli("flags", "list", "gcc-12", "--json")
    rows = {r["name"]: r for r in json.loads(out)}
    [by] = rows["-Waligned-new="]["enabled_by"]
    assert (by["name"], by["value"], by["languages"]) == ("-Wall", "global", ["C++", "ObjC++"])
    assert "-Waligned-new=global" in [e["typed"] for e in rows["-Wall"]["enables"]]
    code, out, _ = cli("flags", "show", "-Waligned-new=", "-c", "gcc-12")
    assert "  enabled by  -Wall (sets -Waligned-new=global)" in out.splitlines()
