"""The advice: the evidence of every family joined into one row per candidate flag, the
rules' verdict on each (:mod:`analyzer.advise.rules`), and the flags each compiler of
the list gets (:class:`~analyzer.advise.targets.Target`).

Candidates are every warning flag any compiler of the list knows for the project's
languages: GCC's ``all`` set (each flag that takes no value, level options at their top
level: ``-Wformat=2``), every clang warning group that does something; the same name in
GCC and clang is one row. For each row and compiler:

- *known*: the name resolves in that compiler's flag data (an alias counts: GCC's
  ``-Wimplicit-fallthrough`` is ``-Wimplicit-fallthrough=3``), for a project language;
- *on*: the lowest of default, ``-Wall``, ``-Wextra`` that has it on in the typed state
  (``-Wformat=2`` is not on at ``-Wall``, which gives ``-Wformat=1``);
- *prints*: the diagnostics of the build at ``all`` under any option the flag turns on
  (its closure) and the base has off, in the project's files and outside them; with a
  compiler that has the flag on at the base already, what it prints there: its options
  the base has on at the level the build at ``all`` ran them (GCC's ``all`` runs
  ``-Wimplicit-fallthrough=5``, whose diagnostics say nothing of the base's ``=3``);
- *ub*: the corpus cases an option it turns on catches, where the corpus's warning runs
  had the flag on: the scores of ``ub detectors`` where the database has them (caught at
  the case's ub-line, false alarms on the fixed twins), else the warning checks of ``ub
  run`` (fired anywhere in the case); :mod:`analyzer.advise.catches`;
- *cost*: from the newest finished ``overhead attribute`` of the project.
"""
from __future__ import annotations

import re
import shlex
import sqlite3
from dataclasses import dataclass, field

from flagdb import store as flag_store
from flagdb.closure import Index, closure, lang_name, typed_on
from flagdb.compare import spans
from flagdb.results import HistoryEntry, Span
from flagdb.names import safe_word, shown
from flagdb.views import everything
from warnscope.compilers import CompilerId
from warnscope.errors import BadInput
from warnscope.profiles import profile

from analyzer.advise import catches, rules as rules_mod, store
from analyzer.projects import levels
from analyzer.projects.cell import BuildStatus
from analyzer.advise.catches import Fired, Scored
from analyzer.advise.results import (Advice, BuildUsed, Cost, CostStatus, FileCount, Forced, OnAt, ORDER,
                                     PerCompiler, Prints, Row, UbCatch, UbSource, UbUsed, Verdict)
from analyzer.advise.rules import BASE_FLAGS, Rules
from analyzer.advise.targets import Target

#: never a row: the level ``all`` itself, and what changes where warnings are shown
#: rather than what they check
NOT_CANDIDATES = frozenset({"-Weverything", "-Wsystem-headers"})
#: defaults that say neither on nor off
OFF = ("off", "0", "", "partial", "code")
#: the umbrellas a row is grouped under, in order
UMBRELLAS = ("default", "-Wall", "-Wextra", "-Wpedantic")
#: an internal compiler error in a function named for a warning (g++-12's
#: ``in diag_mismatched_tags`` under ``-Wmismatched-tags``)
ICE_FUNCTION = re.compile(r"internal compiler error: in (?:diag_|warn_|maybe_warn_)?([a-z_]+)")
BRACKETED = re.compile(r"\[(-W[A-Za-z0-9#+=,._:-]+)\]")


@dataclass
class Compiler:
    """One compiler of the list as the advice sees it: its flag data and what each
    level has on, per project language."""

    name: str
    index: Index
    languages: list[str]
    #: language -> (flag name -> value) on by default, at -Wall, at -Wall -Wextra
    levels: dict[str, dict[OnAt, dict[str, str]]] = field(default_factory=dict)
    _closures: dict[tuple[str, str | None], frozenset[tuple[str, str]]] = field(default_factory=dict)
    _targets: dict[str, str | None] = field(default_factory=dict)
    _on: dict[tuple[str, OnAt], frozenset[tuple[str, str]]] = field(default_factory=dict)
    _base_names: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict)

    @property
    def family(self) -> str:
        return self.index.data.family

    def closure(self, typed: str, language: str | None) -> frozenset[tuple[str, str]]:
        """What ``typed`` turns on for ``language``: (flag name as stored, its value as
        typed) pairs, so that ``-Wformat=`` at 2 and at 1 are two states."""
        key = (typed, language)
        if key not in self._closures:
            on = closure(self.index, [typed], lang_name(language) if language else None)
            self._closures[key] = self._pairs(on)
        return self._closures[key]

    def names(self, typed: str, language: str | None) -> frozenset[str]:
        return frozenset(n for n, _ in self.closure(typed, language))

    def _pairs(self, on: dict[str, str]) -> frozenset[tuple[str, str]]:
        return frozenset((n, typed_on(self.index, n, v)) for n, v in on.items() if v != "0")

    def target(self, option: str | None) -> str | None:
        """An option as printed or typed -> the flag name it sets (None: unknown)."""
        if option is None:
            return None
        if option not in self._targets:
            hit = self.index.target(option)
            self._targets[option] = hit[0].name if hit is not None else None
        return self._targets[option]

    def on_at(self, language: str, level: OnAt) -> frozenset[tuple[str, str]]:
        """What is on at ``level`` for ``language``, as (name, typed value) pairs."""
        key = (language, level)
        if key not in self._on:
            self._on[key] = self._pairs(self.levels[language][level])
        return self._on[key]

    def base_on(self, language: str, base: str) -> frozenset[tuple[str, str]]:
        """What is on at the base level (``default``, ``wall``, ``wextra``)."""
        return self.on_at(language, rules_mod.BASES[base][-1])

    def base_names(self, language: str, base: str) -> frozenset[str]:
        key = (language, base)
        if key not in self._base_names:
            self._base_names[key] = frozenset(n for n, _ in self.base_on(language, base))
        return self._base_names[key]

    def candidates(self) -> set[str]:
        out = set()
        for language in self.languages:
            if profile(self.family).gcc:
                out.update(everything(self.index.data, lang_name(language)))
            else:
                out.update(f.name for f in self.index.data.flags
                           if f.kind == "warning" and not f.alias_of and not f.ignored and not f.removed
                           and f.c_family and not f.clang.implicit)
        return out - NOT_CANDIDATES


def load_compiler(conn: sqlite3.Connection, name: str, languages: list[str], index: Index | None = None
                  ) -> Compiler:
    """The compiler's flag data (not ingested: flagdb's one line naming the command that
    ingests it; ``index``: loaded already) and its states at default, -Wall and -Wall -Wextra.
    A compiler of another target without its own flag data is read with its host id's
    (:func:`analyzer.projects.levels.data_name`; the advice's notes say so)."""
    if index is None:
        index = Index(flag_store.load(conn, levels.data_name(conn, name), with_messages=False))
    data = index.data
    c = Compiler(name, index, languages)
    defaults = {f.name: ("1" if f.default == "on" else f.default) for f in data.flags
                if f.default not in OFF and not f.alias_of}
    for language in languages:
        tag = lang_name(language)
        c.levels[language] = {
            OnAt.DEFAULT: defaults,
            OnAt.WALL: {**defaults, **closure(c.index, ["-Wall"], tag)},
            OnAt.WEXTRA: {**defaults, **closure(c.index, ["-Wall", "-Wextra"], tag)},
        }
    return c


def check_added(flags: list[str]) -> None:
    """``--add`` flags: warning options of safe characters, or one line naming the first
    that is not (it would be spliced into a build's commands)."""
    for flag in flags:
        if not (flag.startswith("-W") and safe_word(flag)):
            raise BadInput(f"--add {shown(flag)}: expected a warning option (-Wfoo, -Wno-foo, -Wfoo=2) of "
                           "letters, digits and + - = , . _ : #")


def advise(conn: sqlite3.Connection, project: str, languages: list[str], compilers: list[str],
           rules: Rules, add: list[str] = (), ran_now: set[str] = frozenset(), origin: str = "",
           indexes: dict[str, Index] | None = None, evidence: store.UbEvidence | None = None) -> Advice:
    """The advice for ``project`` (as its warnings builds name it) built in
    ``languages`` by ``compilers``, from what the database holds: what ``warnscope
    advise`` prints and the site's advice page shows.

    What a flag catches is read from the scores ``ub detectors`` gave the warning options
    where the database has them, else from ``ub run``'s warning checks; a flag outside
    what the scored runs or the checks had on was not tried there. ``ran_now``: the
    compilers whose builds this command ran; ``indexes``: compilers' flag data loaded
    already, and ``evidence``: the UB scores read already (:func:`store.ub_evidence`),
    both by a caller advising many projects (the site)."""
    check_added(list(add))
    if rules.base not in rules_mod.BASES:
        raise BadInput(f"unknown base level {rules.base!r} (use {', '.join(rules_mod.BASES)})")
    comps = [load_compiler(conn, name, languages, (indexes or {}).get(name)) for name in compilers]
    by_name = {c.name: c for c in comps}
    builds = store.builds(conn, project, compilers)
    scores = (evidence if evidence is not None else store.ub_evidence(conn)).scores
    ub, caught = _ub_evidence(conn, by_name, scores)
    attributions = store.attributions(conn, project, compilers)
    flags_tried = scores.flags if scores is not None else ub.flags
    tried = {c.name: _tried(c, flags_tried.get(c.family)) for c in comps}
    cases = {case.id: case for case in ub.cases}
    indexed = {name: _indexed(by_name[name], b) for name, b in builds.items()}
    names = sorted(set().union(*(c.candidates() for c in comps)))
    spans_of = known_since(conn, names, {**(indexes or {}), **{c.name: c.index for c in comps}})
    rows = []
    for name in names:
        per = [_evidence(name, c, indexed.get(c.name), caught.get(c.name), tried[c.name],
                         attributions.get(c.name), project, rules) for c in comps]
        if not any(p.known for p in per):
            continue
        decision = rules_mod.decide(per, rules)
        rows.append(Row(flag=name, group=_group(name, comps, per), verdict=decision.verdict, compilers=per,
                        known_since=spans_of.get(name, []), ub_cases=decision.cases, rank=decision.rank,
                        trouble=_level_form_trouble(name, comps, per), reasons=decision.reasons))
    rows.sort(key=lambda row: _row_order(row, rules.base))
    forced = [Forced(flag, c.name, bool(langs), langs) for flag in add for c in comps
              for langs in [_known_languages(c, flag)]]
    advice = Advice(
        project=project, origin=origin or next((b.origin for b in builds.values()), ""),
        languages=list(languages), compilers=list(compilers), base=rules.base, rules=rules,
        builds=[_build_used(builds[c], c in ran_now) for c in compilers if c in builds],
        ub=UbUsed(ub.corpus, sum(1 for c in ub.cases if c.ub), sum(1 for c in ub.cases if c.ub is False and not c.fixes),
                  [c for c in compilers if c in ub.compilers],
                  sum(1 for c in ub.cases if c.ub and c.twin in cases),
                  UbSource.DETECTORS if scores is not None else UbSource.CHECKS,
                  store.corpus_name(ub.corpus) if ub.corpus else None),
        rows=rows, targets=[], forced=forced)
    advice.targets = targets(advice, by_name, list(add))
    advice.notes = _notes(advice, builds, attributions, by_name)
    return advice


def _ub_evidence(conn: sqlite3.Connection, by_name: dict[str, "Compiler"], scores: store.WarningScores | None
                 ) -> tuple[store.UbStored, dict[str, Fired | Scored]]:
    """The UB results read (the corpus, its cases, the compilers of the list with results)
    and per such compiler what its options caught: from ``scores`` when given, else from
    the warning checks of the corpus ``ub run`` ran most recently. An option is counted as
    the flag it names (:meth:`Compiler.target`)."""
    def flag_of(compiler: str, option: str) -> str | None:
        return by_name[compiler].target(option)

    if scores is not None:
        ub = store.UbStored(scores.corpus, store.ub_cases(conn, scores.corpus),
                            compilers=[c for c in scores.versions if c in by_name])
        return ub, catches.scored(scores, ub.compilers, flag_of, {case.id: case for case in ub.cases})
    ub = store.ub_results(conn, list(by_name))
    return ub, catches.fired(ub, flag_of, {case.id: case for case in ub.cases})


def known_since(conn: sqlite3.Connection, names: list[str], indexes: dict[str, Index]) -> dict[str, list[Span]]:
    """Per name, per family, the first ingested version that knows it (and the last, if
    the newest does not), as ``flags history`` says: through the flag data of the
    compilers in ``indexes``; for the other ingested versions by their names alone (a
    stored name, its level option ``-Wformat=`` for ``-Wformat=2``, its positive form for
    ``-Wno-``), which spares loading every version of the database."""
    present: dict[str, list[HistoryEntry]] = {name: [] for name in names}
    for row in flag_store.compilers(conn):
        index = indexes.get(row.name)
        if index is not None:
            def knows(name: str) -> bool:
                return index.resolve(name) is not None
        else:
            stored = flag_store.flag_names(conn, row.name)

            def knows(name: str) -> bool:
                return (name in stored or ("=" in name and name.split("=", 1)[0] + "=" in stored)
                        or (name.startswith("-Wno-") and "-W" + name[5:] in stored))
        for name in names:
            present[name].append(HistoryEntry(compiler=row.name, version=row.version, present=knows(name)))
    return {name: spans(entries) for name, entries in present.items()}


def _tried(c: Compiler, flags: list[str] | None) -> frozenset[str] | None:
    """The flag names the UB corpus's checks had on with this compiler (None: all)."""
    if flags is None or "-Weverything" in flags:
        return None
    on = {n for n, v in c.levels[c.languages[0]][OnAt.DEFAULT].items()}
    for language in ("c", "c++"):
        on.update(n for n, v in closure(c.index, flags, lang_name(language)).items() if v != "0")
    return frozenset(on)


def _known_languages(c: Compiler, typed: str) -> list[str]:
    """The project's languages for which ``c`` knows ``typed`` (an alias counts; a flag
    GCC reports as removed does not)."""
    hit = c.index.target(typed)
    if hit is None or hit[0].removed or c.index.resolve(typed)[0].removed:
        return []
    return [lang for lang in c.languages if c.index.applies(hit[0], lang_name(lang))]


def _evidence(name: str, c: Compiler, build: IndexedBuild | None, ub: Fired | Scored | None,
              tried: frozenset[str] | None, attribution: store.StoredAttribution | None, project: str,
              rules: Rules) -> PerCompiler:
    langs = _known_languages(c, name)
    out = PerCompiler(c.name, known=bool(langs), languages=langs)
    if not langs:
        return out
    flag, value = c.index.target(name)
    out.resolves_to = flag.name
    out.noop = flag.ignored
    out.on = _on_at(c, name, flag.name, value, langs)
    # what turning it on adds to the base level: its closure less what the base has on
    names = frozenset(n for lang in langs for n, _ in c.closure(name, lang) - c.base_on(lang, rules.base))
    # a level the base has on at another value (-Wformat= at 1 under -Wformat=2): what it
    # prints counts (the option printed does not say the level), what it catches does not
    raised = frozenset().union(*(names & c.base_names(lang, rules.base) for lang in langs))
    caught_by = names - raised
    if build is not None:
        printing = names
        if rules_mod.base_on(out, rules.base):
            printing = frozenset(n for lang in langs for n, _ in
                                 c.closure(name, lang) & c.base_on(lang, rules.base) & build.on(c, lang))
        out.prints = _prints(build, printing, rules.top_files)
        out.trouble = _build_trouble(c, build.stored, names)
    if ub is not None:
        out.ub = UbCatch(tried=tried is None or flag.name in tried)
        if out.ub.tried and caught_by:
            ub.fill(caught_by, out.ub)
    out.cost = _cost(name, attribution, c.name, project)
    return out


def _on_at(c: Compiler, typed: str, name: str, value: str | None, langs: list[str]) -> OnAt | None:
    """The lowest level with the flag on in the typed state in every language it
    applies to; a clang group with no diagnostic of its own counts as on where all it
    turns on is (``-WCL4`` at ``-Wall -Wextra``)."""
    flag = c.index.flags[name]
    group_only = profile(c.family).clang and flag.clang.direct == 0
    worst = -1
    for lang in langs:
        for i, level in enumerate(OnAt):
            on = c.levels[lang][level]
            if (name in on and on[name] != "0" and (
                    value is None or typed_on(c.index, name, on[name]) == typed_on(c.index, name, value))) \
                    or (group_only and not {p for p in c.closure(typed, lang) - c.on_at(lang, level)
                                            if p[0] != name}):
                worst = max(worst, i)
                break
        else:
            return None
    return list(OnAt)[worst]


def own_file(file: str | None) -> bool:
    """A diagnostic in the project's own files: stored relative to the tree (outside it,
    absolute or ``<gcc>/…``; none for a command-line warning)."""
    return bool(file) and not file.startswith(("/", "<"))


@dataclass
class IndexedBuild:
    """A stored build with its diagnostics by the flag (as stored) their option sets."""

    stored: store.StoredBuild
    by_flag: dict[str | None, list[store.StoredDiagnostic]]
    _on: dict[str, frozenset[tuple[str, str]]] = field(default_factory=dict)

    def on(self, c: Compiler, language: str) -> frozenset[tuple[str, str]]:
        """What the build had on for ``language``, as (name, typed value) pairs: the
        defaults and what its flags turn on."""
        if language not in self._on:
            flags = self.stored.flags.get(language, [])
            self._on[language] = c.on_at(language, OnAt.DEFAULT) | c._pairs(
                closure(c.index, flags, lang_name(language)) if flags else {})
        return self._on[language]


def _indexed(c: Compiler, build: store.StoredBuild) -> IndexedBuild:
    by_flag: dict[str | None, list[store.StoredDiagnostic]] = {}
    for d in build.diagnostics:
        if d.option is not None:
            by_flag.setdefault(c.target(d.option), []).append(d)
    return IndexedBuild(build, by_flag)


def _prints(build: IndexedBuild, names: frozenset[str], top: int) -> Prints:
    p = Prints(complete=build.stored.status == BuildStatus.OK)
    files: dict[str, int] = {}
    options = set()
    for name in names:
        for d in build.by_flag.get(name, ()):
            options.add(d.option)
            if own_file(d.file):
                p.own += 1
                p.own_printed += d.printed
                files[d.file] = files.get(d.file, 0) + 1
            else:
                p.outside += 1
    p.options = sorted(options)
    p.top_files = [FileCount(f, n) for f, n in sorted(files.items(), key=lambda x: (-x[1], x[0]))[:top]]
    return p


def _build_trouble(c: Compiler, build: store.StoredBuild, names: frozenset[str]) -> list[str]:
    """A failed build at ``all`` whose failing diagnostic names an option the flag turns
    on: as an option in brackets, or as the function of an internal compiler error."""
    if build.status == BuildStatus.OK or not build.error:
        return []
    named = {c.target(o) for o in BRACKETED.findall(build.error)}
    for m in ICE_FUNCTION.finditer(build.error):
        named.add(c.target("-W" + m.group(1).replace("_", "-")))
    for d in build.diagnostics:
        if d.severity in ("error", "fatal", "ice") and d.option:
            named.add(c.target(d.option))
    if named & names:
        return [f"{c.name}'s build at all failed: {build.error}"]
    return []


def _cost(name: str, attribution: store.StoredAttribution | None, compiler: str, project: str) -> Cost:
    if attribution is None:
        # attribute takes a recipe, and a compiler for the host's target
        measurable = not project.startswith(("local:", "ccdb:")) and not CompilerId.parse(compiler).target
        return Cost(CostStatus.NONE, command=f"warnscope overhead attribute {project} --compiler {compiler}"
                    if measurable else None)
    base = dict(attribution=attribution.id, metric=attribution.metric, unit=attribution.unit)
    suspect = attribution.suspect(name)
    if suspect is not None:
        off = attribution.off_median
        share = suspect.alone / off if suspect.alone is not None and off else None
        return Cost(CostStatus.MEASURED, alone=suspect.alone, share_of_off=share, **base)
    if attribution.flags_searched > 1:
        return Cost(CostStatus.BELOW_THRESHOLD, **base)
    return Cost(CostStatus.NOT_SEPARATED, **base)


def _group(name: str, comps: list[Compiler], per: list[PerCompiler]) -> str:
    """The umbrella that turns the flag on: the lowest of default, -Wall, -Wextra,
    -Wpedantic with any compiler that knows it; else its topmost group there."""
    best, other = len(UMBRELLAS), ""
    for c, p in zip(comps, per):
        if not p.known or p.noop:
            continue
        if p.on is not None:
            best = min(best, UMBRELLAS.index("default" if p.on is OnAt.DEFAULT else p.on.value))
            continue
        if p.resolves_to in c.names("-Wpedantic", p.languages[0]) and p.resolves_to != c.target("-Wpedantic"):
            best = min(best, UMBRELLAS.index("-Wpedantic"))
            continue
        if not other:
            other = _topmost(c, p.resolves_to)
    return UMBRELLAS[best] if best < len(UMBRELLAS) else other


def _topmost(c: Compiler, name: str) -> str:
    """The group above ``name`` that nothing but -Weverything is above ("" if none)."""
    seen, current = {name}, name
    while True:
        parents = sorted(e.parent for e in c.index.by_child.get(current, [])
                         if e.parent not in NOT_CANDIDATES and e.parent not in seen
                         and e.parent not in UMBRELLAS)
        if not parents:
            return "" if current == name else current
        current = parents[0]
        seen.add(current)


def _level_form_trouble(name: str, comps: list[Compiler], per: list[PerCompiler]) -> list[str]:
    """A level form (``-Wformat=2``) both families know but turn different things on with."""
    if "=" not in name:
        return []
    newest: dict[str, tuple[Compiler, PerCompiler]] = {}
    for c, p in zip(comps, per):
        if p.known and not p.noop:
            newest[c.family] = (c, p)   # the list is in the user's order: keep the last one
    if len(newest) < 2:
        return []
    sets = {}
    for family, (c, p) in newest.items():
        on = set().union(*(c.names(name, lang) for lang in p.languages)) - {p.resolves_to}
        sets[family] = (c.name, {n.rstrip("=") for n in on})
    (a, (an, aset)), (b, (bn, bset)) = sorted(sets.items())
    if aset == bset:
        return []
    parts = []
    if aset - bset:
        parts.append(f"{an} also turns on {', '.join(sorted(aset - bset))}")
    if bset - aset:
        parts.append(f"{bn} also turns on {', '.join(sorted(bset - aset))}")
    return [f"{name} means different things: " + "; ".join(parts)]


def _row_order(row: Row, base: str) -> tuple:
    most = max((p.prints.own for p in row.compilers if p.prints and not rules_mod.base_on(p, base)), default=0)
    return (ORDER.index(row.verdict), -(row.rank or 0), -len(row.ub_cases), -most, row.group, row.flag)


def _build_used(b: store.StoredBuild, ran_now: bool) -> BuildUsed:
    return BuildUsed(b.compiler, b.compiler_version, b.status, b.error, b.opt, len(b.diagnostics), b.tus,
                     b.finished_at, ran_now)


def targets(advice: Advice, comps: dict[str, Compiler], add: list[str]) -> list[Target]:
    """Per compiler: the base level's flags, every "turn on now" flag it knows, and the
    forced ones it knows, for each language it knows them in (a no-op is left out)."""
    out = []
    chosen = advice.by_verdict(Verdict.TURN_ON)
    for name in advice.compilers:
        c = comps[name]
        cid = CompilerId.parse(name)
        flags: dict[str, list[str]] = {}
        for lang in c.languages:
            mine = list(BASE_FLAGS[advice.base])
            for row in chosen:
                p = row.of(name)
                if p.known and not p.noop and lang in p.languages and row.flag not in mine \
                        and not rules_mod.base_on(p, advice.base):
                    mine.append(row.flag)
            for flag in add:
                if lang in _known_languages(c, flag) and flag not in mine:
                    mine.append(flag)
            flags[lang] = mine
        out.append(Target(compiler=name, family=cid.family, major=cid.major, flags=flags, target=cid.target))
    return out


def _notes(advice: Advice, builds: dict[str, store.StoredBuild],
           attributions: dict[str, store.StoredAttribution], comps: dict[str, Compiler] | None = None) -> list[str]:
    notes = []
    for name, c in (comps or {}).items():
        if c.index.data.compiler != name:
            notes.append(levels.borrowed_note(name, c.index.data.compiler,
                                              "what it knows and has on at each level is read"))
    for b in advice.builds:
        if b.status != BuildStatus.OK:
            notes.append(f"{b.compiler}'s build at all failed ({b.error}): its diagnostics up to the failure "
                         "are used, and a row whose option the failure names says so")
    missing = [c for c in advice.compilers if c not in builds]
    if missing:
        notes.append(f"no build at all with {', '.join(missing)}: warnscope warnings run --project "
                     f"{advice.project} --compilers {','.join(missing)} --levels all")
    if advice.ub.corpus is None:
        notes.append("no UB results in this database: warnscope ub run --compilers "
                     f"{','.join(advice.compilers)} --levels O2 finds what each flag catches")
    else:
        lacking = [c for c in advice.compilers if c not in advice.ub.compilers]
        if lacking and advice.ub.source is UbSource.DETECTORS:
            notes.append(f"no warnings scored with {', '.join(lacking)} on {advice.ub.shown}: warnscope ub "
                         f"detectors --corpus {shlex.quote(advice.ub.corpus)} --compilers {','.join(lacking)} --tools warnings")
        elif lacking:
            notes.append(f"no UB results with {', '.join(lacking)}: warnscope ub run --compilers "
                         f"{','.join(lacking)} --levels O2")
        if advice.ub.source is UbSource.DETECTORS:
            notes.append("UB catches are the scores of ub detectors: reported at the case's ub-line, false "
                         "alarms on its fixed twin")
        elif advice.ub.twins == 0:
            notes.append(f"the UB corpus has no fixed twin of its cases: false alarms on correct "
                         f"programs are counted only on its {advice.ub.controls} control programs")
        elif advice.ub.twins < advice.ub.cases:
            notes.append(f"{advice.ub.twins} of the corpus's {advice.ub.cases} UB cases have a fixed twin: false "
                         f"alarms are counted on those and on its {advice.ub.controls} control programs")
    unmeasured = [c for c in advice.compilers if c not in attributions]
    measurable = [c for c in unmeasured if not CompilerId.parse(c).target]
    if unmeasured and advice.project.startswith(("local:", "ccdb:")):
        notes.append(f"no overhead attribution of {advice.project}: costs are unknown (overhead attribute "
                     "measures a recipe's project)")
    elif measurable:
        notes.append(f"no overhead attribution of {advice.project} with {', '.join(unmeasured)}: costs are "
                     f"unknown (warnscope overhead attribute {advice.project} --compiler "
                     f"{measurable[0]} measures one)")
    elif unmeasured:
        notes.append(f"no overhead attribution of {advice.project} with {', '.join(unmeasured)}: costs are "
                     "unknown (overhead attribute measures compilers for the host's target)")
    for f in advice.forced:
        if not f.known:
            notes.append(f"--add {f.flag}: {f.compiler} does not know it: left out of {f.compiler}'s list")
    return notes
