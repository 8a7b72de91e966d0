"""The database agrees with the GCC binaries, or explains each difference by rule."""
from __future__ import annotations

import json

import pytest


@pytest.mark.parametrize("compiler", ["gcc-11", "gcc-12"])
def test_verify_against_binary(cli, compiler, require):
    require(compiler)
    code, out, _ = cli("flags", "verify", compiler, "--json")
    report = json.loads(out)
    unexplained = [f for f in report["findings"] if f["reason"] is None]
    assert unexplained == [] and code == 0
    # Every scenario compared most options, for C and for C++.
    for check in ("default-c", "wall-c", "wextra-c", "default-c++", "wall-c++", "wextra-c++"):
        assert report["compared"][check] > 350


def test_verify_catches_a_wrong_database(gcc12, require):
    """A database that claims something false about the binary is caught."""
    require("gcc-12")
    import copy
    import dataclasses

    from analyzer.verify.gcc_q import verify_gcc

    wrong = copy.deepcopy(gcc12)
    shadow = wrong.flag("-Wshadow")
    shadow.facts = dataclasses.replace(shadow.facts, init="1")  # claims it is on by default
    wrong.edges = [e for e in wrong.edges if not (e.parent == "-Wall" and e.child == "-Wparentheses")]
    report = verify_gcc(wrong)
    bad = {(f.check, f.flag) for f in report.unexplained}
    assert ("default-c", "-Wshadow") in bad
    assert ("wall-c", "-Wparentheses") in bad and ("wall-c++", "-Wparentheses") in bad


def test_verify_catches_an_edge_in_the_wrong_language(gcc12, require):
    """-Wall turns on -Wmissing-braces for C only (LangEnabledBy(C ObjC,Wall)). A database
    that loses that limit predicts it on in C++ too; the binary disagrees, and that must
    not pass as "set by the C++ front end's own code" just because C agrees."""
    require("gcc-12")
    import copy

    from analyzer.verify.gcc_q import verify_gcc

    wrong = copy.deepcopy(gcc12)
    for e in wrong.edges:
        if e.parent == "-Wall" and e.child == "-Wmissing-braces":
            e.languages = []
    bad = {(f.check, f.flag) for f in verify_gcc(wrong).unexplained}
    assert ("wall-c++", "-Wmissing-braces") in bad
