"""``warnscope upgrade`` on real compilers and real fixture projects: the configure check
that flips (and the macro it loses), every new error with what the old compiler printed
there, the escape hatch built and proven, the default standards, a second question
answered from the stored builds; and the bad inputs.

* clang-14 -> clang-16 on the host: clang 16 made implicit declarations and implicit int
  errors in C (tests/fixtures/upgrade/gcc14-autotools, an autoconf project whose
  ``__progname`` check calls printf without <stdio.h>, as autossh 1.4g's does);
* gcc-13 -> gcc-14 in one trixie root (``zoo_root``): the same project, GCC 14's
  permerrors and ``-fpermissive``;
* gcc-14 -> gcc-15 in one sid root (``sid_root``): tests/fixtures/upgrade/gcc15-c23, C
  written before C23, where ``-std=gnu17`` alone is the smallest hatch, and with the
  project's own ``-Wextra -Werror``, where only two switches together build.

The hatch is the smallest set of switches that builds: each candidate is built alone
first, then combinations only as needed; the report says what each did alone.
"""
from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
AUTOTOOLS = ROOT / "tests" / "fixtures" / "upgrade" / "gcc14-autotools"
C23 = ROOT / "tests" / "fixtures" / "upgrade" / "gcc15-c23"


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
    # the escape hatch, built: each switch alone leaves the other's error, both together build
    hatch = pair["hatch"]
    assert hatch["flags"] == ["c:-Wno-error=implicit-function-declaration", "c:-Wno-error=implicit-int"]
    assert hatch["status"] == "ok" and hatch["errors_left"] == 0
    assert [(t["flags"], t["status"], t["errors_left"]) for t in hatch["alone"]] == [
        (["c:-Wno-error=implicit-function-declaration"], "failed", 1),
        (["c:-Wno-error=implicit-int"], "failed", 1)]
    assert [t["flags"] for t in hatch["combined"]] == [hatch["flags"]]
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
           "the build succeeds (the smallest set that does)" in out
    assert "    alone: -Wno-error=implicit-int (C): still fails with 1 error" in lines


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
    # each option's -Wno-error= alone leaves the other two errors; -fpermissive alone builds
    assert [(t["flags"], t["status"], t["errors_left"]) for t in pair["hatch"]["alone"]] == [
        (["c:-Wno-error=implicit-function-declaration"], "failed", 2),
        (["c:-Wno-error=implicit-int"], "failed", 2),
        (["c:-Wno-error=incompatible-pointer-types"], "failed", 2),
        (["c:-fpermissive"], "ok", 0)]
    assert pair["hatch"]["combined"] == []
    assert pair["environment"]["differs"] == []


def _c23(cli, flags: str, *args: str):
    return cli("upgrade", "--source", str(C23), "--build", f'make CFLAGS="{flags}{{cflags}}"',
               "--from", "gcc-14", "--to", "gcc-15", "--same-root", "--quiet", *args)


def test_gcc_15_c23_default(sid_root, tmp_path, cli_at):
    """gcc-14 -> gcc-15 of one sid root: GCC 15 compiles C as C23, read from the compilers;
    what it breaks in a pre-C23 project, and -std=gnu17 alone as the proven hatch: its
    pointer to a function of ``()``, incompatible in C23, needs no -fpermissive."""
    code, out, err = _c23(cli_at(tmp_path / "c23.db"), "")
    assert code == 0, err
    lines = out.splitlines()
    assert "default C standard: C17 (201710L) -> C23 (202311L) (the project pins no -std" in out
    assert "legacy.c:3:13: 'bool' cannot be defined via 'typedef' (not printed before)" in out
    assert "too many arguments to function 'add'" in out
    assert "from incompatible pointer type 'void (*)(int)' [-Wincompatible-pointer-types]" in out
    assert "  escape hatch: -std=gnu17 (C): the build succeeds (the smallest set that does)" in lines
    at = lines.index("  escape hatch: -std=gnu17 (C): the build succeeds (the smallest set that does)")
    assert lines[at + 2:at + 5] == [
        "    alone: -Wno-error=incompatible-pointer-types (C): still fails with 6 errors",
        "    alone: -std=gnu17 (C): builds",
        "    alone: -fpermissive (C): still fails with 6 errors"]
    assert "together" not in out
    assert "not only the compiler changed" not in out
    # the seven errors are counted once, as errors: the warnings are the two gcc-15 printed
    # as warnings (a useless type name, an old-style definition)
    assert "  new errors: 7" in out
    assert "  warnings: 2 new, 0 gone, 0 reworded, 0 unchanged (printed as warnings; " in out


def test_gcc_15_with_werror_needs_two_switches(sid_root, tmp_path, cli_at):
    """The same project with its own -Wextra -Werror: GCC 15's new -Wextra warning (a
    string with no room for its NUL) is an error too, which -std=gnu17 leaves; no switch
    alone builds, and the smallest set that does is built and named, in the text, the
    JSON and the SARIF log."""
    cli = cli_at(tmp_path / "werror.db")
    code, out, err = _c23(cli, "-Wextra -Werror ", "--json")
    assert code == 0, err
    hatch = json.loads(out)["pairs"][0]["hatch"]
    smallest = ["c:-Wno-error=unterminated-string-initialization", "c:-std=gnu17"]
    assert (hatch["flags"], hatch["status"], hatch["errors_left"]) == (smallest, "ok", 0)
    alone = {t["flags"][0]: (t["status"], t["errors_left"]) for t in hatch["alone"]}
    assert list(alone) == ["c:-Wno-error=incompatible-pointer-types", "c:-Wno-error=old-style-definition",
                           "c:-Wno-error=unterminated-string-initialization",
                           "c:-Wno-error",            # the useless type name: -Werror, no option
                           "c:-std=gnu17", "c:-fpermissive"]
    assert all(status == "failed" for status, _ in alone.values())
    assert alone["c:-std=gnu17"] == ("failed", 1)              # the string's -Wextra warning
    assert [(t["flags"], t["status"]) for t in hatch["combined"]] == [(smallest, "ok")]
    code, text, err = _c23(cli, "-Wextra -Werror ", "--stored")
    assert code == 0, err
    assert "  escape hatch: -Wno-error=unterminated-string-initialization (C) -std=gnu17 (C): the build " \
           "succeeds (the smallest set that does)" in text.splitlines()
    assert "    alone: -std=gnu17 (C): still fails with 1 error" in text.splitlines()
    assert "    together: -Wno-error=unterminated-string-initialization (C) -std=gnu17 (C): builds" \
        in text.splitlines()
    code, sarif, err = _c23(cli, "-Wextra -Werror ", "--stored", "--format", "sarif")
    assert code == 0, err
    facts = json.loads(sarif)["runs"][1]["properties"]["escapeHatch"]
    assert (facts["flags"], facts["status"], facts["errorsLeft"]) == (smallest, "ok", 0)
    assert [(t["flags"], t["errorsLeft"]) for t in facts["alone"]] == \
        [(t["flags"], t["errors_left"]) for t in hatch["alone"]]
    assert [t["flags"] for t in facts["combined"]] == [smallest]


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
