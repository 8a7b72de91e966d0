"""warnscope.tool, the one runner of the tools warnscope starts for itself: real
processes (sh, sleep, cat, yes), each rule shown failing the way a broken or hostile
binary would make it fail, and nothing left running afterwards."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from warnscope import tool
from warnscope.errors import BadInput, NotInstalled, ToolFailed, ToolTimeout

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "fixtures" / "ub" / "mini"



def test_output_exit_and_usage():
    done = tool.run(["sh", "-c", "echo out; echo err >&2; i=0; "
                     "while [ $i -lt 100000 ]; do i=$((i+1)); done"], timeout=30)
    assert (done.returncode, done.stdout, done.stderr) == (0, "out\n", "err\n")
    assert done.usage.cpu > 0.01 and done.usage.maxrss_kb > 0 and done.usage.exit == 0
    assert done.usage.wall >= done.usage.cpu * 0.5


def test_a_hanging_tool_and_its_children_are_killed_at_the_timeout(sleeps):
    seconds = sleeps.unique()
    start = time.monotonic()
    with pytest.raises(ToolTimeout, match=r"^sh -c sleep .* did not answer within 0.5 s$"):
        # not exec: the shell waits for its child, which must die with it
        tool.run(["sh", "-c", f"sleep {seconds}; true"], timeout=0.5)
    assert time.monotonic() - start < 5
    assert sleeps.gone(seconds)


def test_the_environment_sets_every_timeout(monkeypatch):
    monkeypatch.setenv(tool.TIMEOUT_ENV, "0.3")
    start = time.monotonic()
    with pytest.raises(ToolTimeout, match="within 0.3 s"):
        tool.run(["sleep", "10"], timeout=600)
    assert time.monotonic() - start < 5
    for bad in ("soon", "0", "-1", "nan", "inf"):
        monkeypatch.setenv(tool.TIMEOUT_ENV, bad)
        with pytest.raises(BadInput, match=f"{tool.TIMEOUT_ENV}={bad}: expected"):
            tool.run(["true"], timeout=1)


def test_what_a_finished_tool_left_running_is_killed(sleeps):
    seconds = sleeps.unique()
    start = time.monotonic()
    done = tool.run(["sh", "-c", f"sleep {seconds} & echo started"], timeout=30)
    assert done.stdout == "started\n"
    assert time.monotonic() - start < 5  # not held up by the sleep's copy of the pipes
    assert sleeps.gone(seconds)


def test_a_missing_tool_is_not_installed():
    with pytest.raises(NotInstalled, match=r"^no-such-tool-\d+ is not installed"):
        tool.run([f"no-such-tool-{os.getpid()}", "--version"], timeout=5)


def test_a_failing_tool_names_itself_and_what_it_said():
    with pytest.raises(ToolFailed, match=r"^sh -c .* failed \(exit 3\): broken here$"):
        tool.run(["sh", "-c", "echo broken here >&2; exit 3"], timeout=5)
    with pytest.raises(ToolFailed, match=r"^gcc-99 -Q was killed by SIGKILL$"):
        tool.run(["sh", "-c", "kill -9 $$"], timeout=5, what="gcc-99 -Q")
    done = tool.run(["sh", "-c", "exit 3"], timeout=5, check=False)
    assert done.returncode == 3 and done.usage.exit == 3


def test_text_must_be_utf8_bytes_need_not():
    with pytest.raises(ToolFailed, match=r"printed output that is not UTF-8 \(byte 4\)"):
        tool.run(["printf", "gcc \\377 1.0"], timeout=5)
    assert tool.run(["printf", "gcc \\377"], timeout=5, text=False).stdout == b"gcc \xff"
    # stderr is for messages: a stray byte does not hide the message
    done = tool.run(["sh", "-c", "printf 'bad \\377 byte' >&2"], timeout=5)
    assert done.stderr == "bad \ufffd byte"


def test_endless_output_is_stopped_and_says_where_it_was_cut():
    start = time.monotonic()
    with pytest.raises(ToolFailed, match=r"^yes printed more than 100000 bytes on stdout: "
                                         r"stopped and cut at byte 100000$"):
        tool.run(["yes"], timeout=60, limit=100_000)
    assert time.monotonic() - start < 10


def test_stdin_is_dev_null_unless_input_is_given():
    assert tool.run(["cat"], timeout=5).stdout == ""  # does not wait for a terminal
    big = "line\n" * 50_000  # more than a pipe holds: written while output is read
    assert tool.run(["cat"], timeout=10, input=big).stdout == big
    assert tool.run(["cat"], timeout=5, input=b"", text=False).stdout == b""


def test_a_pseudo_terminal_when_asked():
    script = "[ -t 1 ] && echo tty || echo pipe; [ -t 2 ] && echo tty2 >&2; true"
    assert tool.run(["sh", "-c", script], timeout=5).stdout == "pipe\n"
    assert tool.run(["sh", "-c", script], timeout=5, tty=True).stdout == "tty\r\ntty2\r\n"


def test_ctrl_c_kills_the_tool_and_propagates(sleeps):
    seconds = sleeps.unique()
    previous = signal.signal(signal.SIGALRM, signal.default_int_handler)
    signal.setitimer(signal.ITIMER_REAL, 0.3)
    try:
        with pytest.raises(KeyboardInterrupt):
            tool.run(["sh", "-c", f"sleep {seconds}; true"], timeout=60)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert sleeps.gone(seconds)


def test_sigterm_to_the_cli_kills_the_tool_it_waits_for(tmp_path, sleeps):
    """The CLI turns SIGTERM into an exception where the program is: here, waiting for a
    compiler's ``--version`` that hangs."""
    seconds = sleeps.unique()
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "gcc-99").write_text(f"#!/bin/sh\nsleep {seconds}\n")
    (bindir / "gcc-99").chmod(0o755)
    env = {**os.environ, "PYTHONPATH": str(ROOT),
           "PATH": f"{bindir}{os.pathsep}{os.environ['PATH']}"}
    child = subprocess.Popen(
        [sys.executable, "-c", "import sys; from analyzer.cli import main; sys.exit(main())",
         "--db", str(tmp_path / "ub.db"), "ub", "run", "--corpus", str(MINI),
         "--compilers", "gcc-99", "--levels", "O0"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while not sleeps.running(seconds) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert sleeps.running(seconds), "the fake compiler never started"
    child.send_signal(signal.SIGTERM)
    _, err = child.communicate(timeout=30)
    assert child.returncode == 128 + signal.SIGTERM, err
    assert sleeps.gone(seconds)


def test_a_measured_run_writes_its_output_to_a_file_and_times_out_as_a_result(tmp_path, sleeps):
    log = tmp_path / "build.log"
    run = tool.run_measured(["sh", "-c", "echo one; echo two >&2"], output=log, timeout=10)
    assert run.exit == 0 and log.read_text() == "one\ntwo\n"
    seconds = sleeps.unique()
    start = time.monotonic()
    run = tool.run_measured(["sh", "-c", f"sleep {seconds}; true"], timeout=0.3)
    assert run.exit == -1 and time.monotonic() - start < 5
    assert sleeps.gone(seconds)
    assert tool.run_measured(["sh", "-c", "kill -9 $$"]).exit == 128 + 9


#: a shell loop that burns CPU for a while (about 0.1-0.5 s here): a benchmark's child
BUSY = ["sh", "-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"]


def test_a_busy_child_is_measured_by_its_own_rusage():
    sample = tool.run_child(BUSY)
    assert sample.cpu > 0.02                       # it did burn CPU, and we saw it
    assert sample.user > 0
    assert sample.cpu <= sample.wall * 1.1 + 0.02  # one single-threaded process
    assert sample.maxrss_kb > 0


def test_a_sleeping_child_costs_wall_not_cpu():
    sample = tool.run_child(["sleep", "0.3"])
    assert sample.wall >= 0.3
    assert sample.cpu < 0.1


def test_a_failing_child_is_an_error_not_a_fast_figure():
    with pytest.raises(RuntimeError, match="exited 3"):
        tool.run_child(["sh", "-c", "exit 3"])
    assert tool.run_child(["sh", "-c", "exit 3"], check=False).wall >= 0
