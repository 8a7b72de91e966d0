"""Detector runs stored in the database, on real tools: a second ``ub detectors`` runs
nothing, an interrupted one keeps what had finished and the next runs only the rest,
``ub report --case`` and ``ub explain`` show the case's detectors per version from
what is stored (no tool runs for them), and ``--scheduler`` runs the tools as jobs on a
real Dask cluster with the same scores.

The corpus is a copy of one bundled case and its fixed twin (a null dereference the
clang static analyzer and GCC's -fanalyzer catch at its ub-line); gcc-12 and clang-16.
"""
from __future__ import annotations

import json
import shutil
import sqlite3

import pytest

from analyzer.cli import main
from analyzer.runtime import toolchain
from analyzer.ub.detectors import analyzers as an
from analyzer.ub.detectors import detect
from analyzer.ub import store as ub_store
from analyzer.ub.corpus import bundled_corpus, load
from warnscope.database import connect

COMPILERS = ("gcc-12", "clang-16")
CASE = "null-dereference/check-after-use"

pytestmark = pytest.mark.skipif(toolchain.installed(list(COMPILERS)) != list(COMPILERS),
                                reason="needs gcc-12 and clang-16")


@pytest.fixture
def corpus(tmp_path):
    root = tmp_path / "corpus"
    (root / "null-dereference").mkdir(parents=True)
    for f in (bundled_corpus() / "null-dereference").glob("check-after-use*"):
        shutil.copy(f, root / "null-dereference" / f.name)
    return root


def _detectors(db, corpus, *more):
    return main(["--db", str(db), "ub", "detectors", "--corpus", str(corpus),
                 "--compilers", ",".join(COMPILERS), *more])


def test_a_second_run_reads_every_run_from_the_database(tmp_path, corpus, capsys):
    db = tmp_path / "w.db"
    assert _detectors(db, corpus) == 0
    first = capsys.readouterr().out
    per_program = 7 + (1 if shutil.which("cppcheck") else 0)
    assert f"{2 * per_program} tool runs: {2 * per_program} run now, 0 read from the database" in first
    rows = sqlite3.connect(db).execute(
        "SELECT case_id, tool, version, status FROM ub_detector_run").fetchall()
    assert len(rows) == 2 * per_program and {r[3] for r in rows} == {"ok"}
    assert _detectors(db, corpus) == 0
    second = capsys.readouterr().out
    assert f"{2 * per_program} tool runs: 0 run now, {2 * per_program} read from the database" in second
    assert first.split("\n\n")[:-1] == second.split("\n\n")[:-1]  # the same scores
    assert _detectors(db, corpus, "--json") == 0
    data = json.loads(capsys.readouterr().out)
    null = next(d for d in data["detectors"] if d["detector"] == "core.NullDereference")
    assert (null["caught"], null["false_alarms"]) == ([CASE], [])


class _StopAfter:
    """A progress that stops the run (as Ctrl-C does) once ``n`` runs have arrived."""

    def __init__(self, n: int):
        self.n, self.seen = n, 0

    def __call__(self, message: str) -> None:
        pass

    def add_total(self, steps: int) -> None:
        pass

    def advance(self, steps: int = 1) -> None:
        self.seen += steps
        if self.seen >= self.n:
            raise KeyboardInterrupt

    def close(self) -> None:
        pass


def test_an_interrupted_run_keeps_what_had_finished_and_the_next_runs_the_rest(tmp_path, corpus):
    loaded = load(corpus)
    compilers = [toolchain.resolve(c) for c in COMPILERS]
    jobs = an.jobs_for(loaded.cases, compilers)
    conn = connect(tmp_path / "w.db")
    name = str(corpus.resolve())
    with pytest.raises(KeyboardInterrupt):
        detect.run(conn, name, loaded.cases, loaded.cases, jobs, workers=1, progress=_StopAfter(3))
    kept = ub_store.detector_runs(conn, name)
    assert 3 <= len(kept) < len(jobs)
    done = detect.run(conn, name, loaded.cases, loaded.cases, jobs, workers=2)
    assert (done.stored, done.ran) == (len(kept), len(jobs) - len(kept))
    assert len(ub_store.detector_runs(conn, name)) == len(jobs)
    again = detect.run(conn, name, loaded.cases, loaded.cases, jobs)
    assert (again.stored, again.ran) == (len(jobs), 0)
    assert again.scores == done.scores


def test_report_and_explain_show_the_cases_detectors_per_version(tmp_path, corpus, capsys):
    db = tmp_path / "w.db"
    assert main(["--db", str(db), "ub", "run", "--corpus", str(corpus), "--compilers", "clang-16",
                 "--levels", "O0", "--no-sanitizers", "--json"]) == 0
    capsys.readouterr()
    assert main(["--db", str(db), "ub", "report", "--case", CASE, "--json"]) == 0
    assert "detectors" not in json.loads(capsys.readouterr().out)["cases"][0]  # none ran yet
    assert _detectors(db, corpus, "--tools", "clang-analyzer,gcc-analyzer,sanitizers") == 0
    capsys.readouterr()
    assert main(["--db", str(db), "ub", "report", "--case", CASE]) == 0
    text = capsys.readouterr().out
    assert f"detectors (ub-line 29; twin {CASE}.fixed):" in text
    assert "clang-16  caught at its ub-line: core.NullDereference (29), ubsan:null (29)" in text
    assert "gcc-12    caught at its ub-line: -Wanalyzer-null-dereference (29), ubsan:null (29)" in text
    assert main(["--db", str(db), "ub", "report", "--case", CASE, "--json"]) == 0
    case = json.loads(capsys.readouterr().out)["cases"][0]
    assert case["detectors"]["versions"] == ["clang-16", "gcc-12"]
    assert {(d["version"], d["detector"], d["verdict"]) for d in case["detectors"]["detections"]} == {
        ("clang-16", "core.NullDereference", "caught"), ("clang-16", "ubsan:null", "caught"),
        ("gcc-12", "-Wanalyzer-null-dereference", "caught"), ("gcc-12", "ubsan:null", "caught")}
    assert main(["--db", str(db), "ub", "explain", CASE, "--labels-only"]) == 0
    assert "clang-16  caught at its ub-line: core.NullDereference (29)" in capsys.readouterr().out
    assert main(["--db", str(db), "ub", "explain", CASE, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["detectors"]["twin"] == f"{CASE}.fixed"


def test_a_dask_cluster_runs_the_jobs_and_gives_the_same_scores(tmp_path, corpus, capsys):
    """``ub detectors --scheduler``: the tool runs are jobs on a real Dask scheduler and
    its workers (their own cache, so every tool runs there and leaves its result there),
    and the scores are those of the local pool's run."""
    distributed = pytest.importorskip("distributed")
    assert _detectors(tmp_path / "local.db", corpus, "--json") == 0
    local = json.loads(capsys.readouterr().out)
    worker_cache = tmp_path / "worker-cache"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None,
                                  env={"WARNSCOPE_CACHE": str(worker_cache)}) as cluster:
        assert _detectors(tmp_path / "dask.db", corpus, "--json",
                          "--scheduler", cluster.scheduler_address) == 0
    remote = json.loads(capsys.readouterr().out)
    per_program = 7 + (1 if shutil.which("cppcheck") else 0)
    assert len(list((worker_cache / "ub" / "detect").rglob("*.json"))) == 2 * per_program
    rows = sqlite3.connect(tmp_path / "dask.db").execute(
        "SELECT status, count(*) FROM ub_detector_run GROUP BY status").fetchall()
    assert rows == [("ok", 2 * per_program)]
    assert remote == local
    null = next(d for d in remote["detectors"] if d["detector"] == "core.NullDereference")
    assert (null["caught"], null["false_alarms"]) == ([CASE], [])


def test_an_unusable_scheduler_is_one_line_and_writes_nothing(tmp_path, corpus, capsys):
    db = tmp_path / "w.db"
    for address, message in (("localhost:8786", "is not a scheduler address"),
                             ("tcp://127.0.0.1:9", "Dask scheduler at tcp://127.0.0.1:9")):
        assert _detectors(db, corpus, "--scheduler", address) != 0
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not db.exists()


def test_stored_runs_are_scored_when_read(tmp_path, capsys):
    """The runs are stored as the tools reported; what counts as a false alarm is decided
    each time they are read, from the programs' stored metadata: clang's analyzer at
    after-delete-this.fixed's fixed line 19 is a false alarm, gcc's "possibly NULL" after
    new unrelated; with the twin as stored before it had a fixed-line, the same stored
    runs read with no tool run score clang's report unrelated too, and say why."""
    root = tmp_path / "corpus"
    (root / "object-lifetime").mkdir(parents=True)
    for f in (bundled_corpus() / "object-lifetime").glob("after-delete-this*"):
        shutil.copy(f, root / "object-lifetime" / f.name)
    db = tmp_path / "w.db"
    assert _detectors(db, root, "--tools", "gcc-analyzer,clang-analyzer", "--json") == 0
    data = json.loads(capsys.readouterr().out)
    twin = "object-lifetime/after-delete-this.fixed"
    by_name = {d["detector"]: d for d in data["detectors"]}
    assert by_name["core.uninitialized.Assign"]["false_alarms"] == [twin]
    assert by_name["-Wanalyzer-possible-null-dereference"]["unrelated"] == [twin]
    conn = connect(db)
    name = str(root.resolve())
    with conn:
        conn.execute("""UPDATE ub_case SET meta = json_remove(meta, '$."fixed-line"')
                        WHERE corpus = ? AND id = ?""", (name, twin))
    from analyzer.site import detectors as site_detectors
    from analyzer.ub.detectors import scores as ub_scores
    runs = [run for _, run in ub_store.detector_runs(conn, name).values()]
    again = ub_scores.score(ub_scores.stored_facts(ub_store.case_infos(conn, name)), runs)
    assign = again.detector("core.uninitialized.Assign", "clang-16")
    assert (assign.false_alarms, assign.unrelated) == ([], [twin])
    assert any(n.startswith("1 fixed twin without fixed-line") for n in again.notes)
    [view] = site_detectors.load(conn, {})
    assert ub_scores.as_json(view.scores) == ub_scores.as_json(again)
