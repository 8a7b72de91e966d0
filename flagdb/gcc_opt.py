"""Reading GCC ``.opt`` files the way GCC's own awk scripts read them.

The rules follow ``opt-gather.awk``, ``opt-read.awk``, ``opt-functions.awk`` and
``optc-gen.awk``:

* a blank line or a line starting with ``;`` ends a record; a line starting with a
  space or TAB is dropped (``/^[^ \\t]/`` never matches it);
* field 1 is the name without its leading ``-``, field 2 the properties, further
  lines the help text, joined by single spaces;
* ``Name(arg)`` properties are found with the pattern `` Name(`` — so ``Init (1)``,
  with a space, is not an ``Init`` at all; the last occurrence wins;
* records of the same name in several files are merged: properties concatenated,
  the one non-empty help kept;
* the help text becomes a C string literal in ``options.cc`` (``optc-gen.awk`` writes
  it between quotes), so its backslash escapes are C's: ``\\"defined\\"`` is read
  as ``"defined"``, ``\\\\u`` as ``\\u``;
* ``Language``, ``Enum``, ``EnumValue``, ``Variable``, ``TargetVariable``,
  ``TargetSave``, ``HeaderInclude`` and ``SourceInclude`` records are not options.

Anything malformed raises :class:`~warnscope.errors.ParseError` naming file and line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from warnscope.errors import ParseError
from warnscope.extract import read_regular

SPECIAL_RECORDS = {
    "Language", "Enum", "EnumValue", "Variable", "TargetVariable", "TargetSave",
    "HeaderInclude", "SourceInclude",
}


@dataclass
class Record:
    """One record as written in one file."""

    name: str
    props: str
    help: str
    path: str
    line: int


@dataclass
class OptFile:
    """The records of one ``.opt`` file, split into options and the special kinds."""

    path: str
    options: list[Record] = field(default_factory=list)
    languages: list[str] = field(default_factory=list)
    #: enum name -> {value expression: string}, from ``EnumValue`` records
    enum_values: dict[str, list[tuple[str, str]]] = field(default_factory=dict)


def read_records(text: str, path: str) -> list[tuple[int, list[str]]]:
    """Split a file into records: (first line number, the record's lines)."""
    records: list[tuple[int, list[str]]] = []
    current: list[str] | None = None
    for lineno, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r")
        stripped = line.strip(" \t")
        if stripped == "" or stripped.startswith(";"):
            current = None
            continue
        if line[0] in " \t":
            continue
        if current is None:
            current = [line]
            records.append((lineno, current))
        else:
            current.append(line)
    return records


def opt_args(name: str, props: str) -> str | None:
    """The argument of property ``name(...)`` in ``props``, as ``opt_args`` returns it.

    Mirrors the awk: the greedy ``.* name(`` makes the last occurrence win, a ``{``
    right after the parenthesis allows ``)`` inside braces. ``None`` when absent.
    """
    padded = " " + props
    marker = " " + name + "("
    at = padded.rfind(marker)
    if at < 0:
        return None
    rest = padded[at + len(marker):]
    if rest.startswith("{"):
        end = rest.find("})")
        return rest[1:end] if end >= 0 else None
    end = rest.find(")")
    return rest[:end] if end >= 0 else None


def has_flag(name: str, props: str) -> bool:
    """True if a bare property word (``Warning``, ``Joined`` …) is present."""
    return name in props.split()


def nth_arg(n: int, args: str) -> str:
    """The n-th comma-separated argument, stripped (``nth_arg`` of opt-functions.awk)."""
    parts = args.split(",")
    return parts[n].strip() if n < len(parts) else ""


def _check_parentheses(props: str, path: str, line: int) -> None:
    depth = 0
    for ch in props:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise ParseError(path, line, f"unbalanced ')' in properties: {props!r}")
    if depth:
        raise ParseError(path, line, f"unclosed '(' in properties: {props!r}")


def parse_file(text: str, path: str) -> OptFile:
    """Parse one .opt file's text; ``path`` is how errors and origins name it."""
    out = OptFile(path=path)
    for lineno, lines in read_records(text, path):
        head = lines[0].split()
        kind = head[0] if head else ""
        if kind in SPECIAL_RECORDS:
            if kind == "Language":
                if len(lines) < 2:
                    raise ParseError(path, lineno, "Language record without a language name")
                out.languages.append(lines[1].strip())
            elif kind == "EnumValue":
                if len(lines) < 2:
                    raise ParseError(path, lineno, "EnumValue record without properties")
                props = lines[1]
                _check_parentheses(props, path, lineno + 1)
                enum = opt_args("Enum", props)
                string = opt_args("String", props)
                value = opt_args("Value", props)
                if enum is None or string is None or value is None:
                    raise ParseError(path, lineno + 1, "EnumValue needs Enum(), String() and Value()")
                out.enum_values.setdefault(enum, []).append((value.strip(), string.strip()))
            continue
        name = lines[0].strip()
        if " " in name or "\t" in name:
            continue  # a stray C declaration line (config/gcn/gcn.opt): the awk ignores it too
        if re.fullmatch(r"\w+\(.*\)", name):
            continue  # Mask(X) / TargetMask records of target files: not options
        props = lines[1].strip() if len(lines) > 1 else ""
        _check_parentheses(props, path, lineno + 1)
        help_text = c_unescape(" ".join(l.strip() for l in lines[2:]))
        out.options.append(Record(name=name, props=props, help=help_text, path=path, line=lineno))
    return out


#: The C escapes GCC's help texts use; any other backslash is kept as written.
_C_ESCAPES = {"\\": "\\", '"': '"', "'": "'", "?": "?", "n": "\n", "t": "\t"}


def c_unescape(text: str) -> str:
    """The text a C string literal holding ``text`` stands for (``\\"`` -> ``"``)."""
    if "\\" not in text:
        return text
    return re.sub(r"\\(.)", lambda m: _C_ESCAPES.get(m.group(1), m.group(0)), text)


def read_file(path: Path, display: str) -> OptFile:
    """Read and parse a file from disk; undecodable bytes are a parse error with a line.
    Only a regular file of bounded size and line length is read (warnscope.extract)."""
    return parse_bytes(read_regular(path, display), display)


def parse_bytes(data: bytes, display: str) -> OptFile:
    """Parse an option file's bytes; undecodable bytes or a NUL are a parse error with a line."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ParseError(display, line, "not valid UTF-8 text") from None
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise ParseError(display, line, "NUL byte in option file (binary or corrupt file?)")
    return parse_file(text, display)


@dataclass
class Option:
    """An option after merging its records from every file (optc-gen.awk)."""

    name: str
    props: str
    help: str
    records: list[Record]

    @property
    def files(self) -> list[str]:
        seen: list[str] = []
        for r in self.records:
            if r.path not in seen:
                seen.append(r.path)
        return seen


def merge(files: list[OptFile]) -> dict[str, Option]:
    """Merge same-named records across files: properties joined, the non-empty help kept."""
    merged: dict[str, Option] = {}
    for f in files:
        for rec in f.options:
            opt = merged.get(rec.name)
            if opt is None:
                merged[rec.name] = Option(rec.name, rec.props, rec.help, [rec])
                continue
            opt.props = f"{opt.props} {rec.props}"
            # Target files are alternatives (one per target), so only a clash between
            # files that are built together is the error optc-gen.awk makes of it.
            clash = rec.help and opt.help and rec.help != opt.help
            if clash and not rec.path.startswith("config/"):
                raise ParseError(
                    rec.path, rec.line,
                    f"option {rec.name!r} has a different help text than in "
                    f"{opt.records[0].path}:{opt.records[0].line}",
                )
            opt.help = opt.help or rec.help
            opt.records.append(rec)
    return merged
