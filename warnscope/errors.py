"""One exception type for every error a user can cause.

The CLI turns a :class:`WarnscopeError` into one line on stderr and exit status 1;
anything else is a bug and keeps its traceback.
"""
from __future__ import annotations


class WarnscopeError(Exception):
    """A user-facing error: bad input, missing package, unknown compiler, corrupt database."""


class ParseError(WarnscopeError):
    """Malformed input file; the message always names the file and, where known, the line."""

    def __init__(self, path: str, line: int | None, message: str):
        self.path = path
        self.line = line
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {message}")
