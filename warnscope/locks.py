"""One advisory lock for everything warnscope shares between processes: a cache entry
being extracted, a toolchain root being built, an overhead work directory in use.

``flock`` rather than a lock file's existence: the kernel drops it when its holder
dies, however it dies, so a killed run never leaves a stale lock behind.
"""
from __future__ import annotations

import fcntl
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


@contextmanager
def flocked(path: str | os.PathLike, exclusive: bool = True, wait: bool = True) -> Iterator[int | None]:
    """Hold ``flock`` on ``path`` (created if missing) for the ``with`` block.

    With ``wait=False`` the lock is only tried: the block gets ``None`` when another
    process holds it, else the open descriptor (as with ``wait=True``).
    """
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        op = (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | (0 if wait else fcntl.LOCK_NB)
        try:
            fcntl.flock(fd, op)
        except BlockingIOError:
            yield None
            return
        try:
            yield fd
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
