"""Building warnscope's own C helpers in the background (``tool.HelperBuild``).

A run starts the sandbox zygote's build first and collects it once the corpus is read,
so the build must keep every rule of a tool run even while nobody waits for it: a
timeout counted from its start, its whole process group killed at the end, on an error
and when cancelled, its temporary files gone, one error line. The compiler here is the
machine's real ``cc``; the misbehaving ones are real shell scripts named ``cc`` first on
PATH.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from warnscope import tool
from warnscope.errors import ToolFailed, ToolTimeout

from analyzer.sandbox import zygote

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="no cc")


def _hanging_cc(tmp_path: Path, seconds: str) -> Path:
    """A ``cc`` that starts a child and waits for it (not exec: both must be killed)."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    script = bindir / "cc"
    script.write_text(f"#!/bin/sh\nsleep {seconds}\n")
    script.chmod(0o755)
    return bindir


def _has_interpreter(binary: Path) -> bool:
    """Whether the ELF file names a dynamic loader (a PT_INTERP program header)."""
    import struct
    elf = binary.read_bytes()
    phoff, = struct.unpack_from("<Q", elf, 32)
    phentsize, phnum = struct.unpack_from("<HH", elf, 54)
    return any(struct.unpack_from("<I", elf, phoff + i * phentsize)[0] == 3  # PT_INTERP
               for i in range(phnum))


def _leftovers(dest: Path) -> list[str]:
    return [p.name for p in dest.parent.iterdir() if p.name.startswith(".build-")]


def test_a_real_build_in_the_background_gives_a_working_helper(tmp_path):
    source = tmp_path / "hello.c"
    source.write_text('#include <stdio.h>\nint main(void) { puts("built"); return 0; }\n')
    dest = tmp_path / "out" / "hello"
    build = tool.HelperBuild(source, dest, what="the test helper")
    assert build.result() == dest
    assert subprocess.run([str(dest)], capture_output=True, check=True).stdout == b"built\n"
    assert _leftovers(dest) == []


def test_a_failed_build_is_one_line_naming_the_helper(tmp_path):
    source = tmp_path / "broken.c"
    source.write_text("int main(void) { return }\n")
    dest = tmp_path / "out" / "broken"
    build = tool.HelperBuild(source, dest, what="the broken helper")
    with pytest.raises(ToolFailed) as err:
        build.result()
    message = str(err.value)
    assert message.startswith("cannot build the broken helper: ") and "error" in message
    assert "\n" not in message
    assert not dest.exists() and _leftovers(dest) == []


def test_a_hanging_cc_times_out_and_leaves_nothing(tmp_path, monkeypatch, sleeps):
    seconds = sleeps.unique()
    monkeypatch.setenv("PATH", f"{_hanging_cc(tmp_path, seconds)}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv(tool.TIMEOUT_ENV, "1")
    source = tmp_path / "x.c"
    source.write_text("int main(void) { return 0; }\n")
    dest = tmp_path / "out" / "x"
    start = time.monotonic()
    build = tool.HelperBuild(source, dest, what="the test helper")
    time.sleep(0.3)  # the caller's own work meanwhile counts toward the timeout
    with pytest.raises(ToolTimeout) as err:
        build.result()
    assert time.monotonic() - start < 10
    assert str(err.value) == "cc (building the test helper) did not finish within 1 s"
    assert sleeps.gone(seconds)
    assert not dest.exists() and _leftovers(dest) == []


def test_a_build_nobody_collects_is_cancelled_with_its_group(tmp_path, monkeypatch, sleeps):
    seconds = sleeps.unique()
    monkeypatch.setenv("PATH", f"{_hanging_cc(tmp_path, seconds)}{os.pathsep}{os.environ['PATH']}")
    source = tmp_path / "x.c"
    source.write_text("int main(void) { return 0; }\n")
    dest = tmp_path / "out" / "x"
    build = tool.HelperBuild(source, dest, what="the test helper")
    deadline = time.monotonic() + 5
    while not sleeps.running(seconds) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert sleeps.running(seconds)
    build.cancel()
    build.cancel()  # idempotent
    assert sleeps.gone(seconds)
    assert _leftovers(dest) == []
    with pytest.raises(ToolFailed, match="cancelled"):
        build.result()


def test_the_zygote_built_in_the_background_is_static_where_it_can_be(tmp_path, monkeypatch):
    """The run's own path: start_build, then zygote_binary collects that build; linked
    statically when the C library's static archive is installed (Debian's libc6-dev)."""
    monkeypatch.setenv("WARNSCOPE_CACHE", str(tmp_path / "cache"))
    zygote.start_build()
    binary = zygote.zygote_binary()
    assert binary.is_file() and os.access(binary, os.X_OK)
    assert _leftovers(binary) == []
    static = subprocess.run(["cc", "-print-file-name=libc.a"], capture_output=True,
                            text=True).stdout.strip()
    if os.path.isabs(static) and os.path.exists(static):
        assert not _has_interpreter(binary), \
            "a dynamically linked zygote where a static C library is installed"
    assert zygote.zygote_binary() == binary  # built once: the second call finds it
