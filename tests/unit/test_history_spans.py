"""Where a flag first appeared and, if it left, where it was last: per family, from a
history (``flags history`` prints it under the rows; the site's flag pages show it)."""
from __future__ import annotations

from analyzer.cli import render
from flagdb.compare import spans
from flagdb.results import HistoryEntry, Span


def entry(compiler: str, present: bool) -> HistoryEntry:
    return HistoryEntry(compiler=compiler, version="1", present=present, default="off" if present else None)


HISTORY = [entry("gcc-9", False), entry("gcc-11", False), entry("gcc-12", True), entry("gcc-16", True),
           entry("clang-13", True), entry("clang-16", True), entry("clang-19", False),
           ]


def test_first_and_last_per_family():
    assert spans(HISTORY) == [Span("gcc", "gcc-12", None), Span("clang", "clang-13", "clang-16")]
    assert spans([entry("gcc-9", False)]) == []


def test_history_text_says_it():
    text = render.history(HISTORY).splitlines()
    assert text[-2:] == ["gcc: first in gcc-12, still present",
                         "clang: first in clang-13, last in clang-16"]
    assert render.history([entry("gcc-9", False)]).splitlines()[-1] == "gcc: in no ingested version"
