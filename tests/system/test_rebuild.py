"""``warnscope rebuild`` on real compilers and real builds: many projects in one command,
clang-14 -> clang-16 on the host (Clang 16 made implicit declarations and implicit int
errors in C), each project's outcome and the causes across them, a list with
duplicates and garbage, a rerun answered from the stored builds; and the same projects
as tasks of a real Dask cluster (scheduler and two worker processes on 127.0.0.1, one
build slot each) in which the worker running a build is killed with SIGKILL mid-build:
its project is built again elsewhere, and every project's builds are stored once.

The projects are local trees (tests/fixtures/rebuild: one that builds with both, one
that fails with both, one that builds slowly; tests/fixtures/upgrade/gcc14-autotools,
which Clang 16 breaks): the smallest real builds. Debian packages go through the same
per-project job (:func:`analyzer.warnings.rebuild.build_project`); the 20-package run
is bench/bench_rebuild.py.
"""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
BUILDS, FAILS, SLOW = (FIXTURES / "rebuild" / n for n in ("builds", "fails", "slow"))
AUTOTOOLS = FIXTURES / "upgrade" / "gcc14-autotools"


@pytest.fixture
def clangs(require):
    require("clang-14")
    require("clang-16")


def _rows(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT project, compiler, level, finished_at FROM wn_build "
                            "ORDER BY project, compiler, level").fetchall()


def test_many_projects_one_command(clangs, tmp_path, cli_at, chromium):
    listing = tmp_path / "projects.txt"
    listing.write_text(f"# the projects of one move\n{BUILDS}\n{FAILS}\n\n"
                       f"{AUTOTOOLS} skip=strlcpy\n{BUILDS}\nnot a package!\ndebian:Zz\n")
    cli = cli_at(tmp_path / "rebuild.db")
    out_dir = tmp_path / "out"
    code, out, err = cli("rebuild", "--packages", str(listing), "--from", "clang-14", "--to", "clang-16",
                         "--quiet", "--json", "--out", str(out_dir))
    assert code == 1, err     # lines not taken: said, and the exit says so; the rest went on
    s = json.loads(out)
    outcomes = {c["name"]: c["projects"] for c in s["outcomes"]}
    assert outcomes == {"new failure": ["local:gcc14-autotools"], "flips only": [],
                        "already fails": ["local:fails"], "cannot tell": [],
                        "builds with both": ["local:builds"]}
    causes = {c["name"]: c["projects"] for c in s["causes"]}
    assert causes == {"-Wimplicit-function-declaration": ["local:gcc14-autotools"],
                      "-Wimplicit-int": ["local:gcc14-autotools"]}
    refused = [(r["where"], r["why"]) for r in s["refused"]]
    assert refused[0] == (f"{listing}:6", f"local:builds again (first at {listing}:2)")
    assert refused[1][0] == f"{listing}:7" and "one project and optional skip=" in refused[1][1]
    assert refused[2] == (f"{listing}:8", "'debian:Zz': 'Zz' is not a Debian source package name")
    by = {p["project"]: p for p in s["projects"]}
    # "already fails": the old compiler's build beside the new one's, its error named
    assert "clang-14 fails too" in by["local:fails"]["why"] and "struct missing" in by["local:fails"]["why"]
    # the new failure with its hatch proven, and the flip the upgrade report gives
    up = by["local:gcc14-autotools"]["report"]["pairs"][0]
    assert up["hatch"]["status"] == "ok" and [f["name"] for f in up["flips"]] == ["if libc defines __progname"]
    # every project's report as JSON and SARIF, beside the summary
    assert json.loads((out_dir / "local_3agcc14-autotools.json").read_text())["pairs"][0]["new"] == "clang-16"
    sarif = json.loads((out_dir / "local_3agcc14-autotools.sarif").read_text())
    assert sarif["version"] == "2.1.0" and sarif["runs"]
    assert json.loads((out_dir / "summary.json").read_text()) == s
    # a rerun answers from the stored builds: nothing is built again
    before = _rows(tmp_path / "rebuild.db")
    code, text, err = cli("rebuild", str(BUILDS), str(FAILS), str(AUTOTOOLS), "--from", "clang-14",
                          "--to", "clang-16", "--quiet")
    assert code == 0, err
    assert _rows(tmp_path / "rebuild.db") == before
    assert "local:builds: builds with both (stored): both build" in text
    assert "    new failure           1: local:gcc14-autotools" in text
    # and every project's report is a page of the report site, as any upgrade's
    code, _, err = cli("site", "build", "-o", str(tmp_path / "site"))
    assert code == 0, err
    for slug in ("local_3abuilds", "local_3afails", "local_3agcc14-autotools"):
        page = tmp_path / "site" / "projects" / slug / "upgrades" / "clang-14--clang-16.html"
        assert page.exists() and json.loads(page.with_suffix(".json").read_text())["project"] == f"local:{slug[8:]}"
    # and the summary across them is a page of its own, opened in Chromium: the counts by
    # outcome and the projects behind each, linked to their upgrade pages, nothing fetched
    # from outside the site
    site = chromium.site(tmp_path / "site")
    page = site.open("rebuilds/clang-14--clang-16.html")
    rows = {r.get_attribute("data-outcome"): (int(r.locator("td.count").inner_text()),
                                              r.locator("td.which a").all_inner_texts())
            for r in page.locator("#outcomes tbody tr").all()}
    assert rows == {"new failure": (1, ["local:gcc14-autotools"]), "flips only": (0, []),
                    "already fails": (1, ["local:fails"]), "cannot tell": (0, []),
                    "builds with both": (1, ["local:builds"])}
    assert page.locator("#causes tbody tr td code").all_inner_texts() == [
        "-Wimplicit-function-declaration", "-Wimplicit-int"]
    page.locator("#outcomes tr[data-outcome='new failure'] a").click()
    page.wait_for_load_state()
    assert page.url.endswith("projects/local_3agcc14-autotools/upgrades/clang-14--clang-16.html")
    page.close()
    index = site.open("projects/index.html")
    assert "3 projects; 1 new failure, 1 already fails, 1 builds with both" in index.locator("#rebuilds + ul").inner_text()
    index.close()
    summary = json.loads((tmp_path / "site" / "rebuilds" / "clang-14--clang-16.json").read_text())
    assert {c["name"]: c["projects"] for c in summary["outcomes"]} == outcomes
    assert site.errors == [] and site.outside == []



def test_an_interrupted_run_resumes_where_it_stopped(clangs, tmp_path):
    """The command killed (SIGKILL) once one project is stored and while another builds:
    the next run keeps the stored project as it is and builds only the other."""
    import subprocess
    import sys

    db = tmp_path / "resume.db"
    args = ["rebuild", str(BUILDS), str(SLOW), "--from", "clang-14", "--to", "clang-16", "--quiet", "-j", "1"]
    child = subprocess.Popen([sys.executable, "-c", "import sys; from analyzer.cli import main; sys.exit(main())",
                              "--db", str(db), *args, "--workers", "2"], cwd=ROOT,
                             env={**os.environ, "PYTHONPATH": str(ROOT)},
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and child.poll() is None:
            try:
                if db.exists() and {r[0] for r in _rows(db)} == {"local:builds"}:
                    break
            except sqlite3.OperationalError:
                pass    # no schema yet, or the writer's lock: ask again
            time.sleep(0.2)
        assert child.poll() is None, "the run ended before it could be interrupted"
        child.kill()
    finally:
        child.wait()
    first = _rows(db)
    assert {r[0] for r in first} == {"local:builds"}      # the slow project was still building
    code = subprocess.run([sys.executable, "-c", "import sys; from analyzer.cli import main; sys.exit(main())",
                           "--db", str(db), *args], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, timeout=600).returncode
    assert code == 0
    after = _rows(db)
    assert [r for r in after if r[0] == "local:builds"] == first      # kept, not built again
    assert {r[0] for r in after} == {"local:builds", "local:slow"}

def test_stored_answers_only_for_the_tree_built(clangs, tmp_path, cli_at):
    """``--stored`` answers from builds of the tree as it is now: once the tree is edited,
    its stored builds are of another tree, and the project is "cannot tell" saying so."""
    import shutil
    tree = tmp_path / "builds"
    shutil.copytree(BUILDS, tree)
    cli = cli_at(tmp_path / "stored.db")
    args = ("rebuild", str(tree), "--from", "clang-14", "--to", "clang-16", "--quiet", "--json")
    code, out, err = cli(*args)
    assert code == 0, err
    code, out, err = cli(*args, "--stored")
    assert code == 0, err
    (p,) = json.loads(out)["projects"]
    assert p["outcome"] == "builds with both" and p["report"] is not None
    before = _rows(tmp_path / "stored.db")
    source = next(f for f in sorted(tree.iterdir()) if f.suffix == ".c")
    source.write_text(source.read_text() + "\n/* edited */\n")
    code, out, err = cli(*args, "--stored")
    assert code == 1, err
    (p,) = json.loads(out)["projects"]
    assert p["outcome"] == "cannot tell" and p["report"] is None
    assert p["why"] == ("the stored build of local:builds by clang-14 is of this tree as it was before "
                        "an edit: run without --stored to build it")
    assert _rows(tmp_path / "stored.db") == before      # --stored writes nothing


def test_a_listed_function_keeps_its_flip_out(clangs, tmp_path, cli_at):
    """The flip of a check whose failure is expected (here the project's own skip= names
    the function its error says was implicitly declared) is listed, not counted."""
    cli = cli_at(tmp_path / "skip.db")
    code, out, err = cli("rebuild", f"{AUTOTOOLS}", "--from", "clang-14", "--to", "clang-16", "--quiet", "--json")
    assert code == 0, err
    (p,) = json.loads(out)["projects"]
    assert p["expected"] == []
    listing = tmp_path / "skip.txt"
    listing.write_text(f"{AUTOTOOLS} skip=printf\n")
    code, out, err = cli("rebuild", "--packages", str(listing), "--from", "clang-14", "--to", "clang-16",
                         "--quiet", "--json", "--stored")
    assert code == 0, err
    (p,) = json.loads(out)["projects"]
    assert [f["name"] for f in p["expected"]] == ["if libc defines __progname"]


def test_a_cluster_without_build_slots_is_one_line(clangs, tmp_path, fails_on):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp",
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        line = fails_on(tmp_path / "none.db", "rebuild", str(BUILDS), "--from", "clang-14", "--to",
                        "clang-16", "--scheduler", cluster.scheduler_address)
    assert "no worker of the Dask cluster offers a 'build' resource" in line
    assert "--resources build=1" in line


def test_a_worker_killed_mid_build_on_a_dask_cluster(clangs, tmp_path):
    """Two worker processes with one build slot each; the worker building the slow
    project is killed with SIGKILL while it builds: the project is built again on a
    worker (the restarted one or the other), and each project's builds are stored
    exactly once."""
    distributed = pytest.importorskip("distributed")
    from analyzer.projects.options import BuildOptions
    from analyzer.runtime.executors import DaskExecutor
    from analyzer.runtime.toolchain import resolve
    from analyzer.warnings import rebuild
    from warnscope.database import connect

    entries, refused = rebuild.entries([(f"line {i}", str(p)) for i, p in
                                        enumerate((SLOW, BUILDS, FAILS, AUTOTOOLS), 1)], "trixie")
    assert refused == []
    db = tmp_path / "dask.db"
    killed: list[str] = []
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  resources={"build": 1}, dashboard_address=None) as cluster, \
            DaskExecutor(cluster.scheduler_address) as executor:
        result: dict = {}

        def run() -> None:
            conn = connect(db)
            try:
                result["summary"] = rebuild.run(conn, entries, resolve("clang-14"), resolve("clang-16"),
                                                BuildOptions(jobs=1, timeout=600), executor=executor)
            except BaseException as exc:  # noqa: BLE001 -- re-raised in the test's thread
                result["error"] = exc
            finally:
                conn.close()

        thread = threading.Thread(target=run)
        thread.start()
        client = executor.client
        deadline = time.monotonic() + 300
        while not killed and time.monotonic() < deadline and thread.is_alive():
            for worker, keys in client.processing().items():
                if any("local-slow" in str(k) for k in keys):
                    time.sleep(3)   # inside the slow build (its make sleeps 8 s per compiler)
                    pid = client.run(os.getpid, workers=[worker])[worker]
                    os.kill(pid, signal.SIGKILL)
                    killed.append(worker)
                    break
            time.sleep(0.2)
        thread.join(600)
    assert killed, "the slow project's task was never seen running"
    assert "error" not in result, result.get("error")
    summary = result["summary"]
    assert summary.complete
    outcomes = {c.name: c.projects for c in summary.outcomes}
    assert outcomes["builds with both"] == ["local:slow", "local:builds"]
    assert outcomes["already fails"] == ["local:fails"] and outcomes["new failure"] == ["local:gcc14-autotools"]
    rows = _rows(db)
    keys = [r[:3] for r in rows]
    assert len(keys) == len(set(keys))      # each build of each project stored once
    assert {(p, c) for p, c, level in keys if level == "default"} == {
        (p, c) for p in ("local:slow", "local:builds", "local:fails", "local:gcc14-autotools")
        for c in ("clang-14", "clang-16")}


def test_debian_packages_by_name(zoo_root, tmp_path, cli_at):
    """Debian source packages by name, each fetched and built by the job that builds it
    (gcc-13 -> gcc-14 of the trixie root): sl builds with both; a package trixie does not
    have is "cannot tell" with the fetch's own line, and stored as nothing."""
    listing = tmp_path / "debian.txt"
    listing.write_text("sl\nwarnscope-no-such-package\n")
    code, out, err = cli_at(tmp_path / "debian.db")("rebuild", "--packages", str(listing), "--suite", "trixie",
                                                    "--from", "gcc-13", "--to", "gcc-14", "--quiet", "--json")
    assert code == 1, err       # one project could not be answered
    s = json.loads(out)
    by = {p["project"]: p for p in s["projects"]}
    assert by["debian:sl/trixie"]["outcome"] == "builds with both"
    assert by["debian:sl/trixie"]["report"]["project"] == "debian:sl/trixie"
    missing = by["debian:warnscope-no-such-package/trixie"]
    assert missing["outcome"] == "cannot tell" and missing["report"] is None
    assert "Debian trixie has no source package warnscope-no-such-package" in missing["why"]
    assert {r[0] for r in _rows(tmp_path / "debian.db")} == {"debian:sl/trixie"}
    # the real builds answer a rerun: their digest is that of the .dsc trixie's index lists
    from analyzer.projects import debian, digest
    from analyzer.runtime import toolchain
    from analyzer.warnings import rebuild
    from analyzer.projects.options import BuildOptions
    from warnscope.database import connect
    sl = debian.listed("sl", "trixie")
    assert sl.version == "5.02-1"
    with sqlite3.connect(tmp_path / "debian.db") as conn:
        digests = {r[0] for r in conn.execute("SELECT tree_digest FROM wn_build WHERE project = 'debian:sl/trixie'")}
    assert digests == {digest.package_digest(sl.dsc, sl.sha256)}
    (entry,), _ = rebuild.entries([("list:1", "sl")], "trixie")
    conn = connect(tmp_path / "debian.db")
    try:
        assert rebuild.answered(conn, entry, toolchain.resolve("gcc-13"), toolchain.resolve("gcc-14"),
                                BuildOptions(keep_going=True))
    finally:
        conn.close()


def test_a_stored_package_answers_for_its_version_only(zoo_root, tmp_path):
    """A Debian package's stored builds answer a rerun only for the version they were
    built from (its ``.dsc``), read from the suite's index without fetching: builds of
    daemontools 0.76-8.1 (bookworm's) do not answer for trixie's daemontools (0.76-14:
    as if trixie's index had moved on since they were built), and do for bookworm's.
    The digest each build is stored with is the one the runner computes from the
    fetched package, and sl 5.02-1's is the one trixie's index gives."""
    from analyzer.projects import debian, digest, recipes
    from analyzer.projects.options import BuildOptions
    from analyzer.runtime import toolchain
    from analyzer.warnings import rebuild, store, upgrade
    from analyzer.warnings.results import Build
    from warnscope.database import connect, transaction
    old, new = toolchain.resolve("gcc-13"), toolchain.resolve("gcc-14")
    sl = recipes.debian_package("debian:sl/trixie")
    listed = debian.listed("sl", "trixie")
    assert digest.tree_digest(sl.source, sl) == digest.package_digest(listed.dsc, listed.sha256)
    built = recipes.debian_package("debian:daemontools/bookworm")     # as a worker fetches it
    assert built.dsc.name == "daemontools_0.76-8.1.dsc"
    assert debian.listed("daemontools", "trixie").version == "0.76-14"
    conn = connect(tmp_path / "w.db")
    try:
        for spec, answers in (("debian:daemontools/trixie", False), ("debian:daemontools/bookworm", True)):
            (entry,), _ = rebuild.entries([("list:1", spec)], "trixie")
            with transaction(conn):
                for tc in (old, new):
                    store.save_build(conn, Build(
                        project=entry.project, origin=str(built.source), compiler=tc.name,
                        compiler_version=tc.version, level=upgrade.LEVEL, opt="-O2", flags={},
                        format="gcc-json", finished_at="t", keep_going=True,
                        tree_digest=digest.tree_digest(built.source, built)))
            assert rebuild.answered(conn, entry, old, new, BuildOptions(keep_going=True)) is answers, spec
            # --stored as well: the builds of another version do not answer for trixie's
            (p,) = rebuild.from_store(conn, [entry], old.name, new.name).projects
            if answers:
                assert p.report is not None and p.outcome != rebuild.Outcome.CANNOT_TELL
            else:
                assert p.outcome == rebuild.Outcome.CANNOT_TELL and p.report is None
                assert p.why == ("the stored build of debian:daemontools/trixie by gcc-13 is of another "
                                 "version than the one trixie's index lists now (daemontools_0.76-14.dsc): "
                                 "run without --stored to build it")
    finally:
        conn.close()
