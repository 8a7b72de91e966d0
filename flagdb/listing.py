"""A compiler's warning options as the binary itself lists them: the entry of a compiler
with no sources at hand (a vendor's build, a version no Debian source package has).

**GCC**: ``gcc -Q --help=warnings`` prints every warning option the binary knows with
the state of its variable, for C, and with ``-x c++ -fsyntax-only`` for C++; the same
listing after ``-Wfoo`` shows what ``-Wfoo`` turns on (the states that changed), and
``--help=warnings`` without ``-Q`` gives the help texts. From these come the names,
aliases (a state that is an option: ``-Wformat`` is ``-Wformat=1``), arguments
(``<0,2>``, ``[none|global|all]``), languages (``[available in C++, ObjC++]``),
defaults per language, and the edges: one listing per option (and per level of a level
option), reduced to the direct ones, and ``A && B`` conditions found where ``-Wall
-Wextra`` turns on more than either alone. What ``-Q`` cannot show is left out, not
guessed: switches the binary accepts but does not list (``-Wmudflap``, ``-pedantic``),
variable names, and an edge to an option that is on by default anyway (its state does
not change).

**clang**: ``diagtool tree`` gives the groups and their subgroups, ``diagtool
list-warnings`` every diagnostic with its group, ``diagtool show-enabled`` which are on by
default (and, with ``-Weverything -Reverything``, which are remarks); from them the same
tables object the ``.inc`` route reads is built, so :func:`flagdb.clang_ingest.build`
derives flags, aliases, no-ops and defaults by the same rules. ``clang
--print-diagnostic-options`` (clang 15 and later) adds the names the binary accepts;
without diagtool those names are all there is, each with its default ``unknown``.

This module only reads text. The binary is the user's own compiler, but what it prints
is untrusted: every option name is held to :mod:`flagdb.names` and every state to a
small grammar, and anything else is one error naming the line. The runs themselves
are :mod:`analyzer.verify.listing`'s, which hands the output here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations
from typing import Callable

from flagdb import names
from flagdb.clang_inc import Diag, Group, Tables
from flagdb.gcc_ingest import describe_aliases
from flagdb.model import C_FAMILY, ClangFacts, CompilerData, Edge, Flag, GccFacts
from warnscope.errors import BadInput, ToolFailed

#: ``source_kind`` of an entry read from the binary's own listings
SOURCE_KIND = "binary-listing"
#: a flag's ``origin`` in such an entry
GCC_ORIGIN = "binary listing (-Q --help=warnings)"
CLANG_ORIGIN = "binary listing (diagtool)"
CLANG_NAMES_ORIGIN = "binary listing (--print-diagnostic-options)"
#: the languages of the two listings, as GCC names them
LANGS = ("C", "C++")
#: grouping options whose pairs are tried for ``A && B`` conditions
PAIR_ROOTS = ("-Wall", "-Wextra", "-Wpedantic")
#: levels tried for a level option (``-Wformat=1`` … ``-Wformat=5`` at most)
MAX_LEVEL = 5
#: a state as ``-Q`` prints it: a word of its own, a number (of bytes), a value's name
_STATE = re.compile(r"\[enabled\]|\[disabled\]|\[ignored\]|-?[0-9]{1,25}(?: bytes)?"
                    r"|[A-Za-z0-9_][A-Za-z0-9_+.-]{0,63}|")
_AVAILABLE = re.compile(r"\[available in ([A-Za-z0-9+ ,-]{1,200})\]")
_LANGUAGE = re.compile(r"[A-Za-z][A-Za-z0-9+-]{0,30}")
_ARGUMENT = re.compile(r"[<\[][A-Za-z0-9_,|=+ -]{0,200}[>\]]")


@dataclass(frozen=True)
class QLine:
    """One line of ``-Q --help=warnings``: the option, its argument's display form
    (``<0,2>``, ``[none|global|all]``; None for none) and the state printed."""

    name: str
    argument: str | None
    state: str


def _bad(what: str, line: str, why: str) -> BadInput:
    shown = line.strip()
    shown = shown if len(shown) <= 100 else shown[:97] + "..."
    return BadInput(f"{what} printed {shown!r}: {why}; not a listing warnscope reads, "
                    "nothing stored")


def parse_gcc_q(text: str, what: str) -> dict[str, QLine]:
    """``-Q --help=warnings`` as {name: :class:`QLine`}; ``what`` names the command in
    errors. An option line is two spaces, the option (``-Wformat=<0,2>``), blanks and
    its state after a TAB; other lines (the heading) are skipped."""
    out: dict[str, QLine] = {}
    for line in text.splitlines():
        if not line.startswith("  -"):
            continue
        head, tab, state = line.strip().partition("\t")
        if not tab:   # no TAB: the option, blanks, the state
            head, _, state = line.strip().partition(" ")
        head, state = head.strip(), state.strip()
        m = re.fullmatch(r"(-[^<\[\s]+)(\S*)", head)
        if m is None:
            raise _bad(what, line, "not an option and its state")
        name, argument = m.group(1), m.group(2) or None
        why = names.problem(name)
        if why is not None:
            raise _bad(what, line, f"{names.shown(name)} is {why}")
        if argument is not None and not _ARGUMENT.fullmatch(argument):
            raise _bad(what, line, f"the argument form {argument[:40]!r} is not one GCC prints")
        if not _state_ok(state):
            raise _bad(what, line, "not a state GCC prints")
        out[name] = QLine(name, argument, state)
    if not out:
        raise BadInput(f"{what} listed no warning option: not GCC's -Q --help=warnings")
    return out


def _state_ok(state: str) -> bool:
    if state.startswith("-"):
        return names.problem(state) is None or bool(re.fullmatch(r"-?[0-9]{1,25}", state))
    m = _AVAILABLE.fullmatch(state)
    if m:
        return all(_LANGUAGE.fullmatch(l.strip()) for l in m.group(1).split(","))
    return _STATE.fullmatch(state) is not None


def parse_gcc_help(text: str) -> dict[str, str]:
    """``--help=warnings`` (without ``-Q``) as {name: help text}: an option line is two
    spaces and the option, then its text; a line indented further continues the text
    (however the terminal's width wrapped it)."""
    out: dict[str, str] = {}
    current: str | None = None
    for line in text.splitlines():
        m = re.match(r"  (-[^<\[\s]+)\S*(?:\s+(.*))?$", line)
        if m and not line.startswith("   "):
            current = m.group(1)
            out[current] = (m.group(2) or "").strip()
        elif current is not None and line.startswith("   ") and line.strip():
            out[current] = (out[current] + " " + line.strip()).strip()
        else:
            current = None
    return {k: v[:2000] for k, v in out.items() if names.problem(k) is None}


def available_in(state: str) -> list[str] | None:
    """``[available in C++, ObjC++]`` -> ['C++', 'ObjC++']; None for any other state."""
    m = _AVAILABLE.fullmatch(state)
    return [l.strip() for l in m.group(1).split(",")] if m else None


def value_of(state: str) -> str | None:
    """A state as the value an option holds: ``1`` for ``[enabled]``, ``0`` for
    ``[disabled]``, the number or name otherwise; None where the listing shows none
    (blank, an alias's target, ``[available in …]``, ``[ignored]``)."""
    if state == "[enabled]":
        return "1"
    if state == "[disabled]":
        return "0"
    if not state or state.startswith("[") or (state.startswith("-") and not state[1:].isdigit()):
        return None
    return state[:-len(" bytes")] if state.endswith(" bytes") else state


def is_on(value: str | None) -> bool:
    """Does a value mean the warning is on (a level above 0, a named value)?"""
    return value not in (None, "", "0", "-1", "none")


def db_default(state: str, takes_argument: bool, has_state: bool) -> str:
    """A state in the database's terms: ``on``/``off``, a level or value, ``code`` for a
    switch ``-Q`` prints blank though it has a state (GCC 12 on prints an unresolved
    ``Init(-1)`` so: decided in code after option parsing) and a level of ``-1``."""
    value = value_of(state)
    if value is None:
        return "code" if has_state and not state else "off"
    if value == "-1":
        return "code"
    if not takes_argument:
        return "off" if value == "0" else "on"
    return value


# ------------------------------------------------------------------ GCC: the entry

#: ``ask(lang, flags)``: the text of ``-Q --help=warnings`` for ``lang`` (``C``, ``C++``)
#: after ``flags``
Ask = Callable[[str, list[str]], str]


#: ``probe(lang, flags)``: what the compiler says on stderr compiling an empty ``lang``
#: file with ``flags`` (one run)
Probe = Callable[[str, list[str]], str]
_NOT_FOR = re.compile(r"command-line option '(-[^']+)' is valid for [^']+? but not for "
                      r"(C\+\+|C)(?![\w+/])")


def gcc_data(compiler: str, version: str, source: str, ask: Ask, help_text: str,
             what: str, probe: Probe | None = None) -> CompilerData:
    """The entry of a GCC binary from its listings (see the module's text); ``ask`` runs
    the listing, ``help_text`` is ``--help=warnings``'s, ``what`` names the binary.

    ``probe``: for the options a listing calls ``[available in …]`` only, one compile per
    language with all of them, to see which the compiler takes for that language
    without "valid for … but not for C": ``-Q`` lists a ``Common`` option that another
    front end also names as available there only (Debian's Modula-2 makes
    ``-Wunused-parameter`` "[available in Modula-2]"), though it applies everywhere."""
    cache: dict[tuple[str, tuple[str, ...]], dict[str, QLine]] = {}

    def listing(lang: str, flags: list[str]) -> dict[str, QLine]:
        key = (lang, tuple(flags))
        if key not in cache:
            shown = f"{what} {'-x c++ ' if lang == 'C++' else ''}-Q --help=warnings {' '.join(flags)}"
            cache[key] = parse_gcc_q(ask(lang, flags), shown.strip())
        return cache[key]

    base = {lang: listing(lang, []) for lang in LANGS}
    if set(base["C"]) != set(base["C++"]):
        odd = sorted(set(base["C"]) ^ set(base["C++"]))[0]
        raise BadInput(f"{what}: its C and C++ listings name different options ({odd}): "
                       "not a listing warnscope reads, nothing stored")
    helps = parse_gcc_help(help_text)
    edges_by_lang: dict[str, set[tuple]] = {}
    stateful: set[str] = set()
    joined: set[str] = set()
    for lang in LANGS:
        finder = _GccEdges(lang, base[lang], lambda flags, lang=lang: listing(lang, flags))
        edges_by_lang[lang] = finder.edges()
        stateful |= finder.stateful
        joined |= finder.joined
    accepted = _accepted(base, probe) if probe is not None else {}
    flags = [_gcc_flag(name, base, helps, name in stateful, name in joined,
                       accepted.get(name, ()))
             for name in sorted(base["C"])]
    describe_aliases(flags)
    merged: dict[tuple, list[str]] = {}
    for lang, edges in edges_by_lang.items():
        for e in edges:
            merged.setdefault(e, []).append(lang)
    edges = [Edge(parent=p, child=c, value=v, parent_min=lvl, requires=list(req), languages=langs)
             for (p, c, v, lvl, req), langs in sorted(merged.items(), key=lambda kv: repr(kv[0]))]
    return CompilerData(compiler=compiler, family="gcc", version=version,
                        source_kind=SOURCE_KIND, source=source, flags=flags, edges=edges)


def _accepted(base: dict[str, dict[str, QLine]], probe: Probe) -> dict[str, list[str]]:
    """{option: the languages it is taken for though the listing says ``[available in
    …]`` there} (see :func:`gcc_data`)."""
    out: dict[str, list[str]] = {}
    for lang in LANGS:
        unsure = [n for n, l in base[lang].items()
                  if available_in(l.state) is not None and not n.endswith("=")
                  and n.startswith("-W")]
        if not unsure:
            continue
        refused = {m.group(1) for m in _NOT_FOR.finditer(probe(lang, unsure))
                   if m.group(2) == lang}
        for name in unsure:
            if name not in refused:
                out.setdefault(name, []).append(lang)
    return out


def _gcc_flag(name: str, base: dict[str, dict[str, QLine]], helps: dict[str, str],
              has_state: bool, joined: bool = False, taken: list[str] | tuple = ()) -> Flag:
    lines = {lang: base[lang][name] for lang in LANGS}
    states = {lang: line.state for lang, line in lines.items()}
    alias = next((s for s in states.values() if s.startswith("-") and names.problem(s) is None),
                 None)
    applies = [lang for lang in LANGS if available_in(states[lang]) is None or lang in taken]
    listed = {lang: available_in(states[lang]) for lang in LANGS}
    if applies == list(LANGS):
        languages = list(LANGS)
    elif applies:   # the other language's listing names where it is available
        other = next(lang for lang in LANGS if lang not in applies)
        languages = list(dict.fromkeys([*applies, *(listed[other] or [])]))
    else:
        languages = list(listed["C"] or [])
    argument = lines["C"].argument
    takes_argument = name.endswith("=") or joined
    # where -Q lists it as available elsewhere only, it shows no state: its default is unknown
    defaults = {lang: (db_default(states[lang], takes_argument, has_state)
                       if available_in(states[lang]) is None else "unknown") for lang in applies}
    main = defaults.get("C", defaults.get("C++", "unknown"))   # of other languages only
    rng = re.fullmatch(r"<(-?[0-9]{1,9}),(-?[0-9]{1,9})>", argument or "")
    enum = re.fullmatch(r"\[([A-Za-z0-9_+-]+(?:\|[A-Za-z0-9_+-]+)*)\]", argument or "")
    facts = GccFacts(
        range=(int(rng.group(1)), int(rng.group(2))) if rng else None,
        enum_values={v: v for v in enum.group(1).split("|")} if enum and takes_argument else {},
        byte_size=any(s.endswith(" bytes") for s in states.values()),
        defaults=defaults,
        # what the listing printed, per language: flags verify compares it again
        states={lang: {"listed": states[lang]} for lang in LANGS},
    )
    return Flag(
        name=name, kind="warning", alias_of=alias, default=main, languages=languages,
        takes_argument=takes_argument, argument=argument if takes_argument else None,
        ignored=any(s == "[ignored]" for s in states.values()), removed=False,
        description=helps.get(name, ""), origin=GCC_ORIGIN,
        c_family=not languages or bool(set(languages) & set(C_FAMILY)), facts=facts)


class _GccEdges:
    """The direct edges of one language, from one listing per option (see the module).

    Options that share one state under two names (``-Warray-bounds`` and
    ``-Warray-bounds=``: each turns the other's state on) are one state: the level
    option names it, as the option files' edges do."""

    def __init__(self, lang: str, base: dict[str, QLine], listing: Callable[[list[str]], dict[str, QLine]]):
        self.lang = lang
        self.base = base
        self.listing = listing
        self.closures: dict[str, dict[str, str]] = {}
        #: options whose state changed in some listing: they have one, blank or not
        self.stateful: set[str] = set()
        self.twins: dict[str, str] = {}
        #: options GCC refused alone: they take an argument (``-Wlarger-than-``)
        self.joined: set[str] = set()

    def changed(self, flags: list[str]) -> dict[str, str]:
        """What ``flags`` turn on: every option whose state they changed to an on value.
        An option the compiler refuses alone (it wants an argument joined to it, as the
        old ``-Wlarger-than-``) turns nothing on."""
        try:
            now = self.listing(flags)
        except ToolFailed:
            if len(flags) != 1:
                raise
            self.joined.add(flags[0])
            return {}
        out = {}
        for name, line in now.items():
            before = self.base.get(name)
            if before is None or before.state == line.state:
                continue
            self.stateful.add(name)
            value = value_of(line.state)
            if is_on(value):
                out[name] = value
        return out

    def requests(self) -> list[str]:
        """Every option of this language as given on a command line: a switch, and a
        level option at each level from 1."""
        out = []
        for name, line in self.base.items():
            state = line.state
            if available_in(state) is not None or state == "[ignored]":
                continue
            if state.startswith("-") and not state[1:].isdigit():
                continue   # an alias: its target is asked itself
            if not name.endswith("="):
                out.append(name)
                continue
            rng = re.fullmatch(r"<(-?[0-9]{1,9}),(-?[0-9]{1,9})>", line.argument or "")
            if rng:
                lo, hi = int(rng.group(1)), int(rng.group(2))
                out += [f"{name}{k}" for k in range(max(lo, 1), min(hi, MAX_LEVEL) + 1)]
        return out

    def own(self, typed: str) -> set[str]:
        """The names of ``typed``'s own state: itself, its level option, its twin."""
        base, eq, level = typed.partition("=")
        mine = {typed, base, base + "="} if eq and level.isdigit() else {typed}
        for name in list(mine):
            if name in self.twins:
                mine.add(self.twins[name])
        return mine

    def members(self, typed: str) -> dict[str, str]:
        """What ``typed`` turns on besides its own state, one name per state."""
        on = {n: v for n, v in self.closures[typed].items() if n not in self.own(typed)}
        return {n: v for n, v in on.items()
                if n.endswith("=") or not (n in self.twins and self.twins[n] in on)}

    def typed(self, name: str, value: str) -> str:
        return name + value if name.endswith("=") else name

    def edges(self) -> set[tuple]:
        for typed in self.requests():
            self.closures[typed] = self.changed([typed])
        for name in self.base:   # -Warray-bounds and -Warray-bounds=: one state, two names
            level = name + "="
            if level in self.base and not name.endswith("="):
                mine = self.closures.get(name, {})
                theirs = [c for t, c in self.closures.items() if t.startswith(level)]
                if level in mine and any(name in c for c in theirs):
                    self.twins[name] = level
                    self.twins[level] = name
        edges: set[tuple] = set()
        for typed in self.closures:
            parent, level = self.parent_of(typed)
            members = self.members(typed)
            for child, value in members.items():
                if not self.covered(members, child, value):
                    edges.add((parent, child, value, level, ()))
        lowest: dict[tuple, int] = {}
        for parent, child, value, level, _ in edges:
            if level is not None:
                key = (parent, child, value)
                lowest[key] = min(level, lowest.get(key, level))
        edges = {e for e in edges if e[3] is None or lowest[(e[0], e[1], e[2])] == e[3]}
        return edges | self.pair_edges()

    def parent_of(self, typed: str) -> tuple[str, int | None]:
        base, eq, level = typed.partition("=")
        if eq and level.isdigit() and base + "=" in self.base:
            return base + "=", int(level)
        return typed, None

    def covered(self, members: dict[str, str], child: str, value: str) -> bool:
        """Does another member turn ``child`` on with the same value (an indirect edge)?"""
        for other, ovalue in members.items():
            if other == child or self.twins.get(other) == child:
                continue
            if self.closures.get(self.typed(other, ovalue), {}).get(child) == value:
                return True
        return False

    def pair_edges(self) -> set[tuple]:
        """``A && B``: what two grouping options turn on together and neither alone,
        given to the most direct pair of their members that does it (``-Wunused &&
        -Wextra``, not ``-Wall && -Wextra``, since ``-Wall`` turns ``-Wunused`` on)."""
        roots = [r for r in PAIR_ROOTS if r in self.closures]
        works: dict[frozenset, dict[str, str]] = {}
        for a, b in combinations(roots, 2):
            alone = {**self.closures[a], **self.closures[b]}
            extra = {c: v for c, v in self.changed([a, b]).items()
                     if c not in alone and c not in self.own(a) | self.own(b)}
            if not extra:
                continue
            for first, second in ((a, b), (b, a)):
                for m in [first, *sorted(self.members(first))]:
                    pair = frozenset((m, second))
                    if m.endswith("=") or m not in self.closures or pair in works:
                        continue
                    single = {**self.closures[m], **self.closures[second]}
                    found = {c: v for c, v in self.changed([m, second]).items()
                             if c in extra and c not in single}
                    if found:
                        works[pair] = found

        def reach(name: str) -> set[str]:
            return {name} | set(self.closures.get(name, {}))

        def below(other: frozenset, pair: frozenset) -> bool:
            """Is ``other`` made of options the two of ``pair`` turn on, one from each?"""
            (o1, o2), (p1, p2) = sorted(other), sorted(pair)
            return (o1 in reach(p1) and o2 in reach(p2)) or (o1 in reach(p2) and o2 in reach(p1))

        edges: set[tuple] = set()
        for pair, found in works.items():
            a, b = sorted(pair)
            for child, value in found.items():
                if not any(other != pair and child in got and below(other, pair)
                           for other, got in works.items()):
                    edges.add((a, child, value, None, (b,)))
                    edges.add((b, child, value, None, (a,)))
        return edges


# ------------------------------------------------------------------ clang

def parse_print_options(text: str, what: str) -> list[str]:
    """``clang --print-diagnostic-options``: the group names (without ``-W``), from its
    ``-W<group>`` lines (the ``-Wno-`` ones repeat them)."""
    out = []
    for line in text.splitlines():
        word = line.strip()
        if not word or word.startswith("-Wno-"):
            continue
        why = names.problem(word)
        if why is not None or not word.startswith("-W"):
            raise _bad(what, line, f"{names.shown(word)} is {why or 'not a -W option'}")
        out.append(word[2:])
    return list(dict.fromkeys(out))


_DIAG = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,200}")


def parse_list_warnings(text: str, what: str) -> dict[str, str | None]:
    """``diagtool list-warnings``: {diagnostic: its group (without ``-W``), None for a
    diagnostic without one}, up to its statistics."""
    out: dict[str, str | None] = {}
    for line in text.splitlines():
        if line.startswith("STATISTICS"):
            break
        if not line.startswith("  "):
            continue
        m = re.fullmatch(r"  (\S+)(?: \[(-W\S*)\])?", line)
        if m is None or not _DIAG.fullmatch(m.group(1)):
            raise _bad(what, line, "not a diagnostic and its flag")
        group = m.group(2)
        if group is not None and names.problem(group) is not None:
            raise _bad(what, line, f"{names.shown(group)} is {names.problem(group)}")
        out[m.group(1)] = group[2:] if group is not None else None
    if not out:
        raise BadInput(f"{what} listed no diagnostic: not diagtool's list-warnings")
    return out


def parse_show_enabled(text: str, what: str) -> dict[str, str]:
    """``diagtool show-enabled``: {diagnostic: its level's letter} (``W`` warning, ``E``
    error, ``R`` remark, ``F`` fatal) for every diagnostic enabled."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        m = re.fullmatch(r"([WERF])  (\S+)(?: \[-W\S*\])?", line.rstrip())
        if m is None or not _DIAG.fullmatch(m.group(2)):
            raise _bad(what, line, "not a level and a diagnostic")
        out[m.group(2)] = m.group(1)
    return out


_COLOURS = {"32": "green", "31": "red", "33": "yellow"}
_TREE_LINE = re.compile(r"^(?:\x1b\[0m)?( *)\x1b\[0;(3\d)m(-W\S*)\s*$")


def parse_tree(text: str) -> tuple[dict[str, str], set[tuple[str, str]]]:
    """(group → colour, {(parent, child)}) from coloured ``diagtool tree`` output (on
    a terminal it colours a group green when every diagnostic below it is on by
    default, red when nothing is below it, yellow otherwise); groups without ``-W``."""
    colours: dict[str, str] = {}
    edges: set[tuple[str, str]] = set()
    stack: list[str] = []
    for line in text.splitlines():
        m = _TREE_LINE.match(line)
        if not m or names.problem(m.group(3)) is not None:
            continue
        depth = len(m.group(1)) // 2
        name = m.group(3)[2:]
        colours[name] = _COLOURS.get(m.group(2), m.group(2))
        del stack[depth:]
        if stack:
            edges.add((stack[-1], name))
        stack.append(name)
    return colours, edges


_SEVERITY = {"W": "Warning", "E": "Error", "R": "Remark", "F": "Fatal"}


def clang_tables(version: str, groups: list[str], edges: set[tuple[str, str]],
                 diag_groups: dict[str, str | None], on_by_default: dict[str, str],
                 everything: dict[str, str]) -> Tables:
    """The tables object of :mod:`flagdb.clang_inc` from diagtool's listings: ``groups``
    (names without ``-W``), their ``edges`` (the tree), each diagnostic's group
    (list-warnings), the level of those enabled by default, and the level of each with
    every warning and remark enabled (``R``: a remark). A diagnostic named ``ext_…`` is an
    extension, as clang names them; its text is not in any listing."""
    order = sorted(set(groups) | {g for g in diag_groups.values() if g is not None}
                   | {g for e in edges for g in e})
    index = {name: i for i, name in enumerate(order)}
    members: dict[str, list[str]] = {name: [] for name in order}
    diags: dict[str, Diag] = {}
    for diag, group in sorted(diag_groups.items()):
        if everything.get(diag) == "R":
            cls = "REMARK"
        elif diag.startswith("ext_"):
            cls = "EXTENSION"
        else:
            cls = "WARNING"
        severity = _SEVERITY.get(on_by_default.get(diag, ""), "Ignored")
        diags[diag] = Diag(name=diag, diag_class=cls, severity=severity, text="",
                           group=index[group] if group is not None else None)
        if group is not None:
            members[group].append(diag)
    children: dict[str, list[str]] = {name: [] for name in order}
    for parent, child in edges:
        children[parent].append(child)
    table = [Group(index=index[name], name=name, members=members[name],
                   subgroups=sorted(index[c] for c in children[name])) for name in order]
    return Tables(layout="diagtool", version=version, groups=table, diags=diags)


def clang_names_only(compiler: str, version: str, source: str, groups: list[str],
                     remark_only: set[str]) -> CompilerData:
    """An entry from ``--print-diagnostic-options`` alone (no diagtool): the names, each
    ``-R<g>`` where only that spelling is accepted, every default ``unknown``."""
    flags = [Flag(name=("-R" if g in remark_only else "-W") + g,
                  kind="remark" if g in remark_only else "warning", default="unknown",
                  origin=CLANG_NAMES_ORIGIN, facts=ClangFacts()) for g in sorted(groups)]
    return CompilerData(compiler=compiler, family="clang", version=version,
                        source_kind=SOURCE_KIND, source=source, flags=flags)
