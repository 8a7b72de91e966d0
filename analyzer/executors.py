"""Executors: where UB jobs run. Both yield (job, result, error) as jobs finish.

* :class:`LocalExecutor`: a process pool on this host (the default).
* :class:`DaskExecutor`: a Dask distributed cluster (``tcp://host:port``); the
  jobs carry their source, workers compute, the client writes the results.

Sandboxed runs need root on the worker for the uid pool; without it they fall
back to process-group containment (see :mod:`analyzer.sandbox`).
"""
from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
import signal
from typing import Iterable, Iterator, Protocol

from flagdb.errors import WarnscopeError

from analyzer.ub.jobs import execute


class Executor(Protocol):
    def run(self, jobs: Iterable) -> Iterator[tuple[object, object, BaseException | None]]: ...
    def close(self) -> None: ...


class LocalExecutor:
    """A pool of ``jobs`` worker processes (default: twice the number of cores)."""

    def __init__(self, jobs: int | None = None):
        # Twice the cores: a compile spends much of its wall time starting processes and
        # faulting in the compiler, not on the CPU (measured in bench/bench_ub.py).
        self.workers = jobs or 2 * (os.cpu_count() or 1)
        self.pool: cf.ProcessPoolExecutor | None = None

    def run(self, jobs: Iterable) -> Iterator[tuple[object, object, BaseException | None]]:
        self.pool = cf.ProcessPoolExecutor(max_workers=self.workers,
                                           mp_context=multiprocessing.get_context("fork"),
                                           initializer=_ignore_sigint)
        futures = {self.pool.submit(execute, job): job for job in jobs}
        for fut in cf.as_completed(futures):
            exc = fut.exception()
            yield futures[fut], (None if exc else fut.result()), exc

    def close(self) -> None:
        """Cancel what has not started; let running jobs end (each is bounded by the
        sandbox timeout), so no program is left behind."""
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None


def _ignore_sigint() -> None:
    """Ctrl-C is for the client: it stops handing out work and keeps what is stored.
    A worker interrupted mid-job would only lose that job."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class DaskExecutor:
    """The same jobs on a Dask distributed scheduler at ``address``."""

    def __init__(self, address: str):
        try:
            from distributed import Client
        except ImportError:
            raise WarnscopeError("--scheduler needs Dask: pip install distributed") from None
        try:
            self.client = Client(address, timeout="10s")
        except (OSError, TimeoutError) as exc:
            raise WarnscopeError(f"cannot reach the Dask scheduler at {address}: {exc}") from None

    def run(self, jobs: Iterable) -> Iterator[tuple[object, object, BaseException | None]]:
        from distributed import as_completed

        jobs = list(jobs)
        futures = self.client.map(execute, jobs, pure=False)
        by_key = {f.key: job for f, job in zip(futures, jobs)}
        for fut in as_completed(futures):
            exc = fut.exception()
            yield by_key[fut.key], (None if exc else fut.result()), exc
            fut.release()

    def close(self) -> None:
        self.client.close()
