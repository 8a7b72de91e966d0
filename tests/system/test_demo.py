"""``warnscope demo``, the README's first quick-start command, end to end."""
from __future__ import annotations

import shutil

import pytest



@pytest.mark.skipif(any(shutil.which(c) is None for c in ("gcc-11", "gcc-12", "clang-16")),
                    reason="the demo needs gcc-11, gcc-12 and clang-16")
def test_demo_end_to_end(tmp_path, cli_at):
    cli = cli_at(tmp_path / "demo.db")
    code, out, err = cli("demo")
    assert code == 0, err
    assert "gcc-11: added" in out and "gcc-12: added" in out
    assert out.count(" 0 unexplained") == 2                       # both GCCs verified
    assert "+ -Wuse-after-free " in out and "+ -Wdangling-pointer " in out
    assert "What -Wall turns on in gcc-12 for C (" in out and "-Wformat=1" in out
    assert "What -Wall turns on in gcc-12 for C++ (" in out and "-Wreorder" in out
    # The UB part: the whole corpus on gcc-12 and clang-16, the classic case in detail.
    assert "signed-integer-overflow/loop  (C17 6.5p5)  DIVERGES" in out
    assert "-O0 expected; -O2 hang" in out
    assert "control/unsigned-loop" in out
    # A second run finds everything stored: nothing is ingested or run again.
    code, out, err = cli("demo")
    assert code == 0, err
    assert "gcc-12: unchanged" in out and "(0 run now)" in out
