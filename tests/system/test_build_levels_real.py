"""Levels on real flag data: a custom set built on a built-in level."""
from __future__ import annotations

import shutil

import pytest

from analyzer.projects import levels
from analyzer.runtime.toolchain import resolve
from warnscope.database import connect
from warnscope.errors import WarnscopeError

pytestmark = pytest.mark.skipif(shutil.which("gcc-12") is None or shutil.which("clang-16") is None,
                                reason="needs gcc-12 and clang-16")


def test_a_custom_set_can_start_from_a_level(gcc_db):
    conn = connect(gcc_db)
    custom = levels.parse_custom(("all-nomt=all -Wno-mismatched-tags", "both=wextra -Wshadow"))
    gcc = resolve("gcc-12")
    everything = levels.flags(conn, gcc, "all", ("c", "c++"), {})
    mine = levels.flags(conn, gcc, "all-nomt", ("c", "c++"), custom)
    assert "-Wmismatched-tags" in everything["c++"]
    assert mine == {lang: [*everything[lang], "-Wno-mismatched-tags"] for lang in ("c", "c++")}
    assert levels.flags(conn, gcc, "both", ("c",), custom) == {"c": ["-Wall", "-Wextra", "-Wshadow"]}
    clang = resolve("clang-16")
    assert levels.flags(conn, clang, "all-nomt", ("c++",), custom) == {
        "c++": ["-Weverything", "-Wno-mismatched-tags"]}


@pytest.mark.parametrize("spec, message", [
    ("x=all -Wshadow al", "'al' is neither an option nor a level"),
    ("all=-Wshadow", "a built-in level has that name"),
    ("=-Wshadow", "expected NAME=FLAGS"),
])
def test_a_bad_flag_set_is_one_line(spec, message):
    with pytest.raises(WarnscopeError, match=message):
        levels.parse_custom((spec,))
