"""Projects warnscope builds (for a study, for ``warnings run``): Debian source packages
with a recipe, a local tree, or a compile_commands.json.

A recipe's commands are shell text run in a private copy of the source tree. The
environment gives ``$CC``/``$CXX`` (the wrappers of the compiler under test) and
``$CFLAGS``/``$CXXFLAGS``; ``{jobs}`` is the build's parallelism.

Each recipe declares where a user puts warning flags (``inject``), which is how a
build in ``--inject build`` passes each level's flags:

* ``make``: on the make command line, ``make CFLAGS="<configured value> <flags>"``,
  on one tree configured once (the configured value is read from its Makefile);
* ``configure``: the configure step reads ``$CFLAGS``/``$CXXFLAGS`` (CMake's
  ``CMAKE_<LANG>_FLAGS``, Meson's ``c_args``/``cpp_args``), one tree configured per
  level (configuring stays outside the timing);
* ``env``: the build command itself reads ``$CFLAGS``/``$CXXFLAGS`` (Lua's
  ``MYCFLAGS="$CFLAGS ..."``), or, for a local tree, a ``{flags}``, ``{cflags}`` or
  ``{cxxflags}`` placeholder in ``--build`` (in ``--configure``: configured per level).

In ``--inject wrapper`` the build system sees only the -O level and the compiler
wrapper appends the level's flags: one configured tree serves every level.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from analyzer.projects import ccdb, debian, process
from warnscope.errors import BadInput, NotInstalled

CMAKE_CONFIGURE = ('cmake -S . -B _build -G "Unix Makefiles" -DCMAKE_BUILD_TYPE=None '
                   '-DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" '
                   '-DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS" '
                   '-DCMAKE_EXPORT_COMPILE_COMMANDS=ON')

#: Meson reads $CC/$CXX and $CFLAGS/$CXXFLAGS when it sets a build directory up
MESON_CONFIGURE = "meson setup _build --buildtype=plain --wrap-mode=nodownload"


@dataclass(frozen=True)
class Recipe:
    name: str
    description: str
    languages: tuple[str, ...]          # the languages whose warning sets are applied
    build_system: str                   # 'make' | 'autotools' | 'cmake' | 'meson' | 'custom' | 'ccdb'
    configure: str
    build: str
    clean: str
    package: str | None = None          # Debian source package
    needs: tuple[str, ...] = ()         # programs the build runs (checked up front)
    source: Path | None = None          # a local tree (not a package)
    inject: str = "make"                # where a user puts flags: 'make' | 'configure' | 'env' (above)
    #: inject 'make': the Makefile variables that carry compile flags, and their language
    make_vars: tuple[tuple[str, str], ...] = (("CFLAGS", "c"), ("CXXFLAGS", "c++"))
    commands: tuple[dict, ...] = field(default=(), repr=False)  # a compile_commands.json's entries
    #: flags through the build: (language of a compile, language whose flags the build
    #: system gives it), where the project does not give each language its own
    flags_language: tuple[tuple[str, str], ...] = ()
    #: why the recipe cannot build for another target than the host's ('' where it can:
    #: :mod:`analyzer.projects.cross` tells its build system the target)
    no_cross: str = ""
    #: what the build command adds when it builds for another target (Debian's sqlite3:
    #: ``CROSS_BUILDING=yes``, so that it builds its parser generator for the build machine)
    cross_build: str = ""
    #: a Debian package built as Debian builds it (:mod:`analyzer.projects.debian`): the
    #: suite whose root it builds in and its ``.dsc``
    suite: str = ""
    dsc: Path | None = None

    @property
    def keep_going(self) -> str:
        """What the build command adds to go on past errors where ``MAKEFLAGS=k`` does not
        reach it (:func:`keep_going_words`: ninja's ``-k 0``)."""
        return keep_going_words(self.build)

    def build_flags_language(self, language: str) -> str:
        """The language whose level flags a compile of ``language`` gets when the flags
        go through the build system (lua's C++ objects get the C flags: its Makefile
        compiles them with ``$(CFLAGS)``, so a user's C warnings reach them too)."""
        return dict(self.flags_language).get(language, language)


RECIPES: dict[str, Recipe] = {r.name: r for r in (
    # zlib's Makefile compiles the shared library's objects with SFLAGS (configure's
    # CFLAGS plus -fPIC), not CFLAGS: a user's `make CFLAGS=...` misses half the compiles
    Recipe("zlib", "zlib 1.2.13, C, its own configure + make (seconds; the default)", ("c",), "make",
           configure="./configure", build="make -j{jobs}", clean="make clean", package="zlib",
           make_vars=(("CFLAGS", "c"), ("SFLAGS", "c"))),
    Recipe("lua5.4", "Lua 5.4, C built as C and as C++ (liblua-c++), Debian's libtool Makefile",
           ("c", "c++"), "make",
           # the header debian/rules writes before building (luaconf.h includes it)
           configure="printf '#define DEB_HOST_MULTIARCH \"%s\"\\n' \"$($CC -print-multiarch)\" "
                     "> src/lua5.4-deb-multiarch.h",
           # the objects in parallel, then the links alone: the Makefile builds both
           # libraries in one rule with two targets, which make -j runs twice at once
           build='set -- CC="$CC -std=gnu99" CXX="$CXX" LIBTOOL="libtool --quiet" '
                 'MYCFLAGS="$CFLAGS -DLUA_USE_LINUX" MYCXXFLAGS="$CXXFLAGS -DLUA_USE_LINUX" MYLDFLAGS=; '
                 'make -C src -j{jobs} "$@" o && make -C src "$@" all',
           clean="make -C src clean", package="lua5.4", needs=("libtool",), inject="env",
           # Debian's src/Makefile: `$(CXX) $(CFLAGS) -c $< -o $*-c++.o` (MYCXXFLAGS unused)
           flags_language=(("c++", "c"),),
           # `libtool --tag=CC --mode=link` runs the CC of its own configuration, not $CC
           no_cross="its Makefile links through the system's libtool (--tag=CC), which links "
                    "with the build machine's gcc whatever $CC is"),
    # no zlib: configure turns the shell's zlib code on wherever libz links (the host has
    # zlib1g-dev, a Debian root has not), and two compilers would build other code
    Recipe("sqlite3", "SQLite 3.40, C, autoconf (amalgamation generated with tclsh)", ("c",), "autotools",
           configure="./configure --disable-tcl --disable-readline ac_cv_header_zlib_h=no "
                     "ac_cv_search_deflate=no",
           build="make -j{jobs}",
           clean="make clean", package="sqlite3", needs=("tclsh",),
           # Debian's 30-cross.patch: lemon built with BUILD_CC, not the target's compiler
           cross_build="CROSS_BUILDING=yes"),
    # configure from Thomas Dickey's autoconf 2.52: its random-integer check calls
    # arc4random without <stdlib.h>, so under GCC 14 the check fails and mawk falls back
    Recipe("mawk", "mawk 1.3.4, C, autoconf (a configure check that GCC 14 flips)", ("c",),
           "autotools", configure="./configure", build="make -j{jobs}", clean="make clean",
           package="mawk"),
    Recipe("fftw3", "FFTW 3.3.10, C, autotools (the classic study's C project)", ("c",), "autotools",
           configure="./configure --disable-fortran --disable-doc", build="make -j{jobs}",
           clean="make clean", package="fftw3"),
    Recipe("cppcheck", "Cppcheck 2.10, C++, CMake (the classic study's C++ project)", ("c++",), "cmake",
           configure=CMAKE_CONFIGURE, build="cmake --build _build -j{jobs}",
           clean="cmake --build _build --target clean", package="cppcheck", needs=("cmake",),
           inject="configure",
           # tools/CMakeLists.txt: add_custom_target(run-dmake $<TARGET_FILE:dmake>), a
           # dependency of the cppcheck program: the target's dmake, run here, fails
           no_cross="every build runs tools/dmake, a program it compiles with the project's "
                    "compiler, by its file ($<TARGET_FILE:dmake>: no CMAKE_CROSSCOMPILING_EMULATOR "
                    "reaches it)"),
    # -Werror unless DISABLE_WERROR: a new warning of the next compiler fails the build;
    # its checks are CMake's check_* modules (HAVE_*, cache variables)
    Recipe("json-c", "json-c 0.16, C, CMake (-Werror on by default)", ("c",), "cmake",
           configure=CMAKE_CONFIGURE + " -DBUILD_TESTING=OFF", build="cmake --build _build -j{jobs}",
           clean="cmake --build _build --target clean", package="json-c", needs=("cmake",),
           inject="configure"),
    # Debian builds it with Meson too; its checks are Meson's own (`Checking for function
    # "memmove"`, `Has header "stdlib.h"`), the configuration they write config.h
    Recipe("fribidi", "GNU FriBidi 1.0.8, C, Meson + ninja (a project Meson configures)", ("c",),
           "meson", configure=MESON_CONFIGURE + " -Ddocs=false", build="ninja -C _build -j{jobs}",
           clean="ninja -C _build clean", package="fribidi", needs=("meson", "ninja"),
           inject="configure"),
)}


#: the project a command builds when none is named
DEFAULT_PROJECT = "zlib"


def get(name: str) -> Recipe:
    if name.startswith(debian.PREFIX):
        return debian_package(name)
    try:
        return RECIPES[name]
    except KeyError:
        raise BadInput(f"unknown project {name!r}: known are {', '.join(RECIPES)} "
                             "(or debian:NAME[/SUITE], --source DIR --configure CMD --build CMD, or "
                             "--compile-commands FILE)") from None


def debian_package(spec: str) -> Recipe:
    """``debian:NAME`` or ``debian:NAME/SUITE``: any Debian source package of that suite,
    fetched with its packaging (one line for a package the suite does not have) and built
    by its own ``debian/rules`` in the root of each compiler's suite
    (:mod:`analyzer.projects.debian`)."""
    name, suite = debian.parse(spec)
    src = debian.fetch(name, suite)
    return Recipe(src.project, f"Debian {suite}'s {name} {src.version}, built by dpkg-buildpackage",
                  ("c", "c++"), "debian", configure="", build=debian.BUILD_COMMAND, clean="",
                  source=src.tree, inject="wrapper", suite=suite, dsc=src.dsc,
                  no_cross="a Debian package builds here for its root's architecture")


def debian_source(recipe: Recipe) -> debian.SourcePackage:
    """The fetched source package a :func:`debian_package` recipe builds."""
    assert recipe.build_system == "debian" and recipe.source is not None and recipe.dsc is not None
    return debian.SourcePackage(recipe.name.removeprefix(debian.PREFIX).split("/")[0],
                                recipe.dsc.stem.partition("_")[2], recipe.suite, recipe.dsc,
                                recipe.source)


def local(source: str, configure: str, build: str, clean: str, languages: tuple[str, ...]) -> Recipe:
    """A local tree with its own commands (built in a private copy, never in place)."""
    path = Path(source).resolve()
    if not path.is_dir():
        raise BadInput(f"--source {source}: not a directory")
    if not build.strip():
        raise BadInput("--source needs --build CMD")
    return Recipe(f"local:{path.name}", f"local tree {path}", languages, "custom",
                  configure=autoconf_flags(configure, build, path) or "true", build=build,
                  clean=clean, source=path, inject="env")


def keep_going_words(build: str) -> str:
    """What a build command adds to go on past errors: ``-k 0`` where it
    runs ninja (``ninja …``, ``meson compile …``: ``--ninja-args=-k0``) as its last command,
    nothing where it runs make (``MAKEFLAGS=k`` reaches make)."""
    last = re.split(r"&&|;|\|\|", build)[-1].split()
    if last[:1] == ["ninja"]:
        return "-k 0"
    if last[:2] == ["meson", "compile"]:
        return "--ninja-args=-k0"
    return ""


#: a configure command that runs the tree's own autoconf script: ``./configure …``
_RUNS_CONFIGURE = re.compile(r"^\s*(?:(?:ba|da)?sh\s+)?(?:\./)?configure(?:\s|$)")


def autoconf_flags(configure: str, build: str, path: Path) -> str:
    """A local tree's configure command as a user of an autotools tree writes it: where it
    runs the tree's ``configure`` and neither command names where the flags go, the flags
    are configure's arguments (``./configure CFLAGS="{cflags}" CXXFLAGS="{cxxflags}"``),
    configured per level, so every Makefile gets them with whatever else configure puts in
    CFLAGS (``make CFLAGS=…`` would replace a configured value that holds make references
    such as ``$(VER)``). Without ``--configure``, a tree with an executable ``configure``
    is configured so. ``meson setup …`` and ``cmake …`` read them from the environment
    (``CFLAGS="{cflags}" … meson setup _build``). Other commands are kept as given."""
    if any(p in configure or p in build for p in PLACEHOLDERS):
        return configure
    if not configure.strip():
        script = path / "configure"
        if not (script.is_file() and os.access(script, os.X_OK)):
            return configure
        configure = "./configure"
    if _RUNS_ENV_CONFIGURE.match(configure):
        return f'CFLAGS="{{cflags}}" CXXFLAGS="{{cxxflags}}" {configure}'
    if not _RUNS_CONFIGURE.match(configure):
        return configure
    return f'{configure} CFLAGS="{{cflags}}" CXXFLAGS="{{cxxflags}}"'


#: a configure command that reads the flags from its environment when it sets a build
#: directory up: ``meson setup …``, ``cmake …`` (one command, not a list)
_RUNS_ENV_CONFIGURE = re.compile(r"^\s*(?:meson\s+setup|cmake)\s[^;&|]*$")


#: the placeholders of a level's flags in a local tree's commands
PLACEHOLDERS = ("{flags}", "{cflags}", "{cxxflags}")


def configures_per_level(recipe: Recipe) -> bool:
    """A tree per level in ``--inject build``: CMake and Meson take their flags at configure time,
    and so does a local tree whose ``--configure`` names them."""
    return recipe.inject == "configure" or any(p in recipe.configure for p in PLACEHOLDERS)


def compile_commands(path_text: str) -> Recipe:
    """A compile database: its TUs are replayed (tu mode), the compiler swapped for the
    one under test. It is untrusted input (:mod:`analyzer.projects.ccdb`): a malformed
    file, an entry naming a path outside its tree or an option a compile does not
    need is one error naming the file and the entry."""
    db = ccdb.read(path_text)
    entries = [{"directory": e.directory, "file": e.file, "arguments": list(e.arguments)}
               for e in db.entries]
    langs = sorted({language_of(e.file) for e in db.entries})
    return Recipe(f"ccdb:{db.path}", f"compile database {db.path}", tuple(langs), "ccdb",
                  configure="", build="", clean="", source=db.tree, commands=tuple(entries),
                  inject="none")


C_SUFFIXES = (".c", ".i")
CXX_SUFFIXES = (".cc", ".cpp", ".cxx", ".c++", ".C", ".ii")


def language_of(file: str) -> str:
    return "c" if file.endswith(C_SUFFIXES) else "c++"


def is_source(arg: str) -> bool:
    return arg.endswith(C_SUFFIXES + CXX_SUFFIXES) and not arg.startswith("-")


def check_needs(recipe: Recipe) -> None:
    missing = [p for p in recipe.needs if process.which(p) is None]
    if missing:
        raise NotInstalled(f"project {recipe.name} needs {', '.join(missing)}, which is not installed")


def check_target(recipe: Recipe, target: str, compiler: str) -> None:
    """One line where ``recipe`` cannot build for ``target`` ('' the host's: always can),
    or, a Debian package, where ``compiler`` is not in a Debian root."""
    if target and recipe.no_cross:
        raise BadInput(f"{recipe.name} cannot be built for {target} ({compiler}): {recipe.no_cross}")
    if recipe.build_system == "debian":
        from analyzer.runtime import toolchain
        if toolchain.resolve(compiler).root is None:
            raise NotInstalled(f"{recipe.name} builds in a Debian root of the compiler's suite, and "
                               f"{compiler} is the host's: warnscope toolchain add {compiler} "
                               "--suite SUITE prepares one (trixie: gcc-13, gcc-14; sid: gcc-13 to 16)")


def tu_language(driver: str, args: list[str], source: str) -> str:
    """A TU's language as the compiler sees it: ``-x LANG``, else a C++ driver (g++,
    clang++, c++: lua builds its .c files as C++ too), else the source's suffix."""
    for i, a in enumerate(args):
        if a == "-x" and i + 1 < len(args):
            return "c++" if args[i + 1].startswith("c++") else "c"
        if a.startswith("-x") and len(a) > 2:
            return "c++" if a[2:].startswith("c++") else "c"
    if "++" in os.path.basename(driver):
        return "c++"
    return language_of(source)
