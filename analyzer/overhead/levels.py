"""Warning levels: the flags each level appends, per compiler and language.

``all`` follows the classic study: clang's ``-Weverything``; for GCC every warning
flag of that version that takes no value (level options at their top level), for
the language, from the flag database (:func:`flagdb.queries.everything`).
"""
from __future__ import annotations

import sqlite3

from flagdb import queries, store
from flagdb.errors import WarnscopeError

from analyzer.toolchain import Toolchain

FIXED = {"off": ["-w"], "default": [], "wall": ["-Wall"], "wextra": ["-Wall", "-Wextra"]}
BUILTIN = (*FIXED, "all")


def parse_custom(specs: tuple[str, ...]) -> dict[str, list[str]]:
    """``--flag-set NAME=FLAGS`` -> {NAME: [flags]}."""
    out = {}
    for spec in specs:
        name, sep, flags = spec.partition("=")
        name = name.strip()
        if not sep or not name or not name.replace("-", "").replace("_", "").isalnum():
            raise WarnscopeError(f"--flag-set {spec!r}: expected NAME=FLAGS, e.g. shadow='-Wshadow'")
        if name in BUILTIN:
            raise WarnscopeError(f"--flag-set {name}: a built-in level has that name")
        out[name] = flags.split()
    return out


def validate(levels: list[str], custom: dict[str, list[str]]) -> None:
    unknown = [l for l in levels if l not in BUILTIN and l not in custom]
    if unknown:
        raise WarnscopeError(f"unknown level {unknown[0]!r}: expected {', '.join(BUILTIN)} "
                             "or a --flag-set name")
    if not levels:
        raise WarnscopeError("no levels given")


def flags(conn: sqlite3.Connection, tc: Toolchain, level: str, languages: tuple[str, ...],
          custom: dict[str, list[str]]) -> dict[str, list[str]]:
    """{language: flags} of ``level`` for ``tc``."""
    if level in FIXED:
        return {lang: list(FIXED[level]) for lang in languages}
    if level in custom:
        return {lang: list(custom[level]) for lang in languages}
    if tc.family == "clang":
        return {lang: ["-Weverything"] for lang in languages}
    data = gcc_data(conn, tc.name)
    return {lang: queries.everything(data, queries.lang_name(lang)) for lang in languages}


def gcc_data(conn: sqlite3.Connection, name: str):
    """The GCC's flag data, ingested from Debian's gcc-N-source first if missing."""
    try:
        return store.load(conn, name, with_messages=False)
    except WarnscopeError:
        from flagdb.ingest import ingest

        ingest(conn, name)
        return store.load(conn, name, with_messages=False)
