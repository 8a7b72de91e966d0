"""``--format make``: a GNU make fragment that defines ``WARNSCOPE_CFLAGS`` (for
``$(CC)``) and ``WARNSCOPE_CXXFLAGS`` (for ``$(CXX)``)::

    CC = gcc-12
    include warnscope.mk
    CFLAGS += $(WARNSCOPE_CFLAGS)

Include it after ``CC``/``CXX`` are set (a command line's ``make CC=clang-16`` counts).
The family comes from the compiler's predefined macros (``$(CC) -dM -E``: ``__clang__``
for clang, else ``__GNUC__`` for GCC; any other compiler gets nothing), the version from
``$(CC) -dumpfullversion -dumpversion`` (GCC 7 and later print the full version for the
first, clang answers the second with its full version), its major compared with ``[
-ge ]`` in ``$(shell)`` where a listed version lacks a flag, and where a family is listed
for several targets the target from ``$(CC) -dumpmachine`` (the triple the compiler
builds for, as warnscope's ids name it: ``aarch64-linux-gnu``). The helper variables
(``warnscope_*``) are undefined at the end: only the two variables are left. Needs
GNU make 3.82 (``undefine``).
"""
from __future__ import annotations

from analyzer.advise.export.plan import Block, Guard, Plan, Range, header_lines

#: language -> (compiler variable, variable set, helper prefix, language for -x)
LANGUAGE = {"c": ("CC", "WARNSCOPE_CFLAGS", "warnscope_cc", "c"),
            "c++": ("CXX", "WARNSCOPE_CXXFLAGS", "warnscope_cxx", "c++")}


def _escape(word: str) -> str:
    return word.replace("#", "\\#")


def _range(prefix: str, r: Range) -> str:
    major = f'"$({prefix}_major)"'
    tests = []
    if r.lo is not None:
        tests.append(f"[ {major} -ge {r.lo} ] 2>/dev/null")
    if r.hi is not None:
        tests.append(f"[ {major} -lt {r.hi} ] 2>/dev/null")
    return f"$(shell {' && '.join(tests)} && echo y)"


def _target(prefix: str, g: Guard) -> list[str]:
    """The target part of a guard: ``$(CC) -dumpmachine`` is the triple, or none of the
    family's other listed triples."""
    if g.target:
        return [f"$(filter {g.target},$({prefix}_target))"]
    if g.besides:
        return [f"$(if $(filter {' '.join(g.besides)},$({prefix}_target)),,y)"]
    return []


def _guard(prefix: str, g: Guard) -> str:
    parts = [f"$(filter {g.family},$({prefix}_id))", *_target(prefix, g)]
    if not g.any_version:
        versions = [_range(prefix, r) for r in g.ranges]
        parts.append(versions[0] if len(versions) == 1 else f"$(or {','.join(versions)})")
    return parts[0] if len(parts) == 1 else f"$(and {','.join(parts)})"


def condition(prefix: str, block: Block) -> str:
    """Text that expands to non-empty for the compiler getting ``block``."""
    guards = [_guard(prefix, g) for g in block.guards]
    return guards[0] if len(guards) == 1 else f"$(or {','.join(guards)})"


def render(p: Plan) -> str:
    lines = ["# " + line for line in header_lines(p, "WARNSCOPE_CFLAGS and WARNSCOPE_CXXFLAGS")]
    lines += [
        "#",
        "# Use: include this file after CC and CXX are set, then",
        "#   CFLAGS += $(WARNSCOPE_CFLAGS)",
        "#   CXXFLAGS += $(WARNSCOPE_CXXFLAGS)",
        "# Defines those two variables and nothing else (GNU make 3.82 or newer).",
        "WARNSCOPE_CFLAGS :=",
        "WARNSCOPE_CXXFLAGS :=",
    ]
    helpers = []
    targeted = any(not g.any_target for blocks in p.blocks.values() for b in blocks for g in b.guards)
    for language in p.languages():
        compiler, variable, prefix, x = LANGUAGE[language]
        lines += [
            f"{prefix}_macros := $(shell $({compiler}) -dM -E -x {x} /dev/null 2>/dev/null)",
            f"{prefix}_id := $(if $(filter __clang__,$({prefix}_macros)),clang,"
            f"$(if $(filter __GNUC__,$({prefix}_macros)),gcc))",
            f"{prefix}_major := $(firstword $(subst ., ,$(shell $({compiler}) -dumpfullversion "
            "-dumpversion 2>/dev/null)))",
        ]
        if targeted:
            lines.append(f"{prefix}_target := $(shell $({compiler}) -dumpmachine 2>/dev/null)")
        for block in p.blocks[language]:
            lines += [f"ifneq ({condition(prefix, block)},)",
                      f"{variable} += {' '.join(_escape(f) for f in block.flags)}",
                      "endif"]
        helpers += [f"{prefix}_macros", f"{prefix}_id", f"{prefix}_major"] + ([f"{prefix}_target"] if targeted else [])
    lines += [f"undefine {h}" for h in helpers]
    return "\n".join(lines) + "\n"
