"""A compiler id spelled two ways is one compiler: one probe, one set of cells."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from analyzer import toolchain
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


@pytest.mark.skipif(shutil.which("gcc-12") is None, reason="needs gcc-12")
def test_host_compilers_stay_host_compilers_and_a_missing_one_says_how_to_add_it():
    """The host's compiler wins over a root's; one in neither names ``toolchain add``."""
    host = toolchain.resolve("gcc-12")
    assert host.root is None and host.suite is None and host.where == "host"
    assert host.wrap([host.c_driver, "--version"]) == [host.c_driver, "--version"]
    from analyzer import roots
    from flagdb.model import CompilerId
    if roots.find(CompilerId("gcc", 9)) is not None or shutil.which("gcc-9"):
        pytest.skip("gcc-9 is available here")
    with pytest.raises(toolchain.WarnscopeError, match="toolchain add gcc-9"):
        toolchain.resolve("gcc-9")
