"""GCC's ``-fdiagnostics-format=json`` (GCC 9-15): each compiler process of a compile
(the driver, cc1) prints one JSON array of its diagnostics at its end; text it prints
outside the diagnostic machinery (``cc1: warning: command-line option ... is valid for
C++``) stands between them as lines and is read as text.

Each element: ``kind`` ('warning', 'error', 'fatal error', 'internal compiler error',
...), ``message``, ``option`` (absent where no option controls it), ``locations`` with a
``caret`` {file, line, column}, and ``children``. The children are mostly notes, which
belong to their parent and are not diagnostics of their own, but not only: GCC (11 and
12 measured) nests the diagnostics of one group there, and a preprocessor warning
repeated at each expansion of a macro comes as one element with the other expansions'
warnings as its children (adler32.c of zlib at ``all``: 31 top-level elements, 72
warnings among their children, 103 warnings in the text output of the same compile).
So every element of the tree that is not a note is a diagnostic.

Two more things GCC 11 and 12 do (measured on tests/fixtures/warnings/formats): once a
warning about the command line was printed as text (``cc1: warning: command-line option
'-Wctor-dtor-privacy' is valid for C++/ObjC++ but not for C``), every later JSON message
starts with that text's prefix, ``cc1: warning: ``, which is removed here; and a warning
inside a macro is placed at each expansion of the macro, where the text output places it
at the macro's definition (with an ``in expansion of macro`` note). A truncated array (a compiler killed mid-write) or another shape is a problem: the TU is
reported with it, and what was read before it is kept.
"""
from __future__ import annotations

import json
import re
from typing import Any

from warnscope.diagnostics import Parsed, RawDiagnostic, parse_sarif, parse_text

KINDS = {"fatal error": "fatal", "internal compiler error": "ice", "ice": "ice",
         "sorry, unimplemented": "sorry"}


def _flatten(items: list) -> list:
    """Every element of a JSON array and of its elements' ``children``, depth first."""
    out = []
    for item in items:
        out.append(item)
        children = item.get("children") if isinstance(item, dict) else None
        if isinstance(children, list):
            out += _flatten(children)
    return out


def _diagnostic(item: Any) -> RawDiagnostic | None:
    if not isinstance(item, dict) or not isinstance(item.get("kind"), str) \
            or not isinstance(item.get("message"), str):
        raise ValueError("an element without a string 'kind' and 'message'")
    kind = item["kind"]
    if kind == "note":
        return None
    option = item.get("option")
    if option is not None and not isinstance(option, str):
        raise ValueError("an 'option' that is not a string")
    if option and option.startswith("-Werror="):
        option = "-W" + option[len("-Werror="):]
    file = line = column = None
    locations = item.get("locations") or []
    if locations:
        caret = locations[0].get("caret") if isinstance(locations[0], dict) else None
        if isinstance(caret, dict):
            file, line, column = caret.get("file"), caret.get("line"), caret.get("column")
    return RawDiagnostic(option=option or None, severity=KINDS.get(kind, kind), file=file,
                         line=line if isinstance(line, int) else None,
                         column=column if isinstance(column, int) else None,
                         message=parse_text.unleaked(item["message"]))


def _array(value: Any) -> list[RawDiagnostic]:
    if not isinstance(value, list):
        raise ValueError("expected an array of diagnostics")
    return [d for d in map(_diagnostic, _flatten(value)) if d is not None]


def parse(text: str) -> Parsed:
    return parse_text.parse_around(text, "[{", "GCC JSON", _array)


def diagnostics_of(elements: list, nested: bool = True) -> list[RawDiagnostic]:
    """The diagnostics of GCC's JSON elements as :func:`split_stderr` gives them (notes
    dropped), read as :func:`parse` reads them but never failing: an element of another
    shape is passed over, as :func:`split_stderr` keeps what it cannot read. ``nested``
    False: the top-level elements only (their children, notes and the analyzer's event
    paths among them, are not read)."""
    found = []
    for item in _flatten(elements) if nested else elements:
        try:
            d = _diagnostic(item)
        except (ValueError, TypeError, LookupError, AttributeError):
            continue
        if d is not None:
            found.append(d)
    return found


def options_fired(diagnostics: list) -> list[str]:
    """The warning options named by GCC's JSON diagnostics (:func:`split_stderr`'s
    elements, children included)."""
    found: set[str] = set()

    def walk(items: list) -> None:
        for d in items:
            if d.get("kind") == "warning" and d.get("option"):
                found.add(d["option"])
            walk(d.get("children", []))

    walk(diagnostics)
    return sorted(found)


#: what a line that opens GCC's JSON or SARIF starts with: an array or object whose
#: first part is an object, an array, a string (a key) or its end (``[{``, ``{"``, ``[]``)
_OPENS = re.compile(r'[\[{]\s*["\[\]{}]')


def split_stderr(stderr: str) -> tuple[list, str]:
    """:func:`split_parts`, the rest rendered beside the diagnostics as text."""
    diagnostics, rest, _ = split_parts(stderr)
    rendered = [f"{d.get('kind')}: {d.get('message')}"
                + (f" [{d['option']}]" if d.get("option") else "") for d in diagnostics]
    return diagnostics, "\n".join(rendered + rest)


def split_parts(stderr: str) -> tuple[list, list[str], int]:
    """Split GCC's JSON diagnostics, the elements as GCC prints them, from the rest of
    its stderr (linker errors are text): (the elements, the lines of the rest, how many
    documents were decoded; GCC prints one even when it has nothing to say). The
    UB runner's reading, which keeps every element (notes and children too) and never
    fails (what is not a diagnostic stays text).

    GCC up to 13 prints the array on one line; GCC 14 pretty-prints it over many, so
    the array is decoded from wherever a line opens one, whatever its length. GCC 16
    prints a SARIF log instead (an object, also pretty-printed): its results become
    the same {kind, message, option, locations} dicts.

    A line inside a value that failed to decode (up to where the decoder stopped; for a
    value nested past the decoder's depth, up to where its brackets close) is text, not
    the start of another value, and a failure costs nothing more than the decode
    (:class:`parse_text.Uncounted`): so each byte is decoded once whatever the lines
    hold (each failure counted the lines before it, and each line of ``[`` started a
    decode a thousand levels deep).
    """
    # strict=False: GCC writes a file name's control characters into its JSON strings
    # unescaped; nothing else of strict JSON is relaxed
    decoder = json.JSONDecoder(strict=False)
    diagnostics, rest = [], []
    pos = failed_to = documents = 0
    doc = parse_text.Uncounted(stderr)
    while pos < len(stderr):
        end = stderr.find("\n", pos)
        end = len(stderr) if end < 0 else end
        if pos >= failed_to and _OPENS.match(stderr, pos):
            try:
                value, after = decoder.raw_decode(doc, pos)
            except json.JSONDecodeError as exc:
                value, failed_to = None, exc.pos
            except RecursionError:
                value, failed_to = None, parse_text.value_end(stderr, pos)
            if isinstance(value, dict) and isinstance(value.get("runs"), list):
                value = parse_sarif.as_gcc_json(value)
            if isinstance(value, list):
                documents += 1
                diagnostics.extend(d for d in value if isinstance(d, dict))
                pos = after + 1 if stderr.startswith("\n", after) else after
                continue
        rest.append(stderr[pos:end])
        pos = end + 1
    return diagnostics, rest, documents
