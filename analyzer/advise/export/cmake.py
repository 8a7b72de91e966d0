"""``--format cmake``: a file a project ``include()``s that defines the INTERFACE
target ``warnscope::warnings`` and changes nothing else (no variable, no policy, no
global flag)::

    include(cmake/warnscope-warnings.cmake)
    target_link_libraries(mylib PRIVATE warnscope::warnings)

The target is ``INTERFACE IMPORTED`` (a ``::`` name is allowed for an imported or an
alias target only; an alias would need a second, plain target name beside it), so it
is seen in the directory that includes the file and below. Its compile options are
generator expressions on the language of each compile (``$<COMPILE_LANGUAGE:C>``,
``CXX``), that language's compiler id (``$<C_COMPILER_ID:GNU>``, ``Clang``), where a
listed version lacks a flag its version (``$<VERSION_GREATER_EQUAL:
$<C_COMPILER_VERSION>,12>``), and where a family is listed for several targets the
target it builds for (:func:`builds_for`). Needs CMake 3.11 (options on an imported
target).
"""
from __future__ import annotations

from analyzer.advise.export.plan import Block, Guard, Plan, Range, header_lines
from warnscope.profiles import profile

#: language -> CMake's name of it
LANGUAGE = {"c": "C", "c++": "CXX"}


def _all(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"$<AND:{','.join(items)}>"


def _any(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"$<OR:{','.join(items)}>"


def _range(lang: str, r: Range) -> list[str]:
    version = f"$<{lang}_COMPILER_VERSION>"
    out = []
    if r.lo is not None:
        out.append(f"$<VERSION_GREATER_EQUAL:{version},{r.lo}>")
    if r.hi is not None:
        out.append(f"$<VERSION_LESS:{version},{r.hi}>")
    return out


def builds_for(lang: str, triple: str) -> str:
    """The generator expression that holds when ``lang``'s compiler builds for
    ``triple``: its ``CMAKE_<LANG>_COMPILER_TARGET`` where set (clang's ``--target``),
    else its ``CMAKE_<LANG>_LIBRARY_ARCHITECTURE`` where CMake found one (the multiarch
    triple of its library directories, which a GCC cross compiler on Debian has without
    any setting), else ``CMAKE_SYSTEM_PROCESSOR`` against the triple's architecture (what
    a toolchain file sets). The values are read when the file is included (after
    ``project()``, so the compilers are known)."""
    arch = triple.split("-", 1)[0]
    target, multiarch = f"${{CMAKE_{lang}_COMPILER_TARGET}}", f"${{CMAKE_{lang}_LIBRARY_ARCHITECTURE}}"
    return (f"$<IF:$<BOOL:{target}>,$<STREQUAL:{target},{triple}>,"
            f"$<IF:$<BOOL:{multiarch}>,$<STREQUAL:{multiarch},{triple}>,"
            f"$<STREQUAL:${{CMAKE_SYSTEM_PROCESSOR}},{arch}>>>")


def _target(lang: str, g: Guard) -> list[str]:
    if g.target:
        return [builds_for(lang, g.target)]
    if g.besides:
        return [f"$<NOT:{_any([builds_for(lang, t) for t in g.besides])}>"]
    return []


def _guard(lang: str, g: Guard) -> str:
    parts = [f"$<{lang}_COMPILER_ID:{profile(g.family).cmake_id}>", *_target(lang, g)]
    if not g.any_version:
        parts.append(_any([_all(_range(lang, r)) for r in g.ranges]))
    return _all(parts)


def condition(lang: str, block: Block) -> str:
    """The generator expression that holds for the compiles getting ``block``."""
    return _all([f"$<COMPILE_LANGUAGE:{lang}>", _any([_guard(lang, g) for g in block.guards])])


def render(p: Plan) -> str:
    lines = ["# " + line for line in header_lines(p, "the INTERFACE target warnscope::warnings")]
    lines += [
        "#",
        "# Use: include() this file (after project()), then",
        "#   target_link_libraries(<target> PRIVATE warnscope::warnings)",
        "# Defines the imported target warnscope::warnings (seen in this directory and below)",
        "# and nothing else: no variable, no policy, no global flag.",
        "if(CMAKE_VERSION VERSION_LESS 3.11)",
        '  message(FATAL_ERROR "warnscope::warnings needs CMake 3.11 or newer")',
        "endif()",
        "if(NOT TARGET warnscope::warnings)",
        "  add_library(warnscope::warnings INTERFACE IMPORTED)",
    ]
    options = []
    for language in p.languages():
        lang = LANGUAGE[language]
        options.append(f"    # {language}")
        for block in p.blocks[language]:
            options.append(f'    "$<{condition(lang, block)}:{";".join(block.flags)}>"')
    if options:
        lines += ["  target_compile_options(warnscope::warnings INTERFACE", *options, "  )"]
    lines.append("endif()")
    return "\n".join(lines) + "\n"
