"""The language a compile command's TU is in, as the compiler sees it."""
from __future__ import annotations

from analyzer.build.recipes import tu_language


def test_tu_language():
    assert tu_language("/usr/bin/g++-12", ["-c", "lapi.c"], "lapi.c") == "c++"
    assert tu_language("/usr/bin/gcc-12", ["-x", "c++", "-c", "a.c"], "a.c") == "c++"
    assert tu_language("/usr/bin/clang-16", ["-c", "a.cc"], "a.cc") == "c++"
    assert tu_language("/usr/bin/clang-16", ["-c", "a.c"], "a.c") == "c"
