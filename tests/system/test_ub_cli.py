"""``warnscope ub run`` / ``ub report`` from the command line: JSON shape, bad input,
hostile programs in a run, kill -9 and resume, and a real Dask LocalCluster. (Ctrl-C
and what a killed run leaves behind: tests/test_processes.py.)"""
from __future__ import annotations

import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from analyzer.sandbox import runner as sandbox
from analyzer.ub import report as ub_report
from analyzer.ub import run as ub_run
from analyzer.runtime.toolchain import resolve_list
from analyzer.cli import main
from warnscope import processes
from warnscope.database import connect

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "ub"
MINI = FIXTURES / "mini"
HOSTILE = FIXTURES / "hostile"

pytestmark = pytest.mark.skipif(shutil.which("gcc-12") is None or shutil.which("clang-16") is None,
                                reason="needs gcc-12 and clang-16")


def test_run_json_and_report(tmp_path, capsys):
    db = tmp_path / "ub.db"
    assert main(["--db", str(db), "ub", "run", "--corpus", str(MINI), "--compilers",
                 "gcc-12,clang-16", "--levels", "O0,-O2", "--no-sanitizers", "--timeout", "1",
                 "--json"]) == 0
    cells = json.loads(capsys.readouterr().out)
    assert len(cells) == 6 * 2 * 2
    for key in ("case", "compiler", "level", "flags", "outcome", "exploited", "exit", "signal",
                "stdout", "warnings"):
        assert key in cells[0]
    assert {c["level"] for c in cells} == {"-O0", "-O2"}
    wrap = [c for c in cells if c["case"] == "control/unsigned-wrap"]
    assert {(c["outcome"], c["exploited"], c["exit"], c["stdout"]) for c in wrap} == {
        ("expected", False, 0, "3\n")}

    assert main(["--db", str(db), "ub", "report"]) == 0
    text = capsys.readouterr().out
    assert "control/unsigned-wrap" in text and "gcc-12" in text and "clang-16" in text
    assert main(["--db", str(db), "ub", "report", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert {c["case"] for c in report["cases"]} >= {"control/unsigned-wrap", "external/plain"}
    assert main(["--db", str(db), "ub", "report", "--case", "control/exit-three"]) == 0
    assert "-O0 -O2 expected" in capsys.readouterr().out
    assert main(["--db", str(db), "ub", "report", "--json", "--case", "control/exit-three"]) == 0
    [one] = json.loads(capsys.readouterr().out)["cases"]
    assert one["case"] == "control/exit-three" and one["diverges"] is False
    assert main(["--db", str(db), "ub", "report", "--case", "no/such-case"]) == 1
    assert "no case 'no/such-case'" in capsys.readouterr().err
    # a case named without its category, or mistyped, names the ids meant; given, they answer
    assert main(["--db", str(db), "ub", "report", "--case", "exit-thre"]) == 1
    assert capsys.readouterr().err.strip().endswith("did you mean control/exit-three?")
    assert main(["--db", str(db), "ub", "explain", "unsigned-wrap"]) == 1
    assert capsys.readouterr().err.strip().endswith("did you mean control/unsigned-wrap?")
    assert main(["--db", str(db), "ub", "explain", "control/unsigned-wrap"]) == 0


def test_flag_sets_are_extra_cells(tmp_path, capsys):
    corpus = tmp_path / "c"
    (corpus / "control").mkdir(parents=True)
    for f in (MINI / "control").glob("unsigned-wrap*"):
        shutil.copy(f, corpus / "control")
    db = tmp_path / "ub.db"
    assert main(["--db", str(db), "ub", "run", "--corpus", str(corpus), "--compilers", "gcc-12",
                 "--levels", "O2", "--flags", "-fwrapv", "--no-sanitizers", "--no-warnings",
                 "--json"]) == 0
    cells = json.loads(capsys.readouterr().out)
    assert sorted(c["flags"] for c in cells) == ["", "-fwrapv"]


@pytest.mark.parametrize("args, message", [
    (["--compilers", "gcc-99"], "compiler gcc-99 is not installed"),
    (["--compilers", "icc"], "unknown compiler id 'icc'"),
    (["--levels", "O9"], "unknown optimization level 'O9'"),
    (["--corpus", "/nonexistent/corpus"], "corpus is not a directory"),
    (["--timeout", "0"], "'--timeout': '0': expected a number in (0, 86400]"),
])
def test_bad_input_is_one_line_and_leaves_the_database_unchanged(tmp_path, capsys, args, message, dump):
    db = tmp_path / "ub.db"
    assert main(["--db", str(db), "ub", "run", "--corpus", str(MINI), "--compilers", "gcc-12",
                 "--levels", "O0", "--no-sanitizers", "--no-warnings"]) == 0
    before = dump(db)
    capsys.readouterr()
    argv = ["--db", str(db), "ub", "run", "--corpus", str(MINI), "--compilers", "gcc-12",
            "--levels", "O0", *args]
    assert main(argv) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]
    assert dump(db) == before


def test_malformed_metadata_and_missing_database(tmp_path, capsys):
    corpus = tmp_path / "c" / "cat"
    corpus.mkdir(parents=True)
    (corpus / "a.c").write_text("/* ub-case\n * category: cat\n * ub: perhaps\n */\nint main(void){}\n")
    db = tmp_path / "ub.db"
    assert main(["--db", str(db), "ub", "run", "--corpus", str(tmp_path / "c")]) == 1
    assert "a.c:1: ub-case lacks standard, summary" in capsys.readouterr().err
    assert not db.exists()
    assert main(["--db", str(db), "ub", "report"]) == 1
    assert "no such database" in capsys.readouterr().err
    assert not db.exists()


def test_hostile_programs_are_contained_and_the_run_goes_on(tmp_path):
    corpus = tmp_path / "c"
    shutil.copytree(HOSTILE, corpus / "hostile")
    conn = connect(tmp_path / "ub.db")
    # The wall limit leaves room for a loaded machine (CI runs the suites side by side):
    # at 1 s a flood or a huge allocation was sometimes cut once and not the other time,
    # and the cell came out nondeterministic. Only the three hangs pay for it.
    summary = ub_run.run(conn, corpus, resolve_list(["gcc-12"]), ["O0"], limits=sandbox.Limits(timeout=4.0, cpu=2),
                         sanitizers=False, warnings=False)
    assert summary.failures == []
    cells = ub_report.load(conn).cells
    outcome = {c.case_id: c.outcome for c in cells}
    assert outcome == {
        "hostile/infinite-loop": "hang",
        "hostile/fork-bomb": "hang",
        "hostile/ignore-term": "hang",
        "hostile/huge-alloc": "nonzero-exit",
        "hostile/flood": "unexpected-output",
        "hostile/stack-overflow": "crash",
        "hostile/escape": "completed",
    }, [(c.case_id, c.runs) for c in cells]


def test_kill_9_keeps_finished_cells_and_the_rerun_resumes(tmp_path, cell_count):
    corpus = tmp_path / "c"
    shutil.copytree(MINI, corpus)
    (corpus / "hostile").mkdir()
    shutil.copy(HOSTILE / "infinite-loop.c", corpus / "hostile")  # keeps the run going
    db = tmp_path / "ub.db"
    argv = [sys.executable, "-m", "analyzer", "--db", str(db), "ub", "run", "--corpus", str(corpus),
            "--compilers", "gcc-12,clang-16", "--levels", "O0,O1,O2,O3", "--no-sanitizers",
            "--no-warnings", "-j", "1", "--timeout", "1"]
    proc = subprocess.Popen(argv, cwd=REPO, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while cell_count(db) < 3 and proc.poll() is None:
            time.sleep(0.05)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    conn = connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    kept = cell_count(db)
    assert 3 <= kept < 7 * 2 * 4
    sandbox.kill_leftovers()               # the loop that was running, if it was
    assert not _left_under_free_uids()
    summary = ub_run.run(conn, corpus, resolve_list(["gcc-12", "clang-16"]), ["O0", "O1", "O2", "O3"],
                         limits=sandbox.Limits(timeout=1.0, cpu=2), sanitizers=False,
                         warnings=False)
    assert summary.cells_run == 7 * 2 * 4 - kept
    assert cell_count(db) == 7 * 2 * 4


def _left_under_free_uids() -> list[int]:
    """Processes still running under a pool uid that no run holds. A uid whose lock is
    held belongs to a run in progress on this host (another test, another user's
    run): its processes are that run's, not leftovers of the killed one."""
    if sandbox.LOCK_DIR is None:
        return []
    found = []
    for uid in range(sandbox.UID_BASE, sandbox.UID_BASE + sandbox.UID_COUNT):
        fd = os.open(sandbox.LOCK_DIR / str(uid), os.O_CREAT | os.O_RDWR, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        try:
            found += processes.pids_of_uid(uid, keep=-1)
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
    return found


def test_dask_local_cluster_gives_the_same_cells(tmp_path):
    distributed = pytest.importorskip("distributed")
    from analyzer.runtime.executors import DaskExecutor

    corpus = tmp_path / "c"
    shutil.copytree(MINI, corpus)
    local = connect(tmp_path / "local.db")
    ub_run.run(local, corpus, resolve_list(["gcc-12", "clang-16"]), ["O0", "O2"], sanitizers=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        executor = DaskExecutor(cluster.scheduler_address)
        try:
            remote = connect(tmp_path / "dask.db")
            summary = ub_run.run(remote, corpus, resolve_list(["gcc-12", "clang-16"]), ["O0", "O2"],
                                 sanitizers=False, executor=executor)
        finally:
            executor.close()
    assert summary.failures == [] and summary.cells_run == 6 * 2 * 2

    def outcomes(conn):
        return sorted((c.case, c.compiler, c.level, c.outcome, c.stdout, tuple(c.warnings or ()))
                      for c in ub_report.cells(ub_report.load(conn)))
    assert outcomes(remote) == outcomes(local)


def test_run_ends_with_what_diverged(tmp_path, capsys):
    """A text run closes with the cases that diverge across its own matrix: signed
    overflow in a loop diverges between gcc-12 -O0 and -O2; its fixed twin and an
    unsigned wrap do not."""
    corpus = tmp_path / "c"
    for category, stem, source in (("control", "unsigned-wrap", MINI / "control"),
                                   ("signed-integer-overflow", "loop",
                                    REPO / "corpus" / "signed-integer-overflow")):
        (corpus / category).mkdir(parents=True)
        for f in source.glob(f"{stem}.*"):
            shutil.copy(f, corpus / category)
    db = tmp_path / "ub.db"
    assert main(["--db", str(db), "ub", "run", "--corpus", str(corpus), "--compilers", "gcc-12",
                 "--levels", "O0,O2", "--no-sanitizers", "--no-warnings"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1:] == ["1 of 3 cases diverge across 2 configurations:",
                         "  signed-integer-overflow/loop",
                         "the matrix and each case: warnscope ub report"]
