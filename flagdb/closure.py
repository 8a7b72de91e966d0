"""The closure index: one compiler version's flags and edges, and what a list of flags
turns on.

:class:`Index` answers the lookups every question needs (a name as typed to the flag
it names, through aliases; the edges that fire for a language and level), and
:func:`closure` follows the edges. The views of one version (:mod:`flagdb.views`),
the answers across versions (:mod:`flagdb.compare`) and ``check``
(:mod:`flagdb.check`) are all built on these.
"""
from __future__ import annotations

from flagdb.model import C_FAMILY, CompilerData, Edge, Flag, applies
from flagdb.results import as_typed
from flagdb.suggest import Suggester, spellings
from warnscope.errors import BadInput

LANGS = {"c": "C", "c++": "C++", "objc": "ObjC", "objc++": "ObjC++"}


def lang_name(lang: str | None) -> str | None:
    """``c`` / ``c++`` as typed on the command line -> the compiler's language tag."""
    if lang is None:
        return None
    try:
        return LANGS[lang.lower()]
    except KeyError:
        raise BadInput(f"unknown language {lang!r} (use c or c++)") from None


class Index:
    """Fast lookups over one compiler's data: flags by name, edges by parent/child."""

    def __init__(self, data: CompilerData, all_names: set[str] | None = None,
                 suggester: Suggester | None = None):
        self.data = data
        self.flags: dict[str, Flag] = {f.name: f for f in data.flags}
        #: every flag name of the compiler, for suggestions (``data`` may hold a subset)
        self.all_names = all_names if all_names is not None else set(self.flags)
        #: shared by the indexes of one ``check`` (their names mostly overlap); else built on demand
        self._suggester = suggester
        #: a shared suggester knows other compilers' names too: answers are limited to these
        self._known: dict[str, str] | None = None
        self.by_parent: dict[str, list[Edge]] = {}
        self.by_child: dict[str, list[Edge]] = {}
        for e in data.edges:
            self.by_parent.setdefault(e.parent, []).append(e)
            self.by_child.setdefault(e.child, []).append(e)

    def resolve(self, typed: str) -> tuple[Flag, str | None] | None:
        """``-Wformat=2`` -> (flag ``-Wformat=``, ``"2"``); ``-Wno-shadow`` -> (``-Wshadow``, ``"0"``)."""
        if typed in self.flags:
            return self.flags[typed], None
        if is_negative(typed):  # -Wno-shadow; clang's remarks too: -Rno-pass
            positive = self.flags.get(positive_of(typed))
            if positive is not None and negatable(positive):
                return positive, "0"
        if "=" in typed:
            base, _, value = typed.partition("=")
            if base + "=" in self.flags:
                return self.flags[base + "="], value
            if is_negative(base):
                # -Wno-alloca-larger-than=100: a Joined option without RejectNegative
                joined = self.flags.get(positive_of(base) + "=")
                if joined is not None and not rejects_negative(joined):
                    return joined, "0"
        return None

    def target(self, typed: str) -> tuple[Flag, str | None] | None:
        """:meth:`resolve`, then through an alias to the option it spells, as GCC does:
        ``-Wformat`` -> (``-Wformat=``, ``"1"``); ``-Wno-bidi-chars`` -> (``-Wbidi-chars=``,
        ``"none"``), the alias's negative argument. Not an alias: as :meth:`resolve`."""
        hit = self.resolve(typed)
        if hit is None or not hit[0].alias_of:
            return hit
        flag, value = hit
        if value == "0" and flag.gcc.alias_negative:
            return self.resolve(flag.gcc.alias_negative) or hit
        aliased = self.resolve(flag.alias_of)
        if aliased is None:
            return hit
        return aliased[0], "0" if value == "0" else aliased[1]

    def applies(self, flag: Flag, lang: str | None) -> bool:
        """Does the flag exist for this language (None: for the C family)?"""
        return applies(self.data.family, flag.c_family, flag.languages, lang)

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

    def suggest(self, typed: str) -> str | None:
        """This compiler's flag name closest to ``typed``, if close enough to be a typo."""
        if self._suggester is None:
            self._suggester = Suggester(self.all_names)
        elif self._known is None and self._suggester.names is not self.all_names:
            self._known = spellings(self.all_names)
        return self._suggester.closest(positive_of(typed.split("=", 1)[0]), self._known)


def is_negative(typed: str) -> bool:
    """``-Wno-shadow``, and clang's negative remark form ``-Rno-pass``."""
    return typed[:5] in ("-Wno-", "-Rno-")


def positive_of(typed: str) -> str:
    """``-Wno-shadow`` -> ``-Wshadow``, ``-Rno-pass`` -> ``-Rpass``; others unchanged."""
    return typed[:2] + typed[5:] if is_negative(typed) else typed


def rejects_negative(flag: Flag) -> bool:
    """GCC's ``RejectNegative``: no ``-Wno-`` form (clang groups have none)."""
    return flag.gcc.reject_negative


def negatable(flag: Flag) -> bool:
    """Has the plain switch a ``-Wno-`` form? Not when it takes an argument or is
    RejectNegative."""
    return not flag.takes_argument and not rejects_negative(flag)


def typed_value(index: Index, name: str, value: str) -> str:
    """A value as typed: an enum option's number by its name (``1`` of
    ``-Waligned-new=`` is ``global``); others unchanged."""
    if name.endswith("="):
        flag = index.flags.get(name)
        if flag is not None:
            return flag.gcc.enum_values.get(value, value)
    return value


def typed_child(e: Edge, index: Index) -> str:
    """The child as typed; an enum level shown by its name (``-Waligned-new=global``)."""
    return as_typed(e.child, typed_value(index, e.child, e.value))


def typed_parent(e: Edge) -> str:
    """The parent as typed at the lowest level that gives the edge (``-Wformat=2``)."""
    return f"{e.parent}{e.parent_min}" if e.parent_min is not None else e.parent


# ------------------------------------------------------------------ closure

def closure(index: Index, start: list[str], lang: str | None = None) -> dict[str, str]:
    """Every flag that ends up on (name as stored -> value) when ``start`` is given.

    Follows edges with levels; an ``A && B`` edge fires only once both are on.
    Explicitly given flags win over values implied by edges, as in GCC.
    """
    on: dict[str, str] = {}
    for typed in start:
        hit = index.target(typed)
        if hit is not None:
            flag, value = hit
            on[flag.name] = value if value is not None else "1"  # the last one given wins
    explicit = set(on)
    queue: list[tuple[str, str | None]] = list(on.items())
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
    hit = index.target(group)  # an alias turns on what its target does, not the target
    got.pop(hit[0].name if hit else group, None)
    return got


def typed_on(index: Index, name: str, value: str) -> str:
    """A flag that is on, as a user would type it to get that state."""
    return as_typed(name, typed_value(index, name, value))
