"""``flags verify`` on an entry ingested from the GCC binary (through the plugin).

Such an entry has no option files behind it: no variable names, no ``Init``, no
files of origin. Verification has to use what the binary route does know (variable
offsets, per-language defaults, the states the plugin recorded before and after the
front end's post-option code) and still catch a wrong entry.
"""
from __future__ import annotations

import copy
import dataclasses

import pytest

from flagdb import store
from warnscope.database import connect
from flagdb.ingest import store_data
from analyzer import verify
from analyzer.gccplugin import binary


def _ingest_from_binary(tmp_path_factory, require, compiler: str):
    """The entry as ``flags ingest COMPILER --from-binary`` stores it, read back."""
    require(compiler)
    if not binary.plugin_available(compiler):
        pytest.skip(f"the warnscope plugin cannot be built for {compiler}")
    conn = connect(tmp_path_factory.mktemp("bin") / "binary.db")
    store_data(conn, binary.ingest(compiler))
    data = store.load(conn, compiler)
    conn.close()
    assert data.source_kind == "binary"
    return data


@pytest.fixture(scope="module")
def binary_entry(tmp_path_factory, require):
    return _ingest_from_binary(tmp_path_factory, require, "gcc-12")


def _unexplained(data) -> set[tuple[str, str]]:
    return {(f.check, f.flag) for f in verify.run(data).unexplained}


@pytest.mark.parametrize("compiler", ["gcc-11", "gcc-12"])
def test_binary_entry_verifies_green(request, tmp_path_factory, require, compiler):
    entry = (request.getfixturevalue("binary_entry") if compiler == "gcc-12"
             else _ingest_from_binary(tmp_path_factory, require, compiler))
    report = verify.run(entry)
    assert report.unexplained == [], report.unexplained[:5]
    # Not vacuous: as many comparisons as for the option-file entry, every scenario
    # comparing most options, and the plugin's checks included.
    files = verify.run(request.getfixturevalue(compiler.replace("-", "")))
    assert files.ok
    total, files_total = sum(report.compared.values()), sum(files.compared.values())
    assert total > 0.9 * files_total
    for check in ("default-c", "wall-c", "wextra-c", "default-c++", "wall-c++", "wextra-c++"):
        assert report.compared[check] > 350
    assert report.compared["plugin"] > 500
    # What is explained is explained by a specific rule, not wholesale.
    assert len(report.findings) < 0.05 * total
    reasons = {(f.check, f.flag): f.reason for f in report.findings}
    assert "Modula-2" in reasons[("default-c", "-Wunused-parameter")]
    if compiler == "gcc-12":  # GCC 11's -Q prints an unresolved switch as enabled
        assert "c_common_post_options" in reasons[("default-c++", "-Wmain")]


def test_shared_variables_come_from_offsets(binary_entry):
    """-Wcast-align=strict is ``Var(warn_cast_align, 2)``: the binary's table gives its
    offset (that of -Wcast-align) and the value, which the -Q prediction needs."""
    strict, plain = binary_entry.flag("-Wcast-align=strict"), binary_entry.flag("-Wcast-align")
    assert strict.gcc.var_offset == plain.gcc.var_offset is not None
    assert strict.gcc.var_type == "equal" and strict.gcc.var_value == "2"


def test_a_wrong_default_is_caught(binary_entry):
    wrong = copy.deepcopy(binary_entry)
    shadow = wrong.flag("-Wshadow")  # off in both languages
    shadow.default = "on"
    shadow.facts = dataclasses.replace(shadow.facts, defaults={"C": "on", "C++": "on"})
    bad = _unexplained(wrong)
    for lang in ("c", "c++"):
        assert (f"default-{lang}", "-Wshadow") in bad
        assert (f"plugin-default-{lang}", "-Wshadow") in bad


def test_a_wrong_default_decided_after_option_parsing_is_caught(binary_entry):
    """-Wmain is decided by c_common_post_options (on in C++). -Q shows the unresolved
    state, which is explained only while the entry's default is the recorded one."""
    wrong = copy.deepcopy(binary_entry)
    main = wrong.flag("-Wmain")
    assert main.gcc.defaults["C++"] == "on"
    main.facts = dataclasses.replace(main.facts, defaults={**main.gcc.defaults, "C++": "off"})
    bad = _unexplained(wrong)
    assert ("default-c++", "-Wmain") in bad and ("plugin-default-c++", "-Wmain") in bad
    assert ("default-c", "-Wmain") not in bad


def test_a_missing_edge_is_caught(binary_entry):
    wrong = copy.deepcopy(binary_entry)
    wrong.edges = [e for e in wrong.edges if not (e.parent == "-Wall" and e.child == "-Wparentheses")]
    bad = _unexplained(wrong)
    for lang in ("c", "c++"):
        assert (f"wall-{lang}", "-Wparentheses") in bad
        assert (f"plugin-wall-{lang}", "-Wparentheses") in bad
