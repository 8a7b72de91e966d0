"""Which warning option names warnscope accepts, wherever a name comes from.

A name read from a GCC option tree, a directory of clang tables or a database file
ends up as a compiler argument (a level-``all`` build, ``flags verify``'s probe) and,
in whole builds, inside shell text (``make CFLAGS='{cflags}'``, ``make VAR=…``). So a
name is accepted only if it is a warning option, never a driver option, and spelled
with the characters real option names use:

* ``-W`` followed by nothing (GCC's old name of ``-Wextra``, clang's group ``""``) or
  by a letter, digit or ``#``, then letters, digits and ``+ - = , . _ : #``: that covers
  every name of GCC 9–16's option files (``-Wformat=``, ``-Wnormalized=nfc``,
  ``-Wc++11-compat``, ``-Wabi=``) and of clang's tables (``-W#pragma-messages``);
* not ``-Wa,``, ``-Wl,`` or ``-Wp,``, which hand the rest to the assembler, linker
  or preprocessor (``-Wp,-include,/root/secret.h``; clang forwards ``-Wp,-load`` to
  cc1);
* ``-R`` and the same characters: a clang remark group (``-Rpass``);
* the few other names GCC's option files (9–16) file as warnings, exactly as they are
  (:data:`OTHER_SPELLINGS`): ``-pedantic``, ``--pedantic``, ``--all-warnings`` and
  ``--extra-warnings`` (GCC's documented spellings of ``-Wpedantic``, ``-Wall`` and
  ``-Wextra``), Go's ``-frequire-return-statement`` and the RX target's
  ``-mwarn-multiple-fast-interrupts`` (and GCC 4.4's rs6000 ``-mwarn-cell-microcode``). Any other name that is not ``-W…`` (a record
  ``fplugin=evil.so`` or ``B/evil/`` with the ``Warning`` property) is refused.

What the character set buys: none of them means anything to a POSIX shell inside
single quotes, inside double quotes or unquoted (``#`` starts a comment only at the
start of a word, and every name starts with ``-``), and none means anything to make
(no ``$``), so a list of accepted names joined by spaces is the same text in any
quoting context of a build command and is never read as more than words.
"""
from __future__ import annotations

import re
from typing import Iterable

from warnscope.errors import BadInput, CorruptDatabase

#: the characters after the prefix (see the module's text)
_TAIL = r"(?:[A-Za-z0-9#][A-Za-z0-9#+=,._:-]*)?"
_WARNING = re.compile(r"-[WR]" + _TAIL)
#: ``-W<letter>,`` forms that are driver options handing text to another program
_DRIVER = ("-Wa,", "-Wl,", "-Wp,")
#: the warning options of GCC's option files (9–16) that are not spelled -W…, by name
OTHER_SPELLINGS = frozenset({
    "-pedantic", "--pedantic", "--all-warnings", "--extra-warnings",
    "-frequire-return-statement", "-mwarn-multiple-fast-interrupts",
    "-mwarn-cell-microcode",  # rs6000, GCC 4.4 (tests' ../shared/sources/gcc-4.4.6)
})
#: a word that is safe in a build command's text (see :func:`safe_word`)
_SAFE_WORD = re.compile(r"-[A-Za-z0-9#+=,._:-]+")


def problem(name: str) -> str | None:
    """Why ``name`` (as typed, ``-Wshadow``) is not an acceptable warning option name,
    or None when it is."""
    if not isinstance(name, str):
        return "not a warning option name"
    if name in OTHER_SPELLINGS:
        return None
    if name.startswith(_DRIVER):
        return f"a driver option ({name[:4]} passes text to another program), not a warning"
    if not _WARNING.fullmatch(name):
        return "not a warning option name (-W or -R, then letters, digits and + - = , . _ : #)"
    return None


def shown(name: str) -> str:
    """``name`` quoted for an error line, cut to 80 characters (an option file's line
    may be 64 kB long)."""
    return repr(name if len(name) <= 80 else name[:77] + "...")


def is_warning_name(name: str) -> bool:
    """True if ``name`` is an acceptable warning option name (:func:`problem`)."""
    return problem(name) is None


def safe_word(word: str) -> bool:
    """A word that may stand in a build command's text in any quoting context: an
    option (it starts with ``-``) of the characters warning names use. User-given flags
    (``--flag-set``) are held to this: they are the user's own and need not be warnings
    (``-fno-strict-aliasing``, ``-DNDEBUG``), but they are spliced into the same text."""
    return isinstance(word, str) and bool(_SAFE_WORD.fullmatch(word))


def flag_text(words: Iterable[str]) -> str:
    """``words`` (options for a build) joined by spaces, each checked with
    :func:`safe_word`: text that means the same words in any quoting context of a build
    command (inside ``'…'``, inside ``"…"``, bare) and that make does not expand (no
    ``$``). A word that fails is one error line naming it, never text of a command."""
    words = list(words)
    for word in words:
        if not safe_word(word):
            raise BadInput(f"refusing the flag {shown(word)} for a build: an option of letters, "
                           "digits and + - = , . _ : # is expected")
    return " ".join(words)


def first_problem(flags: Iterable[str | None]) -> tuple[str, str] | None:
    """The first name among ``flags`` (None entries skipped) that :func:`problem`
    refuses, with why; None when all are acceptable."""
    for name in flags:
        if name is not None:
            why = problem(name)
            if why is not None:
                return name, why
    return None


def data_names(data) -> Iterable[str | None]:
    """Every name a :class:`~flagdb.model.CompilerData` holds that may reach a command
    line: its flags, what they are aliases of, GCC's negative aliases."""
    for f in data.flags:
        yield f.name
        yield f.alias_of
        yield f.gcc.alias_negative


def require_stored(compiler: str, flags: Iterable[str | None]) -> None:
    """Refuse a database entry whose flags (about to become a compiler's arguments) hold
    a name warnscope would not have ingested: the database is someone else's file, and
    a stored "warning" ``-fplugin=/x.so`` or ``-Wzz;touch${IFS}F;`` must be one error
    line, never an argument."""
    bad = first_problem(flags)
    if bad is not None:
        raise CorruptDatabase(f"{compiler} in the database holds the flag {shown(bad[0])}, {bad[1]}: "
                              "refusing to pass it to a compiler (ingest it again from its source)")
