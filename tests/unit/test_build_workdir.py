"""Work directories of builds: what a killed run leaves is removed by the next one,
what a living run holds is not."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from analyzer.projects.workdir import LEGACY_AGE_S, WorkDir

HOLD = """
import sys, time
from analyzer.projects.workdir import WorkDir
work = WorkDir("held-")
(work.path / "tree").mkdir()
print(work.path, flush=True)
time.sleep(600)
"""


def _holder(env: dict) -> tuple[subprocess.Popen, str]:
    child = subprocess.Popen([sys.executable, "-c", HOLD], env=env, stdout=subprocess.PIPE, text=True)
    return child, child.stdout.readline().strip()


def test_killed_runs_directory_is_swept_living_ones_are_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("WARNSCOPE_CACHE", str(tmp_path))
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    killed, killed_dir = _holder(env)
    alive, alive_dir = _holder(env)
    try:
        killed.send_signal(signal.SIGKILL)
        killed.wait()
        assert os.path.isdir(killed_dir)          # SIGKILL: nothing could clean up
        legacy = tmp_path / "builds" / "work" / "gcc-12-old"
        legacy.mkdir()
        recent = tmp_path / "builds" / "work" / "gcc-12-recent"
        recent.mkdir()
        old = time.time() - LEGACY_AGE_S - 60
        os.utime(legacy, (old, old))
        with WorkDir("gcc-12-") as work:
            assert work.is_dir()
            assert not os.path.exists(killed_dir)
            assert os.path.isdir(alive_dir) and os.path.isdir(os.path.join(alive_dir, "tree"))
            assert not legacy.exists() and recent.exists()
        assert not work.exists()                   # a normal end removes its own
    finally:
        alive.kill()
        alive.wait()
