"""Facts about real GCC 11 and 12 option files, read through the library and the CLI."""
from __future__ import annotations

import json

from flagdb.closure import Index, closure
from flagdb.compare import diff
from flagdb.views import flag_info


def _info(data, name):
    index = Index(data)
    return flag_info(index, index.flags[name])


def test_versions_and_provenance(cli):
    code, out, _ = cli("flags", "versions", "--json")
    assert code == 0
    rows = {r["name"]: r for r in json.loads(out)}
    assert rows["gcc-12"]["version"] == "12.2.0"
    assert rows["gcc-11"]["version"].startswith("11.")
    assert rows["gcc-12"]["source"].startswith("gcc-12-source 12.2.0-")
    assert rows["gcc-12"]["source_kind"] == "debian-package"
    assert len(rows["gcc-12"]["content_hash"]) == 64


def test_wall_levels_in_gcc12(gcc12):
    enables = [e.typed for e in _info(gcc12, "-Wall").enables]
    for typed in ("-Wformat=1", "-Warray-bounds=1", "-Wdangling-pointer=2", "-Wstrict-aliasing=3"):
        assert typed in enables, typed


def test_wextra_level_and_alias(gcc12):
    [fallthrough] = [e for e in _info(gcc12, "-Wextra").enables
                     if e.name == "-Wimplicit-fallthrough="]
    assert (fallthrough.typed, fallthrough.value) == ("-Wimplicit-fallthrough=3", "3")
    assert gcc12.flag("-W").alias_of == "-Wextra"
    assert gcc12.flag("-Wformat").alias_of == "-Wformat=1"


def test_unused_parameter_needs_unused_and_extra(gcc12):
    index = Index(gcc12)
    assert "-Wunused-parameter" not in closure(index, ["-Wextra"], "C")
    assert "-Wunused-parameter" not in closure(index, ["-Wunused"], "C")
    assert "-Wunused-parameter" in closure(index, ["-Wextra", "-Wunused"], "C")
    assert "-Wunused-parameter" in closure(index, ["-Wall", "-Wextra"], "C")
    parents = {(e.parent, tuple(e.requires)) for e in gcc12.edges if e.child == "-Wunused-parameter"}
    assert parents == {("-Wunused", ("-Wextra",)), ("-Wextra", ("-Wunused",))}


def test_format_levels(gcc12):
    index = Index(gcc12)
    assert "-Wformat-security" in closure(index, ["-Wformat=2"], "C")
    assert "-Wformat-security" not in closure(index, ["-Wformat=1"], "C")
    assert "-Wformat-security" not in closure(index, ["-Wall"], "C")
    assert "-Wformat-zero-length" in closure(index, ["-Wall"], "C")


def test_language_specific_edges(gcc12):
    index = Index(gcc12)
    c, cxx = closure(index, ["-Wall"], "C"), closure(index, ["-Wall"], "C++")
    assert "-Wimplicit-function-declaration" in c and "-Wimplicit-function-declaration" not in cxx
    assert "-Wreorder" in cxx and "-Wreorder" not in c
    # Fortran's LangEnabledBy(Fortran, Wall) of -Wconversion is not a C-family edge.
    assert "-Wconversion" not in c and "-Wconversion" not in cxx


def test_noop_and_defaults(gcc12):
    assert gcc12.flag("-Wunreachable-code").ignored
    assert gcc12.flag("-Wnormalized=").default == "nfc"
    assert gcc12.flag("-Waddress-of-packed-member").default == "on"
    assert gcc12.flag("-Wimplicit-int").default == "code"  # Init(-1)
    assert gcc12.flag("-Wshadow").default == "off"


def test_other_front_ends_kept_but_marked(gcc12):
    assert not gcc12.flag("-Waliasing").c_family          # Fortran only
    assert gcc12.flag("-Wshadow").c_family
    index = Index(gcc12)
    assert not index.applies(gcc12.flag("-Waliasing"), None)


def test_diff_gcc11_gcc12(cli):
    code, out, _ = cli("flags", "diff", "gcc-11", "gcc-12", "--json")
    assert code == 0
    result = json.loads(out)
    assert set(result) == {"old", "new", "cross_family", "in_both", "added", "removed", "changed"}
    assert (result["old"], result["new"], result["cross_family"]) == ("gcc-11", "gcc-12", False)
    added = {f["name"] for f in result["added"]}
    assert {"-Wuse-after-free", "-Wdangling-pointer", "-Wdangling-pointer="} <= added
    assert "-Wshadow" not in added
    wall = next(c for c in result["changed"] if c["name"] == "-Wall")
    assert any(ch["attribute"] == "enables" and "-Wdangling-pointer=2" in ch["new"]
               for ch in wall["changes"])


def test_diff_is_attribute_aware(gcc11, gcc12):
    import copy

    newer = copy.deepcopy(gcc12)
    newer.compiler = "gcc-12-reworded"
    newer.flag("-Wshadow").description = "Reworded help text."
    newer.flag("-Wtype-limits").default = "on"
    result = diff(gcc12, newer)
    assert result.added == [] and result.removed == []
    changes = {c.name: [ch.attribute for ch in c.changes] for c in result.changed}
    assert changes == {"-Wshadow": ["description"], "-Wtype-limits": ["default"]}


def test_show_level_form(cli):
    code, out, _ = cli("flags", "show", "-Wformat=2", "--compiler", "gcc-12", "--json")
    assert code == 0
    info = json.loads(out)
    assert info["name"] == "-Wformat=" and info["level"] == "2"
    on = {t["name"] for t in info["turns_on"]}
    assert {"name": "-Wformat=", "value": "2", "typed": "-Wformat=2"} not in info["turns_on"]
    assert "-Wformat-security" in on and "-Wformat-nonliteral" in on


def test_tree_of_wall(cli):
    code, out, _ = cli("flags", "tree", "gcc-12", "-Wall")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "-Wall"
    assert "  -Wformat=1" in lines
    # -Wunused sits under -Wall with its own children one level deeper.
    i = lines.index("  -Wunused")
    assert lines[i + 1].startswith("    -Wunused-")


def test_history(cli):
    code, out, _ = cli("flags", "history", "-Wdangling-pointer=", "--json")
    assert code == 0
    rows = {r["compiler"]: r for r in json.loads(out)}
    assert rows["gcc-11"]["present"] is False
    assert rows["gcc-12"]["present"] and rows["gcc-12"]["in_wall"]
    assert "-Wdangling-pointer" in rows["gcc-12"]["aliases"]


def test_check(cli):
    code, out, _ = cli("flags", "check", "--compiler", "gcc-11,gcc-12", "--json", "--",
                       "-Wall", "-Wshadow=local", "-Wfoo", "-Wshadwo", "-Wunreachable-code",
                       "-Wformat", "-Wdangling-pointer", "-Wno-bogus", "-Wformat=7")
    assert code == 0
    got = {(r["flag"], r["compiler"]): r for r in json.loads(out)}
    assert got[("-Wall", "gcc-11")]["status"] == "known"
    assert got[("-Wshadow=local", "gcc-12")]["status"] == "known"
    assert got[("-Wfoo", "gcc-12")]["status"] == "unknown"
    assert got[("-Wshadwo", "gcc-12")]["suggestion"] == "-Wshadow"
    assert got[("-Wunreachable-code", "gcc-12")]["status"] == "no-op"
    assert got[("-Wformat", "gcc-12")]["status"] == "alias"
    assert got[("-Wdangling-pointer", "gcc-11")]["status"] == "unknown"
    assert got[("-Wdangling-pointer", "gcc-12")]["status"] == "alias"
    assert "silently" in got[("-Wno-bogus", "gcc-12")]["note"]
    assert got[("-Wno-bogus", "gcc-12")]["reason"] == "no such warning option"
    assert got[("-Wformat=7", "gcc-12")]["status"] == "bad-value"


def test_check_portable(cli):
    code, out, _ = cli("flags", "check", "--compiler", "gcc-11,gcc-12", "--portable", "--json",
                       "--", "-Wall", "-Wdangling-pointer", "-Wunreachable-code", "-Wshadow")
    assert code == 0
    assert json.loads(out) == ["-Wall", "-Wshadow"]


def test_export_list(cli):
    code, out, _ = cli("flags", "export", "gcc-12", "--format", "list")
    assert code == 0
    lines = out.splitlines()
    assert "-Wunreachable-code # IGNORED switch" in lines
    assert "-Wformat = -Wformat=1" in lines
    i = lines.index("-Wall")
    assert lines[i + 1].startswith("# -W")
    assert "# -Wformat=1" in lines[i:i + 200]
    code, out, _ = cli("flags", "export", "gcc-12", "--format", "json")
    assert any(f["name"] == "-Wshadow" for f in json.loads(out))


def test_list_json_fields(cli):
    code, out, _ = cli("flags", "list", "gcc-12", "--json")
    rows = {r["name"]: r for r in json.loads(out)}
    for key in ("name", "kind", "alias_of", "enables", "enabled_by", "default", "languages",
                "takes_argument", "ignored", "removed", "description"):
        assert key in rows["-Wshadow"]
    assert [(e["name"], e["typed"], e["from_level"]) for e in rows["-Wformat-security"]["enabled_by"]
            ] == [("-Wformat=", "-Wformat=2", 2)]
    assert rows["-Wformat="]["takes_argument"] and rows["-Wformat="]["argument"] == "<0,2>"


def test_everything(cli, gcc12):
    code, out, _ = cli("flags", "everything", "gcc-12", "--lang", "c", "--json")
    flags = json.loads(out)
    assert "-Wshadow" in flags and "-Wformat=2" in flags and "-Wall" in flags
    assert "-Wunreachable-code" not in flags      # no-op
    assert "-Wreorder" not in flags               # C++ only
    assert "-Waliasing" not in flags              # Fortran only
    assert not any(f.startswith("-Wnormalized") for f in flags)  # takes a non-level argument


def test_reingest_changes_nothing(gcc_db_copy, cli_at, dump):
    cli = cli_at(gcc_db_copy)
    before = dump(gcc_db_copy)
    code, out, _ = cli("flags", "ingest", "gcc-12")
    assert code == 0 and "unchanged" in out
    assert dump(gcc_db_copy) == before


def test_flags_as_arguments_are_not_read_as_options(cli):
    # -Wcast-align holds 'c' (--compiler) and -Wshadow holds 'h' (--help).
    code, out, _ = cli("flags", "show", "-Wcast-align", "-c", "gcc-12", "--json")
    assert code == 0 and json.loads(out)["name"] == "-Wcast-align"
    code, out, _ = cli("flags", "check", "-c", "gcc-12", "-Wshadow", "-Wcast-align")
    assert code == 0 and out.count("known") == 2
