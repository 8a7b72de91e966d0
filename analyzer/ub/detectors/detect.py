"""A detectors run (``ub detectors``): the stored runs read, the missing ones run and stored.

Every job (:class:`~analyzer.ub.detectors.analyzers.ToolJob`: one tool of one compiler version on
one program) has a key (:func:`~analyzer.ub.detectors.analyzers.run_key`: the program's bytes, the
tool, the compiler's identity, the level). A job whose key is stored in ``ub_detector_run``
with a lasting status (:func:`~analyzer.ub.detectors.analyzers.lasting`) is read, not run: an
unchanged rerun runs no tool, a new compiler runs only its own tools. The rest run as jobs
like compiles: on the local pool, or on the executor given (a Dask cluster, ``--scheduler``),
and are stored as they arrive, one transaction per
:data:`~analyzer.ub.run.STORE_INTERVAL` at most; on Ctrl-C, SIGTERM or a failed write the
executor is stopped at once and every run that had arrived is stored, so an interrupted run
resumes where it stopped. The scores are those of this run's jobs, read and run alike.
"""
from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass

from analyzer.runtime.executors import Executor, in_use, map_batches
from analyzer.runtime.progress import Progress
from analyzer.ub.detectors import analyzers as an
from analyzer.ub import store as ub_store
from analyzer.ub.detectors.analyzers import ToolJob
from analyzer.ub.corpus import Case
from analyzer.ub.detectors.detectors import ToolRun
from analyzer.ub.run import STORE_INTERVAL
from analyzer.ub.detectors.scores import Scores, score


@dataclass
class Detected:
    """A detectors run: its scores, and how many tool runs it ran and read."""

    scores: Scores
    ran: int       # tool runs run now
    stored: int    # tool runs read from the database


@dataclass
class Report:
    """What ``ub detectors`` prints, in every format: the run's scores, the corpus and each
    program's file in it (:func:`analyzer.ub.detectors.sarif.files_of`), the (version,
    tool) pairs asked for, and the cases whose detail is shown."""

    detected: Detected
    corpus: str
    files: dict[str, str]
    asked: set[tuple[str, str]]
    case_ids: list[str]


def run(conn: sqlite3.Connection, corpus: str, every_case: list[Case], cases: list[Case],
        jobs: list[ToolJob], workers: int | None = None, notes: list[str] = (),
        progress: Progress | None = None, executor: Executor | None = None) -> Detected:
    """Score ``jobs`` (on ``cases``, a part of ``every_case``, the corpus ``corpus`` as
    stored): the stored runs read, the others run and stored (see the module), on
    ``executor`` (a Dask cluster's: the caller closes it) or else on a local pool of
    ``workers``."""
    ub_store.save_cases(conn, corpus, every_case)
    stored = ub_store.detector_runs(conn, corpus)
    runs: list[ToolRun] = []
    todo: list[ToolJob] = []
    keys: dict[int, str] = {}
    for job in jobs:
        key = an.run_key(job)
        keys[id(job)] = key
        known = stored.get((job.case.id, job.tool.value, job.version, job.level))
        if known is not None and known[0] == key and an.lasting(known[1]) and not an.missing_now(job):
            runs.append(known[1])
        else:
            todo.append(job)
    reused = len(runs)
    if todo:
        if progress is not None:
            progress(f"ub detectors: {len(todo)} of {len(jobs)} tool runs to run")
            progress.add_total(len(todo))
        pending: list[tuple[str, ToolRun]] = []
        stored_at = time.monotonic()
        with in_use(executor, workers, keep=lambda: _store(conn, corpus, pending)) as ex:
            for batch in map_batches(ex, an.run_job, todo, wait=STORE_INTERVAL):
                for job, result, error in batch:
                    done = result if error is None else an.failed_job(job, error)
                    runs.append(done)
                    pending.append((keys[id(job)], done))
                if pending and time.monotonic() - stored_at >= STORE_INTERVAL:
                    _store(conn, corpus, pending)
                    stored_at = time.monotonic()
                if progress is not None:
                    progress.advance(len(batch))
            _store(conn, corpus, pending)
    return Detected(score(cases, runs, list(notes)), ran=len(runs) - reused, stored=reused)


def _store(conn: sqlite3.Connection, corpus: str, pending: list[tuple[str, ToolRun]]) -> None:
    """Store what has arrived and forget it (a run that is not lasting is stored too, so
    that reports say why a tool did not run; the next run tries it again)."""
    ub_store.save_detector_runs(conn, corpus, pending)
    pending.clear()
