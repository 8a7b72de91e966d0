"""``warnscope upgrade``: what happens to a project's build when it moves to the next
compiler.

The builds are warnings builds (:mod:`analyzer.warnings.runner`) at the ``default`` level
(the project's own flags, nothing added), kept going past errors (``make -k``) so that a
failed build lists every error it has, and stored: a second question about the same
compilers builds nothing. From two such builds of one project the report takes, in the
order a team needs them:

1. the configure checks whose outcome differs (the build system's own logs) and the
   generated macros that differ: features silently turned off or on, the worst damage
   because nothing fails;
2. the build's fate with each compiler, and every error the new compiler prints that the
   old did not, with the option that makes it an error and what the old compiler did
   there (printed a warning, or nothing);
3. the escape hatch, proven: the smallest set of switches that restores the old
   behaviour. The candidates (``-Wno-error=`` of each new error's option; GCC 15's C23
   default: ``-std=gnu17``; GCC 16's C++20 default: ``-std=gnu++17``; GCC 14's C errors:
   ``-fpermissive``) are each built alone first, in the order of how exactly each
   restores the old compiler's behaviour, then combinations only as needed
   (:func:`smallest`);
4. what changed under the project: each language's default standard, read from the
   compilers (where the project pins no ``-std``), and the project's own warning options
   that the new compiler takes otherwise (unknown, removed: an error with GCC);
5. the warnings that appear, disappear or are reworded (:func:`queries.diff_of` of what
   each compiler printed as a warning: an error is counted once, under 2);

beside what else differs between the two compilers' systems (a compiler of a Debian root
brings its own C library and libstdc++), so that a result is read as fair or not.
"""
from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, replace
from itertools import combinations
from pathlib import Path
from typing import Any, Callable

from flagdb.check import check_in_db
from warnscope.compilers import CompilerId
from warnscope.errors import BadInput, NotIngested

from analyzer.projects.cell import BuildStatus
from analyzer.projects.levels import language_word
from analyzer.projects.options import BuildOptions
from analyzer.projects.recipes import Recipe, language_of
from analyzer.runtime.progress import Progress, as_progress
from analyzer.runtime.toolchain import Toolchain
from analyzer.warnings import logs, plan, queries, runner, store
from analyzer.warnings.results import (Build, CheckFlip, Diagnostic, EscapeHatch, Environment,
                                       HatchTrial, MacroChange, NewError, OptionChange, StdDefault,
                                       Upgrade, UpgradePair)

#: the level of the compared builds: the project's own flags, nothing added
LEVEL = "default"
#: the level of the builds that prove an escape hatch, followed by the switches of each
#: (:func:`hatch_level`): one stored build per compiler and set of switches
HATCH_LEVEL = "upgrade-hatch"
FAILING = runner.FAILING
#: what GCC 14 made errors in C (each still a warning with -fpermissive)
GCC14_PERMERRORS = frozenset({
    "-Wimplicit-function-declaration", "-Wimplicit-int", "-Wint-conversion",
    "-Wincompatible-pointer-types", "-Wreturn-mismatch", "-Wdeclaration-missing-parameter-type"})
#: a default standard's macro value -> the GNU dialect that keeps it
C_DIALECTS = {"199409L": "gnu89", "199901L": "gnu99", "201112L": "gnu11", "201710L": "gnu17",
              "202000L": "gnu2x", "202311L": "gnu23"}
CXX_DIALECTS = {"199711L": "gnu++98", "201103L": "gnu++11", "201402L": "gnu++14",
                "201703L": "gnu++17", "202002L": "gnu++20", "202302L": "gnu++23"}


def run(conn: sqlite3.Connection, recipe: Recipe, source: tuple[Path, str], old: Toolchain,
        new: list[Toolchain], opts: BuildOptions, progress: Progress | Any = None,
        executor: Any = None, workers: int | None = None) -> Upgrade:
    """Build what is not stored yet, prove each escape hatch, and return the report."""
    progress = as_progress(progress or (lambda _m: None))
    if any(tc.name == old.name for tc in new):
        raise BadInput(f"--from {old.name} is among --to: an upgrade compares two compilers")
    kept = replace(opts, keep_going=True)
    _ensure(conn, recipe, source, [old, *new], [LEVEL], kept, progress, executor, workers)
    before = _stored(conn, recipe, old, LEVEL)
    pairs, afters = [], []
    for tc in new:
        after = _stored(conn, recipe, tc, LEVEL)
        afters.append(after)
        errors = new_errors(before, after)
        hatch = None
        if after.status != BuildStatus.OK and errors:
            def built(sets: list[list[str]], tc=tc) -> list[Build]:
                return _prove(conn, recipe, source, tc, sets, kept, progress, executor, workers)
            hatch = smallest(switches(tc, before, after, errors), errors, built, _failing(before))
        pairs.append(_pair(conn, old, tc, before, after, errors, hatch))
    return Upgrade(project=recipe.name, origin=before.origin, level=LEVEL, pairs=pairs,
                   passed_env=_passed(before, afters))


def from_store(conn: sqlite3.Connection, project: str, old: str, new: list[str],
               systems: bool = False) -> Upgrade:
    """The report from stored builds alone (``--stored``): no build runs. ``systems``:
    compare the two compilers' systems where they are still installed (which asks them);
    without it (the site) what else differs is not known."""
    builds = {b.compiler: b for b in store.builds(conn, project, [old, *new], LEVEL)}
    missing = [c for c in (old, *new) if c not in builds]
    if missing:
        raise NotIngested(f"no stored {LEVEL} build of {project} by {missing[0]}: run "
                          f"warnscope upgrade without --stored to build it")
    pairs = []
    for name in new:
        errors = new_errors(builds[old], builds[name])

        def stored(level: str, name=name) -> Build | None:
            found = store.builds(conn, project, [name], level)
            return found[0] if found else None
        hatch = hatch_of(builds[old], builds[name], stored)
        if hatch is None and errors and builds[name].status != BuildStatus.OK:
            legacy = stored(HATCH_LEVEL)        # the one hatch build an older warnscope stored
            hatch = (EscapeHatch(**vars(_trial(legacy, _failing(builds[old]))), why="")
                     if legacy else None)
        tcs = ((_installed(builds[old]), _installed(builds[name])) if systems
               else (None, None))
        pairs.append(_pair(conn, *tcs, builds[old], builds[name], errors, hatch))
    return Upgrade(project=project, origin=builds[old].origin, level=LEVEL, pairs=pairs,
                   passed_env=_passed(builds[old], [builds[n] for n in new]))


def _passed(before: Build, after: list[Build]) -> list[str]:
    """The variables passed to any of the compared builds (their names)."""
    return sorted({n for b in (before, *after) for n in b.passed_env})


def _installed(build: Build) -> Toolchain | None:
    """The compiler a stored build was made by, where it is still installed (its system
    is then compared): the one of that name whose version is the build's, first as the
    name resolves, then in each root (gcc-14 of the sid root, not of trixie's, for a
    build the sid root's gcc-14 made); None where none is."""
    from analyzer.runtime import roots
    from analyzer.runtime.toolchain import resolve, resolve_in_root
    from warnscope.errors import WarnscopeError
    candidates = [lambda: resolve(build.compiler)]
    candidates += [lambda suite=root.suite: resolve_in_root(build.compiler, suite)
                   for root in roots.all_roots() if build.compiler in root.compilers]
    for candidate in candidates:
        try:
            tc = candidate()
        except WarnscopeError:
            continue
        if tc.version == build.compiler_version:
            return tc
    return None


def _ensure(conn, recipe: Recipe, source, tcs: list[Toolchain], levels: list[str],
            opts: BuildOptions, progress, executor, workers) -> None:
    """Build each of ``tcs`` at each of ``levels`` whose stored build does not answer:
    none, one of another tree (:func:`plan.answers`), one of another version of the
    compiler or another -O level, or a failed one that stopped at its first error. One run
    builds them all (in parallel where it can)."""
    todo: dict[tuple[str, ...], list[Toolchain]] = {}   # the levels to build -> the compilers
    answering = {level: plan.answering(conn, recipe, source, [tc.name for tc in tcs], level)
                 for level in levels}                   # this tree's
    for tc in tcs:
        stale = tuple(level for level in levels
                      if _stale(recipe, tc, answering[level].get(tc.name), level, opts))
        if stale:
            todo.setdefault(stale, []).append(tc)
    for stale, group in todo.items():
        runner.run(conn, recipe, source, group, list(stale), opts, progress, executor, workers)


def _stale(recipe: Recipe, tc: Toolchain, b: Build | None, level: str, opts: BuildOptions) -> bool:
    """Whether ``b``, the stored build of this tree by ``tc`` at ``level``, does not
    answer (see :func:`_ensure`)."""
    return b is None or b.compiler_version != tc.version or b.opt != opts.opt \
        or (b.status != BuildStatus.OK and not b.keep_going) \
        or (level in opts.custom and {k: v for k, v in b.flags.items() if k in recipe.languages}
            != _expand(opts.custom[level], recipe.languages))


def _expand(words: list[str], languages: tuple[str, ...]) -> dict[str, list[str]]:
    """The per-language flags of a flag set of options (as :func:`levels.flags` gives them)."""
    out: dict[str, list[str]] = {lang: [] for lang in languages}
    for word in words:
        only, option = language_word(word)
        for lang in languages:
            if only in (None, lang):
                out[lang].append(option)
    return out


def _stored(conn, recipe: Recipe, tc: Toolchain, level: str) -> Build:
    found = store.builds(conn, recipe.name, [tc.name], level)
    if not found:
        raise NotIngested(f"no {level} build of {recipe.name} by {tc.name} was stored")
    return found[0]


def _hatch_flags(b: Build) -> list[str]:
    """The hatch words a stored hatch build was made with (per language, as given)."""
    c, cxx = b.flags.get("c", []), b.flags.get("c++", [])
    return [*[f"c:{f}" for f in c if f not in cxx], *[f"c++:{f}" for f in cxx if f not in c],
            *[f for f in c if f in cxx]]


def new_errors(before: Build, after: Build) -> list[NewError]:
    """The errors ``after`` prints that ``before`` did not print as errors at the same
    place, each with what ``before`` did there: a warning (the same option, or at the same
    line), or nothing."""
    old_errors = {(d.file, d.line, d.option) for d in before.diagnostics if d.severity in FAILING}
    old_warnings: dict[tuple, list] = {}
    for d in before.diagnostics:
        if d.severity == "warning":
            old_warnings.setdefault((d.file, d.line), []).append(d)
    out = []
    for d in after.diagnostics:
        if d.severity not in FAILING or (d.file, d.line, d.option) in old_errors:
            continue
        near = old_warnings.get((d.file, d.line), [])
        same = next((w for w in near if w.option == d.option), None) or (near[0] if near else None)
        out.append(NewError(file=d.file, line=d.line, column=d.column, option=d.option,
                            message=d.message, was="warning" if same else "nothing",
                            old_message=same.message if same and same.message != d.message else None))
    return out


@dataclass(frozen=True)
class Switch:
    """One candidate switch of the escape hatch: its flag-set word (``c:`` for C compiles
    only) and why it restores the old behaviour."""

    word: str
    why: str


#: why a ``-Wno-error=`` switch restores the old behaviour (one sentence for all of them)
WNO_ERROR_WHY = "-Wno-error= makes a new error's option a warning again"


def switches(tc: Toolchain | CompilerId | None, before: Build, after: Build,
             errors: list[NewError]) -> list[Switch]:
    """The switches that may restore the old behaviour for ``errors``, in the order of how
    exactly each restores the old compiler's: ``-Wno-error=`` of one new error's option
    (that option alone), ``-Wno-error`` where ``-Werror`` made a warning no option
    controls an error (every such warning), then a standard whose default changed kept at the old one (where
    the project pins none: what the old compiler did, with everything else the new
    default changed), then GCC 14's C permerrors made warnings again (``-fpermissive``:
    every such option, and more than the old compiler allowed)."""
    options = sorted({e.option for e in errors if e.option})
    out = [Switch(f"-Wno-error={o[2:]}", WNO_ERROR_WHY) for o in options
           if o != "-Werror" and re.fullmatch(r"-W[a-z0-9][a-z0-9=-]*", o)]
    if "-Werror" in options:     # a warning no option controls, made an error by -Werror
        out.append(Switch("-Wno-error", "-Wno-error makes the warnings -Werror made errors "
                                        "warnings again"))
    pinned = any(o.startswith("-std=") for o in after.project_options)
    for lang, dialects, word in (("c", C_DIALECTS, "c:"), ("c++", CXX_DIALECTS, "c++:")):
        was, now = before.std_defaults.get(lang), after.std_defaults.get(lang)
        if was and now and was != now and not pinned and was in dialects \
                and any(language_of(e.file or "") == lang for e in errors if e.file):
            out.append(Switch(f"{word}-std={dialects[was]}",
                              f"{after.compiler} compiles {'C' if lang == 'c' else 'C++'} as "
                              f"{now} by default, {before.compiler} as {was}; "
                              f"-std={dialects[was]} keeps the old one"))
    c_options = {e.option for e in errors if e.option and language_of(e.file or "x.c") == "c"}
    if tc is not None and tc.profile.gcc and tc.major >= 14 and c_options & GCC14_PERMERRORS:
        out.append(Switch("c:-fpermissive",
                          "GCC 14 made implicit declarations, implicit int, int conversions and "
                          "incompatible pointer types errors in C; -fpermissive makes them warnings"))
    return out


def hatch_level(words: list[str]) -> str:
    """The level a build with the switches ``words`` is stored at: ``upgrade-hatch c:-std=gnu17``."""
    return " ".join([HATCH_LEVEL, *words])


def hatch_words(level: str) -> list[str] | None:
    """The switches of a hatch build's level (None: another level; none: the one hatch
    build an older warnscope stored)."""
    first, *words = level.split() or [""]
    return words if first == HATCH_LEVEL else None


#: a set of switches built, as the stored builds of it: None where one is not stored
Built = Callable[[list[list[str]]], "list[Build] | None"]


def smallest(candidates: list[Switch], errors: list[NewError], built: Built,
             old: set[tuple] | frozenset = frozenset()) -> EscapeHatch | None:
    """The smallest set of ``candidates`` whose build succeeds, with what each switch
    alone did. Each is built alone first; where none builds alone, the smallest set that
    covers every new error by what each switch alone removed (the first of the smallest,
    in the candidates' order) is built, and where it does not build (or no set covers
    them), all of them together. ``built`` builds (or reads) the sets asked for; None
    (nothing stored) where it cannot. A trial's errors left are those not at a place of
    ``old``, the old compiler's errors (configure's failed probes print the same with
    both compilers, and are no error of the move)."""
    if not candidates:
        return None
    alone = built([[s.word] for s in candidates])
    if alone is None:
        return None
    combined: list[Build] = []
    chosen = next((b for b in alone if b.status == BuildStatus.OK), None)
    if chosen is None and len(candidates) > 1:
        wanted = {_place(e) for e in errors}
        cover = _cover([wanted - _failing(b) for b in alone], wanted)
        every = list(range(len(candidates)))
        for chosen_set in ([cover] if cover is not None and 1 < len(cover) < len(every) else []) + [every]:
            found = built([[candidates[i].word for i in chosen_set]])
            if found is None:
                return None
            combined.append(found[0])
            if found[0].status == BuildStatus.OK:
                break
        chosen = combined[-1]
    elif chosen is None:
        chosen = alone[0]
    whys = {s.word: s.why for s in candidates}
    why = "; ".join(dict.fromkeys(whys[w] for w in _words_of(chosen, candidates)))
    return EscapeHatch(**vars(_trial(chosen, old)), why=why, alone=[_trial(b, old) for b in alone],
                       combined=[_trial(b, old) for b in combined])


def _place(e: NewError | Diagnostic) -> tuple:
    return (e.file, e.line, e.option)


def _failing(b: Build) -> set[tuple]:
    """The places of ``b``'s errors."""
    return {_place(d) for d in b.diagnostics if d.severity in FAILING}


def _cover(fixes: list[set[tuple]], wanted: set[tuple]) -> list[int] | None:
    """The smallest set of switches (their indices, in order) whose removed errors
    together are ``wanted``: those that alone remove an error no other one does, then the
    fewest of the rest, the first in order; None where no set does."""
    needed = sorted({next(i for i, f in enumerate(fixes) if place in f)
                     for place in wanted if sum(place in f for f in fixes) == 1})
    left = wanted - set().union(*(fixes[i] for i in needed))
    rest = [i for i in range(len(fixes)) if i not in needed and fixes[i] & left]
    if left - set().union(*(fixes[i] for i in rest)):
        return None
    for size in range(len(rest) + 1):
        for more in combinations(rest, size):
            if not left - set().union(*(fixes[i] for i in more)):
                return sorted([*needed, *more])
    return None


def hatch_of(before: Build, after: Build, stored: Callable[[str], Build | None]) -> EscapeHatch | None:
    """The escape hatch of the move from ``before`` to ``after`` as stored builds answer
    it (``stored(level)``: the to-compiler's build at that level, None where there is
    none); None where ``after`` builds, prints no new error, or a build the search makes
    for them is not stored."""
    errors = new_errors(before, after)
    if after.status == BuildStatus.OK or not errors:
        return None
    try:
        cid: CompilerId | None = CompilerId.parse(after.compiler)
    except ValueError:      # a name that is no id: a path
        cid = None

    def built(sets: list[list[str]]) -> list[Build] | None:
        found = [stored(hatch_level(words)) for words in sets]
        return None if any(b is None for b in found) else found   # type: ignore[return-value]
    return smallest(switches(cid, before, after, errors), errors, built, _failing(before))


def _words_of(b: Build, candidates: list[Switch]) -> list[str]:
    """The candidates' words a trial build was made with (its level names them)."""
    words = hatch_words(b.level) or []
    return [s.word for s in candidates if s.word in words]


def _prove(conn, recipe: Recipe, source, tc: Toolchain, sets: list[list[str]],
           opts: BuildOptions, progress, executor, workers) -> list[Build]:
    """Build each set of switches (where its stored build does not answer) and return the
    builds."""
    levels = [hatch_level(words) for words in sets]
    hopts = replace(opts, custom={**opts.custom, **dict(zip(levels, sets))})
    _ensure(conn, recipe, source, [tc], levels, hopts, progress, executor, workers)
    return [_stored(conn, recipe, tc, level) for level in levels]


def _trial(b: Build, old: set[tuple] | frozenset) -> HatchTrial:
    """One trial build as the report says it: its errors left are those not at a place
    of ``old`` (the old compiler's errors)."""
    left = sum(1 for d in b.diagnostics if d.severity in FAILING and _place(d) not in old)
    return HatchTrial(flags=_hatch_flags(b), status=b.status, errors_left=left,
                      error=b.error if b.status != BuildStatus.OK else None)


def _pair(conn, old_tc: Toolchain | None, new_tc: Toolchain | None, before: Build, after: Build,
          errors: list[NewError], hatch: EscapeHatch | None) -> UpgradePair:
    notes = [f"{b.compiler}'s {c.name} was not read: {c.error}"
             for b in (before, after) for c in b.checks if c.system == "files"]
    flips, macros = configure_flips(before, after)
    return UpgradePair(
        old=before.compiler, new=after.compiler,
        switching=before.compiler.split("-")[0] != after.compiler.split("-")[0],
        old_status=before.status, new_status=after.status, old_error=before.error,
        new_error=after.error, flips=flips, macros=macros, new_errors=errors, hatch=hatch,
        defaults=std_defaults(before, after), options=option_changes(conn, before, after, notes),
        warnings=queries.diff_of(*warnings_only(before, after, errors)),
        environment=environment(old_tc, new_tc, before, after), notes=notes,
        old_log=_log(before), new_log=_log(after))


def warnings_only(before: Build, after: Build, errors: list[NewError]) -> tuple[Build, Build]:
    """The two builds with what each compiler printed as a warning, for the warnings'
    diff: every error is counted under the new errors (or was one before too), and so is
    an old warning that the new compiler prints as an error at the same place and option."""
    became = {_place(e) for e in errors if e.was == "warning" and e.option}
    return (replace(before, diagnostics=[d for d in before.diagnostics if d.severity == "warning"
                                         and _place(d) not in became]),
            replace(after, diagnostics=[d for d in after.diagnostics if d.severity == "warning"]))


def _log(b: Build) -> str | None:
    found = logs.kept(b)
    return str(found) if found else None


#: a compiler driver's path or name as configure prints it (``checking for gcc``: the
#: wrapper's path; ``whether gcc-13 accepts -g``)
_DRIVER = re.compile(r"(?:\S*/)?(?:[a-z0-9_]+-(?:linux|none)[a-z0-9_-]*-)?"
                     r"(?:gcc|g\+\+|clang|clang\+\+|cc|c\+\+)(?:-[0-9]+(?:\.[0-9]+)*)?(?![\w+.-])")


def _neutral(text: str, names: list[str]) -> str:
    """A check's name or result with the compilers' own names and paths made one
    (``checking whether gcc-13 accepts -g`` and ``… gcc-14 …`` are one check)."""
    text = _DRIVER.sub("$CC", text)
    for name in sorted(names, key=len, reverse=True):
        if name:
            text = text.replace(name, "$CC")
    return text


def configure_flips(before: Build, after: Build) -> tuple[list[CheckFlip], list[MacroChange]]:
    """The checks whose result differs (matched by build system and name, the compilers'
    names made one) and the generated macros that differ."""
    names = [before.compiler, after.compiler, *(_driver_words(before)), *(_driver_words(after))]
    old = dict(_keyed(before.checks, names))
    flips = []
    for key, c in _keyed(after.checks, names):
        was = old.get(key)
        if was is None or _neutral(was.result, names) == _neutral(c.result, names):
            continue
        flips.append(CheckFlip(system=c.system, name=c.name, old=was.result, new=c.result,
                               error=c.error, old_error=was.error))
    macros = []
    for file in sorted(set(before.macros) | set(after.macros)):
        a, b = before.macros.get(file, {}), after.macros.get(file, {})
        for name in sorted(set(a) | set(b)):
            x, y = a.get(name), b.get(name)
            if x != y and (x is None or y is None or _neutral(x, names) != _neutral(y, names)):
                macros.append(MacroChange(file, name, x, y))   # not FFTW_CC: the compiler's own name
    return flips, macros


def _keyed(checks, names: list[str]) -> list[tuple[tuple[str, str, int], object]]:
    """Each check keyed by build system, neutral name and which asking of that name it
    is: a configure that asks one question twice (mawk's ``checking for ctags``, first
    for the program's name, then whether to use it) is two checks, each matched with its
    own."""
    seen: dict[tuple[str, str], int] = {}
    out = []
    for c in checks:
        if c.system == "files":
            continue
        key = (c.system, _neutral(c.name, names))
        seen[key] = seen.get(key, 0) + 1
        out.append(((*key, seen[key]), c))
    return out


def _driver_words(b: Build) -> list[str]:
    """The words a build's configure may print for its compiler: the id's parts
    (``gcc-14``, ``gcc``), and the version's."""
    words = [b.compiler]
    m = re.search(r"\b(\d+\.\d+\.\d+)\b", b.compiler_version)
    if m:
        words.append(m[1])
    return words


def std_defaults(before: Build, after: Build) -> list[StdDefault]:
    """Each language's default standard in the two compilers, with the ``-std=`` options
    the project gives (none: the default is the project's standard); only languages whose
    default differs."""
    out = []
    pins = [o for o in after.project_options if o.startswith("-std=")]
    used = {t.language for t in (*before.tus, *after.tus)} or {"c", "c++"}
    for lang in [lang for lang in ("c", "c++") if lang in used]:
        was, now = before.std_defaults.get(lang), after.std_defaults.get(lang)
        if was != now:
            out.append(StdDefault(lang, was, now, pins))
    return out


def option_changes(conn, before: Build, after: Build, notes: list[str]) -> list[OptionChange]:
    """The project's own warning options that the new compiler takes otherwise than the
    old (flags check of each, on the flag database: unknown, removed, ...)."""
    options = [o for o in dict.fromkeys([*before.project_options, *after.project_options])
               if o.startswith("-W") and not o.startswith("-Wl,")]
    if not options:
        return []
    try:
        results = check_in_db(conn, [before.compiler, after.compiler], options)
    except NotIngested as exc:
        notes.append(f"the project's own options were not checked: {exc}")
        return []
    by = {(r.flag, r.compiler): r for r in results}
    out = []
    for o in options:
        a, b = by.get((o, before.compiler)), by.get((o, after.compiler))
        if a is None or b is None or a.status == b.status:
            continue
        detail = (f"alias of {b.alias_of}" if b.alias_of else "") or b.suggestion or b.reason or ""
        out.append(OptionChange(o, getattr(a.status, "value", str(a.status)),
                                getattr(b.status, "value", str(b.status)), detail or ""))
    return out


def environment(old_tc: Toolchain | None, new_tc: Toolchain | None, before: Build,
                after: Build) -> Environment:
    """Where each compiler ran, and what differs besides the compiler: the C library and
    libstdc++ of each system (the host's, or a Debian root's dpkg records)."""
    where = [tc.where if tc is not None else "" for tc in (old_tc, new_tc)]
    differs: list[str] = []
    if old_tc is not None and new_tc is not None and old_tc.root != new_tc.root:
        a, b = _system_packages(old_tc), _system_packages(new_tc)
        for pkg in sorted(set(a) | set(b)):
            if a.get(pkg) != b.get(pkg):
                differs.append(f"{pkg} {a.get(pkg, 'absent')} -> {b.get(pkg, 'absent')}")
        if not differs:
            differs.append("another system (its C library and libstdc++ are the same versions)")
    return Environment(old=where[0], new=where[1], differs=differs)


#: the packages besides the compiler that a build's result depends on
SYSTEM_PACKAGES = ("libc6", "libc6-dev", "libstdc++6", "make", "binutils")


def _system_packages(tc: Toolchain) -> dict[str, str]:
    """The versions of :data:`SYSTEM_PACKAGES` dpkg records on the compiler's system."""
    status = Path(tc.root or "/") / "var/lib/dpkg/status"
    found: dict[str, str] = {}
    try:
        text = status.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return found
    for block in text.split("\n\n"):
        pkg = re.search(r"^Package: (\S+)$", block, re.M)
        ver = re.search(r"^Version: (\S+)$", block, re.M)
        if pkg and ver and pkg[1] in SYSTEM_PACKAGES and "install ok installed" in block:
            found[pkg[1]] = ver[1]
    return found
