"""The warning flags the UB family passes, declared once: GCC's in a cell's compile,
clang's through libclang in the warning checks, and the detectors' warnings runs.

Plain lists, importing nothing of the runner: the advice reads what was tried on the
corpus (a flag outside these was not) through the UB store without loading the
sandbox that runs the compiles.
"""
from __future__ import annotations

#: clang's warnings beside -Wall -Wextra that speak of UB, in the detectors' warnings
#: runs (GCC's are :func:`gcc_warning_flags`)
CLANG_WARNINGS = ["-Wall", "-Wextra", "-Wconditional-uninitialized", "-Wformat=2",
                  "-Wcast-align", "-Wnull-dereference", "-Wcast-function-type",
                  "-Wundefined-reinterpret-cast", "-Warray-bounds-pointer-arithmetic",
                  "-Wno-unknown-warning-option"]


def gcc_warning_flags() -> list[str]:
    """Broad warnings for gcc: -Wall -Wextra and the extras that speak of UB."""
    return ["-Wall", "-Wextra", "-Wstrict-overflow=2", "-Wnull-dereference", "-Wshift-overflow=2",
            "-Wstringop-overflow=4", "-Warray-bounds=2", "-Wformat=2", "-Wcast-align=strict",
            "-Wvla", "-Wuninitialized", "-Wmaybe-uninitialized"]


def clang_warning_args(language: str, std: str, level: str, flags: list[str]) -> list[str]:
    """Arguments of a libclang parse with every warning on."""
    return ["-x", language, f"-std={std}", level, *flags, "-Weverything"]


def checks_flags() -> dict[str, list[str]]:
    """The warning flags the corpus's warning checks pass, per family (GCC's list above;
    clang's checks through libclang with ``-Weverything``): a flag outside what they turn
    on was not tried on the corpus (what ``warnscope advise`` needs to know)."""
    return {"gcc": gcc_warning_flags(),
            "clang": [a for a in clang_warning_args("c", "c17", "-O2", []) if a.startswith("-W")]}


def warning_flags() -> dict[str, list[str]]:
    """The warning flags the detectors' warnings runs pass, per family: a warning outside
    what they turn on was not tried on the corpus (what ``warnscope advise`` needs to know)."""
    return {"gcc": gcc_warning_flags(), "clang": list(CLANG_WARNINGS)}
