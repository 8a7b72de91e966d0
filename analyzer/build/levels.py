"""Warning levels: the flags each level appends, per compiler and language.

``all`` follows the classic study: clang's ``-Weverything``; for GCC every warning
flag of that version that takes no value (level options at their top level), for
the language, from the flag database (:func:`flagdb.views.everything`).
"""
from __future__ import annotations

import sqlite3

from flagdb import names, store
from flagdb.closure import lang_name
from flagdb.views import everything
from warnscope.errors import BadInput, NotIngested

from analyzer.runtime.toolchain import Toolchain

FIXED = {"off": ["-w"], "default": [], "wall": ["-Wall"], "wextra": ["-Wall", "-Wextra"]}
BUILTIN = (*FIXED, "all")
#: the levels of an overhead study that run a static analyzer, not a warning set
#: (analyzer/overhead/analysis.py): the compiler's own (GCC's -fanalyzer, the clang static
#: analyzer) and cppcheck
ANALYZERS = ("analyzer", "cppcheck")


def parse_custom(specs: tuple[str, ...]) -> dict[str, list[str]]:
    """``--flag-set NAME=FLAGS`` -> {NAME: [flags]}.

    A word of FLAGS that names a built-in level stands for that level's flags, so a set
    can be a level with changes: ``all-nomt='all -Wno-mismatched-tags'`` is ``all``
    without a warning that crashes the compiler on some project. Each word is either an
    option (starting with ``-``) or a built-in level's name."""
    out = {}
    for spec in specs:
        name, sep, flags = spec.partition("=")
        name = name.strip()
        if not sep or not name or not name.replace("-", "").replace("_", "").isalnum():
            raise BadInput(f"--flag-set {spec!r}: expected NAME=FLAGS, e.g. shadow='-Wshadow'")
        if name in BUILTIN or name in ANALYZERS:
            raise BadInput(f"--flag-set {name}: a built-in level has that name")
        words = flags.split()
        bad = [w for w in words if not w.startswith("-") and w not in BUILTIN]
        if bad:
            raise BadInput(f"--flag-set {name}: {bad[0]!r} is neither an option nor a "
                                 f"level ({', '.join(BUILTIN)})")
        # spliced into build commands as a level's flags are: the same characters
        unsafe = [w for w in words if w not in BUILTIN and not names.safe_word(w)]
        if unsafe:
            raise BadInput(f"--flag-set {name}: {names.shown(unsafe[0])} is not an option of "
                           "letters, digits and + - = , . _ : # (it would be spliced into the "
                           "build's commands)")
        out[name] = words
    return out


def validate(levels: list[str], custom: dict[str, list[str]], analyzers: bool = False) -> None:
    """Refuse an unknown level; ``analyzers``: the analyzer levels are known (a study's)."""
    if not analyzers:
        named = [l for l in levels if l in ANALYZERS and l not in custom]
        if named:
            raise BadInput(f"level {named[0]!r} runs a static analyzer: a level of "
                           "`warnscope overhead run`, not of this command")
    known = (*BUILTIN, *ANALYZERS) if analyzers else BUILTIN
    unknown = [l for l in levels if l not in known and l not in custom]
    if unknown:
        raise BadInput(f"unknown level {unknown[0]!r}: expected {', '.join(known)} "
                             "or a --flag-set name")
    if not levels:
        raise BadInput("no levels given")


def flags(conn: sqlite3.Connection, tc: Toolchain, level: str, languages: tuple[str, ...],
          custom: dict[str, list[str]]) -> dict[str, list[str]]:
    """{language: flags} of ``level`` for ``tc``."""
    if level in FIXED:
        return {lang: list(FIXED[level]) for lang in languages}
    if level in custom:
        per_lang: dict[str, list[str]] = {lang: [] for lang in languages}
        for word in custom[level]:
            expanded = (flags(conn, tc, word, languages, {}) if word in BUILTIN
                        else {lang: [word] for lang in languages})
            for lang in languages:
                per_lang[lang] += expanded[lang]
        return per_lang
    if tc.family == "clang":
        return {lang: ["-Weverything"] for lang in languages}
    data = gcc_data(conn, tc.name)
    out = {lang: everything(data, lang_name(lang)) for lang in languages}
    # the database is someone else's file: its names become arguments and build text
    names.require_stored(tc.name, (f for flags in out.values() for f in flags))
    return out


def gcc_data(conn: sqlite3.Connection, name: str):
    """The GCC's flag data, ingested from Debian's gcc-N-source first if missing.

    Only "not ingested" leads to the download: a busy, damaged or unreadable database
    is reported as what it is, never answered by fetching and ingesting a package."""
    try:
        return store.load(conn, name, with_messages=False)
    except NotIngested:
        from flagdb.ingest import ingest

        ingest(conn, name)
        return store.load(conn, name, with_messages=False)
