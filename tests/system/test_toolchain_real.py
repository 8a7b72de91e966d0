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


@pytest.mark.skipif(shutil.which("gcc-12") is None, reason="needs gcc-12")
def test_a_compilers_predefined_macros():
    """What gcc-12 predefines per language and standard (for cppcheck), and no -std
    that is not a known standard ever reaches the driver."""
    gcc = toolchain.resolve("gcc-12")
    c99 = toolchain.predefined_macros(gcc, "c", "-std=gnu99").splitlines()
    assert "#define __GNUC__ 12" in c99 and "#define __STDC_VERSION__ 199901L" in c99
    iso = toolchain.predefined_macros(gcc, "c", "-std=iso9899:2011").splitlines()
    assert "#define __STDC_VERSION__ 201112L" in iso and "#define __STRICT_ANSI__ 1" in iso
    cxx = toolchain.predefined_macros(gcc, "c++").splitlines()
    assert "#define __cplusplus 201703L" in cxx          # g++-12's default, gnu++17
    for language, std in (("c", "-std=gnu99 -v"), ("c", "-fplugin=x.so"), ("fortran", None)):
        with pytest.raises(ValueError):
            toolchain.predefined_macros(gcc, language, std)
