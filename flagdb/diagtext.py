"""A diagnostic's text as clang's generated table writes it, from its TableGen text.

clang's TableGen (``DiagnosticTextBuilder::buildForDefinition``) parses a text into
pieces and prints it back: ``%sub{name}1,2`` is replaced by the ``TextSubstitution``
``name``'s text, whose ``%0``, ``%1`` … become the numbers listed (``1``, ``2``), and
``%enum_select<Kind>{%A{a}|%B{b}}0`` is printed as ``%select{a|b}0``. Every other
piece prints as written, so a text with neither is left as it is.
"""
from __future__ import annotations

import re


class TextError(Exception):
    """A text clang's TableGen would refuse (one line: what is wrong)."""


_MODIFIER = re.compile(r"[a-z_]*")
#: modifiers that take no braces: %0, %s0, %q0, %ordinal0 …
_PLAIN = {"", "s", "q", "ordinal", "human", "objcclass", "objcinstance", "quoted"}
#: literal text up to a stop character (``%%``, ``%|`` and ``%$`` are literal), by
#: what stops it: the end, a ``|`` or ``}`` of a %select option, and a ``$`` in a %diff
_LITERAL = {stop: re.compile(rf"[^{chars}]*+(?:%[%|$][^{chars}]*+)*+")
            for stop, chars in (("end", "%"), ("pipe", "%|}"), ("dollar", "%|}$"))}


def for_definition(text: str, substitutions: dict[str, str]) -> str:
    """``text`` as the generated ``Diagnostic*Kinds.inc`` writes it."""
    if "%sub{" not in text and "%enum_select" not in text:
        return text
    return _Printer(substitutions).text(text, None, 0)


class _Printer:
    def __init__(self, substitutions: dict[str, str]):
        self.subs = substitutions

    def text(self, text: str, mapping: list[int] | None, depth: int) -> str:
        out, end = self.pieces(text, 0, "end", mapping, depth)
        if end < len(text):
            raise TextError(f"unexpected {text[end]!r} in the text")
        return out

    def pieces(self, text: str, i: int, stop: str, mapping, depth: int) -> tuple[str, int]:
        """Print pieces of ``text`` from ``i`` up to a stop character; returns (printed,
        where it stopped)."""
        literal = _LITERAL[stop].match
        out = []
        n = len(text)
        while i < n:
            j = literal(text, i).end()
            out.append(text[i:j])
            i = j
            if i >= n or text[i] != "%":
                break
            i += 1
            m = _MODIFIER.match(text, i)
            mod = m.group()
            i = m.end()
            if mod in ("select", "enum_select"):
                if mod == "enum_select":
                    if not text.startswith("<", i) or text.find(">", i) < 0:
                        raise TextError("expected '<' after %enum_select")
                    i = text.index(">", i) + 1
                if not text.startswith("{", i):
                    raise TextError(f"expected '{{' after %{mod}")
                options = []
                while text.startswith(("{", "|"), i):
                    i += 1
                    braces = False
                    if mod == "enum_select":
                        if text.startswith("%", i):
                            k = text.find("{", i)
                            if k < 0:
                                raise TextError("expected '{' after an %enum_select option name")
                            i, braces = k + 1, True
                        elif text.startswith("{", i):
                            i, braces = i + 1, True
                    body, i = self.pieces(text, i, "pipe", mapping, depth)
                    if braces:
                        if not text.startswith("}", i):
                            raise TextError("expected '}' after an %enum_select option")
                        i += 1
                    options.append(body)
                    if i >= n:
                        raise TextError(f"unterminated %{mod}")
                if not text.startswith("}", i):
                    raise TextError(f"expected '}}' ending %{mod}")
                number, i = self.number(text, i + 1, mapping)
                out.append("%select{" + "|".join(options) + "}" + number)
            elif mod == "plural":
                options = []
                while text.startswith(("{", "|"), i):
                    i += 1
                    colon = text.find(":", i)
                    if colon < 0:
                        raise TextError("expected ':' while parsing %plural")
                    prefix = text[i:colon + 1]
                    body, i = self.pieces(text, colon + 1, "pipe", mapping, depth)
                    options.append(prefix + body)
                    if i >= n:
                        raise TextError("unterminated %plural")
                if not text.startswith("}", i):
                    raise TextError("expected '}' ending %plural")
                number, i = self.number(text, i + 1, mapping)
                out.append("%plural{" + "|".join(options) + "}" + number)
            elif mod == "diff":
                if not text.startswith("{", i):
                    raise TextError("expected '{' after %diff")
                parts = []
                i += 1
                for want, stop_at in (("$", "dollar"), ("$", "dollar"), ("|", "pipe"), ("}", "pipe")):
                    body, i = self.pieces(text, i, stop_at, mapping, depth)
                    if not text.startswith(want, i):
                        raise TextError(f"expected {want!r} while parsing %diff")
                    i += 1
                    parts.append(body)
                first, i = self.number(text, i, mapping)
                if not text.startswith(",", i):
                    raise TextError("expected ',' while parsing %diff")
                second, i = self.number(text, i + 1, mapping)
                out.append(f"%diff{{{parts[0]}${parts[1]}${parts[2]}|{parts[3]}}}{first},{second}")
            elif mod == "sub":
                if not text.startswith("{", i) or text.find("}", i) < 0:
                    raise TextError("expected '{' after %sub")
                end = text.index("}", i)
                name = text[i + 1:end]
                i = end + 1
                numbers = []
                while i < n and text[i].isdigit():
                    value, i = self._digits(text, i)
                    numbers.append(self.map(value, mapping))
                    if i < n and text[i] == "," and i + 1 < n and text[i + 1].isdigit():
                        i += 1
                    else:
                        break
                if name not in self.subs:
                    raise TextError(f"no text substitution named {name!r}")
                if depth > 16:
                    raise TextError("text substitutions nest deeper than 16 (a cycle?)")
                out.append(self.text(self.subs[name], numbers, depth + 1))
            elif mod in _PLAIN:
                number, i = self.number(text, i, mapping)
                out.append("%" + mod + number)
            else:
                raise TextError(f"unknown modifier %{mod}")
        return "".join(out), i

    @staticmethod
    def _digits(text: str, i: int) -> tuple[int, int]:
        j = i
        while j < len(text) and text[j].isdigit():
            j += 1
        if j == i:
            raise TextError("expected an argument number")
        return int(text[i:j]), j

    def number(self, text: str, i: int, mapping) -> tuple[str, int]:
        value, i = self._digits(text, i)
        return str(self.map(value, mapping)), i

    @staticmethod
    def map(value: int, mapping: list[int] | None) -> int:
        if mapping is None:
            return value
        if value >= len(mapping):
            raise TextError(f"argument %{value} of a substitution given {len(mapping)} numbers")
        return mapping[value]
