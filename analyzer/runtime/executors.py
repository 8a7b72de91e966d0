"""Executors: where independent jobs run. Any part that fans work out uses them (the UB
runner today, the build-overhead matrix next), so they know nothing of what a job is.

A job is any picklable object; ``executor.map(fn, jobs)`` calls the module-level
function ``fn`` on each one in a worker and yields a :class:`Finished` per job, in the
order jobs finish. A job that raises is a ``Finished`` with ``error`` set, never an
exception out of ``map``: the caller decides what one failure means.

* :class:`LocalExecutor`: a process pool on this host (the default). Besides ``map``
  it can :meth:`~LocalExecutor.submit` one job and return at once, for a caller that
  has work of its own meanwhile (the report site renders half its pages while a
  forked worker renders the other half, from the data both processes share).
* :class:`DaskExecutor`: a Dask distributed cluster (``tcp://host:port``); jobs
  carry their inputs, workers compute, the caller writes the results.
* :class:`InlineExecutor`: one job after another in the calling process, for a job that
  fans out work of its own inside a worker (a worker may not fork a pool).

Process lifetime (local pool): a worker must never outlive the run, whatever ends
the run. Each worker asks the kernel for SIGTERM when its parent dies
(``PR_SET_PDEATHSIG``), so even ``kill -9`` of the run ends the workers; on SIGTERM a
worker kills what it started (the program under test, a compiler) and exits at once.
Ctrl-C is for the client alone (workers ignore SIGINT): the client stops consuming,
calls :meth:`LocalExecutor.abort`, which terminates the workers the same way, and
keeps what it had stored -- it does not wait for the running jobs to end.
"""
from __future__ import annotations

import asyncio
import collections
import concurrent.futures as cf
import contextlib
import multiprocessing
import multiprocessing.util
import os
import queue
import re
import signal
import sys
import time
from types import TracebackType
from typing import Any, Callable, Iterable, Iterator, NamedTuple, Protocol

from warnscope import processes
from warnscope.errors import BadInput, NotInstalled, WarnscopeError

#: Default workers per core: a compile spends much of its wall time starting processes
#: and faulting in the compiler, not on the CPU (measured in bench/bench_ub.py).
DEFAULT_WORKERS_PER_CORE = 2
#: No more workers than this per core, whatever ``-j`` asks: past it they only queue
#: for the CPU and cost memory (each is a forked interpreter).
MAX_WORKERS_PER_CORE = 8
#: Seconds an aborted worker gets to kill its children and exit before SIGKILL.
ABORT_GRACE = 2.0


class Finished(NamedTuple):
    """One job done: its ``result``, or the ``error`` it (or its worker) raised."""

    job: Any
    result: Any
    error: BaseException | None


class Executor(Protocol):
    """What a run needs of an executor. ``abort`` stops at once (Ctrl-C); ``close``
    releases an executor whose work is done. Both may be called more than once."""

    def map(self, fn: Callable[[Any], Any], jobs: Iterable[Any]) -> Iterator[Finished]: ...
    def abort(self) -> None: ...
    def close(self) -> None: ...


@contextlib.contextmanager
def running(executor: Any = None, workers: int | None = None) -> Iterator[Any]:
    """The executor a run was given, or a local pool of ``workers`` made for it (closed
    when the block ends); whatever ends the block early (Ctrl-C, a failed write) aborts
    it first, stopping every worker at once, so what was stored stays and nothing more
    is."""
    own = executor is None
    executor = executor or LocalExecutor(workers)
    try:
        yield executor
    except BaseException:
        executor.abort()
        raise
    finally:
        if own:
            executor.close()


def allowed_cpus() -> list[int]:
    """The CPUs this process may run on (its affinity mask), [] where it cannot be read."""
    try:
        return sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return []


def cores() -> int:
    """CPUs this process may run on (the affinity mask, not the machine's count)."""
    return len(allowed_cpus()) or os.cpu_count() or 1


def can_fork() -> bool:
    """Whether this platform can fork a worker (every local pool forks: see
    :class:`LocalExecutor`)."""
    return "fork" in multiprocessing.get_all_start_methods()


def check_workers(workers: int | None) -> int | None:
    """``-j N``: None (the default) or a positive count, else a one-line error."""
    if workers is not None and workers < 1:
        raise BadInput(f"-j/--jobs must be at least 1, not {workers}")
    return workers


class JobQueue:
    """Jobs waiting for a worker, in order; the jobs of a group (say, the cells of one
    program) can be moved to the front while they wait, when a finished job says they
    will be long (the program hung): a long job started late leaves the other workers
    idle at the end of a run. Iterating gives the waiting jobs in their current order
    (for executors that take them all at once)."""

    def __init__(self, jobs: Iterable[Any], group: Callable[[Any], str | None] = lambda j: None):
        self._order: collections.deque = collections.deque(enumerate(jobs))
        self._left = len(self._order)
        self._taken: set[int] = set()
        self._groups: dict[str, list[tuple[int, Any]]] = {}
        self._urgent: collections.deque = collections.deque()
        for item in self._order:
            key = group(item[1])
            if key is not None:
                self._groups.setdefault(key, []).append(item)

    def __len__(self) -> int:
        return self._left

    def __iter__(self) -> Iterator[Any]:
        seen = set(self._taken)
        for i, job in (*self._urgent, *self._order):
            if i not in seen:
                seen.add(i)
                yield job

    def promote(self, key: str) -> None:
        """Start the waiting jobs of group ``key`` before any other (in their order)."""
        self._urgent.extend(item for item in self._groups.pop(key, ())
                            if item[0] not in self._taken)

    def pop(self) -> Any | None:
        """The next job to start, or None when none is waiting."""
        for source in (self._urgent, self._order):
            while source:
                i, job = source.popleft()
                if i not in self._taken:
                    self._taken.add(i)
                    self._left -= 1
                    return job
        return None


class LocalExecutor:
    """A pool of worker processes on this host.

    ``workers`` is an upper bound: a run never starts more workers than it has jobs,
    nor more than :data:`MAX_WORKERS_PER_CORE` per core (``-j 100000`` must not fork
    100,000 interpreters). The default is :data:`DEFAULT_WORKERS_PER_CORE` per core.

    ``pin``: each worker, and whatever it starts, keeps to one core (worker i to the
    i-th core this process may use, round robin; only when every core gets as many
    workers, so ``-j 1`` or ``-j 3`` on two cores is not pinned). For the UB
    runner's workers: a worker, its sandbox zygote, each run's init and the program
    wake one another several times per run, and on one core they do so without
    interrupting another (bench/bench_sandbox.py: 6 % less CPU per run; a whole run
    of 440 cells went from 1.12 to 1.17 times the minimal driver's throughput,
    bench/README). Not for work that must share cores with the rest of the machine as
    it comes and goes.
    """

    def __init__(self, workers: int | None = None, pin: bool = False):
        self.requested = check_workers(workers)
        self.pin = pin
        self.pool: cf.ProcessPoolExecutor | None = None

    def workers_for(self, n_jobs: int) -> int:
        """How many workers ``n_jobs`` jobs get on this host."""
        wanted = self.requested or DEFAULT_WORKERS_PER_CORE * cores()
        return max(1, min(wanted, n_jobs, MAX_WORKERS_PER_CORE * cores()))

    def map(self, fn: Callable[[Any], Any], jobs: Iterable[Any]) -> Iterator[Finished]:
        for batch in self.map_batches(fn, jobs):
            yield from batch

    def map_batches(self, fn: Callable[[Any], Any], jobs: Iterable[Any],
                    wait: float | None = None) -> Iterator[list[Finished]]:
        """Like :meth:`map`, but each item is every job that had finished when the
        caller asked (at least one; or none, when ``wait`` seconds passed without a job
        finishing, so that a caller holding results can write them while the
        remaining jobs are long): a caller that writes results can write them
        together. Jobs are started in the order given -- or, for a :class:`JobQueue`,
        in its order at the moment a worker is free, so that the caller can move
        jobs forward (:meth:`JobQueue.promote`) while the run goes on: only a few
        more jobs than workers are handed to the pool ahead of time."""
        pending = jobs if isinstance(jobs, JobQueue) else JobQueue(jobs)
        total = len(pending)
        if not total:
            return
        workers = self.workers_for(total)
        pool = self._start(workers)
        # Each future puts itself in ``done`` when it ends (one callback each: no
        # rescanning of thousands of pending futures per batch, as cf.wait would).
        done: queue.SimpleQueue = queue.SimpleQueue()
        futures = {}

        def submit_next() -> None:
            job = pending.pop()
            if job is not None:
                fut = pool.submit(fn, job)
                futures[fut] = job
                fut.add_done_callback(done.put)

        for _ in range(2 * workers + 2):
            submit_next()
        for batch in _batches_of(done, total, wait):
            yield [_finished(futures.pop(fut), fut) for fut in batch]
            for _ in batch:
                submit_next()

    def submit(self, fn: Callable[[Any], Any], job: Any) -> cf.Future:
        """Start ``fn(job)`` in a worker and return at once; the future's ``result()``
        is its answer, or raises its error (``BrokenProcessPool`` if the worker died).
        The worker is forked at the first submit, so it sees this process's data as it
        is at that moment (module globals included) without pickling any of it; only
        ``job`` and the answer cross between the processes. The pool has the workers
        asked for (one by default), and ends with :meth:`close` or :meth:`abort`."""
        pool = self.pool or self._start(self.workers_for(self.requested or 1))
        return pool.submit(fn, job)

    def _start(self, workers: int) -> cf.ProcessPoolExecutor:
        """The pool: the one place warnscope creates worker processes. Forked, so
        workers start without importing anything again; the pool starts all of them
        at the first submit, from the calling thread (``PR_SET_PDEATHSIG`` follows that
        thread), and each first runs :func:`_worker_init`. The pool of an earlier
        ``map`` on this executor is released first."""
        self.close()
        context = multiprocessing.get_context("fork")
        cpus = allowed_cpus()
        # as many workers on each core: else one core's would wait while another idles
        pinning = (cpus, context.Value("i", 0)) \
            if self.pin and cpus and workers % len(cpus) == 0 else None
        self.pool = cf.ProcessPoolExecutor(max_workers=workers, mp_context=context,
                                           initializer=_worker_init,
                                           initargs=(os.getpid(), pinning))
        return self.pool

    def abort(self) -> None:
        """Stop now: cancel what has not started, terminate the workers (each kills the
        program or compiler it runs), and reap them. Nothing waits for a running job."""
        pool, self.pool = self.pool, None
        if pool is None:
            return
        workers = list(_pool_processes(pool))
        pool.shutdown(wait=False, cancel_futures=True)
        for proc in workers:
            _signal(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + ABORT_GRACE
        for proc in workers:
            proc.join(max(0.0, deadline - time.monotonic()))
            if proc.is_alive():
                _signal(proc.pid, signal.SIGKILL)
                proc.join()

    def close(self) -> None:
        """Release a pool whose jobs are all done (or abort one that is not)."""
        pool, self.pool = self.pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> "LocalExecutor":
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.abort() if exc_type is not None else self.close()


class InlineExecutor:
    """The jobs one after another in this process: for a job that is itself a worker's
    (a Dask task, a pool's job), whose process may not fork a pool of its own."""

    def map(self, fn: Callable[[Any], Any], jobs: Iterable[Any]) -> Iterator[Finished]:
        for job in jobs:
            try:
                yield Finished(job, fn(job), None)
            except Exception as exc:  # noqa: BLE001 -- a job's failure is its Finished
                yield Finished(job, None, exc)

    def abort(self) -> None:
        pass

    def close(self) -> None:
        pass


@contextlib.contextmanager
def in_use(executor: Executor | None, workers: int | None = None, pin: bool = False,
           keep: Callable[[], None] = lambda: None) -> Iterator[Executor]:
    """The caller's ``executor``, or else a :class:`LocalExecutor` of ``workers`` (closed
    at the end). Whatever stops the work (Ctrl-C, a failed write) aborts the executor at
    once, then calls ``keep`` (to store what has arrived); should ``keep`` fail too, the
    first error is the one raised."""
    own = executor is None
    executor = executor or LocalExecutor(workers, pin=pin)
    try:
        yield executor
    except BaseException:
        executor.abort()  # stop every worker now
        try:
            keep()
        except Exception:  # noqa: BLE001 - the write that failed fails again: the
            pass           # first error is the one to report
        raise
    finally:
        if own:
            executor.close()


def _batches_of(done: queue.SimpleQueue, total: int, wait: float | None = None
                ) -> Iterator[list[Any]]:
    """Lists of items from ``done``: block for one (an empty list after ``wait``
    seconds without one), then take all that are there too."""
    left = total
    while left:
        try:
            batch = [done.get(timeout=wait)]
        except queue.Empty:
            yield []
            continue
        while True:
            try:
                batch.append(done.get_nowait())
            except queue.Empty:
                break
        left -= len(batch)
        yield batch


def _finished(job: Any, fut: Any) -> Finished:
    exc = fut.exception()
    return Finished(job, None if exc else fut.result(), exc)


def map_batches(executor: Executor, fn: Callable[[Any], Any], jobs: Iterable[Any],
                wait: float | None = None) -> Iterator[list[Finished]]:
    """``executor.map_batches`` where the executor has it (``wait`` as there), else one
    job per batch."""
    batched = getattr(executor, "map_batches", None)
    if batched is not None:
        return batched(fn, jobs, wait)
    return ([f] for f in executor.map(fn, jobs))


def _pool_processes(pool: cf.ProcessPoolExecutor) -> Iterable[multiprocessing.Process]:
    """The worker processes of ``pool``. Python 3.14 has ``terminate_workers()``; before
    it, the pool keeps them in ``_processes`` (pid -> Process) since 3.2."""
    return dict(getattr(pool, "_processes", None) or {}).values()


def _signal(pid: int | None, sig: int) -> None:
    if pid:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass


def _worker_init(parent: int, pinning: tuple[list[int], Any] | None = None) -> None:
    """In each worker, first thing: die with the parent, ignore Ctrl-C, and on SIGTERM
    take the worker's own children down with it; keep to its core when ``pinning``
    (the cores, and the count of workers pinned so far)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _die)
    try:
        processes.set_parent_death_signal(signal.SIGTERM)
    except OSError:
        pass  # no prctl here: the check of the parent below still holds
    if os.getppid() != parent:  # the parent died before the request took effect
        _die()
    if pinning is not None:
        cpus, count = pinning
        with count.get_lock():
            index, count.value = count.value, count.value + 1
        try:
            os.sched_setaffinity(0, {cpus[index % len(cpus)]})
        except OSError:
            pass  # a core taken away meanwhile: the worker runs where it may
    # A worker ends with os._exit (no atexit): stop its sandbox zygotes first, so that
    # they reap their runs and their CPU reaches the worker's rusage, then the client's.
    multiprocessing.util.Finalize(None, _release_sandbox, exitpriority=10)


def _release_sandbox() -> None:
    """What a worker's sandbox holds, let go at its end however it ends: its zygotes
    (reaped, their CPU counted) and its compile workspaces' directory."""
    zygote = sys.modules.get("analyzer.sandbox.zygote")
    if zygote is not None:
        zygote.close_all()


def _die(signum: int | None = None, frame: object = None) -> None:
    """Kill every child of this worker -- a sandboxed program leads its own process
    group, so the group goes with it; a compiler shares ours -- then exit at once."""
    kill_children()
    _release_sandbox()
    os._exit(128 + signal.SIGTERM)


def kill_children() -> None:
    """SIGKILL each child of this process (its process group when it leads one), reap
    them, and repeat until none is left (orphans re-parented to us included)."""
    for _ in range(50):
        kids = processes.children(os.getpid())
        if not kids:
            return
        for pid in kids:
            try:
                if os.getpgid(pid) == pid:
                    os.killpg(pid, signal.SIGKILL)
                else:
                    os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        _reap()
        time.sleep(0.01)


def _reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


#: tcp://HOST:PORT or tls://HOST:PORT (HOST a name, an IPv4 address or [IPv6])
SCHEDULER_RE = re.compile(r"^(tcp|tls)://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$")

#: Seconds to reach a scheduler, all of it: the TCP (or TLS) connect, the handshake and
#: the client's registration. distributed's own ``timeout`` covers the connect but not
#: the handshake's read, so a peer that accepts and never answers would hang the
#: command: the whole start runs under this deadline (see :func:`connect_client`).
CONNECT_TIMEOUT = 10.0
#: Seconds a client that failed to start gets to let go of its connection.
CLOSE_TIMEOUT = 1.0
#: dask's configuration keys a tls:// scheduler needs (warnscope takes no certificates
#: of its own: dask reads them from its config files or DASK_DISTRIBUTED__COMM__TLS__…)
TLS_KEYS = ("distributed.comm.tls.ca-file", "distributed.comm.tls.client.cert",
            "distributed.comm.tls.client.key")


class SchedulerUnreachable(WarnscopeError):
    """The Dask scheduler given with ``--scheduler`` cannot be used: nothing listens, it
    does not answer within :data:`CONNECT_TIMEOUT`, it answers what a scheduler would
    not (a frame too large to receive, another protocol), or TLS has no certificates."""


def check_scheduler(address: str) -> str:
    """A Dask scheduler address, or a one-line error naming the expected form."""
    m = SCHEDULER_RE.match(address.strip())
    if not m or not 0 < int(m.group(3)) < 65536:
        raise BadInput(f"--scheduler {address!r} is not a scheduler address: "
                       "expected tcp://HOST:PORT or tls://HOST:PORT")
    return address.strip()


def _security(address: str) -> Any:
    """distributed's ``Security`` for ``address``: dask's configuration as it is, which
    for tls:// must name a CA file and a client certificate (else one line saying so)."""
    from distributed.security import Security

    try:
        security = Security()
        tls = security.get_connection_args("client")["ssl_context"] is not None
    except (OSError, ValueError) as exc:  # ssl.SSLError is an OSError: a bad file named in the config
        raise SchedulerUnreachable(f"cannot use dask's TLS configuration for {address}: {exc}") from None
    if address.startswith("tls://") and not tls:
        raise SchedulerUnreachable(
            f"--scheduler {address}: tls:// needs a CA file and a client certificate from dask's "
            f"configuration ({', '.join(TLS_KEYS)}; e.g. DASK_DISTRIBUTED__COMM__TLS__CA_FILE); "
            "none is set, and warnscope takes no certificates of its own")
    return security


def connect_client(address: str, timeout: float = CONNECT_TIMEOUT) -> Any:
    """A ``distributed.Client`` on the scheduler at ``address``, started within
    ``timeout`` seconds in all (connect, handshake, registration), or a one-line
    :class:`SchedulerUnreachable`. The deadline is the one ``distributed.utils.sync``
    enforces on the client's start (``callback_timeout``): the start is cancelled on
    the client's event loop, its connection closed. Ctrl-C and SIGTERM end the wait at
    once (they are raised in this thread while it waits) and close the client too."""
    address = check_scheduler(address)
    try:
        from distributed import Client
    except ImportError:
        raise NotInstalled("--scheduler needs Dask: pip install distributed") from None
    security = _security(address)

    class BoundedClient(Client):
        """A Client whose start obeys a deadline, and lets go of what it holds if the
        start fails or is interrupted (the constructor raises: no one else could)."""

        def start(self, **kwargs: Any) -> None:
            try:
                super().start(callback_timeout=timeout, **kwargs)
            except BaseException:
                try:
                    self.close(timeout=CLOSE_TIMEOUT)
                except Exception:  # noqa: BLE001 -- closing a client that never started
                    pass
                raise

    try:
        return BoundedClient(address, timeout=timeout, security=security)
    except MemoryError as exc:  # numpy's: a frame header announcing exabytes
        size = str(exc).split(" for an array")[0]
        raise SchedulerUnreachable(f"the peer at {address} is not a Dask scheduler warnscope can "
                                   f"use: it announced a message too large to receive ({size})") from None
    except (TimeoutError, asyncio.TimeoutError):
        raise SchedulerUnreachable(f"the Dask scheduler at {address} did not answer within "
                                   f"{timeout:g} s (connect and handshake)") from None
    except OSError as exc:  # refused, unreachable, closed by the peer (CommClosedError)
        raise SchedulerUnreachable(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    except Exception as exc:  # noqa: BLE001 -- whatever the peer's answer made distributed raise
        raise SchedulerUnreachable(f"the peer at {address} is not a Dask scheduler warnscope can use "
                                   f"({type(exc).__name__}: {exc})") from None


class DaskExecutor:
    """The same jobs on a Dask distributed scheduler at ``address``."""

    def __init__(self, address: str, timeout: float = CONNECT_TIMEOUT):
        self.client = connect_client(address, timeout)
        self.futures: list = []

    def map(self, fn: Callable[[Any], Any], jobs: Iterable[Any], **options: Any) -> Iterator[Finished]:
        """``options`` go to ``Client.map`` (``resources={"timing": 1}``: one job per unit)."""
        from distributed import as_completed

        jobs = list(jobs)
        if not jobs:
            return
        self.futures = self.client.map(fn, jobs, pure=False, **options)
        by_key = {f.key: job for f, job in zip(self.futures, jobs)}
        for fut in as_completed(self.futures):
            exc = fut.exception()
            yield Finished(by_key[fut.key], None if exc else fut.result(), exc)
            fut.release()
        self.futures = []

    def abort(self) -> None:
        """Cancel what is queued or running on the cluster."""
        if self.futures:
            self.client.cancel(self.futures)
            self.futures = []

    def close(self) -> None:
        self.abort()
        self.client.close()

    def __enter__(self) -> "DaskExecutor":
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def for_scheduler(scheduler: str | None) -> "DaskExecutor | None":
    """The executor a command's ``--scheduler`` asks for: a :class:`DaskExecutor` on that
    cluster (an unreachable one is one error line, before anything is written), or None
    for the caller's local pool."""
    return DaskExecutor(scheduler) if scheduler else None
