"""Building a project for another target: what a cross compiler's build is told.

A compiler for another target (``aarch64-linux-gnu-gcc-12``, the id
``gcc-12@aarch64-linux-gnu``) builds a project as a user cross-compiles it: its wrapper is
``$CC``/``$CXX`` as for any compiler, and each build system is told the target the way it
takes it, so that a configure step neither picks the build machine's tools nor runs a
program it built for the target as if it were native:

* ``$CHOST`` is the target triple in every step of the build (zlib's own configure reads it
  and then uses ``aarch64-linux-gnu-ar``, ``-ranlib``, ``-nm``; a local tree's commands may
  read it too). It is scrubbed from the environment of every other build
  (:data:`analyzer.projects.process.SCRUBBED`): a host build never sees a stray one;
* autotools: ``--build=<this machine> --host=<target>``, both given, so that configure is
  certain it cross-compiles (with ``--host`` alone it would try to run a test program to
  find out, and a host with qemu registered in binfmt_misc would run it);
* a recipe's own words for its build command (Debian's sqlite3: ``make
  CROSS_BUILDING=yes``, its cross patch, so that its parser generator ``lemon`` is built
  with the build machine's compiler and run; without it the target's ``lemon`` would be
  run here); a recipe that cannot cross-build says why before anything is built (lua5.4:
  Debian's libtool links with the build machine's gcc; cppcheck: its build runs the
  ``dmake`` it compiled);
* CMake: ``CMAKE_SYSTEM_NAME``/``CMAKE_SYSTEM_PROCESSOR`` (CMake then sets
  ``CMAKE_CROSSCOMPILING``), ``CMAKE_<LANG>_COMPILER_TARGET``, the target's system root as
  the only place to find libraries, headers and packages (never the build machine's
  ``/usr/lib/x86_64-linux-gnu``), and the target's emulator as
  ``CMAKE_CROSSCOMPILING_EMULATOR`` where it has one, so a ``try_run`` runs the program
  under qemu rather than failing or running it natively.

A compiler for the host's target gets none of this.
"""
from __future__ import annotations

import os
import shlex
import sysconfig

from analyzer.runtime.toolchain import Toolchain

#: the variable that names the target triple in a cross build's steps
TARGET_ENV = "CHOST"


def build_triple() -> str:
    """This machine's triple as Debian's GCC names it (``x86_64-linux-gnu``)."""
    return sysconfig.get_config_var("MULTIARCH") or f"{os.uname().machine}-linux-gnu"


def env(tc: Toolchain) -> dict[str, str]:
    """What a build's environment adds for ``tc``: ``CHOST`` for a cross compiler."""
    return {TARGET_ENV: tc.target} if tc.target else {}


def configure_args(build_system: str, target: str, emulator: tuple[str, ...] = ()) -> str:
    """The words a configure command of ``build_system`` takes for ``target`` ('' for the
    host's target: none), as shell text."""
    if not target:
        return ""
    if build_system == "autotools":
        return f" --build={build_triple()} --host={target}"
    if build_system == "cmake":
        arch = target.split("-", 1)[0]
        system = "Linux" if "linux" in target else "Generic"
        words = [f"-DCMAKE_SYSTEM_NAME={system}", f"-DCMAKE_SYSTEM_PROCESSOR={arch}",
                 f"-DCMAKE_C_COMPILER_TARGET={target}", f"-DCMAKE_CXX_COMPILER_TARGET={target}",
                 f"-DCMAKE_FIND_ROOT_PATH=/usr/{target}",
                 "-DCMAKE_FIND_ROOT_PATH_MODE_PROGRAM=NEVER",
                 "-DCMAKE_FIND_ROOT_PATH_MODE_LIBRARY=ONLY",
                 "-DCMAKE_FIND_ROOT_PATH_MODE_INCLUDE=ONLY",
                 "-DCMAKE_FIND_ROOT_PATH_MODE_PACKAGE=ONLY"]
        if emulator:
            words.append(f"-DCMAKE_CROSSCOMPILING_EMULATOR={';'.join(emulator)}")
        return " " + " ".join(shlex.quote(w) for w in words)
    return ""   # zlib's configure reads $CHOST; make and a local tree's commands have it too


def configure(recipe_configure: str, build_system: str, tc: Toolchain | None) -> str:
    """A recipe's configure command (its placeholders filled) with what ``tc``'s target
    adds (nothing for a host compiler, or none given)."""
    if tc is None or not tc.target:
        return recipe_configure
    return recipe_configure + configure_args(build_system, tc.target, tc.emulator)


def build(recipe_build: str, cross_build: str, tc: Toolchain | None) -> str:
    """A recipe's build command with what it adds for another target (its ``cross_build``
    words: sqlite3's ``CROSS_BUILDING=yes``), for a cross compiler only."""
    if tc is None or not tc.target or not cross_build:
        return recipe_build
    return f"{recipe_build} {cross_build}"
