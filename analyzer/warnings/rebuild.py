"""``warnscope rebuild``: many projects moved to the next compiler in one command -- Debian
source packages by name (:mod:`analyzer.projects.debian`) and local trees -- each
reported as ``warnscope upgrade`` reports one tree, and a summary across them.

A project is one independent unit of work (:func:`build_project`): a worker makes its
recipe (a Debian package is fetched by the worker, into its own cache), runs
:func:`analyzer.warnings.upgrade.run` on a database of its own in a temporary folder
(the two builds, and the escape hatch's build where the new one fails), and hands back
the builds. The caller stores each project's builds in one transaction as it arrives
(:func:`run`), so a run that is interrupted keeps every project it finished, and a
rerun builds only those whose stored builds do not answer for the project as it is
now (:func:`answered`: a local tree edited, a package of another version is built anew). The builds run on the executor
given: the local pool, or the Dask cluster of ``--scheduler``, where each project is a
task that needs one ``build`` resource (workers started ``--resources build=1`` take one
project at a time), and a task whose worker dies is given to another worker by Dask's
scheduler (``distributed.scheduler.allowed-failures`` times; past that it is one line
of the summary, and the rerun tries it again).

Each project's outcome (:class:`Outcome`) is read from its report
(:func:`outcome_of`): both builds succeed with nothing changed, a new failure, a build
that already fails with the old compiler (so a failure is never blamed on the new one
without the old one's build beside it), configure checks that flip while both build,
or *cannot tell*: build dependencies the suite cannot install, a build that reached for
the network, a project whose only difference is a check that no error explains, a
project that could not be fetched, or a worker lost too often.

Configure checks that are expected to fail on Linux whatever the compiler -- a BSD or
Windows function probed by name, gnulib's probes of keywords -- are kept out of the
flips (:data:`EXPECTED_FAILURES`, extended per project by the list's ``skip=`` words,
as portage's ``QA_CONFIG_IMPL_DECL_SKIP`` is per ebuild): such a flip is listed as
expected, not counted.
"""
from __future__ import annotations

import enum
import fnmatch
import re
import sqlite3
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable, Iterator

from warnscope.database import connect, transaction
from warnscope.errors import BadInput, NotIngested, WarnscopeError
from warnscope.text import one_line

from analyzer.projects import debian, digest, recipes, steps
from analyzer.projects.cell import BuildStatus
from analyzer.projects.options import BuildOptions
from analyzer.runtime.executors import DaskExecutor, Finished, InlineExecutor, running
from analyzer.runtime.progress import Progress, as_progress
from analyzer.runtime.toolchain import Toolchain
from analyzer.warnings import plan, store, upgrade
from analyzer.warnings.results import Build, CheckFlip, Upgrade, UpgradePair, std_name

#: what a Dask worker offers per build at once (``dask worker --resources build=1``)
RESOURCE = "build"

#: Functions and names that configure scripts probe for and that glibc on Linux does not
#: have, whatever the compiler: their checks fail with an implicit declaration under every
#: compiler (and as an error under GCC 14 and Clang 16, which changes nothing of the
#: outcome). A flip of such a check is expected, not damage. The entries are shell
#: patterns (``fnmatch``), matched against the function an implicit-declaration error
#: names, and against the words of the check's name. Kinds, after the skip lists Gentoo
#: keeps per package (``QA_CONFIG_IMPL_DECL_SKIP``):
EXPECTED_FAILURES: tuple[str, ...] = (
    # gnulib probes C23 keywords and macros as if they were functions
    "unreachable", "MIN", "MAX", "alignof", "static_assert", "typeof",
    # BSD and Solaris only
    "strtonum", "recallocarray", "pledge", "unveil", "timingsafe_bcmp", "timingsafe_memcmp",
    "memset_s", "errc", "warnc", "getexecname", "crypt_checkpass", "crypt_newhash",
    "pthread_set_name_np", "pthread_get_name_np", "setproctitle", "strtoll_l", "funopen",
    "arc4random_stir", "arc4random_addrandom", "srandomdev", "sysctlbyname",
    # Windows and compiler intrinsics of other targets
    "_controlfp", "_controlfp_s", "_BitScanReverse*", "_BitScanForward*", "_byteswap_*",
    "__crc32*", "cpu_to_le*", "__cpu_to_le*",
)

#: the function an implicit-declaration error names (GCC, Clang)
_IMPLICIT = re.compile(r"implicit declaration of function '([^']+)'|"
                       r"call to undeclared (?:library )?function '([^']+)'")
#: a list line's project: ``debian:NAME[/SUITE]``, a bare Debian name, or a path
_WORD = re.compile(r"\S+")


class Outcome(enum.StrEnum):
    """What the move does to one project, in the summary's order."""

    NEW_FAILURE = "new failure"
    FLIPS_ONLY = "flips only"
    ALREADY_FAILS = "already fails"
    CANNOT_TELL = "cannot tell"
    BUILDS_WITH_BOTH = "builds with both"


@dataclass(frozen=True)
class Entry:
    """One project a list names: ``spec`` is ``debian:NAME/SUITE`` or a tree's absolute
    path; ``where`` the list's ``file:line`` (or the argument's place); ``skip`` the
    project's own expected configure failures (``skip=NAME,NAME``)."""

    spec: str
    project: str
    where: str
    skip: tuple[str, ...] = ()

    @property
    def local(self) -> bool:
        return not self.spec.startswith(debian.PREFIX)


@dataclass(frozen=True)
class Refused:
    """A list line not taken (a duplicate, a word that names no project), said once."""

    where: str
    text: str
    why: str


@dataclass(frozen=True)
class LocalCommands:
    """How the local trees of a list are built (one set for all: ``--configure``,
    ``--build``, ``--clean``, ``--lang``)."""

    configure: str = ""
    build: str = "make"
    clean: str = "make clean"
    language: str = "c"


@dataclass
class ProjectReport:
    """One project's answer: its outcome and why in one line, the causes it counts under
    (each new error's option, each changed default), the flips kept out as expected,
    and ``upgrade``'s report (None where nothing was stored: a project not fetched, a
    worker lost)."""

    project: str
    where: str
    outcome: Outcome
    why: str
    causes: list[str] = field(default_factory=list)
    expected: list[CheckFlip] = field(default_factory=list)
    report: Upgrade | None = None
    built: bool = False         # built by this run (else answered from stored builds)


@dataclass
class Count:
    """How many projects have one outcome or cause, and which."""

    name: str
    projects: list[str]


@dataclass
class Summary:
    """A move across many projects: counts by outcome, and by cause ranked (most projects
    first), each with its projects; each project's report; the lines of the list that
    were not taken."""

    old: str
    new: str
    outcomes: list[Count]
    causes: list[Count]
    projects: list[ProjectReport]
    refused: list[Refused]
    notes: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """Every line of the list taken and every project answered by a build (nothing
        refused, nothing lost with a worker or unfetched)."""
        return not self.refused and all(p.report is not None for p in self.projects)


# ----------------------------------------------------------------------------- the list


def entries(words: Iterable[tuple[str, str]], suite: str) -> tuple[list[Entry], list[Refused]]:
    """The projects of ``(where, line)`` pairs, in order, and the lines refused: each
    project once (a second naming of one project is refused, pointing at the first); a
    blank line or a ``#`` comment is skipped. A line is a project and optional
    ``skip=NAME,NAME`` words: ``debian:NAME[/SUITE]``, a bare Debian source package
    name (of ``suite``), or a local tree (a path with a ``/``)."""
    out: list[Entry] = []
    refused: list[Refused] = []
    first: dict[str, str] = {}
    for where, line in words:
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        spec, *rest = _WORD.findall(text)
        try:
            skip = _skip_words(rest)
            entry = _entry(spec, where, suite, skip)
        except BadInput as exc:
            refused.append(Refused(where, one_line(text[:200]), str(exc)))
            continue
        if entry.project in first:
            refused.append(Refused(where, one_line(text[:200]),
                                   f"{entry.project} again (first at {first[entry.project]})"))
            continue
        first[entry.project] = where
        out.append(entry)
    return out, refused


def read_list(path: str | Path) -> list[tuple[str, str]]:
    """The lines of a list file as ``(file:line, text)``; a file that cannot be read or
    is not text is one line."""
    p = Path(path)
    try:
        text = p.read_bytes().decode("utf-8")
    except OSError as exc:
        raise BadInput(f"--packages {one_line(str(path))}: cannot read it: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise BadInput(f"--packages {one_line(str(path))}: not UTF-8 text (byte {exc.start})") from None
    return [(f"{one_line(str(path))}:{i}", line) for i, line in enumerate(text.splitlines(), 1)]


def _skip_words(words: list[str]) -> tuple[str, ...]:
    out: list[str] = []
    for w in words:
        key, eq, value = w.partition("=")
        if key != "skip" or not eq:
            raise BadInput(f"{one_line(w[:80])!r}: a line is one project and optional skip=NAME,NAME words")
        names = [n for n in value.split(",") if n]
        if not names or not all(re.fullmatch(r"[A-Za-z0-9_*?\[\]]+", n) for n in names):
            raise BadInput(f"{one_line(w[:80])!r}: skip= takes function names (or shell patterns) "
                           "separated by commas")
        out += names
    return tuple(out)


def _entry(spec: str, where: str, suite: str, skip: tuple[str, ...]) -> Entry:
    if "/" in spec and not spec.startswith(debian.PREFIX):
        path = Path(spec)
        if not path.is_absolute():   # relative to the list's folder, as a user writes it
            base = where.rsplit(":", 1)[0]
            path = (Path(base).parent if Path(base).is_file() else Path.cwd()) / path
        if not path.is_dir():
            raise BadInput(f"{one_line(spec[:200])}: not a directory (a local tree is a folder)")
        path = path.resolve()
        return Entry(str(path), f"local:{path.name}", where, skip)
    name, pkg_suite = debian.parse(spec if spec.startswith(debian.PREFIX) else f"{debian.PREFIX}{spec}"
                                   + ("" if "/" in spec else f"/{suite}"))
    return Entry(f"{debian.PREFIX}{name}/{pkg_suite}", f"{debian.PREFIX}{name}/{pkg_suite}", where, skip)


# ----------------------------------------------------------------------------- the work


@dataclass
class ProjectJob:
    """One project's move (picklable: a worker or a Dask task runs it)."""

    entry: Entry
    old: Toolchain
    new: Toolchain
    opts: BuildOptions
    commands: LocalCommands


def recipe_of(entry: Entry, commands: LocalCommands) -> recipes.Recipe:
    """The project's recipe: a Debian package fetched with its packaging (into this
    host's cache), or the local tree with the list's commands."""
    if entry.local:
        return recipes.local(entry.spec, commands.configure, commands.build, commands.clean,
                             (commands.language,))
    return recipes.debian_package(entry.spec)


def build_project(job: ProjectJob) -> list[Build]:
    """In a worker: the project's upgrade builds (:func:`upgrade.run`: both compilers, and
    the escape hatch where the new build fails), made in a database of their own, and
    returned for the caller to store. Nothing here writes the caller's database. A Debian
    package's build dependencies are installed once for the project's builds of one suite
    (:func:`debian.shared_roots`), each build in its own layer over them."""
    recipe = recipe_of(job.entry, job.commands)
    source = steps.source_tree(recipe)
    with tempfile.TemporaryDirectory(prefix="warnscope-rebuild-") as tmp, debian.shared_roots():
        conn = connect(Path(tmp) / "project.db", write=True)
        try:
            upgrade.run(conn, recipe, source, job.old, [job.new], job.opts, executor=InlineExecutor())
            return store.builds(conn, recipe.name)
        finally:
            conn.close()


def answering(conn: sqlite3.Connection, entry: Entry, names: list[str],
              commands: LocalCommands = LocalCommands()) -> dict[str, Build]:
    """The stored builds of the project at ``upgrade``'s level by ``names`` that are of
    the project as it is now, by compiler (without their diagnostics): a local tree's of
    this folder with these files and commands (:func:`plan.answering`: its origin and
    digest), a Debian package's of the version its suite's index lists now
    (:func:`digest.package_digest` of that ``.dsc``, read from the index without
    fetching the package; the origin, a path in the cache of the worker that built it, is
    not compared). A project that cannot be read here (a tree gone, an index out of
    reach) is a :class:`WarnscopeError`."""
    if entry.local:
        recipe = recipe_of(entry, commands)
        return plan.answering(conn, recipe, steps.source_tree(recipe), names, upgrade.LEVEL)
    now = debian.listed(*debian.parse(entry.spec))
    built_from = digest.package_digest(now.dsc, now.sha256)
    return {b.compiler: b for b in store.builds(conn, entry.project, names, upgrade.LEVEL,
                                                with_diagnostics=False)
            if b.tree_digest == built_from}


def answered(conn: sqlite3.Connection, entry: Entry, old: Toolchain, new: Toolchain,
             opts: BuildOptions, commands: LocalCommands = LocalCommands()) -> bool:
    """Whether the stored builds answer the project's move: both compilers' builds at
    ``upgrade``'s level, by these versions, at this ``-O``, kept going past errors, and
    of the project as it is now (:func:`answering`). A project that cannot be read here
    is not answered: its job says why."""
    try:
        found = answering(conn, entry, [old.name, new.name], commands)
    except WarnscopeError:
        return False
    return all(tc.name in found and found[tc.name].compiler_version == tc.version
               and found[tc.name].opt == opts.opt and found[tc.name].keep_going for tc in (old, new))


def check_current(conn: sqlite3.Connection, entry: Entry, old: str, new: str,
                  commands: LocalCommands = LocalCommands()) -> None:
    """One :class:`NotIngested` line where a stored build of the move is not of the
    project as it is now (:func:`answering`): another folder or an edited tree, another
    version of the package than its suite lists. An answer from stored builds alone
    (``--stored``) must be about this tree, this version."""
    stored = store.builds(conn, entry.project, [old, new], upgrade.LEVEL, with_diagnostics=False)
    found = answering(conn, entry, [old, new], commands) if stored else {}
    for b in stored:
        if b.compiler in found:
            continue
        if entry.local:
            what = (f"of {b.origin}" if b.origin != entry.spec else "of this tree as it was before an edit"
                    if b.tree_digest else "of a tree warnscope did not keep the digest of")
        else:
            now = debian.listed(*debian.parse(entry.spec))
            what = f"of another version than the one {now.suite}'s index lists now ({now.dsc})"
        raise NotIngested(f"the stored build of {entry.project} by {b.compiler} is {what}: "
                          "run without --stored to build it")


def run(conn: sqlite3.Connection, projects: list[Entry], old: Toolchain, new: Toolchain,
        opts: BuildOptions, progress: Progress | Any = None, executor: Any = None,
        workers: int | None = None, commands: LocalCommands = LocalCommands(),
        refused: list[Refused] | None = None) -> Summary:
    """Build each project whose stored builds do not answer yet, storing each project's
    builds in one transaction as it finishes, then read every project's report from the
    store and sum them up."""
    progress = as_progress(progress or (lambda _m: None))
    if old.name == new.name:
        raise BadInput(f"--from {old.name} is --to: a rebuild compares two compilers")
    kept = replace(opts, keep_going=True)
    todo = [ProjectJob(e, old, new, kept, commands) for e in projects
            if not answered(conn, e, old, new, kept, commands)]
    progress.add_total(len(todo))
    lost: dict[str, str] = {}
    built: set[str] = set()
    with running(executor, workers) as pool:    # Ctrl-C or a failed write: what is stored stays
        for done in _map(pool, todo):
            entry = done.job.entry
            if done.error is not None:
                lost[entry.project] = _lost(done.error)
            else:
                with transaction(conn):     # one project, one transaction: kept whatever follows
                    for b in done.result:
                        store.save_build(conn, b)
                built.add(entry.project)
            progress(f"{entry.project}: " + (f"not answered ({lost[entry.project]})"
                                             if entry.project in lost else "stored"))
            progress.advance()
    reports = [report_of(conn, e, old.name, new.name, lost.get(e.project), e.project in built)
               for e in projects]
    return summarize(old.name, new.name, reports, refused or [])


def from_store(conn: sqlite3.Connection, projects: list[Entry], old: str, new: str,
               refused: list[Refused] | None = None, commands: LocalCommands = LocalCommands()
               ) -> Summary:
    """The summary from stored builds alone (``--stored``): a project without them, or
    whose stored builds are not of it as it is now (:func:`check_current`), is *cannot
    tell*, saying so."""
    reports = []
    for e in projects:
        try:
            check_current(conn, e, old, new, commands)
        except WarnscopeError as exc:
            reports.append(ProjectReport(e.project, e.where, Outcome.CANNOT_TELL, one_line(str(exc))))
            continue
        reports.append(report_of(conn, e, old, new, None, False))
    return summarize(old, new, reports, refused or [])


def _map(executor: Any, jobs: list[ProjectJob]) -> Iterator[Finished]:
    """The jobs on the executor: on Dask each a task needing one build slot, its key
    naming the project (what the cluster's dashboard shows)."""
    if isinstance(executor, DaskExecutor):
        check_build_slots(executor)
        keys = [f"rebuild-{re.sub(r'[^A-Za-z0-9.+-]', '-', j.entry.project)}-{i}-{id(jobs):x}"
                for i, j in enumerate(jobs)]
        return executor.map(build_project, jobs, resources={RESOURCE: 1}, key=keys)
    return executor.map(build_project, jobs)


def check_build_slots(executor: DaskExecutor) -> None:
    """A cluster whose workers offer no ``build`` resource would hold every task forever:
    one line saying how to start them."""
    workers = executor.client.scheduler_info().get("workers", {})
    if not any((w.get("resources") or {}).get(RESOURCE) for w in workers.values()):
        raise BadInput(f"no worker of the Dask cluster offers a {RESOURCE!r} resource: start the "
                       f"workers with --resources {RESOURCE}=1 (one build at a time each)")


def _lost(error: BaseException) -> str:
    """One line for a project that came back without builds."""
    name = type(error).__name__
    if name == "KilledWorker":
        return "the workers that ran it died (each retry too): rerun to try it again"
    if isinstance(error, WarnscopeError):
        return one_line(str(error))
    return one_line(f"{name}: {error}")


# ----------------------------------------------------------------------------- the answer


def report_of(conn: sqlite3.Connection, entry: Entry, old: str, new: str, lost: str | None,
              built: bool) -> ProjectReport:
    """One project's report from the store, with its outcome."""
    if lost is not None:
        return ProjectReport(entry.project, entry.where, Outcome.CANNOT_TELL, lost)
    try:
        report = upgrade.from_store(conn, entry.project, old, [new])
    except WarnscopeError as exc:
        return ProjectReport(entry.project, entry.where, Outcome.CANNOT_TELL, one_line(str(exc)))
    (pair,) = report.pairs
    outcome, why, causes, expected = outcome_of(pair, (*EXPECTED_FAILURES, *entry.skip))
    return ProjectReport(entry.project, entry.where, outcome, why, causes, expected, report, built)


def expected_flip(flip: CheckFlip, skip: Iterable[str]) -> bool:
    """Whether a flip is a check expected to fail on Linux: the function its error says
    was implicitly declared, or a word of its name, matches a ``skip`` pattern."""
    names = {m[0] or m[1] for e in (flip.error, flip.old_error) if e for m in _IMPLICIT.findall(e)}
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", flip.name))
    patterns = list(skip)
    return any(fnmatch.fnmatchcase(n, p) for n in names | words for p in patterns)


def outcome_of(pair: UpgradePair, skip: Iterable[str] = EXPECTED_FAILURES
               ) -> tuple[Outcome, str, list[str], list[CheckFlip]]:
    """(outcome, why in one line, causes, flips expected) of one move."""
    skip = tuple(skip)
    expected = [f for f in pair.flips if expected_flip(f, skip)]
    flips = [f for f in pair.flips if f not in expected]
    defaults = [f"{d.language} default {std_name(d.old)} -> {std_name(d.new)}"
                for d in pair.defaults if not d.pinned and d.old and d.new]
    if BuildStatus.CANNOT_TELL in (pair.old_status, pair.new_status):
        error = pair.old_error if pair.old_status == BuildStatus.CANNOT_TELL else pair.new_error
        return Outcome.CANNOT_TELL, one_line(error or "cannot tell"), [], expected
    if pair.old_status != BuildStatus.OK:
        return (Outcome.ALREADY_FAILS, one_line(f"{pair.old} fails too: {pair.old_error or 'failed'}"),
                [], expected)
    if pair.new_status != BuildStatus.OK:
        options = list(dict.fromkeys(e.option or "(an error without an option)" for e in pair.new_errors))
        first = pair.new_errors[0] if pair.new_errors else None
        why = (f"{len(pair.new_errors)} new error(s), first {first.file}:{first.line}: {first.message}"
               if first else f"no new error printed: {pair.new_error or 'failed'}")
        if pair.hatch is not None:
            why += f"; {' '.join(pair.hatch.flags)} {'builds' if pair.hatch.status == BuildStatus.OK else 'does not build'}"
        return Outcome.NEW_FAILURE, one_line(why), options + defaults, expected
    macros = pair.macros if flips or not expected else []
    if flips or macros:
        if flips and not macros and not any(f.error or f.old_error for f in flips):
            return (Outcome.CANNOT_TELL, one_line(f"{len(flips)} configure check(s) changed and no error "
                                                  f"explains it: {flips[0].name}: {flips[0].old} -> {flips[0].new}"),
                    [], expected)
        why = f"{len(flips)} configure check(s) flipped, {len(macros)} macro(s) changed"
        if flips:
            why += f", first {flips[0].name}: {flips[0].old} -> {flips[0].new}"
        return Outcome.FLIPS_ONLY, one_line(why), defaults, expected
    return Outcome.BUILDS_WITH_BOTH, "both build, no configure check flipped", [], expected


def summarize(old: str, new: str, reports: list[ProjectReport], refused: list[Refused]) -> Summary:
    """Counts by outcome (in :class:`Outcome`'s order, each outcome listed even at 0) and
    by cause (most projects first, then by name)."""
    outcomes = [Count(o.value, [r.project for r in reports if r.outcome == o]) for o in Outcome]
    by_cause: dict[str, list[str]] = {}
    for r in reports:
        for c in r.causes:
            by_cause.setdefault(c, []).append(r.project)
    causes = sorted((Count(c, ps) for c, ps in by_cause.items()), key=lambda c: (-len(c.projects), c.name))
    return Summary(old, new, outcomes, causes, reports, refused)
