"""A compiler id spelled two ways is one compiler: one probe, one set of cells."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from analyzer.runtime import toolchain
from analyzer.cli import main

MINI = Path(__file__).resolve().parents[1] / "fixtures" / "ub" / "mini"


@pytest.mark.skipif(shutil.which("clang-16") is None, reason="needs clang-16")
def test_a_zero_padded_id_is_the_same_compiler(tmp_path, capsys):
    assert toolchain.resolve("clang-016") is toolchain.resolve("clang-16")
    assert toolchain.installed(["clang-016", "clang-16"]) == ["clang-16"]
    db = tmp_path / "ub.db"
    assert main(["--db", str(db), "ub", "run", "--corpus", str(MINI), "--compilers",
                 "clang-016,clang-16", "--levels", "O0", "--no-sanitizers", "--no-warnings",
                 "--json"]) == 0
    cells = json.loads(capsys.readouterr().out)
    assert len(cells) == 6 and {c["compiler"] for c in cells} == {"clang-16"}
