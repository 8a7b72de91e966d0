"""The user's manual (``docs/`` with ``mkdocs.yml``), built offline for ``warnscope docs``.

The sources sit at the top of a checkout, or beside this module in an installed
warnscope (``analyzer/site/manual``, where Meson installs them). The built pages go to
the cache, one directory per content of the sources, so a second ``warnscope docs``
builds nothing and an edited page builds a new copy. MkDocs' own theme is used: nothing
is loaded from the network.
"""
from __future__ import annotations

import hashlib
import logging
import shutil
import tempfile
from pathlib import Path

from warnscope.errors import NotInstalled
from warnscope.paths import cache_dir


def sources() -> Path:
    """The directory holding ``mkdocs.yml`` and ``docs/``."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "manual", here.parent.parent):
        if (candidate / "mkdocs.yml").is_file() and (candidate / "docs").is_dir():
            return candidate
    raise NotInstalled("the documentation is missing from this installation (no mkdocs.yml "
                       "and docs/ beside analyzer/site or at the top of the checkout)")


def _digest(root: Path) -> str:
    """What the built pages depend on: the configuration and every page, by content."""
    h = hashlib.sha256((root / "mkdocs.yml").read_bytes())
    for page in sorted((root / "docs").rglob("*")):
        if page.is_file() and not page.is_symlink():
            h.update(page.relative_to(root).as_posix().encode() + b"\0" + page.read_bytes())
    return h.hexdigest()[:16]


def build() -> Path:
    """The built manual's directory (its ``index.html`` the first page), built now if
    this content of the sources was never built."""
    root = sources()
    out = cache_dir("manual") / _digest(root)
    if (out / "index.html").is_file():
        return out
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out.parent) as tmp:
        built = Path(tmp) / "site"
        logging.getLogger("mkdocs").setLevel(logging.ERROR)  # links out of docs/: not pages here
        mkdocs_build(load_config(str(root / "mkdocs.yml"), site_dir=str(built)))
        if not (out / "index.html").is_file():  # another process may have built it meanwhile
            shutil.rmtree(out, ignore_errors=True)
            built.rename(out)
    return out
