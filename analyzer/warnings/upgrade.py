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
3. the escape hatch, proven: the switch that restores the old behaviour (GCC 14:
   ``-fpermissive``; GCC 15's C23 default: ``-std=gnu17``; GCC 16's C++20 default:
   ``-std=gnu++17``; otherwise ``-Wno-error=`` of each option), built, and whether the
   build then succeeds;
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
from dataclasses import replace
from pathlib import Path
from typing import Any

from flagdb.check import check_in_db
from warnscope.compilers import CompilerId
from warnscope.errors import BadInput, NotIngested

from analyzer.projects.cell import BuildStatus
from analyzer.projects.levels import language_word
from analyzer.projects.options import BuildOptions
from analyzer.projects.recipes import Recipe, language_of
from analyzer.runtime.progress import Progress, as_progress
from analyzer.runtime.toolchain import Toolchain
from analyzer.warnings import logs, queries, runner, store
from analyzer.warnings.results import (Build, CheckFlip, Diagnostic, EscapeHatch, Environment,
                                       MacroChange, NewError, OptionChange, StdDefault, Upgrade,
                                       UpgradePair)

#: the level of the compared builds: the project's own flags, nothing added
LEVEL = "default"
#: the level of the builds that prove an escape hatch (the hatch's flags, per compiler)
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
    _ensure(conn, recipe, source, [old, *new], LEVEL, kept, progress, executor, workers)
    before = _stored(conn, recipe, old, LEVEL)
    pairs = []
    for tc in new:
        after = _stored(conn, recipe, tc, LEVEL)
        errors = new_errors(before, after)
        hatch = None
        if after.status != BuildStatus.OK and errors:
            flags, why = escape_hatch(tc, before, after, errors)
            if flags:
                hatch = _prove(conn, recipe, source, tc, flags, why, kept, progress, executor, workers)
        pairs.append(_pair(conn, old, tc, before, after, errors, hatch))
    return Upgrade(project=recipe.name, origin=before.origin, level=LEVEL, pairs=pairs)


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
    hatches = {b.compiler: b for b in store.builds(conn, project, new, HATCH_LEVEL)}
    pairs = []
    for name in new:
        errors = new_errors(builds[old], builds[name])
        h = hatches.get(name)
        why = escape_hatch(CompilerId.parse(name), builds[old], builds[name], errors)[1] if errors else ""
        hatch = None if h is None else _hatch_of(h, why=why)
        tcs = (_installed(old), _installed(name)) if systems else (None, None)
        pairs.append(_pair(conn, *tcs, builds[old], builds[name], errors, hatch))
    return Upgrade(project=project, origin=builds[old].origin, level=LEVEL, pairs=pairs)


def _installed(name: str) -> Toolchain | None:
    """The compiler a stored build was made by, where it is still installed (its system
    is then compared); None where it is not."""
    from analyzer.runtime.toolchain import resolve
    from warnscope.errors import WarnscopeError
    try:
        return resolve(name)
    except WarnscopeError:
        return None


def _ensure(conn, recipe: Recipe, source, tcs: list[Toolchain], level: str, opts: BuildOptions,
            progress, executor, workers) -> None:
    """Build each of ``tcs`` at ``level`` whose stored build does not answer: none, one of
    another version of the compiler or another -O level, or a failed one that stopped at
    its first error."""
    todo = []
    for tc in tcs:
        stored = store.builds(conn, recipe.name, [tc.name], level, with_diagnostics=False)
        b = stored[0] if stored else None
        if b is None or b.compiler_version != tc.version or b.opt != opts.opt \
                or (b.status != BuildStatus.OK and not b.keep_going) \
                or (level in opts.custom and {k: v for k, v in b.flags.items() if k in recipe.languages}
                    != _expand(opts.custom[level], recipe.languages)):
            todo.append(tc)
    if todo:
        runner.run(conn, recipe, source, todo, [level], opts, progress, executor, workers)


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


def escape_hatch(tc: Toolchain, before: Build, after: Build,
                 errors: list[NewError]) -> tuple[list[str], str]:
    """The switches that restore the old behaviour for ``errors``, as flag-set words
    (``c:`` for C compiles only), and why: a standard whose default changed kept at the
    old one (where the project pins none); GCC 14's C permerrors made warnings again
    (``-fpermissive``); every other option's error a warning (``-Wno-error=``)."""
    words: list[str] = []
    why: list[str] = []
    pinned = any(o.startswith("-std=") for o in after.project_options)
    for lang, dialects, word in (("c", C_DIALECTS, "c:"), ("c++", CXX_DIALECTS, "c++:")):
        was, now = before.std_defaults.get(lang), after.std_defaults.get(lang)
        if was and now and was != now and not pinned and was in dialects \
                and any(language_of(e.file or "") == lang for e in errors if e.file):
            words.append(f"{word}-std={dialects[was]}")
            why.append(f"{after.compiler} compiles {'C' if lang == 'c' else 'C++'} as "
                       f"{now} by default, {before.compiler} as {was}; -std={dialects[was]} "
                       "keeps the old one")
    c_options = {e.option for e in errors if e.option and language_of(e.file or "x.c") == "c"}
    if tc.family == "gcc" and tc.major >= 14 and c_options & GCC14_PERMERRORS:
        words.append("c:-fpermissive")
        why.append("GCC 14 made implicit declarations, implicit int, int conversions and "
                   "incompatible pointer types errors in C; -fpermissive makes them warnings")
    covered = GCC14_PERMERRORS if "c:-fpermissive" in words else frozenset()
    others = [f"-Wno-error={o[2:]}" for o in sorted({e.option for e in errors if e.option} - covered)
              if re.fullmatch(r"-W[a-z0-9][a-z0-9=-]*", o)]
    if others:
        words += others
        why.append(f"each {'other ' if why else ''}new error's option made a warning again "
                   "(-Wno-error=)")
    return words, "; ".join(why)


def _prove(conn, recipe: Recipe, source, tc: Toolchain, words: list[str], why: str,
           opts: BuildOptions, progress, executor, workers) -> EscapeHatch:
    """Build with the hatch and say whether the build then succeeds."""
    hopts = replace(opts, custom={**opts.custom, HATCH_LEVEL: words})
    _ensure(conn, recipe, source, [tc], HATCH_LEVEL, hopts, progress, executor, workers)
    return _hatch_of(_stored(conn, recipe, tc, HATCH_LEVEL), why)


def _hatch_of(b: Build, why: str) -> EscapeHatch:
    left = sum(1 for d in b.diagnostics if d.severity in FAILING)
    return EscapeHatch(flags=_hatch_flags(b), why=why, status=b.status, errors_left=left,
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


def _place(e: NewError | Diagnostic) -> tuple:
    return (e.file, e.line, e.option)


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


#: a standard's macro value as its name
STD_NAMES = {"199409L": "C94", "199901L": "C99", "201112L": "C11", "201710L": "C17",
             "202000L": "C2x", "202311L": "C23", "199711L": "C++98", "201103L": "C++11",
             "201402L": "C++14", "201703L": "C++17", "202002L": "C++20", "202302L": "C++23"}


def std_name(value: str | None) -> str:
    """``202311L`` -> ``C23 (202311L)``; unknown values as they are."""
    if value is None:
        return "unknown"
    return f"{STD_NAMES[value]} ({value})" if value in STD_NAMES else value
