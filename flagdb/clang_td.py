"""clang's diagnostic tables computed from its TableGen sources, as the ``.inc`` route
reads them (:class:`flagdb.clang_inc.Tables`), so both routes share
:func:`flagdb.clang_ingest.build`.

What clang's ``ClangDiagnosticsEmitter`` does, done here on the records
:mod:`flagdb.tablegen` reads from ``Diagnostic.td``:

* every record deriving from ``Diagnostic`` is a diagnostic: its ``Class``
  (``CLASS_WARNING`` …), its ``DefaultSeverity``'s ``Name`` (before 3.5 its
  ``DefaultMapping``, ``MAP_IGNORE`` …), its text (``Summary``, or
  ``Text`` before clang 12), its ``Group``;
* groups are keyed by ``GroupName`` (a named ``def`` and ``InGroup<DiagGroup<"x">>``
  are one group) and numbered in name order, group ``""`` first;
* "inferred pedantic": an extension (``CLASS_EXTENSION``) off by default whose group
  is not below ``-Wpedantic`` goes into ``-Wpedantic``'s members, and a group all of
  whose diagnostics and subgroups are such goes into its subgroups (unless all its
  parents are); a diagnostic without a group that goes there names ``-Wpedantic``;
* a text's ``%sub{name}`` is replaced by that ``TextSubstitution``'s text with its
  argument numbers mapped, and ``%enum_select<E>{%A{a}|…}`` is written as a
  ``%select``, as the generated table writes them.
"""
from __future__ import annotations

from flagdb.clang_inc import CLASSES, SEVERITIES, Diag, Group, Tables
from flagdb import diagtext
from flagdb.tablegen import Record, Records
from warnscope.errors import ParseError


def tables(records: Records, version: str, root: str) -> Tables:
    """The :class:`Tables` of the records read from ``root`` (a ``Diagnostic.td``)."""
    diag_records = records.derived("Diagnostic")
    group_records = records.derived("DiagGroup")
    if not diag_records or not group_records:
        raise ParseError(root, None, "no diagnostics or no diagnostic groups defined: "
                                     "not clang's Diagnostic.td?")
    substitutions = {r.name: _string(r, "Substitution") for r in records.derived("TextSubstitution")}

    # groups by name, as groupDiagnostics() builds them
    info: dict[str, dict] = {}

    def group(name: str) -> dict:
        entry = info.get(name)
        if entry is None:
            entry = info[name] = {"defs": [], "diags": [], "subs": []}
        return entry

    diags: dict[str, Diag] = {}
    group_of: dict[str, str | None] = {}
    # a diagnostic's class, severity and group are one of a few defs: each read once
    class_of: dict[Record, str] = {}
    severity_of: dict[Record, str] = {}
    name_of: dict[Record, str] = {}
    for r in diag_records:
        fields = r.fields
        value = fields.get("Class")
        cls = class_of.get(value) if type(value) is Record else None
        if cls is None:
            cls = _diag_class(r)
            class_of[value] = cls
        value = fields.get("DefaultSeverity")
        severity = severity_of.get(value) if type(value) is Record else None
        if severity is None:
            severity = _severity(r)
            if severity not in SEVERITIES:
                raise ParseError(r.file, r.line, f"{r.name}: unknown severity {severity}")
            if type(value) is Record:
                severity_of[value] = severity
        raw = fields.get("Summary", fields.get("Text"))
        if type(raw) is not str:
            raw = _string(r, "Summary" if "Summary" in fields else "Text")   # says why
        try:
            text = diagtext.for_definition(raw, substitutions)
        except diagtext.TextError as exc:
            raise ParseError(r.file, r.line, f"{r.name}: {exc}") from None
        g = fields.get("Group")
        gname = None
        name = r.name
        if type(g) is Record:
            gname = name_of.get(g)
            if gname is None:
                gname = name_of[g] = _string(g, "GroupName")
            group(gname)["diags"].append(name)
        group_of[name] = gname
        diags[name] = Diag(name, cls, severity, text, None, r.file, r.line)
    parents: dict[int, list[Record]] = {}
    for g in group_records:
        name = _string(g, "GroupName")
        entry = group(name)
        entry["defs"].append(g)
        subs = g.fields.get("SubGroups") or []
        for s in subs:
            if not isinstance(s, Record) or not s.isa("DiagGroup"):
                raise ParseError(g.file, g.line, f"group {name!r} lists {s!r}, not a DiagGroup")
            entry["subs"].append(_string(s, "GroupName"))
            parents.setdefault(id(s), []).append(g)
    names = sorted(info)
    index = {name: i for i, name in enumerate(names)}
    for name in names:
        for sub in info[name]["subs"]:
            if sub not in info:   # pragma: no cover - a sub is a DiagGroup record, so listed
                raise ParseError(root, None, f"group {name!r} has an unknown subgroup {sub!r}")

    in_pedantic, groups_in_pedantic = _infer_pedantic(diag_records, group_records, info, parents,
                                                     diags, group_of)
    if "pedantic" not in info and (in_pedantic or groups_in_pedantic):
        raise ParseError(root, None, "extensions off by default but no group 'pedantic'")
    pedantic_diags = set(in_pedantic)
    for d in diags.values():
        gname = group_of[d.name]
        if gname is not None:
            d.group = index[gname] or None   # 0 is the "no group" of a DIAG row too
        elif d.name in pedantic_diags:
            d.group = index["pedantic"]
    groups = []
    for name in names:
        entry = info[name]
        members = list(entry["diags"])
        subs = [index[s] for s in entry["subs"]]
        if name == "pedantic":
            members += [d for d in in_pedantic]
            subs += [index[_string(g, "GroupName")] for g in groups_in_pedantic]
        docs = entry["defs"][-1].fields.get("Documentation") if entry["defs"] else ""
        groups.append(Group(index[name], name, members, subs,
                            docs.strip() if isinstance(docs, str) else ""))
    if groups[0].name == "" and groups[0].members:
        raise ParseError(root, None, "group \"\" has diagnostics, so group index 0 would be ambiguous")
    return Tables("td", version, groups, diags)


def _infer_pedantic(diag_records: list[Record], group_records: list[Record], info: dict,
                    parents: dict, diags: dict[str, Diag], group_of: dict):
    """clang's InferPedantic: the diagnostics and groups ``-Wpedantic`` gets implicitly."""
    def group_name(g: Record) -> str:
        return _string(g, "GroupName")

    def below_pedantic(g: Record, seen=None) -> bool:
        seen = seen or set()
        if group_name(g) == "pedantic":
            return True
        if id(g) in seen:
            return False
        seen.add(id(g))
        return any(below_pedantic(p, seen) for p in parents.get(id(g), []))

    below: dict[int, bool] = {}   # the answer of below_pedantic(g) per group, asked once

    def below_pedantic_once(g: Record) -> bool:
        known = below.get(id(g))
        if known is None:
            known = below[id(g)] = below_pedantic(g)
        return known

    count: dict[int, int] = {}

    def threshold(g: Record) -> int:
        entry = info[group_name(g)]
        return len(entry["subs"]) + len(entry["diags"])

    def in_pedantic(g: Record, increment: bool = False) -> bool:
        if increment:
            count[id(g)] = count.get(id(g), 0) + 1
        n = count.get(id(g), 0)
        return n != 0 and n == threshold(g)

    def mark(g: Record) -> None:
        if in_pedantic(g, True):
            for p in parents.get(id(g), []):
                mark(p)

    chosen = []
    for r in diag_records:
        d = diags[r.name]
        if d.diag_class == "EXTENSION" and d.severity == "Ignored":
            chosen.append(r)
            g = r.fields.get("Group")
            if isinstance(g, Record) and not below_pedantic_once(g):
                mark(g)
    out_diags = []
    for r in chosen:
        g = r.fields.get("Group")
        if isinstance(g, Record) and in_pedantic(g):
            continue
        out_diags.append(r.name)
    out_groups = []
    for g in group_records:
        if not in_pedantic(g):
            continue
        ps = parents.get(id(g), [])
        if ps and all(in_pedantic(p) for p in ps):
            continue
        out_groups.append(g)
    return out_diags, out_groups


#: clang before 3.5 wrote a default as a mapping (``MAP_IGNORE``), not a severity
_MAPPINGS = {"MAP_IGNORE": "Ignored", "MAP_REMARK": "Remark", "MAP_WARNING": "Warning",
             "MAP_ERROR": "Error", "MAP_FATAL": "Fatal"}


def _diag_class(r: Record) -> str:
    """``WARNING`` … of a diagnostic's ``Class`` (``CLASS_WARNING`` …)."""
    cls = _def(r, "Class").name
    if not cls.startswith("CLASS_") or cls[6:] not in CLASSES:
        raise ParseError(r.file, r.line, f"{r.name}: unknown diagnostic class {cls}")
    return cls[6:]


def _severity(r: Record) -> str:
    if "DefaultSeverity" in r.fields:
        return _string(_def(r, "DefaultSeverity"), "Name")
    mapping = _def(r, "DefaultMapping").name
    if mapping not in _MAPPINGS:
        raise ParseError(r.file, r.line, f"{r.name}: unknown default mapping {mapping}")
    return _MAPPINGS[mapping]


def _def(r: Record, name: str) -> Record:
    value = r.fields.get(name)
    if not isinstance(value, Record):
        raise ParseError(r.file, r.line, f"{r.name}: field {name} is not a def")
    return value


def _string(r: Record, name: str) -> str:
    value = r.fields.get(name)
    if not isinstance(value, str):
        raise ParseError(r.file, r.line, f"{r.name}: field {name} is not a string")
    return value
