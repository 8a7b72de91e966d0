"""Compile workspaces on /dev/shm: each process's own directory, gone when it ends.

The namespace sandbox makes a compile's workspace in a directory of the process's own
on /dev/shm (when that is a tmpfs): made private (``mkdtemp``, 0700), used by a real
gcc-12 compile, removed when the process exits, and -- for a process killed with
``kill -9`` -- removed by the next run's sweep, which leaves the directory of a live
process alone.
"""
from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from analyzer.sandbox import runner as sandbox, zygote

pytestmark = [
    pytest.mark.skipif(shutil.which("gcc-12") is None, reason="gcc-12 not installed"),
    pytest.mark.skipif(not zygote._is_tmpfs(zygote.SHM), reason="no tmpfs on /dev/shm"),
]

#: a process that compiles one program through the sandbox, says its base, and waits
CHILD = """
import sys, time
from analyzer.sandbox import zygote
from analyzer.runtime.toolchain import resolve
from analyzer.ub.compile import compile_program
b = compile_program(resolve("gcc-12"), "c", "gnu17", "x.c", b"int main(void){return 0;}\\n",
                    ["-O0"], [], False)
assert b.ok, b.log
print(zygote.work_base(), flush=True)
if sys.argv[1] == "wait":
    time.sleep(600)
"""


def _child(tmp_path: Path, mode: str) -> subprocess.Popen:
    env = dict(os.environ, WARNSCOPE_CACHE=str(tmp_path / "cache"))
    return subprocess.Popen([sys.executable, "-c", CHILD, mode], env=env, text=True,
                            stdout=subprocess.PIPE, cwd=Path(__file__).resolve().parents[2])


def test_a_process_compiles_in_its_own_private_directory_and_removes_it(tmp_path):
    if not sandbox.namespaces_available():
        pytest.skip("no namespace sandbox here")
    proc = _child(tmp_path, "exit")
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 0
    base = Path(out.strip())
    assert base.parent == zygote.SHM and base.name.startswith(
        f"{zygote.WORK_PREFIX}{proc.pid}-")
    assert not base.exists()  # removed at exit


def test_the_sweep_removes_what_a_killed_process_left_and_keeps_a_live_ones(tmp_path):
    if not sandbox.namespaces_available():
        pytest.skip("no namespace sandbox here")
    live = _child(tmp_path, "wait")
    killed = _child(tmp_path, "wait")
    try:
        live_base = Path(live.stdout.readline().strip())
        killed_base = Path(killed.stdout.readline().strip())
        assert stat.S_IMODE(os.stat(live_base).st_mode) == 0o700
        killed.send_signal(signal.SIGKILL)
        killed.wait(timeout=30)
        assert killed_base.is_dir()                  # kill -9: nothing could remove it
        (killed_base / "left.o").write_bytes(b"x")   # with a file in it
        sandbox.kill_leftovers()                     # what the next run does first
        assert not killed_base.exists()
        assert live_base.is_dir()                    # its process still runs
    finally:
        for proc in (live, killed):
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        sandbox.kill_leftovers()
    assert not live_base.exists()


def test_the_sweep_leaves_what_is_not_a_workspace_directory_of_this_user():
    other = Path(tempfile.mkdtemp(prefix="warnscope-work-notapid-", dir=zygote.SHM))
    dead_pid_file = zygote.SHM / f"{zygote.WORK_PREFIX}999999999-file"
    dead_pid_file.write_text("not a directory")
    try:
        zygote.sweep_work_bases()
        assert other.is_dir() and dead_pid_file.is_file()
    finally:
        shutil.rmtree(other, ignore_errors=True)
        dead_pid_file.unlink(missing_ok=True)
