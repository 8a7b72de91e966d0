"""Which diagnostics format each compiler is asked for, and its parser.

Chosen by what carries the option per diagnostic on real output, measured on each
version: GCC 9-15 JSON (``-fdiagnostics-format=json``; GCC 13-15 also have SARIF); GCC 16
SARIF (it has no JSON; its ``ruleId`` is the option); clang text with ``[-Wflag]`` for
every version (``-fdiagnostics-show-option``, on by default), since clang 14 has no SARIF
and clang's SARIF (16 and 19 measured) carries no option name, only an internal
diagnostic number. The flags are appended by
the compiler wrapper to every compile, after the level's flags (they change the format,
not which warnings fire).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from analyzer.runtime.toolchain import Toolchain
from warnscope.diagnostics import Parsed, parse_gcc_json, parse_sarif, parse_text


@dataclass(frozen=True)
class Format:
    name: str
    flags: tuple[str, ...]
    parse: Callable[[str], Parsed]


GCC_JSON = Format("gcc-json", ("-fdiagnostics-format=json",), parse_gcc_json.parse)
GCC_SARIF = Format("sarif", ("-fdiagnostics-format=sarif-stderr",), parse_sarif.parse)
CLANG_TEXT = Format("clang-text", ("-fdiagnostics-show-option", "-fno-caret-diagnostics",
                                   "-fno-color-diagnostics"), parse_text.parse)
BY_NAME = {f.name: f for f in (GCC_JSON, GCC_SARIF, CLANG_TEXT)}


def for_toolchain(tc: Toolchain) -> Format:
    if tc.family == "gcc":
        return GCC_SARIF if tc.major >= 16 else GCC_JSON
    return CLANG_TEXT
