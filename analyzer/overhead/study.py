"""Running a study: cells (compiler x level) of one project, measured and stored.

Whole-build mode: per compiler, a private copy of the source tree configured (outside
the timing) with the compiler's wrappers as CC/CXX; then warm-up rounds (one, unless
the study says otherwise: none for cells of hours, where a round more is hours more
and a colder first build costs little CPU) and N counted rounds, each round running
every cell's clean rebuild in turn (A B A B …, so drift hits every cell alike). How a
level's flags reach the compiler is the cell's ``inject``: ``build`` (the default)
passes them where a user puts them, through the build system
(:mod:`analyzer.projects.recipes` says where, per project), so every process between that
variable and the compiler carries them; ``wrapper`` appends them in the compiler
wrapper (the compiler-only control: one tree for every level). The wrapper logs each
compiler process in both, which proves the flags arrived
(:mod:`analyzer.projects.arrival`) and gives the compilers' CPU. With root, the kernel's
account of every process of each build (:mod:`warnscope.accounting`) says where every
CPU second went, and must sum to the build's ``wait4`` rusage.

TU mode: the compile commands are captured from one build (the wrapper logs them;
for a compile_commands.json they are given), then each TU is compiled alone with the
level's flags, timed alone, N rounds interleaved the same way.

Cells of one compiler are stored when its rounds are done, each in one transaction;
a rerun with the same parameters skips stored cells.
"""
from __future__ import annotations

import contextlib
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from warnscope.database import transaction, utc_now
from warnscope.accounting import Accountant, ProcessTable, Unavailable
from warnscope.errors import (AnalyzerUnavailable, BadInput, NeedsPrivilege, PackageError, SchedulerUnsuitable,
                              ToolFailed, Unsatisfiable)
from warnscope.measure import TreeRun, host

from analyzer.projects import arrival, debian, digest, levels as levels_mod, process, tus as tus_mod
from analyzer.projects.cell import BuildStatus, flags_for
from analyzer.projects.failure import fail, log_tail
from analyzer.projects.options import BuildOptions
from analyzer.projects.recipes import Recipe, check_target, debian_source, tu_language
from analyzer.projects.tus import Tu
from analyzer.projects.sandbox import BuildSandbox, build_sandbox, mirror_tree
from analyzer.projects.steps import Setup, cell_setup, commands, level_env, prepare, readable_for, source_tree
from analyzer.projects.wrapper import LOG_ENV, read_log
from analyzer.projects.workdir import WorkDir
from analyzer.overhead import analysis, store
from analyzer.overhead.experiment import Experiment, compile_tu, count_warnings, machine_facts
from analyzer.overhead.results import BuildRun, StudyCell, TuRun
from analyzer.runtime.progress import Progress, as_progress
from analyzer.runtime.toolchain import Toolchain


#: the most uncounted rounds a study takes (a cell's build repeated to no end is a typo)
MAX_WARMUPS = 100


@dataclass
class Options(BuildOptions):
    """A study's options: the build's (:class:`analyzer.projects.options.BuildOptions`) and
    its rounds, mode, scheduling and noise threshold."""

    runs: int = 3
    #: uncounted rounds before the counted ones (whole builds; a TU study's warm-up is the
    #: build that captures its compile commands)
    warmups: int = 1
    mode: str = "build"          # 'build' | 'tu'
    nice: int = 0
    sched: str | None = None
    noise: float = 0.05          # (max-min)/median above this: noisy
    busy_load: float = field(default_factory=lambda: 1.5 * (os.cpu_count() or 1))
    #: 'build' | 'wrapper' | 'both'; None: 'build' for whole builds, 'wrapper' per TU
    inject: str | None = None
    #: the kernel's per-process account of every build (needs root and bpftrace)
    accounting: bool = True

    @property
    def injects(self) -> tuple[str, ...]:
        """The injections a study measures, in the order its cells are interleaved."""
        chosen = self.inject or ("build" if self.mode == "build" else "wrapper")
        return ("build", "wrapper") if chosen == "both" else (chosen,)

    def validate(self) -> None:
        if self.runs < 1:
            raise BadInput("--runs must be at least 1")
        if not 0 <= self.warmups <= MAX_WARMUPS:
            raise BadInput(f"--warmups must be between 0 and {MAX_WARMUPS}")
        if self.mode == "tu" and self.warmups != 1:
            raise BadInput("--warmups: --mode tu's warm-up is the build that captures its compile "
                           "commands (each TU is compiled once there before the counted runs)")
        if self.mode not in ("build", "tu"):
            raise BadInput(f"--mode {self.mode}: expected build or tu")
        super().validate()
        if not self.noise > 0:  # NaN is not above 0 either
            raise BadInput("--noise must be positive")
        if self.inject not in (None, "build", "wrapper", "both"):
            raise BadInput(f"--inject {self.inject}: expected build, wrapper or both")
        if self.mode == "tu" and self.inject in ("build", "both"):
            raise BadInput("--mode tu compiles each TU alone with the level's flags (the compiler's "
                           "own cost): there is no build system to pass them through; use --inject wrapper")
        process.validate_sched(self.nice, self.sched)


def check_compilers(toolchains: list[Toolchain]) -> None:
    """Refuse, in one line, a compiler a study cannot time: one for another target,
    whose programs run here only under an emulator. A cross compile itself runs natively,
    but the study times the whole build, and what a build runs of its own making (a
    generator, a configure or CMake ``try_run`` probe, a test) would be timed through
    qemu, or not run at all: such a build is another build than the host's, and its
    figures would not compare with the host compilers' beside it.

    A compiler of a Debian root is taken: its whole build runs inside the root
    (:func:`measure_compiler`), one bubblewrap entry per build step as for the host's,
    with the root's own shell, make and tools (:func:`root_tools`)."""
    refuse_emulated(toolchains)


def build_programs(recipe: Recipe) -> tuple[str, ...]:
    """The programs a build of ``recipe`` runs that a Debian root may lack: make (every
    recipe's build and the analyzers' runs use it) and the recipe's ``needs``."""
    return tuple(dict.fromkeys(("make", *recipe.needs)))


def root_tools(recipe: Recipe, toolchains: list[Toolchain],
               progress: Progress | Callable[[str], None] = lambda _m: None) -> None:
    """Make sure each Debian root of ``toolchains`` has what ``recipe``'s build runs
    (:func:`build_programs`), so that the build runs the root's make, libtool and CMake
    as a user of that system would: what is missing is installed there
    (:func:`analyzer.runtime.roots.add_build_tools`, as root), or, not as root, one line
    saying so before anything is written."""
    from analyzer.runtime import roots
    if recipe.build_system == "debian":   # its per-package root gets its build dependencies
        return
    for suite in dict.fromkeys(tc.suite for tc in toolchains if tc.root is not None):
        assert suite is not None
        root = roots.load(suite)
        if root is None:
            raise BadInput(f"the {suite} root is gone (warnscope toolchain list)")
        missing = roots.missing_tools(root, build_programs(recipe))
        if not missing:
            continue
        if os.geteuid() != 0:
            raise NeedsPrivilege(f"{recipe.name}'s build runs whole in the {suite} root, which lacks "
                                 f"{', '.join(missing)}: installing them there needs root once "
                                 f"(run this study as root; later ones need not be)")
        roots.add_build_tools(suite, missing, progress)


def refuse_emulated(toolchains: list[Toolchain]) -> None:
    """The part of :func:`check_compilers` an attribution shares: no compiler for
    another target."""
    emulated = [tc for tc in toolchains if tc.emulated]
    if emulated:
        tc = emulated[0]
        how = f"run here only under {os.path.basename(tc.emulator[0])}" if tc.emulator else "cannot run here"
        raise BadInput(f"{tc.name} compiles for {tc.target}, whose programs {how}: a timed build "
                       "would time what it runs of its own making through the emulator (or not "
                       "at all), and its figures would not compare with the host's; overhead "
                       "studies take compilers for the host's target (warnings run and advise "
                       "take both)")


def check_project(recipe: Recipe, opts: Options, toolchains: list[Toolchain]) -> None:
    """One line for what a study cannot time of ``recipe``. A Debian package is timed as
    a whole build (``dpkg-buildpackage``, as the warnings build runs it), its level's
    flags added by the compiler wrapper (whatever name ``debian/rules`` calls the
    compiler by; the package's own build flags are Debian's), by compilers of a Debian
    root."""
    if recipe.build_system != "debian":
        return
    if opts.mode != "build":
        raise BadInput(f"{recipe.name}: a Debian package is timed as a whole build (--mode build)")
    if "build" in opts.injects:
        raise BadInput(f"--inject {opts.inject}: a Debian package's flags are Debian's "
                       "(dpkg-buildflags); the level's reach its compiles through the compiler "
                       "wrapper: use --inject wrapper")
    for tc in toolchains:
        check_target(recipe, tc.target, tc.name)


def run_study(conn: sqlite3.Connection, recipe: Recipe, source: tuple[Path, str], toolchains: list[Toolchain],
              level_names: list[str], opts: Options,
              progress: Progress | Callable[[str], None] = lambda _msg: None, executor: Any = None) -> int:
    """Measure every cell not stored yet; returns the study id. ``source`` is
    :func:`source_tree`'s answer, fetched by the caller before the database is opened:
    bad input is refused before anything is written.

    With ``executor`` (an :class:`analyzer.runtime.executors.DaskExecutor`) each compiler's
    cells are one job on a worker: its levels are interleaved on one host, so every
    ratio to ``off`` is within one host; the worker's host is recorded with each run."""
    progress = as_progress(progress)
    check_project(recipe, opts, toolchains)
    check_compilers(toolchains)
    root_tools(recipe, toolchains, progress)
    if recipe.build_system == "ccdb" and opts.mode != "tu":
        raise BadInput("a compile_commands.json is replayed per TU: use --mode tu")
    if recipe.build_system == "ccdb" and "build" in opts.injects:
        raise BadInput("--inject build: a compile_commands.json has no build system to pass flags through")
    submit = cluster_options(executor) if executor is not None else {}  # refused before any write
    tree, origin = source
    # every cell's flags first: a GCC missing from the flag database is ingested here
    others = tuple(lang for lang in ("c", "c++") if lang not in recipe.languages)
    planned = {tc.name: [cell for inject in opts.injects for level in level_names
                         for cell in _planned(conn, tc, level, inject, recipe.languages, others, opts)]
               for tc in toolchains}
    params = {"mode": opts.mode, "opt": opts.opt, "runs": opts.runs, "jobs": opts.jobs,
              "nice": opts.nice, "sched": opts.sched, "noise": opts.noise,
              "inject": "+".join(opts.injects)}
    if opts.warmups != 1:  # part of the key only when not the one warm-up every study had before
        params["warmups"] = opts.warmups
    if opts.env:   # the caller's variables passed (--env, their names): another study's cells
        params["env"] = sorted(opts.env)
    exp = Experiment(recipe, origin, params, machine_facts(toolchains))
    # the tree's digest: an edited tree (whatever its files' times say) is another study
    key = exp.key(tree=digest.tree_digest(tree, recipe))
    with transaction(conn):
        study = store.study_id(conn, key, exp.project(conn), params, exp.machine)
    done = store.finished(conn, study)
    jobs = []
    for tc in toolchains:
        cells = []
        for cell in planned[tc.name]:
            if cell.key in done:
                progress(f"{recipe.name} {tc.name} {cell.level} ({cell.inject}): stored already, skipped")
            else:
                cells.append(cell)
        if cells:
            jobs.append(CompilerJob(recipe, tree if executor is None else None, tc, cells, opts))
    try:
        if executor is None:
            for job in jobs:
                for cell in measure_compiler(job, progress):
                    store.save_cell(conn, study, cell, opts.noise, opts.busy_load)
        else:
            _on_cluster(conn, study, jobs, opts, executor, submit, progress)
    finally:
        progress.close()
    return study


def _planned(conn: sqlite3.Connection, tc: Toolchain, level: str, inject: str, languages: tuple[str, ...],
             others: tuple[str, ...], opts: Options) -> list[StudyCell]:
    """The cell of a level for one injection: a warning level's flags from
    :mod:`analyzer.projects.levels`, an analyzer's from :mod:`analyzer.overhead.analysis`;
    an analyzer that runs over the compile commands has no flags to inject: one cell
    (with the study's first injection, so that it is compared with that ``off``)."""
    an = analysis.analyzer_of(level, tc)
    if an is None:
        return [StudyCell(tc.name, tc.version, tc.identity, level,
                           levels_mod.flags(conn, tc, level, languages, opts.custom), inject=inject,
                           other_flags=levels_mod.flags(conn, tc, level, others, opts.custom))]
    if analysis.over_commands(an) and inject != opts.injects[0]:
        return []
    return [StudyCell(tc.name, tc.version, tc.identity, level, analysis.flags(an, tc, languages),
                       inject=inject, other_flags=analysis.flags(an, tc, others))]


def _analyzers(cells: list[StudyCell], tc: Toolchain) -> dict[int, analysis.Analyzer | None]:
    """Each cell's analyzer (None: a warning level), by the cell's ``id``: decided once
    per cell, for everything that measures it."""
    return {id(cell): analysis.analyzer_of(cell.level, tc) for cell in cells}


def _unavailable(cells: list[StudyCell], analyzers: dict[int, analysis.Analyzer | None],
                 tc: Toolchain) -> list[StudyCell]:
    """The cells whose analyzer cannot run here marked failed, saying why; the others.
    cppcheck is the host's: a root compiler's build runs in the root, which has none."""
    out = []
    for cell in cells:
        an = analyzers[id(cell)]
        why = analysis.unavailable(an, tc) if an is not None else None
        if why is None and an is analysis.Analyzer.CPPCHECK and tc.root is not None:
            why = (f"cppcheck is the host's, and {tc.name}'s build runs in the {tc.suite} root "
                   "(a cppcheck there would be another cppcheck than the host compilers' cells')")
        if why is None:
            out.append(cell)
        else:
            cell.mark_failed(f"analyzer unavailable: {why}", "")
    return out


@dataclass
class CompilerJob:
    """One compiler's cells of a study: the unit of work of a worker (picklable)."""

    recipe: Recipe
    tree: Path | None          # None: the worker fetches the source itself (its own cache)
    tc: Toolchain
    cells: list[StudyCell]
    opts: Options


def measure_compiler(job: CompilerJob, progress: Progress | Callable[[str], None] = lambda _m: None
                     ) -> list[StudyCell]:
    """Measure one compiler's cells (interleaved) in a private work directory. A compiler
    of a Debian root builds whole inside its root: every step's sandbox shows the root's
    system directories in place of the host's, so the shell, make, libtool, CMake, the
    compiler and everything they run are the root's, entered once per step by the
    same bubblewrap as a host compiler's build (never once per compiler process)."""
    progress = as_progress(progress)
    tree = job.tree if job.tree is not None else source_tree(job.recipe)[0]
    analyzers = _analyzers(job.cells, job.tc)
    cells = _unavailable(job.cells, analyzers, job.tc)
    if not cells:
        return job.cells
    if job.recipe.build_system == "debian":
        _package_cells(job, cells, analyzers, progress)
        return job.cells
    if job.tc.root is not None:
        progress(f"{job.recipe.name} {job.tc.name}: the whole build runs in the {job.tc.suite} root")
    with WorkDir(f"{job.tc.name}-") as work, \
            build_sandbox(work, readable_for(job.recipe), root=job.tc.root) as box:
        if job.recipe.build_system == "ccdb":
            box = mirror_tree(box, tree)
        if job.opts.mode == "build":
            with _accountant(job.opts, progress) as accountant:
                _build_cells(job.recipe, tree, job.tc, cells, analyzers, job.opts, work, progress,
                             box, accountant)
        else:
            _tu_cells(job.recipe, tree, job.tc, cells, analyzers, job.opts, work, progress, box)
    return job.cells


def _package_cells(job: CompilerJob, cells: list[StudyCell],
                   analyzers: dict[int, analysis.Analyzer | None], progress: Progress) -> None:
    """A Debian package's cells, built as the warnings build builds it
    (:mod:`analyzer.projects.debian`): one per-package root over the compiler's suite
    with the build dependencies installed once (not timed), the package's tree unpacked
    once into its build sandbox; then each round ``dpkg-buildpackage`` per cell (which
    cleans the tree first), the level's flags added by the compiler wrapper. Build
    dependencies that cannot be installed fail every cell, saying why."""
    recipe, tc = job.recipe, job.tc
    assert tc.suite is not None        # check_project: a compiler of a Debian root
    src = debian_source(recipe)
    with WorkDir(f"{tc.name}-") as work:
        try:
            root = debian.package_root(src, tc.suite, work / "root", job.opts.timeout, progress)
        except (Unsatisfiable, ToolFailed, PackageError) as exc:
            fail(cells, str(exc), work / "root.log")     # no log: the error is the line
            return
        with debian.package_sandbox(work, root) as box, _accountant(job.opts, progress) as accountant:
            prepared = (debian.unpack(src, box), debian.build_env(tc, box, job.opts.jobs))
            _build_cells(recipe, src.tree, tc, cells, analyzers, job.opts, work, progress, box,
                         accountant, prepared)


@contextlib.contextmanager
def _accountant(opts: Options, progress: Progress):
    """The kernel's per-process account for a compiler's builds, or None (one warning
    line saying why: not root, no bpftrace, BPF refused) and the study goes on."""
    if not opts.accounting:
        yield None
        return
    try:
        accountant = Accountant().start()
    except Unavailable as exc:
        progress(f"warning: {exc}; by_process stays empty, the compiler/other split remains")
        yield None
        return
    with accountant:
        yield accountant


def _cluster_job(job: CompilerJob) -> list[StudyCell]:
    return measure_compiler(job)


def cluster_options(executor: Any) -> dict:
    """How jobs are submitted so that a worker runs one at a time: workers that declare a
    ``timing`` resource get one job per unit of it; otherwise every worker must have one
    thread (a job beside another would share the host's cores and disturb the timing)."""
    workers = executor.client.scheduler_info().get("workers", {})
    if not workers:
        raise SchedulerUnsuitable("the Dask cluster has no workers")
    if all("timing" in (w.get("resources") or {}) for w in workers.values()):
        return {"resources": {"timing": 1}}
    if any(w.get("nthreads", 1) != 1 for w in workers.values()):
        raise SchedulerUnsuitable("timing cells run one per worker: start the Dask workers with --nthreads 1 "
                             "or --resources timing=1")
    return {}


def _on_cluster(conn: sqlite3.Connection, study: int, jobs: list[CompilerJob], opts: Options, executor: Any,
                submit: dict, progress: Progress) -> None:
    """Run the compilers' jobs on the Dask workers (see :func:`cluster_options`) and store
    each compiler's cells as its job ends."""
    progress.add_total(len(jobs))
    for done in executor.map(_cluster_job, jobs, **submit):
        job = done.job
        if done.error is not None:
            for c in job.cells:
                c.status, c.error, c.runs, c.tu_runs = BuildStatus.FAILED, f"worker failed: {done.error}", [], []
            cells = job.cells
        else:
            cells = done.result
        for cell in cells:
            store.save_cell(conn, study, cell, opts.noise, opts.busy_load)
        hosts = sorted({r.host for c in cells for r in c.runs})
        progress(f"{job.recipe.name} {job.tc.name}: {len(cells)} cells done on {', '.join(hosts) or '?'}")
        progress.advance()


def _build_cells(recipe: Recipe, tree: Path, tc: Toolchain, cells: list[StudyCell],
                 analyzers: dict[int, analysis.Analyzer | None], opts: Options,
                 work: Path, progress: Progress, box: BuildSandbox,
                 accountant: Accountant | None = None,
                 prepared: tuple[Path, dict[str, str]] | None = None) -> None:
    """Every round of ``cells``' builds, interleaved; ``prepared``: the configured tree and
    its environment where the caller made them (a Debian package's), else configured here."""
    prepared = prepared or prepare(recipe, tree, tc, opts, work, cells, progress, box)
    if prepared is None:
        return
    analyzed = {id(c) for c in cells if analysis.over_commands(analyzers[id(c)])}
    tus: list[Tu] = []
    if analyzed:  # the build's own compile commands, from a build of the configured tree
        tus = analysis.sources(_capture_in(recipe, prepared, tc, opts, work,
                                           [c for c in cells if id(c) in analyzed], progress, box) or [])
    setups: dict[int, Setup] = {}
    for cell in cells:
        if id(cell) in analyzed:
            continue
        setup = cell_setup(recipe, tree, prepared, cell, opts, work, box.box / f"{id(cell)}.wrap",
                           progress, box, tc)
        if setup is not None:
            setups[id(cell)] = setup
    progress.add_total((opts.warmups + opts.runs) * len(cells))
    for i in range(opts.warmups + opts.runs):
        rnd = i - opts.warmups + 1   # the counted run's seq; 0 or below: a warm-up
        for cell in cells:
            if cell.status == BuildStatus.FAILED:
                continue
            name = f"{recipe.name} {tc.name} {cell.level}" + (f" ({cell.inject})" if len(opts.injects) > 1 else "")
            label = (f"run {rnd}/{opts.runs}" if rnd > 0 else "warm-up" if opts.warmups == 1
                     else f"warm-up {i + 1}/{opts.warmups}")
            if id(cell) in analyzed:
                _analysis_round(cell, analyzers[id(cell)], tc, tus, opts, work, box, accountant, rnd,
                                name, label, progress)
                continue
            setup = setups[id(cell)]
            clean_log = work / "clean.log"
            t = process.run(recipe.clean or "true", setup.tree, setup.env, clean_log,   # a package's
                            timeout=opts.timeout, box=box)                          # build cleans first
            if t.exit != 0:
                fail([cell], f"clean failed (exit {t.exit}): {recipe.clean}", clean_log, setup.tree)
                continue
            log, wrap_log = work / f"{cell.level}.log", Path(setup.env[LOG_ENV])
            log.unlink(missing_ok=True)
            wrap_log.unlink(missing_ok=True)
            started = utc_now()
            t, table = process.run_accounted(setup.build, setup.tree, setup.env, log, accountant,
                                             nice=opts.nice, sched=opts.sched, timeout=opts.timeout,
                                             box=box)
            if t.exit != 0:
                what = spent(t, opts.timeout)
                fail([cell], _analyzer_says(analyzers[id(cell)], f"build failed ({what}): {setup.build}"),
                     log, setup.tree)
                progress(f"{name}: {label}: build FAILED ({what})")
                continue
            progress.advance()
            records = read_log(wrap_log, box)
            arrived = arrival.check(records, cell.level, cell.inject,
                                    lambda driver, args, source: flags_for(
                                        cell, recipe.build_flags_language(tu_language(driver, args, source))))
            if not arrived.proven:
                fail([cell], arrived.why(cell.inject), log)
                progress(f"{name}: {label}: FAILED ({cell.error})")
                continue
            compiler_cpu = sum(r.cpu for r in records)
            warnings = count_warnings(log)
            if analyzers[id(cell)] is not None:   # GCC's -fanalyzer
                seen: set[tuple] = set()
                analysis.gcc_findings(log.read_text(errors="replace"), seen)
                cell.findings = len(seen)
            progress(f"{name}: {label}: cpu {t.cpu:.2f} s (compilers {compiler_cpu:.2f} s"
                     + (f", {_top(table)}" if table else "") + f"), wall {t.wall:.2f} s, {warnings} warnings"
                     + (f", {cell.findings} findings" if cell.findings is not None else ""))
            _incomplete(table, name, label, progress)
            if rnd > 0:
                cell.runs.append(BuildRun(seq=rnd, tree=t, compiler_cpu_s=compiler_cpu,
                                          compilers=len(records), warnings=warnings, host=host(),
                                          started_at=started, processes=table))


def spent(t: TreeRun, timeout: float | None) -> str:
    """How a failed build ended and what it had spent by then, its killed processes'
    CPU included (a lower bound of the cell's cost) and its largest process's memory (an
    out-of-memory kill shows): 'exit 2 after 1033 s wall, 1904.2 s CPU, largest process
    12.5 GiB'; a build stopped at the timeout: 'timed out after 3600 s wall, …'."""
    end = f"timed out after {timeout:g} s wall" if t.exit == -1 else f"exit {t.exit} after {t.wall:.0f} s wall"
    largest = f", largest process {t.maxrss_kb / 2**20:.1f} GiB" if t.maxrss_kb >= 2**20 else ""
    return f"{end}, {t.cpu:.1f} s CPU by then{largest}"


def _analyzer_says(an: analysis.Analyzer | None, what: str) -> str:
    """A failure of an analyzer's cell (``an``: the cell's analyzer) is the analyzer's: it
    says so."""
    return f"analyzer unavailable: {what}" if an else what


def _incomplete(table: ProcessTable | None, name: str, label: str, progress: Progress) -> None:
    if table is not None and not table.complete:
        progress(f"{name}: {label}: warning: the processes sum to {table.total_s:.3f} s of "
                 f"the build's {table.tree_cpu_s:.3f} s (residual {table.residual_s:+.3f} s, "
                 f"{table.lost} events lost)")


def _analysis_round(cell: StudyCell, an: analysis.Analyzer | None, tc: Toolchain, tus: list[Tu],
                    opts: Options, work: Path,
                    box: BuildSandbox, accountant: Accountant | None, rnd: int, name: str, label: str,
                    progress: Progress) -> None:
    """One round of an analyzer over the compile commands (one measured tree); an analyzer
    that cannot say what it found fails the cell, saying why."""
    started = utc_now()
    assert an is not None
    try:
        t, table, found = analysis.run(an, tc, tus, box, work, opts.jobs, opts.timeout, accountant,
                                       nice=opts.nice, sched=opts.sched)
    except AnalyzerUnavailable as exc:
        cell.mark_failed(f"analyzer unavailable: {exc}", log_tail(work / "analysis.log"))
        progress(f"{name}: {label}: FAILED ({cell.error})")
        return
    progress.advance()
    cell.findings = found.findings
    progress(f"{name}: {label}: cpu {t.cpu:.2f} s" + (f" ({_top(table)})" if table else "")
             + f", wall {t.wall:.2f} s, {len(tus)} sources, {found.findings} findings")
    _incomplete(table, name, label, progress)
    if rnd > 0:  # the whole tree is the analyzer's (make's own share is in the process table)
        cell.runs.append(BuildRun(seq=rnd, tree=t, compiler_cpu_s=t.cpu, compilers=len(tus),
                                  warnings=found.warnings, host=host(), started_at=started,
                                  processes=table))


def _top(table: ProcessTable, n: int = 3) -> str:
    return ", ".join(f"{c.name} {c.cpu_s:.2f}" for c in table.by_name[:n])


def tus_from(entries: list[tuple[str, list[str]]], root: Path, strip_warnings: bool) -> list[Tu]:
    """Compile commands (cwd, driver + args) -> TUs (:func:`analyzer.projects.tus.from_commands`)."""
    return tus_mod.from_commands(entries, root, strip_warnings)


def capture(recipe: Recipe, tree: Path, tc: Toolchain, opts: Options, work: Path,
            cells: list[StudyCell], progress: Progress, box: BuildSandbox) -> list[Tu] | None:
    if recipe.build_system == "ccdb":
        entries = [(e["directory"], list(e["arguments"])) for e in recipe.commands]
        return tus_from(entries, Path(recipe.source or "/"), strip_warnings=True)
    prepared = prepare(recipe, tree, tc, opts, work, cells, progress, box)
    if prepared is None:
        return None
    return _capture_in(recipe, prepared, tc, opts, work, cells, progress, box)


def _capture_in(recipe: Recipe, prepared: tuple[Path, dict[str, str]], tc: Toolchain, opts: Options,
                work: Path, cells: list[StudyCell], progress: Progress, box: BuildSandbox
                ) -> list[Tu] | None:
    """The compile commands of one build of the configured tree (the wrapper logs them;
    outside the timing); None (``cells`` failed) when that build fails or compiles nothing."""
    copy, env = prepared
    log, wrap_log = work / "capture.log", box.box / "capture.wrap"
    progress(f"{recipe.name} {tc.name}: build capturing the compile commands (warm-up)")
    capture = StudyCell(tc.name, "", "", "off", {lang: ["-w"] for lang in recipe.languages})
    t = process.run(commands(recipe.build, capture, opts, "wrapper"), copy, level_env(env, capture, wrap_log), log,
                    timeout=opts.timeout, box=box)
    if t.exit != 0:
        fail(cells, f"build failed (exit {t.exit}) while capturing compile commands", log, copy)
        return None
    tus = tus_from([(r.cwd, list(r.args)) for r in read_log(wrap_log, box) if r.status == 0],
                   copy, strip_warnings=False)
    if not tus:
        fail(cells, "the build ran no compile command (-c) to replay", log)
    return tus or None


def _tu_cells(recipe: Recipe, tree: Path, tc: Toolchain, cells: list[StudyCell],
              analyzers: dict[int, analysis.Analyzer | None], opts: Options,
              work: Path, progress: Progress, box: BuildSandbox) -> None:
    tus = capture(recipe, tree, tc, opts, work, cells, progress, box)
    if tus is None:
        return
    objects = box.box / "objects"
    objects.mkdir()
    box.adopt(objects)
    progress.add_total(opts.runs * len(cells) * len(tus))
    for rnd in range(1, opts.runs + 1):
        for cell in cells:
            if cell.status == BuildStatus.FAILED:
                continue
            started, load1 = utc_now(), os.getloadavg()[0]
            rows: list[TuRun] = []
            an, seen = analyzers[id(cell)], set()
            for i, tu in enumerate(tus):
                out = work / "tu.log"
                if analysis.over_commands(an):
                    assert an is not None
                    try:
                        t, found, warnings = analysis.run_tu(an, tc, tu, out, opts.timeout, box,
                                                             nice=opts.nice, sched=opts.sched)
                    except AnalyzerUnavailable as exc:
                        cell.mark_failed(f"analyzer unavailable: {exc}", log_tail(out))
                        break
                    seen |= found
                else:
                    t = compile_tu(tc, tu, flags_for(cell, tu.language), objects / f"{i}.o", out,
                                   opts.timeout, nice=opts.nice, sched=opts.sched, box=box)
                    if t.exit != 0:
                        fail([cell], _analyzer_says(an, f"{tu.name} failed to compile (exit {t.exit})"), out)
                        break
                    warnings = count_warnings(out)
                    if an is not None:   # GCC's -fanalyzer
                        analysis.gcc_findings(out.read_text(errors="replace"), seen)
                progress.advance()
                rows.append(TuRun(tu=tu.name, seq=rnd, tree=t, warnings=warnings, host=host()))
            if cell.status == BuildStatus.FAILED:
                progress(f"{recipe.name} {tc.name} {cell.level}: run {rnd}: FAILED ({cell.error})")
                continue
            cell.tu_runs.extend(rows)
            if an is not None:
                cell.findings = len(seen)
            cpu = sum(r.cpu_s for r in rows)
            total = TreeRun(user=sum(r.tree.user for r in rows), sys=sum(r.tree.sys for r in rows),
                            wall=sum(r.tree.wall for r in rows), maxrss_kb=max(r.tree.maxrss_kb for r in rows),
                            load1=load1)
            cell.runs.append(BuildRun(seq=rnd, tree=total, compiler_cpu_s=cpu, compilers=len(rows),
                                      warnings=sum(r.warnings for r in rows), host=host(), started_at=started))
            progress(f"{recipe.name} {tc.name} {cell.level}: run {rnd}/{opts.runs}: {len(rows)} TUs, "
                     f"cpu {cpu:.2f} s, {cell.runs[-1].warnings} warnings")
