"""The clang table parser on small hand-written files, one per layout, and its errors.

The fixtures describe the same eight groups in each of the four group-table layouts
(13 table, 14 entries, 15+ entries with docs, 22 string table), so every layout must
give the same flags; the real files are tested in test_clang_real.py.
"""
from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from flagdb.clang_inc import decode_c_string, parse_dir, parse_kinds
from flagdb.clang_ingest import build, load_clang
from warnscope.errors import ParseError, WarnscopeError

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "clang"
LAYOUTS = {"table13": "table", "entry14": "entry", "docs15": "docs", "strtab22": "strtab"}


def data_of(name: str):
    return load_clang("clang-" + {"table13": "13", "entry14": "14", "docs15": "15", "strtab22": "22"}[name],
                      source=str(FIXTURES / name))


@pytest.mark.parametrize("name,layout", LAYOUTS.items())
def test_layout_detected(name, layout):
    assert parse_dir(FIXTURES / name).layout == layout


@pytest.mark.parametrize("name", LAYOUTS)
def test_derived_flags(name):
    data = data_of(name)
    assert data.family == "clang" and data.source_kind == "inc-dir"
    flags = {f.name: f for f in data.flags}
    assert set(flags) == {"-W", "-Wabi", "-Wall", "-Wc99-extensions", "-Wextra", "-Wmost",
                          "-Rpass", "-Wpedantic", "-Weverything"}
    # Group 0 is "" (the bare -W), an alias of -Wextra, not "no group".
    assert flags["-W"].alias_of == "-Wextra"
    assert flags["-Wall"].alias_of == "-Wmost"
    assert flags["-Wabi"].ignored and flags["-Wabi"].default == "off"
    assert not any(f.ignored for n, f in flags.items() if n != "-Wabi")
    assert flags["-Wmost"].default == "on" and flags["-Wall"].default == "on"
    assert flags["-Wextra"].default == "off"
    assert flags["-Rpass"].kind == "remark"
    # ext_d is listed both directly (inferred) and through -Wc99-extensions: counted once.
    assert flags["-Wpedantic"].clang.diagnostics == 2
    assert flags["-Wpedantic"].clang.inferred_members == 1
    assert flags["-Wpedantic"].default == "partial"
    everything = flags["-Weverything"]
    assert everything.default == "partial" and everything.clang.ungrouped == ["warn_u"]
    assert everything.clang.diagnostics == 5   # 4 grouped warnings/extensions + warn_u
    assert sorted((e.parent, e.child) for e in data.edges) == [
        ("-W", "-Wextra"), ("-Wall", "-Wmost"), ("-Wpedantic", "-Wc99-extensions")]
    by_diag = {m.diag: m for m in data.messages}
    assert set(by_diag) == {"warn_a", "warn_b", "ext_c", "ext_d", "remark_r"}
    assert by_diag["ext_d"].flag == "-Wc99-extensions"        # its home group, once
    assert by_diag["warn_a"].text == 'unused "%0" in %select{a|b}1'
    assert by_diag["warn_b"].text == "most of the time \\ a backslash"
    assert by_diag["remark_r"].diag_class == "REMARK" and by_diag["remark_r"].flag == "-Rpass"


def test_layouts_agree_apart_from_docs():
    hashes = set()
    for name in LAYOUTS:
        data = data_of(name)
        for f in data.flags:
            f.description = ""
            f.facts = dataclasses.replace(f.facts, docs="")
        data.version = "x"
        hashes.add(data.content_hash())
    assert len(hashes) == 1


def test_docs_span_lines_and_hold_parentheses_and_quotes():
    flags = {f.name: f for f in data_of("docs15").flags}
    assert flags["-Wextra"].description == ('Turns on "extra" checks (the ones not in -Wall).\n'
                                            "See also: -Wpedantic)")
    assert flags["-Wextra"].clang.docs == flags["-Wextra"].description


def test_c_string_escapes():
    assert decode_c_string(r"\000\020ab\t\n\"\\\x41") == b"\x00\x10ab\t\n\"\\A"


def test_kinds_field_counts():
    assert len(parse_kinds(FIXTURES / "table13" / "DiagnosticSemaKinds.inc")) == 5
    assert len(parse_kinds(FIXTURES / "entry14" / "DiagnosticSemaKinds.inc")) == 5


# ----------------------------------------------------------------------------- bad input

def _copy(tmp_path: Path, name: str = "docs15") -> Path:
    dest = tmp_path / name
    shutil.copytree(FIXTURES / name, dest)
    return dest


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def _error(directory: Path) -> ParseError:
    with pytest.raises(ParseError) as info:
        parse_dir(directory)
    assert "\n" not in str(info.value)
    return info.value


def test_truncated_groups_file(tmp_path):
    d = _copy(tmp_path)
    path = d / "DiagnosticGroups.inc"
    text = path.read_text()
    path.write_text(text[: text.index("DIAG_ENTRY(Most")])
    err = _error(d)
    assert err.path == str(path) and err.line and "end of file" in str(err)


def test_truncated_row(tmp_path):
    d = _copy(tmp_path, "entry14")
    path = d / "DiagnosticGroups.inc"
    text = path.read_text()
    path.write_text(text[: text.index("DIAG_ENTRY(Most") + 30])
    err = _error(d)
    assert err.line == len(path.read_text().splitlines())


def test_truncated_kinds_row(tmp_path):
    d = _copy(tmp_path)
    path = d / "DiagnosticSemaKinds.inc"
    path.write_text(path.read_text()[:-40])
    err = _error(d)
    assert err.path == str(path) and err.line == 10 and "malformed DIAG row" in str(err)


def test_unknown_table_layout(tmp_path):
    d = _copy(tmp_path)
    _edit(d / "DiagnosticGroups.inc", "#ifdef DIAG_ENTRY", "#ifdef DIAG_GROUP_ROWS")
    assert "unknown layout" in str(_error(d))


def test_unknown_entry_shape(tmp_path):
    d = _copy(tmp_path)
    _edit(d / "DiagnosticGroups.inc", "DIAG_ENTRY(All /* all */, 5, 0,", "DIAG_ENTRY(All /* all */, 5, 0, 7, 0,")
    err = _error(d)
    assert err.line and "DIAG_ENTRY" in str(err)


def test_unknown_diag_row_shape(tmp_path):
    d = _copy(tmp_path)
    _edit(d / "DiagnosticCommonKinds.inc", "false, false, false, false, 2)", "false, false, false, false, false, 2)")
    assert "12 fields" in str(_error(d))


def test_unknown_class(tmp_path):
    d = _copy(tmp_path)
    _edit(d / "DiagnosticCommonKinds.inc", "CLASS_ERROR", "CLASS_OOPS")
    assert "CLASS_OOPS" in str(_error(d))


def test_name_table_disagrees_with_rows(tmp_path):
    d = _copy(tmp_path, "strtab22")
    _edit(d / "DiagnosticGroups.inc", '"all\\0"', '"alL\\0"')
    assert "name table says 'alL'" in str(_error(d))


def test_member_without_diag_row(tmp_path):
    d = _copy(tmp_path)
    _edit(d / "DiagnosticSemaKinds.inc", "DIAG(warn_b,", "DIAG(warn_bb,")
    assert "diag::warn_b" in str(_error(d))


def test_group_zero_with_diagnostics_is_refused(tmp_path):
    d = _copy(tmp_path, "entry14")
    _edit(d / "DiagnosticGroups.inc", "DIAG_ENTRY(anonymous_0 /*  */, 0, 0,", "DIAG_ENTRY(anonymous_0 /*  */, 0, 3,")
    assert "ambiguous" in str(_error(d))


def test_missing_files(tmp_path):
    with pytest.raises(ParseError, match="DiagnosticGroups.inc"):
        parse_dir(tmp_path)
    with pytest.raises(WarnscopeError, match="not a directory"):
        load_clang("clang-15", source=str(tmp_path / "nope"))


def test_version_must_match_the_compiler_asked_for():
    with pytest.raises(WarnscopeError, match="clang 15.0.6, not clang-16"):
        load_clang("clang-16", source=str(FIXTURES / "docs15"))


def test_not_a_clang_id():
    with pytest.raises(WarnscopeError, match="not a clang version id"):
        load_clang("gcc-12", source=str(FIXTURES / "docs15"))


def test_build_is_deterministic():
    a, b = data_of("strtab22"), data_of("strtab22")
    assert a.content_hash() == b.content_hash()
    assert build("clang-22", parse_dir(FIXTURES / "strtab22"), "inc-dir", "x").flags == [
        f for f in b.flags]


def test_source_may_be_an_include_root(tmp_path):
    """``--source /usr/lib/llvm-N/include`` works as well as the clang/Basic directory."""
    shutil.copytree(FIXTURES / "docs15", tmp_path / "include" / "clang" / "Basic")
    for root in (tmp_path, tmp_path / "include"):
        data = load_clang("clang-15", source=str(root))
        assert data.flag("-W").alias_of == "-Wextra"
        assert data.source == str((tmp_path / "include" / "clang" / "Basic").resolve())


@pytest.mark.parametrize("hostile", ["p,-load,evil.so", "zz;touch${IFS}F;", "x y"])
def test_group_whose_name_is_no_warning_option_is_refused(tmp_path, hostile):
    """Every group becomes -W<group> on clang's command line (``flags verify``'s probe):
    a group renamed ``p,-load,evil.so`` would be ``-Wp,-load,evil.so``, which clang hands
    to cc1. The last name of the table is renamed, so no offset moves."""
    d = _copy(tmp_path)
    path = d / "DiagnosticGroups.inc"
    _edit(path, '\\010pedanti"\n    "c"', f'\\{len(hostile):03o}{hostile}"')
    _edit(path, "/* pedantic */", f"/* {hostile} */")
    err = _error(d)
    assert err.path == str(path) and err.line and "would be the option" in str(err)
