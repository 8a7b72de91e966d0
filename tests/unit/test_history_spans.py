"""Where a flag first appeared and, if it left, where it was last: per family, from a
history (``flags history`` prints it under the rows; the site's flag pages show it)."""
from __future__ import annotations

from flagdb import text as flag_text
from flagdb.compare import spans
from flagdb.results import HistoryEntry, Span


def entry(compiler: str, present: bool) -> HistoryEntry:
    return HistoryEntry(compiler=compiler, version="1", present=present, default="off" if present else None)


HISTORY = [entry("gcc-9", False), entry("gcc-11", False), entry("gcc-12", True), entry("gcc-16", True),
           entry("clang-13", True), entry("clang-16", True), entry("clang-19", False),
           ]


def test_first_and_last_per_family():
    assert spans(HISTORY) == [Span("gcc", "gcc-12", None, "gcc-9", "gcc-16"),
                              Span("clang", "clang-13", "clang-16", "clang-13", "clang-19")]
    assert spans([entry("gcc-9", False)]) == []


def test_history_text_says_it():
    text = flag_text.history(HISTORY).splitlines()
    assert text[-2:] == ["gcc: first in gcc-12, still present",
                         "clang: present in clang-13, the oldest ingested version (the history "
                         "starts there), last in clang-16"]
    assert flag_text.history([entry("gcc-9", False)]).splitlines()[-1] == "gcc: in no ingested version"


def test_the_history_starts_at_the_oldest_ingested_version():
    """A flag in the oldest ingested version is never called new there: it may be
    older than anything ingested."""
    old = [entry("gcc-4.4", True), entry("gcc-9", True), entry("gcc-16", True),
           entry("clang-3.2", True), entry("apple-clang-10.0", True)]
    assert flag_text.history(old).splitlines()[-3:] == [
        "gcc: present in every ingested version (gcc-4.4 … gcc-16)",
        "clang: present in clang-3.2, the only ingested version",
        "apple-clang: present in apple-clang-10.0, the only ingested version"]
