"""Diagnostics from a compiler's text output: every clang, and the lines GCC prints as
text beside its JSON (``cc1: warning: command-line option ... is valid for C++``).

A diagnostic is one line ``FILE:LINE[:COL]: SEVERITY: MESSAGE [OPTIONS]`` or, without a
location, ``PROGRAM: SEVERITY: MESSAGE [OPTIONS]``. clang ends it with the options that
control it (``-fdiagnostics-show-option``, on by default): ``[-Wunused-variable]``, or
``[-Werror,-Wunused-variable]`` under ``-Werror``. The runner asks clang for no caret
lines (``-fno-caret-diagnostics``): a quoted source line could otherwise look like a
diagnostic. Notes, ``In file included from`` and ``N warnings generated.`` are not
diagnostics.

The text does not say where a file's name ends: clang prints it as it is, so
``c:colon.c:3:5: error: …`` has a colon in its name, and a name holding a newline
(``nl<newline>name.c``) is printed over two lines, the second reading as a diagnostic in
``name.c``. So a caller that knows which files the compile read (:func:`parse`'s ``read``:
its source, the files that exist where the compile ran) has the name resolved against
them: the place may end at any of a line's first :data:`PLACES_TRIED` ``:LINE:[COL:]
SEVERITY: `` and the name may begin up to :data:`NAME_LINES` lines above, the longest
name the compile read winning; a diagnostic whose name is none of them is kept without a
place (``file`` None) and counted in the output's problem, never put in another file.
Without ``read``, the name is the text before the line's first place.
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable, Iterator

from warnscope.diagnostics import Parsed, RawDiagnostic
from warnscope.text import one_line

SEVERITIES = {"warning": "warning", "error": "error", "fatal error": "fatal", "remark": "remark",
              "internal compiler error": "ice"}
_SEV = "|".join(sorted(map(re.escape, SEVERITIES), key=len, reverse=True))
LOCATED = re.compile(rf"^(?P<file>[^\s:][^:]*?):(?P<line>\d+):(?:(?P<col>\d+):)? (?P<sev>{_SEV}): (?P<msg>.*)$")
#: the end of a located diagnostic's place, after its file's name
PLACE = re.compile(rf":(?P<line>\d+):(?:(?P<col>\d+):)? (?P<sev>{_SEV}): ")
#: how many lines a file's name may span (a name holding newlines), how many places on one
#: line are tried as the end of the name, and the longest name tried (PATH_MAX)
NAME_LINES = 3
PLACES_TRIED = 4
MAX_NAME = 4096
#: the most names one output asks ``read`` about: past it, a diagnostic whose name was not
#: asked yet is kept without a place (a text of a million names costs no million lookups)
MAX_ASKED = 10_000
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


def located(lines: list[str], place: re.Pattern[str] = PLACE,
            read: Callable[[str], bool] | None = None
            ) -> Iterator[tuple[int, str | None, re.Match[str]]]:
    """Each line of ``lines`` that holds a located diagnostic: (its index, its file's name,
    the ``place`` that ends the name on it; the message follows the place). With ``read``
    the name is resolved (see the module): None where no name the compile read fits.
    Without it, the name is the text before the first place. A line whose name would be
    empty or start with a blank (a quoted source line) holds none."""
    known: dict[str, bool] = {}

    def was_read(name: str) -> bool:
        if name not in known:
            if len(known) >= MAX_ASKED:
                return False
            known[name] = read(name)
        return known[name]

    free = 0      # the first line no diagnostic took
    for i, line in enumerate(lines):
        places = []
        for m in place.finditer(line):
            if m.start() > MAX_NAME or len(places) == PLACES_TRIED:
                break
            places.append(m)
        if not places or places[0].start() == 0 or line[0].isspace() and read is None:
            continue
        if read is None:
            free = i + 1
            yield i, line[:places[0].start()], places[0]
            continue
        hit = None
        for k in range(min(NAME_LINES - 1, i - free), -1, -1):
            if sum(len(lines[j]) + 1 for j in range(i - k, i)) > MAX_NAME:
                continue
            above = "".join(lines[j] + "\n" for j in range(i - k, i))
            hit = next(((above + line[:m.start()], m) for m in places
                        if len(above) + m.start() <= MAX_NAME and was_read(above + line[:m.start()])),
                       None)
            if hit:
                break
        if hit is None and line[0].isspace():
            continue
        free = i + 1
        yield (i, *hit) if hit else (i, None, places[0])


def _diagnostic(file: str | None, sev: str, message: str, lineno: int | None = None,
                col: int | None = None) -> RawDiagnostic:
    option = None
    o = OPTIONS.search(message)
    if o:
        option, message = option_of(o["opts"]), message[:o.start()]
    return RawDiagnostic(option=option, severity=SEVERITIES[sev], file=file, line=lineno,
                         column=col, message=message)


def line_diagnostic(line: str) -> RawDiagnostic | None:
    """The diagnostic on one line of text, or None (a note, a caret line, anything else);
    its file is the text before the line's first place."""
    for _, file, m in located([line]):
        return _diagnostic(file, m["sev"], line[m.end():], int(m["line"]),
                           int(m["col"]) if m["col"] else None)
    m = UNLOCATED.match(line)
    return _diagnostic(None, m["sev"], m["msg"]) if m else None


def parse(text: str, read: Callable[[str], bool] | None = None) -> Parsed:
    """Every diagnostic of a text output. ``read``: whether the compile read a file of
    that name, as the compiler printed it (see the module); a diagnostic in none of them
    is kept without a place, and the problem says how many. Otherwise never a problem:
    text that is not a diagnostic is what text output is full of."""
    lines = text.split("\n")
    unplaced: list[str] = []
    placed: dict[int, RawDiagnostic] = {}
    for i, file, m in located(lines, PLACE, read):
        line = lines[i]
        if file is None:
            unplaced.append(line[:m.start()])
            placed[i] = _diagnostic(None, m["sev"], line[m.end():])
        else:
            placed[i] = _diagnostic(file, m["sev"], line[m.end():], int(m["line"]),
                                    int(m["col"]) if m["col"] else None)
    found = []
    for i, line in enumerate(lines):
        d = placed.get(i)
        if d is None and (u := UNLOCATED.match(line)):
            d = _diagnostic(None, u["sev"], u["msg"])
        if d is not None and d.option not in OWN:
            found.append(d)
    if not unplaced:
        return Parsed(found)
    return Parsed(found, f"{len(unplaced)} diagnostic{'s' if len(unplaced) > 1 else ''} at a file this "
                         f"compile did not read ({one_line(unplaced[0])[:200]!r}): kept without a place")


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

    def count(self, *args) -> int:    # the error's line number only
        return 0

    def rfind(self, *args) -> int:    # the error's column only
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
