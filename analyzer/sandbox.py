"""Run one untrusted program and always get control back.

Corpus programs are hostile by design: they loop forever, fork without end,
allocate gigabytes, print without end, ignore SIGTERM or try to write where they
should not. Containment, in layers:

* As root, the program runs under a dedicated unprivileged uid taken from a
  pool (one uid per concurrent run, claimed with a lock file), so that
  RLIMIT_NPROC is enforced (it is not for root), the file system's permissions
  keep it out of the repository, the cache and root's home, and at the end every
  process of that uid is killed -- descendants that ``setsid`` away or double
  fork included. Without root we fall back to the process group alone.
* rlimits: CPU seconds, address space (off for sanitizer builds, which reserve
  terabytes of shadow memory), processes, file size, open files, no core dumps.
* A private temp dir, owned by the uid, as the working directory and ``TMPDIR``;
  the binary is copied into it, so the program cannot touch the cached copy.
* stdout and stderr are read with a cap; past the cap the run is killed.
* A wall-clock timeout; the whole process group, then the whole uid, is killed.

Children are measured with ``os.wait4`` (user, sys, max RSS) and a monotonic
clock.
"""
from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import resource
import selectors
import shutil
import signal
import subprocess
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

#: First uid of the pool; uids are used numerically and need no passwd entry.
UID_BASE = 64100
UID_COUNT = 64
LOCK_DIR = Path("/run/warnscope-sandbox") if os.geteuid() == 0 else None


@dataclass(frozen=True)
class Limits:
    """What one run may use. ``address_space`` None means unlimited (sanitizers)."""

    timeout: float = 3.0              # wall-clock seconds
    cpu: int = 4                      # RLIMIT_CPU seconds
    address_space: int | None = 1 << 30
    processes: int = 32               # RLIMIT_NPROC (per uid)
    file_size: int = 8 << 20          # RLIMIT_FSIZE bytes
    open_files: int = 64              # RLIMIT_NOFILE
    output_cap: int = 64 << 10        # bytes kept of stdout and of stderr each


@dataclass
class RunResult:
    """How one run ended. ``status`` is 'exit', 'signal', 'timeout' or 'output-truncated'."""

    status: str
    exit: int | None
    signal: int | None
    stdout: bytes
    stderr: bytes
    truncated: bool
    wall: float
    user: float
    sys: float
    maxrss_kb: int
    uid: int | None = None
    leftovers_killed: int = 0


def run(binary: str | Path, args: Sequence[str] = (), limits: Limits = Limits(),
        env: dict[str, str] | None = None) -> RunResult:
    """Copy ``binary`` into a private temp dir and run it there under ``limits``."""
    _become_subreaper()
    with _claim_uid() as uid, _private_dir(uid) as workdir:
        prog = workdir / "prog"
        shutil.copyfile(binary, prog)
        os.chmod(prog, 0o755)
        if uid is not None:
            os.chown(prog, 0, 0)  # readable and executable, not writable, by the uid
        try:
            return _run_in(prog, list(args), workdir, uid, limits, env)
        finally:
            if uid is not None:
                _remove_strays(uid)


def _run_in(prog: Path, args: list[str], workdir: Path, uid: int | None, limits: Limits,
            env: dict[str, str] | None) -> RunResult:
    child_env = {"PATH": "/usr/bin:/bin", "HOME": str(workdir), "TMPDIR": str(workdir),
                 "LC_ALL": "C"}
    child_env.update(env or {})
    start = time.monotonic()
    proc = subprocess.Popen(
        [str(prog), *args], cwd=workdir, env=child_env,
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True, close_fds=True,
        preexec_fn=lambda: _enter_sandbox(uid, limits),
    )
    out, err = bytearray(), bytearray()
    truncated = timed_out = False
    status_word = rusage = None
    sel = selectors.DefaultSelector()
    for stream in (proc.stdout, proc.stderr):
        os.set_blocking(stream.fileno(), False)
        sel.register(stream, selectors.EVENT_READ)
    # A pidfd becomes readable when the program exits, so the loop below never polls.
    pidfd = _pidfd_open(proc.pid)
    if pidfd is not None:
        sel.register(pidfd, selectors.EVENT_READ)
    deadline = start + limits.timeout
    try:
        while True:
            if status_word is None:
                pid, st, ru = os.wait4(proc.pid, os.WNOHANG)
                if pid:
                    status_word, rusage = st, ru
                    if pidfd is not None:
                        sel.unregister(pidfd)
                    # The program is gone; whatever it left behind holding our pipes goes too.
                    _kill_all(proc.pid, uid)
            streams_open = any(k.fileobj in (proc.stdout, proc.stderr)
                               for k in sel.get_map().values())
            if not streams_open and status_word is not None:
                break
            now = time.monotonic()
            if now >= deadline:
                timed_out = True
                break
            if sel.get_map():
                events = sel.select(timeout=min(0.05, deadline - now))
            else:  # no pidfd, pipes closed, program still running
                time.sleep(0.005)
                events = []
            for key, _ in events:
                if key.fileobj is not proc.stdout and key.fileobj is not proc.stderr:
                    continue  # the pidfd: reaped at the top of the loop
                buf = out if key.fileobj is proc.stdout else err
                try:
                    chunk = os.read(key.fd, 65536)
                except BlockingIOError:
                    continue
                if not chunk:
                    sel.unregister(key.fileobj)
                    continue
                room = limits.output_cap - len(buf)
                buf += chunk[:max(room, 0)]
                if len(chunk) > room:
                    truncated = True
            if truncated:
                break
    finally:
        if pidfd is not None:
            os.close(pidfd)
        leftovers = _kill_all(proc.pid, uid)
        if status_word is None:
            _, status_word, rusage = os.wait4(proc.pid, 0)
        proc.returncode = 0  # reaped by us; keep Popen from waiting again
        sel.close()
        proc.stdout.close()
        proc.stderr.close()
    wall = time.monotonic() - start
    exit_code = os.WEXITSTATUS(status_word) if os.WIFEXITED(status_word) else None
    sig = os.WTERMSIG(status_word) if os.WIFSIGNALED(status_word) else None
    cpu = rusage.ru_utime + rusage.ru_stime
    if timed_out or sig == signal.SIGXCPU or (sig == signal.SIGKILL and cpu >= limits.cpu):
        status = "timeout"
    elif truncated:
        status = "output-truncated"
    elif sig is not None:
        status = "signal"
    else:
        status = "exit"
    return RunResult(status=status, exit=exit_code, signal=sig, stdout=bytes(out),
                     stderr=bytes(err), truncated=truncated, wall=wall,
                     user=rusage.ru_utime, sys=rusage.ru_stime, maxrss_kb=rusage.ru_maxrss,
                     uid=uid, leftovers_killed=leftovers)


def _pidfd_open(pid: int) -> int | None:
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def _enter_sandbox(uid: int | None, limits: Limits) -> None:
    """In the child, before exec: limits first (as root they cannot be raised back), then the uid."""
    def lim(which: int, value: int) -> None:
        resource.setrlimit(which, (value, value))

    for sig in (signal.SIGINT, signal.SIGQUIT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)  # the program starts with default dispositions
    lim(resource.RLIMIT_CORE, 0)
    lim(resource.RLIMIT_CPU, limits.cpu)
    lim(resource.RLIMIT_FSIZE, limits.file_size)
    lim(resource.RLIMIT_NOFILE, limits.open_files)
    if limits.address_space is not None:
        lim(resource.RLIMIT_AS, limits.address_space)
    if uid is not None:
        lim(resource.RLIMIT_NPROC, limits.processes)
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)
    else:
        soft, hard = resource.getrlimit(resource.RLIMIT_NPROC)
        if soft == resource.RLIM_INFINITY:
            lim(resource.RLIMIT_NPROC, 4096)


def _kill_all(pid: int, uid: int | None) -> int:
    """Kill the process group and, under a sandbox uid, every process of that uid.

    Returns how many processes other than the program itself were still there.
    """
    if pid > 0:
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    if uid is None:
        return 0
    killed = 0
    for _ in range(50):
        pids = [p for p in _pids_of(uid, keep=pid) if p != pid]
        if not pids:
            break
        killed = max(killed, len(pids))
        _kill_as(uid)
        time.sleep(0.01)
    return killed


def _kill_as(uid: int) -> None:
    """kill(-1, SIGKILL) from a process running as ``uid``: the kernel then signals
    every process of that uid in one sweep, which a fork bomb cannot outrun."""
    child = os.fork()
    if child == 0:
        try:
            os.setgid(uid)
            os.setuid(uid)
            os.kill(-1, signal.SIGKILL)
        finally:
            os._exit(0)
    os.waitpid(child, 0)


#: World-writable places a sandboxed program could leave files in.
SHARED_TMP = ("/tmp", "/var/tmp", "/dev/shm")


def _remove_strays(uid: int) -> None:
    """Remove what the uid left in world-writable directories outside its own."""
    for base in SHARED_TMP:
        try:
            entries = list(os.scandir(base))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.stat(follow_symlinks=False).st_uid != uid:
                    continue
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path, ignore_errors=True)
                else:
                    os.unlink(entry.path)
            except OSError:
                continue


def _pids_of(uid: int, keep: int) -> list[int]:
    """Live processes of ``uid``; its zombies that are ours to reap are reaped on the way
    (they would still count against RLIMIT_NPROC for the next run on this uid)."""
    found = []
    me = os.getpid()
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            if entry.stat().st_uid != uid:
                continue
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            state, ppid = fields[0], int(fields[1])
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
        if state in (b"Z", b"X"):
            if ppid == me and int(entry.name) != keep:  # ``keep``: the program, reaped by wait4
                try:
                    os.waitpid(int(entry.name), os.WNOHANG)
                except ChildProcessError:
                    pass
            continue
        found.append(int(entry.name))
    return found


def _become_subreaper() -> None:
    """Orphans of sandboxed programs are re-parented to us rather than to init, so we
    can reap them at once (PR_SET_CHILD_SUBREAPER, Linux 3.4+)."""
    global _SUBREAPER
    if _SUBREAPER:
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass
    _SUBREAPER = True


_SUBREAPER = False


def kill_leftovers() -> int:
    """Kill what runs under any pool uid that no run holds: programs of a run that was
    itself killed (kill -9) before it could clean up. Returns how many were killed."""
    if LOCK_DIR is None or not LOCK_DIR.exists():
        return 0
    killed = 0
    for uid in range(UID_BASE, UID_BASE + UID_COUNT):
        fd = os.open(LOCK_DIR / str(uid), os.O_CREAT | os.O_RDWR, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        try:
            killed += _kill_all(-1, uid)
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
    return killed


@contextmanager
def _claim_uid() -> Iterator[int | None]:
    """A uid of the pool that no other run on this host is using, held by a lock file."""
    if LOCK_DIR is None:
        yield None
        return
    LOCK_DIR.mkdir(mode=0o700, exist_ok=True)
    while True:
        for uid in range(UID_BASE, UID_BASE + UID_COUNT):
            fd = os.open(LOCK_DIR / str(uid), os.O_CREAT | os.O_RDWR, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                os.close(fd)
                if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
                    continue
                raise
            try:
                _kill_all(-1, uid)  # a crashed earlier holder may have left processes
                yield uid
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
                os.close(fd)
            return
        time.sleep(0.05)


@contextmanager
def _private_dir(uid: int | None) -> Iterator[Path]:
    """A fresh directory owned by the sandbox uid; removed, with anything in it, afterwards."""
    path = Path(tempfile.mkdtemp(prefix="warnscope-run-"))
    try:
        if uid is not None:
            os.chown(path, uid, uid)
        os.chmod(path, 0o700)
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
