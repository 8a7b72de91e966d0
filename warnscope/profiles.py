"""What a compiler is to every family: one profile per compiler family, one per target.

A compiler id (:class:`warnscope.compilers.CompilerId`) names a family, a version and a
target; what each part of warnscope asks of such a compiler is declared here once and
read from :attr:`CompilerId.profile` (or :attr:`Toolchain.profile
<analyzer.runtime.toolchain.Toolchain.profile>`) by every family: which data model its
flags have (GCC's option records or clang's tables), the diagnostics format each version
prints, where its warning levels' flags come from, its sanitizer and static-analyzer
options, how its optimisation passes are bisected, how CMake and Meson name it, and how
its programs run on its target (natively, under a user-mode emulator, under a
WebAssembly runtime). Apple's clang and Android's GCC are variants of the clang and GCC
profiles; a compiler for another target is its family's profile with a target profile.

No family compares a family or a target name with a string literal
(``tests/unit/test_profiles_rule.py``): it asks the profile, so a new variant or target is
declared here and the families take it as they take the others.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, replace


class Frontend(enum.Enum):
    """The compiler whose front end a family's flags and messages are: the data model of
    its flag data (GCC's ``.opt`` records, clang's TableGen tables)."""

    GCC = "gcc"
    CLANG = "clang"


class Diagnostics(enum.Enum):
    """How a compiler prints diagnostics a program reads (names as in
    :data:`analyzer.warnings.formats.BY_NAME`)."""

    GCC_JSON = "gcc-json"     # -fdiagnostics-format=json (GCC 9 to 15)
    SARIF = "sarif"           # -fdiagnostics-format=sarif-stderr (GCC 13 on; GCC 16: the only one)
    CLANG_TEXT = "clang-text"  # text with [-Wname] (clang)


class LevelSource(enum.Enum):
    """Where a build's ``all`` warning level gets its flags."""

    FLAG_DATABASE = "flag-database"   # every warning of the ingested flag data (GCC)
    WEVERYTHING = "-Weverything"      # the compiler's own switch (clang)


class RunOn(enum.Enum):
    """How a compiler's programs run here."""

    NATIVE = "native"               # the host's own target
    QEMU_USER = "qemu-user"         # another Linux target, under qemu-user with its sysroot
    WASM_RUNTIME = "wasm-runtime"   # a WebAssembly target, under a WebAssembly runtime


@dataclass(frozen=True)
class Profile:
    """A compiler family as every part of warnscope sees it."""

    #: the family's name in a compiler id (``apple-clang``)
    family: str
    frontend: Frontend
    #: the family whose profile this one varies ('' for a base family): ``clang`` for
    #: ``apple-clang``
    variant_of: str
    #: who builds the variant (``Apple``, ``Android``); '' for the upstream families
    vendor: str
    #: releases before this major are named with their minor (``gcc-4.4``); 0: always
    #: (Apple's clang names its own versions ``apple-clang-10.0``)
    minor_before: int
    #: ``CMAKE_<LANG>_COMPILER_ID`` and Meson's ``compiler.get_id()``
    cmake_id: str
    meson_id: str
    level_source: LevelSource
    #: the ``-fsanitize=`` groups the UB runner builds with (MSan: clang's alone)
    sanitizers: tuple[str, ...]
    #: the option that runs its static analyzer (``-fanalyzer``, ``--analyze``) and the
    #: first major that has it
    analyzer_option: str
    analyzer_since: int
    #: its optimisation passes can be bisected one by one (clang's ``-opt-bisect-limit``);
    #: GCC's are turned off by their flags instead
    bisects_passes: bool
    #: Debian packages its releases (as ``gcc-N``/``clang-N``, with their sources and
    #: clang's generated tables from 9 on, and libclang's Python binding that reads which
    #: warnings fired); a vendor's variant comes from its own tree or binary
    debian: bool

    @property
    def gcc(self) -> bool:
        """Its flags and messages are GCC's (GCC and Android's GCC)."""
        return self.frontend is Frontend.GCC

    @property
    def clang(self) -> bool:
        """Its flags and messages are clang's (clang and Apple's clang)."""
        return self.frontend is Frontend.CLANG

    @property
    def is_variant(self) -> bool:
        return bool(self.variant_of)

    def diagnostics(self, major: int) -> Diagnostics:
        """The machine-readable diagnostics version ``major`` prints: GCC's JSON up to 15,
        SARIF from 16 (GCC 16 dropped JSON: ``-fdiagnostics-format=`` takes ``text``,
        ``sarif-stderr`` and ``sarif-file``); clang's text."""
        if self.gcc:
            return Diagnostics.SARIF if major >= 16 else Diagnostics.GCC_JSON
        return Diagnostics.CLANG_TEXT

    def diagnostics_option(self, major: int) -> tuple[str, ...]:
        """The option that asks version ``major`` for :meth:`diagnostics`' format (() for
        clang's text, which is its default)."""
        return {Diagnostics.GCC_JSON: ("-fdiagnostics-format=json",),
                Diagnostics.SARIF: ("-fdiagnostics-format=sarif-stderr",),
                Diagnostics.CLANG_TEXT: ()}[self.diagnostics(major)]

    def has_analyzer(self, major: int) -> bool:
        return major >= self.analyzer_since


GCC = Profile("gcc", Frontend.GCC, variant_of="", vendor="", minor_before=5, cmake_id="GNU",
              meson_id="gcc", level_source=LevelSource.FLAG_DATABASE,
              sanitizers=("undefined", "address"), analyzer_option="-fanalyzer",
              analyzer_since=10, bisects_passes=False, debian=True)
ANDROID_GCC = replace(GCC, family="android-gcc", variant_of="gcc", vendor="Android", debian=False)
CLANG = Profile("clang", Frontend.CLANG, variant_of="", vendor="", minor_before=4,
                cmake_id="Clang", meson_id="clang", level_source=LevelSource.WEVERYTHING,
                sanitizers=("undefined", "address", "memory"), analyzer_option="--analyze",
                analyzer_since=0, bisects_passes=True, debian=True)
APPLE_CLANG = replace(CLANG, family="apple-clang", variant_of="clang", vendor="Apple",
                      minor_before=0, cmake_id="AppleClang", debian=False)

#: every family's profile, in listing order
PROFILES: dict[str, Profile] = {p.family: p for p in (GCC, ANDROID_GCC, CLANG, APPLE_CLANG)}


def profile(family: str) -> Profile:
    """The profile of ``family`` (a name :data:`PROFILES` holds, or a flag data's family,
    ``gcc`` or ``clang``); KeyError otherwise."""
    return PROFILES[family]


@dataclass(frozen=True)
class TargetProfile:
    """A compiler's target as every part of warnscope sees it."""

    #: the triple as ``-dumpmachine`` prints it; '' for the host's own target
    triple: str
    run_on: RunOn

    @property
    def host(self) -> bool:
        return self.run_on is RunOn.NATIVE

    @property
    def arch(self) -> str:
        """The target's architecture (``aarch64``, ``wasm32``); '' for the host's."""
        return self.triple.split("-", 1)[0]


#: the architectures whose programs a WebAssembly runtime runs
WASM_ARCHES = ("wasm32", "wasm64")


def target(triple: str) -> TargetProfile:
    """The profile of a target triple ('': the host's own target)."""
    if not triple:
        return TargetProfile("", RunOn.NATIVE)
    if triple.split("-", 1)[0] in WASM_ARCHES:
        return TargetProfile(triple, RunOn.WASM_RUNTIME)
    return TargetProfile(triple, RunOn.QEMU_USER)
