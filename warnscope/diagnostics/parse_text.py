"""Diagnostics from a compiler's text output: every clang, and the lines GCC prints as
text beside its JSON (``cc1: warning: command-line option ... is valid for C++``).

A diagnostic is one line ``FILE:LINE[:COL]: SEVERITY: MESSAGE [OPTIONS]`` or, without a
location, ``PROGRAM: SEVERITY: MESSAGE [OPTIONS]``. clang ends it with the options that
control it (``-fdiagnostics-show-option``, on by default): ``[-Wunused-variable]``, or
``[-Werror,-Wunused-variable]`` under ``-Werror``. The runner asks clang for no caret
lines (``-fno-caret-diagnostics``): a quoted source line could otherwise look like a
diagnostic. Notes, ``In file included from`` and ``N warnings generated.`` are not
diagnostics.
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable

from warnscope.diagnostics import Parsed, RawDiagnostic

SEVERITIES = {"warning": "warning", "error": "error", "fatal error": "fatal", "remark": "remark",
              "internal compiler error": "ice"}
_SEV = "|".join(sorted(map(re.escape, SEVERITIES), key=len, reverse=True))
LOCATED = re.compile(rf"^(?P<file>[^\s:][^:]*?):(?P<line>\d+):(?:(?P<col>\d+):)? (?P<sev>{_SEV}): (?P<msg>.*)$")
UNLOCATED = re.compile(rf"^(?P<prog>[^\s:]+): (?P<sev>{_SEV}): (?P<msg>.*)$")
OPTIONS = re.compile(r" \[(?P<opts>-[WR][^\]\s]*)\]$")
#: printed by clang for the SARIF format itself, not by the code under test
OWN = {"-Wsarif-format-unstable"}
#: the prefix of a text diagnostic that GCC (11, 12, 14 measured) leaks into every later
#: JSON or SARIF message once it printed a command-line warning as text
LEAKED_PREFIX = re.compile(r"^[\w.+-]+: (?:warning|error|fatal error|note|sorry, unimplemented): ")


def unleaked(message: str) -> str:
    """A structured diagnostic's message without the text prefix GCC leaked into it."""
    return LEAKED_PREFIX.sub("", message, count=1)


def option_of(options: str) -> str | None:
    """The controlling option among a bracket's comma-separated words (``-Werror,-Wfoo``
    -> ``-Wfoo``; ``-Werror=foo`` -> ``-Wfoo``)."""
    for word in options.split(","):
        if word.startswith("-Werror="):
            return "-W" + word[len("-Werror="):]
        if word.startswith(("-W", "-R")) and word not in ("-Werror", "-Wfatal-errors"):
            return word
    return None


def line_diagnostic(line: str) -> RawDiagnostic | None:
    """The diagnostic on one line of text, or None (a note, a caret line, anything else)."""
    m = LOCATED.match(line)
    file = lineno = col = None
    if m:
        file, lineno = m["file"], int(m["line"])
        col = int(m["col"]) if m["col"] else None
    else:
        m = UNLOCATED.match(line)
        if not m:
            return None
    message, option = m["msg"], None
    o = OPTIONS.search(message)
    if o:
        option, message = option_of(o["opts"]), message[:o.start()]
    return RawDiagnostic(option=option, severity=SEVERITIES[m["sev"]], file=file, line=lineno,
                         column=col, message=message)


def parse(text: str) -> Parsed:
    """Every diagnostic of a text output (never a problem: text that is not a diagnostic
    is what text output is full of)."""
    found = [d for d in map(line_diagnostic, text.splitlines()) if d is not None]
    return Parsed([d for d in found if d.option not in OWN])


def parse_around(text: str, opens: str, what: str,
                 read: Callable[[Any], list[RawDiagnostic]]) -> Parsed:
    """Every diagnostic of an output where structured values (JSON opening with one of
    ``opens``) stand between lines of text, each value's diagnostics by ``read``. A value
    cut short, or of a shape ``read`` refuses (ValueError), ends the reading: ``what``
    names the format in the problem, and what was read before it is kept."""
    # strict=False: GCC writes a file name's control characters into its JSON strings
    # unescaped; nothing else of strict JSON is relaxed
    decoder = json.JSONDecoder(strict=False)
    found: list[RawDiagnostic] = []
    pos, n = 0, len(text)
    while pos < n:
        if text[pos].isspace():
            pos += 1
            continue
        if text[pos] not in opens:
            end = text.find("\n", pos)
            end = n if end < 0 else end
            d = line_diagnostic(text[pos:end])
            if d is not None and d.option not in OWN:
                found.append(d)
            pos = end + 1
            continue
        try:
            value, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            return Parsed(found, f"{what} cut short or malformed at byte {exc.pos}: {exc.msg}")
        except RecursionError:
            return Parsed(found, f"{what} nested too deeply at byte {pos}")
        try:
            found += read(value)
        except (ValueError, AttributeError) as exc:
            return Parsed(found, f"{what} of an unknown shape: {exc}")
    return Parsed(found)


class Uncounted(str):
    """A text to decode JSON from at many places, whose decode errors do not count its
    lines: :class:`json.JSONDecodeError` counts the newlines before the error's position
    (``doc.count``, ``doc.rfind``), which made each failure cost the whole text before
    it. The position is all a reader here uses."""

    def count(self, *args) -> int:   # noqa: D102 (the error's line number only)
        return 0

    def rfind(self, *args) -> int:   # noqa: D102 (the error's column only)
        return -1


#: a JSON string (its escapes included) or a bracket
_JSON_PART = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


def value_end(text: str, pos: int) -> int:
    """Where the JSON value opening at ``pos`` closes (after its last bracket), or the
    end of ``text`` where it never does: brackets counted, strings passed over. For a
    value the decoder refused as nested too deeply, whose end it does not say."""
    depth = 0
    for m in _JSON_PART.finditer(text, pos):
        if m.group() in "[{":
            depth += 1
        elif m.group() in "]}":
            depth -= 1
            if depth <= 0:
                return m.end()
    return len(text)
