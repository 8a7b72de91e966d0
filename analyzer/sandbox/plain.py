"""The sandbox without namespaces (a container that forbids them, or
``WARNSCOPE_SANDBOX=plain``): the program runs under the run's pool uid (as root) or in
a process group of its own, with the rlimits and the timeout of
:mod:`analyzer.sandbox.limits`, in a private directory; whatever it leaves behind is
killed (every process of the uid, or the group) and what it left in the shared temporary
directories is removed."""
from __future__ import annotations

import os
import resource
import selectors
import shutil
import signal
import subprocess
import time
from pathlib import Path

from warnscope import processes

from analyzer.sandbox.limits import (WATCH_INTERVAL, Limits, RunResult, child_env, read_capped,
                                     rlimits, status)


def run(argv: list[str], workdir: Path, uid: int | None, limits: Limits,
               env: dict[str, str] | None) -> RunResult:
    """Without namespaces: the uid (root) or the process group, rlimits, the timeout."""
    start = time.monotonic()
    limits_of_child = rlimits(limits, uid, namespace=False)
    proc = subprocess.Popen(
        argv, cwd=workdir, env=child_env(str(workdir), str(workdir), env),
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True, close_fds=True,
        preexec_fn=lambda: _enter_plain(uid, limits_of_child),
    )
    out, err = bytearray(), bytearray()
    truncated = timed_out = memory_hit = False
    status_word = rusage = None
    peak_rss = 0
    next_watch = start
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
                    kill_all(proc.pid, uid)
            streams_open = any(k.fileobj in (proc.stdout, proc.stderr)
                               for k in sel.get_map().values())
            if not streams_open and status_word is not None:
                break
            now = time.monotonic()
            if now >= deadline:
                timed_out = True
                break
            if status_word is None and now >= next_watch:
                next_watch = now + WATCH_INTERVAL
                rss = processes.rss_bytes(_tree_of(proc.pid, uid))
                peak_rss = max(peak_rss, rss)
                if rss > limits.memory:
                    memory_hit = True
                    break
            if sel.get_map():
                events = sel.select(timeout=min(WATCH_INTERVAL, deadline - now))
            else:  # no pidfd, pipes closed, program still running
                time.sleep(0.005)
                events = []
            for key, _ in events:
                if key.fileobj is not proc.stdout and key.fileobj is not proc.stderr:
                    continue  # the pidfd: reaped at the top of the loop
                buf = out if key.fileobj is proc.stdout else err
                truncated |= read_capped(key.fd, buf, limits.output_cap, sel, key.fileobj).truncated
            if truncated:
                break
    finally:
        if pidfd is not None:
            os.close(pidfd)
        leftovers = kill_all(proc.pid, uid)
        if status_word is None:
            _, status_word, rusage = os.wait4(proc.pid, 0)
        proc.returncode = 0  # reaped by us; keep Popen from waiting again
        sel.close()
        proc.stdout.close()
        proc.stderr.close()
    wall = time.monotonic() - start
    exit_code = os.WEXITSTATUS(status_word) if os.WIFEXITED(status_word) else None
    sig = os.WTERMSIG(status_word) if os.WIFSIGNALED(status_word) else None
    word, limit = status(limits, timed_out, memory_hit, truncated, sig,
                            rusage.ru_utime + rusage.ru_stime)
    return RunResult(status=word, exit=exit_code, signal=sig, stdout=bytes(out),
                     stderr=bytes(err), truncated=truncated, wall=wall,
                     user=rusage.ru_utime, sys=rusage.ru_stime,
                     maxrss_kb=max(rusage.ru_maxrss, peak_rss // 1024),
                     uid=uid, leftovers_killed=leftovers, limit=limit,
                     mode="uid" if uid is not None else "process-group")


def _tree_of(pid: int, uid: int | None) -> list[int]:
    """The program and its descendants (as root: every process of the uid)."""
    if uid is not None:
        return processes.pids_of_uid(uid, keep=pid)
    return [pid, *processes.descendants(pid)]


def _pidfd_open(pid: int) -> int | None:
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def _enter_plain(uid: int | None, rlimits: tuple[tuple[int, int, int], ...]) -> None:
    """In the child, before exec: limits first (as root they cannot be raised back), then
    the uid; the child dies with the worker."""
    for sig in (signal.SIGINT, signal.SIGQUIT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)  # the program starts with default dispositions
    for which, soft, hard in rlimits:
        resource.setrlimit(which, (soft, hard))
    if uid is not None:
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)
    processes.set_parent_death_signal(signal.SIGKILL)


def kill_all(pid: int, uid: int | None) -> int:
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
        pids = [p for p in processes.pids_of_uid(uid, keep=pid) if p != pid]
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
SHARED_TMP = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")


def remove_strays(uid: int, keep: Path | None = None) -> None:
    """Remove what the uid left in world-writable directories outside its own (``keep``)."""
    for base in SHARED_TMP:
        try:
            entries = list(os.scandir(base))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.stat(follow_symlinks=False).st_uid != uid or entry.path == str(keep):
                    continue
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path, ignore_errors=True)
                else:
                    os.unlink(entry.path)
            except OSError:
                continue
