"""Where every CPU second of a process tree went: the kernel's own per-process figure.

A build is thousands of short processes (make, its shells, libtool, the compiler
driver, ``cc1``, ``as``, ``ld`` …). ``os.wait4`` gives the whole tree's CPU; this
module splits that same total by process, from the scheduler's own account of each
task, so that the table *sums to the tree's rusage* and the residual can be checked
on every run.

Why BPF on ``sched:sched_switch`` (measured on this project's kernel, 6.x, HZ 250,
40 short compiles, 122 processes, tree rusage 0.61–0.63 s):

* taskstats exit records take their CPU in ``do_exit`` before the scheduler's last
  update: 0.46–0.55 s of 0.61 s, a tail short per process;
* BSD process accounting v3 rounds each process to 10 ms;
* the task's ``se.sum_exec_runtime`` read at its *final* context switch (``__state ==
  TASK_DEAD``, after which it never runs again) is complete: 0.632 s against 0.632 s.

So one ``bpftrace`` runs for a whole study and prints one line per exiting task of
the watched trees, and one line per ``exec`` with the CPU the replaced program used
(``sh -c 'gcc …'`` and a wrapper script ending in ``exec "$@"`` cost their own time,
not the compiler's). A task belongs to a tree when an ancestor within
:data:`MAX_DEPTH` generations is a direct child of the watching process (the
harness): the tree's root. That is exactly the set ``wait4`` counts — a process
reparented to init leaves both — and the harness's own threads and tools never
count. The kernel names a process by its executable (``bash`` for ``$(SHELL)
libtool``); the first argument of an interpreter names the script, so the table says
``libtool (bash)``.

Root is needed (BPF); without it, or without bpftrace, :class:`Unavailable` says
why in one line and the caller carries on without the table.
"""
from __future__ import annotations

import re
import os
import select
import shutil
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from warnscope import tool
from warnscope.errors import NotInstalled, ToolFailed, WarnscopeError
from warnscope.text import one_line

#: generations between an exiting task and the tree's root that are searched
#: (recursive make under libtool under a shell nests about ten deep)
MAX_DEPTH = 32

#: seconds bpftrace may take to attach its probes
ATTACH_TIMEOUT = 60.0

#: seconds to wait, after ``wait4`` returned, for the root's final context switch
#: (the parent is woken before the child's last switch)
SETTLE_TIMEOUT = 5.0

#: executables that run a script named by their first argument
INTERPRETERS = frozenset({"sh", "dash", "bash", "zsh", "ksh", "perl", "python", "python3",
                          "tclsh", "ruby", "awk", "gawk", "mawk", "m4"})

#: the tree a task belongs to: $root = the ancestor that is a child of the harness, or 0
#: (bpftrace 0.17 has no functions: both probes that need it get this text)
_ROOT_WALK = r"""  $t = curtask;
  $p = $t;
  $root = 0;
  unroll(MAX_DEPTH) {
    if ($root == 0 && $p->real_parent->tgid == HARNESS) { $root = $p->tgid; }
    if ($root == 0 && $p->pid > 1) { $p = $p->real_parent; }
  }"""

_SCRIPT = r"""
BEGIN
{
  printf("READY\n");
}
tracepoint:syscalls:sys_enter_execve
{
  @oldcomm[tid] = comm;
}
tracepoint:syscalls:sys_exit_execve
/args->ret != 0/
{
  delete(@oldcomm[tid]);
}
tracepoint:sched:sched_process_exec
{
ROOT_WALK
  if ($root != 0) {
    $now = $t->se.sum_exec_runtime;
    printf("E %d %d %d %llu %llu %s\n", $root, $t->tgid, $t->pid, nsecs, $now - @start[tid],
           @oldcomm[tid]);
    @start[tid] = $now;
    $args = $t->mm->arg_start;
    printf("X %d %d %d %llu %r\n", $root, $t->tgid, $t->pid, nsecs,
           buf(uptr($args), $t->mm->arg_end - $args));
  }
  delete(@oldcomm[tid]);
}
tracepoint:syscalls:sys_enter_getppid
/pid == HARNESS/
{
  printf("S %d %d\n", tid, cpu);
}
tracepoint:sched:sched_switch
/curtask->__state == 0x80/
{
ROOT_WALK
  if ($root != 0) {
    printf("T %d %d %d %llu %llu %s\n", $root, $t->tgid, $t->pid, nsecs,
           $t->se.sum_exec_runtime - @start[$t->pid], comm);
  }
  delete(@start[$t->pid]);
}
"""


class Unavailable(WarnscopeError):
    """Per-process accounting cannot run here (not root, no bpftrace, BPF refused)."""


@dataclass(frozen=True)
class ProcessCost:
    """The CPU of the programs of one name in one run: user+sys seconds as the
    scheduler counted it (``se.sum_exec_runtime``), over ``processes`` program images
    (a process that runs ``sh`` and then execs ``gcc`` counts once for each)."""

    name: str
    cpu_s: float
    processes: int


@dataclass(frozen=True)
class ProcessTable:
    """Every process of one run's tree, grouped by name, and how well it adds up.

    ``residual_s`` is the tree's ``wait4`` CPU minus the table's sum: stored and
    shown, never hidden; ``complete`` when it is within :data:`TOLERANCE`."""

    by_name: tuple[ProcessCost, ...]
    total_s: float
    tree_cpu_s: float
    residual_s: float
    tasks: int
    #: events bpftrace reported lost (its ring buffer overflowed): the table is short
    lost: int = 0

    @property
    def complete(self) -> bool:
        return self.lost == 0 and abs(self.residual_s) <= TOLERANCE * max(self.tree_cpu_s, 1e-9) + SLACK_S

    def as_dict(self) -> dict[str, float]:
        return {c.name: c.cpu_s for c in self.by_name}


#: the table must sum to the tree's rusage within this fraction …
TOLERANCE = 0.01
#: … or this many seconds (a tree of a few ms is within a tick of anything)
SLACK_S = 0.005


def display_name(comm: str, arg1: str, arg2: str) -> str:
    """``libtool (bash)`` for ``bash libtool …``; the kernel's name otherwise."""
    base = comm.rstrip("0123456789.") if comm.startswith("python") else comm
    if base in INTERPRETERS or comm in INTERPRETERS:
        for arg in (arg1, arg2):
            if not arg or arg == "-c":
                break
            if arg.startswith("-"):
                continue
            script = os.path.basename(arg)
            if script and script != comm:
                return f"{script} ({comm})"
            break
    return comm


@dataclass(frozen=True)
class _Event:
    """One line of the probe: ``E`` the program an exec replaced (its CPU share and
    name), ``X`` the arguments of the program that replaced it, ``T`` a task's end (its
    CPU since its last exec, its name)."""

    stamp: int     # ns, the kernel's clock: orders a process's events across CPU buffers
    kind: str
    tgid: int
    pid: int
    rest: bytes    # E, T: "<ns of CPU> <comm>"; X: the argument area, escaped


@dataclass
class _Tree:
    events: list[_Event] = field(default_factory=list)
    ended: bool = False


#: bpftrace's ``%r`` prints each byte that is not printable as ``\xNN`` and every other
#: byte as it is (a backslash too): only those escapes are undone
_HEX_ESCAPE = re.compile(rb"\\x([0-9a-fA-F]{2})")


def _arguments(escaped: bytes) -> tuple[str, str]:
    """argv[1] and argv[2] from bpftrace's ``%r`` of a process's argument area."""
    raw = _HEX_ESCAPE.sub(lambda m: bytes([int(m.group(1), 16)]), escaped)
    argv = [a.decode("utf-8", "backslashreplace") for a in raw.split(b"\0")] + ["", ""]
    return argv[1], argv[2]


def _tally(events: list[_Event]) -> tuple[dict[str, float], dict[str, int], int]:
    """CPU and program images by name, and tasks ended, from one tree's events: in the
    kernel's time order, each exec's arguments name the program until the next exec."""
    cpu: dict[str, float] = defaultdict(float)
    procs: dict[str, int] = defaultdict(int)
    args: dict[int, tuple[str, str]] = {}
    tasks = 0
    for e in sorted(events, key=lambda e: e.stamp):
        if e.kind == "X":
            args[e.tgid] = _arguments(e.rest)
            continue
        runtime, _, comm = e.rest.decode("utf-8", "backslashreplace").partition(" ")
        name = display_name(comm, *args.get(e.tgid, ("", "")))
        cpu[name] += int(runtime) / 1e9
        if e.pid == e.tgid:
            procs[name] += 1
        if e.kind == "T":
            tasks += 1
            if e.pid == e.tgid:
                args.pop(e.tgid, None)
    return cpu, procs, tasks


class Accountant:
    """One bpftrace for a series of measured runs: start it once, then :meth:`table`
    after each run's ``wait4``. A context manager; stops bpftrace on exit."""

    def __init__(self, bpftrace: str | None = None):
        self.bpftrace = bpftrace or shutil.which("bpftrace") or "/usr/bin/bpftrace"
        self.proc: tool.Background | None = None
        self.trees: dict[int, _Tree] = defaultdict(_Tree)
        self.lost = 0
        self.cond = threading.Condition()
        self.reader: threading.Thread | None = None
        self.flushed: set[tuple[int, int]] = set()

    # ------------------------------------------------------------------ life cycle
    def start(self) -> "Accountant":
        """Attach the probes; :class:`Unavailable` with the reason if they cannot be."""
        if os.geteuid() != 0:
            raise Unavailable("per-process accounting needs root (BPF); not root here")
        if not os.access(self.bpftrace, os.X_OK):
            raise Unavailable(f"per-process accounting needs bpftrace ({self.bpftrace} not found; "
                              "your distribution's bpftrace package; Debian: apt-get install "
                              "bpftrace)")
        _mount_tracefs()
        script = (_SCRIPT.replace("ROOT_WALK", _ROOT_WALK).replace("MAX_DEPTH", str(MAX_DEPTH))
                  .replace("HARNESS", str(os.getpid())))
        try:
            self.proc = tool.Background(
                [self.bpftrace, "-B", "line", "-e", script], what="bpftrace",
                env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8",
                     "BPFTRACE_STRLEN": "200", "BPFTRACE_PERF_RB_PAGES": "1024"})
        except (NotInstalled, ToolFailed) as exc:
            raise Unavailable(f"per-process accounting: {exc}") from None
        deadline = time.monotonic() + ATTACH_TIMEOUT
        assert self.proc.stdout is not None and self.proc.stderr is not None
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.proc.stdout], [], [], 0.2)
            if ready:
                line = self.proc.stdout.readline()
                if line.startswith(b"READY"):  # BEGIN runs once every probe is attached
                    break
                if not line:
                    break
            if self.proc.poll() is not None:
                break
        else:
            said = _waiting(self.proc.stderr)
            self.close()
            raise Unavailable(f"bpftrace did not attach within {ATTACH_TIMEOUT:g} s"
                              + (f" (it said: {_first_error(said)})" if said.strip() else ""))
        if self.proc.poll() is not None:
            err = self.proc.stderr.read() or b""
            self.proc.stop()
            self.proc = None
            reason = _first_error(err.decode("utf-8", "backslashreplace"))
            raise Unavailable(f"bpftrace refused the probes: {reason}")
        self.reader = threading.Thread(target=self._read, name="accounting", daemon=True)
        self.reader.start()
        threading.Thread(target=self._drain_stderr, name="accounting-stderr", daemon=True).start()
        return self

    def __enter__(self) -> "Accountant":
        return self.start() if self.proc is None else self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Stop bpftrace and its reader (idempotent)."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        proc.stop()
        if self.reader:
            self.reader.join(timeout=5)

    # ------------------------------------------------------------------ events
    def _read(self) -> None:
        """Keep each tree's events as they come; :meth:`table` orders and names them."""
        proc = self.proc
        assert proc is not None and proc.stdout is not None
        for raw in proc.stdout:
            kind = raw[:2]
            if kind == b"S ":
                _, tid, cpu = raw.split()
                with self.cond:
                    self.flushed.add((int(tid), int(cpu)))
                    self.cond.notify_all()
                continue
            if kind not in (b"T ", b"E ", b"X "):
                continue
            try:
                _, root, tgid, pid, stamp, rest = raw.rstrip(b"\n").split(b" ", 5)
                event = _Event(int(stamp), kind[:1].decode(), int(tgid), int(pid), rest)
            except ValueError:
                continue
            with self.cond:
                tree = self.trees[int(root)]
                tree.events.append(event)
                if event.kind == "T" and event.pid == int(root):
                    tree.ended = True
                self.cond.notify_all()

    def _drain_stderr(self) -> None:
        proc = self.proc
        if proc is None or proc.stderr is None:
            return
        for raw in proc.stderr:
            line = raw.decode("utf-8", "backslashreplace")
            if line.startswith("Lost ") and "events" in line:
                try:
                    self.lost += int(line.split()[1])
                except (IndexError, ValueError):
                    self.lost += 1

    # ------------------------------------------------------------------ results
    def table(self, root_pid: int, tree_cpu_s: float) -> ProcessTable:
        """The table of the tree rooted at ``root_pid`` (already reaped by ``wait4``,
        whose user+sys is ``tree_cpu_s``), once its root's final switch was seen."""
        deadline = time.monotonic() + SETTLE_TIMEOUT
        with self.cond:
            while not self.trees[root_pid].ended and time.monotonic() < deadline:
                self.cond.wait(timeout=0.05)
        self._flush(deadline)
        with self.cond:
            tree = self.trees.pop(root_pid)
            # the harness runs one tree at a time: any other that has ended was a step
            # nobody asked a table of (a clean, a configure), and its events go
            for root in [r for r, t in self.trees.items() if t.ended]:
                del self.trees[root]
        cpu, procs, tasks = _tally(tree.events)
        rows = tuple(sorted((ProcessCost(name, seconds, procs.get(name, 0)) for name, seconds in cpu.items()),
                            key=lambda c: (-c.cpu_s, c.name)))
        total = sum(c.cpu_s for c in rows)
        return ProcessTable(by_name=rows, total_s=total, tree_cpu_s=tree_cpu_s,
                            residual_s=tree_cpu_s - total, tasks=tasks, lost=self.lost)


    def _flush(self, deadline: float) -> None:
        """Wait until every CPU's buffer was read past this moment.

        bpftrace reads one ring buffer per CPU, so the root's last event can arrive
        before an earlier event of another CPU. A marker written from each CPU in turn
        (a ``getppid`` the probe reports) arrives after everything that CPU wrote
        before it: once all markers are in, the tree's events are all in too."""
        tid = threading.get_native_id()
        cpus = sorted(os.sched_getaffinity(0))
        try:
            for cpu in cpus:
                os.sched_setaffinity(0, {cpu})
                os.getppid()
        finally:
            os.sched_setaffinity(0, cpus)
        with self.cond:
            while not all((tid, cpu) in self.flushed for cpu in cpus) and time.monotonic() < deadline:
                self.cond.wait(timeout=0.05)
            self.flushed = {m for m in self.flushed if m[0] != tid}


def _waiting(stream, cap: int = 1 << 16) -> str:
    """What ``stream`` (a pipe) holds now, up to ``cap`` bytes, without waiting for more."""
    data = b""
    while len(data) < cap and select.select([stream], [], [], 0)[0]:
        chunk = os.read(stream.fileno(), cap - len(data))
        if not chunk:
            break
        data += chunk
    return data.decode("utf-8", "backslashreplace")


def _first_error(text: str, limit: int = 300) -> str:
    """bpftrace's first error in ``text`` (else its last line), as one shown line of at
    most ``limit`` characters."""
    found = next((line for line in text.splitlines()
                  if "ERROR" in line and "RLIMIT_MEMLOCK" not in line), None)
    if found is None:
        found = text.strip().splitlines()[-1] if text.strip() else "no reason given"
    return one_line(found.strip())[:limit]


def _mount_tracefs() -> None:
    """bpftrace's tracepoints need tracefs; a fresh machine may not have it mounted."""
    if Path("/sys/kernel/tracing/events").is_dir() or Path("/sys/kernel/debug/tracing/events").is_dir():
        return
    try:
        tool.run(["mount", "-t", "tracefs", "nodev", "/sys/kernel/tracing"], timeout=10,
                 what="mount tracefs", check=False)
    except (NotInstalled, ToolFailed):
        pass  # bpftrace says what is missing
