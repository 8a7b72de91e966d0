"""Compiler ids and the ``--version`` probe: one spelling per compiler, and a broken or
hostile compiler on PATH is a one-line error, never a hung or crashed ``ub run``.

The broken compilers are real executable scripts named ``gcc-99`` put first on PATH:
they exercise the probe itself (its timeout, its process-group kill, its decoding). The
real clang-16 under another spelling is in tests/system/test_toolchain_real.py.
"""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from analyzer.runtime import toolchain
from analyzer.cli import main
from warnscope.errors import WarnscopeError

MINI = Path(__file__).resolve().parents[1] / "fixtures" / "ub" / "mini"


def fake_compiler(tmp_path: Path, monkeypatch, body: str) -> Path:
    """An executable ``gcc-99`` with ``body`` as its shell script, first on PATH."""
    bindir = tmp_path / "bin"
    bindir.mkdir(exist_ok=True)
    script = bindir / "gcc-99"
    script.write_text("#!/bin/sh\n" + body + "\n")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}{os.environ['PATH']}")
    return script


def test_ids_have_one_canonical_spelling():
    assert toolchain.canonical("clang-016") == "clang-16"
    assert toolchain.canonical(" gcc-12") == "gcc-12"
    for bad in ("icc", "gcc-", "gcc-0", "gcc-1234", "clang-١٦"):
        with pytest.raises(WarnscopeError, match="unknown compiler id"):
            toolchain.canonical(bad)


def test_a_compiler_whose_version_hangs_is_a_one_line_error(tmp_path, monkeypatch, capsys, dump,
                                                            sleeps):
    # Not exec: the shell waits for its child, which must die with it. A duration of this
    # test process's own, so that another test run on the machine is not counted.
    seconds = f"31.{os.getpid()}"
    fake_compiler(tmp_path, monkeypatch, f"sleep {seconds}")
    monkeypatch.setattr(toolchain, "PROBE_TIMEOUT", 1.0)
    db = tmp_path / "ub.db"
    start = time.monotonic()
    assert main(["--db", str(db), "ub", "run", "--corpus", str(MINI), "--compilers",
                 "gcc-99", "--levels", "O0"]) == 1
    assert time.monotonic() - start < 10
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--version did not answer within 1 s" in err[0], err
    assert dump(db) == []
    assert sleeps.gone(seconds)



@pytest.mark.parametrize("body, message", [
    ("exit 0", "--version printed nothing"),
    ("printf '\\n  \\n'", "--version printed nothing"),
    ("printf 'gcc \\377\\376 1.0\\n'", "printed output that is not UTF-8"),
    ("echo broken >&2; exit 3", "failed (exit 3): broken"),
])
def test_a_compiler_with_unusable_version_output_is_a_one_line_error(
        tmp_path, monkeypatch, capsys, body, message, dump):
    fake_compiler(tmp_path, monkeypatch, body)
    db = tmp_path / "ub.db"
    assert main(["--db", str(db), "ub", "run", "--corpus", str(MINI), "--compilers", "gcc-99",
                 "--levels", "O0"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("warnscope: error: ") and message in err[0], err
    assert dump(db) == []


def test_a_compiler_that_is_not_executable_is_a_one_line_error(tmp_path, monkeypatch):
    script = fake_compiler(tmp_path, monkeypatch, "echo gcc 99")
    script.chmod(0o644)
    with pytest.raises(WarnscopeError, match="not installed"):
        toolchain.resolve("gcc-99")
