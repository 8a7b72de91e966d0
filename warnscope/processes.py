"""Other processes as the kernel shows them in ``/proc``, and the two ``prctl`` requests
that tie processes to the one that started them: the one place that reads either.

* :func:`children`, :func:`descendants`, :func:`alive`: a process's tree, from
  ``/proc/PID/task/*/children`` (every thread's children);
* :func:`pids_of_uid`: every process of a uid (the sandbox's pool uids), reaping on the way
  the zombies that are ours;
* :func:`rss_bytes`, :func:`ns_pid`: what a run's processes hold, and who they are in
  their own PID namespace;
* :func:`set_parent_death_signal` (``PR_SET_PDEATHSIG``): a worker or a sandboxed
  program dies with the process that started it, whatever kills that one;
* :func:`become_subreaper` (``PR_SET_CHILD_SUBREAPER``): orphans of our children are
  re-parented to us rather than to init, so we can reap them at once.
"""
from __future__ import annotations

import ctypes
import errno
import os

#: prctl(2) options, from <linux/prctl.h>
PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36


def _prctl(option: int, arg: int) -> None:
    """``prctl(option, arg)`` for the calling process; OSError when refused or absent."""
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError) as exc:
        raise OSError(errno.ENOSYS, "prctl is not available here") from exc
    if prctl(option, arg, 0, 0, 0) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"prctl: {os.strerror(err)}")


def set_parent_death_signal(sig: int) -> None:
    """Ask the kernel to send ``sig`` to this process when its parent thread exits
    (Linux); OSError where that is not available."""
    _prctl(PR_SET_PDEATHSIG, int(sig))


_SUBREAPER = False


def become_subreaper() -> None:
    """Orphans of this process's children are re-parented to it rather than to init
    (Linux 3.4+), once per process; nothing where the kernel does not offer it."""
    global _SUBREAPER
    if _SUBREAPER:
        return
    try:
        _prctl(PR_SET_CHILD_SUBREAPER, 1)
    except OSError:
        pass
    _SUBREAPER = True


def read(path: str) -> bytes | None:
    """A small /proc file in one read (no buffered file object: this runs many times
    per run)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        return os.read(fd, 65536)
    except OSError:
        return None
    finally:
        os.close(fd)


def children(pid: int) -> list[int]:
    """The direct children of ``pid`` (every thread's; zombies included)."""
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    found: list[int] = []
    for tid in tids:
        data = read(f"/proc/{pid}/task/{tid}/children")
        if data:
            found += [int(x) for x in data.split()]
    return found


def descendants(pid: int) -> list[int]:
    """Every live descendant of ``pid`` (not itself)."""
    found, todo = [], [pid]
    while todo:
        for kid in children(todo.pop()):
            if alive(kid):
                found.append(kid)
            todo.append(kid)
    return found


def _stat(pid: int | str) -> tuple[bytes, int] | None:
    """(state, parent pid) of ``pid`` from /proc/PID/stat; None when it is gone."""
    data = read(f"/proc/{pid}/stat")
    try:
        fields = data.rsplit(b")", 1)[1].split() if data else None
        return (fields[0], int(fields[1])) if fields else None
    except (IndexError, ValueError):
        return None


def state(pid: int) -> bytes | None:
    """The one-letter state of ``pid`` (``R``, ``S``, ``Z``...); None when it is gone."""
    found = _stat(pid)
    return found[0] if found else None


def alive(pid: int) -> bool:
    """Running, not a zombie (a zombie is dead; only its parent has not reaped it)."""
    return state(pid) not in (b"Z", b"X", None)


def pids_of_uid(uid: int, keep: int) -> list[int]:
    """Live processes of ``uid``; its zombies that are ours to reap are reaped on the way
    (they would still count against RLIMIT_NPROC for the next run on this uid), except
    ``keep`` (a program its caller reaps itself, with wait4)."""
    found = []
    me = os.getpid()
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            if entry.stat().st_uid != uid:
                continue
        except (FileNotFoundError, ProcessLookupError):
            continue
        stat = _stat(entry.name)
        if stat is None:
            continue
        pstate, ppid = stat
        if pstate in (b"Z", b"X"):
            if ppid == me and int(entry.name) != keep:
                try:
                    os.waitpid(int(entry.name), os.WNOHANG)
                except ChildProcessError:
                    pass
            continue
        found.append(int(entry.name))
    return found


def rss_bytes(pids: list[int]) -> int:
    """Resident memory of ``pids`` together (pages shared between them counted once each)."""
    total = 0
    page = os.sysconf("SC_PAGE_SIZE")
    for pid in pids:
        data = read(f"/proc/{pid}/statm")
        try:
            total += int(data.split()[1]) * page if data else 0
        except (IndexError, ValueError):
            continue
    return total


def ns_pid(pid: int) -> int | None:
    """The pid of host process ``pid`` in its own (innermost) PID namespace."""
    data = read(f"/proc/{pid}/status")
    for line in (data or b"").splitlines():
        if line.startswith(b"NSpid:"):
            try:
                return int(line.split()[-1])
            except ValueError:
                return None
    return None
