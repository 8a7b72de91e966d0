"""Running one build step as a measured process tree.

The build command's ``wait4`` rusage covers it and every descendant it waited for
(RUSAGE_CHILDREN semantics for that one child): make, the shells, the compilers.
Output goes to a file, never a terminal (no colours, no terminal speed in the figures).
"""
from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from flagdb.errors import WarnscopeError

SCHED = {"batch": getattr(os, "SCHED_BATCH", None), "idle": getattr(os, "SCHED_IDLE", None)}
#: variables that would change what a build compiles or bypass the measured compiler
SCRUBBED = {"CC", "CXX", "CPP", "CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "MAKEFLAGS", "MFLAGS",
            "MAKELEVEL", "GCC_COLORS", "DISTCC_HOSTS", "CCACHE_PREFIX", "CMAKE_C_COMPILER_LAUNCHER",
            "CMAKE_CXX_COMPILER_LAUNCHER"}


@dataclass(frozen=True)
class Timed:
    """One measured process tree."""

    user: float
    sys: float
    wall: float
    maxrss_kb: int
    exit: int      # exit code; 128+N for a signal, -1 for a timeout kill
    load1: float   # 1-minute load average when it started

    @property
    def cpu(self) -> float:
        return self.user + self.sys


def build_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of every build step: ccache and distcc kept out (their PATH
    directories dropped, CCACHE_DISABLE=1), C locale (stable diagnostics to count)."""
    env = {k: v for k, v in os.environ.items()
           if k not in SCRUBBED and not k.startswith(("WARNSCOPE_OVERHEAD_", "DISTCC_"))}
    path = [p for p in env.get("PATH", "/usr/bin:/bin").split(":")
            if p and "ccache" not in p and "distcc" not in p]
    env.update(PATH=":".join(path), CCACHE_DISABLE="1", LC_ALL="C", LANG="C")
    env.update(extra or {})
    return env


def validate_sched(nice: int, sched: str | None) -> None:
    if not -20 <= nice <= 19:
        raise WarnscopeError(f"--nice {nice}: expected -20 … 19")
    if sched is not None and SCHED.get(sched) is None:
        raise WarnscopeError(f"--sched {sched}: expected batch or idle (on Linux)")


def run(command: str | list[str], cwd: Path, env: dict[str, str], output: Path,
        nice: int = 0, sched: str | None = None, timeout: float | None = None) -> Timed:
    """Run ``command`` (a shell string or argv) in ``cwd``, stdout and stderr appended to
    ``output``, and measure its process tree."""
    argv = ["/bin/sh", "-c", command] if isinstance(command, str) else command
    policy = SCHED.get(sched) if sched else None

    def child_setup() -> None:
        if nice:
            os.nice(nice)
        if policy is not None:
            os.sched_setscheduler(0, policy, os.sched_param(0))

    load1 = os.getloadavg()[0]
    with open(output, "ab") as out:
        start = time.monotonic()
        try:
            proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out,
                                    stderr=subprocess.STDOUT, start_new_session=True,
                                    preexec_fn=child_setup if (nice or policy is not None) else None)
        except OSError as exc:
            raise WarnscopeError(f"cannot run {argv[0]}: {exc.strerror}") from None
        killed = threading.Event()

        def kill() -> None:
            killed.set()
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout, kill) if timeout else None
        if timer:
            timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        except BaseException:
            kill()  # Ctrl-C: no build is left running behind us
            os.waitpid(proc.pid, 0)
            raise
        finally:
            if timer:
                timer.cancel()
        wall = time.monotonic() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
    code = proc.returncode if proc.returncode >= 0 else 128 - proc.returncode
    if killed.is_set():
        code = -1
    return Timed(user=usage.ru_utime, sys=usage.ru_stime, wall=wall, maxrss_kb=usage.ru_maxrss,
                 exit=code, load1=load1)
