"""The units of work of a UB run, and how a worker carries each one out.

Three kinds of job, each independent and self-contained (the source travels in
the job, so a worker on another host needs no copy of the corpus):

* :class:`CellJob`: compile a program (through the cache) with one compiler,
  level and flag set, run it several times in the sandbox, classify; for gcc the
  same compile also yields the warning options that fired.
* :class:`ClangWarningsJob`: the warning options one clang version's libclang
  reports for many (case, level, flags).
* :class:`SanitizerJob`: build with ``-fsanitize=...`` at -O0 and run once,
  looking for the sanitizer's report on stderr.

Workers only compute; the client writes the results into the database. A job
that fails returns a :class:`JobFailure` (which cell, at which stage, why) instead
of raising, so failures are data the client aggregates, never text it parses.
"""
from __future__ import annotations

import dataclasses
import math
import re
import socket
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterator, Union

from warnscope.diagnostics import parse_gcc_json

from analyzer.sandbox import runner as sandbox
from analyzer.sandbox.limits import SandboxStatus
from analyzer.ub.classify import Classification, classify, said, verdict
from analyzer.runtime.toolchain import Toolchain, probe
from analyzer.ub.compile import CompiledProgram, compile_program
from analyzer.ub.corpus import Case
from analyzer.ub.libclang import warnings_for
from analyzer.ub.warnflags import clang_warning_args
from analyzer.ub.results import CellRef, CellRun, JobFailure, Outcome

STORED_OUTPUT = 4096   # bytes of stdout/stderr kept in the database
#: Time limit of the later runs of a program whose first run hung (see recheck_limits).
HANG_RECHECK_SECONDS = 0.5


@dataclass(frozen=True)
class CellCoordinates:
    """Which cell of a UB run: a case compiled by one compiler at one level with one flag
    set, run ``runs`` times within ``limits``; ``key``, the key of its stored row. What
    runs a cell (:class:`CellJob`) and what explains it
    (:class:`analyzer.ub.why.whyrun.WhyJob`) are both this and a little more."""

    case: Case
    compiler: Toolchain
    level: str
    flags: tuple[str, ...]
    runs: int
    limits: sandbox.Limits
    key: str

    @property
    def ref(self) -> CellRef:
        """The cell as a job's failure names it."""
        return CellRef("cell", self.compiler.name, self.case.id, " ".join((self.level, *self.flags)))


@dataclass(frozen=True)
class CellJob(CellCoordinates):
    source: bytes
    #: keep the program's generated code (compile with -g, disassemble in the sandbox)
    code: bool = True


@dataclass
class CellResult:
    job: CellJob
    verdict: Classification
    exit: int | None
    signal: int | None
    stdout: str
    stderr: str
    compile_log: str
    compile_cached: bool
    warnings: list[str] | None     # gcc only; clang's come from ClangWarningsJob
    runs: list[CellRun] = field(default_factory=list)
    host: str = ""
    #: the program's code (analyzer.ub.disasm's stored text), or None and why not
    code: str | None = None
    code_note: str = ""


@dataclass(frozen=True)
class ClangUnit:
    case: Case
    source: bytes
    level: str
    flags: tuple[str, ...]
    key: str


@dataclass(frozen=True)
class ClangWarningsJob:
    compiler: Toolchain
    units: tuple[ClangUnit, ...]


@dataclass
class ClangWarningsResult:
    job: ClangWarningsJob
    version: str
    options: dict[str, list[str]]   # unit key -> options
    failed: dict[str, str] = field(default_factory=dict)  # unit key -> why it has no answer


@dataclass(frozen=True)
class SanitizerJob:
    case: Case
    source: bytes
    compiler: Toolchain
    sanitizer: str                  # 'undefined' | 'address' | 'memory'
    limits: sandbox.Limits
    key: str


@dataclass
class SanitizerResult:
    job: SanitizerJob
    detected: bool | None           # None: could not build
    status: str                     # sandbox status, or 'compile-error'
    report: str


#: What each sanitizer writes when it finds something.
SANITIZER_MARKERS = {
    "undefined": re.compile(rb"runtime error:"),
    "address": re.compile(rb"ERROR: AddressSanitizer"),
    "memory": re.compile(rb"WARNING: MemorySanitizer"),
}
SANITIZER_ENV = {
    "UBSAN_OPTIONS": "print_stacktrace=0:halt_on_error=0",
    "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=0",
    "MSAN_OPTIONS": "abort_on_error=0",
}


Job = Union[CellJob, ClangWarningsJob, SanitizerJob]
Result = Union[CellResult, ClangWarningsResult, SanitizerResult, JobFailure]


def cell_ref(job: Job) -> CellRef:
    """The :class:`CellRef` of a job."""
    if isinstance(job, CellJob):
        return job.ref
    if isinstance(job, SanitizerJob):
        return CellRef("sanitizer", job.compiler.name, job.case.id, f"-fsanitize={job.sanitizer}")
    return CellRef("clang-warnings", job.compiler.name)


class _StageFailed(Exception):
    def __init__(self, stage: str, exc: Exception):
        super().__init__(stage, exc)
        self.stage, self.exc = stage, exc


@contextmanager
def _stage(name: str) -> Iterator[None]:
    """Tag an exception with the stage of the job it came from."""
    try:
        yield
    except _StageFailed:
        raise
    except Exception as exc:  # noqa: BLE001 - any failure of a job is reported, not fatal
        raise _StageFailed(name, exc) from exc


def execute(job: Job) -> Result:
    """Carry out one job in the current process (a pool worker or a Dask worker)."""
    if isinstance(job, CellJob):
        runner = run_cell
    elif isinstance(job, ClangWarningsJob):
        runner = run_clang_warnings
    elif isinstance(job, SanitizerJob):
        runner = run_sanitizer
    else:
        raise TypeError(f"not a UB job: {job!r}")
    try:
        return runner(job)
    except _StageFailed as failed:
        return JobFailure.of(cell_ref(job), failed.stage, failed.exc)


def _build(case: Case, source: bytes, compiler: Toolchain, flags: list[str],
           want_diagnostics: bool, want_code: bool = False) -> CompiledProgram:
    with _stage("compile"):
        return compile_program(compiler, case.language, case.std, case.path.name, source,
                               flags, list(case.link), want_diagnostics, want_code)


def run_cell(job: CellJob) -> CellResult:
    case = job.case
    build = _build(case, job.source, job.compiler, [job.level, *job.flags], True, job.code)
    warnings = parse_gcc_json.options_fired(build.diagnostics) if job.compiler.profile.gcc else None
    if not build.ok:
        return CellResult(job=job, verdict=verdict(case, Outcome.COMPILE_ERROR), exit=None,
                          signal=None, stdout="", stderr="", compile_log=build.log,
                          compile_cached=build.cached, warnings=warnings,
                          host=socket.gethostname(),
                          code_note="the compile failed" if job.code else "not asked (--no-code)")
    with _stage("run"):
        # natively, under qemu-user or under Wasmtime, as the target's profile says
        results = [job.compiler.run(build.binary, case.args, job.limits)]
        later = recheck_limits(job.limits) if results[0].status == SandboxStatus.TIMEOUT else job.limits
        results += [job.compiler.run(build.binary, case.args, later) for _ in range(job.runs - 1)]
    first = results[0]
    return CellResult(
        job=job, verdict=classify(case, results, job.compiler.cid.arch), exit=first.exit, signal=first.signal,
        stdout=_text(said(first)), stderr=_text(first.stderr), compile_log=build.log,
        compile_cached=build.cached, warnings=warnings,
        runs=[cell_run(r, limits.timeout)
              for r, limits in zip(results, [job.limits, *[later] * (job.runs - 1)])],
        host=socket.gethostname(), code=build.code,
        code_note=build.code_note if job.code else "not asked (--no-code)",
    )


def cell_run(run: sandbox.RunResult, timeout: float) -> CellRun:
    """What a cell keeps of one run: the measured process and how it ended, without
    the output itself (the cell keeps the first run's, capped)."""
    return CellRun(user=run.user, sys=run.sys, wall=round(run.wall, 6),
                   maxrss_kb=run.maxrss_kb, status=run.status, exit=run.exit,
                   signal=run.signal, truncated=run.truncated, stdout_bytes=len(run.stdout),
                   leftovers_killed=run.leftovers_killed, timeout=timeout)


def recheck_limits(limits: sandbox.Limits) -> sandbox.Limits:
    """The limits of the later runs of a program whose first run hung.

    The first run already spent the whole time limit; spending it again for each
    later run would double the cost of every hang for no information: a later run
    only has to show whether the program still hangs. It gets
    :data:`HANG_RECHECK_SECONDS` (never more than the cell's own limit): if it ends
    within them, the runs disagree and the cell is ``nondeterministic``; if it is
    killed again, the cell is a ``hang``. What this cannot see is a program that
    hung once and would have ended, the second time, between the recheck's limit
    and the cell's: it is recorded as a hang. Each run records the time limit it
    had (``timeout`` in the cell's ``runs``)."""
    seconds = min(limits.timeout, HANG_RECHECK_SECONDS)
    return dataclasses.replace(limits, timeout=seconds,
                               cpu=min(limits.cpu, max(1, math.ceil(seconds))))


def run_clang_warnings(job: ClangWarningsJob) -> ClangWarningsResult:
    units = [{"id": u.key, "filename": u.case.path.name,
              "source": u.source.decode("utf-8", "replace"),
              "args": clang_warning_args(u.case.language, u.case.std, u.level,
                                         [*_target_args(job.compiler, u.case.language), *u.flags])}
             for u in job.units]
    with _stage("warnings"):
        answer = warnings_for(job.compiler.major, units)
    return ClangWarningsResult(job=job, version=answer.version, options=answer.options,
                               failed=answer.failed)


def _target_args(compiler: Toolchain, language: str) -> list[str]:
    """What libclang's parse adds for a compiler's target: its flags
    (:meth:`Toolchain.target_flags`) and, where there are any, the driver's resource
    directory, which libclang does not find by itself for another target."""
    flags = list(compiler.target_flags(language))
    return [*flags, "-resource-dir", _resource_dir(compiler.c_driver)] if flags else []


@lru_cache(maxsize=None)
def _resource_dir(driver: str) -> str:
    return probe([driver, "-print-resource-dir"]).strip()


def run_sanitizer(job: SanitizerJob) -> SanitizerResult:
    case = job.case
    flags = ["-O0", "-g", f"-fsanitize={job.sanitizer}", "-fno-omit-frame-pointer"]
    build = _build(case, job.source, job.compiler, flags, False)
    if not build.ok:
        return SanitizerResult(job=job, detected=None, status="compile-error",
                               report=build.log[-STORED_OUTPUT:])
    with _stage("sanitizer"):
        result = job.compiler.run(build.binary, case.args, job.limits, env=SANITIZER_ENV)
    marker = SANITIZER_MARKERS[job.sanitizer]
    lines = [l for l in result.stderr.splitlines() if marker.search(l)]
    report = b"\n".join(lines[:5]) if lines else result.stderr[-1024:]
    return SanitizerResult(job=job, detected=bool(lines), status=result.status,
                           report=_text(report))


def _text(data: bytes) -> str:
    return data[:STORED_OUTPUT].decode("utf-8", "replace")

