"""Run one untrusted program (or compile one) and always get control back.

Corpus programs are hostile by design: they loop forever, fork without end,
allocate gigabytes, print without end, ignore SIGTERM, open sockets, or try to
write where they should not. Their compiles are untrusted too (``#include
"/dev/zero"``, ``.incbin "/etc/shadow"``). Containment, in layers:

* Namespaces, when the kernel allows them (as root, or through a user namespace
  without root): no network at all (a new network namespace, loopback down), a
  minimal root file system (system directories and /dev read-only, a fresh
  /proc, the run's directory at /work) in which /tmp, /var/tmp, /dev/shm and
  /run/lock are private size-capped tmpfs that vanish with the run, new IPC
  objects, and a PID namespace whose init is killed at the end: every process of
  the run dies at once, and the ones that were still there are counted
  (``leftovers_killed``). What is the same for every run -- the user, network
  and UTS namespaces, the read-only root -- is built once per worker by a zygote
  (``zygote.c``, driven by :mod:`analyzer.sandbox.zygote`); each run is a
  clone of it with its own PID, mount and IPC namespaces, so nothing of one run
  (processes, files, IPC objects, cwd, rlimits) reaches the next, and no Python
  starts or forks on the way to the program.
* As root, the program runs under a dedicated unprivileged uid taken from a
  pool (one uid per worker thread, claimed with a lock file), so that RLIMIT_NPROC is
  enforced and root-only files stay unreadable.
* rlimits: CPU seconds, address space (off for sanitizer builds, which reserve
  terabytes of shadow memory), processes, file size, open files, no core dumps;
  and a resident-memory cap over the whole process tree that also holds for
  sanitizer builds (a watchdog polling /proc).
* stdout and stderr are read with a cap; past the cap the run is killed.
* A wall-clock timeout; the whole namespace (or process group and uid) is killed.
* PR_SET_PDEATHSIG on every sandbox process (the zygote's too): they die with the
  worker, whatever kills it; a start-up sweep (:func:`kill_leftovers`) catches the rest.

A compiler of a prepared Debian root (:mod:`analyzer.runtime.roots`) compiles, and its
programs run, in the same sandbox with ``root=``: the system directories bound into
the sandbox are the root's instead of the host's, so the program runs against the
root's own loader and libc; everything else (uid, limits, tmpfs, PID namespace, no
network) is unchanged. That needs namespaces.

Without namespaces (a container that forbids them) it falls back to the uid
(root, claimed per run) or the process group alone, rlimits and the timeout, in a
private temp dir, cleaning the shared temp directories afterwards
(:mod:`analyzer.sandbox.plain`).

Children are measured with ``os.wait4`` (user, sys, max RSS) and a monotonic
clock.
"""
from __future__ import annotations

import dataclasses

import fcntl
import os
import selectors
import shutil
import signal
import stat
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Sequence

from warnscope import processes
from warnscope.errors import NotInstalled, ToolFailed
from warnscope.locks import flocked
from warnscope.paths import cache_dir

from analyzer.sandbox import plain, zygote
from analyzer.sandbox.limits import (WATCH_INTERVAL, Limits, RunResult, SandboxError, SandboxStatus,
                                     child_env, read_capped, rlimits, status)

#: First uid of the pool; uids are used numerically and need no passwd entry.
UID_BASE = 64100
UID_COUNT = 64
LOCK_DIR = Path("/run/warnscope-sandbox") if os.geteuid() == 0 else None
#: the memory watchdog's interval (WATCH_INTERVAL) doubles after each look up to this
WATCH_MAX = 0.08
#: Seconds a run's init has, once asked, to kill and reap what is left before it is
#: killed itself (then the kernel reaps the rest, and their CPU is nobody's).
END_GRACE = 2.0


def run(binary: str | Path, args: Sequence[str] = (), limits: Limits = Limits(),
        env: dict[str, str] | None = None, root: str | None = None,
        emulator: Sequence[str] = ()) -> RunResult:
    """Run a copy of ``binary`` under ``limits``; it sees its own directory as /work.
    ``root``: a Debian root whose system directories the program sees instead of the
    host's (a program built by that root's compiler). ``emulator``: the command a
    program of another target runs under (``/usr/bin/qemu-aarch64 -L
    /usr/aarch64-linux-gnu``), a system program run inside the same sandbox, so the
    program's limits, timeout and accounting are the emulator's with it."""
    processes.become_subreaper()
    argv = [*emulator, "./prog", *args]
    if emulator and limits.address_space is not None:
        # qemu-user reserves the guest's whole address space up front (4 GiB for a
        # 32-bit guest): the address-space limit would stop it before the program
        # starts. The resident-memory cap of the whole run still holds.
        limits = dataclasses.replace(limits, address_space=None)
    with _run_uid() as uid:
        if namespaces_available():
            return _run_ns(argv, uid, limits, env, host_dir=None,
                           copy_in=((str(binary), "prog"),), root=root)
        _no_root_without_namespaces(root)
        with _private_dir(uid) as workdir:
            prog = workdir / "prog"
            shutil.copyfile(binary, prog)
            os.chmod(prog, 0o755)
            if uid is not None:
                os.chown(prog, 0, 0)  # readable and executable, not writable, by the uid
            try:
                return plain.run(argv, workdir, uid, limits, env)
            finally:
                if uid is not None:
                    plain.remove_strays(uid)


class Workspace:
    """A directory the sandboxed command may write (its cwd), that the caller reads back:
    how a compile gets its input in and its binary out."""

    def __init__(self, path: Path, uid: int | None):
        self.path = path
        self.uid = uid

    def run(self, argv: Sequence[str], limits: Limits,
            env: dict[str, str] | None = None, root: str | None = None) -> RunResult:
        """Run ``argv`` (file names relative to the workspace) in the sandbox; ``root``
        as for :func:`run` (``argv[0]`` is then a path inside that root)."""
        if namespaces_available():
            return _run_ns(list(argv), self.uid, limits, env, host_dir=str(self.path),
                           copy_in=(), root=root)
        _no_root_without_namespaces(root)
        try:
            return plain.run(list(argv), self.path, self.uid, limits, env)
        finally:
            if self.uid is not None:
                plain.remove_strays(self.uid, keep=self.path)

    def read(self, name: str) -> bytes | None:
        """A regular file the command wrote, never through a symbolic link it planted."""
        try:
            fd = os.open(self.path / name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            return None
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                return None
            return f.read()


@contextmanager
def workspace() -> Iterator[Workspace]:
    """A claimed uid (as root) and a fresh directory it owns, removed afterwards."""
    processes.become_subreaper()
    with _run_uid() as uid, _private_dir(
            uid, zygote.work_base() if namespaces_available() else None) as path:
        yield Workspace(path, uid)


@contextmanager
def _run_uid() -> Iterator[int | None]:
    """The pool uid of a run (as root). In the namespace sandbox it is one uid held by
    this thread of this process for its whole life: a run's processes cannot outlive its PID namespace
    nor its files its tmpfs, so nothing of one run is left under the uid for the next.
    Without namespaces, a uid is claimed per run and swept when claimed."""
    if namespaces_available():
        yield _held_uid()
    else:
        with claim_uid() as uid:
            yield uid


#: .pid, .uid: the uid this thread holds (per thread, as the zygotes are)
_HELD = threading.local()


def _held_uid() -> int | None:
    """This thread's uid of the pool, claimed on first use. The lock's descriptor stays
    open for the life of the process and is never unlocked explicitly: a forked child
    inherits it, and an explicit unlock there would release the parent's claim; the
    child claims a uid of its own."""
    if LOCK_DIR is None:
        return None
    if getattr(_HELD, "pid", None) == os.getpid():
        return _HELD.uid
    LOCK_DIR.mkdir(mode=0o700, exist_ok=True)
    while True:
        for uid in range(UID_BASE, UID_BASE + UID_COUNT):
            fd = os.open(LOCK_DIR / str(uid), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            plain.kill_all(-1, uid)  # a crashed earlier holder may have left processes
            _HELD.pid, _HELD.uid = os.getpid(), uid
            return uid
        time.sleep(0.05)


def prepare_soon() -> None:
    """Start building what :func:`prepare` needs, without waiting for it: called first
    by a command that will run programs, so that the build overlaps its reading of the
    input."""
    if os.environ.get("WARNSCOPE_SANDBOX") != "plain":
        zygote.start_build()


def prepare() -> None:
    """What every worker needs built before it forks (the namespace sandbox's zygote
    binary): built once by the caller, not raced for by each worker, and no zygote
    started in the caller, which runs nothing itself. A failure here is the sandbox's
    to report at its first run."""
    if os.environ.get("WARNSCOPE_SANDBOX") == "plain":
        return
    _zygote_built()


def _zygote_built() -> None:
    """The zygote binary built, or one line of error: never a silent fall back to the
    plain sandbox (no mount, network or user namespace) for want of a C compiler; doing
    without is the user's choice to make."""
    try:
        zygote.zygote_binary()
    except (NotInstalled, ToolFailed) as exc:
        raise SandboxError(f"sandbox: {exc}; or WARNSCOPE_SANDBOX=plain to run programs "
                           "without namespaces (the user's own view of files and "
                           "network)") from None


def _no_root_without_namespaces(root: str | None) -> None:
    if root is not None:
        raise SandboxError(f"sandbox: a compiler of a Debian root ({root}) needs the "
                           "namespace sandbox, which is not available here")


_NS_STATE: bool | None = None


def namespaces_available() -> bool:
    """Whether this process can build the namespace sandbox (tried once: a real run of
    /bin/true through it); ``WARNSCOPE_SANDBOX=plain`` turns it off (measurements)."""
    global _NS_STATE
    if _NS_STATE is None:
        if os.environ.get("WARNSCOPE_SANDBOX") == "plain":
            _NS_STATE = False
        else:
            _zygote_built()   # no C compiler is an error, not a reason to run plainly
            _NS_STATE = True
            try:
                r = _run_ns(["/bin/true"], _held_uid(), Limits(), None, host_dir=None,
                            copy_in=())
                _NS_STATE = r.status == SandboxStatus.EXIT and r.exit == 0
            except (SandboxError, OSError):
                _NS_STATE = False
    return _NS_STATE


def _staging_dir() -> str:
    """An empty directory each run mounts its own root on, in its own mount namespace."""
    base = LOCK_DIR if LOCK_DIR is not None else cache_dir("sandbox")
    path = base / "root"
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return str(path)


def _run_ns(argv: list[str], uid: int | None, limits: Limits, env: dict[str, str] | None,
            host_dir: str | None, copy_in: tuple[tuple[str, str], ...],
            root: str | None = None) -> RunResult:
    """One run through this worker's zygote for ``root`` (see :mod:`analyzer.sandbox.zygote`).

    A zygote that dies or stops answering is replaced once; a second failure is a
    :class:`SandboxError`."""
    if root is not None and not os.path.isdir(os.path.join(root, "usr")):
        raise SandboxError(f"sandbox: {root} is not a prepared root (no usr/)")
    system_root = (root or "").rstrip("/")
    request = zygote.Request(
        argv=tuple(argv), env=child_env("/work", "/tmp", env), uid=uid,
        tmpfs_size=limits.tmpfs_size, rlimits=rlimits(limits, uid, namespace=True),
        host_dir=host_dir, copy_in=copy_in[0][0] if copy_in else None,
        copy_name=copy_in[0][1] if copy_in else "")
    for attempt in (1, 2):
        try:
            return _supervise(zygote.zygote(system_root, _staging_dir), request, limits)
        except zygote.ZygoteFailed as exc:
            zygote.discard(system_root)
            if attempt == 2:
                raise SandboxError(str(exc)) from exc
    raise AssertionError("unreachable")


def _supervise(server: zygote.Zygote, request: zygote.Request,
               limits: Limits) -> RunResult:
    """Hand ``request`` to ``server`` (this worker's zygote) and watch the run: output
    (capped), the wall clock, the memory of the whole namespace; then count what is left
    and kill the namespace."""
    msg_r, msg_w = os.pipe2(os.O_CLOEXEC)
    out_r, out_w = os.pipe2(os.O_CLOEXEC)
    err_r, err_w = os.pipe2(os.O_CLOEXEC)
    start = time.monotonic()
    try:
        server.send(request, msg_w, out_w, err_w)
    except BaseException:
        for fd in (msg_r, out_r, err_r):
            os.close(fd)
        raise
    finally:
        for fd in (msg_w, out_w, err_w):
            os.close(fd)
    out, err, messages = bytearray(), bytearray(), bytearray()
    truncated = timed_out = memory_hit = False
    sel = selectors.DefaultSelector()
    for fd in (out_r, err_r, msg_r):
        os.set_blocking(fd, False)
        sel.register(fd, selectors.EVENT_READ)
    deadline = start + limits.timeout
    init_pid: int | None = None
    state = _Messages()
    peak_rss = 0
    # The first look at the memory after one interval: most runs have ended by then, and
    # a look costs /proc reads of the whole tree. The interval then doubles up to
    # WATCH_MAX: a compile of a tenth of a second is looked at twice, not five times, and
    # RLIMIT_AS bounds each process in between.
    interval = WATCH_INTERVAL
    next_watch = start + interval
    try:
        while state.ended is None and state.failure is None and state.reaped is None:
            now = time.monotonic()
            if now >= deadline:
                timed_out = True
                break
            if init_pid is None and state.started:
                init_pid = server.run_init()
            if now >= next_watch and init_pid is not None:
                interval = min(2 * interval, WATCH_MAX)
                next_watch = now + interval
                rss = processes.rss_bytes(processes.descendants(init_pid))
                peak_rss = max(peak_rss, rss)
                if rss > limits.memory:
                    memory_hit = True
                    break
            wake = next_watch if init_pid is not None else now + WATCH_INTERVAL
            for key, _ in sel.select(timeout=max(0.0, min(wake, deadline) - now)):
                if key.fileobj == msg_r:
                    if read_capped(msg_r, messages, None, sel, msg_r).ended and not state.started:
                        state.failure = "the zygote ended without a word"
                    state.parse(messages)
                    continue
                buf = out if key.fileobj == out_r else err
                truncated |= read_capped(key.fd, buf, limits.output_cap, sel, key.fileobj).truncated
            if truncated:
                break
    except BaseException:
        # Ctrl-C, SIGTERM: the run must not outlive the wait for it
        _end_run(init_pid if init_pid is not None else
                 server.run_init() if state.started else None, signal.SIGKILL)
        sel.close()
        for fd in (msg_r, out_r, err_r):
            os.close(fd)
        raise
    try:
        if init_pid is None and state.reaped is None:
            # "P" may still be on its way (a tiny time limit): the run must be found to end
            while not state.started and state.reaped is None:
                rest, done = zygote.read_messages(msg_r, time.monotonic() + 10, first=True)
                messages += rest
                state.parse(messages)
                if done or not rest:
                    break
            if state.started and state.reaped is None:
                init_pid = server.run_init()
        program_ended = state.ended is not None
        _end_run(init_pid)
        rest, done = zygote.read_messages(msg_r, time.monotonic() + END_GRACE)
        killed = 0
        if not done and init_pid is not None:  # the init did not end its run: end it all
            killed = _left_behind(init_pid)
            _end_run(init_pid, signal.SIGKILL)
            more, done = zygote.read_messages(msg_r, time.monotonic() + 10)
            rest += more
        messages += rest
        state.parse(messages)
        leftovers = state.left if state.left is not None else killed
        if not done:  # the zygote did not reap the run: it is not to be trusted again
            raise zygote.ZygoteFailed("sandbox: the zygote did not end a run")
        # Whatever the program wrote before it ended is still in the pipes: drain them.
        for fd, buf in ((out_r, out), (err_r, err)):
            if fd in sel.get_map():
                os.set_blocking(fd, True)
                while not truncated:
                    read = read_capped(fd, buf, limits.output_cap, sel, fd)
                    truncated = read.truncated
                    if read.ended:
                        break
    finally:
        sel.close()
        for fd in (msg_r, out_r, err_r):
            os.close(fd)
    if state.exec_errno is not None:
        raise OSError(state.exec_errno, f"sandbox: cannot run {request.argv[0]}: "
                                        f"{os.strerror(state.exec_errno)}")
    if state.failure is not None and state.ended is None:
        raise SandboxError(f"sandbox: {state.failure}")
    wall = time.monotonic() - start
    # The program's own rusage, told when it was reaped -- also when it was killed at
    # the end (a timeout, the memory cap, the output cap): its CPU until then counts.
    _, user, sys_, maxrss = state.ended or state.reaped or (0, 0.0, 0.0, 0)
    if program_ended:
        status_word = state.ended[0]
        exit_code = os.WEXITSTATUS(status_word) if os.WIFEXITED(status_word) else None
        sig = os.WTERMSIG(status_word) if os.WIFSIGNALED(status_word) else None
    else:
        exit_code, sig = None, signal.SIGKILL
    word, limit = status(limits, timed_out, memory_hit, truncated, sig, user + sys_)
    return RunResult(status=word, exit=exit_code, signal=sig, stdout=bytes(out),
                     stderr=bytes(err), truncated=truncated, wall=wall, user=user, sys=sys_,
                     maxrss_kb=max(maxrss, peak_rss // 1024), uid=request.uid,
                     leftovers_killed=leftovers, limit=limit, mode="namespace")


class _Messages:
    """What the zygote and the run's init said on the message pipe: ``P`` (the run's
    init exists), ``S status utime stime maxrss`` (the program ended), ``X errno`` (it
    could not be executed), ``E why`` (the run's sandbox could not be built), ``R
    status utime stime maxrss`` (the init was reaped: the run is over; its rusage
    includes whatever it reaped), ``L count`` (the init ended the run: how many processes
    besides the program it found alive, killed and reaped)."""

    def __init__(self) -> None:
        self.left: int | None = None
        self.started = False
        self.ended: tuple[int, float, float, int] | None = None
        self.reaped: tuple[int, float, float, int] | None = None
        self.exec_errno: int | None = None
        self.failure: str | None = None

    def parse(self, messages: bytearray) -> None:
        for line in bytes(messages).split(b"\n")[:-1]:
            kind, _, rest = line.decode("utf-8", "replace").partition(" ")
            if kind == "P":
                self.started = True
            elif kind in ("S", "R"):
                st, utime, stime, maxrss = rest.split()
                value = (int(st), float(utime), float(stime), int(maxrss))
                if kind == "S":
                    self.ended = value
                else:
                    self.reaped = value
            elif kind == "L":
                self.left = int(rest)
            elif kind == "X":
                self.exec_errno = int(rest)
            elif kind == "E":
                self.failure = rest


def _end_run(init_pid: int | None, how: int = signal.SIGTERM) -> None:
    """End the run: SIGTERM asks its init to kill and reap every other process (so their
    CPU reaches the rusage), say how many there were besides the program (``L``), and
    exit; SIGKILL kills the init, and the kernel the rest. The namespace's tmpfs go with it."""
    if init_pid is None:
        return
    try:
        os.kill(init_pid, how)
    except ProcessLookupError:
        pass


def _left_behind(init_pid: int) -> int:
    """What still runs in a run's namespace besides the program (pid 2 there), counted
    from /proc: for a run whose init is killed rather than asked to end it."""
    return sum(1 for k in processes.descendants(init_pid) if processes.ns_pid(k) != 2)


def kill_leftovers() -> int:
    """Kill what runs under any pool uid that no run holds: programs of a run that was
    itself killed (kill -9) before it could clean up. Returns how many were killed. The
    workspace directories such runs left on /dev/shm go too."""
    zygote.sweep_work_bases()
    if LOCK_DIR is None or not LOCK_DIR.exists():
        return 0
    killed = 0
    for uid in range(UID_BASE, UID_BASE + UID_COUNT):
        with flocked(LOCK_DIR / str(uid), wait=False) as held:
            if held is not None:  # else a live run holds the uid: its processes are its own
                killed += plain.kill_all(-1, uid)
    return killed


@contextmanager
def claim_uid() -> Iterator[int | None]:
    """A uid of the pool that no other run on this host is using, held by a lock file
    (None when not root: everything runs as the user). A run without namespaces, and a
    project's build (:mod:`analyzer.projects.sandbox`), hold one for as long as they last."""
    if LOCK_DIR is None:
        yield None
        return
    LOCK_DIR.mkdir(mode=0o700, exist_ok=True)
    while True:
        for uid in range(UID_BASE, UID_BASE + UID_COUNT):
            with flocked(LOCK_DIR / str(uid), wait=False) as held:
                if held is None:
                    continue  # another run's uid
                plain.kill_all(-1, uid)  # a crashed earlier holder may have left processes
                yield uid
                return
        time.sleep(0.05)


@contextmanager
def _private_dir(uid: int | None, base: Path | None = None) -> Iterator[Path]:
    """A fresh directory owned by the sandbox uid (in ``base``, else the temporary
    directory); removed, with anything in it, afterwards."""
    path = Path(tempfile.mkdtemp(prefix="warnscope-run-", dir=base))
    try:
        if uid is not None:
            os.chown(path, uid, uid)
        os.chmod(path, 0o700)
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
