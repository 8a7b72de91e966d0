"""Directories a database names, used only where warnscope itself put them.

A database stores where its results came from: a warnings build's source tree (a
Debian package's extracted tree in the cache, or a local tree's path), a UB run's
corpus directory. ``warnings show`` and the site read source lines from there. In a
database from someone else those are the author's words: an ``origin`` of ``/`` or
``../../..`` and a diagnostic in ``etc/shadow`` would print and publish
``/etc/shadow``. So a directory named by a database (:func:`confined`) is used only if
it resolves to

* a directory inside warnscope's own cache (where the Debian source trees are
  extracted), or
* the corpus bundled with warnscope, or
* a tree this user's warnscope was itself pointed at on this machine (``warnings run
  --source``, ``ub run --corpus``): each such run records the tree in the cache
  (:func:`vouch`), which is the user's, not the database's.

Any other is not read at all (the source text is not shown). Inside an accepted root,
a file is read only through :class:`warnscope.extract.Tree`: a regular file, reached
without a link leading out.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

from warnscope.paths import atomic_write, cache_dir


def _key(path: str) -> str:
    return hashlib.sha256(os.fsencode(path)).hexdigest()


def vouch(root: Path | str) -> None:
    """Record that this user pointed warnscope at ``root`` (resolved), so that the
    results stored from it may show its files later."""
    real = os.path.realpath(root)
    atomic_write(cache_dir("trusted-roots") / _key(real), os.fsencode(real))


def _vouched(real: str) -> bool:
    mark = cache_dir("trusted-roots") / _key(real)
    try:
        return mark.read_bytes() == os.fsencode(real)
    except OSError:
        return False


def _inside(path: str, root: Path) -> bool:
    base = os.path.realpath(root)
    return path == base or path.startswith(base.rstrip("/") + "/")


def confined(stored: str | None, under: Path | None = None) -> Path | None:
    """The directory ``stored`` names (relative names under ``under``, which must be in
    the cache), if warnscope may read it (see the module's text); else None."""
    if not stored or "\0" in stored:
        return None
    if os.path.isabs(stored):
        real = os.path.realpath(stored)
    else:
        parts = Path(stored).parts
        if under is None or len(parts) != 1 or parts[0] in (".", ".."):
            return None  # one plain name under the cache's directory, never a path
        real = os.path.realpath(under / stored)
    if not os.path.isdir(real):
        return None
    from warnscope.paths import cache_dir as _cache

    cache = _cache()
    if _inside(real, cache) and real != os.path.realpath(cache):
        return Path(real)
    bundled = Path(__file__).resolve().parents[1] / "corpus"
    if _inside(real, bundled):
        return Path(real)
    return Path(real) if _vouched(real) else None
