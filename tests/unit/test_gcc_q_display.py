"""What ``-Q --help=warnings`` prints for an option without a variable.

GCC's ``option_enabled`` answers 0 for an option of other languages before it looks
for a variable, so an on/off option of another front end shows as ``[disabled]``
(GCC 16's Modula-2 ``-Wstyle`` under ``-x c``); in its own language, or ``Common``,
it shows nothing. ``tests/system/test_zoo_verify.py`` and ``flags verify gcc-16``
check the real binaries.
"""
from __future__ import annotations

import pytest

from analyzer.verify.gcc_q import _display
from flagdb.model import Flag, GccFacts


def show(languages: list[str], lang: str, takes_argument: bool = False) -> str | None:
    flag = Flag(name="-Wstyle", languages=languages, takes_argument=takes_argument,
                facts=GccFacts())
    return _display(None, flag, {}, 16, lang)


@pytest.mark.parametrize("languages, lang, shown", [
    (["Modula-2"], "C", "[disabled]"),
    (["Modula-2"], "C++", "[disabled]"),
    (["C", "ObjC"], "C++", "[disabled]"),
    (["C", "ObjC"], "C", ""),
    (["Common"], "C", ""),
    ([], "C", ""),
])
def test_an_option_without_a_variable(languages, lang, shown):
    assert show(languages, lang) == shown


def test_one_with_an_argument_shows_nothing():
    assert show(["Modula-2"], "C", takes_argument=True) == ""
