"""A narrower level answered from a build at a wider one, through the flag database.

Building a project at ``wall`` and ``wextra`` as well as ``all`` triples the work; but a
build at ``all`` printed every diagnostic the narrower levels print, and the flag
database says which options ``-Wall`` turns on. So ``wall`` is answered from the ``all``
build by keeping the diagnostics whose option the narrower level turns on *in the same
state*. Where that is not exact the answer says so, per option, and never guesses:

- the option is on in both, but at another value: ``all`` has ``-Wformat=2`` where
  ``-Wall`` gives ``-Wformat=1``, and ``-Wformat=2`` checks more (the same for
  ``-Warray-bounds=2``, ``-Wimplicit-fallthrough=5``, ``-Wstringop-overflow=4`` …);
- the option's default is decided in the compiler's code (GCC's ``Init(-1)``:
  ``-Wlong-long`` depends on ``-pedantic`` and the standard) and the compiler could not
  be asked, or only part of a clang group is on by default. Where our GCC plugin can
  run in that GCC, the compiler answers: the plugin reports every option's state after
  GCC's own post-option code under the narrower level's flags
  (:func:`analyzer.gccplugin.plugin.run`), and a state still ``-1`` there is left to
  the diagnostic's own code and stays unsure;
- the diagnostic has no option (GCC's pedantic remarks without one), or an option the
  flag database does not know for that compiler.

Dropped exactly: diagnostics in system headers when the wider level had
``-Wsystem-headers`` (GCC's ``all`` has it) and the narrower one has not, and every
option the narrower level leaves off. Errors are kept: no warning flag makes them.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from typing import Callable

from flagdb.closure import Index, closure, lang_name

from analyzer.overhead.levels import FIXED
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
    ``flags``: the compiler's defaults, then what the flags turn on (clang's
    ``-Weverything`` turns on every warning)."""
    on = {f.name: ("1" if f.default == "on" else f.default) for f in index.data.flags
          if f.default not in OFF + UNDECIDED and not f.alias_of}
    if "-Weverything" in flags:
        on.update({f.name: "1" for f in index.data.flags if f.kind == "warning" and not f.alias_of})
    on.update(closure(index, [f for f in flags if f != "-Weverything"], lang_name(language)))
    return {name: value for name, value in on.items() if value not in OFF}


def in_system_header(d: Diagnostic) -> bool:
    """A diagnostic in a header outside the tree: /usr/include, the compiler's own."""
    return bool(d.file) and (d.file.startswith("/") or d.file.startswith("<"))


def as_level(build: Build, level: str, index: Index,
             decided: Decided | None = None) -> tuple[Build, list[Uncertain]]:
    """``build`` (at a wider level) as a build at ``level`` would have printed it: the
    diagnostics known to be printed at ``level``, and those that may or may not be,
    per option with the reason. ``decided`` asks the compiler what its code decides."""
    narrow = {lang: list(FIXED[level]) for lang in build.flags}
    wide_on = {lang: states(index, flags, lang) for lang, flags in build.flags.items()}
    narrow_on = {lang: states(index, flags, lang) for lang, flags in narrow.items()}
    for lang, flags in narrow.items():
        binary = decided(flags, lang) if decided is not None else None
        for f in index.data.flags:
            value = binary.get(f.name) if binary is not None and f.default in UNDECIDED else None
            if value is None or value == "-1":
                continue   # not asked, or still left to the diagnostic's code
            if value in OFF:
                narrow_on[lang][f.name] = "0"     # known off: "out" below, not unsure
            else:
                narrow_on[lang][f.name] = value
    tu_language = {t.tu: t.language for t in build.tus}
    system_dropped = any("-Wsystem-headers" in fl for fl in build.flags.values()) \
        and not any("-Wsystem-headers" in fl for fl in narrow.values())
    kept: list[Diagnostic] = []
    unsure: dict[tuple[str | None, str], list[Diagnostic]] = defaultdict(list)
    for d in build.diagnostics:
        if d.severity in ALWAYS:
            kept.append(d)
            continue
        if system_dropped and in_system_header(d):
            continue
        verdicts = {_verdict(d.option, index, wide_on.get(lang, {}), narrow_on.get(lang, {}))
                    for lang in {tu_language.get(tu, "c") for tu in d.tus} or {"c"}}
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


def _verdict(option: str | None, index: Index, wide: dict[str, str], narrow: dict[str, str]) -> str:
    """``in``, ``out``, or why it cannot be said."""
    if option is None:
        return "no option controls it, so no flag says whether it is printed"
    hit = index.target(option)
    if hit is None:
        return "not in the flag database"
    flag = hit[0]
    name = flag.name
    if narrow.get(name) == "0":
        return "out"
    if name not in narrow:
        if flag.default in UNDECIDED:
            return f"{name}'s default is decided " + ("in the compiler's code" if flag.default == "code"
                                                      else "per diagnostic (part of the group is on)")
        return "out"
    if narrow[name] != wide.get(name, narrow[name]):
        return f"{name} is {wide[name]} at the build's level and {narrow[name]} here"
    return "in"
