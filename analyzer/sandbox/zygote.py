"""The namespace sandbox's zygote, seen from the worker.

A worker starts one zygote (``zygote.c``, built once into the cache) per
system root it runs programs of: the user namespace (when not root), the network,
UTS and IPC namespaces and the read-only root file system are built once, then each
compile or run is a request over a socket, answered by a clone with its own PID,
mount and IPC namespaces (the C file says how). This module starts zygotes, sends
requests and finds the host pid of each run's init; :func:`analyzer.sandbox.runner._run_ns`
supervises the run itself (wall clock, memory, output) as before.

A zygote belongs to the process that started it: a forked worker starts its own
(the socket it inherited is its parent's conversation).
"""
from __future__ import annotations

import array
import atexit
import hashlib
import os
import select
import shutil
import signal
import socket
import stat
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from warnscope import processes, tool
from warnscope.errors import NotInstalled, SandboxUnavailable, ToolFailed
from warnscope.paths import cache_dir

SOURCE = Path(__file__).with_name("zygote.c")
#: seconds a zygote may take to build its root and say it is ready
START_TIMEOUT = 20.0


class ZygoteFailed(SandboxUnavailable):
    """The zygote could not be started, or stopped answering."""


#: A memory file system every user may write to, for this process's compile workspaces.
SHM = Path("/dev/shm")
WORK_PREFIX = "warnscope-work-"
#: this process's workspace directory (per pid: a forked worker makes its own)
_BASES: dict[int, Path] = {}


def work_base() -> Path:
    """Where compile workspaces are made in the namespace sandbox: the zygote sees this
    directory (and only it) of the host, and binds one workspace of it per run.

    A directory of this process's own on /dev/shm when that is a tmpfs (made by
    ``mkdtemp``: mode 0700, a name nobody could have prepared), removed when the process
    ends (:func:`close_all`; a worker stopped by SIGTERM: :func:`remove_work_base`) or, after ``kill -9``, by the next run
    (:func:`sweep_work_bases`): a compiler's output written there, read back and
    removed costs no file system journal (whole runs 1.4 % faster, median of 4 rounds,
    than with the workspaces in the cache's directory on disk; bench/README). Else
    that directory."""
    base = _BASES.get(os.getpid())
    if base is None:
        base = _BASES[os.getpid()] = _new_work_base()
    return base


def _new_work_base() -> Path:
    if _is_tmpfs(SHM):
        try:
            return Path(tempfile.mkdtemp(prefix=f"{WORK_PREFIX}{os.getpid()}-", dir=SHM))
        except OSError:
            pass
    return cache_dir("sandbox", "work")


def _is_tmpfs(path: Path) -> bool:
    """Whether ``path`` is the mount point of a tmpfs (from /proc/self/mounts)."""
    try:
        with open("/proc/self/mounts", encoding="utf-8", errors="replace") as f:
            return any(fields[1:3] == [str(path), "tmpfs"]
                       for fields in (line.split() for line in f))
    except OSError:
        return False


def remove_work_base() -> None:
    """Remove this process's workspace directory on /dev/shm (and what a compile still
    running at an abort left in it)."""
    base = _BASES.pop(os.getpid(), None)
    if base is not None and base.parent == SHM:
        shutil.rmtree(base, ignore_errors=True)


def sweep_work_bases() -> int:
    """Remove the workspace directories on /dev/shm of this user's processes that are
    gone (killed before they could remove their own). Returns how many."""
    removed = 0
    try:
        entries = list(os.scandir(SHM))
    except OSError:
        return 0
    for entry in entries:
        if not entry.name.startswith(WORK_PREFIX):
            continue
        pid = entry.name[len(WORK_PREFIX):].partition("-")[0]
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not (pid.isdigit() and stat.S_ISDIR(st.st_mode) and st.st_uid == os.geteuid()):
            continue
        try:
            os.kill(int(pid), 0)
            continue  # its process still runs
        except ProcessLookupError:
            pass
        except PermissionError:
            continue
        shutil.rmtree(entry.path, ignore_errors=True)
        removed += 1
    return removed


#: The zygote is linked statically where a static C library is installed: no dynamic
#: loader, and no lazy binding redone in each forked run (about 0.1 ms less CPU per
#: run, measured in bench/bench_sandbox.py); else against the shared one. -O1: its time
#: is in system calls, and -O1 builds in 0.16 s against -O2's 0.21 s on a cold start's
#: critical path. Both are part of its cache key.
OPTIMIZE = ("-O1",)
STATIC = (*OPTIMIZE, "-static")
#: The build :func:`start_build` started, and the process that started it.
_PENDING: tuple[int, "tool.HelperBuild"] | None = None


def _zygote_path() -> Path:
    key = hashlib.sha256(SOURCE.read_bytes() + repr((STATIC, OPTIMIZE)).encode())
    return cache_dir("sandbox", key.hexdigest()[:16]) / "warnscope-zygote"


def start_build() -> None:
    """Start building the zygote now if it is not built yet, without waiting: a run
    starts this first and reads its corpus meanwhile (the build is the larger part of
    a cold start). :func:`zygote_binary` collects it; a build nobody collects is
    cancelled at exit."""
    global _PENDING
    if _PENDING is None and not _zygote_path().exists():
        try:
            _PENDING = (os.getpid(), tool.HelperBuild(SOURCE, _zygote_path(), STATIC,
                                                      what="the sandbox zygote"))
        except (NotInstalled, ToolFailed):
            pass  # no C compiler: zygote_binary says so when a run needs it


def zygote_binary() -> Path:
    """The zygote, built with the machine's cc once per version of its source: the
    build :func:`start_build` started, else one started now; statically, else (no
    static C library) against the shared one."""
    global _PENDING
    dest = _zygote_path()
    pending, _PENDING = _PENDING, None
    if pending is not None and pending[0] != os.getpid():
        pending = None  # the parent's, inherited by a fork
    if pending is None:
        if dest.exists():
            return dest
        pending = (os.getpid(), tool.HelperBuild(SOURCE, dest, STATIC, what="the sandbox zygote"))
    try:
        return pending[1].result()
    except (NotInstalled, ToolFailed):  # e.g. no static C library: against the shared one
        return tool.build_helper(SOURCE, dest, OPTIMIZE, what="the sandbox zygote")


def _cancel_pending() -> None:
    global _PENDING
    pending, _PENDING = _PENDING, None
    if pending is not None and pending[0] == os.getpid():
        pending[1].cancel()


atexit.register(_cancel_pending)


@dataclass(frozen=True)
class Request:
    """One compile or run: what the zygote's clone sets up before it execs ``argv``.
    ``host_dir`` (a directory of :func:`work_base`) is bound at /work; else ``copy_in``
    (a host file) is copied into a fresh /work as ``copy_name``; with neither, /work is
    fresh and empty."""

    argv: tuple[str, ...]
    env: dict[str, str]
    uid: int | None
    tmpfs_size: int
    rlimits: tuple[tuple[int, int, int], ...]
    host_dir: str | None = None
    copy_in: str | None = None
    copy_name: str = ""

    def encode(self) -> bytes:
        fields = ["run", str(-1 if self.uid is None else self.uid), str(self.tmpfs_size),
                  self._work(), str(len(self.rlimits)),
                  *(str(v) for triple in self.rlimits for v in triple),
                  str(len(self.argv)), *self.argv,
                  str(len(self.env)), *(f"{k}={v}" for k, v in self.env.items())]
        return os.fsencode("\0".join(fields) + "\0")

    def _work(self) -> str:
        if self.host_dir is not None:
            path = Path(self.host_dir)
            if path.parent != work_base():
                raise ValueError(f"{path} is not a workspace of {work_base()}")
            return "@" + path.name
        return self.copy_name if self.copy_in is not None else "+"

    def open_data(self) -> int:
        """The descriptor the zygote gets with the request (the file to copy in)."""
        if self.copy_in is not None and self.host_dir is None:
            return os.open(self.copy_in, os.O_RDONLY | os.O_CLOEXEC)
        return os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)


class Zygote:
    """One running zygote for one system root ('' the host's)."""

    def __init__(self, system_root: str, staging: str):
        self.system_root = system_root
        self.owner = os.getpid()
        try:
            binary = zygote_binary()
        except (NotInstalled, ToolFailed) as exc:  # no C compiler: no zygote, no namespace sandbox
            raise ZygoteFailed(f"sandbox: {exc}") from exc
        self.sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.proc = subprocess.Popen(
                [str(binary), str(theirs.fileno()), staging, system_root or "-",
                 "0" if os.geteuid() == 0 else "1", str(os.getpid()), str(work_base())],
                pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        except OSError as exc:
            self.sock.close()
            raise ZygoteFailed(f"sandbox: cannot start the zygote: {exc}") from exc
        finally:
            theirs.close()
        r, _, _ = select.select([self.sock], [], [], START_TIMEOUT)
        answer = self.sock.recv(4096).decode("utf-8", "replace").strip() if r else ""
        if answer != "R":
            self.close()
            raise ZygoteFailed("sandbox: " + (answer[2:] if answer.startswith("E ")
                                              else "the zygote did not start"))
        kids = processes.children(self.proc.pid)
        if len(kids) != 1:
            self.close()
            raise ZygoteFailed("sandbox: the zygote's init is missing")
        self.init_pid = kids[0]

    def alive(self) -> bool:
        return self.owner == os.getpid() and self.proc.poll() is None

    def send(self, request: Request, msg_w: int, out_w: int, err_w: int) -> None:
        """Hand a run to the zygote; its answers arrive on the pipe of ``msg_w``."""
        data = request.open_data()
        try:
            fds = array.array("i", [msg_w, out_w, err_w, data])
            self.sock.sendmsg([request.encode()], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)])
        except OSError as exc:
            raise ZygoteFailed(f"sandbox: the zygote stopped answering ({exc})") from exc
        finally:
            os.close(data)

    def run_init(self) -> int | None:
        """The host pid of the current run's init (the zygote's one child), if alive."""
        kids = processes.children(self.init_pid)
        return kids[0] if kids else None

    def close(self) -> None:
        """Stop the zygote: closing the socket ends it, and its launcher with it, each
        having reaped what it started (so their CPU reaches this process's rusage);
        SIGKILL if it does not end at once."""
        self.sock.close()
        if self.owner != os.getpid():
            return  # the parent's: not ours to stop
        try:
            self.proc.wait(timeout=2)
            return
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass


#: Zygotes are per thread: a zygote serves one run at a time, and a Dask worker runs
#: tasks in several threads of one process.
_LOCAL = threading.local()
#: every zygote started in this process, for :func:`zygote_pids`
_ALL: list[Zygote] = []


def _mine() -> dict[str, Zygote]:
    if getattr(_LOCAL, "pid", None) != os.getpid():  # a forked child starts afresh
        _LOCAL.pid, _LOCAL.zygotes = os.getpid(), {}
    return _LOCAL.zygotes


def zygote(system_root: str, staging: Callable[[], str]) -> Zygote:
    """This thread's zygote for ``system_root``, started on first use or again after it
    died (on the empty directory ``staging()``)."""
    mine = _mine()
    z = mine.get(system_root)
    if z is not None and not z.alive():
        discard(system_root)
        z = None
    if z is None:
        z = mine[system_root] = Zygote(system_root, staging())
        _ALL.append(z)
    return z


def discard(system_root: str) -> None:
    """Stop this thread's zygote for ``system_root`` (it misbehaved, or the work is
    done); the next run starts a new one."""
    z = _mine().pop(system_root, None)
    if z is not None:
        z.close()
        if z in _ALL:
            _ALL.remove(z)


def discard_all() -> None:
    """Stop this thread's zygotes: they are reaped, and their CPU counted, now."""
    for root in list(_mine()):
        discard(root)


def close_all() -> None:
    """Stop every zygote of this process (all threads'), each reaping what it started:
    at exit, so that their CPU reaches this process's rusage and no zygote is left to
    die of its parent's death signal; then remove this process's workspace directory."""
    for z in list(_ALL):
        if z.owner == os.getpid():
            z.close()
            _ALL.remove(z)
    _mine().clear()
    remove_work_base()


atexit.register(close_all)


def zygote_pids() -> set[int]:
    """The processes of this process's zygotes (the launcher and its init): long-lived
    helpers of the worker, not anything a run left."""
    return {p for z in list(_ALL) if z.alive() for p in (z.proc.pid, z.init_pid)}


def read_messages(fd: int, deadline: float, first: bool = False) -> tuple[bytes, bool]:
    """What is left on a run's message pipe until its end of file (or ``deadline``);
    True when the end was reached. ``first``: return after the first chunk."""
    got = bytearray()
    while not (first and got):
        left = deadline - time.monotonic()
        if left <= 0:
            return bytes(got), False
        r, _, _ = select.select([fd], [], [], left)
        if not r:
            continue
        try:
            chunk = os.read(fd, 4096)
        except BlockingIOError:
            continue
        if not chunk:
            return bytes(got), True
        got += chunk
    return bytes(got), False
