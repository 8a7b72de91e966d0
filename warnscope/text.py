"""Untrusted text made safe to show on a terminal.

Names and messages warnscope prints come from files, archives, compilers, corpus
metadata and the database: anyone's text. A terminal obeys the control characters in
it: ESC starts sequences that clear the screen, move the cursor, retitle the window or
write the clipboard (OSC 52); CR and backspace overwrite what a line said; the Unicode
bidi controls reorder what a line seems to say. :func:`visible` writes each of them out
as an escape instead, so the text shows what it holds and does nothing.

The form is Python's: ``\\xNN`` for a code point up to U+00FF (``\\x1b``, ``\\x0d``,
``\\x07``, ``\\x9b``), ``\\uNNNN`` above (``\\u202e``), the same form
:func:`warnscope.extract.shown` gives a byte that is not UTF-8. A backslash already in
the text is left as it is: the escape is for the reader's eyes, not a reversible
encoding.
"""
from __future__ import annotations

import re

#: Every C0 control except newline and tab; DEL; the C1 controls; the bidi controls
#: (Unicode's Bidi_Control: ALM U+061C, LRM/RLM, the embeddings and overrides, the
#: isolates).
_CONTROLS = r"\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_CONTROL = re.compile(f"[{_CONTROLS}]")
#: The same, and newline: for text that must stay on one line.
_CONTROL_OR_NEWLINE = re.compile(rf"[{_CONTROLS}\n]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


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
