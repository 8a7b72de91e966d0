"""Parser of the diagnostic tables clang's build generates (``clang/Basic/*.inc``).

clang's TableGen turns ``Diagnostic*.td`` into C++ fragments that Debian ships in
``libclang-N-dev``. They carry everything clang knows about its warning flags, so
reading them needs no compiler and no LLVM build:

* ``Diagnostic<Component>Kinds.inc``: one ``DIAG(...)`` row per diagnostic, with its
  class, default severity, message text and the index of its group (9 fields in
  clang 9 and 10, 10 from 11 when DEFERRABLE was added, 11 from 14 with SHOWINSYSMACRO,
  13 in clang 23, which writes two more numbers after the category).
* ``DiagnosticGroups.inc``: ``DiagArrays`` (the members of each group, ``-1``
  terminated), ``DiagSubGroups`` (indices into the group table, ``-1`` terminated),
  the group names, and the group table itself, which has had four layouts:

  ====================  ===================================================================
  ``table``  (9–13)     ``{ /* name */ nameoff, /* DiagArrayN */ off, /* DiagSubGroupN */ off }``
  ``entry``  (14)       ``DIAG_ENTRY(Enum /* name */, nameoff, members, subgroups)``
  ``docs``   (15–21)    the same with a fifth argument, the docs as a raw string ``R"(...)"``
  ``strtab`` (22)       as ``docs``, but names are ``\\0``-separated in ``DiagGroupNamesStorage``
  ====================  ===================================================================

  Before 22 the names are length-prefixed (one byte of length, then the name). In both
  forms ``nameoff`` is the same byte offset, so one lookup works for both.

Group index 0 is the group named ``""`` (the bare ``-W``, which enables ``-Wextra``),
and a ``DIAG`` row also writes 0 for "no group". clang does not need to tell them
apart: it maps a diagnostic to ``OptionTable[groupIdx].getName()`` and treats the
empty name as "no flag", which works because group ``""`` has no diagnostics of its
own, only a subgroup. We do the same and check that assumption on every file.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from flagdb import names
from warnscope.errors import ParseError
from warnscope.extract import Tree, read_regular, shown

#: Diagnostic classes as TableGen writes them (``CLASS_WARNING`` …).
CLASSES = ("WARNING", "EXTENSION", "ERROR", "NOTE", "REMARK", "TRAP")
#: Default severities (``diag::Severity::…``); ``Ignored`` means off by default.
SEVERITIES = ("Ignored", "Remark", "Warning", "Error", "Fatal")


@dataclass
class Diag:
    """One ``DIAG`` row."""

    name: str
    diag_class: str
    severity: str
    text: str
    #: Index into the group table; None when the row has no group (written as 0).
    group: int | None
    path: str = ""
    line: int = 0

    @property
    def is_remark(self) -> bool:
        return self.diag_class == "REMARK"

    @property
    def on_by_default(self) -> bool:
        return self.severity != "Ignored"


@dataclass
class Group:
    """One row of the group table, with its members resolved to names."""

    index: int
    name: str
    members: list[str]
    subgroups: list[int]
    docs: str = ""
    line: int = 0


@dataclass
class Tables:
    """Everything parsed from one directory of .inc files."""

    layout: str
    version: str
    groups: list[Group]
    diags: dict[str, Diag] = field(default_factory=dict)


# ----------------------------------------------------------------------------- C literals

_ESCAPES = {"n": 10, "t": 9, "r": 13, "v": 11, "f": 12, "a": 7, "b": 8,
            "\\": 92, '"': 34, "'": 39, "?": 63}
_ESCAPE_RE = re.compile(r"\\(x[0-9A-Fa-f]+|[0-7]{1,3}|.)", re.S)
_STRING_RE = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def decode_c_string(body: str) -> bytes:
    """The bytes of a C string literal's body (between the quotes)."""

    def one(match: re.Match) -> str:
        esc = match.group(1)
        if esc[0] == "x":
            return chr(int(esc[1:], 16) & 0xFF)
        if esc[0] in "01234567":
            return chr(int(esc, 8) & 0xFF)
        if esc in _ESCAPES:
            return chr(_ESCAPES[esc])
        raise ValueError(f"unknown escape \\{esc}")

    return _ESCAPE_RE.sub(one, body).encode("latin-1")


# ----------------------------------------------------------------------------- Kinds files

_DIAG_RE = re.compile(
    r'^DIAG\((\w+), CLASS_(\w+), \(unsigned\)diag::Severity::(\w+), '
    r'"((?:[^"\\]|\\.)*)", (\d+), (.*)\)\s*$'
)
_KINDS_OTHER_RE = re.compile(r"^(#(ifdef|ifndef|undef|endif|define)\b.*|__\w+ = \w+,|\s*)$")


#: fields of a DIAG row -> the (0-based) position of its category number; the
#: numbers after it (clang 23) are not read
_CATEGORY_FIELD = {9: 8, 10: 9, 11: 10, 13: 10}


def parse_kinds(path: str | Path, text: str | None = None) -> list[Diag]:
    """Every ``DIAG`` row of one ``Diagnostic*Kinds.inc`` (``text``: its content, already
    read; else the file is read)."""
    path = str(path)
    out: list[Diag] = []
    fields_seen: int | None = None
    text = _read(path) if text is None else text
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.startswith("DIAG("):
            if not _KINDS_OTHER_RE.match(line):
                raise ParseError(path, lineno, f"unexpected line in a diagnostic table: {line[:60]!r}")
            continue
        m = _DIAG_RE.match(line)
        if not m:
            raise ParseError(path, lineno, "malformed DIAG row (truncated or unknown layout)")
        name, cls, severity, body, group, rest = m.groups()
        tail = [t.strip() for t in rest.split(",")]
        nfields = 5 + len(tail)
        if nfields not in _CATEGORY_FIELD:
            raise ParseError(path, lineno, f"DIAG row has {nfields} fields; known layouts have "
                             "9, 10, 11 or 13")
        if fields_seen is not None and nfields != fields_seen:
            raise ParseError(path, lineno, f"DIAG row has {nfields} fields, earlier rows {fields_seen}")
        fields_seen = nfields
        if cls not in CLASSES:
            raise ParseError(path, lineno, f"unknown diagnostic class CLASS_{cls}")
        if severity not in SEVERITIES:
            raise ParseError(path, lineno, f"unknown severity {severity}")
        if not all(t.isdigit() for t in tail[_CATEGORY_FIELD[nfields] - 5:]):
            raise ParseError(path, lineno, "DIAG row does not end with a category number")
        try:
            message = decode_c_string(body).decode("utf-8")
        except (ValueError, UnicodeDecodeError) as exc:
            raise ParseError(path, lineno, f"bad message string: {exc}") from None
        idx = int(group)
        out.append(Diag(name, cls, severity, message, idx or None, path, lineno))
    return out


# ----------------------------------------------------------------------------- Groups file

_TABLE13_RE = re.compile(
    r"^\s*\{\s*/\*\s?(.*?)\s*\*/\s*(\d+),\s*/\*\s*(\w+)\s*\*/\s*(\d+),"
    r"\s*/\*\s*(\w+)\s*\*/\s*(\d+)\s*\},?\s*$"
)
_ENTRY_HEAD_RE = re.compile(
    r"^DIAG_ENTRY\((\w+) /\*\s?(.*?)\s*\*/, (\d+), (?:/\* \w+ \*/ )?(\d+), "
    r"(?:/\* \w+ \*/ )?(\d+)(\)|, R\"\()"
)


@dataclass
class RawRow:
    """One group-table row as written: offsets not yet resolved."""

    comment: str        # the name as the generator wrote it in a comment
    name_offset: int
    members_offset: int
    subgroups_offset: int
    docs: str
    line: int


@dataclass
class RawGroups:
    """The pieces of ``DiagnosticGroups.inc`` before resolving offsets."""

    layout: str
    rows: list[RawRow]
    #: ``DiagArrays`` flattened: diagnostic names, ``""`` for each ``-1`` terminator.
    diag_arrays: list[str]
    #: ``DiagSubGroups`` flattened: group indices as text, ``""`` for each ``-1``.
    sub_groups: list[str]
    #: The bytes of the name table (length-prefixed, or ``\0``-separated in 22).
    names: bytes


def parse_groups(path: str | Path, text: str | None = None) -> RawGroups:
    """The raw pieces of ``DiagnosticGroups.inc``, in whichever layout it is."""
    path = str(path)
    lines = (_read(path) if text is None else text).splitlines()
    n = len(lines)
    i = 0
    diag_arrays: list[str] | None = None
    sub_groups: list[str] | None = None
    names: bytes | None = None
    names_kind = ""
    rows: list[RawRow] = []
    layout = ""

    def block_until(start: int, end_pred) -> tuple[list[str], int]:
        """Lines after ``start`` up to (not including) the first matching ``end_pred``."""
        j = start + 1
        while j < n and not end_pred(lines[j]):
            j += 1
        if j >= n:
            raise ParseError(path, n, f"unexpected end of file in the table that starts at line {start + 1}")
        return lines[start + 1:j], j

    while i < n:
        line = lines[i]
        if line.startswith("static const int16_t DiagArrays[]"):
            body, i = block_until(i, lambda l: l.strip() == "};")
            diag_arrays = _int16_tokens(path, i - len(body), body, symbolic=True)
        elif line.startswith("static const int16_t DiagSubGroups[]"):
            body, i = block_until(i, lambda l: l.strip() == "};")
            sub_groups = _int16_tokens(path, i - len(body), body, symbolic=False)
        elif line.startswith("static const char DiagGroupNames[]"):
            start = i
            if line.rstrip().endswith("};"):          # all on one line
                names = _string_block(path, start, [line.split("=", 1)[1]])
            else:
                body, i = block_until(i, lambda l: l.rstrip().endswith("};"))
                names = _string_block(path, start + 1, body + [lines[i]])
            names_kind = "prefixed"
        elif line.startswith("static constexpr char DiagGroupNamesStorage[]"):
            body, i = block_until(i, lambda l: l.strip() == ";")
            names = _string_block(path, i - len(body), body)
            names_kind = "strtab"
        elif line.startswith("#ifdef GET_DIAG_TABLE"):
            layout = "table"
            body, end = block_until(i, lambda l: l.startswith("#endif"))
            for k, row in enumerate(body, i + 2):
                if not row.strip():
                    continue
                m = _TABLE13_RE.match(row)
                if not m:
                    raise ParseError(path, k, "malformed group table row (truncated or unknown layout)")
                rows.append(RawRow(m.group(1), int(m.group(2)), int(m.group(4)), int(m.group(6)), "", k))
            i = end
        elif line.startswith("#ifdef DIAG_ENTRY"):
            i, layout = _parse_entries(path, lines, i, rows)
        i += 1

    if diag_arrays is None or sub_groups is None or names is None:
        missing = [w for w, v in (("DiagArrays", diag_arrays), ("DiagSubGroups", sub_groups),
                                  ("group names", names)) if v is None]
        raise ParseError(path, n, f"no {', '.join(missing)} found (truncated or not a DiagnosticGroups.inc)")
    if not layout:
        raise ParseError(path, n, "no group table (neither GET_DIAG_TABLE nor DIAG_ENTRY): unknown layout")
    if not rows:
        raise ParseError(path, n, "the group table is empty")
    if names_kind == "strtab":
        if layout != "docs":
            raise ParseError(path, n, "a \\0-separated name table with a group table without docs: unknown layout")
        layout = "strtab"
    return RawGroups(layout, rows, diag_arrays, sub_groups, names)


def _parse_entries(path: str, lines: list[str], start: int, rows: list[RawRow]) -> tuple[int, str]:
    """Read ``DIAG_ENTRY`` rows (layouts entry/docs) up to ``#endif``; returns (end, layout)."""
    n = len(lines)
    i = start + 1
    layout = ""
    while i < n and not lines[i].startswith("#endif"):
        line = lines[i]
        lineno = i + 1
        if not line.strip():
            i += 1
            continue
        m = _ENTRY_HEAD_RE.match(line)
        if not m:
            raise ParseError(path, lineno, "malformed DIAG_ENTRY row (truncated or unknown layout)")
        kind = "entry" if m.group(6) == ")" else "docs"
        if layout and kind != layout:
            raise ParseError(path, lineno, "DIAG_ENTRY rows with and without docs in one table")
        layout = kind
        docs = ""
        if kind == "entry":
            if line[m.end():].strip():
                raise ParseError(path, lineno, "unexpected text after DIAG_ENTRY row")
        else:
            # A raw string ends at the first )" whatever it contains; it may span lines.
            text = line[m.end():]
            parts = []
            while ')"' not in text:
                parts.append(text)
                i += 1
                if i >= n:
                    raise ParseError(path, n, f"unexpected end of file in the docs of the group at line {lineno}")
                text = lines[i]
            cut = text.index(')"')
            parts.append(text[:cut])
            docs = "\n".join(parts)
            if text[cut + 2:].strip() != ")":
                raise ParseError(path, i + 1, "unexpected text after the docs of a DIAG_ENTRY row")
        rows.append(RawRow(m.group(2), int(m.group(3)), int(m.group(4)), int(m.group(5)), docs, lineno))
        i += 1
    if i >= n:
        raise ParseError(path, n, f"unexpected end of file in the DIAG_ENTRY table that starts at line {start + 1}")
    return i, layout


_TOKEN_SPLIT = re.compile(r"\s*,\s*")
_COMMENT_RE = re.compile(r"/\*.*?\*/")


def _int16_tokens(path: str, first_line: int, body: list[str], symbolic: bool) -> list[str]:
    """The elements of a ``DiagArrays``/``DiagSubGroups`` initialiser, ``-1`` as ``""``."""
    out: list[str] = []
    for k, raw in enumerate(body, first_line + 1):
        line = _COMMENT_RE.sub("", raw).strip()
        if not line:
            continue
        if not line.endswith(","):
            raise ParseError(path, k, "array row does not end with ',' (truncated?)")
        for tok in _TOKEN_SPLIT.split(line.rstrip(",").strip()):
            if tok == "-1":
                out.append("")
            elif symbolic and tok.startswith("diag::") and tok[6:].isidentifier():
                out.append(tok[6:])
            elif not symbolic and tok.isdigit():
                out.append(tok)
            else:
                raise ParseError(path, k, f"unexpected array element {tok!r}")
    return out


def _string_block(path: str, first_line: int, body: list[str]) -> bytes:
    """The bytes of consecutive C string literals (``{ "..." "..." };`` or ``"..." ;``)."""
    out = bytearray()
    for k, raw in enumerate(body, first_line + 1):
        pos = 0
        for m in _STRING_RE.finditer(raw):
            between = raw[pos:m.start()].strip()
            if between not in ("", "{"):
                raise ParseError(path, k, f"unexpected text {between!r} in the group names")
            try:
                out += decode_c_string(m.group(1))
            except ValueError as exc:
                raise ParseError(path, k, str(exc)) from None
            pos = m.end()
        rest = raw[pos:].strip()
        if rest not in ("", "};", ";"):
            raise ParseError(path, k, f"unexpected text {rest!r} in the group names (truncated?)")
    return bytes(out)


def _name_at(names: bytes, offset: int, strtab: bool) -> str | None:
    """The group name at ``offset``: ``\\0``-terminated (22) or length-prefixed (older)."""
    if offset >= len(names):
        return None
    if strtab:
        end = names.find(b"\0", offset)
        if end < 0:
            return None
        raw = names[offset:end]
    else:
        length = names[offset]
        raw = names[offset + 1:offset + 1 + length]
        if len(raw) != length:
            return None
    return raw.decode("utf-8", "replace")


def _read(path: str, tree: Tree | None = None) -> str:
    """A table's text: only a regular file of bounded size and line length, and with
    ``tree``, one that lies inside that directory (warnscope.extract)."""
    if tree is None:
        data = read_regular(path, shown(path))
    else:
        data = tree.read(os.path.relpath(path, tree.given))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ParseError(shown(path), line, f"not a text file ({exc.reason})") from None


# ----------------------------------------------------------------------------- together

_VERSION_RE = re.compile(r'^#define CLANG_VERSION_STRING "([^"]+)"', re.M)
_VERSION_NUM_RE = re.compile(r"^#define CLANG_VERSION (\d+\.\d+\.\d+\S*)", re.M)


def parse_version(path: str | Path, text: str | None = None) -> str:
    """The exact clang version from ``Version.inc``."""
    text = _read(str(path)) if text is None else text
    m = _VERSION_RE.search(text) or _VERSION_NUM_RE.search(text)
    if not m:
        raise ParseError(str(path), None, "no CLANG_VERSION_STRING (not a clang Version.inc?)")
    return m.group(1)


def kinds_files(directory: str | Path) -> list[Path]:
    """The ``Diagnostic*Kinds.inc`` files of a directory, in name order."""
    return sorted(Path(directory).glob("Diagnostic*Kinds.inc"))


def parse_dir(directory: str | Path) -> Tables:
    """Parse ``DiagnosticGroups.inc``, every ``Diagnostic*Kinds.inc`` and ``Version.inc``
    of ``directory``: regular files inside it only (a link leading out is refused)."""
    directory = Path(directory)
    tree = Tree(directory, "directory of clang tables")
    groups_path = directory / "DiagnosticGroups.inc"
    if not os.path.lexists(groups_path):
        raise ParseError(str(groups_path), None, "no such file (expected clang's generated DiagnosticGroups.inc)")
    kinds = kinds_files(directory)
    if not kinds:
        raise ParseError(str(directory), None, "no Diagnostic*Kinds.inc files")
    version = parse_version(directory / "Version.inc", _read(str(directory / "Version.inc"), tree))
    diags: dict[str, Diag] = {}
    for path in kinds:
        for d in parse_kinds(path, _read(str(path), tree)):
            diags[d.name] = d
    return build_tables(str(groups_path), version, diags, _read(str(groups_path), tree))


def build_tables(groups_path: str, version: str, diags: dict[str, Diag],
                 groups_text: str | None = None) -> Tables:
    """Resolve the group table against the diagnostics, checking every reference."""
    raw = parse_groups(groups_path, groups_text)
    strtab = raw.layout == "strtab"
    groups: list[Group] = []
    for index, row in enumerate(raw.rows):
        line = row.line
        name = _name_at(raw.names, row.name_offset, strtab)
        if name is None:
            raise ParseError(groups_path, line,
                             f"name offset {row.name_offset} is outside the name table (truncated?)")
        if name != row.comment:
            raise ParseError(groups_path, line, f"name table says {name!r} but the row is commented "
                             f"{row.comment!r} (unknown layout?)")
        why = names.problem("-W" + name)
        if why is not None:  # it would become -W<name> on a compiler's command line
            raise ParseError(groups_path, line, f"group {names.shown(name)} would be the option "
                             f"{names.shown('-W' + name)}, {why}")
        members = _run(groups_path, line, raw.diag_arrays, row.members_offset, "DiagArrays")
        for member in members:
            if member not in diags:
                raise ParseError(groups_path, line, f"group {name!r} lists diag::{member}, "
                                 "which no Diagnostic*Kinds.inc defines")
        sub = [int(s) for s in _run(groups_path, line, raw.sub_groups, row.subgroups_offset, "DiagSubGroups")]
        groups.append(Group(index, name, members, sub, row.docs, line))
    for g in groups:
        for s in g.subgroups:
            if not 0 <= s < len(groups):
                raise ParseError(groups_path, g.line, f"group {g.name!r} has subgroup index {s} "
                                 f"outside the table of {len(groups)}")
    for d in diags.values():
        if d.group is not None and d.group >= len(groups):
            raise ParseError(d.path, d.line, f"{d.name}: group index {d.group} outside the table "
                             f"of {len(groups)} groups in {groups_path}")
    if groups[0].name == "" and groups[0].members:
        raise ParseError(groups_path, groups[0].line,
                         "group 0 (\"\") has diagnostics, so group index 0 would be ambiguous")
    return Tables(raw.layout, version, groups, diags)


def _run(path: str, line: int, flat: list[str], offset: int, what: str) -> list[str]:
    """The ``-1``-terminated run of ``flat`` starting at ``offset``."""
    out = []
    k = offset
    while True:
        if k >= len(flat):
            raise ParseError(path, line, f"{what} offset {offset} runs past the end of the array (truncated?)")
        if flat[k] == "":
            return out
        out.append(flat[k])
        k += 1
