"""``--format sarif`` on real builds and real detector runs, each log validated by
Microsoft's SARIF Multitool (``@microsoft/sarif-multitool``, installed from npm into the
cache once: ``warnscope.paths.cache_dir("npm")``):

* ``upgrade`` of tests/fixtures/upgrade/gcc14-autotools from clang-14 to clang-16 on the
  host: the from-compiler's baseline run and clang-16's, the configure check that flips
  located at its line of configure.ac, the lost macro at config.h.in's, the new errors
  ``updated`` (the old words were a warning), the rest ``unchanged``;
* ``warnings report`` and ``warnings diff`` of tests/fixtures/warnings/upgrade built by
  gcc-12, clang-14 and clang-16: a run per build, and clang-14 -> clang-16 with every
  baseline state (new, updated, unchanged, absent) as ``warnings diff --json`` counts them;
* ``ub detectors --case int-min-division/divide`` with gcc-12's warnings and sanitizers.

The Multitool's ``validate`` exits 0 whatever it finds, and its JSON-schema pass does not
check enumerated values (a level ``bogus`` passes): so each check reads the log it writes
(``--output``) for results of level error, and the enumerations (level, kind, baseline
state, a suppression's kind and status) are checked against the SARIF 2.1.0 schema the
npm package ships (``sarif-2.1.0.json``).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from warnscope.locks import flocked
from warnscope.paths import cache_dir

ROOT = Path(__file__).resolve().parents[2]
AUTOTOOLS = ROOT / "tests" / "fixtures" / "upgrade" / "gcc14-autotools"
UPGRADE = ROOT / "tests" / "fixtures" / "warnings" / "upgrade"
#: the fixture's level, as tests/system/test_warnings_real.py builds it
LEVEL = ("--flag-set", "upgrade=wextra -Wstrict-prototypes", "--level", "upgrade")
#: the Multitool, pinned: its Linux build is a self-contained .NET program (it loads the
#: system's libicu) in the optional dependency @microsoft/sarif-multitool-linux
MULTITOOL = "@microsoft/sarif-multitool@5.7.0"
PACKAGE = Path("node_modules") / "@microsoft" / "sarif-multitool-linux"


@pytest.fixture(scope="session")
def multitool() -> Path:
    """The Multitool's binary, installed with npm into the cache the first time (one
    process at a time: a lock beside it); skipped where npm is not installed."""
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed (setup.sh installs Debian's nodejs and npm)")
    prefix = cache_dir("npm")
    binary = prefix / PACKAGE / "Sarif.Multitool"
    with flocked(prefix / ".install.lock"):
        if not binary.is_file():
            # node trusts its own CA list, not the system's (where a machine's proxy CA is):
            # --use-openssl-ca makes it use the system's, as apt, pip and curl do
            env = {**os.environ, "NODE_OPTIONS": " ".join(
                filter(None, [os.environ.get("NODE_OPTIONS", ""), "--use-openssl-ca"]))}
            proc = subprocess.run([npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund",
                                   MULTITOOL], capture_output=True, text=True, timeout=900, env=env)
            assert proc.returncode == 0, proc.stdout + proc.stderr
        # npm 11 leaves install scripts unrun unless allowed: the package's own
        # postinstall is the chmod done here
        if not os.access(binary, os.X_OK):
            binary.chmod(binary.stat().st_mode | 0o111)
    return binary


@pytest.fixture(scope="session")
def schema_enums(multitool) -> dict[str, set]:
    """The enumerations of the SARIF 2.1.0 schema shipped with the Multitool."""
    defs = json.loads((multitool.parent / "sarif-2.1.0.json").read_text())["definitions"]
    result = defs["result"]["properties"]
    suppression = defs["suppression"]["properties"]
    return {"level": set(result["level"]["enum"]), "kind": set(result["kind"]["enum"]),
            "baselineState": set(result["baselineState"]["enum"]),
            "suppression.kind": set(suppression["kind"]["enum"]),
            "suppression.status": set(suppression["status"]["enum"])}


@pytest.fixture
def validate(multitool, schema_enums, tmp_path):
    """``validate(text)``: write the log, run ``Sarif.Multitool validate`` on it, and fail
    on any result of level error it reports or a value outside the schema's
    enumerations; return the log and the Multitool's own lines."""
    count = iter(range(1000))

    def check(text: str) -> tuple[dict, list[str]]:
        n = next(count)
        log_file, report = tmp_path / f"log{n}.sarif", tmp_path / f"validation{n}.sarif"
        log_file.write_text(text)
        proc = subprocess.run([str(multitool), "validate", "--output", str(report), str(log_file)],
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0 and "Analysis completed successfully" in proc.stdout, \
            proc.stdout + proc.stderr
        found = json.loads(report.read_text())["runs"][0].get("results", [])
        errors = [line for line in proc.stdout.splitlines() if ": error " in line]
        assert [r for r in found if r.get("level") == "error"] == [] and errors == [], proc.stdout
        log = json.loads(text)
        for run in log["runs"]:
            for r in run["results"]:
                for key in ("level", "kind", "baselineState"):
                    assert key not in r or r[key] in schema_enums[key], (key, r)
                for s in r.get("suppressions", ()):
                    assert s["kind"] in schema_enums["suppression.kind"], s
                    assert s["status"] in schema_enums["suppression.status"], s
        categories = [run["automationDetails"]["id"] for run in log["runs"]]
        assert len(set(categories)) == len(categories), categories
        return log, proc.stdout.splitlines()

    return check


def _runs(log: dict) -> dict[str, dict]:
    return {run["automationDetails"]["id"]: run for run in log["runs"]}


def _located(r: dict) -> tuple:
    where = r["locations"][0]["physicalLocation"]
    return where["artifactLocation"]["uri"], where.get("region", {}).get("startLine")


def test_the_check_finds_an_error_when_there_is_one(validate):
    """The check itself: a log without its version is an error to the Multitool, and a
    level outside the schema's (which the Multitool lets pass) is one to the check."""
    with pytest.raises(AssertionError, match="JSON1002"):
        validate(json.dumps({"runs": []}))
    bogus = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "automationDetails": {"id": "x/"},
                                           "results": [{"message": {"text": "m"}, "level": "bogus"}]}]}
    with pytest.raises(AssertionError, match="bogus"):
        validate(json.dumps(bogus))


# ------------------------------------------------------------------ upgrade

def _main(*args: str) -> int:
    from analyzer.cli import main
    return main(list(args))


@pytest.fixture(scope="module")
def upgraded(tmp_path_factory, require) -> Path:
    """clang-14 -> clang-16 of the autotools fixture, built and stored once."""
    require("clang-14")
    require("clang-16")
    db = tmp_path_factory.mktemp("sarif-upgrade") / "up.db"
    assert _main("--db", str(db), "upgrade", "--source", str(AUTOTOOLS), "--build", "make", "--quiet",
                 "--from", "clang-14", "--to", "clang-16") == 0
    return db


def _upgrade(cli, *args: str) -> tuple[int, str, str]:
    return cli("upgrade", "--source", str(AUTOTOOLS), "--build", "make", "--quiet",
               "--from", "clang-14", "--to", "clang-16", *args)


def test_upgrade_sarif_is_a_run_per_compiler_with_baseline_states(upgraded, cli_at, validate):
    code, out, err = _upgrade(cli_at(upgraded), "--format", "sarif", "--stored")
    assert code == 0, err
    log, lines = validate(out)
    runs = _runs(log)
    assert list(runs) == ["warnscope/upgrade/clang-14/", "warnscope/upgrade/clang-16/"]
    old, new = runs.values()
    assert old["properties"]["role"] == "baseline" and old["properties"]["status"] == "ok"
    assert all("baselineState" not in r and r["level"] == "warning" for r in old["results"])
    assert {r["ruleId"] for r in old["results"]} == {"-Wimplicit-int", "-Wimplicit-function-declaration",
                                                     "-Wincompatible-pointer-types"}
    results = {r["ruleId"]: r for r in new["results"]}
    # the silent damage, at the line that asks for it
    flip = results["warnscope/configure-check-flipped"]
    uri, line = _located(flip)
    assert uri == "configure.ac" and "[if libc defines __progname]" in \
        (AUTOTOOLS / "configure.ac").read_text().splitlines()[line - 1]
    assert flip["baselineState"] == "new" and flip["properties"]["old"] == "yes"
    assert "undeclared library function 'printf'" in flip["message"]["text"]
    macro = results["warnscope/configure-macro-changed"]
    uri, line = _located(macro)
    assert uri == "config.h.in" and \
        (AUTOTOOLS / "config.h.in").read_text().splitlines()[line - 1] == "#undef HAVE___PROGNAME"
    # the new errors: the same places, errors now, in clang 16's words
    for option, line in (("-Wimplicit-int", 4), ("-Wimplicit-function-declaration", 12)):
        e = results[option]
        assert (e["level"], e["baselineState"]) == ("error", "updated"), e
        assert _located(e) == ("names.c", line)
        assert e["properties"]["newError"] is True and e["properties"]["was"] == "warning"
        assert e["properties"]["oldMessage"] != e["message"]["text"]
    assert results["-Wincompatible-pointer-types"]["baselineState"] == "unchanged"
    # every diagnostic is a result with its state; the run's warnings count warnings only:
    # the two new errors (warnings before) are not also warnings reworded
    assert new["properties"]["newErrors"] == 2
    assert new["properties"]["warnings"] == {"added": 0, "removed": 0, "changed": 0, "unchanged": 1}
    assert new["properties"]["escapeHatch"]["status"] == "ok"
    assert new["properties"]["status"] == "failed" and new["properties"]["baseline"] == "clang-14"
    assert new["originalUriBaseIds"]["SRCROOT"]["uri"] == AUTOTOOLS.as_uri() + "/"
    assert all(r.get("locations") for run in runs.values() for r in run["results"])   # GitHub needs them
    assert any("Analysis completed successfully" in line for line in lines)


def test_upgrade_sarif_after_a_run_is_the_stored_answers(upgraded, cli_at):
    """Without --stored the command goes through the run (nothing to build: all is
    stored) and reads the builds before its connection closes: the same results."""
    cli = cli_at(upgraded)
    code, ran, err = _upgrade(cli, "--format", "sarif")
    assert code == 0, err
    code, stored, err = _upgrade(cli, "--format", "sarif", "--stored")
    assert code == 0, err
    assert [run["results"] for run in json.loads(ran)["runs"]] == \
        [run["results"] for run in json.loads(stored)["runs"]]


def test_upgrade_json_and_text_are_as_they_were(upgraded, cli_at):
    cli = cli_at(upgraded)
    code, out, err = _upgrade(cli, "--json", "--stored")
    assert code == 0, err
    (pair,) = json.loads(out)["pairs"]
    assert pair["new"] == "clang-16" and len(pair["new_errors"]) == 2
    code, same, err = _upgrade(cli, "--format", "json", "--stored")
    assert code == 0 and same == out
    code, text, err = _upgrade(cli, "--stored")
    # the tree named by its path (a stored build answers only for the tree it was built from)
    assert code == 0 and text.startswith(f"local:gcc14-autotools ({AUTOTOOLS}): clang-14 -> clang-16 (upgrade;")


def test_json_and_sarif_at_once_is_one_error_line(tmp_path, cli_at):
    for args in (("warnings", "report", "--project", "p"), ("warnings", "diff", "a", "b", "--project", "p")):
        code, out, err = cli_at(tmp_path / "none.db")(*args, "--json", "--format", "sarif")
        assert code != 0 and out == ""
        assert err.strip().splitlines() == ["warnscope: error: --json and --format sarif ask for two "
                                            "formats: give one"]
    assert not (tmp_path / "none.db").exists()


# ------------------------------------------------------------------ warnings report and diff

@pytest.fixture(scope="module")
def built(gcc_db, tmp_path_factory, require) -> Path:
    """tests/fixtures/warnings/upgrade built by gcc-12, clang-14 and clang-16, on a copy
    of the gcc-11/gcc-12 flag database (gcc-12's rules get their help text)."""
    for c in ("gcc-12", "clang-14", "clang-16"):
        require(c)
    db = tmp_path_factory.mktemp("sarif-warnings") / "w.db"
    shutil.copy(gcc_db, db)
    assert _main("--db", str(db), "warnings", "run", "--source", str(UPGRADE), "--build", "make",
                 "--compilers", "gcc-12,clang-14,clang-16", *LEVEL, "--quiet") == 0
    return db


def test_report_sarif_is_a_run_per_build(built, cli_at, validate):
    cli = cli_at(built)
    code, out, err = cli("warnings", "report", "--project", "local:upgrade", "--format", "sarif")
    assert code == 0, err
    log, _ = validate(out)
    code, js, err = cli("warnings", "report", "--project", "local:upgrade", "--json")
    report = {b["compiler"]: b for b in json.loads(js)["builds"]}
    runs = _runs(log)
    assert set(runs) == {f"warnscope/warnings/{c}/upgrade/" for c in ("gcc-12", "clang-14", "clang-16")}
    for run in runs.values():
        compiler = run["properties"]["compiler"]
        assert len(run["results"]) == report[compiler]["diagnostics"] == run["properties"]["diagnostics"]
        assert Counter(r["ruleId"] for r in run["results"]) == \
            {o["option"] or "warnscope/no-option": o["count"] for o in report[compiler]["by_option"]}
        # the header's diagnostic, counted once, with both TUs
        (unused,) = [r for r in run["results"] if r["ruleId"] == "-Wunused-variable"]
        assert _located(unused)[0] == "shared.h"
        assert unused["properties"]["tus"] == ["clang_changes.c", "gcc_changes.c"]
        assert unused["properties"]["printed"] == 2
    gcc = _runs(log)["warnscope/warnings/gcc-12/upgrade/"]
    rules = {r["id"]: r for r in gcc["tool"]["driver"]["rules"]}
    assert "unused" in rules["-Wunused-variable"]["shortDescription"]["text"].lower()   # gcc-12's help
    uaf = next(r for r in gcc["results"] if r["ruleId"] == "-Wuse-after-free")
    assert _located(uaf) == ("gcc_changes.c", 10)
    assert uaf["locations"][0]["physicalLocation"]["region"]["startColumn"] == 12


def test_diff_sarif_has_every_baseline_state_as_the_diff_counts_them(built, cli_at, validate):
    cli = cli_at(built)
    args = ("warnings", "diff", "clang-14", "clang-16", "--project", "local:upgrade", "--level", "upgrade")
    code, out, err = cli(*args, "--format", "sarif")
    assert code == 0, err
    log, _ = validate(out)
    (run,) = log["runs"]
    assert run["automationDetails"]["id"] == "warnscope/warnings-diff/clang-14-to-clang-16/upgrade/"
    diff = json.loads(cli(*args, "--json")[1])
    states = Counter(r["baselineState"] for r in run["results"])
    assert states == {"new": diff["added"], "absent": diff["removed"], "updated": diff["changed"],
                      "unchanged": diff["unchanged"]} == {"new": 1, "absent": 1, "updated": 2, "unchanged": 5}
    by = {(r["baselineState"], r["ruleId"], _located(r)[1]): r for r in run["results"]}
    reworded = by[("updated", "-Wstrict-prototypes", 5)]
    assert reworded["properties"]["oldMessage"] == "this function declaration is not a prototype"
    assert reworded["message"]["text"] == \
        "a function declaration without a prototype is deprecated in all versions of C"
    gone = by[("absent", "-Wstrict-prototypes", 6)]
    assert (gone["kind"], gone["level"], gone["suppressions"][0]["status"]) == ("pass", "none", "accepted")
    assert ("new", "-Wdeprecated-non-prototype", 6) in by
    assert run["properties"]["baseline"] == "clang-14"


# ------------------------------------------------------------------ ub detectors

def test_detectors_sarif_is_a_run_per_version_and_tool(tmp_path, cli_at, validate, require):
    require("gcc-12")
    cli = cli_at(tmp_path / "ub.db")
    code, out, err = cli("ub", "detectors", "--case", "int-min-division/divide", "--compilers", "gcc-12",
                         "--tools", "warnings,sanitizers", "--format", "sarif")
    assert code == 0, err
    log, _ = validate(out)
    runs = _runs(log)
    assert set(runs) == {"warnscope/ub-detectors/gcc-12/warnings/", "warnscope/ub-detectors/gcc-12/sanitizers/"}
    code, js, err = cli("ub", "detectors", "--case", "int-min-division/divide", "--compilers", "gcc-12",
                        "--tools", "warnings,sanitizers", "--json")
    scores = json.loads(js)
    for run in runs.values():
        tool = run["properties"]["tool"]
        mine = {d["detector"] for d in scores["detectors"] if d["tool"] == tool}
        assert {r["ruleId"] for r in run["results"]} == mine
    (caught,) = runs["warnscope/ub-detectors/gcc-12/sanitizers/"]["results"]
    assert caught["ruleId"] == "ubsan:signed-integer-overflow"
    assert (caught["kind"], caught["properties"]["verdict"]) == ("fail", "caught")
    assert _located(caught) == ("int-min-division/divide.c", 29)
    corpus = Path(runs["warnscope/ub-detectors/gcc-12/sanitizers/"]["originalUriBaseIds"]["SRCROOT"]["uri"]
                  .removeprefix("file://"))
    assert "n / d" in (corpus / "int-min-division/divide.c").read_text().splitlines()[28]
