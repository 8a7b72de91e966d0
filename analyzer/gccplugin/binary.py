"""A GCC seen from inside, through the warnscope plugin: closures and a binary-only ingest.

The option files say what GCC intends; the plugin shows what the binary does. Two
facts come from it, both per language (C from ``cc1``, C++ from ``cc1plus``):

* **States** of every warning option at three moments: as compiled in (``Init``),
  once the command line is handled, and at the start of the translation unit,
  after the front end's post-option code has decided what ``Init(-1)`` left open.
* **Closures**: what a list of flags turns on. The plugin applies the flags
  through GCC's own option handling (``read_cmdline_option``, which runs the
  generated ``*_handle_option_auto`` enabling code and the hand-written
  handlers) from a state where every warning is off, so nothing already on
  hides an edge. What post-option code adds on top (``-Wextra`` turning on
  ``-Wshift-negative-value`` in C99) shows as the difference of the final
  states with and without the flags.

From these, :func:`ingest` builds a complete :class:`CompilerData` from the binary
alone.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from warnscope.errors import BadInput, ToolFailed
from flagdb.gcc_ingest import describe_aliases
from flagdb.model import CompilerData, Edge, Flag, GccFacts

from analyzer.gccplugin import plugin as gcc_plugin
from analyzer.gccplugin.plugin import Plugin

#: Language names as typed (``--lang``) and as GCC's option table has them.
LANGS = {"c": "C", "c++": "C++"}
#: Closures the binary ingest starts from; their members are followed in turn.
ROOTS = ["-Wall", "-Wextra", "-Wpedantic", "-Wformat=2"]
C_FAMILY = {"C", "C++", "ObjC", "ObjC++", "Common"}
VIA_HANDLING = "option handling"
VIA_POST = "post-option code"
#: The plugin's names of an ``int`` variable's type: ``integer`` (CLVC_INTEGER, GCC 12
#: on) and ``boolean`` (CLVC_BOOLEAN, which held any int in GCC 11 and before).
INT_TYPES = ("integer", "boolean")
#: Levels tried for a level option (``-Wformat=``) met in a closure.
MAX_LEVEL = 5


@dataclass
class ClosureEntry:
    """One option a closure turns on, with its value and what set it."""

    name: str
    value: str
    #: ``option handling`` (GCC's enabling code run by the option handlers) or
    #: ``post-option code`` (the front end's code after option parsing).
    via: str

    def as_typed(self) -> str:
        """``-Wformat=1``; ``-Wshadow``; ``-Wunknown-pragmas (2)`` for a switch holding a level."""
        if self.name.endswith("="):
            return self.name + self.value
        return self.name if self.value == "1" else f"{self.name} ({self.value})"


@dataclass
class BinaryView:
    """The option table and the default states per language of one GCC binary."""

    plugin: Plugin
    options: dict[str, dict]
    #: lang ('c', 'c++') -> {'init_states'|'option_states'|'states': {option: value}}
    states: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)

    def applies(self, name: str, lang: str) -> bool:
        """Is the option valid in this language (``Common`` ones are everywhere)?"""
        langs = self.options[name]["languages"]
        return LANGS[lang] in langs or "Common" in langs or not (set(langs) - {"Driver", "Target"})


# ------------------------------------------------------------------ running

def check_lang(lang: str) -> str:
    if lang not in LANGS:
        raise BadInput(f"unknown language {lang!r} (use c or c++)")
    return lang


@lru_cache(maxsize=16)
def _baseline(plugin: Plugin, lang: str, std: str | None = None) -> dict:
    return gcc_plugin.run(plugin, lang, flags=_std_flags(std), table=True)


def _std_flags(std: str | None) -> list[str]:
    if std is None:
        return []
    if not re.fullmatch(r"[a-z0-9+]+", std):
        raise BadInput(f"--std {std!r}: expected a standard such as c99, gnu17, c++20")
    return [f"-std={std}"]


def view(plugin: Plugin) -> BinaryView:
    """The option table and the states of both languages (two compiler runs, cached)."""
    c = _baseline(plugin, "c")
    options = {o["text"]: o for o in c["options"]}
    bv = BinaryView(plugin, options)
    for lang in LANGS:
        run = _baseline(plugin, lang)
        bv.states[lang] = {k: run[k] for k in ("init_states", "option_states", "states")}
    return bv


def is_on(value: str) -> bool:
    """Does a state value mean the warning is on?  (-1: unresolved integer, or off size)"""
    return value not in ("", "0", "-1")


def _same_var(a: dict, b: dict) -> bool:
    return a.get("var_offset") is not None and a.get("var_offset") == b.get("var_offset")


def _requested_options(bv: BinaryView, flags: list[str]) -> list[dict]:
    """The table entries the typed flags name (aliases resolved), to leave out of a closure."""
    out = []
    for typed in flags:
        name = typed
        if typed.startswith("-Wno-"):
            name = "-W" + typed[5:]
        elif "=" in typed and typed not in bv.options:  # -Wformat=2, not -Wshadow=local
            name = typed.split("=", 1)[0] + "="
        opt = bv.options.get(name)
        if opt is None:
            continue
        out.append(opt)
        if opt["alias_target"] in bv.options:
            out.append(bv.options[opt["alias_target"]])
    return out


def closure(plugin: Plugin, flags: list[str], lang: str, std: str | None = None
            ) -> list[ClosureEntry]:
    """What ``flags`` turn on in ``lang``, transitively, with values, per GCC itself.

    One compiler run with the flags on its command line: the plugin applies them
    through GCC's option handling from an all-off state, and reports the final
    states, which against the baseline run show what post-option code added
    (that part depends on the language standard: ``std`` such as ``c89``).
    The flags themselves (and options sharing their variable) are left out.
    """
    check_lang(lang)
    if not flags:
        raise BadInput("closure: give at least one flag, e.g. -Wall")
    bv = view(plugin)
    for typed in flags:
        if not typed.startswith("-"):
            raise BadInput(f"{typed!r} is not a flag (flags start with '-')")
    run = gcc_plugin.run(plugin, lang, flags=_std_flags(std) + flags, closures=[flags])
    result = run["closures"][0]
    for typed, error in result["errors"].items():
        raise BadInput(f"{plugin.compiler} ({LANGS[lang]}): {typed}: {error}")
    requested = _requested_options(bv, flags)
    base = _baseline(plugin, lang, std)["states"]
    entries: dict[str, ClosureEntry] = {}
    for name, value in result["enabled"].items():
        entries[name] = ClosureEntry(name, value, VIA_HANDLING)
    for name, value in run["states"].items():
        if name in entries or base.get(name) == value:
            continue
        entries[name] = ClosureEntry(name, value, VIA_POST)
    out = []
    for name, entry in sorted(entries.items()):
        opt = bv.options.get(name)
        if opt is None or not bv.applies(name, lang) or not is_on(entry.value):
            continue
        if any(opt is r or _same_var(opt, r) for r in requested):
            continue
        out.append(entry)
    return out


def handling_closures(plugin: Plugin, lang: str, requests: list[list[str]]) -> list[dict[str, str]]:
    """Closures through option handling alone (no post-option code), many in one run."""
    if not requests:
        return []
    run = gcc_plugin.run(plugin, lang, closures=requests)
    out = []
    for req, res in zip(requests, run["closures"]):
        if res["errors"]:
            typed, error = next(iter(res["errors"].items()))
            raise ToolFailed(f"{plugin.compiler} ({LANGS[lang]}): {typed}: {error}")
        out.append(res["enabled"])
    return out


# ------------------------------------------------------------------ binary ingest

def default_of(option: dict, value: str | None) -> str:
    """A state value in the database's terms: ``on``/``off``, a level, ``code``."""
    if value is None or option.get("var_type") is None:
        return "off"
    takes_argument = option["joined"] or option["separate"]
    vt = option["var_type"]
    if vt in ("enum", "string"):
        return value
    if vt == "size":
        return "off" if value == "-1" else value
    if value == "-1":
        return "code"
    if takes_argument:
        return value
    return "off" if value == "0" else "on"


def _argument(opt: dict) -> str | None:
    display = (opt["help"] or "").partition("\t")[0] if "\t" in (opt["help"] or "") else ""
    if display.startswith(opt["text"]):
        return display[len(opt["text"]):] or None
    if not (opt["joined"] or opt["separate"]):
        return None
    if opt["range"]:
        return f"<{opt['range'][0]},{opt['range'][1]}>"
    if opt["enum_values"]:
        return "[" + "|".join(opt["enum_values"]) + "]"
    if opt["uinteger"] or opt["byte_size"]:
        return "<number>"
    return "<arg>"


def _alias_of(opt: dict) -> str | None:
    target = opt["alias_target"]
    if not target:
        return None
    if opt["negative_alias"]:
        return "-Wno-" + target[2:]
    if opt["alias_arg"] and target.endswith("="):
        return target + opt["alias_arg"]
    return target


def binary_flag(bv: BinaryView, opt: dict) -> Flag:
    """One option of the binary's table as a database flag."""
    help_text = opt["help"] or ""
    description = help_text.partition("\t")[2] if "\t" in help_text else help_text
    languages = [l for l in opt["languages"] if l not in ("Driver", "Target")]
    states = {}
    for lang, label in LANGS.items():
        if opt["var_type"] is None or not bv.applies(opt["text"], lang):
            continue
        s = bv.states[lang]
        states[label] = {k: s[k].get(opt["text"]) for k in ("init_states", "option_states", "states")}
    defaults = {label: default_of(opt, st["states"]) for label, st in states.items()}
    main = defaults.get("C", defaults.get("C++"))
    if main is None:
        main = default_of(opt, bv.states["c"]["states"].get(opt["text"]))
    facts = GccFacts(
        reject_negative=bool(opt["reject_negative"]),
        range=tuple(opt["range"]) if opt["range"] else None,
        # The binary reports an enum option's state by name, so its edges and
        # defaults carry names: each value stands for itself.
        enum_values={name: name for name in opt["enum_values"] or []},
        alias_negative=_alias_negative(opt),
        warn_message=opt["warn_message"] or None,
        byte_size=bool(opt["byte_size"]),
        undocumented=bool(opt["undocumented"]),
        unlisted=not opt["warning"],
        var_type=opt["var_type"],
        # An option on when its variable holds one value (the option files' Var(v, val));
        # its state reads 1 or 0, the variable it shares holds the value.
        var_value=str(opt["var_value"]) if opt["var_type"] == "equal" else None,
        var_offset=opt["var_offset"],
        defaults=defaults,
        states=states,
    )
    return Flag(
        name=opt["text"],
        kind="warning",
        alias_of=_alias_of(opt),
        default=main,
        languages=languages,
        takes_argument=opt["joined"] or opt["separate"],
        argument=_argument(opt),
        ignored=opt["ignored"],
        removed=opt["removed"],
        description=description.strip(),
        origin="binary",
        c_family=bool(set(opt["languages"]) & C_FAMILY),
        facts=facts,
    )


def _alias_negative(opt: dict) -> str | None:
    """What the ``-Wno-`` form of an alias stands for: ``-Wbidi-chars=none`` for
    ``Alias(Wbidi-chars=,any,none)`` (the option files' ``alias_negative``)."""
    target = opt["alias_target"]
    if target and opt["neg_alias_arg"] and target.endswith("="):
        return target + opt["neg_alias_arg"]
    return None


def _typed(name: str, value: str) -> str | None:
    """How to give an option with a value on the command line; None when it is off."""
    if name.endswith("="):
        return name + value
    return None if value == "0" else name


def _levels(opt: dict) -> list[int]:
    # GCC 12 calls an int variable CLVC_INTEGER, GCC 11 and before CLVC_BOOLEAN.
    if not (opt["text"].endswith("=") and opt["var_type"] in INT_TYPES and opt["range"]):
        return []
    lo, hi = opt["range"]
    return list(range(max(lo, 1), min(hi, MAX_LEVEL) + 1))


def derive_edges(bv: BinaryView, lang: str) -> set[tuple]:
    """Direct enabling edges reachable from :data:`ROOTS` in one language.

    Closures of every option met are taken (levels of level options included),
    then an edge ``P -> c`` is kept only if no other member of P's closure
    already turns ``c`` on (transitive reduction; options sharing a variable
    count as one).  ``A && B`` conditions show as options that a pair turns on
    but neither alone.  Returns tuples (parent, child, value, parent_min, requires).
    """
    closures = _closures_from_roots(bv, lang)
    edges: set[tuple] = set()
    for typed in closures:
        parent, level = _parent_of(bv, typed)
        if parent not in bv.options:
            # An option at a named value (-Waligned-new=global): an edge's parent is a
            # flag, at most with a lowest level, so what such a value turns on beyond
            # the option itself (nothing, in GCC 11 and 12) cannot be an edge.
            continue
        members = _members(bv, lang, closures, typed)
        for child, value in members.items():
            if not _covered(bv, closures, members, child, value):
                edges.add((parent, child, value, level, ()))
    return _lowest_levels(edges) | _pair_edges(bv, lang, closures)


def _closures_from_roots(bv: BinaryView, lang: str) -> dict[str, dict[str, str]]:
    """Closures of the roots and of everything they turn on, one compiler run per round."""
    closures: dict[str, dict[str, str]] = {}
    todo = list(ROOTS)
    while todo:
        batch = [t for t in dict.fromkeys(todo) if t not in closures]
        todo = []
        for typed, result in zip(batch, handling_closures(bv.plugin, lang, [[t] for t in batch])):
            closures[typed] = result
        for typed in batch:
            for name, value in closures[typed].items():
                opt = bv.options[name]
                if not bv.applies(name, lang) or not is_on(value):
                    continue
                todo.append(_typed(name, value))
                todo += [f"{name}{k}" for k in _levels(opt)]
        todo = [t for t in todo if t and t not in closures]
    return closures


def _parent_of(bv: BinaryView, typed: str) -> tuple[str, int | None]:
    """``-Wformat=2`` → (``-Wformat=``, 2) for a level option; else (typed, None)."""
    base, eq, level = typed.partition("=")
    opt = bv.options.get(base + "=")
    if eq and level.isdigit() and opt is not None and _levels(opt):
        return base + "=", int(level)
    return typed, None


def _members(bv: BinaryView, lang: str, closures: dict, typed: str) -> dict[str, str]:
    """What ``typed`` turns on in ``lang``, without itself (or its variable's other names)."""
    popt = bv.options.get(_parent_of(bv, typed)[0])
    out = {}
    for name, value in closures[typed].items():
        opt = bv.options[name]
        if not bv.applies(name, lang) or not is_on(value):
            continue
        if popt is not None and (name == popt["text"] or _same_var(opt, popt)):
            continue
        out[name] = value
    return one_name_per_variable(bv, out)


def one_name_per_variable(bv: BinaryView, on: dict[str, str]) -> dict[str, str]:
    """``on`` with one name per state: of a switch and a level option that share their
    variable (``-Warray-bounds`` and ``-Warray-bounds=``, ``-Wuse-after-free`` and
    ``-Wuse-after-free=``: one state, two names, and GCC reports both), only the level
    option, whose value says the level (``-Warray-bounds=1``).

    The option files give the edge to the level option (``LangEnabledBy`` is on the
    ``Warray-bounds=`` record), so the binary route names it as they do, and a tree
    lists the option once.
    """
    levels = {bv.options[n]["var_offset"] for n in on
              if n.endswith("=") and bv.options[n].get("var_offset") is not None}
    return {n: v for n, v in on.items()
            if n.endswith("=") or bv.options[n].get("var_offset") not in levels}


def _covered(bv: BinaryView, closures: dict, members: dict[str, str], child: str,
             value: str) -> bool:
    """Does another member turn ``child`` on with the same value (an indirect edge)?"""
    copt = bv.options[child]
    for other, ovalue in members.items():
        if other == child or _same_var(bv.options[other], copt):
            continue
        if closures.get(_typed(other, ovalue), {}).get(child) == value:
            return True
    return False


def _lowest_levels(edges: set[tuple]) -> set[tuple]:
    """A level option's edge holds from the lowest level that gives it."""
    lowest: dict[tuple, int] = {}
    for parent, child, value, level, _ in edges:
        if level is not None:
            key = (parent, child, value)
            lowest[key] = min(level, lowest.get(key, level))
    return {e for e in edges if e[3] is None or lowest[(e[0], e[1], e[2])] == e[3]}


def _pair_edges(bv: BinaryView, lang: str, closures: dict[str, dict[str, str]]) -> set[tuple]:
    """``A && B`` edges: what a root together with another option turns on, alone neither."""
    nodes = [t for t in closures if "=" not in t or t.endswith("=")]
    pairs = [(r, n) for r in ROOTS if "=" not in r for n in nodes if n != r]
    results = handling_closures(bv.plugin, lang, [[a, b] for a, b in pairs])
    extra: dict[frozenset, dict[str, str]] = {}
    for (a, b), res in zip(pairs, results):
        alone = {**closures[a], **closures[b]}
        new = one_name_per_variable(bv, {c: v for c, v in res.items()
                                         if c not in alone and bv.applies(c, lang) and is_on(v)})
        if new:
            extra[frozenset((a, b))] = new

    def reach(t: str) -> set[str]:
        return {t} | {_typed(n, v) for n, v in closures.get(t, {}).items()}

    def below(other: frozenset, a: str, b: str) -> bool:
        """Is the pair ``other`` made of options that a and b turn on, one from each?"""
        o1, o2 = sorted(other)
        return ((o1 in reach(a) and o2 in reach(b)) or (o1 in reach(b) and o2 in reach(a)))

    edges: set[tuple] = set()
    for pair, new in extra.items():
        a, b = sorted(pair)
        for child, value in new.items():
            # Keep the most direct pair: -Wall with -Wextra turns on -Wunused-parameter
            # only because -Wall turns on -Wunused, and {-Wunused, -Wextra} does it.
            deeper = any(other != pair and child in got and below(other, a, b)
                         for other, got in extra.items())
            if not deeper:
                edges.add((a, child, value, None, (b,)))
                edges.add((b, child, value, None, (a,)))
    return edges


def ingest(compiler: str, plugin: Plugin | None = None) -> CompilerData:
    """A complete database entry from the binary alone (no option files needed)."""
    plugin = plugin or gcc_plugin.locate(compiler)
    bv = view(plugin)
    flags = [binary_flag(bv, opt) for name, opt in sorted(bv.options.items())]
    describe_aliases(flags)
    per_lang = {LANGS[lang]: derive_edges(bv, lang) for lang in LANGS}
    merged: dict[tuple, list[str]] = {}
    for label, edges in per_lang.items():
        for e in edges:
            merged.setdefault(e, []).append(label)
    edges = [
        Edge(parent=p, child=c, value=v, parent_min=lvl, requires=list(req), languages=langs)
        for (p, c, v, lvl, req), langs in sorted(merged.items(), key=lambda kv: repr(kv[0]))
    ]
    return CompilerData(
        compiler=compiler, family="gcc", version=plugin.version, source_kind="binary",
        source=f"{plugin.gcc} ({plugin.version})", flags=flags, edges=edges,
    )


def plugin_available(compiler: str) -> bool:
    """Can the plugin be had for ``compiler`` (found, or built now into the cache)?"""
    try:
        gcc_plugin.locate(compiler)
    except gcc_plugin.PluginUnavailable:
        return False
    return True
