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

_UNSAFE = re.compile(r"[^a-z0-9._-]")


def base_slug(name: str) -> str:
    """``-Wformat=`` -> ``wformat_eq``; ``-Wno-foo`` -> ``wno-foo``; never empty."""
    text = name.strip("-").lower().replace("=", "_eq").replace("+", "p")
    text = _UNSAFE.sub(lambda m: f"_{ord(m.group()):x}", text).strip(".") or "_"
    return text[:100]


def slug_map(names: list[str]) -> dict[str, str]:
    """A unique slug per name. Names are taken in sorted order, so adding a compiler
    never renames an existing page unless it brings a colliding name."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    for name in sorted(set(names)):
        slug = base_slug(name)
        if slug in taken:
            slug = f"{slug}~{hashlib.sha1(name.encode()).hexdigest()[:8]}"
        taken.add(slug)
        out[name] = slug
    return out


def path_slug(text: str) -> str:
    """A UB case id (``signed-integer-overflow/loop``) or compiler pair as one file name."""
    return base_slug(text.replace("/", "--"))
