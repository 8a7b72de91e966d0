"""Linux namespaces for the sandbox: the code that runs in the forked children.

:func:`enter` is the ``preexec_fn`` of the sandboxed Popen. The child it runs
in (P) unshares mount, network, IPC, UTS and PID namespaces (and a user
namespace when not root, which is what makes the rest possible without
privileges), then forks twice:

* C, pid 1 of the new PID namespace, builds a minimal root file system (the
  system directories read-only -- the host's, or a prepared Debian root's, a fresh /proc, a /dev of a few nodes, private
  size-capped tmpfs on /tmp, /var/tmp, /dev/shm and /run/lock, and the run's
  host directory at /work), pivots into it, forks D and reaps;
* D drops to the sandbox uid under the rlimits and returns to Popen, which
  execs the program.

When D ends, C reports its status on the message pipe and waits to be killed,
so that the parent can count what D left behind first. Killing C kills the
whole namespace at once (the kernel does it; a fork bomb cannot outrun it), and
the namespace's tmpfs mounts disappear with it: nothing written outlives the
run. Each of P, C and D has PR_SET_PDEATHSIG, so the chain dies with the worker
whatever kills the worker.

Everything here runs between fork and exec: no imports, no logging, no locks.
"""
from __future__ import annotations

import ctypes
import os
import platform
import resource
import signal
import time
from dataclasses import dataclass

CLONE_NEWNS = 0x00020000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
MS_NOATIME, MS_NODIRATIME, MS_RELATIME = 1024, 2048, 1 << 21
MNT_DETACH = 2
PR_SET_PDEATHSIG = 1
SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "riscv64": 41}.get(platform.machine())

#: Read-only in the sandbox: what a compiler and a program need, nothing of anyone's data.
SYSTEM_DIRS = ("/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
DEVICES = ("null", "zero", "full", "random", "urandom")
#: Private, size-capped and world-writable like the host's; gone with the namespace.
PRIVATE_TMP = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")

#: statvfs flags a remount in a user namespace must keep (the kernel locks them).
_KEEP_FLAGS = ((os.ST_NOSUID, MS_NOSUID), (os.ST_NODEV, MS_NODEV), (os.ST_NOEXEC, MS_NOEXEC),
               (os.ST_NOATIME, MS_NOATIME), (os.ST_NODIRATIME, MS_NODIRATIME),
               (os.ST_RELATIME, MS_RELATIME))

_libc = ctypes.CDLL(None, use_errno=True)


@dataclass(frozen=True)
class Plan:
    """What the children need, computed in the parent before the fork."""

    parent: int               # pid of the worker: P dies if it is already gone
    message_fd: int           # write end of the message pipe
    host_dir: str | None      # bound at /work (the cwd); None: /work is a private tmpfs
    copy_in: tuple[tuple[str, str], ...]  # (host file, name in /work), copied before the pivot
    staging: str              # an empty host directory to mount the new root on
    uid: int | None           # the sandbox uid (root), or None: a user namespace
    real_uid: int
    real_gid: int
    tmpfs_size: int
    rlimits: tuple[tuple[int, int, int], ...]  # (resource, soft, hard)
    system_root: str = ""     # '' the host's system directories; else a Debian root's


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def _mount(source: str | None, target: str, fstype: str | None, flags: int,
           data: str | None = None) -> None:
    enc = lambda s: s.encode() if s is not None else None  # noqa: E731
    _check(_libc.mount(enc(source), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data)),
           f"mount {target}")


def _prctl_deathsig() -> None:
    _check(_libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "prctl")


def _say(fd: int, text: str) -> None:
    os.write(fd, text.encode()[:500] + b"\n")


def enter(plan: Plan) -> None:
    """The preexec_fn: returns only in D, the process that becomes the program."""
    try:
        _prctl_deathsig()
        if os.getppid() != plan.parent:
            os._exit(1)
        flags = CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWPID
        if plan.uid is None:
            flags |= CLONE_NEWUSER
        _check(_libc.unshare(flags), "unshare")
        if plan.uid is None:
            _map_ids(plan.real_uid, plan.real_gid)
        child = os.fork()
    except BaseException as exc:  # noqa: BLE001 -- any failure must end this process
        _say(plan.message_fd, f"E {exc}")
        os._exit(127)
    if child:
        _intermediate(plan, child)
    try:
        _prctl_deathsig()
        _build_root(plan)
        program = os.fork()
    except BaseException as exc:  # noqa: BLE001
        _say(plan.message_fd, f"E {exc}")
        os._exit(127)
    if program:
        _init(plan, program)
    _become_program(plan)


def _map_ids(uid: int, gid: int) -> None:
    """The same ids inside as outside: the program runs as the user, without capabilities."""
    with open("/proc/self/setgroups", "w") as f:
        f.write("deny")
    with open("/proc/self/uid_map", "w") as f:
        f.write(f"{uid} {uid} 1")
    with open("/proc/self/gid_map", "w") as f:
        f.write(f"{gid} {gid} 1")


def _intermediate(plan: Plan, child: int) -> None:
    """P: tell the parent the host pid of the namespace's init, wait for it, exit."""
    _say(plan.message_fd, f"P {child}")
    os.closerange(0, 1 << 16)  # stdio and Popen's error pipe: hold nothing of the run open
    while True:
        try:
            os.waitpid(child, 0)
            break
        except ChildProcessError:
            break
        except InterruptedError:
            continue
    os._exit(0)


def _build_root(plan: Plan) -> None:
    """C: a new root on ``plan.staging`` with only what a compile or a run needs; pivot."""
    new = plan.staging
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    _mount("tmpfs", new, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755")
    for d in SYSTEM_DIRS:
        src = plan.system_root + d  # a root's own /usr, /etc, /lib*: its loader and libc
        if os.path.islink(src):
            os.symlink(os.readlink(src), new + d)
        elif os.path.isdir(src):
            os.mkdir(new + d)
            _bind_ro(src, new + d)
    os.mkdir(new + "/dev")
    _mount("tmpfs", new + "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "size=64k,mode=0755")
    for dev in DEVICES:
        open(f"{new}/dev/{dev}", "w").close()
        _mount(f"/dev/{dev}", f"{new}/dev/{dev}", None, MS_BIND)
    for i, name in enumerate(("stdin", "stdout", "stderr")):
        os.symlink(f"/proc/self/fd/{i}", f"{new}/dev/{name}")
    os.symlink("/proc/self/fd", f"{new}/dev/fd")
    os.mkdir(new + "/proc")
    _mount("proc", new + "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    os.makedirs(new + "/var", exist_ok=True)
    os.makedirs(new + "/run", exist_ok=True)
    for d in PRIVATE_TMP:
        os.makedirs(new + d, exist_ok=True)
        _mount("tmpfs", new + d, "tmpfs", MS_NOSUID | MS_NODEV,
               f"size={plan.tmpfs_size},nr_inodes=4096,mode=1777")
    os.mkdir(new + "/work")
    if plan.host_dir is not None:
        _mount(plan.host_dir, new + "/work", None, MS_BIND)
    else:
        size = plan.tmpfs_size + sum(os.stat(src).st_size for src, _ in plan.copy_in)
        _mount("tmpfs", new + "/work", "tmpfs", MS_NOSUID | MS_NODEV,
               f"size={size},nr_inodes=4096,mode=0700")
        if plan.uid is not None:
            os.chown(new + "/work", plan.uid, plan.uid)
    for src, name in plan.copy_in:
        _copy(src, f"{new}/work/{name}")
    _mount(None, new, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)
    os.mkdir(new + "/tmp/.old")
    _check(_libc.syscall(SYS_PIVOT_ROOT, new.encode(), (new + "/tmp/.old").encode()),
           "pivot_root")
    _check(_libc.umount2(b"/tmp/.old", MNT_DETACH), "umount old root")
    os.rmdir("/tmp/.old")
    os.chdir("/work")


def _copy(src: str, dst: str) -> None:
    """Readable and executable by the program, not writable (root owns it as root)."""
    fin = os.open(src, os.O_RDONLY | os.O_CLOEXEC)
    fout = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o755)
    try:
        while os.sendfile(fout, fin, None, 1 << 24) > 0:
            pass
    finally:
        os.close(fin)
        os.close(fout)


def _bind_ro(source: str, target: str) -> None:
    _mount(source, target, None, MS_BIND | MS_REC)
    st = os.statvfs(source)
    keep = sum(ms for st_flag, ms in _KEEP_FLAGS if st.f_flag & st_flag)
    _mount(None, target, None, MS_REMOUNT | MS_BIND | MS_RDONLY | keep)


def _init(plan: Plan, program: int) -> None:
    """C: reap; when the program ends, report it and wait to be killed by the parent.

    If the parent never does (it died, or Popen is waiting for P after a failed
    exec), give up after a few seconds: the namespace dies with C either way."""
    os.closerange(0, plan.message_fd)
    os.closerange(plan.message_fd + 1, 1 << 16)
    while True:
        try:
            pid, status, ru = os.wait4(-1, 0)
        except ChildProcessError:
            break
        except InterruptedError:
            continue
        if pid == program:
            _say(plan.message_fd, f"S {status} {ru.ru_utime} {ru.ru_stime} {ru.ru_maxrss}")
            break
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            pass
        time.sleep(0.05)
    os._exit(0)


def _become_program(plan: Plan) -> None:
    """D: default signals, rlimits (as root first, so they cannot be raised again), the uid."""
    os.close(plan.message_fd)
    for sig in (signal.SIGINT, signal.SIGQUIT, signal.SIGTERM, signal.SIGCHLD):
        signal.signal(sig, signal.SIG_DFL)
    for which, soft, hard in plan.rlimits:
        resource.setrlimit(which, (soft, hard))
    if plan.uid is not None:
        os.setgroups([])
        os.setgid(plan.uid)
        os.setuid(plan.uid)
    _prctl_deathsig()


def probe_children(init_pid: int) -> list[int]:
    """Every live descendant of ``init_pid`` (not itself), from /proc/PID/task/*/children."""
    found, todo = [], [init_pid]
    while todo:
        pid = todo.pop()
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                with open(f"/proc/{pid}/task/{tid}/children", "rb") as f:
                    kids = [int(x) for x in f.read().split()]
            except OSError:
                continue
            for kid in kids:
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
