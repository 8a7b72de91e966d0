"""A source tarball a user names: its SHA-256, checked against the one they give.

The digest also names the tarball's extraction in the cache, so the same bytes are
streamed once whatever the file is called.
"""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

from warnscope.errors import BadInput
from warnscope.extract import shown


def sha256_of(path: Path, expected: str | None = None) -> str:
    """The hex SHA-256 of the file ``path``; with ``expected``, a :class:`BadInput`
    unless it is that (the tarball is then never read further)."""
    if expected is not None and not re.fullmatch(r"[0-9a-fA-F]{64}", expected.strip()):
        raise BadInput(f"--sha256 {expected[:80]!r}: expected 64 hexadecimal digits")
    h = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            while chunk := fh.read(1 << 20):
                h.update(chunk)
    except OSError as exc:
        raise BadInput(f"{shown(str(path))}: {exc.strerror or exc}") from None
    digest = h.hexdigest()
    if expected is not None and digest != expected.strip().lower():
        raise BadInput(f"{shown(str(path))}: SHA-256 is {digest}, not the {expected.strip().lower()} "
                       "given with --sha256: a different or damaged file; not read")
    return digest
