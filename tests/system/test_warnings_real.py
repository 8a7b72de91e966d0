"""`warnscope warnings` on real builds: zlib (Debian's source package) with gcc-12 and
clang-16 at `all`, its counts checked against the plain text log of the same build (the
overhead study builds it with text diagnostics and counts the log's warning lines); the
fixture project tests/fixtures/warnings/upgrade, whose diagnostics differ between gcc-11
and gcc-12 and between clang-14 and clang-16 in known ways; a header's diagnostic counted
once; a failed build; bad input.
"""
from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from analyzer.projects.wrapper import Record
from analyzer.warnings import formats, runner
from warnscope import tool

UPGRADE = Path(__file__).resolve().parents[1] / "fixtures" / "warnings" / "upgrade"
FORMATS = Path(__file__).resolve().parents[1] / "fixtures" / "warnings" / "formats"
#: the fixture's level: what -Wall -Wextra and -Wstrict-prototypes say at -O2
LEVEL = ("--flag-set", "upgrade=wextra -Wstrict-prototypes", "--level", "upgrade")
HOST = ("gcc-11", "gcc-12", "clang-14", "clang-16")

pytestmark = pytest.mark.skipif(not all(shutil.which(c) for c in HOST),
                                reason="needs gcc-11, gcc-12, clang-14 and clang-16")


def _ok(result: tuple[int, str, str]) -> str:
    code, out, err = result
    assert code == 0, err
    return out


@pytest.fixture(scope="module")
def zlib(gcc_db, tmp_path_factory, capsys_module=None):
    """zlib at `all` with gcc-12 and clang-16: the warnings run, then the overhead study's
    text build of the same (one run), in one database."""
    from analyzer.cli import main
    db = tmp_path_factory.mktemp("warnings") / "zlib.db"
    shutil.copy(gcc_db, db)
    out = tmp_path_factory.mktemp("out")
    for name, args in (("warnings", ["warnings", "run", "--project", "zlib", "--compilers", "gcc-12,clang-16",
                                     "--level", "all", "--json", "--quiet"]),
                       ("overhead", ["overhead", "run", "--project", "zlib", "--compilers", "gcc-12,clang-16",
                                     "--levels", "all", "--runs", "1", "--opt", "-O2", "--no-accounting",
                                     "--json", "--quiet"])):
        import contextlib
        import io
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            code = main(["--db", str(db), *args])
        assert code == 0, f"{name} failed"
        (out / f"{name}.json").write_text(buf.getvalue())
    return db, json.loads((out / "warnings.json").read_text()), json.loads((out / "overhead.json").read_text())


def test_zlib_counts_match_the_text_log_of_the_same_build(zlib):
    _, warnings, overhead = zlib
    text = {c["compiler"]: c["warnings"] for c in overhead["cells"]}
    builds = {b["compiler"]: b for b in warnings["builds"]}
    assert set(builds) == set(text) == {"gcc-12", "clang-16"}
    for compiler, b in builds.items():
        assert b["status"] == "ok" and b["format"] == {"gcc-12": "gcc-json", "clang-16": "clang-text"}[compiler]
        printed = sum(d["printed"] for d in b["diagnostics"] if d["severity"] == "warning")
        assert printed == text[compiler] > 1000, compiler
        assert printed == sum(t["diagnostics"] for t in b["tus"])
        assert len(b["tus"]) == 34 and not [t for t in b["tus"] if "problem" in t]
        # every diagnostic names its controlling option, but a few GCC prints without one
        assert sum(d["option"] is None for d in b["diagnostics"]) <= 2


def test_zlib_header_diagnostics_are_counted_once(zlib):
    _, warnings, _ = zlib
    for b in warnings["builds"]:
        keys = Counter((d["file"], d["line"], d["column"], d["option"], d["severity"], d["message"])
                       for d in b["diagnostics"])
        assert keys.most_common(1)[0][1] == 1
        in_zlib_h = [d for d in b["diagnostics"] if d["file"] == "zlib.h"]
        assert in_zlib_h and all(len(d["tus"]) > 1 for d in in_zlib_h)
        assert all(d["printed"] >= len(d["tus"]) for d in b["diagnostics"])
        # files are relative to the tree, system headers absolute, the compiler's own
        # headers without the directory that names its version (a diff matches them)
        assert all(not d["file"].startswith("/") or d["file"].startswith("/usr/include/")
                   for d in b["diagnostics"] if d["file"])
        if b["compiler"] == "gcc-12":
            assert "<gcc>/include/limits.h" in {d["file"] for d in b["diagnostics"]}


def test_zlib_report(zlib, cli_at):
    db, warnings, _ = zlib
    report = json.loads(_ok(cli_at(db)("warnings", "report", "--project", "zlib", "--json")))
    by = {b["compiler"]: b for b in report["builds"]}
    stored = {b["compiler"]: b for b in warnings["builds"]}
    for compiler, b in by.items():
        assert sum(o["count"] for o in b["by_option"]) == b["diagnostics"] == len(stored[compiler]["diagnostics"])
        counts = [o["count"] for o in b["by_option"]]
        assert counts == sorted(counts, reverse=True)
    gcc = by["gcc-12"]
    assert all(o["known"] for o in gcc["by_option"] if o["option"])      # gcc-12 is ingested
    assert gcc["silent"] and "-Wold-style-definition" not in gcc["silent"]
    assert by["clang-16"]["silent"] is None                              # clang-16 is not
    assert {o["known"] for o in by["clang-16"]["by_option"]} == {None}
    text = _ok(cli_at(db)("warnings", "report", "--project", "zlib", "--top", "3"))
    assert "gcc-12 at all -O2:" in text and "-Wunsafe-buffer-usage" in text
    assert "clang-16 is not in the flag database" in text


def test_wall_and_wextra_answered_from_the_all_build_match_real_builds(zlib, tmp_path, cli_at, fails_on):
    """`report --as wall` answers from the `all` build through the flag database: what it
    calls exact is exactly what a real build at that level prints, and whatever a real
    build prints beyond it is among the options it says it cannot place."""
    from analyzer.cli import main
    from flagdb.ingest import ingest
    from warnscope.database import connect
    db = tmp_path / "zlib.db"
    shutil.copy(zlib[0], db)
    # clang-16 is not in the flag database yet: no answer for it, in one line
    assert "clang-16 is not in the flag database" in fails_on(db, "warnings", "report", "--project", "zlib",
                                                              "--as", "wall")
    assert "--as wextra-ish: one of" in fails_on(db, "warnings", "report", "--project", "zlib",
                                                 "--as", "wextra-ish")
    conn = connect(db)
    ingest(conn, "clang-16")
    conn.close()
    assert main(["--db", str(db), "warnings", "run", "--project", "zlib", "--compilers", "gcc-12,clang-16",
                 "--level", "wall,wextra", "--quiet"]) == 0
    cli = cli_at(db)

    for level in ("wall", "wextra"):
        derived = {b["compiler"]: b for b in json.loads(_ok(cli("warnings", "report", "--project", "zlib",
                                                                "--as", level, "--json")))["builds"]}
        real = {b["compiler"]: b for b in json.loads(_ok(cli("warnings", "report", "--project", "zlib",
                                                             "--level", level, "--json")))["builds"]}
        assert set(derived) == set(real) == {"gcc-12", "clang-16"}
        for compiler, d in derived.items():
            r = real[compiler]
            assert d["derived_from"] == "all" and "derived_from" not in r
            counts = {o["option"]: o["count"] for o in d["by_option"]}
            real_counts = {o["option"]: o["count"] for o in r["by_option"]}
            unsure = {u["option"] for u in d["uncertain"]}
            # every option placed exactly has the real build's count; the rest are unsure
            for option, n in real_counts.items():
                assert counts.get(option) == n or option in unsure, (compiler, level, option)
            for option, n in counts.items():
                assert real_counts.get(option) == n, (compiler, level, option)
        assert d["uncertain"] is not None
    # the reasons are said per option: gcc-12's -Wformat=2 in `all` against -Wall's -Wformat=1
    text = _ok(cli("warnings", "report", "--project", "zlib", "--as", "wall", "--compilers", "gcc-12"))
    assert "gcc-12 at wall (answered from its all build)" in text
    assert "-Wformat=  2  (-Wformat= is 2 at the build's level and 1 here)" in text


# ------------------------------------------------------------------ the fixture project

@pytest.fixture(scope="module")
def upgrade(gcc_db, tmp_path_factory):
    from analyzer.cli import main
    db = tmp_path_factory.mktemp("warnings") / "upgrade.db"
    shutil.copy(gcc_db, db)
    code = main(["--db", str(db), "warnings", "run", "--source", str(UPGRADE), "--build", "make",
                 "--compilers", ",".join(HOST), *LEVEL, "--quiet"])
    assert code == 0
    return db


def test_upgrade_diff_gcc(upgrade, cli_at):
    diff = json.loads(_ok(cli_at(upgrade)("warnings", "diff", "gcc-11", "gcc-12", "--project", "local:upgrade",
                                          "--level", "upgrade", "--json")))
    assert (diff["added"], diff["removed"], diff["changed"], diff["unchanged"]) == (2, 0, 0, 8)
    added = {(o["option"], e["file"], e["line"]) for o in diff["by_option"] for e in o["entries"]}
    assert added == {("-Wuse-after-free", "gcc_changes.c", 10), ("-Wdangling-pointer=", "gcc_changes.c", 15)}


def test_upgrade_diff_clang_reworded_is_changed(upgrade, cli_at):
    diff = json.loads(_ok(cli_at(upgrade)("warnings", "diff", "clang-14", "clang-16", "--project",
                                          "local:upgrade", "--level", "upgrade", "--json")))
    assert (diff["added"], diff["removed"], diff["changed"], diff["unchanged"]) == (1, 1, 2, 5)
    entries = {(e["change"], o["option"], e["line"]): e for o in diff["by_option"] for e in o["entries"]}
    assert set(entries) == {("changed", "-Wstrict-prototypes", 5), ("changed", "-Warray-bounds", 10),
                            ("removed", "-Wstrict-prototypes", 6), ("added", "-Wdeprecated-non-prototype", 6)}
    changed = entries[("changed", "-Wstrict-prototypes", 5)]
    assert changed["old_message"] == "this function declaration is not a prototype"
    assert changed["message"] == "a function declaration without a prototype is deprecated in all versions of C"
    text = _ok(cli_at(upgrade)("warnings", "diff", "clang-14", "clang-16", "--project", "local:upgrade",
                               "--level", "upgrade"))
    assert "1 added, 1 removed, 2 reworded, 5 unchanged" in text and "was: this function" in text


def test_upgrade_header_diagnostic_once_with_both_tus(upgrade, cli_at):
    report = json.loads(_ok(cli_at(upgrade)("warnings", "report", "--project", "local:upgrade", "--json")))
    for b in report["builds"]:
        unused = [o for o in b["by_option"] if o["option"] == "-Wunused-variable"]
        assert unused and unused[0]["count"] == 1 and unused[0]["printed"] == 2, b["compiler"]
        assert unused[0]["files"] == ["shared.h"]
    show = json.loads(_ok(cli_at(upgrade)("warnings", "show", "-Wunused-variable", "--json")))
    example = show["examples"][0]
    assert example["file"] == "shared.h" and example["tus"] == ["clang_changes.c", "gcc_changes.c"]
    assert example["source_line"] == "static inline int twice(int x) { int unused; return x * 2; }"


def test_show_gives_the_source_line(upgrade, cli_at):
    text = _ok(cli_at(upgrade)("warnings", "show", "-Wuse-after-free", "--project", "local:upgrade"))
    assert "gcc_changes.c:10:12: warning: pointer 'p' used after 'free'" in text
    assert "return *p;" in text


def test_top(upgrade, cli_at):
    top = json.loads(_ok(cli_at(upgrade)("warnings", "top", "--level", "upgrade", "--json")))
    first = top["noisiest"][0]
    assert first["diagnostics"] >= top["noisiest"][-1]["diagnostics"]
    assert top["projects"] == ["local:upgrade"]
    assert "-Wunused-variable" in {o["option"] for o in top["noisiest"]}


def test_a_build_failing_under_werror_keeps_its_diagnostics(gcc_db, tmp_path, cli_at):
    db = tmp_path / "werror.db"
    shutil.copy(gcc_db, db)
    code, out, err = cli_at(db)("warnings", "run", "--source", str(UPGRADE), "--build",
                                'make CFLAGS="$CFLAGS -Werror"', "--compilers", "gcc-12", *LEVEL, "--json", "--quiet")
    assert code == 1 and len(err.strip().splitlines()) == 1 and "1 of 1 builds failed" in err
    b = json.loads(out)["builds"][0]
    assert b["status"] == "failed"
    assert b["error"].startswith("build failed (exit 2): ") and ": error: " in b["error"]
    assert "[-W" in b["error"]
    assert b["diagnostics"] and {d["severity"] for d in b["diagnostics"]} == {"error"}
    report = json.loads(_ok(cli_at(db)("warnings", "report", "--project", "local:upgrade", "--json")))
    assert report["builds"][0]["status"] == "failed" and report["builds"][0]["error"] == b["error"]


def test_an_internal_compiler_error_is_the_failed_builds_line(gcc_db, tmp_path, cli_at, require):
    """g++-12 crashes on cppcheck under -Wmismatched-tags (part of `all`). In JSON mode the
    crash leaves no JSON, only the end of a backtrace: the compile is run again with text
    diagnostics, and its line is the build's error."""
    require("cmake")
    db = tmp_path / "ice.db"
    shutil.copy(gcc_db, db)
    code, out, err = cli_at(db)("warnings", "run", "--project", "cppcheck", "--compilers", "gcc-12",
                                "--level", "all", "--json", "--quiet")
    assert code == 1 and len(err.strip().splitlines()) == 1
    b = json.loads(out)["builds"][0]
    assert b["status"] == "failed"
    assert b["error"].startswith("build failed (exit 2): lib/analyzerinfo.cpp:")
    assert ": internal compiler error: in diag_mismatched_tags" in b["error"]
    crashed = [t for t in b["tus"] if t["exit"] != 0]
    assert [t["tu"] for t in crashed] == ["_build/lib/build/mc_analyzerinfo.cpp"]
    assert "read from the same compile run again with text diagnostics" in crashed[0]["problem"]
    assert crashed[0]["diagnostics"] > 1
    assert any("_build/lib/build/mc_analyzerinfo.cpp" in d["tus"] and d["severity"] == "warning"
               for d in b["diagnostics"])
    # no try-compile of CMake's configure counted as a TU of the build
    assert not [t for t in b["tus"] if "CMakeScratch" in t["tu"] or t["tu"].startswith("/usr/share/cmake")]


def test_an_unreadable_compile_output_is_reported_and_the_rest_goes_on(tmp_path):
    """Real GCC JSON of one compile, cut in half for a second: that TU is reported with
    the reason, the first is read whole."""
    out = tool.run(["gcc-12", "-O2", "-Wall", "-Wextra", "-c", "sample.c", "-o", str(tmp_path / "s.o"),
                    *formats.GCC_JSON.flags], timeout=60, check=False, cwd=FORMATS).stderr
    whole, cut = tmp_path / "whole.err", tmp_path / "cut.err"
    whole.write_text(out)
    cut.write_text(out[:len(out) // 2])
    records = [Record(0.1, 1000, 0, str(FORMATS), ("/usr/bin/gcc-12", "-c", name, "-o", obj), str(err))
               for name, obj, err in (("sample.c", "a.o", whole), ("sample.c", "b.o", cut))]
    diagnostics, tus = runner.collect(records, FORMATS, formats.GCC_JSON)
    assert [t.tu for t in tus] == ["sample.c -> a.o", "sample.c -> b.o"]
    assert tus[0].problem is None and tus[0].diagnostics == 5
    assert tus[1].problem.startswith("GCC JSON cut short or malformed at byte")
    assert {tu for d in diagnostics for tu in d.tus} == {"sample.c -> a.o"}


def test_unknown_project_and_compiler_are_one_line(gcc_db_copy, fails_on):
    assert "unknown project 'nope'" in fails_on(gcc_db_copy, "warnings", "run", "--project", "nope")
    assert "gcc-99" in fails_on(gcc_db_copy, "warnings", "run", "--project", "zlib", "--compilers", "gcc-99")
    assert "no warnings build of zlib" in fails_on(gcc_db_copy, "warnings", "report", "--project", "zlib")
    assert "unknown level" in fails_on(gcc_db_copy, "warnings", "run", "--level", "loud")


def test_builds_on_a_dask_cluster(gcc_db_copy, cli_at):
    """The same builds as jobs on a Dask cluster (a real LocalCluster): each worker fetches
    the source itself and the client stores what comes back."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        code, out, err = cli_at(gcc_db_copy)("warnings", "run", "--source", str(UPGRADE), "--build", "make",
                                             "--compilers", "gcc-12,clang-16", *LEVEL, "--json", "--quiet",
                                             "--scheduler", cluster.scheduler_address)
    assert code == 0, err
    builds = {b["compiler"]: b for b in json.loads(out)["builds"]}
    assert set(builds) == {"gcc-12", "clang-16"} and all(b["status"] == "ok" for b in builds.values())
    assert {d["option"] for d in builds["gcc-12"]["diagnostics"]} >= {"-Wuse-after-free", "-Wunused-variable"}


@pytest.mark.parametrize("compiler", ["gcc-14", "gcc-16"])
def test_a_root_compiler_builds_a_project_but_times_none(compiler, gcc_db_copy, cli_at,
                                                         root_toolchain):
    """A compiler of a Debian root builds a whole project as a user's build would (the
    compiler wrapper runs a launcher that enters the root through bubblewrap), its
    diagnostics read in its own format (GCC 16: SARIF). (An overhead study, which times
    builds, runs the whole build inside the root instead: test_overhead_roots.py.)"""
    tc = root_toolchain(compiler)
    if tc.root is None:
        pytest.skip(f"{compiler} is a host compiler here")
    code, out, err = cli_at(gcc_db_copy)("warnings", "run", "--source", str(UPGRADE), "--build", "make",
                                         "--compilers", compiler, *LEVEL, "--json", "--quiet")
    assert code == 0, err
    (build,) = json.loads(out)["builds"]
    assert build["status"] == "ok" and build["compiler"] == compiler
    assert {d["option"] for d in build["diagnostics"]} >= {"-Wunused-variable", "-Wstrict-prototypes"}
    # the fixture's gen.c, compiled and linked in one step, is a TU, and it ran on the host
    # (gcc-16 links it against the root's glibc 2.41: it starts with the root's loader)
    assert "gen.c" in {t["tu"] for t in build["tus"]}


def test_errors_name_what_is_stored_and_the_hint_runs(upgrade, cli_at):
    """A project written without its ``local:`` prefix, a level never built and a
    mistyped option each name what is stored, and that, given instead, answers."""
    cli = cli_at(upgrade)
    code, _, err = cli("warnings", "report", "--project", "upgrade")
    assert code == 1 and err.strip().endswith("no warnings build of upgrade: did you mean local:upgrade?")
    _ok(cli("warnings", "report", "--project", "local:upgrade"))
    code, _, err = cli("warnings", "top", "--level", "all")
    assert code == 1 and "no warnings build at level all (levels built: upgrade; give one with --levels)" in err
    _ok(cli("warnings", "top", "--level", "upgrade"))
    code, _, err = cli("warnings", "show", "-Wunused-variabel")
    assert code == 1 and "(did you mean -Wunused-variable?)" in err
    _ok(cli("warnings", "show", "-Wunused-variable"))


def test_show_lists_every_diagnostic_of_a_project(upgrade, cli_at):
    """``warnings show --project P`` without an option lists every diagnostic its builds
    printed (a place and message once), each with its option; the filters narrow it to
    the diagnostics the report counts for that compiler and file."""
    cli = cli_at(upgrade)
    every = json.loads(_ok(cli("warnings", "show", "--project", "local:upgrade", "--json")))
    assert every["option"] is None and every["total"] >= len(every["examples"]) > 10
    places = {(e["file"], e["line"], e["message"]) for e in every["examples"]}
    assert len(places) == len(every["examples"])
    report = json.loads(_ok(cli("warnings", "report", "--project", "local:upgrade", "--json")))
    gcc12 = next(b for b in report["builds"] if b["compiler"] == "gcc-12")
    mine = json.loads(_ok(cli("warnings", "show", "--project", "local:upgrade", "--compilers",
                              "gcc-12", "--file", "gcc_*.c", "--json")))
    assert mine["examples"] and all(e["file"].startswith("gcc_") for e in mine["examples"])
    counted = sum(o["count"] for o in gcc12["by_option"] for f in [o["files"]] if f
                  and all(x.startswith("gcc_") for x in f))
    assert mine["total"] >= counted > 0
    text = _ok(cli("warnings", "show", "--project", "local:upgrade"))
    assert text.startswith("every option: ") and "[-Wuse-after-free]" in text
    code, _, err = cli("warnings", "show")
    assert code == 1 and "give an OPTION, or --project" in err
