"""What a failed build step says: the line of its log that tells why, and its end."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from analyzer.projects.cell import BuildCell

#: lines of a failed step's output kept with its cell (what the user reads first)
LOG_TAIL_LINES = 30

#: a line that says what went wrong, wherever it stands: a compiler's error (``file:line:col:
#: error: …``, ``fatal error: …``, ``internal compiler error: …``; not a warning that
#: mentions an error), configure's ``configure: error: …``, the linker's ``undefined
#: reference to`` and ``cannot find -lz``, a shell's program that is not there (bash's
#: ``missing: line 81: aclocal-1.16: command not found``, dash's ``/bin/sh: 1: x: not
#: found``), Meson's ``meson.build:12:0: ERROR: …``, CMake's ``CMake Error at …``
ERROR_LINE = re.compile(r"(?:^|: )(?:fatal error|internal compiler error|error|ERROR): |^CMake Error\b"
                        r"|: undefined reference to |^\S*\bld(?:\.\w+)?: cannot find "
                        r"|: command not found$|^\S*\bsh: (?:line )?\d+: .+: not found$")
#: CMake's error whose words follow on indented lines (``CMake Error at CMakeLists.txt:3
#: (find_package):``, then ``  By not providing "FindZSTD.cmake" …``)
CMAKE_HEADER = re.compile(r"^CMake Error\b.*:$")
#: a build tool giving up: make's ``make[1]: *** [Makefile:12: x.o] Error 1``, ninja's ``FAILED: x.o``
TOOL_FAILED = re.compile(r"^(?:g?make(?:\[\d+\])?: \*\*\* |FAILED: )")
#: a program's own message (``./lemon: …: version `GLIBC_2.38' not found``, ``make:
#: x: No such file or directory``): a name or path, a colon, the words; never indented
#: help text, a URL (automake's ``missing`` ends its advice with ``<https://www.perl.org/>``),
#: a command line or a JSON diagnostic
MESSAGE = re.compile(r"^[\w./+-]+: \S")
#: a compiler's warning or note, which says nothing about why a step failed
DIAGNOSTIC_LINE = re.compile(r": (?:warning|note|remark): ")
#: the words of a CMake error kept (its first paragraph)
CMAKE_WORDS = 400


def log_tail(path: Path) -> str:
    """The last lines of a step's output ('' when there is none)."""
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return ""
    return "\n".join(lines[-LOG_TAIL_LINES:])


def first_error(lines: Iterable[str]) -> str | None:
    """The first line among ``lines`` that says what went wrong (:data:`ERROR_LINE`),
    stripped; a CMake error with the first paragraph of its words. Without one, the
    program's message just before the build tool's first failure (a build-time tool
    that would not start), else that failure line itself (make's ``***``, ninja's
    ``FAILED:``); None if the build tool did not fail. Never a URL or help text."""
    previous, failed = "", None
    lines = iter(lines)
    for line in lines:
        if ERROR_LINE.search(line):
            return _cmake_error(line.strip(), lines) if CMAKE_HEADER.match(line.strip()) else line.strip()
        if TOOL_FAILED.match(line):
            if failed is None:
                message = MESSAGE.match(previous) and not DIAGNOSTIC_LINE.search(previous)
                failed = previous.strip() if message else line.strip()
        elif line.strip():
            previous = line
    return failed


def _cmake_error(header: str, rest: Iterator[str]) -> str:
    """``CMake Error at …:`` and its words, the indented lines up to the first blank one."""
    words: list[str] = []
    for line in rest:
        if not line.strip() or not line[:1].isspace() or sum(map(len, words)) > CMAKE_WORDS:
            break
        words.append(line.strip())
    return " ".join([header, *words])


def fail(cells: Sequence[BuildCell], what: str, log: Path, tree: Path | None = None) -> None:
    """Mark ``cells`` failed with ``what`` and, where the log has one, the compiler's
    first error line: in a build under all warnings it can sit 100,000 lines before
    the log's tail, and it says what went wrong (an internal compiler error, say).
    Paths inside ``tree`` (the private copy built) are said relative to it."""
    try:
        with open(log, errors="replace") as fh:
            error = first_error(fh)
    except OSError:
        error = None
    if error is not None:
        if tree is not None:
            error = error.replace(f"{tree}/", "")
        what = f"{what}: {error[:300]}"
    for c in cells:
        c.mark_failed(what, log_tail(log))
