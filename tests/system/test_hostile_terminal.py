"""Untrusted text reaches a real terminal with its control characters made visible.

A corpus program's metadata is anyone's text. Here its summary holds an OSC 52
clipboard write and a screen clear; ``ub run`` and ``ub report`` run on a
pseudo-terminal (so the progress bar and every echo take their terminal path), and
what the terminal receives must hold the escapes written out (``\\x1b]52;…``), never
the bytes a terminal would obey. An error line naming a path with an escape in it is
shown the same way.
"""
from __future__ import annotations

import os
import re

import pytest

#: OSC 52 (write "Hello" to the clipboard, BEL-terminated) and CSI 2J (clear the screen)
CLIPBOARD = "\x1b]52;c;SGVsbG8=\x07"
CLEAR = "\x1b[2J"
SHOWN = {CLIPBOARD: b"\\x1b]52;c;SGVsbG8=\\x07", CLEAR: b"\\x1b[2J"}

PROGRAM = f"""/* ub-case
 * category: hostile
 * standard: none (a control program)
 * summary: copies {CLIPBOARD} then clears {CLEAR} the screen
 * ub: no
 */
#include <stdio.h>
int main(void) {{ puts("ok"); return 0; }}
"""

needs_gcc = pytest.mark.skipif(not os.path.exists("/usr/bin/gcc-12"), reason="needs gcc-12")


def assert_harmless(received: bytes) -> None:
    """None of the hostile sequences, nor a BEL, reached the terminal raw."""
    assert CLIPBOARD.encode() not in received and b"\x1b]52" not in received
    assert CLEAR.encode() not in received
    assert b"\x07" not in received


@needs_gcc
def test_metadata_controls_reach_the_terminal_visible(tmp_path, on_terminal):
    (tmp_path / "corpus" / "hostile").mkdir(parents=True)
    (tmp_path / "corpus" / "hostile" / "clipboard.c").write_text(PROGRAM)
    db = str(tmp_path / "ub.db")
    code, received = on_terminal("--db", db, "ub", "run", "--corpus", str(tmp_path / "corpus"),
                                 "--compilers", "gcc-12", "--levels", "O0", "--no-warnings",
                                 "--no-sanitizers")
    assert code == 0, received
    assert_harmless(received)
    code, received = on_terminal("--db", db, "ub", "report")
    assert code == 0, received
    assert_harmless(received)
    assert SHOWN[CLIPBOARD] in received and SHOWN[CLEAR] in received
    assert b"hostile/clipboard" in received


def test_an_error_naming_a_hostile_path_is_one_visible_line(tmp_path, on_terminal):
    """The corpus path itself holds the escapes; it is not there, so the run stops with
    one error line that names it visibly (and no database is made)."""
    corpus = tmp_path / f"corpus{CLIPBOARD}{CLEAR}\nnext"
    db = tmp_path / "ub.db"
    code, received = on_terminal("--db", str(db), "ub", "run", "--corpus", str(corpus),
                                 "--compilers", "gcc-12", "--levels", "O0")
    assert code == 1
    assert_harmless(received)
    # the prefix's own colour (SGR) is the only escape warnscope writes there
    lines = re.sub(r"\x1b\[[0-9;]*m", "", received.decode()).strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("warnscope: error: "), received
    assert SHOWN[CLIPBOARD] + SHOWN[CLEAR] + b"\\x0anext" in received
    assert not db.exists()
