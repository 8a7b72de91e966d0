"""What a failed build step says: the line of its log that tells why, and its end."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable, Sequence

from analyzer.projects.cell import BuildCell

#: lines of a failed step's output kept with its cell (what the user reads first)
LOG_TAIL_LINES = 30

#: a compiler's own error line: ``file:line:col: error: …``, ``fatal error: …``,
#: ``internal compiler error: …`` (not a warning that mentions an error); a build
#: system's: Meson's ``meson.build:12:0: ERROR: …``, CMake's ``CMake Error at …``
ERROR_LINE = re.compile(r"(?:^|: )(?:fatal error|internal compiler error|error|ERROR): |^CMake Error\b")


#: a build tool giving up: make's ``make[1]: *** [Makefile:12: x.o] Error 1``, ninja's ``FAILED: x.o``
TOOL_FAILED = re.compile(r"^(?:g?make(?:\[\d+\])?: \*\*\* |FAILED: )")
#: a compiler's warning or note, which says nothing about why a step failed
DIAGNOSTIC_LINE = re.compile(r": (?:warning|note|remark): ")


def log_tail(path: Path) -> str:
    """The last lines of a step's output ('' when there is none)."""
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return ""
    return "\n".join(lines[-LOG_TAIL_LINES:])


def first_error(lines: Iterable[str]) -> str | None:
    """The first compiler error line among ``lines``, stripped. Without one, the line just
    before the build tool's first failure (a build-time tool that would not start, a
    script's message), else that failure line itself; None if the build tool did not fail."""
    previous, failed = "", None
    for line in lines:
        if ERROR_LINE.search(line):
            return line.strip()
        if TOOL_FAILED.match(line):
            if failed is None:
                failed = line.strip() if not previous or DIAGNOSTIC_LINE.search(previous) else previous
        elif line.strip():
            previous = line.strip()
    return failed


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
