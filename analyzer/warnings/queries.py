"""The questions over stored builds: ``report``, ``diff``, ``top``, ``show``, and
"fires on real code" for the flag side (``fired``, ``fired_by_flag``). Each
returns a dataclass of :mod:`analyzer.warnings.results`; the CLI prints it as JSON or
renders it as text.

They tie back to the flag database: an option it does not know for that compiler is
reported with ``known`` false (never dropped), and a level's options that never fired
are computed from the flag data (``silent``; null when the compiler is not ingested).
"""
from __future__ import annotations

import difflib
import fnmatch
import os
import sqlite3
from collections import defaultdict

from flagdb import store as flag_store
from flagdb.closure import Index, closure, positive_of
from warnscope.compilers import sort_key
from warnscope.errors import BadInput, NoData, NotIngested, NotInstalled, ToolFailed
from warnscope.extract import Tree

from analyzer.projects import levels as levels_mod
from analyzer.projects.cell import BuildStatus
from analyzer.warnings import derive, store
from analyzer.warnings.sarif import MAX_DESCRIPTION
from analyzer.warnings.trees import source_root
from analyzer.warnings.results import (Build, CompilerReport, Diagnostic, Diff, DiffBuilds, DiffEntry, Example,
                                       Fired, OptionCount, OptionDiff, ReportBuilds, Show, Top, TopOption,
                                       Upgrade, UpgradeBuilds, WarningsReport)

#: what never counts as a level's option that could fire
NOT_OPTIONS = {"-w", "-Weverything", "-Werror", "-pedantic", "-Wpedantic"}


class FlagView:
    """The flag database's view of the compilers of a question, loaded once each."""

    def __init__(self, conn: sqlite3.Connection, indexes: dict[str, Index] | None = None):
        self.conn = conn
        #: compiler -> its index; ``indexes`` spares loading those a caller holds already
        self._index: dict[str, Index | None] = dict(indexes or {})
        #: (compiler, flags, language) -> the compiler's own option states, or None
        self._states: dict[tuple, dict[str, str] | None] = {}
        #: compiler -> our GCC plugin built for it, or None
        self._plugins: dict[str, object | None] = {}

    def index(self, compiler: str) -> Index | None:
        """The compiler's flag data; for one of another target without its own, its host
        id's (:func:`analyzer.projects.levels.data_name`: :meth:`borrowed` says which)."""
        if compiler not in self._index:
            try:
                self._index[compiler] = Index(flag_store.load(self.conn, levels_mod.data_name(self.conn, compiler),
                                                              with_messages=False))
            except NotIngested:
                self._index[compiler] = None
        return self._index[compiler]

    def borrowed(self, compiler: str) -> str | None:
        """The host id whose flag data answers for ``compiler`` (None: its own, or none)."""
        index = self.index(compiler)
        if index is None or index.data.compiler == compiler:
            return None
        return index.data.compiler

    def decided_by(self, compiler: str) -> derive.Decided | None:
        """What a GCC decides itself, asked through our plugin where one is built for it
        (none is built here: a query does not compile; ``flags verify`` and ``flags
        closure`` build them), each (flags, language) once per view; None for clang or
        without a plugin."""
        if not compiler.startswith("gcc-") or "@" in compiler:   # a plugin runs in the host's GCC
            return None
        from analyzer.gccplugin import plugin as gcc_plugin
        if compiler not in self._plugins:
            try:
                self._plugins[compiler] = gcc_plugin.locate(compiler, build=False)
            except (NotInstalled, ToolFailed):
                self._plugins[compiler] = None
        found = self._plugins[compiler]
        if found is None:
            return None

        def decided(flags: list[str], language: str) -> dict[str, str] | None:
            key = (compiler, tuple(flags), language)
            if key not in self._states:
                try:
                    self._states[key] = gcc_plugin.run(found, language, flags=flags)["states"]
                except ToolFailed:
                    self._states[key] = None   # the answer stays unsure, as without a plugin
            return self._states[key]
        return decided

    def known(self, compiler: str, option: str | None) -> bool | None:
        """Whether the flag database knows ``option`` for ``compiler`` (None: not ingested;
        a diagnostic without option is neither)."""
        index = self.index(compiler)
        if index is None or option is None:
            return None
        return index.resolve(option) is not None

    def silent(self, build: Build) -> list[str] | None:
        """The options the build's level turns on (as the flag database says, for the
        languages it built) that never fired, nor anything they turn on."""
        index = self.index(build.compiler)
        if index is None:
            return None
        fired = set()
        for d in build.diagnostics:
            hit = index.resolve(d.option) if d.option else None
            if hit is not None:
                fired.add(hit[0].name)
        candidates: dict[str, None] = {}
        for language, flags in build.flags.items():
            if "-Weverything" in flags:
                for f in index.data.flags:
                    if f.kind == "warning" and not f.alias_of and not f.ignored and f.c_family:
                        candidates.setdefault(f.name)
            lang = {"c": "C", "c++": "C++"}.get(language)
            for name in closure(index, [f for f in flags if f not in NOT_OPTIONS], lang):
                flag = index.flags.get(name)
                if flag is not None and not flag.alias_of and not flag.ignored:
                    candidates.setdefault(name)
        return sorted(name for name in candidates
                      if name not in fired and not fired.intersection(closure(index, [name])))


def flag_of(index: Index, option: str) -> str | None:
    """The flag database's name for an option as a compiler printed it (or as a user
    typed it): through an alias to the flag it spells, as :meth:`Index.target` does
    (GCC's ``-Wformat`` is ``-Wformat=``; ``-Wno-shadow`` is ``-Wshadow``); None for a
    name the compiler's entry does not know."""
    hit = index.target(option)
    return hit[0].name if hit is not None else None


def spelled(typed: str) -> str:
    """A flag as typed, as a compiler prints the option: ``-Wno-shadow`` is
    ``-Wshadow``, ``-Wformat=2`` is ``-Wformat=`` (for a compiler without flag data)."""
    name = positive_of(typed)
    return name[:name.index("=") + 1] if "=" in name else name


def _fired_rows(conn: sqlite3.Connection, compilers: list[str] | None, view: FlagView) -> list[tuple]:
    """(key, Fired) per build and flag: the counts of :func:`store.option_counts` merged
    per flag-database name (an alias and its target printed in one build are one flag),
    keyed ``(compiler, name)``; a compiler not in the flag database keys by the option
    as printed and marks the row ``by_spelling``."""
    merged: dict[tuple, Fired] = {}
    for project, compiler, version, level, status, option, count, files, printed in \
            store.option_counts(conn, compilers):
        if option is None:
            continue  # no option controls it: no flag's diagnostic
        index = view.index(compiler)
        name = flag_of(index, option) if index is not None else option
        if name is None:
            continue  # not in the flag database: reported by `warnings report`, on no flag page
        key = (project, compiler, level, name)
        row = merged.get(key)
        if row is None:
            merged[key] = Fired(project=project, compiler=compiler, compiler_version=version, level=level,
                                status=BuildStatus(status), diagnostics=count, files=files, printed=printed,
                                options=[option], by_spelling=index is None)
        else:
            # two spellings of one flag in one build: diagnostics add up; files may be
            # shared, so the larger count is the one known to be true (a lower bound)
            row.diagnostics += count
            row.printed += printed
            row.files = max(row.files, files)
            row.options.append(option)
    return [((k[1], k[3]), f) for k, f in merged.items()]


def _order(rows: list[Fired]) -> list[Fired]:
    return sorted(rows, key=lambda f: (sort_key(f.compiler), f.project, f.level))


def fired(conn: sqlite3.Connection, typed: str, compilers: list[str] | None = None,
          view: FlagView | None = None) -> dict[str, list[Fired]]:
    """"Fires on real code" for one flag: per compiler with stored builds (of
    ``compilers``, default every one), the builds in which the flag fired, how often and
    in how many files. The flag is matched through each compiler's flag data (``typed``
    and every printed option taken to the flag they name, :func:`flag_of`), or by the
    name as printed where the compiler is not ingested. A compiler with builds where the
    flag never fired maps to []; one without builds is absent; a database without
    warnings builds gives {}."""
    view = view or FlagView(conn)
    built = [c for c in store.compilers_built(conn) if compilers is None or c in compilers]
    if not built:
        return {}
    wanted: dict[str, str | None] = {}
    for compiler in built:
        index = view.index(compiler)
        wanted[compiler] = flag_of(index, typed) if index is not None else spelled(typed)
    out: dict[str, list[Fired]] = {c: [] for c in sorted(built, key=sort_key)}
    for (compiler, name), row in _fired_rows(conn, built, view):
        if name is not None and wanted.get(compiler) == name:
            out[compiler].append(row)
    return {c: _order(rows) for c, rows in out.items()}


def fired_by_flag(conn: sqlite3.Connection, view: FlagView | None = None
                  ) -> tuple[dict[tuple[str, str], list[Fired]], list[str]]:
    """Every build's options at once (the site asks for every flag): ``(compiler, flag
    name) -> [Fired]`` (a compiler not ingested keys by the option as printed), and the
    compilers with stored builds."""
    view = view or FlagView(conn)
    out: dict[tuple[str, str], list[Fired]] = defaultdict(list)
    for key, row in _fired_rows(conn, None, view):
        out[key].append(row)
    return {k: _order(v) for k, v in out.items()}, sorted(store.compilers_built(conn), key=sort_key)


def with_show(conn: sqlite3.Connection, info, index: Index):
    """``flags show``'s result (a :class:`flagdb.results.ShowResult` of ``index``'s
    compiler) with its "fires on real code" filled in: the builds of that compiler in
    which the flag fired ([] none; left None when the compiler has no build)."""
    found = fired(conn, info.typed, [info.compiler], FlagView(conn, {info.compiler: index}))
    info.real_code = found.get(info.compiler)
    return info


def with_history(conn: sqlite3.Connection, typed: str, entries: list) -> list:
    """``flags history``'s entries (:class:`flagdb.results.HistoryEntry`, one per
    ingested version) each with the builds of its version in which the flag fired
    (left None for a version without builds). Builds by compilers the flag database
    does not hold have no entry here: ``warnings report`` lists them."""
    found = fired(conn, typed, [e.compiler for e in entries])
    for e in entries:
        e.real_code = found.get(e.compiler)
    return entries


def report(conn: sqlite3.Connection, project: str, compilers: list[str] | None = None,
           level: str | None = None, as_level: str | None = None) -> WarningsReport:
    """Per build of ``project``: its diagnostics by option (most first) and the level's
    options that never fired. With ``as_level`` (``wall``, ``wextra``, ``default``),
    each build at ``level`` (default ``all``) answers for that narrower level through
    the flag database (:mod:`analyzer.warnings.derive`), saying what it cannot place."""
    if as_level is not None:
        check_derivable(as_level)
        level = level or "all"
    builds = store.builds(conn, project, compilers, level)
    if not builds:
        raise _missing(conn, project, level)
    return report_of(project, builds, FlagView(conn), as_level)


def _missing(conn: sqlite3.Connection, project: str | None, level: str | None,
             projects: list[str] | None = None) -> NoData:
    """The error for a question no stored build answers, naming what is stored instead:
    the project meant (``proj`` for the tree run as ``local:proj``) or the levels built."""
    stored = store.projects(conn)
    if project is not None and project not in stored:
        close = ([p for p in stored if p.partition(":")[2] == project]
                 or difflib.get_close_matches(project, stored, n=3))
        if close:
            return NoData(f"no warnings build of {project}: did you mean {' or '.join(close)}?")
        if stored:
            return NoData(f"no warnings build of {project} (projects built: {', '.join(stored)})")
        return NoData(f"no warnings build of {project}: none is stored yet (`warnscope warnings "
                      "run` builds zlib; `warnscope overhead projects` lists the others)")
    built = store.builds(conn, project, level=None, with_diagnostics=False)
    built = [b for b in built if projects is None or b.project in projects]
    levels = sorted({b.level for b in built})
    where = f" of {project}" if project else (f" of {', '.join(projects)}" if projects else "")
    if not levels:
        return NoData(f"no warnings build{where} is stored yet (`warnscope warnings run` builds "
                      "zlib; `warnscope overhead projects` lists the others)")
    return NoData(f"no warnings build{where} at level {level} (levels built: {', '.join(levels)}; "
                  f"give one with --levels)")


def check_derivable(level: str) -> None:
    if level not in derive.DERIVABLE:
        raise BadInput(f"--as {level}: one of {', '.join(derive.DERIVABLE)} can be answered from a build")


def report_of(project: str, builds: list[Build], view: FlagView, as_level: str | None = None) -> WarningsReport:
    """:func:`report` over builds loaded already (the site loads each project's once);
    with ``as_level``, each build answers for that level (:func:`derive.as_level`)."""
    uncertain: list[list | None] = [None] * len(builds)
    sources: list[str | None] = [None] * len(builds)
    if as_level is not None:
        check_derivable(as_level)
        derived = []
        for i, b in enumerate(builds):
            index = view.index(b.compiler)
            if index is None:
                raise NotIngested(f"{b.compiler} is not in the flag database, which answers --as {as_level}: "
                                  f"warnscope flags ingest {b.compiler}")
            narrow, uncertain[i] = derive.as_level(b, as_level, index, view.decided_by(b.compiler))
            derived.append(narrow)
        sources, builds = [b.level for b in builds], derived
    out = []
    for b, source, unsure in zip(builds, sources, uncertain):
        by: dict[str | None, list[Diagnostic]] = defaultdict(list)
        for d in b.diagnostics:
            by[d.option].append(d)
        counts = [OptionCount(option=o, count=len(ds), printed=sum(d.printed for d in ds),
                              files=sorted({d.file for d in ds if d.file}), known=view.known(b.compiler, o))
                  for o, ds in by.items()]
        counts.sort(key=lambda c: (-c.count, c.option or ""))
        out.append(CompilerReport(
            compiler=b.compiler, compiler_version=b.compiler_version, level=b.level, opt=b.opt, status=b.status,
            diagnostics=len(b.diagnostics), printed=sum(d.printed for d in b.diagnostics),
            tus=len(b.tus), by_option=counts, silent=view.silent(b),
            unread=[t for t in b.tus if t.problem], error=b.error,
            derived_from=source, uncertain=unsure, flag_data=view.borrowed(b.compiler)))
    return WarningsReport(project=project, origin=builds[0].origin, builds=out)


def _build(conn: sqlite3.Connection, project: str, compiler: str, level: str) -> Build:
    found = store.builds(conn, project, [compiler], level)
    if not found:
        raise NoData(f"no warnings build of {project} with {compiler} at level {level}: run "
                     f"`warnscope warnings run --project {project} --compilers {compiler} --levels {level}`")
    return found[0]


def diff(conn: sqlite3.Connection, project: str, old: str, new: str, level: str = "all") -> Diff:
    """What appears and disappears from ``old`` to ``new``: diagnostics matched by file,
    line, option and message; one at the same file, line and option whose message
    differs is 'changed' (a rewording), not removed plus added."""
    return diff_of(_build(conn, project, old, level), _build(conn, project, new, level))


def diff_of(a: Build, b: Build) -> Diff:
    """:func:`diff` of two builds loaded already (of one project, at one level)."""
    project, level, old, new = a.project, a.level, a.compiler, b.compiler

    def key(d: Diagnostic) -> tuple:
        return (d.file, d.line, d.option, d.message)

    def place(d: Diagnostic) -> tuple:
        return (d.file, d.line, d.option)

    old_left: dict[tuple, list[Diagnostic]] = defaultdict(list)
    for d in a.diagnostics:
        old_left[key(d)].append(d)
    unchanged, added_raw = 0, []
    for d in b.diagnostics:
        if old_left.get(key(d)):
            old_left[key(d)].pop()
            unchanged += 1
        else:
            added_raw.append(d)
    removed_by_place: dict[tuple, list[Diagnostic]] = defaultdict(list)
    for ds in old_left.values():
        for d in ds:
            removed_by_place[place(d)].append(d)
    entries = []
    for d in added_raw:
        was = removed_by_place.get(place(d))
        if was:
            entries.append(DiffEntry("changed", d.option, d.file, d.line, d.message, was.pop(0).message))
        else:
            entries.append(DiffEntry("added", d.option, d.file, d.line, d.message))
    for ds in removed_by_place.values():
        entries += [DiffEntry("removed", d.option, d.file, d.line, d.message) for d in ds]
    groups: dict[str | None, list[DiffEntry]] = defaultdict(list)
    for e in entries:
        groups[e.option].append(e)
    by_option = []
    for option, es in groups.items():
        es.sort(key=lambda e: (e.change, e.file or "", e.line or 0, e.message))
        by_option.append(OptionDiff(option, sum(e.change == "added" for e in es),
                                    sum(e.change == "removed" for e in es),
                                    sum(e.change == "changed" for e in es), es))
    by_option.sort(key=lambda o: (-len(o.entries), o.option or ""))
    return Diff(project=project, level=level, old=old, new=new, unchanged=unchanged,
                added=sum(o.added for o in by_option), removed=sum(o.removed for o in by_option),
                changed=sum(o.changed for o in by_option), by_option=by_option)


def top(conn: sqlite3.Connection, projects: list[str] | None = None, level: str = "all",
        limit: int = 20) -> Top:
    """The noisiest options over the builds of ``projects`` (default: every project) at
    ``level``, across compilers; and the options silent in every build that knows them."""
    chosen = projects or store.projects(conn)
    builds = [b for p in chosen for b in store.builds(conn, p, level=level)]
    if not builds:
        for project in projects or []:
            if project not in store.projects(conn):
                raise _missing(conn, project, None)
        raise _missing(conn, None, level, chosen if projects else None)
    view = FlagView(conn)
    count: dict[str | None, int] = defaultdict(int)
    where: dict[str | None, tuple[set, set]] = defaultdict(lambda: (set(), set()))
    for b in builds:
        for d in b.diagnostics:
            count[d.option] += 1
            where[d.option][0].add(b.project)
            where[d.option][1].add(b.compiler)
    noisiest = sorted((TopOption(o, n, sorted(where[o][0]), sorted(where[o][1])) for o, n in count.items()),
                      key=lambda t: (-t.diagnostics, t.option or ""))[:limit]
    silent_sets = [set(s) for b in builds if b.status == BuildStatus.OK and (s := view.silent(b)) is not None]
    silent = sorted(set.intersection(*silent_sets)) if silent_sets else []
    return Top(projects=sorted({b.project for b in builds}), level=level, noisiest=noisiest, silent=silent)


class SourceLines:
    """Source lines of the builds' pristine trees, each file read once (through
    :class:`warnscope.extract.Tree`: regular files inside the tree only); None where
    the tree is gone, the file is outside it (a system header, the compiler's own) or
    generated by the build, or the line is past its end."""

    def __init__(self) -> None:
        self._trees: dict[str, Tree | None] = {}
        self._files: dict[tuple[str, str], list[str] | None] = {}

    def line(self, build: Build, file: str | None, line: int | None) -> str | None:
        if not file or line is None or os.path.isabs(file) or file.startswith("<"):
            return None
        if build.origin not in self._trees:
            root = source_root(build)
            self._trees[build.origin] = Tree(root, "project") if root is not None else None
        tree = self._trees[build.origin]
        if tree is None:
            return None
        key = (build.origin, file)
        if key not in self._files:
            try:
                self._files[key] = tree.read(file).decode("utf-8", errors="replace").splitlines()
            except BadInput:
                self._files[key] = None   # not a regular file inside the tree (or generated by the build)
        lines = self._files[key]
        return lines[line - 1] if lines is not None and 0 < line <= len(lines) else None


def _check_known(view: "FlagView", compilers: list[str], option: str) -> None:
    """Refuse an option none of ``compilers`` (with their flags ingested) has, naming the
    closest one (``-Wshadw``: did you mean -Wshadow?): a typo is not "0 diagnostics"."""
    indexes = [i for c in compilers if (i := view.index(c)) is not None]
    if not indexes or any(i.resolve(option) is not None for i in indexes):
        return
    hint = next((h for i in indexes if (h := i.suggest(option))), None)
    raise BadInput(f"{option}: no warning option of that name in {', '.join(compilers)}"
                   + (f" (did you mean {hint}?)" if hint else ""))


def show(conn: sqlite3.Connection, option: str | None, project: str | None = None,
         limit: int | None = 10, compilers: list[str] | None = None, level: str | None = None,
         file: str | None = None) -> Show:
    """Examples of ``option`` firing (None: every diagnostic of ``project``), with their
    source lines read from the project's tree (through :class:`warnscope.extract.Tree`:
    regular files inside the tree only); ``compilers``, ``level`` and ``file`` (a glob
    on the file's path as stored) narrow them; ``limit`` None lists them all."""
    if option is None and project is None:
        raise BadInput("give an OPTION, or --project to list every diagnostic of its builds")
    if option is not None and not option.startswith(("-W", "-R")):
        raise BadInput(f"{option}: expected a warning option (-Wname)")
    if project is not None and project not in store.projects(conn):
        raise _missing(conn, project, None)
    found = store.examples(conn, option, project, compilers, level)
    if file is not None:
        found = [(b, d) for b, d in found if d.file is not None and fnmatch.fnmatchcase(d.file, file)]
    view = FlagView(conn)
    if not found and option is not None:
        _check_known(view, store.compilers_built(conn), option)
    sources = SourceLines()
    examples = []
    seen = set()
    for b, d in found:
        if (b.project, d.file, d.line, d.message) in seen:
            continue  # the same warning from another compiler adds nothing to read
        seen.add((b.project, d.file, d.line, d.message))
        examples.append(Example(b.project, b.compiler, b.level, d.option, d.severity, d.file, d.line,
                                d.column, d.message, d.tus, sources.line(b, d.file, d.line)))
        if limit is not None and len(examples) >= limit:
            break
    compilers = sorted({b.compiler for b, _ in found})
    known = {} if option is None else {c: k for c in compilers if (k := view.known(c, option)) is not None}
    return Show(option=option, known=known, examples=examples, total=len(found))


# ------------------------------------------------------------------ what a SARIF log reads

def descriptions(conn: sqlite3.Connection, builds: list[Build]) -> dict[str, dict[str, str]]:
    """Per compiler, its options' help text from the flag database (where the compiler is
    ingested: the others get none), for the rules of its SARIF run."""
    view = FlagView(conn)
    out: dict[str, dict[str, str]] = {}
    for b in builds:
        index = view.index(b.compiler)
        words: dict[str, str] = {}
        if index is not None:
            for option in {d.option for d in b.diagnostics if d.option}:
                hit = index.target(option) or index.resolve(option)
                text = " ".join((hit[0].description or "").split()) if hit else ""
                if text:
                    words[option] = text[:MAX_DESCRIPTION]
        out[b.compiler] = {**out.get(b.compiler, {}), **words}
    return out


def _one(conn: sqlite3.Connection, project: str, compiler: str, level: str) -> Build:
    found = store.builds(conn, project, [compiler], level)
    if not found:
        raise ValueError(f"no stored {level} build of {project} by {compiler}")
    return found[0]


def upgrade_builds(conn: sqlite3.Connection, report: Upgrade) -> UpgradeBuilds:
    """What ``upgrade --format sarif`` reads of a report: its builds read back from the
    store, each pair's diff, the options' words."""
    names = list(dict.fromkeys(n for p in report.pairs for n in (p.old, p.new)))
    builds = {n: _one(conn, report.project, n, report.level) for n in names}
    diffs = {(p.old, p.new): diff_of(builds[p.old], builds[p.new]) for p in report.pairs}
    return UpgradeBuilds(report, builds, diffs, descriptions(conn, list(builds.values())))


def report_builds(conn: sqlite3.Connection, project: str, compilers: list[str] | None = None,
                  level: str | None = None, as_level: str | None = None) -> ReportBuilds:
    """What ``warnings report --format sarif`` reads: :func:`report` (its errors for a
    project or level not built) and the builds it reads, derived as it derives them."""
    result = report(conn, project, compilers, level, as_level)
    builds = store.builds(conn, project, compilers, level or ("all" if as_level else None))
    if as_level is not None:
        view = FlagView(conn)
        builds = [derive.as_level(b, as_level, view.index(b.compiler), view.decided_by(b.compiler))[0]
                  for b in builds]
    return ReportBuilds(result, builds, descriptions(conn, builds))


def diff_builds(conn: sqlite3.Connection, project: str, old: str, new: str, level: str = "all") -> DiffBuilds:
    """What ``warnings diff --format sarif`` reads: :func:`diff` (its errors) and its two builds."""
    result = diff(conn, project, old, new, level)
    before, after = _one(conn, project, old, level), _one(conn, project, new, level)
    return DiffBuilds(result, before, after, descriptions(conn, [after]))
