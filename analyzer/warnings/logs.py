"""The logs of a failed build, kept where the user can read them.

A build runs in a private work directory that goes when the build ends; a build that
failed leaves its configure and build logs (its steps' whole output) in
``<cache>/warnings/logs/<project>/<compiler>-<level>/``, one directory per build key,
replaced by the next failed build of that key. The report names the directory; the
error stored with the build is the log's first real error.
"""
from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

from warnscope.paths import cache_dir

from analyzer.projects.cell import BuildStatus
from analyzer.warnings.results import Build

#: the logs a build's work directory holds (analyzer.projects.steps names them)
LOG_GLOB = "*.log"


def _part(text: str) -> str:
    """A directory name for ``text`` (a project or compiler as the user named it, which
    may hold ``/`` or ``:``): its safe characters and, where it had others, a short hash."""
    safe = re.sub(r"[^A-Za-z0-9._+@-]", "_", text)[:60]
    if safe != text:
        safe += "-" + hashlib.sha256(text.encode()).hexdigest()[:8]
    return safe


def directory(b: Build) -> Path:
    """Where the logs of a failed ``b`` are kept (whether or not they are there)."""
    key = f"{b.compiler}-{b.level}"
    if any(b.flags.values()):
        key += "-" + hashlib.sha256(json.dumps(b.flags, sort_keys=True).encode()).hexdigest()[:8]
    return cache_dir("warnings", "logs") / _part(b.project) / _part(key)


def keep(work: Path, b: Build) -> Path | None:
    """Copy the logs of ``work`` (a failed build's) to :func:`directory`; None if it had none."""
    found = sorted(p for p in work.glob(LOG_GLOB) if p.is_file() and not p.is_symlink())
    if not found:
        return None
    dest = directory(b)
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    for p in found:
        shutil.copyfile(p, dest / p.name)
    return dest


def kept(b: Build) -> Path | None:
    """The directory of ``b``'s kept logs, if it failed and they are there."""
    if b.status != BuildStatus.FAILED:
        return None
    d = directory(b)
    return d if any(d.glob(LOG_GLOB)) else None
