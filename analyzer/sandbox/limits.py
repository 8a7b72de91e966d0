"""What a sandboxed run may use and how it ended: the limits, the result, and the
pieces both ways of running (the namespace sandbox of :mod:`analyzer.sandbox.runner`, the
plain fallback of :mod:`analyzer.sandbox.plain`) share: the program's environment and
rlimits, its capped output, the status a run ended with."""
from __future__ import annotations

import enum
import os
import resource
import selectors
import signal
from dataclasses import dataclass
from typing import NamedTuple

from warnscope.errors import SandboxUnavailable
from warnscope.measure import Sample

#: How often the memory watchdog looks at the process tree.
WATCH_INTERVAL = 0.02


@dataclass(frozen=True)
class Limits:
    """What one run may use. ``address_space`` None means unlimited (sanitizers);
    ``memory`` caps the resident memory of all the run's processes together."""

    timeout: float = 3.0              # wall-clock seconds
    cpu: int = 4                      # RLIMIT_CPU seconds
    address_space: int | None = 1 << 30
    processes: int = 32               # RLIMIT_NPROC (per uid, or per user namespace)
    file_size: int = 8 << 20          # RLIMIT_FSIZE bytes
    open_files: int = 64              # RLIMIT_NOFILE
    stack: int = 8 << 20              # RLIMIT_STACK: set, not inherited, so a runaway
                                      # recursion ends the same way whoever runs warnscope
    output_cap: int = 64 << 10        # bytes kept of stdout and of stderr each
    memory: int = 1 << 30             # resident bytes, whole process tree
    tmpfs_size: int = 16 << 20        # each private tmpfs (/tmp, /var/tmp, /dev/shm, ...)


class SandboxStatus(enum.StrEnum):
    """How a sandboxed run ended (:func:`status` decides), stored and printed as its word."""

    EXIT = "exit"                          # the program exited (any code)
    SIGNAL = "signal"                      # a signal ended it (or the memory limit did)
    TIMEOUT = "timeout"                    # the time or CPU limit ended it
    OUTPUT_TRUNCATED = "output-truncated"  # it wrote more than the output cap
    TRAP = "trap"                          # a WebAssembly trap ended it (not a signal:
                                           # analyzer.sandbox.wasm's WasmResult.trap says which)


@dataclass(frozen=True, kw_only=True)
class RunResult(Sample):
    """How one run ended, and what it cost: the measured process is a
    :class:`~warnscope.measure.Sample` (``user``, ``sys``, ``wall``, ``maxrss_kb``),
    the one record of a measured process, so a sandboxed run's figures are the same
    figures as a benchmark's. ``status`` is 'exit', 'signal', 'timeout' or
    'output-truncated'; ``limit`` says which limit ended it ('time', 'cpu', 'memory',
    'output'), if one did; ``mode`` is the containment used: 'namespace', or
    'uid'/'process-group' without one."""

    status: SandboxStatus
    exit: int | None
    signal: int | None
    stdout: bytes
    stderr: bytes
    truncated: bool
    uid: int | None = None
    leftovers_killed: int = 0
    limit: str | None = None
    mode: str = "namespace"


class SandboxError(SandboxUnavailable):
    """The sandbox itself could not be set up (not the program's doing)."""


def child_env(home: str, tmp: str, env: dict[str, str] | None) -> dict[str, str]:
    child_env = {"PATH": "/usr/bin:/bin", "HOME": home, "TMPDIR": tmp, "LC_ALL": "C"}
    child_env.update(env or {})
    return child_env


def rlimits(limits: Limits, uid: int | None,
             namespace: bool) -> tuple[tuple[int, int, int], ...]:
    """(resource, soft, hard) for the program.

    The CPU limit's hard value is one second above the soft one: at the soft limit the
    kernel sends SIGXCPU, which says unambiguously that the limit ended the run. With
    soft == hard it sends SIGKILL instead, and the program's CPU time in its rusage can
    read a few milliseconds under the limit, so such a run looked like a crash. A program
    that catches SIGXCPU still dies of SIGKILL a second later."""
    lims = [(resource.RLIMIT_CORE, 0), (resource.RLIMIT_FSIZE, limits.file_size),
            (resource.RLIMIT_NOFILE, limits.open_files), (resource.RLIMIT_STACK, limits.stack)]
    if limits.address_space is not None:
        lims.append((resource.RLIMIT_AS, limits.address_space))
    if uid is not None:
        lims.append((resource.RLIMIT_NPROC, limits.processes))
    elif namespace:
        # Counted per user namespace: the program's processes, plus the zygote's
        # launcher and init and the run's init (analyzer/sandbox/zygote.c).
        lims.append((resource.RLIMIT_NPROC, limits.processes + 3))
    else:
        soft, _ = resource.getrlimit(resource.RLIMIT_NPROC)
        if soft == resource.RLIM_INFINITY:
            lims.append((resource.RLIMIT_NPROC, 4096))
    return ((resource.RLIMIT_CPU, limits.cpu, limits.cpu + 1),
            *((which, value, value) for which, value in lims))


def status(limits: Limits, timed_out: bool, memory_hit: bool, truncated: bool,
            sig: int | None, cpu: float) -> tuple[SandboxStatus, str | None]:
    if timed_out:
        return SandboxStatus.TIMEOUT, "time"
    if sig == signal.SIGXCPU or (sig == signal.SIGKILL and cpu >= limits.cpu and not memory_hit):
        return SandboxStatus.TIMEOUT, "cpu"
    if memory_hit:
        return SandboxStatus.SIGNAL, "memory"
    if truncated:
        return SandboxStatus.OUTPUT_TRUNCATED, "output"
    return (SandboxStatus.SIGNAL if sig is not None else SandboxStatus.EXIT), None


class Read(NamedTuple):
    """What one :func:`read_capped` did."""

    truncated: bool   # the pipe held more than the cap leaves room for: the rest is dropped
    ended: bool       # end of file: the pipe is unregistered from the selector


def read_capped(fd: int, buf: bytearray, cap: int | None, sel: selectors.BaseSelector,
                fileobj) -> Read:
    """Append to ``buf`` what ``fd`` has now (one chunk), keeping it within ``cap`` bytes
    (None: no cap). A non-blocking pipe with nothing in it (EAGAIN) has nothing more now:
    neither its end nor an error. At its end the pipe is unregistered from ``sel``."""
    try:
        chunk = os.read(fd, 65536)
    except BlockingIOError:
        return Read(truncated=False, ended=False)
    if not chunk:
        sel.unregister(fileobj)
        return Read(truncated=False, ended=True)
    room = len(chunk) if cap is None else cap - len(buf)
    buf += chunk[:max(room, 0)]
    return Read(truncated=len(chunk) > room, ended=False)
