"""Warning options without the ``Warning`` property, on real data: Android's GCC 4.4.6
(``../shared/sources/gcc-4.4.6``), Debian's gcc-11 and gcc-12 (``gcc_db``), and the rule
checked against every GCC binary there is: each name ``-Q --help=warnings`` lists is in the
data, and each name of the data's C family is one the binary accepts."""
from __future__ import annotations

import json
import shutil

import pytest

from analyzer.verify.gcc_q import query, rejected, verify_gcc
from flagdb.gcc_ingest import build_from_tree, load_gcc
from warnscope.errors import NotInstalled

#: GCC 4.4's C-family warning options whose records lack the property
UNMARKED_4_4 = ("-Wsign-conversion", "-Wframe-larger-than=", "-W", "-Wimport", "-Wpsabi")
#: the driver's own spellings, which GCC 4.4's option files do not hold
DRIVER_4_4 = {"--all-warnings": "-Wall", "--extra-warnings": "-W", "--pedantic": "-pedantic"}


def test_the_4_4_6_files_give_the_unmarked_warnings(shared_sources):
    root = shared_sources / "gcc-4.4.6"
    data = build_from_tree(root, "android-gcc-4.4", "source-tree", str(root))
    f = {x.name: x for x in data.flags}
    for name in UNMARKED_4_4:
        assert name in f and f[name].c_family and f[name].gcc.unlisted, name
    assert f["-Wsign-conversion"].default == "code" and f["-Wsign-conversion"].origin == "c.opt"
    assert f["-Wpsabi"].default == "on" and f["-Wframe-larger-than="].takes_argument
    assert {n: f[n].alias_of for n in DRIVER_4_4} == DRIVER_4_4
    assert all(f[n].origin == "driver" for n in DRIVER_4_4)
    for name in ("-Werror", "-Werror=", "-Wfatal-errors", "-Wunused-import"):   # ecj's, Java's
        assert name not in f, name


@pytest.fixture(scope="module")
def history_db(gcc_db, shared_sources, tmp_path_factory):
    """gcc_db with Android's GCC 4.4.6 ingested beside gcc-11 and gcc-12."""
    db = tmp_path_factory.mktemp("android") / "w.db"
    shutil.copy(gcc_db, db)
    from analyzer.cli import main

    assert main(["--db", str(db), "flags", "ingest", "android-gcc-4.4", "--source",
                 str(shared_sources / "gcc-4.4.6")]) == 0
    return db


def test_show_and_history_of_an_unmarked_warning(history_db, cli_at):
    cli = cli_at(history_db)
    code, out, err = cli("flags", "show", "-Wsign-conversion", "-c", "android-gcc-4.4")
    assert code == 0, err
    assert out.startswith("-Wsign-conversion (android-gcc-4.4)") and "default     code" in out
    code, out, err = cli("flags", "history", "-Wsign-conversion", "--json")
    present = {e["compiler"]: e["present"] for e in json.loads(out)}
    assert present == {"gcc-11": True, "gcc-12": True, "android-gcc-4.4": True}
    code, out, _ = cli("flags", "show", "--extra-warnings", "-c", "android-gcc-4.4")
    assert code == 0 and "alias_of    -W\n" in out and "origin      driver" in out


def test_gcc12_has_wattributes_eq(gcc12, cli):
    """GCC 12's ``Wattributes=`` (``Common Joined``, no Warning) is typed
    ``-Wno-attributes=vendor::attr``."""
    f = gcc12.flag("-Wattributes=")
    assert f.c_family and f.gcc.unlisted and f.takes_argument and f.origin == "common.opt"
    code, out, _ = cli("flags", "show", "-Wattributes=", "-c", "gcc-12")
    assert code == 0 and "Do not warn about specified attributes." in out


def _resolve(compiler: str):
    from analyzer.runtime.toolchain import resolve

    try:
        return resolve(compiler)
    except NotInstalled as exc:
        pytest.skip(f"{compiler}: {exc}")


@pytest.mark.parametrize("compiler", ["gcc-11", "gcc-12", "gcc-13", "gcc-14", "gcc-15", "gcc-16"])
def test_the_rule_against_the_binary(compiler, gcc11, gcc12):
    """Every name ``-Q --help=warnings`` lists (C and C++) is in the data, but a front end's
    the option files do not hold (Debian's Algol 68 of gcc-15); every C-family name of the
    data is accepted by the binary (the others are other targets' and front ends')."""
    tc = _resolve(compiler)
    data = {"gcc-11": gcc11, "gcc-12": gcc12}.get(compiler) or load_gcc(compiler)
    names = {f.name.replace("_", "-"): f for f in data.flags}
    for lang in ("C", "C++"):
        listed = query(tc, lang, [])
        missing = {n for n, state in listed.items() if n.replace("_", "-") not in names
                   and not state.startswith("[available in")}
        assert not missing, (lang, sorted(missing))
    refused = rejected(tc, [f.name for f in data.flags])
    assert not {n for n in refused if names[n.replace("_", "-")].c_family}, sorted(refused)
    unlisted = [f.name for f in data.flags if f.c_family and f.gcc.unlisted]
    assert "-Wimport" in unlisted and "--pedantic" in unlisted
    if compiler != "gcc-11":
        assert "-Wattributes=" in unlisted


def test_verify_shows_the_new_rows(gcc12, require):
    require("gcc-12")
    report = verify_gcc(gcc12)
    assert report.compared["accepted"] == len(gcc12.flags) and report.ok
    rows = {(f.check, f.flag): f.reason for f in report.findings}
    assert "no Warning property" in rows[("names", "-Wattributes=")]
    # another target's option, which this gcc-12 does not know: explained, not missing
    assert "not built into this compiler" in rows[("accepted", "-Wpedantic-ms-format")]
