"""clang's warning flags from the real libclang-N-dev packages of this distribution.

Downloads six packages (22–30 MB each) into the shared cache on first run.
"""
from __future__ import annotations

import re
import subprocess

import pytest

from flagdb import store
from warnscope.database import connect

LAYOUT = {13: "table", 14: "entry", 15: "docs", 16: "docs", 19: "docs", 22: "strtab"}


def test_layout_and_provenance(clang_major, real_data, real_tables):
    assert real_tables(clang_major).layout == LAYOUT[clang_major]
    data = real_data(clang_major)
    assert data.compiler == f"clang-{clang_major}" and data.family == "clang"
    assert data.version.startswith(f"{clang_major}.")
    assert data.source_kind == "debian-package"
    assert re.fullmatch(rf"libclang-{clang_major}-dev 1:{re.escape(data.version)}-\S+", data.source)


def test_facts_every_version(clang_major, real_data):
    data = real_data(clang_major)
    flags = {f.name: f for f in data.flags}
    assert flags["-W"].alias_of == "-Wextra"
    assert ("-Wall", "-Wmost") in {(e.parent, e.child) for e in data.edges}
    assert flags["-Wabi"].ignored and flags["-Waggregate-return"].ignored
    assert not flags["-Wall"].ignored and flags["-Wall"].default == "partial"
    assert flags["-Weverything"].default == "partial" and not any(
        e.parent == "-Weverything" or e.child == "-Weverything" for e in data.edges)
    for remark in ("-Rpass", "-Rpass-missed", "-Rpass-analysis"):
        assert flags[remark].kind == "remark"
    assert "-Wpass" not in flags
    # Every edge joins two stored flags; every message belongs to a stored flag, once.
    assert {e.parent for e in data.edges} | {e.child for e in data.edges} <= flags.keys()
    assert {m.flag for m in data.messages} <= flags.keys()
    diags = [m.diag for m in data.messages]
    assert len(diags) == len(set(diags))
    assert ("-Wunsafe-buffer-usage" in flags) == (clang_major >= 16)


def test_clang16_counts(real_data):
    """Counted once by hand in clang-16's generated tables (DiagnosticGroups: 962 groups,
    among them 45 aliases and 40 ignored switches; plus -Weverything), now held by the parser."""
    flags = real_data(16).flags
    assert sum(1 for f in flags if f.alias_of) == 45
    assert sum(1 for f in flags if f.ignored) == 40
    assert len(flags) == 963       # 962 groups + -Weverything


def test_pedantic_inferred_members_counted_once(clang_major, real_tables, real_data):
    tables = real_tables(clang_major)
    index = {g.name: g for g in tables.groups}

    def with_repeats(g) -> list[str]:
        out = list(g.members)
        for s in g.subgroups:
            out += with_repeats(tables.groups[s])
        return out

    listed = with_repeats(index["pedantic"])
    pedantic = next(f for f in real_data(clang_major).flags if f.name == "-Wpedantic")
    assert pedantic.clang.inferred_members > 0
    assert pedantic.clang.diagnostics == len(set(listed))
    assert len(listed) >= len(set(listed))


@pytest.mark.clang_since(15)
def test_docs_from_15(clang_major, real_data):
    flags = {f.name: f for f in real_data(clang_major).flags}
    assert "pre-processor tokens" in flags["-Wmax-tokens"].description
    assert flags["-Wmax-tokens"].clang.docs == flags["-Wmax-tokens"].description
    assert ("stack layout" in flags["-Wframe-larger-than"].description) == (clang_major >= 16)
    assert "\n" in flags["-Wmax-tokens"].description     # multi-line raw strings kept whole


def test_no_docs_before_15(real_data):
    assert not any(f.description for f in real_data(14).flags if f.name != "-Weverything")


@pytest.mark.clang_since(15)
def test_flag_names_match_print_diagnostic_options(clang_major, clang_tool, real_data):
    clang = clang_tool(clang_major, f"clang-{clang_major}")
    out = subprocess.run([*clang, "--print-diagnostic-options"], capture_output=True, text=True,
                         check=True).stdout
    printed = {l.strip() for l in out.splitlines() if l.strip().startswith("-W")
               and not l.strip().startswith("-Wno-")}
    ours = {"-W" + f.name[2:] for f in real_data(clang_major).flags if f.name != "-Weverything"}
    assert ours == printed


def test_message_count_matches_diagtool(clang_major, clang_tool, real_data):
    diagtool = clang_tool(clang_major, f"diagtool-{clang_major}")
    out = subprocess.run([*diagtool, "list-warnings"], capture_output=True, text=True, check=True).stdout
    with_flags = int(re.search(r"Warnings with flags \((\d+)\)", out).group(1))
    without = int(re.search(r"Warnings without flags \((\d+)\)", out).group(1))
    data = real_data(clang_major)
    assert len(data.messages) == with_flags
    assert len(data.flag("-Weverything").clang.ungrouped) == without


@pytest.mark.parametrize("major", (14, 16))
def test_store_round_trip(tmp_path, major, real_data):
    conn = connect(tmp_path / "w.db")
    data = real_data(major)
    assert store.save(conn, data) == "added"
    back = store.load(conn, data.compiler)
    assert back.content_hash() == data.content_hash()
    assert back.flag("-W").alias_of == "-Wextra"
    assert store.save(conn, data) == "unchanged"
