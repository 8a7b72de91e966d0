"""``flags verify`` against a compiler on PATH that hangs: one error line within the
timeout (``WARNSCOPE_TOOL_TIMEOUT``), exit != 0, and nothing left running.

The compiler is a real shell script named ``gcc-12`` first on PATH, verified against
the real gcc-12 entry of the shared database: it hangs on ``--version`` (caught by the
probe that resolves a compiler), or answers that and hangs on ``-Q --help=warnings``
(caught by the verification's own query).
"""
from __future__ import annotations

import os
import time

import pytest

TIMEOUT = 2



@pytest.mark.parametrize("hangs_on, shown", [
    ("--version", "gcc-12 --version did not answer within 2 s"),
    ("-Q", "gcc-12 -Q --help=warnings did not answer within 2 s"),
])
def test_verify_against_a_hanging_gcc_is_one_error_line(gcc_db, tmp_path, warnscope,
                                                        one_error, hangs_on, shown, sleeps):
    # a duration of this test's own, to find exactly its processes afterwards
    seconds = f"1000.{os.getpid()}{len(hangs_on)}"
    version = f"sleep {seconds}" if hangs_on == "--version" else "echo 'gcc-12 (fake) 12.2.0'"
    bindir = tmp_path / "bin"
    bindir.mkdir()
    script = bindir / "gcc-12"
    # not exec: the shell waits for its sleep, which must be killed with it
    script.write_text("#!/bin/sh\n"
                      "case \"$1\" in\n"
                      f"  --version) {version};;\n"
                      "  -dumpfullversion) echo 12.2.0;;\n"
                      f"  *) sleep {seconds};;\n"
                      "esac\n")
    script.chmod(0o755)
    env = {"PATH": f"{bindir}{os.pathsep}{os.environ['PATH']}",
           "WARNSCOPE_TOOL_TIMEOUT": str(TIMEOUT)}
    start = time.monotonic()
    proc = warnscope("--db", str(gcc_db), "flags", "verify", "gcc-12", env=env, timeout=120)
    took = time.monotonic() - start
    line = one_error(proc)
    assert line == f"warnscope: error: {script} {shown.split(' ', 1)[1]}", line
    assert took < TIMEOUT + 20  # the timeout, plus starting Python and loading the entry
    assert sleeps.gone(seconds)
