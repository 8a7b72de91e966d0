"""Process lifetime of a run: what ``kill -9`` and Ctrl-C of ``warnscope ub run`` leave
behind (nothing), how fast Ctrl-C stops (at once, not after the running cells), and how many
workers ``-j`` may start (the executor alone is in tests/unit/test_executors.py).

The hanging program sleeps instead of spinning, so no CPU limit ends it by itself: only
the runner's own clean-up can.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from warnscope.processes import alive, children, descendants

REPO = Path(__file__).resolve().parents[2]
MINI = Path(__file__).resolve().parents[1] / "fixtures" / "ub" / "mini"

SLEEPER = """/* ub-case
 * category: hang
 * standard: none
 * summary: sleeps forever and ignores SIGTERM
 * ub: no
 */
#include <signal.h>
#include <unistd.h>
int main(void)
{
    signal(SIGTERM, SIG_IGN);
    for (;;)
        pause();
}
"""

needs_gcc = pytest.mark.skipif(shutil.which("gcc-12") is None, reason="needs gcc-12")


def sleeper_corpus(root: Path, sleepers: int = 1) -> Path:
    """The mini corpus plus ``sleepers`` programs that hang without using CPU."""
    shutil.copytree(MINI, root)
    (root / "hang").mkdir()
    for i in range(sleepers):
        (root / "hang" / f"sleep{i}.c").write_text(SLEEPER)
    return root


def start_run(db: Path, corpus: Path, *extra: str) -> subprocess.Popen:
    argv = [sys.executable, "-m", "analyzer", "--db", str(db), "ub", "run", "--corpus",
            str(corpus), "--compilers", "gcc-12", "--levels", "O0,O1", "--no-sanitizers",
            "--no-warnings", "--runs", "1", *extra]
    return subprocess.Popen(argv, cwd=REPO, start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)


def wait_for(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


@needs_gcc
def test_kill_9_of_the_run_leaves_no_process_behind(tmp_path):
    corpus = sleeper_corpus(tmp_path / "c", sleepers=2)
    db = tmp_path / "ub.db"
    proc = start_run(db, corpus, "-j", "3", "--timeout", "60")
    seen: set[int] = set()
    try:
        # Until both sleepers run: every descendant (workers, programs) is recorded.
        def sleepers_running() -> bool:
            seen.update(descendants(proc.pid))
            return len(hanging_programs(proc.pid)) >= 2
        assert wait_for(sleepers_running, 60), "the sleeping programs never started"
        seen.update(descendants(proc.pid))
    finally:
        proc.kill()                                       # kill -9 of the run alone
        proc.wait()
    assert len(seen) >= 4                                  # 3 workers, 2 programs at least
    assert wait_for(lambda: not [p for p in seen if alive(p)], 5), \
        f"still alive after kill -9 of the run: {[p for p in seen if alive(p)]}"


def hanging_programs(run: int) -> list[int]:
    """Programs under test (the sandbox runs every binary as ``prog``) below ``run`` that
    have been running for over a second: the sleepers, not the quick mini programs."""
    with open("/proc/uptime") as f:
        uptime = float(f.read().split()[0])
    found = []
    for pid in descendants(run):
        try:
            with open(f"/proc/{pid}/comm") as f:
                if f.read().strip() != "prog":
                    continue
            with open(f"/proc/{pid}/stat", "rb") as f:
                started = int(f.read().rsplit(b")", 1)[1].split()[19])
        except (OSError, IndexError):
            continue
        if uptime - started / os.sysconf("SC_CLK_TCK") > 1.0:
            found.append(pid)
    return found


@needs_gcc
def test_ctrl_c_stops_at_once_keeps_finished_cells_and_the_rerun_resumes(tmp_path, cell_count):
    corpus = sleeper_corpus(tmp_path / "c", sleepers=2)
    db = tmp_path / "ub.db"
    # A 60 s timeout: waiting for the running cells would take a minute.
    proc = start_run(db, corpus, "-j", "2", "--timeout", "60")
    seen: set[int] = set()
    try:
        def progress() -> bool:
            seen.update(descendants(proc.pid))
            return cell_count(db) >= 3
        assert wait_for(progress, 60), "no cell finished"
        # Wait until a sleeper holds a worker, so an abort has something to cut short.
        assert wait_for(lambda: hanging_programs(proc.pid), 60), "no sleeper started"
        seen.update(descendants(proc.pid))
        start = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)                # what a terminal's Ctrl-C does
        _, err = proc.communicate(timeout=30)
        stopped_after = time.monotonic() - start
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1] == "warnscope: interrupted"
    assert stopped_after < 10, f"Ctrl-C took {stopped_after:.1f} s"
    assert wait_for(lambda: not [p for p in seen if alive(p)], 5)
    kept = cell_count(db)
    total = 8 * 2
    assert 3 <= kept < total
    # The rerun runs only what is missing. A short timeout now: the sleepers hang quickly.
    rerun = start_run(db, corpus, "--timeout", "0.5")
    _, err = rerun.communicate(timeout=120)
    assert rerun.returncode == 0, err
    assert cell_count(db) == total


@needs_gcc
def test_j_is_bounded_by_the_work(tmp_path, cell_count):
    corpus = tmp_path / "c"
    (corpus / "control").mkdir(parents=True)
    for f in (MINI / "control").glob("exit-three*"):
        shutil.copy(f, corpus / "control")
    db = tmp_path / "ub.db"
    proc = start_run(db, corpus, "-j", "100000", "--timeout", "1")
    most = 0
    while proc.poll() is None:
        most = max(most, len([p for p in children(proc.pid) if alive(p)]))
        time.sleep(0.01)
    assert proc.returncode == 0, proc.stderr.read()
    assert cell_count(db) == 2
    assert 1 <= most <= 2                                 # two cells: at most two workers
