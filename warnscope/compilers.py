"""Compiler ids and the orders every listing uses.

A compiler version is named ``gcc-12`` or ``clang-16`` everywhere in warnscope: on the
command line, in the database, in JSON and on the site. Releases from before a
family numbered its majors alone carry their minor: ``gcc-4.4`` (GCC before 5),
``clang-3.8`` (clang before 4); Apple's clang is a family of its own, named by its
own version (``apple-clang-10.0``), one line of versions beside clang's; Android's GCC
(upstream GCC with Google's patches, from AOSP's ``toolchain/gcc``) is the family
``android-gcc``, named by the GCC release it is built on as GCC then named it
(``android-gcc-4.4``), a line of its own beside GCC's and read as GCC. A compiler
that builds for another target than the host's carries that target's triple, as the
binary's ``-dumpmachine`` prints it, after an ``@``: ``gcc-12@aarch64-linux-gnu`` is
Debian's ``aarch64-linux-gnu-gcc-12``, beside the host's ``gcc-12``. :class:`CompilerId`
is the one parser, printer and order of such names, and :data:`OPT_LEVELS` the one order
of optimisation levels, so that a table, a report and a page list them alike.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from warnscope import profiles
from warnscope.errors import BadInput
from warnscope.profiles import Profile, TargetProfile

#: the compiler families warnscope knows, in listing order (:data:`warnscope.profiles.PROFILES`)
FAMILIES = tuple(profiles.PROFILES)
#: family -> the family whose data model it shares (Apple's clang is read as clang,
#: Android's GCC as GCC)
DATA_FAMILY = {name: p.frontend.value for name, p in profiles.PROFILES.items()}

#: optimisation levels in the order every report lists them
OPT_LEVELS = ("-O0", "-O1", "-O2", "-O3", "-Os", "-Og", "-Oz", "-Ofast")
#: ``-O`` alone, which GCC and clang read as ``-O1``: a build's ``--opt`` and a compile
#: database's entry may say it; a UB level is one of :data:`OPT_LEVELS`
OPT_BARE = "-O"


def is_opt_option(word: str) -> bool:
    """``word`` is an optimisation option a build may take: a level or ``-O`` alone."""
    return word in OPT_LEVELS or word == OPT_BARE


@dataclass(frozen=True, order=False)
class CompilerId:
    """A compiler version as warnscope names it: ``gcc-12``, ``clang-16``.

    Every command that takes a compiler goes through :meth:`parse` (or :meth:`of`),
    so ``clang-016`` and ``clang-16`` are one compiler, not two.
    """

    family: str
    major: int
    #: the minor of an old release (``gcc-4.4``: 4); None for ``gcc-12``
    minor: int | None = None
    #: the target triple of a compiler for another target (``aarch64-linux-gnu``);
    #: '' for the host's own target
    target: str = ""

    @classmethod
    def parse(cls, text: str) -> "CompilerId":
        """``gcc-12`` -> CompilerId("gcc", 12), ``gcc-4.4`` -> CompilerId("gcc", 4, 4),
        ``gcc-12@aarch64-linux-gnu`` -> CompilerId("gcc", 12, None, "aarch64-linux-gnu");
        ValueError for anything else."""
        text, at, target = text.strip().partition("@")
        if at and not TRIPLE.fullmatch(target):
            raise ValueError(text)
        name, _, number = text.strip().rpartition("-")
        major, dot, minor = number.partition(".")
        if name not in FAMILIES or not _number(major) or (dot and not _number(minor)):
            raise ValueError(text)
        cid = cls(name, int(major), int(minor) if dot else None, target)
        if cid.naming_problem():
            raise ValueError(text)
        return cid

    def naming_problem(self) -> str:
        """Why this is not how warnscope names the version ('' when it is): a minor only
        where the family numbered its releases by it (GCC before 5, clang before 4, and
        Android's GCC as the GCC it is built on), and always for Apple's clang
        (``apple-clang-10.0``)."""
        since = self.profile.minor_before
        needs = since == 0 or self.major < since
        if needs and self.minor is None:
            return (f"{self.family} {self.major} is named with its minor "
                    f"({self.family}-{self.major}.N)")
        if not needs and self.minor is not None:
            return (f"{self.family} from {since} on is named by its "
                    f"major alone ({self.family}-{self.major})")
        return ""

    @classmethod
    def of(cls, text: str) -> "CompilerId":
        """:meth:`parse`, with the one-line error a user sees for a bad id."""
        try:
            return cls.parse(text)
        except ValueError:
            name, _, number = text.strip().rpartition("-")
            major, dot, minor = number.partition(".")
            if name in FAMILIES and _number(major) and (not dot or _number(minor)):
                why = cls(name, int(major), int(minor) if dot else None).naming_problem()
                guess = cls.guess(text)
                raise BadInput(f"unknown compiler id '{text}': {why}"
                               + (f": did you mean {guess}?" if guess else "")) from None
            guess = cls.guess(text)
            if guess is not None:
                raise BadInput(f"unknown compiler id '{text}': did you mean {guess}?") from None
            raise BadInput(f"unknown compiler id '{text}': expected gcc-N, clang-N, "
                           "apple-clang-N.M or android-gcc-N.M (e.g. gcc-12, gcc-4.4, clang-16, "
                           "clang-3.8, apple-clang-10.0, android-gcc-4.4), a target after @ "
                           "(gcc-12@aarch64-linux-gnu), "
                           "or a compiler's name on PATH or its path") from None

    @classmethod
    def guess(cls, text: str) -> "CompilerId | None":
        """The id a user most likely meant by a name that is not one: ``gcc13``,
        ``GCC-13``, ``gcc 13``, ``clang_16``, ``gcc-13.2`` -> ``gcc-13``. None where nothing fits."""
        match = _LOOSE_ID.fullmatch(text.strip().lower())
        if match is None:
            return None
        family, major, minor = match.group("family"), int(match.group("major")), match.group("minor")
        family = {"g++": "gcc", "clang++": "clang", "appleclang": "apple-clang",
                  "androidgcc": "android-gcc"}.get(family, family)
        for candidate in (cls(family, major, int(minor) if minor else None), cls(family, major)):
            if major and not candidate.naming_problem():
                return candidate
        return None

    @property
    def profile(self) -> Profile:
        """What every family asks of this compiler's family (:mod:`warnscope.profiles`)."""
        return profiles.profile(self.family)

    @property
    def target_profile(self) -> TargetProfile:
        """How its programs run here (:func:`warnscope.profiles.target`)."""
        return profiles.target(self.target)

    @property
    def host(self) -> "CompilerId":
        """The same compiler version for the host's target (``gcc-12`` of
        ``gcc-12@aarch64-linux-gnu``): the id its upstream flag data is stored under."""
        return CompilerId(self.family, self.major, self.minor)

    @property
    def arch(self) -> str:
        """The target's architecture (``aarch64``), '' for the host's target."""
        return self.target.split("-", 1)[0]

    @property
    def data_family(self) -> str:
        """The family whose data model this compiler's data has (``apple-clang``: clang)."""
        return DATA_FAMILY[self.family]

    @property
    def version(self) -> str:
        """``12``, ``4.4``: the version part of the name."""
        return f"{self.major}" if self.minor is None else f"{self.major}.{self.minor}"

    def __str__(self) -> str:
        return f"{self.family}-{self.version}" + (f"@{self.target}" if self.target else "")


#: a target triple as compilers print it (``-dumpmachine``): arch, then two or three
#: parts (``aarch64-linux-gnu``, ``arm-none-eabi``, ``x86_64-pc-linux-gnu``)
TRIPLE = re.compile(r"[a-z0-9_]{1,20}(?:-[a-z0-9_.]{1,30}){1,3}")


#: a compiler name written loosely: family, an optional separator, a version
_LOOSE_ID = re.compile(r"(?P<family>android-?gcc|gcc|g\+\+|clang\+\+|clang|apple-?clang)[-_ ]?"
                       r"(?P<major>[0-9]{1,3})(?:\.(?P<minor>[0-9]{1,3}))?(?:\.[0-9]+)*")


def _number(text: str) -> bool:
    return text.isascii() and text.isdigit() and len(text) <= 3


def sort_key(name: "str | CompilerId") -> tuple:
    """The listing order of compilers: GCC, Android's GCC, clang, then Apple's clang, each by version
    (gcc-4.4 before gcc-9 before gcc-12); a name that is not an id sorts last, by its text."""
    text = str(name)
    try:
        cid = name if isinstance(name, CompilerId) else CompilerId.parse(text)
    except ValueError:
        return (len(FAMILIES), 0, -1, "", text)
    minor = -1 if cid.minor is None else cid.minor
    return (FAMILIES.index(cid.family), cid.major, minor, cid.target, text)


def family_of(compiler: str) -> str:
    """``gcc-12`` → ``gcc``; raises ValueError for ids that are not ``NAME-NUMBER``."""
    return CompilerId.parse(compiler).family


def level_key(level: str) -> tuple:
    """The listing order of optimisation levels (:data:`OPT_LEVELS`, others after)."""
    return (OPT_LEVELS.index(level), "") if level in OPT_LEVELS else (len(OPT_LEVELS), level)
