"""Which diagnostics format each compiler is asked for, and its parser.

Chosen by what carries the option per diagnostic on real output, measured on each
version: GCC 9-15 JSON (``-fdiagnostics-format=json``; GCC 13-15 also have SARIF); GCC 16
SARIF (it has no JSON; its ``ruleId`` is the option); clang text with ``[-Wflag]`` for
every version (``-fdiagnostics-show-option``, on by default), since clang 14 has no SARIF
and clang's SARIF (16 and 19 measured) carries no option name, only an internal
diagnostic number. The flags are appended by
the compiler wrapper to every compile, after the level's flags (they change the format,
not which warnings fire).

A compile of several sources (``cc -o prog a.c b.c``, ``cc -c a.c b.c``) prints what each
source's compile said one after the other, into one stderr: :attr:`Format.split` tells
them apart, so that each source is a TU of its own and a header's warning counts once
per source that printed it. GCC's compiler proper (cc1) prints one JSON array or SARIF
log per source, in the order of the command line (GCC 12's one-line arrays and GCC 14's
pretty-printed ones and SARIF logs measured, ``[]`` where a source printed nothing);
text before a document is that source's (``cc1: warning: command-line option ...``),
text after the last (the linker's errors) the last source's. clang's text says the
source of each diagnostic of a source file, and ``In file included from SOURCE:`` above
the first of a header's (clang starts the include stack afresh for each source).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Callable, Sequence

from analyzer.runtime.toolchain import Toolchain
from warnscope.diagnostics import Parsed, parse_gcc_json, parse_sarif, parse_text


#: a line that may open a JSON array or a SARIF log
_OPENS = re.compile(r"^[\[{]", re.MULTILINE)


def split_documents(text: str, sources: Sequence[str]) -> list[str] | None:
    """One compile's structured output split per source: each JSON array or SARIF log
    (a line that opens one), with the text before it; None unless there is exactly one
    per source (a driver that stopped before compiling, a log cut short).

    Read as :func:`warnscope.diagnostics.parse_gcc_json.split_stderr` reads it: a line
    inside a value that failed to decode (up to where the decoder stopped; nested past
    its depth, up to where the brackets close) opens no other value, and a failure does
    not count the lines before it, so each byte is decoded about once whatever the lines
    hold (lines of ``["a`` made every failed decode count all the text before it)."""
    decoder = json.JSONDecoder(strict=False)   # as the parsers read it
    doc = parse_text.Uncounted(text)
    pieces, start, pos, failed_to = [], 0, 0, 0
    while pos < len(text):
        if pos < failed_to or not text.startswith(("[", "{"), pos):
            opens = _OPENS.search(text, max(pos, failed_to))   # the next line that may open one
            if opens is None:
                break
            pos = opens.start()
        try:
            _value, after = decoder.raw_decode(doc, pos)
        except json.JSONDecodeError as exc:   # text (a truncated log leaves one too few)
            after, failed_to = None, exc.pos
        except RecursionError:
            after, failed_to = None, parse_text.value_end(text, pos)
        if after is not None:
            after += text.startswith("\n", after)
            pieces.append(text[start:after])
            start = pos = after
            continue
        end = text.find("\n", pos)
        pos = len(text) if end < 0 else end + 1
    if len(pieces) != len(sources):
        return None
    pieces[-1] += text[start:]
    return pieces


#: clang's line above the first diagnostic of a header included by a source
_INCLUDED = re.compile(r"^In file included from (?P<file>.+?):\d+:$")


def split_clang_text(text: str, sources: Sequence[str]) -> list[str] | None:
    """clang's text of one compile split per source by the source each diagnostic names
    (a diagnostic in a source file: its path as the command line gave it; one in a
    header: the first ``In file included from`` line above it). What precedes the first
    (the driver's own warnings) goes with the first source; None where two sources are
    one path."""
    if len(set(sources)) != len(sources):
        return None
    pieces: dict[str, list[str]] = {s: [] for s in sources}
    current, chained = sources[0], False
    for line in text.splitlines(keepends=True):
        included = _INCLUDED.match(line.rstrip("\n"))
        if not chained:
            named = included["file"] if included else line.split(":", 1)[0]
            if named in pieces and (included or parse_text.LOCATED.match(line.rstrip("\n"))):
                current = named
        chained = included is not None
        pieces[current].append(line)
    return ["".join(pieces[s]) for s in sources]


@dataclass(frozen=True)
class Format:
    name: str
    flags: tuple[str, ...]
    parse: Callable[[str], Parsed]
    #: (one compile's output, its sources) -> the output of each source, or None where
    #: it cannot be told apart
    split: Callable[[str, Sequence[str]], list[str] | None]


GCC_JSON = Format("gcc-json", ("-fdiagnostics-format=json",), parse_gcc_json.parse, split_documents)
GCC_SARIF = Format("sarif", ("-fdiagnostics-format=sarif-stderr",), parse_sarif.parse, split_documents)
CLANG_TEXT = Format("clang-text", ("-fdiagnostics-show-option", "-fno-caret-diagnostics",
                                   "-fno-color-diagnostics"), parse_text.parse, split_clang_text)
BY_NAME = {f.name: f for f in (GCC_JSON, GCC_SARIF, CLANG_TEXT)}


def for_toolchain(tc: Toolchain) -> Format:
    return BY_NAME[tc.profile.diagnostics(tc.major).value]
