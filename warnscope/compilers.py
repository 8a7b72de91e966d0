"""Compiler ids and the orders every listing uses.

A compiler version is named ``gcc-12`` or ``clang-16`` everywhere in warnscope: on the
command line, in the database, in JSON and on the site. :class:`CompilerId` is the one
parser, printer and order of such names, and :data:`OPT_LEVELS` the one order of
optimisation levels, so that a table, a report and a page list them alike.
"""
from __future__ import annotations

from dataclasses import dataclass

from warnscope.errors import BadInput

#: the compiler families warnscope knows, in listing order
FAMILIES = ("gcc", "clang")

#: optimisation levels in the order every report lists them
OPT_LEVELS = ("-O0", "-O1", "-O2", "-O3", "-Os", "-Og", "-Oz", "-Ofast")


@dataclass(frozen=True, order=False)
class CompilerId:
    """A compiler version as warnscope names it: ``gcc-12``, ``clang-16``.

    Every command that takes a compiler goes through :meth:`parse` (or :meth:`of`),
    so ``clang-016`` and ``clang-16`` are one compiler, not two.
    """

    family: str
    major: int

    @classmethod
    def parse(cls, text: str) -> "CompilerId":
        """``gcc-12`` -> CompilerId("gcc", 12); ValueError for anything else."""
        name, _, number = text.strip().rpartition("-")
        if name not in FAMILIES or not number.isascii() or not number.isdigit() \
                or len(number) > 3 or int(number) == 0:
            raise ValueError(text)
        return cls(name, int(number))

    @classmethod
    def of(cls, text: str) -> "CompilerId":
        """:meth:`parse`, with the one-line error a user sees for a bad id."""
        try:
            return cls.parse(text)
        except ValueError:
            raise BadInput(f"unknown compiler id {text!r}: expected gcc-N or clang-N "
                           "(e.g. gcc-12, clang-16)") from None

    def __str__(self) -> str:
        return f"{self.family}-{self.major}"


def sort_key(name: "str | CompilerId") -> tuple:
    """The listing order of compilers: GCC before clang, then by major version
    (gcc-9 before gcc-12); a name that is not an id sorts last, by its text."""
    text = str(name)
    try:
        cid = name if isinstance(name, CompilerId) else CompilerId.parse(text)
    except ValueError:
        return (len(FAMILIES), 0, text)
    return (FAMILIES.index(cid.family), cid.major, text)


def family_of(compiler: str) -> str:
    """``gcc-12`` → ``gcc``; raises ValueError for ids that are not ``NAME-NUMBER``."""
    return CompilerId.parse(compiler).family


def level_key(level: str) -> tuple:
    """The listing order of optimisation levels (:data:`OPT_LEVELS`, others after)."""
    return (OPT_LEVELS.index(level), "") if level in OPT_LEVELS else (len(OPT_LEVELS), level)
