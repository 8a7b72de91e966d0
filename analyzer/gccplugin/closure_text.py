"""``flags closure`` as printed: its text (a header, then an option a line) and its JSON
(the options; what answered, plugin or database, as a note on stderr)."""
from __future__ import annotations

from dataclasses import dataclass

from warnscope.render import Rendered
from warnscope.serial import to_json

from analyzer.gccplugin.binary import VIA_POST, ClosureEntry


@dataclass(frozen=True)
class Closure:
    """What FLAGS turn on in COMPILER for a language (``where``: the language, and the
    standard where one was given), and what answered (``note``)."""

    compiler: str
    flags: list[str]
    where: str
    entries: list[ClosureEntry]
    note: str


def render(c: Closure, **_options) -> str:
    """The header line and an option a line, those set by post-option code marked."""
    lines = [f"{' '.join(c.flags)} in {c.compiler} ({c.where}) turns on {len(c.entries)} flags, {c.note}:"]
    for e in c.entries:
        via = f"   [{e.via}]" if e.via == VIA_POST else ""
        lines.append(f"  {e.as_typed()}{via}")
    return "\n".join(lines)


def render_json(c: Closure, **_options) -> Rendered:
    """The options as JSON (a list of {name, value, via}); what answered on stderr."""
    return Rendered(to_json(c.entries), [f"closure {c.note}"])
