"""`warnscope advise` on real data: zlib built at `all` by gcc-11, gcc-12, clang-14,
clang-16 and clang-19 (the first advice runs the builds itself, the second reuses them),
the flag data of the five, and a small real UB run (``advise_db``). The verdicts are
checked against the stored evidence read another way (SQL on the builds, the flag
family's own history and check), the targets against ``flags check``, the JSON shape,
a build that fails at `all`, and bad input (one line, the database unchanged).
"""
from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from analyzer.advise.results import Verdict
from flagdb import store as flag_store
from flagdb.check import check_flag
from flagdb.closure import Index, lang_name
from flagdb.compare import history
from flagdb.results import CheckStatus
from warnscope.database import connect

COMPILERS = "gcc-11,gcc-12,clang-14,clang-16,clang-19"
NAMES = COMPILERS.split(",")
ROOT = Path(__file__).resolve().parents[2]
#: the corpus categories of ``advise_db``'s UB run (tests/conftest.py)
ADVISE_UB = ("control", "restrict-violation", "incompatible-function-pointer", "null-dereference",
             "format-mismatch", "misaligned-access")
UPGRADE = Path(__file__).resolve().parents[1] / "fixtures" / "warnings" / "upgrade"


def _ok(result: tuple[int, str, str]) -> str:
    code, out, err = result
    assert code == 0, err
    return out


@pytest.fixture(scope="module")
def zlib(zlib_advice, cli_at_module):
    """``zlib_advice``: the first advice (JSON), which ran zlib's five builds at all; the
    second reuses them."""
    db, first = zlib_advice
    second = json.loads(_ok(cli_at_module(db)("advise", "--project", "zlib", "--compilers", COMPILERS, "--json")))
    return db, first, second


@pytest.fixture(scope="module")
def cli_at_module():
    """The CLI in-process on a database, capturing its output (module scope: the shared
    builds are made once)."""
    import contextlib
    import io

    from analyzer.cli import main

    def at(db: Path):
        def run(*args: str) -> tuple[int, str, str]:
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(["--db", str(db), *args])
            return code, out.getvalue(), err.getvalue()
        return run
    return at


def rows(advice: dict, verdict: Verdict) -> list[dict]:
    return [r for r in advice["rows"] if r["verdict"] == verdict.value]


def of(row: dict, compiler: str) -> dict:
    return next(p for p in row["compilers"] if p["compiler"] == compiler)


def test_the_first_advice_runs_the_builds_and_the_second_reuses_them(zlib):
    _, first, second = zlib
    assert [b["compiler"] for b in first["builds"]] == NAMES
    assert all(b["ran_now"] and b["status"] == "ok" and b["tus"] == 34 for b in first["builds"])
    assert not any(b["ran_now"] for b in second["builds"])
    assert [(r["flag"], r["verdict"]) for r in first["rows"]] == [(r["flag"], r["verdict"]) for r in second["rows"]]
    assert first["targets"] == second["targets"]


def test_the_json_shape(zlib):
    _, advice, _ = zlib
    assert set(advice) == {"project", "origin", "languages", "compilers", "base", "rules", "builds", "ub",
                           "rows", "targets", "forced"}
    assert advice["project"] == "zlib" and advice["languages"] == ["c"] and advice["base"] == "wextra"
    assert advice["rules"] == {"base": "wextra", "portable": "all", "often": 10, "max_control_hits": 0,
                               "cost_threshold": 0.05, "top_files": 3}
    # the fixed twins of the corpus's cases, where the corpus has them (issue 32)
    twins = sum(1 for category in ADVISE_UB for p in (ROOT / "corpus" / category).glob("*.fixed.c*"))
    assert advice["ub"]["cases"] > 10 and advice["ub"]["controls"] == 5 and advice["ub"]["twins"] == twins
    assert advice["ub"]["compilers"] == NAMES
    # the corpus as the UB family names it: a user's (this one, a copy) by its path
    assert advice["ub"]["shown"] == advice["ub"]["corpus"]
    row = advice["rows"][0]
    assert set(row) == {"flag", "group", "verdict", "compilers", "known_since", "ub_cases", "rank", "trouble"}
    assert {p["compiler"] for p in row["compilers"]} == set(NAMES)
    known = next(p for r in advice["rows"] for p in r["compilers"] if p["known"] and p["prints"])
    assert set(known) == {"compiler", "known", "languages", "resolves_to", "noop", "on", "prints", "ub", "cost",
                          "trouble"}
    assert set(known["prints"]) == {"own", "own_printed", "outside", "options", "top_files", "complete"}
    assert set(known["cost"]) == {"status", "attribution", "metric", "unit", "alone", "share_of_off", "command"}
    assert known["cost"]["status"] == "none"
    assert known["cost"]["command"] == f"warnscope overhead attribute zlib --compiler {known['compiler']}"
    assert {r["verdict"] for r in advice["rows"]} <= {v.value for v in Verdict}
    assert [t["compiler"] for t in advice["targets"]] == NAMES
    assert all(set(t) == {"compiler", "family", "major", "flags", "target"} for t in advice["targets"])
    assert all(t["target"] == "" for t in advice["targets"])   # the host's: none of another target
    assert "reasons" not in row and "notes" not in advice   # sentences are text only


def _own_diagnostics(db: Path, compiler: str, flag: str) -> int:
    """Diagnostics of zlib's build in its own files printed under ``flag``'s own option
    (read with plain SQL, not through the advice)."""
    conn = sqlite3.connect(db)
    try:
        return conn.execute(
            "SELECT COUNT(*) FROM wn_diag d JOIN wn_build b ON b.id = d.build_id WHERE b.project = 'zlib' "
            "AND b.level = 'all' AND b.compiler = ? AND d.option IN (?, ?) AND d.file NOT LIKE '/%' "
            "AND d.file NOT LIKE '<%'", (compiler, flag, flag.split("=")[0] + "=")).fetchone()[0]
    finally:
        conn.close()


def test_turn_on_rows_are_silent_with_every_compiler_that_gets_them(zlib):
    db, advice, _ = zlib
    turn_on = rows(advice, Verdict.TURN_ON)
    assert turn_on, "zlib has flags that are silent and catch UB"
    targets = {t["compiler"]: t["flags"]["c"] for t in advice["targets"]}
    for row in turn_on:
        assert row["ub_cases"]
        getting = [c for c, flags in targets.items() if row["flag"] in flags]
        assert getting, row["flag"]
        for compiler in getting:
            p = of(row, compiler)
            assert p["known"] and p["prints"]["own"] == 0, (row["flag"], compiler)
            assert _own_diagnostics(db, compiler, row["flag"]) == 0, (row["flag"], compiler)
        # every case counted fired with a compiler of the row, and on no program without UB
        caught = {case for p in row["compilers"] if p["ub"] for case in p["ub"]["cases"]}
        assert set(row["ub_cases"]) <= caught
        assert all(not p["ub"]["controls"] and not p["ub"]["twins"] for p in row["compilers"]
                   if p["ub"] and set(p["ub"]["cases"]) & set(row["ub_cases"]))


def test_already_on_rows_are_on_at_the_base_for_every_compiler_that_knows_them(zlib):
    _, advice, _ = zlib
    already = rows(advice, Verdict.ALREADY_ON)
    assert len(already) > 100
    conn = connect(zlib[0], write=False)
    sample = [r for r in already if r["flag"] in ("-Wunused-variable", "-Wsign-compare", "-Wreturn-type",
                                                    "-Wimplicit-function-declaration", "-Wmisleading-indentation")]
    assert len(sample) >= 4
    for row in sample:
        entries = {e.compiler: e for e in history(conn, row["flag"])}
        for p in row["compilers"]:
            if p["known"] and not p["noop"]:
                e = entries[p["compiler"]]
                assert p["on"] in ("default", "-Wall", "-Wextra")
                assert e.in_wall or e.in_wextra or e.default == "on", (row["flag"], p["compiler"])
    for row in already:
        assert all(p["on"] is not None for p in row["compilers"] if p["known"] and not p["noop"]), row["flag"]


def test_fix_first_rows_fire_here_and_are_ranked_by_cases_per_diagnostic(zlib):
    _, advice, _ = zlib
    fix = rows(advice, Verdict.FIX_FIRST)
    for row in fix:
        most = max(p["prints"]["own"] for p in row["compilers"] if p["prints"])
        assert most > 0 and row["ub_cases"]
        assert row["rank"] == pytest.approx(len(row["ub_cases"]) / most)
    assert [r["rank"] for r in fix] == sorted((r["rank"] for r in fix), reverse=True)
    for row in rows(advice, Verdict.STYLE):
        assert max(p["prints"]["own"] for p in row["compilers"] if p["prints"]) >= 10


def test_each_target_holds_only_flags_its_compiler_knows_for_the_language(zlib):
    db, advice, _ = zlib
    conn = connect(db, write=False)
    for t in advice["targets"]:
        index = Index(flag_store.load(conn, t["compiler"], with_messages=False))
        assert list(t["flags"]) == ["c"]
        assert t["flags"]["c"][:2] == ["-Wall", "-Wextra"]
        for flag in t["flags"]["c"]:
            assert check_flag(index, flag).status in (CheckStatus.KNOWN, CheckStatus.ALIAS), (t["compiler"], flag)
            hit = index.target(flag)
            assert index.applies(hit[0], lang_name("c"))


def test_text_names_the_sections_the_notes_and_the_set(zlib, cli_at_module):
    db = zlib[0]
    out = _ok(cli_at_module(db)("advise", "--project", "zlib", "--compilers", COMPILERS, "--limit", "3"))
    assert out.startswith("zlib (zlib_")
    assert "Turn on now" in out and "The set to build with" in out
    assert "no fixed twin of its cases (issue 32)" in out or "have a fixed twin" in out or \
        "with a fixed twin)" in out
    assert "warnscope overhead attribute zlib --compiler gcc-11" in out
    for name in NAMES:
        assert f"  {name} c: -Wall -Wextra" in out
    one = _ok(cli_at_module(db)("advise", "--project", "zlib", "--compilers", COMPILERS,
                                "--explain", "-Wunsafe-buffer-usage"))
    assert one.startswith("-Wunsafe-buffer-usage: ") and "gcc-12: does not know it" in one


def test_rules_are_tunable_from_the_command_line(zlib, cli_at_module):
    db, advice, _ = zlib
    cli = cli_at_module(db)
    wall = json.loads(_ok(cli("advise", "--compilers", COMPILERS, "--base", "wall", "--json")))
    assert all(t["flags"]["c"][0] == "-Wall" for t in wall["targets"])
    assert len(rows(wall, Verdict.ALREADY_ON)) < len(rows(advice, Verdict.ALREADY_ON))
    anyone = json.loads(_ok(cli("advise", "--compilers", COMPILERS, "--portable", "any", "--json")))
    assert not rows(anyone, Verdict.NOT_PORTABLE)
    assert len(rows(anyone, Verdict.TURN_ON)) == len(rows(advice, Verdict.TURN_ON)) + \
        len(rows(advice, Verdict.NOT_PORTABLE))


def test_a_forced_flag_a_compiler_does_not_know_is_said_per_compiler(zlib, cli_at_module):
    db = zlib[0]
    cli = cli_at_module(db)
    advice = json.loads(_ok(cli("advise", "--compilers", COMPILERS, "--add", "-Wshadow=local",
                                "--add", "-Wunsafe-buffer-usage", "--json")))
    targets = {t["compiler"]: t["flags"]["c"] for t in advice["targets"]}
    assert "-Wshadow=local" in targets["gcc-12"] and "-Wshadow=local" not in targets["clang-16"]
    assert "-Wunsafe-buffer-usage" in targets["clang-16"] and "-Wunsafe-buffer-usage" not in targets["clang-14"]
    forced = {(f["flag"], f["compiler"]): f["known"] for f in advice["forced"]}
    assert forced[("-Wunsafe-buffer-usage", "clang-14")] is False and forced[("-Wshadow=local", "gcc-11")] is True
    code, out, _ = cli("advise", "--compilers", COMPILERS, "--add", "-Wshadow=local")
    assert code == 0
    lines = [l for l in out.splitlines() if "--add -Wshadow=local" in l]
    assert len(lines) == 3 and all("does not know it: left out of clang-" in l for l in lines)


def test_bad_input_is_one_line_and_changes_nothing(zlib, tmp_path, fails_on):
    db = tmp_path / "copy.db"
    shutil.copy(zlib[0], db)
    line = fails_on(db, "advise", "--compilers", "gcc-12,gcc-13")
    assert "'gcc-13' is not in the database" in line and "warnscope flags ingest gcc-13" in line
    assert "expected a warning option" in fails_on(db, "advise", "--add", "-Wfoo;reboot")
    assert "unknown project" in fails_on(db, "advise", "--project", "nosuch")
    assert "unknown compiler id" in fails_on(db, "advise", "--compilers", "icc-3")
    assert "--often" in fails_on(db, "advise", "--often", "nan")
    missing = tmp_path / "none.db"
    line = fails_on(missing, "advise", "--compilers", "gcc-12")
    assert "nothing ingested yet" in line and not missing.exists()


def test_a_build_failing_at_all_is_used_up_to_the_failure_and_said(gcc_db, tmp_path, cli_at):
    """The upgrade fixture built with -Werror fails at `all`: the advice uses its
    diagnostics up to the failure, says so, and the row of the option that stopped it
    carries the failure."""
    db = tmp_path / "werror.db"
    shutil.copy(gcc_db, db)
    code, out, err = cli_at(db)("advise", "--source", str(UPGRADE), "--build", 'make CFLAGS="$CFLAGS -Werror"',
                                "--compilers", "gcc-12", "--json", "--quiet")
    assert code == 0, err
    advice = json.loads(out)
    b = advice["builds"][0]
    assert b["status"] == "failed" and b["ran_now"] and "[-W" in b["error"]
    named = b["error"].rsplit("[", 1)[1].rstrip("]")
    troubled = [r for r in advice["rows"] if of(r, "gcc-12")["trouble"]]
    assert troubled and any(named in {r["flag"], of(r, "gcc-12")["resolves_to"]} for r in troubled)
    assert all("gcc-12's build at all failed" in t for r in troubled for t in of(r, "gcc-12")["trouble"])
    assert {r["verdict"] for r in troubled} == {"breaks-build"}
    # silence up to the failure proves nothing: no flag is turned on from it
    assert all(of(r, "gcc-12")["prints"]["complete"] is False for r in advice["rows"] if of(r, "gcc-12")["prints"])
    assert not rows(advice, Verdict.TURN_ON)
    text = _ok(cli_at(db)("advise", "--source", str(UPGRADE), "--build", 'make CFLAGS="$CFLAGS -Werror"',
                          "--compilers", "gcc-12"))
    assert "gcc-12's build at all failed" in text and "its diagnostics up to the failure are used" in text


def test_the_catches_are_the_detector_scores_once_ub_detectors_ran(gcc_db, tmp_path, cli_at):
    """With detector runs in the database, what a flag catches is what ``ub detectors``
    scored for its option: the UB cases it reported at their ub-line, its false alarms on
    the fixed twins (gcc-12's -Wnull-dereference catches a null dereference at line 29)."""
    db = tmp_path / "scores.db"
    shutil.copy(gcc_db, db)
    corpus = tmp_path / "corpus" / "null-dereference"
    corpus.mkdir(parents=True)
    for f in (ROOT / "corpus" / "null-dereference").glob("check-after-use*"):
        shutil.copy(f, corpus / f.name)
    cli = cli_at(db)
    scores = json.loads(_ok(cli("ub", "detectors", "--corpus", str(corpus.parent), "--compilers", "gcc-12",
                                "--tools", "warnings", "--json")))
    advice = json.loads(_ok(cli("advise", "--source", str(UPGRADE), "--build", "make", "--compilers", "gcc-12",
                                "--json", "--quiet")))
    assert advice["ub"]["source"] == "detectors" and advice["ub"]["corpus"] == str(corpus.parent.resolve())
    assert advice["ub"]["shown"] == advice["ub"]["corpus"]  # a user's corpus keeps its path
    assert advice["ub"]["compilers"] == ["gcc-12"] and advice["ub"]["cases"] == 1 and advice["ub"]["twins"] == 1
    flags = {r["flag"]: of(r, "gcc-12") for r in advice["rows"]}
    null = next(d for d in scores["detectors"] if d["detector"] == "-Wnull-dereference")
    assert null["caught"] == ["null-dereference/check-after-use"]
    catch = flags["-Wnull-dereference"]["ub"]
    assert catch["tried"] and (catch["cases"], catch["twins"]) == (null["caught"], null["false_alarms"])
    # every warning the detectors scored that the base level leaves off: its catches are
    # among its flag's (a flag counts each option it turns on)
    for d in scores["detectors"]:
        p = flags.get(d["detector"])
        if d["kind"] == "warning" and p is not None and p["on"] is None:
            assert set(d["caught"]) <= set(p["ub"]["cases"] + p["ub"]["alike"]), d["detector"]
    text = _ok(cli("advise", "--source", str(UPGRADE), "--build", "make", "--compilers", "gcc-12"))
    assert "warnings scored by ub detectors of gcc-12" in text
    assert "UB catches are the scores of ub detectors" in text


def test_the_site_has_a_page_per_project_with_the_advice(zlib, cli_at_module, tmp_path, page_links):
    db, _, second = zlib
    site = tmp_path / "site"
    _ok(cli_at_module(db)("site", "build", "-o", str(site)))
    assert json.loads((site / "projects/zlib/advice.json").read_text()) == second
    page = site / "projects/zlib/advice.html"
    html = page.read_text()
    for row in rows(second, Verdict.TURN_ON) + rows(second, Verdict.FIX_FIRST):
        assert f">{row['flag']}</a>" in html
    assert "zlib/advice.html" in page_links(site / "projects/zlib.html").refs
    assert all((page.parent / ref.split("#")[0]).resolve().exists() for ref in page_links(page).refs
               if not ref.startswith(("#", "data:")))


def test_the_advice_page_reads_at_desktop_and_phone_width(zlib, cli_at_module, tmp_path, readable,
                                                         take_screenshots, chromium):
    """In Debian's Chromium (never a downloaded browser): no console error, and it reads
    at a desktop's and a phone's width; its screenshots beside the site's others."""
    import os

    db = zlib[0]
    site = tmp_path / "site"
    _ok(cli_at_module(db)("site", "build", "-o", str(site)))
    pages = chromium.site(site)
    for width in (1200, 390):
        page = pages.open("projects/zlib/advice.html", width)
        assert readable(page, width) == [], width
        page.close()
    shots = Path(os.environ.get("WARNSCOPE_SCREENSHOTS") or tmp_path / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    assert len(take_screenshots(pages.open, {"advice": "projects/zlib/advice.html"},
                                [("advice.png", "advice", 1200), ("advice-phone.png", "advice", 390)],
                                shots)) == 2
    assert pages.errors == [] and pages.outside == []


def test_the_set_is_written_for_the_build_by_the_exporters(zlib, cli_at_module):
    """``--format flags``: the exporters' plain list, one line per compiler and language,
    exactly each Target's flags; a forced flag a compiler lacks is a note per compiler."""
    db, advice, _ = zlib
    code, out, err = cli_at_module(db)("advise", "--compilers", COMPILERS, "--format", "flags",
                                       "--add", "-Wshadow=local")
    assert code == 0, err
    lines = {line.split(":", 1)[0]: line.split(":", 1)[1].split() for line in out.splitlines()
             if line and not line.startswith("#")}
    for t in advice["targets"]:
        wanted = t["flags"]["c"] + (["-Wshadow=local"] if t["family"] == "gcc" else [])
        assert lines[f"{t['compiler']} c"] == wanted
    assert err.count("--add -Wshadow=local") == 3 and "clang-14 does not know it" in err
    code, out, err = cli_at_module(db)("advise", "--compilers", COMPILERS, "--format", "cmake")
    assert code == 0 and "warnscope::warnings" in out
