"""The one way warnscope runs a tool for itself.

Compilers' ``--version`` and ``-Q`` queries, the GCC plugin runs, diagtool, apt-get,
dpkg, patch, a measured build: every process warnscope starts on its own behalf goes
through :func:`run` (output captured) or :func:`run_measured` (output to a file, for
timing). A binary on PATH may be broken or hostile, so each run here has the same
rules, written once:

* a timeout on everything; at the timeout the tool's whole process group is killed, so
  a wrapper script that started a child (``sh -c 'sleep 1000'``) leaves nothing behind;
* the tool leads its own session and process group, which is also killed on Ctrl-C and
  on SIGTERM (the CLI turns SIGTERM into an exception) and once the tool itself has
  exited (a daemonised leftover of a compiler is not ours to keep);
* stdin is /dev/null unless input is given, never the user's terminal;
* captured output is capped (:data:`LIMIT` per stream): a tool that prints without end
  is stopped, and the error says where its output was cut;
* where text is asked for, stdout must be UTF-8 (stderr, read only for messages, is
  decoded leniently so that a stray byte never hides the message explaining a failure);
* the tool is measured by ``os.wait4`` (:class:`warnscope.measure.TreeRun`), so a caller
  that times a tool needs nothing else.

Failures are typed (:mod:`warnscope.errors`) and one line naming the tool:
:class:`NotInstalled` (no such binary), :class:`ToolTimeout`, :class:`ToolFailed`
(could not start, non-zero exit when checked, killed, not UTF-8, too much output).

``WARNSCOPE_TOOL_TIMEOUT`` (seconds) replaces every captured run's own timeout: a slow
machine may raise it, a test makes a hanging tool fail fast. A measured run's timeout
is the user's own option (``--timeout``) and is not affected.

The sandbox (:mod:`analyzer.sandbox.runner`) creates its processes itself: an untrusted
program needs namespaces and limits a tool run does not.
"""
from __future__ import annotations

import math
import os
import re
import selectors
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from warnscope.errors import BadInput, NotInstalled, ToolFailed, ToolTimeout
from warnscope.measure import SCHED, Sample, TreeRun

#: bytes of one output stream kept before the tool is stopped as broken (32 MiB: the
#: largest real answer, clang's probe of every option, is well under 1 MiB)
LIMIT = 32 << 20
#: the environment variable that replaces every captured run's timeout (seconds)
TIMEOUT_ENV = "WARNSCOPE_TOOL_TIMEOUT"
#: seconds the pipes are still read after the tool exited and its group was killed
_DRAIN = 2.0
_CHUNK = 1 << 16


@dataclass(frozen=True)
class Completed:
    """A finished tool run: its exit, its output and what it cost."""

    argv: tuple[str, ...]
    #: the exit code; minus the signal number when a signal ended it (as subprocess)
    returncode: int
    stdout: str | bytes
    stderr: str | bytes
    #: the measured process tree (``os.wait4``): CPU, wall, max RSS, exit, load
    usage: TreeRun


def timeout_for(seconds: float) -> float:
    """A captured run's timeout: ``WARNSCOPE_TOOL_TIMEOUT`` if set, else ``seconds``."""
    text = os.environ.get(TIMEOUT_ENV)
    if not text:
        return seconds
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise BadInput(f"{TIMEOUT_ENV}={text}: expected a number of seconds above 0")
    return value


def shown(argv: Sequence[str], limit: int = 160) -> str:
    """A command as one line of an error, cut at ``limit`` characters."""
    text = " ".join(str(a) for a in argv)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def run(argv: Sequence[str], *, timeout: float, what: str | None = None,
        input: bytes | str | None = None, text: bool = True, check: bool = True,
        cwd: str | os.PathLike | None = None, env: Mapping[str, str] | None = None,
        tty: bool = False, limit: int = LIMIT) -> Completed:
    """Run ``argv`` and return its output (see the module for the rules).

    ``timeout``: seconds for this kind of call (:func:`timeout_for` may replace it).
    ``what``: how errors name the command (default: the command itself; a command
    wrapped to run in a toolchain root passes the unwrapped one). ``input``: what the
    tool reads on stdin (/dev/null when None). ``text``: decode stdout as UTF-8
    (strictly) and stderr leniently. ``check``: a non-zero exit or a signal raises
    :class:`ToolFailed`; without it the caller reads ``returncode``. ``tty``: stdout
    and stderr are one pseudo-terminal (tools colour only there); its output is stdout.
    """
    what = what or shown(argv)
    seconds = timeout_for(timeout)
    if isinstance(input, str):
        input = input.encode("utf-8")
    outcome = _execute(list(argv), what, seconds, input=input, cwd=cwd, env=env, tty=tty,
                       limit=limit)
    if outcome.timed_out:
        raise ToolTimeout(f"{what} did not answer within {seconds:g} s")
    code = os.waitstatus_to_exitcode(outcome.status)
    out, err = outcome.stdout, outcome.stderr
    if text:
        err = err.decode("utf-8", "replace")
        try:
            out = out.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ToolFailed(f"{what} printed output that is not UTF-8 (byte {exc.start}): "
                             "not a usable answer") from None
    if check and code != 0:
        raise ToolFailed(_failure(what, code, outcome.stderr))
    return Completed(argv=tuple(argv), returncode=code, stdout=out, stderr=err,
                     usage=outcome.usage)


def _failure(what: str, code: int, stderr: bytes) -> str:
    """The one line of a checked run that failed."""
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"{what} was killed by {name}"
    detail = " ".join(stderr.decode("utf-8", "replace").split())[:200]
    return f"{what} failed (exit {code})" + (f": {detail}" if detail else "")


def run_measured(argv: Sequence[str], *, timeout: float | None = None,
                 output: str | os.PathLike | None = None,
                 cwd: str | os.PathLike | None = None, env: Mapping[str, str] | None = None,
                 nice: int = 0, sched: str | None = None,
                 on_reaped: Callable[[int, TreeRun], None] | None = None,
                 terminate: Callable[[int], bool] | None = None) -> TreeRun:
    """Run ``argv`` to be timed: stdout and stderr appended to ``output`` (discarded when
    None, never a terminal), priority lowered by ``nice`` and ``sched`` (``batch`` or
    ``idle``). At ``timeout`` (the caller's own, e.g. a user's ``--timeout``; None: no
    limit) the process group is killed and the record's ``exit`` is -1, not an error:
    a timed build that ran out of time is a result. ``on_reaped(pid, usage)`` is called
    once the tree's root was reaped (the per-process accounting reads its table then).
    ``terminate(pid)``: how to ask the tree to end at the timeout so that its killed
    processes are reaped inside it and their CPU counts (:func:`_end`)."""
    policy = SCHED.get(sched) if sched else None

    def child_setup() -> None:
        if nice:
            os.nice(nice)
        if policy is not None:
            os.sched_setscheduler(0, policy, os.sched_param(0))

    setup = child_setup if (nice or policy is not None) else None
    with open(output if output is not None else os.devnull, "ab") as sink:
        outcome = _execute(list(argv), shown(argv), timeout, cwd=cwd, env=env, sink=sink,
                           setup=setup, terminate=terminate)
    if on_reaped is not None:
        on_reaped(outcome.pid, outcome.usage)
    if outcome.timed_out:
        return _with_exit(outcome.usage, -1)
    return outcome.usage


def run_child(cmd: Sequence[str], env: Mapping[str, str] | None = None,
              cwd: str | os.PathLike | None = None, check: bool = True) -> Sample:
    """A benchmark's measured command: :func:`run_measured` with its output discarded.

    ``check``: a non-zero exit raises RuntimeError, so a broken command is never
    reported as a fast one.
    """
    run = run_measured(cmd, cwd=cwd, env=env)
    if check and run.exit != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {run.exit}")
    return Sample(user=run.user, sys=run.sys, wall=run.wall, maxrss_kb=run.maxrss_kb)


class Background:
    """A tool that runs beside warnscope while it works (bpftrace for a study's
    accounting, a helper's build), started by the same rules as every other: its own
    session, stdin from /dev/null, a missing binary a :class:`NotInstalled`. Its caller
    reads :attr:`stdout`/:attr:`stderr` (pipes; with ``output``, both go to that file
    instead, which no unread pipe can block) and ends it with :meth:`stop`, which waits
    ``grace`` seconds after ``signal`` and then kills the whole group; also as a
    context manager, so an exception or Ctrl-C never leaves it running."""

    def __init__(self, argv: Sequence[str], *, what: str | None = None,
                 env: Mapping[str, str] | None = None,
                 output: str | os.PathLike | None = None):
        self.what = what or shown(argv)
        if output is None:
            self.proc = _start(list(argv), self.what, stdin=subprocess.DEVNULL,
                               env=None if env is None else dict(env),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        else:
            with open(output, "wb") as sink:
                self.proc = _start(list(argv), self.what, stdin=subprocess.DEVNULL,
                                   env=None if env is None else dict(env), stdout=sink,
                                   stderr=subprocess.STDOUT)
        self.stdout = self.proc.stdout
        self.stderr = self.proc.stderr

    def poll(self) -> int | None:
        """The exit code if the tool has ended, else None."""
        return self.proc.poll()

    def stop(self, sig: int = signal.SIGINT, grace: float = 10.0) -> int:
        """Ask the tool to end (``sig`` to its group), kill the group after ``grace``
        seconds, reap it; the exit code."""
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, sig)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                self.proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                pass
        _kill_group(self.proc.pid)
        return self.proc.wait()

    def __enter__(self) -> "Background":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def build_helper(source: Path, dest: Path, args: Sequence[str] = (), *, what: str) -> Path:
    """Compile warnscope's own little C helper ``source`` (the overhead wrapper, the
    calibration burner) with the machine's ``cc`` into ``dest``, atomically (a
    temporary sibling, then a rename), so concurrent first builds never see half a file.
    ``what`` names it in the one-line error."""
    return HelperBuild(source, dest, args, what=what).result()


def c_compiler() -> str | None:
    """The C compiler warnscope builds its helpers with: ``cc``, ``gcc`` or ``clang`` on
    PATH, else the newest versioned one there (``clang-16``, ``gcc-12``: Debian's
    packages of one version install no plain name); None where there is none."""
    for name in ("cc", "gcc", "clang"):
        found = shutil.which(name)
        if found:
            return found
    versioned = [(m[1] == "gcc", int(m[2]), path)
                 for m, path in on_path(re.compile(r"(gcc|clang)-([1-9][0-9]?)"))]
    return max(versioned)[2] if versioned else None


def on_path(pattern: "re.Pattern[str]") -> list[tuple["re.Match[str]", str]]:
    """Every executable on PATH whose name ``pattern`` matches in full, with its path, in
    PATH's order (a directory that cannot be listed is passed over)."""
    found = []
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        try:
            names = sorted(os.listdir(folder or "."))
        except OSError:
            continue
        for name in names:
            m = pattern.fullmatch(name)
            path = os.path.join(folder, name)
            if m and os.access(path, os.X_OK):
                found.append((m, path))
    return found


class HelperBuild:
    """A build of one of warnscope's C helpers, started now and collected with
    :meth:`result`: a caller that needs the helper only later (the UB runner's sandbox
    zygote, once the corpus is read) lets ``cc`` run on another core meanwhile. A
    :class:`Background` tool, so the same rules as every tool run, plus a timeout
    counted from the start; :meth:`cancel` for a build that is no longer wanted. Its
    messages go to a file beside the output."""

    def __init__(self, source: Path, dest: Path, args: Sequence[str] = (), *, what: str):
        cc = c_compiler()
        if cc is None:
            raise NotInstalled(f"no C compiler (cc, gcc, clang or a gcc-N, clang-N on PATH) "
                               f"to build {what} with: "
                                "your distribution's gcc or clang package (Debian: apt-get "
                                "install gcc)")
        self.dest, self.what = dest, what
        self.seconds = timeout_for(120)
        dest.parent.mkdir(parents=True, exist_ok=True)
        self.tmp = Path(tempfile.mkdtemp(dir=dest.parent, prefix=".build-"))
        self.out = self.tmp / dest.name
        self.tool: Background | None = None
        try:
            self.tool = Background([cc, "-O2", "-w", *args, str(source), "-o", str(self.out)],
                                   what=f"cc (building {what})", output=self.tmp / "messages")
        except BaseException:
            shutil.rmtree(self.tmp, ignore_errors=True)
            raise
        self.deadline = time.monotonic() + self.seconds

    def result(self) -> Path:
        """Wait for the build; ``dest`` once it is in place, else :class:`ToolFailed`
        (or :class:`ToolTimeout`) saying why in one line."""
        try:
            if self.tool is None:
                raise ToolFailed(f"cannot build {self.what}: the build was cancelled")
            try:
                code = self.tool.proc.wait(timeout=max(0.0, self.deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                raise ToolTimeout(f"cc (building {self.what}) did not finish within "
                                  f"{self.seconds:g} s") from None
            if code != 0:
                text = (self.tmp / "messages").read_bytes()[:2000].decode("utf-8", "replace")
                raise ToolFailed(f"cannot build {self.what}: {' '.join(text.split())[:300]}")
            os.replace(self.out, self.dest)
            return self.dest
        finally:
            self.cancel()

    def cancel(self) -> None:
        """Kill what is left of the build's group, reap it, remove its files (idempotent)."""
        background, self.tool = self.tool, None
        if background is not None:
            background.stop(signal.SIGKILL, grace=0)
        shutil.rmtree(self.tmp, ignore_errors=True)


def _with_exit(usage: TreeRun, code: int) -> TreeRun:
    return TreeRun(user=usage.user, sys=usage.sys, wall=usage.wall, maxrss_kb=usage.maxrss_kb,
                   exit=code, load1=usage.load1)


# ----------------------------------------------------------------------------- the engine


@dataclass
class _Outcome:
    pid: int             # the tool's (reaped) process id
    status: int          # the wait status (os.wait4)
    usage: TreeRun
    stdout: bytes
    stderr: bytes
    timed_out: bool


def _start(argv: list[str], what: str, **kwargs) -> subprocess.Popen:
    """Popen in a session of its own; a missing binary is :class:`NotInstalled`."""
    try:
        return subprocess.Popen(argv, start_new_session=True, close_fds=True, **kwargs)
    except FileNotFoundError as exc:
        cwd = kwargs.get("cwd")
        if cwd is not None and exc.filename == os.fspath(cwd):
            raise ToolFailed(f"cannot run {what}: no directory {os.fspath(cwd)}") from None
        raise NotInstalled(f"{os.path.basename(argv[0])} is not installed "
                           f"(cannot run {argv[0]}: no such file)") from None
    except OSError as exc:
        raise ToolFailed(f"cannot run {what}: {exc.strerror or exc}") from None


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


#: seconds a tree asked to end at its timeout (``terminate``) has before its group is killed
END_GRACE = 10.0


def _end(pid: int, terminate: Callable[[int], bool] | None) -> tuple[int, Any]:
    """End a tree at its timeout and reap its root: first ``terminate(pid)`` (True: it
    asked the tree's own reaper to kill and reap the rest, so their CPU reaches the
    root's rusage; the build sandbox's init), then, if the root has not ended within
    :data:`END_GRACE`, SIGKILL to its whole group (what a parent had not reaped by then
    is lost from the rusage)."""
    try:
        asked = terminate is not None and terminate(pid)
    except OSError:   # the tree ended meanwhile, or its reaper is not there
        asked = False
    if asked:
        deadline = time.monotonic() + END_GRACE
        while time.monotonic() < deadline:
            done, status, usage = os.wait4(pid, os.WNOHANG)
            if done:   # (no group kill after the reap: the number may be anyone's by now)
                return status, usage
            time.sleep(0.02)
    _kill_group(pid)
    _, status, usage = os.wait4(pid, 0)
    return status, usage


def _execute(argv: list[str], what: str, timeout: float | None, *,
             input: bytes | None = None, cwd=None, env=None, tty: bool = False,
             limit: int = LIMIT, sink=None, setup=None,
             terminate: Callable[[int], bool] | None = None) -> _Outcome:
    """Start ``argv``, feed and read it until it exits (or the timeout: :func:`_end`,
    with ``terminate``), kill what is left of its group, reap it with ``wait4``. Output goes to ``sink`` (a file) if
    given, else is captured (``tty``: through a pseudo-terminal)."""
    load1 = os.getloadavg()[0]
    master = slave = None
    if sink is not None:
        streams = {"stdout": sink, "stderr": subprocess.STDOUT}
    elif tty:
        master, slave = os.openpty()
        streams = {"stdout": slave, "stderr": slave}
    else:
        streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    stdin = subprocess.DEVNULL if input is None else subprocess.PIPE
    start = time.monotonic()
    try:
        proc = _start(argv, what, stdin=stdin, cwd=cwd,
                      env=None if env is None else dict(env), preexec_fn=setup, **streams)
    except BaseException:
        for fd in (master, slave):
            if fd is not None:
                os.close(fd)
        raise
    if slave is not None:
        os.close(slave)
    readers: dict[int, str] = {}
    if master is not None:
        readers[master] = "stdout"
    elif sink is None:
        readers[proc.stdout.fileno()] = "stdout"
        readers[proc.stderr.fileno()] = "stderr"
    captured = {"stdout": bytearray(), "stderr": bytearray()}
    deadline = None if timeout is None else start + timeout
    status = usage = None
    timed_out = False
    sel = selectors.DefaultSelector()
    try:
        pidfd = os.pidfd_open(proc.pid)
    except (AttributeError, OSError):
        pidfd = None  # an old kernel: poll for the exit instead
    try:
        for fd in readers:
            os.set_blocking(fd, False)
            sel.register(fd, selectors.EVENT_READ, "read")
        if pidfd is not None:
            sel.register(pidfd, selectors.EVENT_READ, "exit")
        pending = memoryview(input) if input is not None else None
        if pending is not None:
            os.set_blocking(proc.stdin.fileno(), False)
            sel.register(proc.stdin.fileno(), selectors.EVENT_WRITE, "write")
        drain_until = None
        while True:
            now = time.monotonic()
            if status is not None and (not readers or now >= drain_until):
                break
            if status is None and deadline is not None and now >= deadline:
                timed_out = True
                status, usage = _end(proc.pid, terminate)
                break
            wait = None
            if status is not None:
                wait = drain_until - now
            elif deadline is not None:
                wait = deadline - now
            if pidfd is None and status is None:
                wait = 0.05 if wait is None else min(wait, 0.05)
            for key, _ in sel.select(wait):
                if key.data == "exit":
                    sel.unregister(key.fd)
                    _, status, usage = os.wait4(proc.pid, 0)
                elif key.data == "write":
                    try:
                        n = os.write(key.fd, pending[:_CHUNK])
                    except BrokenPipeError:
                        n = len(pending)  # the tool stopped reading: its exit tells
                    pending = pending[n:]
                    if not len(pending):
                        sel.unregister(key.fd)
                        proc.stdin.close()
                else:
                    try:
                        data = os.read(key.fd, _CHUNK)
                    except BlockingIOError:
                        continue
                    except OSError:  # EIO: every holder of the terminal is gone
                        data = b""
                    if not data:
                        sel.unregister(key.fd)
                        del readers[key.fd]
                        continue
                    name = readers[key.fd]
                    buf = captured[name]
                    if len(buf) + len(data) > limit:
                        raise ToolFailed(f"{what} printed more than {limit} bytes on {name}: "
                                         f"stopped and cut at byte {limit}")
                    buf += data
            if status is None and pidfd is None:
                pid, st, ru = os.wait4(proc.pid, os.WNOHANG)
                if pid:
                    status, usage = st, ru
            if status is not None and drain_until is None:
                # the tool is done: whatever it left running in its group is not
                _kill_group(proc.pid)
                drain_until = time.monotonic() + _DRAIN
    except BaseException:
        # Ctrl-C, SIGTERM (the CLI raises it here), too much output, a bug: nothing
        # is left running behind us
        _kill_group(proc.pid)
        if status is None:
            os.wait4(proc.pid, 0)
        proc.returncode = -9
        raise
    finally:
        sel.close()
        for fd in (pidfd, master):
            if fd is not None:
                os.close(fd)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
    wall = time.monotonic() - start
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    code = proc.returncode if proc.returncode >= 0 else 128 - proc.returncode
    record = TreeRun(user=usage.ru_utime, sys=usage.ru_stime, wall=wall,
                     maxrss_kb=usage.ru_maxrss, exit=code, load1=load1)
    return _Outcome(pid=proc.pid, status=status, usage=record, stdout=bytes(captured["stdout"]),
                    stderr=bytes(captured["stderr"]), timed_out=timed_out)
