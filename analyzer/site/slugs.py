"""File names for pages: safe on every filesystem, unique, and stable across builds.

Flag names hold ``=`` (``-Wformat=``) and, in clang, upper case (``-WCL4`` beside
nothing, but ``-Wformat`` beside ``-Wformat=`` must not collide), and a site copied
to a case-insensitive filesystem must keep every page: slugs are lower case, built
from ``[a-z0-9._-]`` only, and a name whose slug another name already has gets a
short hash of itself appended.
"""
from __future__ import annotations

import hashlib
import re
from typing import Callable, Iterable

_UNSAFE = re.compile(r"[^a-z0-9._-]")


def base_slug(name: str) -> str:
    """``-Wformat=`` -> ``wformat_eq``; ``-Wno-foo`` -> ``wno-foo``; never empty."""
    text = name.strip("-").lower().replace("=", "_eq").replace("+", "p")
    text = _UNSAFE.sub(lambda m: f"_{ord(m.group()):x}", text).strip(".") or "_"
    return text[:100]


def slug_map(names: Iterable[str], base: Callable[[str], str] = base_slug,
             reserved: Iterable[str] = ()) -> dict[str, str]:
    """A unique slug per name, ``base(name)`` where no other name has it. Names are
    taken in sorted order, so adding a compiler never renames an existing page unless
    it brings a colliding name. ``reserved``: slugs no name may have (the ``index`` of
    the directory the pages share)."""
    out: dict[str, str] = {}
    taken = set(reserved)
    for name in sorted(set(names)):
        out[name] = unique_slug(base(name), name, taken)
    return out


def unique_slug(slug: str, name: str, taken: set[str]) -> str:
    """``slug``, or where another name took it ``slug~HASH`` of ``name`` (a hash of the
    name, longer if even that is taken); added to ``taken``. The base slugs never hold
    ``~``, so a suffixed slug cannot be another name's base slug: one-to-one."""
    if slug in taken:
        digest = hashlib.sha1(name.encode("utf-8", "surrogateescape")).hexdigest()
        short = f"{slug}~{digest[:8]}"
        slug = short if short not in taken else f"{slug}~{digest}"
    taken.add(slug)
    return slug


def path_slug(text: str) -> str:
    """A UB case id (``signed-integer-overflow/loop``) or a path as one file name
    (``signed-integer-overflow--loop``). Not one-to-one by itself (``a/b--c`` and
    ``a--b/c`` meet): a family of pages takes its names through :func:`slug_map` with
    ``base=path_slug``."""
    return base_slug(text.replace("/", "--"))
