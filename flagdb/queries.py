"""Questions asked of the flag database, over plain :class:`CompilerData`.

Every function here takes loaded data (or a connection for questions spanning
versions) and returns plain Python values that the CLI prints as text or JSON, so
the tests call exactly what users run.
"""
from __future__ import annotations

import difflib
import heapq
from operator import itemgetter
import re
import sqlite3
from dataclasses import dataclass

from . import store
from .model import CompilerData, Edge, Flag

C_FAMILY = ("C", "ObjC", "C++", "ObjC++")
LANGS = {"c": "C", "c++": "C++", "objc": "ObjC", "objc++": "ObjC++"}


def lang_name(lang: str | None) -> str | None:
    """``c`` / ``c++`` as typed on the command line -> the compiler's language tag."""
    if lang is None:
        return None
    try:
        return LANGS[lang.lower()]
    except KeyError:
        from .errors import WarnscopeError

        raise WarnscopeError(f"unknown language {lang!r} (use c or c++)") from None


# ------------------------------------------------------------------ lookups

class Index:
    """Fast lookups over one compiler's data: flags by name, edges by parent/child."""

    def __init__(self, data: CompilerData, all_names: set[str] | None = None):
        self.data = data
        self.flags: dict[str, Flag] = {f.name: f for f in data.flags}
        #: every flag name of the compiler, for suggestions (``data`` may hold a subset)
        self.all_names = all_names if all_names is not None else set(self.flags)
        self.by_parent: dict[str, list[Edge]] = {}
        self.by_child: dict[str, list[Edge]] = {}
        for e in data.edges:
            self.by_parent.setdefault(e.parent, []).append(e)
            self.by_child.setdefault(e.child, []).append(e)

    def resolve(self, typed: str) -> tuple[Flag, str | None] | None:
        """``-Wformat=2`` -> (flag ``-Wformat=``, ``"2"``); ``-Wno-shadow`` -> (``-Wshadow``, ``"0"``)."""
        if typed in self.flags:
            return self.flags[typed], None
        if typed.startswith("-Wno-"):
            positive = "-W" + typed[5:]
            if positive in self.flags and not self.flags[positive].takes_argument:
                return self.flags[positive], "0"
        if "=" in typed:
            base, _, value = typed.partition("=")
            if base + "=" in self.flags:
                return self.flags[base + "="], value
        return None

    def applies(self, flag: Flag, lang: str | None) -> bool:
        """Does the flag exist for this language (None: for the C family)?"""
        if self.data.family == "gcc" and not flag.c_family:
            return False  # only in other front ends' or targets' files
        if self.data.family != "gcc" or not flag.languages or "Common" in flag.languages:
            return True
        if lang is None:
            return any(l in C_FAMILY for l in flag.languages)
        return lang in flag.languages

    def edge_applies(self, edge: Edge, lang: str | None) -> bool:
        if edge.languages:
            if lang is None:
                if not any(l in C_FAMILY for l in edge.languages):
                    return False
            elif lang not in edge.languages:
                return False
        child = self.flags.get(edge.child)
        return child is None or self.applies(child, lang)

    def children(self, name: str, level: str | None, lang: str | None) -> list[Edge]:
        """Edges that fire when ``name`` is given (at ``level`` for a level option)."""
        out = []
        for e in self.by_parent.get(name, []):
            if not self.edge_applies(e, lang):
                continue
            if e.parent_min is not None:
                try:
                    if level is None or int(level) < e.parent_min:
                        continue
                except ValueError:
                    continue
            out.append(e)
        return out

    def is_noop(self, flag: Flag) -> bool:
        return flag.ignored

    def gram_index(self) -> dict[str, list[str]]:
        """Character pair -> names containing it, for typo suggestions (built once)."""
        if not hasattr(self, "_grams"):
            names = sorted({n.rstrip("=") for n in self.all_names})
            grams: dict[str, list[str]] = {}
            for name in names:
                for gram in _bigrams(name):
                    grams.setdefault(gram, []).append(name)
            common = len(names) // 4
            self._grams = {g: ns for g, ns in grams.items() if len(ns) <= common}
        return self._grams


def typed_child(e: Edge, index: Index | None = None) -> str:
    """The child as typed; an enum level shown by its name (``-Waligned-new=global``)."""
    if index is not None and e.child.endswith("="):
        child = index.flags.get(e.child)
        names = child.extra.get("enum_values", {}) if child else {}
        if e.value in names:
            return e.child + names[e.value]
    return e.child_as_typed()


def typed_parent(e: Edge) -> str:
    parent = f"{e.parent}{e.parent_min}" if e.parent_min is not None else e.parent
    return " && ".join([parent, *e.requires])


# ------------------------------------------------------------------ closure

def closure(index: Index, start: list[str], lang: str | None = None) -> dict[str, str]:
    """Every flag that ends up on (name as stored -> value) when ``start`` is given.

    Follows edges with levels; an ``A && B`` edge fires only once both are on.
    Explicitly given flags win over values implied by edges, as in GCC.
    """
    on: dict[str, str] = {}
    explicit: set[str] = set()
    queue: list[tuple[str, str | None]] = []
    for typed in start:
        hit = index.resolve(typed)
        if hit is None:
            continue
        flag, value = hit
        target = flag
        if flag.alias_of:
            alias = index.resolve(flag.alias_of)
            if alias:
                target, value = alias[0], alias[1] if value != "0" else "0"
        val = value if value is not None else "1"
        on[target.name] = val
        explicit.add(target.name)
        queue.append((target.name, val))
    pending: list[Edge] = []
    while queue or pending:
        while queue:
            name, level = queue.pop()
            if level == "0":
                continue
            for e in index.children(name, level, lang):
                pending.append(e)
        progressed = False
        still: list[Edge] = []
        for e in pending:
            if any(r not in on or on[r] == "0" for r in e.requires):
                still.append(e)
                continue
            if e.child in explicit or e.child in on:
                continue
            on[e.child] = e.value
            queue.append((e.child, e.value))
            progressed = True
        pending = still
        if not progressed and not queue:
            break
    return on


def enabled_by_group(index: Index, group: str, lang: str | None = None) -> dict[str, str]:
    """What ``-Wall`` (or ``-Wextra`` …) turns on, without the group itself."""
    got = closure(index, [group], lang)
    hit = index.resolve(group)
    got.pop(hit[0].name if hit else group, None)
    return got


# ------------------------------------------------------------------ list / show

def flag_info(index: Index, flag: Flag, lang: str | None = None) -> dict:
    """The JSON object of one flag, as ``flags list --json`` prints it."""
    enables = []
    seen = set()
    for e in index.by_parent.get(flag.name, []):
        if not index.edge_applies(e, lang):
            continue
        text = typed_child(e, index)
        if e.parent_min is not None:
            text += f" (from {flag.name}{e.parent_min})"
        if e.requires:
            text += " (with " + " && ".join(e.requires) + ")"
        if text not in seen:
            seen.add(text)
            enables.append(text)
    enabled_by = []
    for e in index.by_child.get(flag.name, []):
        if not index.edge_applies(e, lang):
            continue
        text = typed_parent(e)
        if e.value not in ("1",) or flag.takes_argument:
            text += f" (sets {typed_child(e)})"
        if text not in enabled_by:
            enabled_by.append(text)
    return {
        "name": flag.name,
        "kind": flag.kind,
        "alias_of": flag.alias_of,
        "enables": enables,
        "enabled_by": enabled_by,
        "default": flag.default,
        "languages": flag.languages,
        "takes_argument": flag.takes_argument,
        "argument": flag.argument,
        "ignored": flag.ignored,
        "removed": flag.removed,
        "c_family": flag.c_family,
        "description": flag.description,
    }


def list_flags(data: CompilerData, include_all: bool = False, lang: str | None = None) -> list[dict]:
    index = Index(data)
    return [
        flag_info(index, f, lang)
        for f in sorted(data.flags, key=lambda f: f.name)
        if include_all or index.applies(f, lang)
    ]


def show(data: CompilerData, typed: str, lang: str | None = None) -> dict:
    """One flag in detail; a level form (``-Wformat=2``) shows what that level turns on."""
    from .errors import WarnscopeError

    index = Index(data)
    hit = index.resolve(typed)
    if hit is None:
        hint = did_you_mean(typed, index)
        raise WarnscopeError(
            f"{data.compiler} has no warning flag {typed}" + (f" (did you mean {hint}?)" if hint else "")
        )
    flag, level = hit
    info = flag_info(index, flag, lang)
    info["compiler"] = data.compiler
    info["typed"] = typed
    info["level"] = level
    info["origin"] = flag.origin
    info["turns_on"] = [
        {"name": typed_on(index, n, v), "value": v}
        for n, v in sorted(enabled_by_group(index, typed, lang).items())
    ]
    info["messages"] = [
        {"diag": m.diag, "class": m.diag_class, "severity": m.severity, "text": m.text}
        for m in data.messages if m.flag == flag.name
    ]
    return info


def typed_on(index: Index, name: str, value: str) -> str:
    """A flag that is on, as a user would type it to get that state."""
    flag = index.flags.get(name)
    if name.endswith("="):
        names = flag.extra.get("enum_values", {}) if flag else {}
        return name + names.get(value, value)
    return name if value != "0" else "-Wno-" + name[2:]


# ------------------------------------------------------------------ tree

def tree(data: CompilerData, typed: str, lang: str | None = None) -> dict:
    """The nested view of what a flag turns on (each node: name, requires, children)."""
    from .errors import WarnscopeError

    index = Index(data)
    hit = index.resolve(typed)
    if hit is None:
        raise WarnscopeError(f"{data.compiler} has no warning flag {typed}")
    flag, level = hit

    def node(name: str, level: str | None, path: tuple[str, ...], edge: Edge | None) -> dict:
        label = name + level if (level is not None and name.endswith("=")) else name
        if edge is not None:
            label = typed_child(edge, index)
        out = {"name": label, "requires": edge.requires if edge else [], "children": []}
        f = index.flags.get(name)
        if f is not None:
            out["default"] = f.default
            out["ignored"] = f.ignored
        if name in path:
            out["cycle"] = True
            return out
        for e in sorted(index.children(name, level, lang), key=lambda e: e.child):
            out["children"].append(node(e.child, e.value, path + (name,), e))
        return out

    return node(flag.name, level, (), None)


def render_tree(node: dict, depth: int = 0) -> list[str]:
    extra = ""
    if node.get("requires"):
        extra += "  (with " + " && ".join(node["requires"]) + ")"
    if node.get("ignored"):
        extra += "  [no-op]"
    if node.get("cycle"):
        extra += "  [cycle]"
    lines = ["  " * depth + node["name"] + extra]
    for child in node["children"]:
        lines.extend(render_tree(child, depth + 1))
    return lines


# ------------------------------------------------------------------ diff

#: attribute -> how a change is described
DIFF_ATTRIBUTES = ("default", "in_wall", "in_wextra", "languages", "alias_of", "ignored",
                   "removed", "argument", "takes_argument", "description", "enables")


def _summary(index: Index, flag: Flag, wall: dict, wextra: dict) -> dict:
    return {
        "default": flag.default,
        "in_wall": flag.name in wall,
        "in_wextra": flag.name in wextra,
        "languages": sorted(flag.languages),
        "alias_of": flag.alias_of,
        "ignored": flag.ignored,
        "removed": flag.removed,
        "argument": flag.argument,
        "takes_argument": flag.takes_argument,
        "description": flag.description,
        "enables": sorted({typed_child(e) for e in index.by_parent.get(flag.name, [])
                           if index.edge_applies(e, None)}),
    }


def diff(old: CompilerData, new: CompilerData, include_all: bool = False) -> dict:
    """Added, removed and changed flags between two versions (or two compilers).

    Attribute-aware: a flag present in both is compared field by field, so a reworded
    help text is a ``description`` change, not a removal plus an addition. Across
    families (gcc vs clang) descriptions and languages are not compared: they are
    written by different projects and say nothing about behaviour.
    """
    a, b = Index(old), Index(new)
    a_names = {f.name for f in old.flags if include_all or a.applies(f, None)}
    b_names = {f.name for f in new.flags if include_all or b.applies(f, None)}
    a_wall, a_wextra = enabled_by_group(a, "-Wall"), enabled_by_group(a, "-Wextra")
    b_wall, b_wextra = enabled_by_group(b, "-Wall"), enabled_by_group(b, "-Wextra")
    cross = old.family != new.family
    skip = {"description", "languages", "argument", "enables"} if cross else set()
    changed = []
    for name in sorted(a_names & b_names):
        sa = _summary(a, a.flags[name], a_wall, a_wextra)
        sb = _summary(b, b.flags[name], b_wall, b_wextra)
        changes = [
            {"attribute": k, "old": sa[k], "new": sb[k], "what": _describe(k, sa[k], sb[k])}
            for k in DIFF_ATTRIBUTES if k not in skip and sa[k] != sb[k]
        ]
        if changes:
            changed.append({"name": name, "changes": changes})
    return {
        "old": old.compiler,
        "new": new.compiler,
        "cross_family": cross,
        "in_both": len(a_names & b_names),
        "added": [flag_info(b, b.flags[n]) for n in sorted(b_names - a_names)],
        "removed": [flag_info(a, a.flags[n]) for n in sorted(a_names - b_names)],
        "changed": changed,
    }


def _describe(attribute: str, old, new) -> str:
    if attribute == "in_wall":
        return "joined -Wall" if new else "left -Wall"
    if attribute == "in_wextra":
        return "joined -Wextra" if new else "left -Wextra"
    if attribute == "ignored":
        return "became a no-op" if new else "no longer a no-op"
    if attribute == "removed":
        return "marked removed" if new else "no longer marked removed"
    if attribute == "alias_of":
        return f"became an alias of {new}" if new else f"no longer an alias of {old}"
    if attribute == "default":
        return f"default changed: {old} -> {new}"
    if attribute == "languages":
        return f"languages changed: {' '.join(old)} -> {' '.join(new)}"
    if attribute == "description":
        return "description changed"
    if attribute == "enables":
        gained = sorted(set(new) - set(old))
        lost = sorted(set(old) - set(new))
        parts = ([f"now enables {', '.join(gained)}"] if gained else []) + (
            [f"no longer enables {', '.join(lost)}"] if lost else [])
        return "; ".join(parts)
    return f"{attribute} changed: {old} -> {new}"


# ------------------------------------------------------------------ history

def history(conn: sqlite3.Connection, typed: str) -> list[dict]:
    """The flag in every ingested version: present, default, in -Wall/-Wextra, aliases."""
    out = []
    for row in store.compilers(conn):
        data = store.load(conn, row.name, with_messages=False)
        index = Index(data)
        hit = index.resolve(typed)
        entry = {"compiler": row.name, "version": row.version, "present": hit is not None}
        if hit is not None:
            flag, _ = hit
            entry.update({
                "name": flag.name,
                "default": flag.default,
                "in_wall": flag.name in enabled_by_group(index, "-Wall"),
                "in_wextra": flag.name in enabled_by_group(index, "-Wextra"),
                "alias_of": flag.alias_of,
                "aliases": sorted(f.name for f in data.flags
                                  if f.alias_of and index.resolve(f.alias_of)
                                  and index.resolve(f.alias_of)[0].name == flag.name),
                "ignored": flag.ignored,
                "removed": flag.removed,
            })
        out.append(entry)
    return out


# ------------------------------------------------------------------ check

def _bigrams(text: str) -> set[str]:
    return {text[i:i + 2] for i in range(len(text) - 1)}


def did_you_mean(typed: str, index: "Index") -> str | None:
    """The closest known flag name, if one is close enough to be a typo.

    Candidates come from an index of character pairs (pairs shared by most names,
    such as ``-W``, are left out of it); only the best few go through difflib's
    sequence matching, which is what costs.
    """
    base = typed.split("=", 1)[0]
    if base.startswith("-Wno-"):
        base = "-W" + base[5:]
    grams = index.gram_index()
    counts: dict[str, int] = {}
    for gram in _bigrams(base):
        for name in grams.get(gram, ()):
            counts[name] = counts.get(name, 0) + 1
    best = [name for name, _ in heapq.nlargest(12, counts.items(), key=itemgetter(1))]
    hits = difflib.get_close_matches(base, best, n=1, cutoff=0.75)
    return hits[0] if hits else None


@dataclass
class CheckResult:
    flag: str
    compiler: str
    status: str          # known | alias | no-op | removed | bad-value | unknown
    detail: str

    def as_dict(self) -> dict:
        return {"flag": self.flag, "compiler": self.compiler, "status": self.status,
                "detail": self.detail}


def check_flag(index: Index, typed: str) -> CheckResult:
    """What one compiler version does with one flag as typed."""
    data = index.data
    negative = typed.startswith("-Wno-")
    hit = index.resolve(typed)
    if hit is None:
        hint = did_you_mean(typed, index)
        detail = f"did you mean {hint}?" if hint else "no such warning option"
        if negative and data.family == "gcc":
            detail = ("GCC accepts an unknown -Wno-… silently (it only complains if another "
                      f"diagnostic is issued); -W{typed[5:]} would be rejected; " + detail)
        return CheckResult(typed, data.compiler, "unknown", detail)
    flag, value = hit
    if flag.removed:
        return CheckResult(typed, data.compiler, "removed", flag.description or "removed option")
    if flag.ignored:
        return CheckResult(typed, data.compiler, "no-op", "accepted, does nothing")
    if value is not None and value != "0" and flag.takes_argument:
        problem = _bad_value(flag, value)
        if problem:
            return CheckResult(typed, data.compiler, "bad-value", problem)
    if flag.alias_of:
        return CheckResult(typed, data.compiler, "alias", f"alias of {flag.alias_of}")
    return CheckResult(typed, data.compiler, "known", flag.description)


def _bad_value(flag: Flag, value: str) -> str | None:
    rng = flag.extra.get("range")
    if rng:
        lo, hi = (int(x) for x in rng.split(","))
        if not value.isdigit() or not lo <= int(value) <= hi:
            return f"{flag.name} takes a level from {lo} to {hi}"
    arg = flag.argument or ""
    if arg.startswith("[") and arg.endswith("]"):
        choices = arg[1:-1].split("|")
        if value not in choices:
            return f"{flag.name} takes one of {', '.join(choices)}"
    return None


def check(datas: list[CompilerData], flags: list[str]) -> list[CheckResult]:
    """The table of every flag against every compiler, flag-major."""
    indexes = [Index(d) for d in datas]
    return [check_flag(index, typed) for typed in flags for index in indexes]


def candidate_names(typed: str) -> list[str]:
    """Every stored name that ``typed`` could resolve to (see :meth:`Index.resolve`)."""
    names = [typed]
    if typed.startswith("-Wno-"):
        names.append("-W" + typed[5:])
    if "=" in typed:
        names.append(typed.partition("=")[0] + "=")
    return names


def check_in_db(conn: sqlite3.Connection, compilers: list[str], flags: list[str]) -> list[CheckResult]:
    """:func:`check` reading only the flags asked about (and the names, for suggestions),
    so checking a few flags against many compilers stays fast."""
    wanted = {n for typed in flags for n in candidate_names(typed)}
    indexes = []
    for compiler in compilers:
        data = store.load_subset(conn, compiler, wanted)
        indexes.append(Index(data, all_names=store.flag_names(conn, compiler)))
    return [check_flag(index, typed) for typed in flags for index in indexes]


def portable(results: list[CheckResult]) -> list[str]:
    """Flags every named compiler knows and that do something in each."""
    by_flag: dict[str, list[CheckResult]] = {}
    for r in results:
        by_flag.setdefault(r.flag, []).append(r)
    return [f for f, rs in by_flag.items() if all(r.status in ("known", "alias") for r in rs)]


# ------------------------------------------------------------------ everything / messages

def everything(data: CompilerData, lang: str | None) -> list[str]:
    """The "all warnings" set: clang's ``-Weverything``; for GCC every flag that does
    something for the language and takes no argument, level options at their top level."""
    if data.family == "clang":
        return ["-Weverything"]
    index = Index(data)
    out = []
    for f in sorted(data.flags, key=lambda f: f.name):
        if not f.c_family or not index.applies(f, lang) or f.ignored or f.removed or f.alias_of:
            continue
        if f.name.startswith("-Wno-"):
            continue
        if f.takes_argument:
            rng = f.extra.get("range")
            if not rng or not f.name.endswith("="):
                continue
            top = rng.split(",")[1]
            base = f.name[:-1]
            if base in index.flags and not index.flags[base].takes_argument and \
                    not index.flags[base].alias_of:
                continue  # the plain switch is listed already
            out.append(f"{f.name}{top}")
        else:
            out.append(f.name)
    return out


def messages(data: CompilerData, typed: str) -> list[dict]:
    """Diagnostics a flag controls, with the flag (below it) that owns each."""
    index = Index(data)
    hit = index.resolve(typed)
    if hit is None:
        from .errors import WarnscopeError

        raise WarnscopeError(f"{data.compiler} has no warning flag {typed}")
    names = {hit[0].name} | set(enabled_by_group(index, hit[0].name))
    return [
        {"flag": m.flag, "diag": m.diag, "class": m.diag_class, "severity": m.severity, "text": m.text}
        for m in data.messages if m.flag in names
    ]


# ------------------------------------------------------------------ export

def export_list(data: CompilerData) -> str:
    """The plain-text list people grep, diff and paste.

    One flag a line; what it turns on below it, indented under ``#``; ``= target``
    for aliases; ``# IGNORED switch`` for no-ops; the default state as a comment.
    """
    index = Index(data)
    lines = []
    for f in sorted(data.flags, key=lambda f: f.name.lower()):
        if not index.applies(f, None):
            continue
        head = f.name + (f.argument or "" if f.takes_argument else "")
        if f.alias_of:
            lines.append(f"{head} = {f.alias_of}")
            continue
        if f.ignored:
            lines.append(f"{head} # IGNORED switch")
            continue
        if f.removed:
            lines.append(f"{head} # REMOVED switch")
            continue
        note = {"on": " # Enabled by default.", "partial": " # Partially enabled by default."}
        lines.append(head + note.get(f.default, ""))
        t = tree(data, f.name)
        for child in t["children"]:
            lines.extend("# " + l for l in render_tree(child))
    return "\n".join(lines) + "\n"
