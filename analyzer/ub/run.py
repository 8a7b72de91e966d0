"""A UB run: plan the cells of a corpus, skip the finished ones, execute the rest.

A cell is (case, compiler, level, flag set). Its key is a hash of everything its
result depends on (source and expected outputs, compiler identity, level, flags,
runs per cell, sandbox limits, this module's RESULT_VERSION); a cell whose key is
already stored is not run again, which is how an unchanged rerun does nothing,
a new compiler runs only its own cells, and an interrupted run resumes. Finished
cells are stored as they arrive, in one transaction per :data:`STORE_INTERVAL`
at most (whatever has arrived by then), so a busy run does not pay a commit per
cell. On Ctrl-C or SIGTERM the executor is aborted at once (no waiting for
running cells) and every result that had arrived is stored: an interrupt loses
only the cells still running (``kill -9``, which nothing can catch, also the
results of the last interval). Jobs start longest first (:func:`schedule`).
"""
from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass
from pathlib import Path

from warnscope import trusted_roots
from warnscope.extract import shown
from warnscope.errors import BadInput, NotInstalled, SandboxUnavailable

from analyzer.sandbox import runner as sandbox
from analyzer.sandbox.limits import SandboxStatus
from analyzer.runtime.progress import Progress
from analyzer.runtime.executors import Executor, JobQueue, check_workers, in_use, map_batches
from analyzer.runtime.toolchain import Toolchain
from analyzer.ub import store as ub_store
from analyzer.ub.compile import normalize_level
from analyzer.ub.corpus import Case, Corpus, load
from analyzer.ub.jobs import (CellJob, CellResult, ClangUnit, ClangWarningsJob,
                              ClangWarningsResult, Job, SanitizerJob, SanitizerResult,
                              cell_ref, execute)
from analyzer.ub.results import CellRef, JobFailure, RunSummary

#: Bump when the meaning of a stored result changes, so old results are recomputed.
#: "4": a run stopped by the CPU limit could be stored as a crash (SIGKILL with rusage
#: just under the limit); such cells are run again.
#: "5": a cell keeps its program's generated code (compiled with -g, which leaves the code
#: as it is, and disassembled): cells stored without it are run again.
RESULT_VERSION = "5"
DEFAULT_RUNS = 2
CLANG_UNITS_PER_JOB = 40
#: Seconds between two stores of the results that have arrived. A commit (and its
#: fsyncs) per finished cell cost the client 0.44 s of CPU in a run of 440 cells, half
#: its total; an interrupted run stores what has arrived before it stops, so only
#: ``kill -9`` can lose up to this much finished work (the next run does it again).
STORE_INTERVAL = 0.5
SANITIZER_LIMITS = sandbox.Limits(timeout=10.0, cpu=10, address_space=None)

@dataclass
class Plan:
    cells: list[CellJob]
    clang_warnings: list[ClangWarningsJob]
    sanitizers: list[SanitizerJob]
    total_cells: int


def run(conn, corpus_dir: str | Path, compilers: list[Toolchain], levels: list[str],
        flag_sets: list[str] = ("",), *, jobs: int | None = None, runs: int = DEFAULT_RUNS,
        limits: sandbox.Limits = sandbox.Limits(), warnings: bool = True,
        sanitizers: bool = True, code: bool = True, executor: Executor | None = None,
        progress: Progress | None = None,
        validated: tuple[Corpus, list[Toolchain], list[str]] | None = None,
        case_ids: tuple[str, ...] | list[str] = ()) -> RunSummary:
    """Run every missing cell of ``corpus_dir`` by ``compilers`` (resolved by the caller,
    :func:`analyzer.runtime.toolchain.resolve_list`) and store the results in ``conn``.

    ``progress`` (:mod:`analyzer.runtime.progress`) is told how many jobs there are, in one
    message, and advanced as each one's result arrives. ``code`` False keeps no generated
    code (no -g, no objdump; part of the cells' keys, so a later run with code runs them
    again). ``validated``: :func:`validate`'s answer for these arguments, when the caller
    has it already (the corpus is not read twice). ``case_ids``: only these cases, each with its twin
    (:func:`chosen`)."""
    start = time.monotonic()
    if runs < 1:
        raise BadInput("runs per cell must be at least 1")
    check_workers(jobs)
    corpus = str(Path(corpus_dir).resolve())
    loaded, resolved, norm_levels = validated or validate(corpus_dir, compilers, levels)
    trusted_roots.vouch(corpus)  # the site may show this corpus's sources (this user chose it)
    cases = chosen(loaded, case_ids)
    flag_tuples = flag_sets_of(flag_sets)
    ub_store.save_cases(conn, corpus, loaded.cases)   # every case: --case drops none
    plan = make_plan(cases, resolved, norm_levels, flag_tuples, runs, limits,
                     warnings, sanitizers, ub_store.existing_keys(conn, corpus), code)
    summary = RunSummary(corpus=corpus, cases=len(cases), cells=plan.total_cells,
                         cells_run=0, compiled=0, warnings_run=0, sanitizers_run=0,
                         refused=[str(r) for r in loaded.refused])
    # A program that hangs in one cell likely hangs in its others: they move forward
    # as soon as it does, so that no hang starts last (JobQueue.promote below).
    work = JobQueue(schedule([*plan.cells, *plan.clang_warnings, *plan.sanitizers],
                             ub_store.hung_cases(conn, corpus)),
                    group=lambda job: job.case.id if isinstance(job, CellJob) else None)
    if progress is not None and work:
        progress(f"ub run: {len(plan.cells)} of {plan.total_cells} cells to run, "
                 f"{len(plan.clang_warnings)} libclang batches, {len(plan.sanitizers)} "
                 "sanitizer builds")
        progress.add_total(len(work))
    if work:
        sandbox.kill_leftovers()  # of an earlier run on this host that was killed
        sandbox.prepare()         # once here, not once per forked worker
        pending: list = []           # arrived, not yet stored
        stored_at = time.monotonic()
        with in_use(executor, jobs, pin=True,
                    keep=lambda: _store(conn, corpus, pending, summary)) as ex:
            for batch in map_batches(ex, execute, work, wait=STORE_INTERVAL):
                for job, result, error in batch:
                    if error is not None:
                        summary.failures.append(JobFailure.of(cell_ref(job), "worker", error))
                    elif isinstance(result, JobFailure):
                        summary.failures.append(result)
                    else:
                        pending.append(result)
                        summary.failures += unit_failures(result)
                        if isinstance(result, CellResult) and result.runs \
                                and result.runs[0].status == SandboxStatus.TIMEOUT:
                            work.promote(result.job.case.id)
                if pending and time.monotonic() - stored_at >= STORE_INTERVAL:
                    _store(conn, corpus, pending, summary)
                    stored_at = time.monotonic()
                if progress is not None:
                    progress.advance(len(batch))
            _store(conn, corpus, pending, summary)
    summary.seconds = time.monotonic() - start
    return summary


def flag_sets_of(flag_sets: list[str]) -> list[tuple[str, ...]]:
    """The run's flag sets as the cells name them, each once, in the order given."""
    return list(dict.fromkeys(tuple(f.split()) for f in flag_sets))


def _store(conn, corpus: str, pending: list, summary: RunSummary) -> None:
    """Store the results that have arrived, in one transaction, and empty ``pending``."""
    if pending:
        ub_store.save_results(conn, corpus,
                              cells=[r for r in pending if isinstance(r, CellResult)],
                              warnings=[r for r in pending if isinstance(r, ClangWarningsResult)],
                              sanitizers=[r for r in pending if isinstance(r, SanitizerResult)])
        for result in pending:
            _count(result, summary)
        pending.clear()


def unit_failures(result) -> list[JobFailure]:
    """The units of a libclang batch that got no answer (a limit ended their worker)."""
    if not isinstance(result, ClangWarningsResult):
        return []
    units = {u.key: u for u in result.job.units}
    return [JobFailure(cell=CellRef("clang-warnings", result.job.compiler.name, units[key].case.id,
                                    " ".join((units[key].level, *units[key].flags))),
                       stage="warnings", cause="LimitHit", detail=why)
            for key, why in result.failed.items()]


def group_failures(failures: list[JobFailure]) -> dict[tuple[str, str, str], list[CellRef]]:
    """Failures by (stage, cause, detail), so one problem of many cells is one entry."""
    groups: dict[tuple[str, str, str], list[CellRef]] = {}
    for f in failures:
        groups.setdefault((f.stage, f.cause, f.detail), []).append(f.cell)
    return groups


def chosen(corpus: Corpus, case_ids: tuple[str, ...] | list[str] = ()) -> list[Case]:
    """The cases of ``corpus`` named by ``case_ids``, each with its fixed twin (all of
    them when none is named); a name that is no case is one line of error."""
    if not case_ids:
        return corpus.cases
    by_id = {c.id: c for c in corpus.cases}
    missing = [c for c in case_ids if c not in by_id]
    if missing:
        raise BadInput(f"no case {shown(missing[0])!r} in the corpus")
    wanted = set(case_ids) | {by_id[c].twin for c in case_ids if by_id[c].twin}
    return [c for c in corpus.cases if c.id in wanted]


def validate(corpus_dir: str | Path, compilers: list[Toolchain], levels: list[str]
             ) -> tuple[Corpus, list[Toolchain], list[str]]:
    """Read the corpus and check compilers (each once, in order) and levels, before
    anything is written."""
    corpus = load(corpus_dir)
    resolved = list(compilers)
    if not resolved:
        raise BadInput("no compilers given")
    for tc in resolved:
        if tc.cannot_run:  # its programs could not run: one line, nothing stored
            raise NotInstalled(f"{tc.name}: {tc.cannot_run}")
    sandbox.prepare()   # no way to build the sandbox: one line, nothing stored
    norm_levels = list(dict.fromkeys(normalize_level(l) for l in levels))
    if not norm_levels:
        raise BadInput("no optimization levels given")
    in_roots = [tc for tc in resolved if tc.root is not None]
    if in_roots and not sandbox.namespaces_available():
        # its programs must see the root's libc: only the namespace sandbox can show it
        raise SandboxUnavailable(
            f"{in_roots[0].name} runs from its Debian {in_roots[0].suite} root, which needs the "
            "namespace sandbox (root, or user namespaces for a normal user); this system allows "
            "neither" + (" (WARNSCOPE_SANDBOX=plain)" if os.environ.get("WARNSCOPE_SANDBOX") == "plain"
                         else ""))
    return corpus, resolved, norm_levels


def make_plan(cases: list[Case], compilers: list[Toolchain], levels: list[str],
              flag_sets: list[tuple[str, ...]], runs: int, limits: sandbox.Limits,
              warnings: bool, sanitizers: bool, done: dict[str, set[str]],
              code: bool = True) -> Plan:
    """The jobs still to do; ``done`` holds the keys already stored, per table."""
    cells, sans = [], []
    clang_units: dict[str, list[ClangUnit]] = {}
    total = 0
    for case in cases:
        source = case.source
        for comp in compilers:
            for level in levels:
                for flags in flag_sets:
                    total += 1
                    key = _key("cell", case.source_hash, comp.identity, level, *flags,
                               str(runs), repr(limits), *([] if code else ["no-code"]))
                    if key not in done["ub_cell"]:
                        cells.append(CellJob(case=case, source=source, compiler=comp,
                                             level=level, flags=flags, runs=runs,
                                             limits=limits, key=key, code=code))
                    if warnings and comp.profile.clang and comp.profile.debian:
                        wkey = _key("libclang", case.source_hash, comp.identity, level, *flags)
                        if wkey not in done["ub_warning"]:
                            clang_units.setdefault(comp.name, []).append(
                                ClangUnit(case=case, source=source, level=level, flags=flags,
                                          key=wkey))
            if sanitizers:
                for san in sanitizers_for(case, comp):
                    skey = _key("sanitizer", case.source_hash, comp.identity, san,
                                repr(SANITIZER_LIMITS))
                    if skey not in done["ub_sanitizer"]:
                        sans.append(SanitizerJob(case=case, source=source, compiler=comp,
                                                 sanitizer=san, limits=SANITIZER_LIMITS,
                                                 key=skey))
    by_name = {c.name: c for c in compilers}
    warn_jobs = [ClangWarningsJob(compiler=by_name[name], units=tuple(units[i:i + CLANG_UNITS_PER_JOB]))
                 for name, units in clang_units.items()
                 for i in range(0, len(units), CLANG_UNITS_PER_JOB)]
    return Plan(cells=cells, clang_warnings=warn_jobs, sanitizers=sans, total_cells=total)


def schedule(work: list[Job], hung: set[str] = frozenset()) -> list[Job]:
    """The jobs in the order to start them: the longest expected first, so that the
    run does not end with one core busy on a long job and the others idle (longest
    processing time first). A batch of libclang parses is longest; then the jobs of
    cases that hung before (``hung``: a hang spends the whole time limit); then
    sanitizer builds and C++ compiles (their headers make them several times a C
    compile), optimised before -O0. Among equals, the jobs of one compiler and level
    run one after another, in the plan's order: a core that runs the same compiler
    again finds its code still in its caches (bench/bench_ub_order.py: the same
    compiles took 2.8 % less CPU, median of 5 rounds, than alternating gcc and clang)."""
    return [job for _, job in sorted(
        enumerate(work), key=lambda item: (-_expected_cost(item[1], hung),
                                           *_locality(item[1]), item[0]))]


def _locality(job: Job) -> tuple[str, str]:
    """What jobs that run well one after another share: the compiler, then the level."""
    if isinstance(job, CellJob):
        return job.compiler.name, " ".join((job.level, *job.flags))
    if isinstance(job, SanitizerJob):
        return job.compiler.name, job.sanitizer
    return job.compiler.name, ""


def _expected_cost(job: Job, hung: set[str]) -> float:
    if isinstance(job, ClangWarningsJob):
        return 100.0 + len(job.units)
    cost = 4.0 if job.case.language == "c++" else 1.0
    if isinstance(job, SanitizerJob):
        cost *= 1.5
    elif job.level != "-O0":
        cost *= 1.2
    if job.case.id in hung:
        cost += 50.0
    return cost


def sanitizers_for(case: Case, compiler: Toolchain) -> list[str]:
    """UBSan and ASan for every case; clang's MSan for uninitialised reads (C only:
    MSan needs an instrumented C++ library)."""
    found = ["undefined", "address"]
    if "memory" in compiler.profile.sanitizers and "uninit" in case.category and case.language == "c":
        found.append("memory")
    return found


def _count(result, summary: RunSummary) -> None:
    if isinstance(result, CellResult):
        summary.cells_run += 1
        summary.compiled += not result.compile_cached
        o = result.verdict.outcome
        summary.outcomes[o] = summary.outcomes.get(o, 0) + 1
    elif isinstance(result, ClangWarningsResult):
        summary.warnings_run += len(result.job.units)
    elif isinstance(result, SanitizerResult):
        summary.sanitizers_run += 1


def _key(*parts: str) -> str:
    return hashlib.sha256("\0".join((RESULT_VERSION, *parts)).encode()).hexdigest()


