"""The namespace sandbox's zygote, seen from the worker, and the /proc probes of a run.

A worker starts one zygote (``sandbox_zygote.c``, built once into the cache) per
system root it runs programs of: the user namespace (when not root), the network,
UTS and IPC namespaces and the read-only root file system are built once, then each
compile or run is a request over a socket, answered by a clone with its own PID,
mount and IPC namespaces (the C file says how). This module starts zygotes, sends
requests and finds the host pid of each run's init; :func:`analyzer.sandbox._run_ns`
supervises the run itself (wall clock, memory, output) as before.

A zygote belongs to the process that started it: a forked worker starts its own
(the socket it inherited is its parent's conversation).
"""
from __future__ import annotations

import array
import hashlib
import os
import select
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from warnscope import tool
from warnscope.errors import SandboxUnavailable
from warnscope.paths import cache_dir

SOURCE = Path(__file__).with_name("sandbox_zygote.c")
#: seconds a zygote may take to build its root and say it is ready
START_TIMEOUT = 20.0
PR_SET_PDEATHSIG = 1


class ZygoteFailed(SandboxUnavailable):
    """The zygote could not be started, or stopped answering."""


def work_base() -> Path:
    """Where compile workspaces are made in the namespace sandbox: the zygote sees this
    directory (and only it) of the host, and binds one workspace of it per run."""
    return cache_dir("sandbox", "work")


def zygote_binary() -> Path:
    """The zygote, built with the machine's cc once per version of its source."""
    source = SOURCE.read_bytes()
    key = hashlib.sha256(source).hexdigest()[:16]
    dest = cache_dir("sandbox", key) / "warnscope-zygote"
    if dest.exists():
        return dest
    return tool.build_helper(SOURCE, dest, what="the sandbox zygote")


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
        return b"".join(os.fsencode(f) + b"\0" for f in fields)

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
        self.sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.proc = subprocess.Popen(
                [str(zygote_binary()), str(theirs.fileno()), staging, system_root or "-",
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
        kids = children(self.proc.pid)
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
        kids = children(self.init_pid)
        return kids[0] if kids else None

    def close(self) -> None:
        """Stop the zygote: closing the socket ends it; SIGKILL makes sure."""
        if self.owner != os.getpid():
            self.sock.close()  # the parent's: not ours to stop
            return
        self.sock.close()
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass


_ZYGOTES: dict[str, Zygote] = {}


def zygote(system_root: str, staging: str) -> Zygote:
    """This process's zygote for ``system_root``, started on first use or again after
    it died."""
    z = _ZYGOTES.get(system_root)
    if z is not None and not z.alive():
        z.close()
        z = None
    if z is None:
        z = _ZYGOTES[system_root] = Zygote(system_root, staging)
    return z


def discard(system_root: str) -> None:
    """Stop a zygote that misbehaved; the next run starts a new one."""
    z = _ZYGOTES.pop(system_root, None)
    if z is not None:
        z.close()


def zygote_pids() -> set[int]:
    """The processes of this process's zygotes (the launcher and its init): long-lived
    helpers of the worker, not anything a run left."""
    return {p for z in _ZYGOTES.values() if z.alive() for p in (z.proc.pid, z.init_pid)}


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


def _prctl_deathsig() -> None:
    """PR_SET_PDEATHSIG(SIGKILL) for the calling process (the plain sandbox's child)."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"prctl: {os.strerror(err)}")


def children(pid: int) -> list[int]:
    """The direct children of ``pid`` (every thread's)."""
    found = []
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as f:
                found += [int(x) for x in f.read().split()]
        except OSError:
            continue
    return found


def probe_children(init_pid: int) -> list[int]:
    """Every live descendant of ``init_pid`` (not itself), from /proc/PID/task/*/children."""
    found, todo = [], [init_pid]
    while todo:
        for kid in children(todo.pop()):
            if _state(kid) not in (b"Z", b"X", None):
                found.append(kid)
            todo.append(kid)
    return found


def _state(pid: int) -> bytes | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


def rss_bytes(pids: list[int]) -> int:
    """Resident memory of ``pids`` together (pages shared between them counted once each)."""
    total = 0
    page = os.sysconf("SC_PAGE_SIZE")
    for pid in pids:
        try:
            with open(f"/proc/{pid}/statm", "rb") as f:
                total += int(f.read().split()[1]) * page
        except (OSError, IndexError, ValueError):
            continue
    return total


def ns_pid(pid: int) -> int | None:
    """The pid of host process ``pid`` in its own (innermost) PID namespace."""
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            for line in f:
                if line.startswith(b"NSpid:"):
                    return int(line.split()[-1])
    except (OSError, ValueError):
        return None
    return None
