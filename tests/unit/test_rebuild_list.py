"""``warnscope rebuild``'s list and its outcome rules, on hand-written lists and moves: a
list's projects each once, its duplicates, blanks and garbage each one line; a move's
outcome and causes, the flips of checks expected to fail on Linux kept out, the ranking
of causes. The real builds behind them are system/test_rebuild.py's."""
from __future__ import annotations

import pytest

from analyzer.projects.cell import BuildStatus
from analyzer.warnings import rebuild
from analyzer.warnings.rebuild import Outcome
from analyzer.warnings.results import (CheckFlip, Diff, Environment, MacroChange, NewError, StdDefault,
                                       UpgradePair)


def test_the_list_takes_each_project_once_and_says_every_other_line(tmp_path):
    tree = tmp_path / "proj"
    tree.mkdir()
    listing = tmp_path / "list.txt"
    listing.write_text("# moved to gcc-14\nsl\n\n   \ndebian:sl/trixie\ndebian:mawk/bookworm skip=srandomdev\n"
                       f"{tree}\n./proj\nsl extra\nDEBIAN:Caps\n./nowhere/\nzlib skip=\n"
                       "debian:xz/ancient\n\x1b[31mred\n")
    found, refused = rebuild.entries(rebuild.read_list(listing), "trixie")
    assert [(e.project, e.where, e.skip) for e in found] == [
        ("debian:sl/trixie", f"{listing}:2", ()),
        ("debian:mawk/bookworm", f"{listing}:6", ("srandomdev",)),
        ("local:proj", f"{listing}:7", ())]
    assert found[2].spec == str(tree) and found[2].local and not found[0].local
    lines = [(r.where.rsplit(":", 1)[1], r.why) for r in refused]
    assert lines[0] == ("5", f"debian:sl/trixie again (first at {listing}:2)")
    assert lines[1] == ("8", f"local:proj again (first at {listing}:7)")   # relative to the list's folder
    assert lines[2][0] == "9" and "one project and optional skip=" in lines[2][1]
    assert lines[3][0] == "10" and "is not a Debian source package name" in lines[3][1]
    assert lines[4][0] == "11" and "not a directory" in lines[4][1]
    assert lines[5][0] == "12" and "skip= takes function names" in lines[5][1]
    assert lines[6][0] == "13" and "unknown suite 'ancient'" in lines[6][1]
    assert lines[7][0] == "14" and "\x1b" not in refused[7].text and "\\x1b" in refused[7].text
    assert len(refused) == 8       # the comment and the blank lines are no one's business


def test_a_list_that_cannot_be_read_is_one_line(tmp_path):
    with pytest.raises(Exception, match="cannot read it"):
        rebuild.read_list(tmp_path / "missing.txt")
    (tmp_path / "bin.txt").write_bytes(b"sl\n\xff\xfe\n")
    with pytest.raises(Exception, match=r"not UTF-8 text \(byte 3\)"):
        rebuild.read_list(tmp_path / "bin.txt")


def _pair(old=BuildStatus.OK, new=BuildStatus.OK, flips=(), macros=(), errors=(), defaults=(),
          old_error=None, new_error=None) -> UpgradePair:
    return UpgradePair(old="gcc-13", new="gcc-14", switching=False, old_status=old, new_status=new,
                       old_error=old_error, new_error=new_error, flips=list(flips), macros=list(macros),
                       new_errors=list(errors), hatch=None, defaults=list(defaults), options=[],
                       warnings=Diff("p", "default", "gcc-13", "gcc-14", 0, 0, 0, 0, []),
                       environment=Environment("", "", []))


IMPLICIT = CheckFlip("autoconf", "for strtonum", "yes", "no",
                     "conftest.c:25:8: error: implicit declaration of function 'strtonum' "
                     "[-Wimplicit-function-declaration]", None)
PROGNAME = CheckFlip("autoconf", "if libc defines __progname", "yes", "no",
                     "conftest.c:3:1: error: call to undeclared library function 'printf'", None)
SILENT = CheckFlip("autoconf", "whether byte ordering is bigendian", "no", "unknown", None, None)
C23 = StdDefault("c", "201710L", "202311L", [])


def test_outcomes_of_moves():
    new_error = NewError("a.c", 3, 1, "-Wimplicit-int", "type defaults to 'int'", "warning")
    assert rebuild.outcome_of(_pair())[0] == Outcome.BUILDS_WITH_BOTH
    o, why, causes, _ = rebuild.outcome_of(_pair(new=BuildStatus.FAILED, errors=[new_error], defaults=[C23]))
    assert o == Outcome.NEW_FAILURE and causes == ["-Wimplicit-int", "c default C17 (201710L) -> C23 (202311L)"]
    assert why.startswith("1 new error(s), first a.c:3: type defaults to 'int'")
    o, why, causes, _ = rebuild.outcome_of(_pair(old=BuildStatus.FAILED, new=BuildStatus.FAILED,
                                                 old_error="build failed (exit 2)"))
    assert (o, why, causes) == (Outcome.ALREADY_FAILS, "gcc-13 fails too: build failed (exit 2)", [])
    o, why, _, _ = rebuild.outcome_of(_pair(new=BuildStatus.CANNOT_TELL, new_error="needs the network"))
    assert (o, why) == (Outcome.CANNOT_TELL, "needs the network")
    o, why, causes, _ = rebuild.outcome_of(_pair(flips=[PROGNAME], macros=[MacroChange("config.h", "HAVE___PROGNAME", "1", None)],
                                                 defaults=[C23]))
    assert o == Outcome.FLIPS_ONLY and causes == ["c default C17 (201710L) -> C23 (202311L)"]
    # a check that changed with no error to say why: nothing can be told of it
    o, why, _, _ = rebuild.outcome_of(_pair(flips=[SILENT]))
    assert o == Outcome.CANNOT_TELL and "no error explains it" in why


def test_checks_expected_to_fail_on_linux_are_kept_out_of_the_flips():
    o, _, _, expected = rebuild.outcome_of(_pair(flips=[IMPLICIT], macros=[MacroChange("config.h", "HAVE_STRTONUM", "1", None)]))
    assert (o, expected) == (Outcome.BUILDS_WITH_BOTH, [IMPLICIT])
    # the project's own list extends the shipped one; without it the flip counts
    assert rebuild.outcome_of(_pair(flips=[PROGNAME]))[0] == Outcome.FLIPS_ONLY
    o, _, _, expected = rebuild.outcome_of(_pair(flips=[PROGNAME, IMPLICIT]), (*rebuild.EXPECTED_FAILURES, "print*"))
    assert (o, expected) == (Outcome.BUILDS_WITH_BOTH, [PROGNAME, IMPLICIT])
    # a pattern matches a word of the check's name too (a check that names its function)
    assert rebuild.expected_flip(CheckFlip("cmake", "HAVE__BITSCANREVERSE64 _BitScanReverse64", "1", "", None, None),
                                 rebuild.EXPECTED_FAILURES)


def test_causes_are_ranked_with_their_projects():
    def report(name, outcome, causes):
        return rebuild.ProjectReport(name, "x:1", outcome, "", causes)

    s = rebuild.summarize("gcc-13", "gcc-14", [
        report("a", Outcome.NEW_FAILURE, ["-Wimplicit-int"]),
        report("b", Outcome.NEW_FAILURE, ["-Wincompatible-pointer-types", "-Wimplicit-int"]),
        report("c", Outcome.CANNOT_TELL, []), report("d", Outcome.BUILDS_WITH_BOTH, [])], [])
    assert [(c.name, c.projects) for c in s.causes] == [("-Wimplicit-int", ["a", "b"]),
                                                        ("-Wincompatible-pointer-types", ["b"])]
    assert [(c.name, len(c.projects)) for c in s.outcomes] == [
        ("new failure", 2), ("flips only", 0), ("already fails", 0), ("cannot tell", 1), ("builds with both", 1)]
    assert not s.complete     # c was answered by no stored report


def test_a_project_without_builds_is_one_line_of_cannot_tell():
    """What came back instead of builds: a worker lost more often than Dask retries it,
    warnscope's own one-line error (a package the suite does not have), anything else
    with its type; each is "cannot tell", never stored, so the next run tries again."""
    from distributed.scheduler import KilledWorker
    from warnscope.errors import PackageError

    entry = rebuild.Entry("debian:sl/trixie", "debian:sl/trixie", "list:1")
    for error, why in ((KilledWorker("rebuild-debian-sl-trixie-0", "tcp://127.0.0.1:1", 3),
                        "the workers that ran it died (each retry too): rerun to try it again"),
                       (PackageError("Debian trixie has no source package sl\nx"),
                        "Debian trixie has no source package sl\\x0ax"),
                       (OSError(28, "No space left on device"), "OSError: [Errno 28] No space left on device")):
        r = rebuild.report_of(None, entry, "gcc-13", "gcc-14", rebuild._lost(error), False)
        assert (r.outcome, r.why, r.report) == (Outcome.CANNOT_TELL, why, None)


# ----------------------------------------------------------------------------- answered


def _toolchain(name: str):
    from analyzer.runtime.toolchain import Toolchain
    family, major = name.split("-")
    return Toolchain(name, family, int(major), f"/usr/bin/{name}", f"/usr/bin/{name}", f"{name} v", "x")


def _stored(conn, entry, recipe, source, built_from: str, compilers=("clang-14", "clang-16")) -> None:
    from analyzer.warnings import store, upgrade
    from analyzer.warnings.results import Build
    from warnscope.database import transaction
    with transaction(conn):
        for c in compilers:
            store.save_build(conn, Build(project=entry.project, origin=source[1], compiler=c,
                                         compiler_version=f"{c} v", level=upgrade.LEVEL, opt="-O2",
                                         flags={}, format="gcc-json", finished_at="t", keep_going=True,
                                         tree_digest=built_from))


def test_a_rerun_builds_a_local_tree_anew_once_it_is_edited_or_another_folder(tmp_path):
    """The rerun's question (:func:`rebuild.answered`) is the tree's, not its name's:
    builds stored for ``A/twin`` answer for it as it was built, not for ``B/twin`` (the
    same project name) nor for ``A/twin`` edited since."""
    from analyzer.projects import digest, steps
    from analyzer.projects.options import BuildOptions
    from warnscope.database import connect
    trees = {}
    for side in ("A", "B"):
        (tmp_path / side / "twin").mkdir(parents=True)
        (tmp_path / side / "twin" / "main.c").write_text(f"int {side.lower()};\n")
        trees[side] = tmp_path / side / "twin"
    (a,), _ = rebuild.entries([("list:1", str(trees["A"]))], "trixie")
    (b,), _ = rebuild.entries([("list:2", str(trees["B"]))], "trixie")
    assert a.project == b.project == "local:twin"
    old, new = _toolchain("clang-14"), _toolchain("clang-16")
    opts = BuildOptions(keep_going=True)
    recipe = rebuild.recipe_of(a, rebuild.LocalCommands())
    source = steps.source_tree(recipe)
    conn = connect(tmp_path / "w.db")
    try:
        _stored(conn, a, recipe, source, digest.tree_digest(source[0], recipe))
        assert rebuild.answered(conn, a, old, new, opts)
        assert not rebuild.answered(conn, b, old, new, opts)            # another folder
        assert not rebuild.answered(conn, a, old, new, opts,            # other commands
                                    rebuild.LocalCommands(build="make -j1 all"))
        assert not rebuild.answered(conn, a, _toolchain("clang-13"), new, opts)
        (trees["A"] / "main.c").write_text("int c;\n")
        assert not rebuild.answered(conn, a, old, new, opts)            # edited since
    finally:
        conn.close()


def test_a_debian_package_is_identified_by_its_dsc(tmp_path):
    """A Debian package's builds answer for the ``.dsc`` they were built from: its name
    (the version) and its bytes, whatever the tree's path in a worker's cache; the digest
    the runner stores is the one the suite's index gives (:func:`digest.package_digest`)."""
    import dataclasses
    import hashlib
    import shutil
    from pathlib import Path
    from analyzer.projects import digest, recipes
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "debian" / "unsatisfiable_1.0.dsc"
    dsc = tmp_path / "unsatisfiable_1.0.dsc"
    shutil.copy(fixture, dsc)
    recipe = recipes.Recipe("debian:unsatisfiable/trixie", "", ("c",), "debian", configure="", build="x", clean="",
                            source=tmp_path, suite="trixie", dsc=dsc)
    listed = digest.package_digest(dsc.name, hashlib.sha256(dsc.read_bytes()).hexdigest())
    assert digest.tree_digest(tmp_path, recipe) == listed
    other = tmp_path / "unsatisfiable_1.1.dsc"
    other.write_bytes(dsc.read_bytes().replace(b"Version: 1.0", b"Version: 1.1"))
    assert digest.tree_digest(tmp_path, dataclasses.replace(recipe, dsc=other)) != listed
    dsc.write_bytes(dsc.read_bytes() + b"\n")        # the same name, other bytes
    assert digest.tree_digest(tmp_path, recipe) != listed
