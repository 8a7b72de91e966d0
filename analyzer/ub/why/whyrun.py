"""``ub run --why``: the cause of every divergent cell of a run, searched and stored.

A divergent cell is one whose behaviour differs from the same compiler's -O0 cell with
the same flags (neither a compile error). Each gets a :class:`WhyJob` --
:func:`analyzer.ub.why.why.why` for that cell, with the run's runs per cell and limits --
carried out by the run's executor like its cells (a local pool or Dask), and its
:class:`~analyzer.ub.results.Cause` stored with the key of the cell it explains
(:func:`analyzer.ub.store.save_causes`): a rerun searches only cells whose cause is not
stored, and a cell run again (a new key) is searched again. :func:`run_and_explain` is
``ub run --why`` whole: the run (:func:`analyzer.ub.run.run`), then these searches on the
same executor; the run itself knows nothing of them.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from analyzer.sandbox import runner as sandbox
from analyzer.runtime.executors import Executor, in_use, map_batches
from analyzer.runtime.progress import Progress
from analyzer.runtime.toolchain import Toolchain
from analyzer.ub import run as ub_run
from analyzer.ub import store as ub_store
from analyzer.ub.why import why as ub_why
from analyzer.ub.corpus import Case, Corpus
from analyzer.ub.jobs import CellCoordinates
from analyzer.ub.results import Cause, CellRef, CellRecord, JobFailure, Outcome, RunSummary


@dataclass(frozen=True)
class WhyJob(CellCoordinates):
    """The search for the cause of the cell it names (``key``: the stored cell's key)."""

    #: False: search again even if the answer is cached
    cached: bool = True


def divergent(cells: list[CellRecord]) -> list[CellRecord]:
    """The cells whose behaviour differs from their compiler's -O0 cell (same flags)."""
    ref = {(c.case_id, c.compiler, c.flags): c for c in cells if c.level == "-O0"}
    out = []
    for c in cells:
        o0 = ref.get((c.case_id, c.compiler, c.flags))
        if c.level == "-O0" or o0 is None or Outcome.COMPILE_ERROR in (c.outcome, o0.outcome):
            continue
        if c.behaviour != o0.behaviour:
            out.append(c)
    return out


def plan(conn, corpus: str, cases: list[Case], compilers: list[Toolchain], levels: list[str],
         flag_sets: list[tuple[str, ...]], runs: int, limits: sandbox.Limits) -> list[WhyJob]:
    """The searches still to do for the run's matrix."""
    by_id = {c.id: c for c in cases}
    tcs = {t.name: t for t in compilers}
    flag_names = {" ".join(f) for f in flag_sets}
    cells = [c for c in ub_store.load(conn, corpus, with_code=False).cells
             if c.case_id in by_id and c.compiler in tcs and c.flags in flag_names
             and (c.level in levels or c.level == "-O0")]
    done = ub_store.explained_keys(conn, corpus)
    return [WhyJob(case=by_id[c.case_id], compiler=tcs[c.compiler], level=c.level,
                   flags=tuple(c.flags.split()), runs=runs, limits=limits, key=c.key)
            for c in divergent(cells) if c.level in levels and c.key not in done]


def execute(job: WhyJob) -> tuple[str, Cause] | JobFailure:
    """One search, in a worker: (the cell's key, its cause), or why there is none."""
    try:
        return job.key, ub_why.why(job.case, job.compiler, job.level, job.flags, job.runs,
                                   job.limits, cached=job.cached)
    except Exception as exc:  # noqa: BLE001 - a failed search is reported, not fatal
        return JobFailure.of(job.ref, "why", exc)


def run(conn, corpus: str, jobs: list[WhyJob], executor: Executor,
        progress: Progress | None = None) -> tuple[int, list[JobFailure]]:
    """Carry out ``jobs`` on ``executor`` and store each cause as it arrives; the number
    stored and the failures."""
    stored, failures = 0, []
    for batch in map_batches(executor, execute, jobs, wait=0.5):
        found = []
        for job, result, error in batch:
            if error is not None:
                failures.append(JobFailure.of(CellRef("cell", job.compiler.name, job.case.id,
                                                      job.level), "why", error))
            elif isinstance(result, JobFailure):
                failures.append(result)
            else:
                found.append(result)
        if found:
            ub_store.save_causes(conn, corpus, found)
            stored += len(found)
        if progress is not None:
            progress.advance(len(batch))
    return stored, failures


def run_and_explain(conn, corpus_dir, compilers: list[Toolchain], levels: list[str], flag_sets: list[str] = ("",), *,
                    jobs: int | None = None, runs: int = ub_run.DEFAULT_RUNS,
                    limits: sandbox.Limits = sandbox.Limits(), executor: Executor | None = None,
                    progress: Progress | None = None,
                    validated: tuple[Corpus, list[Toolchain], list[str]] | None = None,
                    case_ids: tuple[str, ...] | list[str] = (), **options) -> RunSummary:
    """``ub run --why``: :func:`analyzer.ub.run.run` with these arguments (``options``: its
    others), then the cause of every divergent cell of the run whose cause is not stored,
    searched on the same executor and stored."""
    validated = validated or ub_run.validate(corpus_dir, compilers, levels)
    summary = ub_run.run(conn, corpus_dir, compilers, levels, flag_sets, jobs=jobs, runs=runs,
                         limits=limits, executor=executor, progress=progress,
                         validated=validated, case_ids=case_ids, **options)
    loaded, resolved, norm_levels = validated
    start = time.monotonic()
    todo = plan(conn, summary.corpus, ub_run.chosen(loaded, case_ids), resolved, norm_levels,
                ub_run.flag_sets_of(flag_sets), runs, limits)
    if todo:
        if progress is not None:
            progress(f"ub run --why: {len(todo)} divergent cells to explain")
            progress.add_total(len(todo))
        sandbox.prepare()
        with in_use(executor, jobs, pin=True) as ex:
            stored, failures = run(conn, summary.corpus, todo, ex, progress)
        summary.explained += stored
        summary.failures += failures
    summary.seconds += time.monotonic() - start
    return summary
