"""``warnscope upgrade`` on real Debian source packages across real upgrades, one per
build system, and a Meson fixture built past its errors:

* mawk 1.3.4 (autoconf, Thomas Dickey's 2.52): gcc-13 -> gcc-14 of one trixie root; its
  "random-integer functions" check calls arc4random without <stdlib.h>, so GCC 14's
  implicit-declaration error turns it off and config.h loses mawk_rand: the package
  still builds, with another random-number generator;
* json-c 0.16 (CMake, -Werror by default): gcc-12 -> clang-16 on the host, switching
  compilers; clang 16 warns of a declaration without a prototype, which -Werror makes
  the build's one error, and -Wno-error=strict-prototypes is proven to restore it;
* fribidi 1.0.8 (Meson): gcc-13 -> gcc-14 of the trixie root: both build, Meson's
  checks read and unchanged;
* tests/fixtures/upgrade/clang16-meson: clang-14 -> clang-16 with one job, so that only
  ninja's ``-k 0`` lists all three files' errors; a Meson check that flips;
* a build that hangs: the step's timeout, said in the report.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from warnscope.database import connect

ROOT = Path(__file__).resolve().parents[2]
MESON = ROOT / "tests" / "fixtures" / "upgrade" / "clang16-meson"


def _pair(out: str) -> dict:
    (pair,) = json.loads(out)["pairs"]
    return pair


def _gcc_14_in_one_root(cli_at, db: Path, project: str) -> dict:
    """The pair of ``project`` moved from gcc-13 to gcc-14 of the trixie root."""
    code, out, err = cli_at(db)("upgrade", "--project", project, "--from", "gcc-13", "--to", "gcc-14",
                                "--same-root", "--quiet", "--json")
    assert code == 0, err
    return _pair(out)


def test_mawk_loses_its_random_generator_under_gcc_14(zoo_root, tmp_path, cli_at):
    pair = _gcc_14_in_one_root(cli_at, tmp_path / "mawk.db", "mawk")
    assert (pair["old_status"], pair["new_status"]) == ("ok", "ok")     # nothing fails: silent
    (flip,) = [f for f in pair["flips"] if f["name"] == "for random-integer functions"]
    assert (flip["system"], flip["old"], flip["new"]) == ("autoconf", "arc4random_stir/arc4random", "unknown")
    assert "implicit declaration of function" in flip["error"] and "[-Wimplicit-function-declaration]" in flip["error"]
    assert pair["flips"] == [flip]       # a question configure asks twice (ctags) is no flip
    macros = {m["name"]: (m["old"], m["new"]) for m in pair["macros"]}
    assert macros["mawk_rand"] == ("arc4random", None)
    assert macros["NAME_RANDOM"] == ('"arc4random_stir/arc4random"', '"unknown"')
    assert pair["environment"]["differs"] == []


@pytest.fixture(scope="module")
def json_c(tmp_path_factory):
    """(the pair, the database) of json-c moved from gcc-12 to clang-16, once."""
    for program in ("gcc-12", "clang-16", "cmake"):
        if shutil.which(program) is None:
            pytest.skip(f"{program} is not installed")
    db = tmp_path_factory.mktemp("json-c") / "json-c.db"
    proc = subprocess.run([sys.executable, "-m", "analyzer", "--db", str(db), "upgrade", "--project",
                           "json-c", "--from", "gcc-12", "--to", "clang-16", "--quiet", "--json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stderr
    return _pair(proc.stdout), db


def test_json_c_with_werror_breaks_under_clang_16(json_c):
    pair, _db = json_c
    assert pair["switching"] is True
    assert (pair["old_status"], pair["new_status"]) == ("ok", "failed")
    options = {e["option"] for e in pair["new_errors"]}
    assert options == {"-Wstrict-prototypes"}, pair["new_errors"]
    assert all(e["was"] == "nothing" for e in pair["new_errors"])        # gcc-12 printed nothing there
    assert pair["hatch"]["flags"] == ["c:-Wno-error=strict-prototypes"] and pair["hatch"]["status"] == "ok"
    # the error is counted once, under the new errors: not also a new warning
    w = pair["warnings"]
    assert (w["added"], w["removed"], w["changed"]) == (0, 0, 0), w["by_option"]
    logs = Path(pair["new_log"])                                          # the failed build's whole log
    assert "strict-prototypes" in (logs / "build.log").read_text(errors="replace")
    assert pair.get("old_log") is None                                   # gcc-12's built


def test_json_c_checks_are_read_from_cmake(json_c):
    """CMake's check_* results, read from its cache for both compilers."""
    _pair_, db = json_c
    conn = connect(db)
    counts = dict(conn.execute("SELECT b.compiler, count(*) FROM wn_check c JOIN wn_build b "
                               "ON b.id = c.build_id WHERE b.level = 'default' AND c.system = 'cmake' "
                               "GROUP BY b.compiler").fetchall())
    names = {n for (n,) in conn.execute("SELECT name FROM wn_check")}
    conn.close()
    assert counts["gcc-12"] > 20 and counts["clang-16"] > 20, counts
    assert {"HAVE_STDINT_H", "HAVE_SNPRINTF"} <= names


def test_fribidi_meson_checks_in_one_root(zoo_root, tmp_path, cli_at):
    pair = _gcc_14_in_one_root(cli_at, tmp_path / "fribidi.db", "fribidi")
    assert (pair["old_status"], pair["new_status"]) == ("ok", "ok")
    assert pair["flips"] == [] and pair["new_errors"] == []
    conn = connect(tmp_path / "fribidi.db")
    checks = [tuple(r) for r in conn.execute("SELECT b.compiler, c.name, c.result FROM wn_check c "
                                             "JOIN wn_build b ON b.id = c.build_id WHERE c.system = 'meson'")]
    conn.close()
    assert ("gcc-14", 'Checking for function "memmove"', "YES") in checks
    assert len([c for c in checks if c[0] == "gcc-13"]) == len([c for c in checks if c[0] == "gcc-14"]) > 5


def test_meson_fixture_built_past_its_errors(tmp_path, cli_at, require):
    require("clang-14")
    require("clang-16")
    code, out, err = cli_at(tmp_path / "meson.db")(
        "upgrade", "--source", str(MESON), "--configure", "meson setup _build", "--build",
        "ninja -C _build", "-j", "1", "--from", "clang-14", "--to", "clang-16", "--quiet", "--json")
    assert code == 0, err
    pair = _pair(out)
    (flip,) = pair["flips"]
    assert (flip["system"], flip["name"], flip["old"], flip["new"]) == (
        "meson", 'Checking if "static helpers" compiles', "YES", "NO")
    assert "[-Wimplicit-int]" in flip["error"]
    assert {(m["name"], m["old"], m["new"]) for m in pair["macros"]} == {("HAVE_STATIC_HELPERS", "1", "0")}
    # one job: without -k 0, ninja would stop at the first file's error
    assert sorted(e["file"] for e in pair["new_errors"]) == ["count.c", "parse.c", "trim.c"]
    assert pair["hatch"]["status"] == "ok"


def test_a_build_that_hangs_is_stopped_and_said(tmp_path, cli_at, require):
    require("clang-14")
    require("clang-16")
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "Makefile").write_text("all:\n\tsleep 600\n")
    code, out, err = cli_at(tmp_path / "hang.db")(
        "upgrade", "--source", str(tree), "--build", "make", "--timeout", "3", "--from", "clang-14",
        "--to", "clang-16", "--quiet")
    assert code == 0, err
    assert "clang-14 already fails: build failed (timed out after 3 s)" in out
    assert "build: clang-14 fails, clang-16 fails (build failed (timed out after 3 s))" in out
    code, out, err = cli_at(tmp_path / "hang-configure.db")(
        "upgrade", "--source", str(tree), "--configure", "sleep 600", "--build", "make", "--timeout", "3",
        "--from", "clang-14", "--to", "clang-16", "--quiet")
    assert code == 0, err
    assert "configure failed (timed out after 3 s): sleep 600" in out


def test_a_compile_database_replayed_by_each_compiler(tmp_path, cli_at, require, fails_on):
    """``--compile-commands``: each entry's compile replayed by the old and the new
    compiler with the entry's own options (here -Wall), past a failed compile."""
    require("clang-14")
    require("clang-16")
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "config.h").write_text("#define X 1\n")
    (tree / "names.c").write_text((ROOT / "tests/fixtures/upgrade/gcc14-autotools/names.c").read_text())
    (tree / "more.c").write_text("int twice(int x) { return abs(x) * 2; }   /* <stdlib.h> forgotten */\n")
    (tree / "compile_commands.json").write_text(json.dumps([
        {"directory": str(tree), "file": "names.c", "arguments": ["cc", "-O2", "-Wall", "-c", "names.c", "-o", "names.o"]},
        {"directory": str(tree), "file": "more.c", "arguments": ["cc", "-O2", "-c", "more.c", "-o", "more.o"]}]))
    db = tmp_path / "ccdb.db"
    code, out, err = cli_at(db)("upgrade", "--compile-commands", str(tree / "compile_commands.json"),
                                "--from", "clang-14", "--to", "clang-16", "--quiet", "--json")
    assert code == 0, err
    pair = _pair(out)
    assert (pair["old_status"], pair["new_status"]) == ("ok", "failed")
    assert sorted((e["file"], e["option"]) for e in pair["new_errors"]) == [
        ("more.c", "-Wimplicit-function-declaration"), ("names.c", "-Wimplicit-function-declaration"),
        ("names.c", "-Wimplicit-int")]
    assert pair["hatch"]["status"] == "ok"
    assert not any(tree.glob("*.o"))                 # the tree is read-only to the compiles
    line = fails_on(db, "upgrade", "--project", "zlib", "--compile-commands", str(tree / "compile_commands.json"),
                    "--from", "clang-14", "--to", "clang-16")
    assert "give one of --project, --source, --compile-commands" in line


def test_json_c_own_options_checked_against_the_new_compiler(json_c, tmp_path, cli_at):
    """With both compilers' flag data ingested, the project's own warning options (from
    its compile commands) are checked against each: clang takes json-c's
    -Wwrite-strings as an alias; said as words, never as an enumeration's name."""
    _pair_, db = json_c
    copy = tmp_path / "json-c.db"
    copy.write_bytes(db.read_bytes())
    cli = cli_at(copy)
    code, _out, err = cli("flags", "ingest", "gcc-12", "clang-16")
    assert code == 0, err
    code, out, err = cli("upgrade", "--project", "json-c", "--from", "gcc-12", "--to", "clang-16", "--stored")
    assert code == 0, err
    assert "  the project's -Wwrite-strings: known -> alias (alias of -Wwritable-strings)" in out.splitlines()
    assert "CheckStatus" not in out
