"""Untrusted text made safe to show on a terminal.

Names and messages warnscope prints come from files, archives, compilers, corpus
metadata and the database: anyone's text. A terminal obeys the control characters in
it: ESC starts sequences that clear the screen, move the cursor, retitle the window or
write the clipboard (OSC 52); CR and backspace overwrite what a line said; the Unicode
bidi controls reorder what a line seems to say. :func:`visible` writes each of them out
as an escape instead, so the text shows what it holds and does nothing.

The form is Python's: ``\\xNN`` for a code point up to U+00FF (``\\x1b``, ``\\x0d``,
``\\x07``, ``\\x9b``), ``\\uNNNN`` above (``\\u202e``), ``\\UNNNNNNNN`` beyond U+FFFF, the same form
:func:`warnscope.extract.shown` gives a byte that is not UTF-8. A backslash already in
the text is left as it is: the escape is for the reader's eyes, not a reversible
encoding.

A page of the report site (:func:`on_page`) shows the same escapes for the same
characters, and for every other format character too (Unicode category Cf: zero-width
spaces and joiners, the soft hyphen, the byte order mark, the invisible operators): a
browser draws them as nothing, or reorders the text around them, so a name holding one
would look like another name. The terminal's set stays the characters a terminal acts on.
"""
from __future__ import annotations

import functools
import re
import sys
import unicodedata

#: Every C0 control except newline and tab; DEL; the C1 controls; the bidi controls
#: (Unicode's Bidi_Control: ALM U+061C, LRM/RLM, the embeddings and overrides, the
#: isolates).
_CONTROLS = r"\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_CONTROL = re.compile(f"[{_CONTROLS}]")
#: The same, and newline: for text that must stay on one line.
_CONTROL_OR_NEWLINE = re.compile(rf"[{_CONTROLS}\n]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def visible(text: str) -> str:
    """``text`` with every control character a terminal would act on written out as an
    escape (``\\x1b``, ``\\u202e``); newlines, tabs and everything else unchanged. Plain
    text (nearly all of it) is returned as it is, after one scan."""
    if _CONTROL.search(text) is None:
        return text
    return _CONTROL.sub(_escape, text)


def one_line(text: str) -> str:
    """:func:`visible`, and a newline written out as ``\\x0a`` too: for a line that must
    stay one line (an error message naming a file whose name holds a newline)."""
    if _CONTROL_OR_NEWLINE.search(text) is None:
        return text
    return _CONTROL_OR_NEWLINE.sub(_escape, text)


def _ranges(codes: list[int]) -> str:
    """A character class's body for ``codes`` (sorted), as ranges."""
    out, start, prev = [], codes[0], codes[0]
    for c in codes[1:] + [-1]:
        if c != prev + 1:
            out.append(re.escape(chr(start)) + ("-" + re.escape(chr(prev)) if prev > start else ""))
            start = c
        prev = c
    return "".join(out)


@functools.cache
def _page_control() -> re.Pattern[str]:
    """:data:`_CONTROLS` and every format character (Cf) of this Python's Unicode
    database; made once, when a site is built (a scan of every code point)."""
    return re.compile(f"[{_CONTROLS}" + _ranges(
        [c for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf"]) + "]")


def on_page(text: str) -> str:
    """:func:`visible` for a page of the report site: the same escapes, and every format
    character (Unicode category Cf) written out as well (see the module). HTML has no
    meaning in the escapes, so a whole rendered page may go through it."""
    pattern = _page_control()
    if pattern.search(text) is None:
        return text
    return pattern.sub(_escape, text)
