"""The sandbox against hostile programs, compiled for real with gcc-12.

Each program is contained (killed, refused or capped), classified, and leaves no
process and no file behind.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest

from analyzer.sandbox import runner as sandbox
from analyzer.runtime.toolchain import resolve as resolve_compiler
from analyzer.ub.compile import compile_program
from warnscope import processes
from warnscope.paths import cache_dir

HOSTILE = Path(__file__).resolve().parents[1] / "fixtures" / "ub" / "hostile"
REPO = Path(__file__).resolve().parents[2]
LIMITS = sandbox.Limits(timeout=1.0, cpu=2)

pytestmark = pytest.mark.skipif(shutil.which("gcc-12") is None, reason="gcc-12 not installed")


#: descendants of this test process before the test (earlier tests may leave long-lived
#: helpers such as multiprocessing's resource tracker: they are not the run's)
_BEFORE: set[int] = set()


@pytest.fixture(autouse=True)
def _descendants_before():
    _BEFORE.clear()
    _BEFORE.update(processes.descendants(os.getpid()))


@pytest.fixture(autouse=True, params=["namespace", "fallback"])
def mode(request, monkeypatch):
    """Every test twice: with namespaces, and with the fallback used where the kernel
    forbids them (uid pool as root, process group otherwise)."""
    if request.param == "fallback":
        monkeypatch.setattr(sandbox, "_NS_STATE", False)
    else:
        assert sandbox.namespaces_available()
    return request.param


def build(name: str) -> str:
    src = HOSTILE / f"{name}.c"
    b = compile_program(resolve_compiler("gcc-12"), "c", "gnu17", src.name, src.read_bytes(),
                        ["-O0"], [], False)
    assert b.ok, b.log
    return b.binary


def no_processes_left(result: sandbox.RunResult) -> bool:
    """Nothing of the run is alive: no descendant of this process (any mode, root or
    not), and as root no process of the run's pool uid either."""
    from analyzer.sandbox import zygote
    # the worker's zygotes live on between runs: they are the sandbox, not the run's
    if set(processes.descendants(os.getpid())) - _BEFORE - zygote.zygote_pids():
        return False
    return result.uid is None or processes.pids_of_uid(result.uid, keep=-1) == []


def test_infinite_loop_is_a_timeout():
    r = sandbox.run(build("infinite-loop"), limits=LIMITS)
    assert r.status == "timeout"
    assert r.signal == signal.SIGKILL
    assert no_processes_left(r)


def test_fork_bomb_is_contained_and_the_machine_stays_usable():
    r = sandbox.run(build("fork-bomb"), limits=LIMITS)
    assert r.status == "timeout"
    assert r.leftovers_killed > 0          # it did fork, and its children were killed too
    assert r.leftovers_killed <= LIMITS.processes + 2  # +2: the namespace's own processes
    assert no_processes_left(r)
    assert subprocess.run(["true"]).returncode == 0


def test_huge_allocation_is_refused():
    r = sandbox.run(build("huge-alloc"), limits=LIMITS)
    assert (r.status, r.exit, r.stdout) == ("exit", 3, b"allocation refused\n")


def test_output_flood_is_capped_and_killed():
    r = sandbox.run(build("flood"), limits=LIMITS)
    assert r.status == "output-truncated"
    assert r.truncated
    assert len(r.stdout) == LIMITS.output_cap


def test_stack_overflow_is_a_crash():
    r = sandbox.run(build("stack-overflow"), limits=LIMITS)
    assert (r.status, r.signal) == ("signal", signal.SIGSEGV)


def test_sigterm_ignoring_program_and_its_daemon_are_killed():
    r = sandbox.run(build("ignore-term"), limits=LIMITS)
    assert r.status == "timeout"
    assert r.stdout == b"started\n"
    assert r.leftovers_killed >= 1          # the daemonized child, counted
    assert no_processes_left(r)


def test_writes_outside_the_private_dir_are_refused_or_cleaned():
    home, cache = Path.home(), cache_dir("ub")
    stray = Path("/tmp/warnscope-escaped")
    stray.unlink(missing_ok=True)
    r = sandbox.run(build("escape"), limits=LIMITS,
                    env={"ESCAPE_1": str(REPO), "ESCAPE_2": str(cache), "ESCAPE_3": str(home),
                         "ESCAPE_4": "/tmp"})
    lines = r.stdout.decode().splitlines()
    assert lines[:3] == [f"{REPO} refused", f"{cache} refused", f"{home} refused"]
    assert lines[3] == "/tmp written"       # a private /tmp (or the shared one, cleaned) ...
    assert not stray.exists()               # ... so nothing is left there
    assert lines[4] == ". written"          # its own directory is writable
    for place in (REPO, cache, home):
        assert not (place / "warnscope-escaped").exists()


def test_run_measures_the_child():
    r = sandbox.run(build("huge-alloc"), limits=LIMITS)
    assert r.maxrss_kb > 0
    assert r.wall > 0
