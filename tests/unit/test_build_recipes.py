"""The language a compile command's TU is in, as the compiler sees it."""
from __future__ import annotations

from analyzer.projects.recipes import tu_language


def test_tu_language():
    assert tu_language("/usr/bin/g++-12", ["-c", "lapi.c"], "lapi.c") == "c++"
    assert tu_language("/usr/bin/gcc-12", ["-x", "c++", "-c", "a.c"], "a.c") == "c++"
    assert tu_language("/usr/bin/clang-16", ["-c", "a.cc"], "a.cc") == "c++"
    assert tu_language("/usr/bin/clang-16", ["-c", "a.c"], "a.c") == "c"


def test_a_local_tree_goes_on_past_errors_as_its_build_tool_does():
    from analyzer.projects.recipes import keep_going_words
    assert keep_going_words("ninja -C _build") == "-k 0"
    assert keep_going_words("meson setup b && meson compile -C b") == "--ninja-args=-k0"
    assert keep_going_words("make -j4") == ""            # MAKEFLAGS=k reaches make
    assert keep_going_words("ninja -C b; make docs") == ""


def test_meson_and_cmake_read_the_level_flags_from_their_environment(tmp_path):
    from analyzer.projects.recipes import autoconf_flags
    assert autoconf_flags("meson setup _build", "ninja -C _build", tmp_path) == \
        'CFLAGS="{cflags}" CXXFLAGS="{cxxflags}" meson setup _build'
    assert autoconf_flags("cmake -S . -B b", "make -C b", tmp_path).startswith('CFLAGS="{cflags}"')
    assert autoconf_flags("meson setup b && ninja -C b", "true", tmp_path) == "meson setup b && ninja -C b"


def test_a_failed_meson_or_cmake_step_says_its_error():
    from analyzer.projects.failure import first_error
    assert first_error(["The Meson build system", "meson.build:1:0: ERROR: Unknown options: \"tests\""]) \
        == "meson.build:1:0: ERROR: Unknown options: \"tests\""
    assert first_error(["CMake Error at CMakeLists.txt:3 (project):", "  no compiler"]) \
        == "CMake Error at CMakeLists.txt:3 (project): no compiler"
