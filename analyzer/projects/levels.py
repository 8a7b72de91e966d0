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
from warnscope.compilers import CompilerId
from warnscope.errors import BadInput, NotIngested
from warnscope.profiles import LevelSource

from analyzer.runtime.toolchain import Toolchain

FIXED = {"off": ["-w"], "default": [], "wall": ["-Wall"], "wextra": ["-Wall", "-Wextra"]}
BUILTIN = (*FIXED, "all")
#: the levels that run a static analyzer, not a warning set: the compiler's own (GCC's
#: -fanalyzer, the clang static analyzer) and cppcheck. Named here, so that no flag set
#: takes their names and a command of warning levels refuses them; what each runs is
#: decided by the command that takes them (:func:`validate`'s ``analyzers``)
ANALYZERS = ("analyzer", "cppcheck")


def parse_custom(specs: tuple[str, ...]) -> dict[str, list[str]]:
    """``--flag-set NAME=FLAGS`` -> {NAME: [flags]}.

    A word of FLAGS that names a built-in level stands for that level's flags, so a set
    can be a level with changes: ``all-nomt='all -Wno-mismatched-tags'`` is ``all``
    without a warning that crashes the compiler on some project. Each word is either an
    option (starting with ``-``), an option for one language (``c:-std=gnu17``,
    ``c++:-std=gnu++17``) or a built-in level's name."""
    out = {}
    for spec in specs:
        name, sep, flags = spec.partition("=")
        name = name.strip()
        if not sep or not name or not name.replace("-", "").replace("_", "").isalnum():
            raise BadInput(f"--flag-set {spec!r}: expected NAME=FLAGS, e.g. shadow='-Wshadow'")
        if name in BUILTIN or name in ANALYZERS:
            raise BadInput(f"--flag-set {name}: a built-in level has that name")
        words = flags.split()
        bad = [w for w in words if not language_word(w)[1].startswith("-") and w not in BUILTIN]
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


def language_word(word: str) -> tuple[str | None, str]:
    """A flag-set word for one language only (``c:-std=gnu17``, ``c++:-std=gnu++17``) as
    (language, option); any other word as (None, word)."""
    for lang in ("c++", "c"):
        if word.startswith(lang + ":-"):
            return lang, word[len(lang) + 1:]
    return None, word


def validate(levels: list[str], custom: dict[str, list[str]], analyzers: bool = False) -> None:
    """Refuse an unknown level; ``analyzers``: the analyzer levels are known (a study's)."""
    if not analyzers:
        named = [l for l in levels if l in ANALYZERS and l not in custom]
        if named:
            raise BadInput(f"level {named[0]!r} runs a static analyzer, not a warning set: "
                           "not a level of this command")
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
            only, option = language_word(word)
            expanded = (flags(conn, tc, word, languages, {}) if word in BUILTIN
                        else {lang: [option] if only in (None, lang) else [] for lang in languages})
            for lang in languages:
                per_lang[lang] += expanded[lang]
        return per_lang
    if tc.profile.level_source is LevelSource.WEVERYTHING:
        return {lang: ["-Weverything"] for lang in languages}
    data = gcc_data(conn, tc.name)
    out = {lang: everything(data, lang_name(lang)) for lang in languages}
    # the database is someone else's file: its names become arguments and build text
    names.require_stored(tc.name, (f for flags in out.values() for f in flags))
    return out


def data_name(conn: sqlite3.Connection, name: str) -> str:
    """The compiler whose flag data answers for ``name``: its own where the database holds
    it; for a compiler of another target whose own is not ingested
    (``gcc-12@aarch64-linux-gnu``), the same version for the host's target
    (:attr:`CompilerId.host`, ``gcc-12``), whose options are the same front end's. Every
    caller that falls back says so (:func:`borrowed`)."""
    cid = CompilerId.of(name)
    if not cid.target:
        return name
    try:
        store.compiler_row(conn, name)
        return name
    except NotIngested:
        return str(cid.host)


def borrowed(conn: sqlite3.Connection, name: str) -> str | None:
    """The host id whose flag data answers for ``name`` in its stead (:func:`data_name`),
    or None where ``name``'s own data does (or a host compiler's)."""
    used = data_name(conn, name)
    return used if used != name else None


def borrowed_note(compiler: str, host: str, what: str) -> str:
    """The sentence that says a compiler's flag data was its host id's."""
    return (f"{compiler} is not in the flag database: {what} from {host}'s flag data, the same "
            f"version for the host's target (warnscope flags ingest {compiler} gives its own)")


def needs_data(tc: Toolchain, level: str, custom: dict[str, list[str]]) -> bool:
    """Whether ``level``'s flags for ``tc`` are read from the flag database (GCC's
    ``all``, or a set holding it)."""
    if tc.profile.level_source is not LevelSource.FLAG_DATABASE:
        return False
    return level == "all" or "all" in custom.get(level, ())


def gcc_data(conn: sqlite3.Connection, name: str):
    """The GCC's flag data, ingested from Debian's gcc-N-source first if missing; for a
    GCC of another target without its own, its host id's (:func:`data_name`).

    Only "not ingested" leads to the download: a busy, damaged or unreadable database
    is reported as what it is, never answered by fetching and ingesting a package."""
    name = data_name(conn, name)
    try:
        return store.load(conn, name, with_messages=False)
    except NotIngested:
        from flagdb.ingest import ingest

        ingest(conn, name)
        return store.load(conn, name, with_messages=False)
