"""Where warnscope keeps its database and its cache.

Downloads, extracted option files and compiled corpus binaries live in the cache
(``$XDG_CACHE_HOME/warnscope``, overridable with ``WARNSCOPE_CACHE``), never in the
source tree, so a clean clone stays clean and tests can share one cache.
"""
from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path
from typing import BinaryIO

DEFAULT_DB = "warnscope.db"


def db_path(explicit: str | None = None) -> Path:
    """The database file: ``--db`` wins, then ``WARNSCOPE_DB``, then ``./warnscope.db``."""
    return Path(explicit or os.environ.get("WARNSCOPE_DB") or DEFAULT_DB)


def cache_dir(*parts: str) -> Path:
    """A sub-directory of the cache, created on demand."""
    base = os.environ.get("WARNSCOPE_CACHE")
    if base:
        root = Path(base)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
        root = Path(xdg) / "warnscope"
    path = root.joinpath(*parts)
    if not path.is_dir():  # one stat where it exists: this is asked per compile and run
        path.mkdir(parents=True, exist_ok=True)
    return path


def atomic_write(dest: Path, data: bytes | BinaryIO, mode: int | None = None) -> None:
    """Write ``data`` (bytes, or a stream to copy) to ``dest`` so that readers see the
    old file or the whole new one, never a part: a temporary sibling unique to this
    process and thread, then a rename. The cache is shared by concurrent processes."""
    if not dest.parent.is_dir():
        dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with open(tmp, "wb") as out:
            if isinstance(data, bytes):
                out.write(data)
            else:
                shutil.copyfileobj(data, out, 1 << 20)
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, dest)
    finally:
        tmp.unlink(missing_ok=True)
