"""A narrower level answered from a build at a wider one, through the flag database.

Building a project at ``wall`` and ``wextra`` as well as ``all`` triples the work; but a
build at ``all`` printed every diagnostic the narrower levels print, and the flag
database says which options ``-Wall`` turns on. So ``wall`` is answered from the ``all``
build by keeping the diagnostics whose option the narrower level turns on *in the same
state*. Where GCC's own code decides a state (``Init(-1)`` in its option files:
``-Wlong-long`` depends on ``-pedantic`` and the standard; or a default set for a
language standard: GCC 16's C++20 turns ``-Wdeprecated-enum-enum-conversion`` on), the
option files cannot say; where our GCC plugin can run in that GCC, GCC answers
instead: the plugin reports every option's state after GCC's own option processing
under each level's flags (:func:`analyzer.gccplugin.plugin.run`), and those states
replace the flag database's for both levels. Where the answer is not exact it says so,
per option, and never guesses:

- the option is on in both, but at another value: ``all`` has ``-Wformat=2`` where
  ``-Wall`` gives ``-Wformat=1``, and ``-Wformat=2`` checks more (the same for
  ``-Warray-bounds=2``, ``-Wimplicit-fallthrough=5``, ``-Wstringop-overflow=4`` …);
- the state is left to the diagnostic's own code (a GCC state still ``-1`` after option
  processing; without the plugin, every ``Init(-1)``), or only part of a clang group is
  on by default;
- the diagnostic has no option (GCC's pedantic remarks without one), or an option the
  flag database does not know for that compiler.

Dropped exactly: diagnostics in system headers when the wider level had
``-Wsystem-headers`` (GCC's ``all`` has it) and the narrower one has not, and every
option the narrower level leaves off. Errors are kept: no warning flag makes them.

Beyond it: a compiler's code can make one option's diagnostics depend on another flag
that no table connects. clang 19 and 21 print their signedness mismatches of format
strings under ``-Wformat``, but only when ``-Wformat-signedness`` is on, which
``-Weverything`` turns on and ``-Wall`` does not: two such diagnostics of zlib are placed
at ``wall`` and a real ``wall`` build does not print them
(``python -m bench.zoo_warnings check`` measures this against real builds).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from typing import Callable

from flagdb.closure import Index, closure, lang_name

from analyzer.projects.levels import FIXED
from analyzer.warnings.results import Build, Diagnostic, Uncertain

#: the levels that can be answered from a wider build: their flags do not depend on the compiler
DERIVABLE = tuple(level for level in FIXED if level != "off")
#: severities no warning option makes or removes
ALWAYS = ("error", "fatal", "ice")
#: a state in which a flag is off
OFF = ("off", "0", "")
#: defaults that say neither on nor off
UNDECIDED = ("partial", "code")
#: a language's option states (name -> value) under a list of flags, as the compiler
#: itself ends up with them after its post-option code; None where it cannot be asked
Decided = Callable[[list[str], str], "dict[str, str] | None"]


def states(index: Index, flags: list[str], language: str) -> dict[str, str]:
    """Every warning flag that is on (name -> value) in a compile of ``language`` given
    ``flags``, as the flag database says: the compiler's defaults, then what the flags
    turn on (clang's ``-Weverything`` turns on every warning)."""
    on = {f.name: ("1" if f.default == "on" else f.default) for f in index.data.flags
          if f.default not in OFF + UNDECIDED and not f.alias_of}
    if "-Weverything" in flags:
        on.update({f.name: "1" for f in index.data.flags if f.kind == "warning" and not f.alias_of})
    on.update(closure(index, [f for f in flags if f != "-Weverything"], lang_name(language)))
    return {name: value for name, value in on.items() if value not in OFF}


def undecided(index: Index) -> dict[str, str]:
    """The flags whose default the flag database cannot give, and why."""
    return {f.name: f"{f.name}'s default is decided " + ("in the compiler's code" if f.default == "code"
                                                        else "per diagnostic (part of the group is on)")
            for f in index.data.flags if f.default in UNDECIDED}


def binary_states(binary: dict[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """The compiler's own states: those on (name -> value), and those it left undecided."""
    on = {name: value for name, value in binary.items() if value not in OFF and value != "-1"}
    left = {name: f"{name} is left to the diagnostic's own code (-1 after option processing)"
            for name, value in binary.items() if value == "-1"}
    return on, left


def in_system_header(file: str | None) -> bool:
    """A diagnostic's file outside the tree: /usr/include, the compiler's own headers
    (``<gcc>/include/stddef.h``); the runner names every file of the tree relative to it."""
    return bool(file) and file.startswith(("/", "<"))


def as_level(build: Build, level: str, index: Index,
             decided: Decided | None = None) -> tuple[Build, list[Uncertain]]:
    """``build`` (at a wider level) as a build at ``level`` would have printed it: the
    diagnostics known to be printed at ``level``, and those that may or may not be,
    per option with the reason. ``decided`` asks the compiler for its own states."""
    narrow = {lang: list(FIXED[level]) for lang in build.flags}
    wide_on, narrow_on, unsure_of = {}, {}, {}
    for lang in build.flags:
        wide = decided(build.flags[lang], lang) if decided is not None else None
        mine = decided(narrow[lang], lang) if decided is not None else None
        if wide is not None and mine is not None:
            wide_on[lang] = binary_states(wide)[0]
            narrow_on[lang], unsure_of[lang] = binary_states(mine)
        else:
            wide_on[lang] = states(index, build.flags[lang], lang)
            narrow_on[lang], unsure_of[lang] = states(index, narrow[lang], lang), undecided(index)
    tu_language = {t.tu: t.language for t in build.tus}
    system_dropped = any("-Wsystem-headers" in fl for fl in build.flags.values()) \
        and not any("-Wsystem-headers" in fl for fl in narrow.values())
    kept: list[Diagnostic] = []
    unsure: dict[tuple[str | None, str], list[Diagnostic]] = defaultdict(list)
    for d in build.diagnostics:
        if d.severity in ALWAYS:
            kept.append(d)
            continue
        if system_dropped and in_system_header(d.file):
            continue
        languages = {tu_language.get(tu, "c") for tu in d.tus} or {"c"}
        verdicts = {_verdict(d.option, index, wide_on.get(lang, {}), narrow_on.get(lang, {}),
                             unsure_of.get(lang, {}))
                    for lang in languages}
        if verdicts == {"in"}:
            kept.append(d)
        elif verdicts != {"out"}:
            why = sorted(v for v in verdicts if v not in ("in", "out")) or ["on in one language, off in another"]
            unsure[(d.option, "; ".join(why))].append(d)
    uncertain = [Uncertain(option=option, count=len(ds), printed=sum(d.printed for d in ds), why=why)
                 for (option, why), ds in unsure.items()]
    uncertain.sort(key=lambda u: (-u.count, u.option or ""))
    derived = replace(build, level=level, flags=narrow, diagnostics=kept)
    return derived, uncertain


def _verdict(option: str | None, index: Index, wide: dict[str, str], narrow: dict[str, str],
             unsure_of: dict[str, str]) -> str:
    """``in``, ``out``, or why it cannot be said."""
    if option is None:
        return "no option controls it, so no flag says whether it is printed"
    hit = index.target(option)
    if hit is None:
        return "not in the flag database"
    name = hit[0].name
    if name not in narrow:
        return unsure_of.get(name, "out")
    if narrow[name] != wide.get(name, narrow[name]):
        return f"{name} is {wide[name]} at the build's level and {narrow[name]} here"
    return "in"
