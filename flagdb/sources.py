"""A source tarball a user names: its SHA-256, checked against the one they give.

The digest also names the tarball's extraction in the cache, so the same bytes are
streamed once whatever the file is called. Hashing a 200 MB tarball costs more than
ingesting what it holds, so a digest is remembered in the cache under the file's
identity (device, inode, size, modification and change times): the same file,
unchanged, is not read again. A write to the file changes its change time, which no
one can set back, so a changed file is always hashed afresh; a digest given with
``--sha256`` is always checked against the bytes.

A tarball on the web (``--source https://…`` with ``--sha256``) is read as a stream,
never stored: the files wanted are taken out as it passes, and kept only when the
whole download had the SHA-256 given.
"""
from __future__ import annotations

import hashlib
import http.client
import os
import re
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Iterator

from warnscope.errors import BadInput, NetworkUnreachable
from warnscope.extract import shown
from warnscope.paths import atomic_write, cache_dir

_HEX64 = re.compile(r"[0-9a-f]{64}")
#: seconds a download may wait for the next bytes
TIMEOUT = 60


def sha256_of(path: Path, expected: str | None = None) -> str:
    """The hex SHA-256 of the file ``path``; with ``expected``, a :class:`BadInput`
    unless it is that (the tarball is then never read further)."""
    if expected is not None and not re.fullmatch(r"[0-9a-fA-F]{64}", expected.strip()):
        raise BadInput(f"--sha256 {expected[:80]!r}: expected 64 hexadecimal digits")
    try:
        with open(path, "rb") as fh:
            memo = cache_dir("sources", "sha256") / _identity(os.fstat(fh.fileno()))
            digest = _remembered(memo) if expected is None else None
            if digest is None:
                h = hashlib.sha256()
                while chunk := fh.read(1 << 20):
                    h.update(chunk)
                digest = h.hexdigest()
                atomic_write(memo, (digest + "\n").encode())
    except OSError as exc:
        if exc.filename is not None and exc.filename != str(path):
            raise  # writing to the cache failed: not the tarball's fault
        raise BadInput(f"{shown(str(path))}: {exc.strerror or exc}") from None
    if expected is not None and digest != expected.strip().lower():
        raise BadInput(f"{shown(str(path))}: SHA-256 is {digest}, not the {expected.strip().lower()} "
                       "given with --sha256: a different or damaged file; not read")
    return digest


def _identity(st: os.stat_result) -> str:
    """A name for a file as it is now: its device, inode, size and times."""
    key = f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}"
    return hashlib.sha256(key.encode()).hexdigest()[:32]


def _remembered(memo: Path) -> str | None:
    try:
        text = memo.read_text().strip()
    except OSError:
        return None
    return text if _HEX64.fullmatch(text) else None


def is_url(source: str) -> bool:
    """Does ``--source`` name a tarball on the web (``http://``, ``https://``)?"""
    return source.startswith(("http://", "https://"))


class _Checked:
    """A download read as a stream, hashed as it is read; :meth:`finish` reads what the
    reader left and raises unless the bytes are the ``sha256`` expected."""

    def __init__(self, response: BinaryIO, url: str, sha256: str):
        self._response = response
        self._url = url
        self._expected = sha256.lower()
        self._hash = hashlib.sha256()

    def read(self, n: int = -1) -> bytes:
        try:
            data = self._response.read(n)
        except (OSError, http.client.HTTPException) as exc:
            raise NetworkUnreachable(f"{self._url}: download broken off ({exc})") from None
        self._hash.update(data)
        return data

    def finish(self) -> None:
        while self.read(1 << 20):
            pass
        digest = self._hash.hexdigest()
        if digest != self._expected:
            raise BadInput(f"{self._url}: SHA-256 is {digest}, not the {self._expected} "
                           "expected: a different or damaged file; nothing kept")


@contextmanager
def download(url: str, sha256: str) -> Iterator[BinaryIO]:
    """``url`` as a stream to read once (nothing of it stored); on leaving the block the
    rest is read and every byte checked against ``sha256``."""
    if not re.fullmatch(r"[0-9a-fA-F]{64}", sha256.strip()):
        raise BadInput(f"--sha256 {sha256[:80]!r}: expected 64 hexadecimal digits")
    try:
        response = urllib.request.urlopen(url, timeout=TIMEOUT)
    except (OSError, http.client.HTTPException, ValueError) as exc:
        if isinstance(exc, urllib.error.HTTPError):
            raise BadInput(f"{url}: HTTP {exc.code} {exc.reason}") from None
        raise NetworkUnreachable(f"{url}: cannot download ({getattr(exc, 'reason', exc)})") from None
    with response:
        checked = _Checked(response, url, sha256.strip())
        yield checked
        checked.finish()
