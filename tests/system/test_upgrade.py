"""``warnscope upgrade`` on real compilers and real fixture projects: the configure check
that flips (and the macro it loses), every new error with what the old compiler printed
there, the escape hatch built and proven, the default standards, a second question
answered from the stored builds; and the bad inputs.

* clang-14 -> clang-16 on the host: clang 16 made implicit declarations and implicit int
  errors in C (tests/fixtures/upgrade/gcc14-autotools, an autoconf project whose
  ``__progname`` check calls printf without <stdio.h>, as autossh 1.4g's does);
* gcc-13 -> gcc-14 in one trixie root (``zoo_root``): the same project, GCC 14's
  permerrors and ``-fpermissive``.
"""
from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
AUTOTOOLS = ROOT / "tests" / "fixtures" / "upgrade" / "gcc14-autotools"


def _upgrade(cli, *args: str):
    code, out, err = cli("upgrade", "--source", str(AUTOTOOLS), "--build", "make", "--quiet", *args)
    return code, out, err


@pytest.fixture(scope="module")
def clang_db(tmp_path_factory):
    return tmp_path_factory.mktemp("upgrade") / "up.db"


def test_clang_16_flips_the_check_and_breaks_the_build(clang_db, cli_at, require):
    require("clang-14")
    require("clang-16")
    code, out, err = _upgrade(cli_at(clang_db), "--from", "clang-14", "--to", "clang-16", "--json")
    assert code == 0, err
    (pair,) = json.loads(out)["pairs"]
    assert (pair["old"], pair["new"], pair["switching"]) == ("clang-14", "clang-16", False)
    # the silent damage first: the check flips and the macro is lost
    (flip,) = pair["flips"]
    assert (flip["system"], flip["name"], flip["old"], flip["new"]) == (
        "autoconf", "if libc defines __progname", "yes", "no")
    assert "undeclared library function 'printf'" in flip["error"] and flip["error"].startswith("conftest.c:")
    assert pair["macros"] == [{"file": "config.h", "name": "HAVE___PROGNAME", "old": "1", "new": None}]
    # the build's fate, every new error (make -k: both files), each a warning before
    assert (pair["old_status"], pair["new_status"]) == ("ok", "failed")
    errors = {(e["file"], e["line"], e["option"], e["was"]) for e in pair["new_errors"]}
    assert errors == {("names.c", 4, "-Wimplicit-int", "warning"),
                      ("names.c", 12, "-Wimplicit-function-declaration", "warning")}
    # the escape hatch, built: the build succeeds with it
    hatch = pair["hatch"]
    assert sorted(hatch["flags"]) == ["c:-Wno-error=implicit-function-declaration",
                                      "c:-Wno-error=implicit-int"]
    assert hatch["status"] == "ok" and hatch["errors_left"] == 0
    assert pair["environment"]["differs"] == []          # one system: only the compiler changed


def test_the_text_report_leads_with_the_flip(clang_db, cli_at, require):
    require("clang-16")
    code, out, err = _upgrade(cli_at(clang_db), "--from", "clang-14", "--to", "clang-16", "--stored")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[1] == "  silently changed configure checks: 1"
    assert lines[2] == "    autoconf: if libc defines __progname: yes -> no"
    assert "config.h: HAVE___PROGNAME #define 1 -> #undef" in out
    assert "escape hatch: -Wno-error=implicit-function-declaration (C) -Wno-error=implicit-int (C): " \
           "the build succeeds" in out


def test_a_second_question_builds_nothing(clang_db, cli_at, dump, require):
    """The same question again is answered from the stored builds: no build runs, the
    database is unchanged."""
    require("clang-16")
    before = dump(clang_db)
    start = time.monotonic()
    code, out, err = _upgrade(cli_at(clang_db), "--from", "clang-14", "--to", "clang-16")
    assert code == 0, err
    assert dump(clang_db) == before
    assert time.monotonic() - start < 60        # no build: a generous bound, the bench measures it


def test_an_old_build_that_already_fails(clang_db, cli_at, require):
    """From clang-16 back to clang-14: the from-build fails, which the report says, and
    the configure checks are still compared."""
    require("clang-16")
    code, out, err = _upgrade(cli_at(clang_db), "--from", "clang-16", "--to", "clang-14", "--stored")
    assert code == 0, err
    assert "clang-16 already fails: build failed (exit 2): names.c:4:8: error:" in out
    assert "autoconf: if libc defines __progname: no -> yes" in out


def test_gcc_14_in_one_root(zoo_root, tmp_path, cli_at):
    """gcc-13 -> gcc-14 of one trixie root: the flip, GCC 14's three errors, -fpermissive."""
    code, out, err = _upgrade(cli_at(tmp_path / "gcc.db"), "--from", "gcc-13", "--to", "gcc-14",
                              "--same-root", "--json")
    assert code == 0, err
    (pair,) = json.loads(out)["pairs"]
    assert [(f["name"], f["old"], f["new"]) for f in pair["flips"]] == [
        ("if libc defines __progname", "yes", "no")]
    assert "implicit declaration of function 'printf'" in pair["flips"][0]["error"]
    options = sorted(e["option"] for e in pair["new_errors"])
    assert options == ["-Wimplicit-function-declaration", "-Wimplicit-int",
                       "-Wincompatible-pointer-types"]
    assert all(e["was"] == "warning" for e in pair["new_errors"])
    assert pair["hatch"]["flags"] == ["c:-fpermissive"] and pair["hatch"]["status"] == "ok"
    assert pair["environment"]["differs"] == []


def test_gcc_15_c23_default(sid_root, tmp_path, cli_at):
    """gcc-14 -> gcc-15 of one sid root: GCC 15 compiles C as C23, read from the compilers;
    what it breaks in a pre-C23 project, and -std=gnu17 as the proven hatch."""
    code, out, err = cli_at(tmp_path / "c23.db")(
        "upgrade", "--source", str(ROOT / "tests" / "fixtures" / "upgrade" / "gcc15-c23"),
        "--build", 'make CFLAGS="{cflags}"', "--from", "gcc-14", "--to", "gcc-15", "--same-root",
        "--quiet")
    assert code == 0, err
    assert "default C standard: C17 (201710L) -> C23 (202311L) (the project pins no -std" in out
    assert "legacy.c:3:13: 'bool' cannot be defined via 'typedef' (not printed before)" in out
    assert "too many arguments to function 'add'" in out
    assert "escape hatch: -std=gnu17 (C): the build succeeds" in out
    assert "not only the compiler changed" not in out
    # the five errors are counted once, as errors: the warnings are the two gcc-15 printed
    # as warnings (a useless type name, an old-style definition)
    assert "  new errors: 5" in out
    assert "  warnings: 2 new, 0 gone, 0 reworded, 0 unchanged (printed as warnings; " in out


def test_bad_input(tmp_path, fails_on, require):
    require("clang-16")
    db = tmp_path / "bad.db"
    base = ("upgrade", "--source", str(AUTOTOOLS), "--build", "make")
    assert "is among --to" in fails_on(db, *base, "--from", "clang-16", "--to", "clang-16")
    assert "is among --to" in fails_on(db, *base, "--from", "clang-16", "--to", "/usr/bin/clang-16")
    line = fails_on(db, *base, "--from", "clang-16", "--to", "gcc-97")
    assert "gcc-97" in line and "name its driver by path" in line
    line = fails_on(db, *base, "--from", "clang-14", "--to", "clang-16", "--stored")
    assert "no stored default build" in line or "no such database" in line


def test_a_hostile_config_log_is_not_read(tmp_path, cli_at, require):
    """A configure step that leaves config.log as a link out of the tree: refused, said,
    never read; the rest of the report stands."""
    require("clang-14")
    require("clang-16")
    tree = tmp_path / "tree"
    shutil.copytree(AUTOTOOLS, tree)
    (tree / "configure.sh").write_text('./configure "$@" && rm -f config.log && ln -s /etc/shadow config.log\n')
    cli = cli_at(tmp_path / "h.db")
    code, out, err = cli("upgrade", "--source", str(tree), "--configure",
                         'sh configure.sh CFLAGS="{cflags}"', "--build", "make", "--quiet",
                         "--from", "clang-14", "--to", "clang-16", "--json")
    assert code == 0, err
    (pair,) = json.loads(out)["pairs"]
    assert pair["flips"] == []                 # nothing compared, nothing leaked
    assert "root:" not in out
    assert any("clang-16's config.log was not read" in n and "link" in n for n in pair["notes"]), pair["notes"]
    assert pair["macros"] == [{"file": "config.h", "name": "HAVE___PROGNAME", "old": "1", "new": None}]
