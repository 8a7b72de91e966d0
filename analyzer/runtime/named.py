"""The compilers a user named by path or plain name, kept under their ids.

``warnscope ub run --compilers /opt/gcc-13/bin/gcc`` identifies the binary as ``gcc-13``;
where no ``gcc-13`` is on PATH, that id means this binary from then on, in every command
(``--compilers gcc-13``), until ``warnscope toolchain remove gcc-13``. The registry is one
small JSON file in the cache (``compilers/named.json``), written under the cache's lock,
read whole (a damaged file counts as empty, never as an error in an unrelated command).
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass

from warnscope.locks import flocked
from warnscope.paths import atomic_write, cache_dir


@dataclass(frozen=True)
class Named:
    """One registered compiler: its id, the binary and the version it had."""

    compiler: str
    path: str
    version: str


def _file():
    return cache_dir("compilers") / "named.json"


def entries() -> list[Named]:
    """Every registered compiler, by id."""
    try:
        data = json.loads(_file().read_text())
    except (OSError, ValueError):
        return []
    if not isinstance(data, dict):
        return []
    out = []
    for cid, entry in sorted(data.items()):
        if isinstance(entry, dict) and isinstance(entry.get("path"), str):
            out.append(Named(cid, entry["path"], str(entry.get("version", ""))))
    return out


def lookup(cid: str) -> str | None:
    """The binary registered as ``cid``, or None (also when it is gone from the disk)."""
    for entry in entries():
        if entry.compiler == cid and os.path.isfile(entry.path):
            return entry.path
    return None


def register(cid: str, path: str, version: str) -> None:
    """Keep ``path`` as ``cid`` (replacing what the id named before)."""
    _change(lambda data: data.__setitem__(cid, {"path": path, "version": version}))


def remove(cid: str) -> bool:
    """Forget ``cid``; whether it was registered."""
    found = [False]

    def drop(data: dict) -> None:
        found[0] = data.pop(cid, None) is not None
    _change(drop)
    return found[0]


def _change(edit) -> None:
    with flocked(cache_dir("compilers") / ".lock"):
        try:
            data = json.loads(_file().read_text())
            if not isinstance(data, dict):
                data = {}
        except (OSError, ValueError):
            data = {}
        edit(data)
        atomic_write(_file(), json.dumps(data, indent=1, sort_keys=True).encode())
