"""The private work directories of builds, in the cache, and the sweeping of those a
killed run left behind.

Each compiler job of a study, each attribution and each build of ``warnings run``
builds in a directory of its own under ``<cache>/builds/work``: a copied, configured,
built source tree, often hundreds of MB. A run that ends normally, fails or is interrupted removes its
directory; one that is killed outright (SIGKILL, the OOM killer, a lost machine)
cannot. So a directory is held for its whole life by an exclusive ``flock`` on its
``.lock`` file, which the kernel releases when its process dies, and every new work
directory first removes the others whose lock it can take: nobody holds them.

A directory without a lock file comes from an older warnscope; it is removed once it
is a day old (such a run could still be going on; none lasts a day).
"""
from __future__ import annotations

import os
import shutil
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

from warnscope.locks import flocked
from warnscope.paths import cache_dir

LOCK = ".lock"
LEGACY_AGE_S = 24 * 3600


class WorkDir:
    """A fresh directory held by this process until :meth:`close` (or the ``with`` exit)."""

    def __init__(self, prefix: str) -> None:
        root = cache_dir("builds", "work")
        sweep(root)
        self.path = Path(tempfile.mkdtemp(dir=root, prefix=prefix))
        # locked before it gets its name, so that a sweep never finds it unlocked
        pending = self.path / f"{LOCK}.new"
        self._lock: ExitStack | None = ExitStack()
        self._lock.enter_context(flocked(pending))
        os.rename(pending, self.path / LOCK)

    def close(self) -> None:
        if self._lock is not None:
            shutil.rmtree(self.path, ignore_errors=True)
            self._lock.close()
            self._lock = None

    def __enter__(self) -> Path:
        return self.path

    def __exit__(self, *_exc: object) -> None:
        self.close()


def sweep(root: Path) -> list[Path]:
    """Remove the work directories under ``root`` that no living process holds; return them."""
    removed = []
    for path in sorted(root.iterdir()):
        if path.is_dir() and _abandoned(path):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


def _abandoned(path: Path) -> bool:
    lock = path / LOCK
    if not lock.exists():
        try:
            return time.time() - path.stat().st_mtime > LEGACY_AGE_S
        except FileNotFoundError:
            return False  # removed meanwhile by its owner
    try:
        with flocked(lock, wait=False) as held:
            return held is not None  # None: its process is alive
    except OSError:
        return False
