"""Untrusted text on a terminal: :func:`warnscope.text.visible` writes out every control
character a terminal acts on and leaves everything else alone; the CLI prints only
through the one ``echo`` that applies it."""
from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from warnscope.serial import to_json
from warnscope.text import on_page, one_line, visible

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("raw, shown", [
    ("\x1b]52;c;SGVsbG8=\x07", "\\x1b]52;c;SGVsbG8=\\x07"),   # OSC 52: write the clipboard
    ("\x1b[2J\x1b[H", "\\x1b[2J\\x1b[H"),                   # clear the screen, cursor home
    ("ok\rFAILED", "ok\\x0dFAILED"),                         # CR: overwrite the line
    ("abc\b\b\bxyz", "abc\\x08\\x08\\x08xyz"),               # backspaces
    ("\x00\x01\x1f\x7f", "\\x00\\x01\\x1f\\x7f"),            # NUL, C0 edges, DEL
    ("\x80\x9b[31m\x9f", "\\x80\\x9b[31m\\x9f"),            # C1 controls (CSI as one byte)
    ("file\u202egnp.exe", "file\\u202egnp.exe"),             # RIGHT-TO-LEFT OVERRIDE
    ("\u200e\u200f\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069\u061c",
     "\\u200e\\u200f\\u202a\\u202b\\u202c\\u202d\\u2066\\u2067\\u2068\\u2069\\u061c"),
])
def test_controls_are_written_out(raw: str, shown: str):
    assert visible(raw) == shown


@pytest.mark.parametrize("text", [
    "", "plain ASCII", "two\nlines\tand a tab", "é ü ß ∀ → 日本語 🙂", "\\x1b as typed",
    "\u00a0no-break space\u00ad soft hyphen", "\u200b zero width space", "[bold]not markup[/bold]",
])
def test_everything_else_is_unchanged(text: str):
    assert visible(text) == text


def test_plain_text_is_returned_as_it_is():
    text = "signed-integer-overflow/loop " * 1000
    assert visible(text) is text


def test_a_page_writes_out_every_format_character_too():
    """On a page, the terminal's escapes and every Unicode format character (Cf) besides:
    a browser draws a zero-width space, a soft hyphen or a byte order mark as nothing."""
    assert on_page("a\u202eb\x1b") == visible("a\u202eb\x1b") == "a\\u202eb\\x1b"
    assert on_page("\u200b\u00ad\ufeff\u2060\U000e0041") == "\\u200b\\xad\\ufeff\\u2060\\U000e0041"
    page = "<p>é → 日本語 🙂</p>\n\t<a href='x'>&amp;</a>"
    assert on_page(page) is page


def test_one_line_writes_out_newlines_too():
    assert one_line("a\nb\x1b") == "a\\x0ab\\x1b"
    assert one_line("a\tb") == "a\tb"


def test_json_output_passes_unchanged():
    """``--json`` goes through the same echo: its escapes are JSON's own, and it stays
    the same JSON."""
    hostile = {"summary": "\x1b]52;c;SGVsbG8=\x07 \x7f \x85 \u202e \r\n"}
    text = to_json(hostile)
    assert visible(text) is text and json.loads(text) == hostile


def _prints_directly(tree: ast.AST) -> list[str]:
    """Calls that print around :func:`analyzer.cli.output.echo`: ``click.echo``,
    ``click.secho``, ``print``, ``sys.stdout.write``/``sys.stderr.write``."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name) and f.id == "print":
            found.append(f"print (line {node.lineno})")
        elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) \
                and f.value.id == "click" and f.attr in ("echo", "secho"):
            found.append(f"click.{f.attr} (line {node.lineno})")
        elif isinstance(f, ast.Attribute) and f.attr == "write" and isinstance(f.value, ast.Attribute) \
                and f.value.attr in ("stdout", "stderr"):
            found.append(f"{f.value.attr}.write (line {node.lineno})")
    return found


def test_the_cli_prints_only_through_echo():
    """A new command that calls ``click.echo`` would print untrusted text raw."""
    offenders = {}
    for path in sorted((ROOT / "analyzer" / "cli").glob("*.py")):
        if path.name == "output.py":
            continue
        found = _prints_directly(ast.parse(path.read_text(), str(path)))
        if found:
            offenders[path.name] = found
    assert offenders == {}
