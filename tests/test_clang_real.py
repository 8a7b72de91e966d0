"""clang's warning flags from the real libclang-N-dev packages of this distribution.

Downloads six packages (22–30 MB each) into the shared cache on first run.
"""
from __future__ import annotations

import re
import subprocess

import pytest

from flagdb import store
from flagdb.db import connect
from tests.clang_real import VERSIONS, need_tool, real_data, real_tables

LAYOUT = {13: "table", 14: "entry", 15: "docs", 16: "docs", 19: "docs", 22: "strtab"}


@pytest.mark.parametrize("major", VERSIONS)
def test_layout_and_provenance(major):
    assert real_tables(major).layout == LAYOUT[major]
    data = real_data(major)
    assert data.compiler == f"clang-{major}" and data.family == "clang"
    assert data.version.startswith(f"{major}.")
    assert data.source_kind == "debian-package"
    assert re.fullmatch(rf"libclang-{major}-dev 1:{re.escape(data.version)}-\S+", data.source)


@pytest.mark.parametrize("major", VERSIONS)
def test_facts_every_version(major):
    data = real_data(major)
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
    assert ("-Wunsafe-buffer-usage" in flags) == (major >= 16)


def test_clang16_counts():
    """Measured once by hand from the tables (DESIGN.md), now held by the parser."""
    flags = real_data(16).flags
    assert sum(1 for f in flags if f.alias_of) == 45
    assert sum(1 for f in flags if f.ignored) == 40
    assert len(flags) == 963       # 962 groups + -Weverything


@pytest.mark.parametrize("major", VERSIONS)
def test_pedantic_inferred_members_counted_once(major):
    tables = real_tables(major)
    index = {g.name: g for g in tables.groups}

    def with_repeats(g) -> list[str]:
        out = list(g.members)
        for s in g.subgroups:
            out += with_repeats(tables.groups[s])
        return out

    listed = with_repeats(index["pedantic"])
    pedantic = next(f for f in real_data(major).flags if f.name == "-Wpedantic")
    assert pedantic.clang.inferred_members > 0
    assert pedantic.clang.diagnostics == len(set(listed))
    assert len(listed) >= len(set(listed))


@pytest.mark.parametrize("major", [v for v in VERSIONS if v >= 15])
def test_docs_from_15(major):
    flags = {f.name: f for f in real_data(major).flags}
    assert "pre-processor tokens" in flags["-Wmax-tokens"].description
    assert flags["-Wmax-tokens"].clang.docs == flags["-Wmax-tokens"].description
    assert ("stack layout" in flags["-Wframe-larger-than"].description) == (major >= 16)
    assert "\n" in flags["-Wmax-tokens"].description     # multi-line raw strings kept whole


def test_no_docs_before_15():
    assert not any(f.description for f in real_data(14).flags if f.name != "-Weverything")


@pytest.mark.parametrize("major", [v for v in VERSIONS if v >= 15])
def test_flag_names_match_print_diagnostic_options(major):
    clang = need_tool(f"clang-{major}")
    out = subprocess.run([clang, "--print-diagnostic-options"], capture_output=True, text=True,
                         check=True).stdout
    printed = {l.strip() for l in out.splitlines() if l.strip().startswith("-W")
               and not l.strip().startswith("-Wno-")}
    ours = {"-W" + f.name[2:] for f in real_data(major).flags if f.name != "-Weverything"}
    assert ours == printed


@pytest.mark.parametrize("major", VERSIONS)
def test_message_count_matches_diagtool(major):
    diagtool = need_tool(f"diagtool-{major}")
    out = subprocess.run([diagtool, "list-warnings"], capture_output=True, text=True, check=True).stdout
    with_flags = int(re.search(r"Warnings with flags \((\d+)\)", out).group(1))
    without = int(re.search(r"Warnings without flags \((\d+)\)", out).group(1))
    data = real_data(major)
    assert len(data.messages) == with_flags
    assert len(data.flag("-Weverything").clang.ungrouped) == without


@pytest.mark.parametrize("major", (14, 16))
def test_store_round_trip(tmp_path, major):
    conn = connect(tmp_path / "w.db")
    data = real_data(major)
    assert store.save(conn, data) == "added"
    back = store.load(conn, data.compiler)
    assert back.content_hash() == data.content_hash()
    assert back.flag("-W").alias_of == "-Wextra"
    assert store.save(conn, data) == "unchanged"
