"""Running the detectors' tools on corpus programs, in the sandbox.

Each tool reads the untrusted source, so it runs exactly as a compile does
(:mod:`analyzer.ub.compile`): in a fresh :func:`analyzer.sandbox.runner.workspace` holding only
the program, under :data:`analyzer.ub.compile.COMPILE_LIMITS`, with the compiler's root
(``root=``) when the compiler comes from a Debian root. The sanitizer build goes through
:func:`analyzer.ub.compile.compile_program` (cached by content) and runs in the sandbox
like any corpus program.

Which tools a compiler version has (:func:`tools_for`): every compiler its warnings and
sanitizers; GCC 10 on ``-fanalyzer``; every clang ``--analyze`` and, when
``clang-tidy-N`` is installed beside it, clang-tidy's ``bugprone-*`` checks. cppcheck
belongs to no compiler: it runs once per program with the host's ``cppcheck``
(:func:`analyzer.runtime.toolchain.cppcheck_version`), and its findings count for ``cppcheck-VERSION``.

A tool that is missing, crashes, hangs or prints what the parsers do not know is a
:class:`~analyzer.ub.detectors.detectors.ToolRun` with that status and one line saying why --
never an exception, never a run that "found nothing".
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass

from warnscope.diagnostics import parse_gcc_json
from warnscope.paths import atomic_write, cache_dir

from analyzer.sandbox import runner as sandbox
from analyzer.sandbox.limits import SandboxStatus
from analyzer.runtime.toolchain import Toolchain
from analyzer.ub.detectors import detectors as det
from analyzer.ub.compile import COMPILE_LIMITS, compile_program
from analyzer.ub.warnflags import CLANG_WARNINGS, gcc_warning_flags
from analyzer.ub.corpus import Case
from analyzer.ub.detectors.detectors import Finding, Kind, RunStatus, Tool, ToolRun

#: clang-tidy's bug-finding checks (its compiler warnings, ``clang-diagnostic-*``, are
#: the warnings detector's, not clang-tidy's)
TIDY_CHECKS = "-*,bugprone-*"
SANITIZE = ["-O0", "-g", "-fsanitize=address,undefined", "-fno-omit-frame-pointer"]
SANITIZER_ENV = {"UBSAN_OPTIONS": "print_stacktrace=0:halt_on_error=0:report_error_type=1",
                 "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=0"}
SANITIZER_LIMITS = sandbox.Limits(timeout=10.0, cpu=10, address_space=None)


@dataclass(frozen=True)
class ToolJob:
    """One tool on one program for one compiler (None: cppcheck). Picklable: a job for
    :mod:`analyzer.runtime.executors`."""

    case: Case
    tool: Tool
    compiler: Toolchain | None
    level: str = ""                # the warnings' -O level
    cppcheck: str = ""             # cppcheck's version, for a cppcheck job

    @property
    def version(self) -> str:
        return self.compiler.name if self.compiler else f"cppcheck-{self.cppcheck}"


def tools_for(compiler: Toolchain) -> list[Tool]:
    """The tools a compiler version has (see the module)."""
    tools = [Tool.WARNINGS, Tool.SANITIZERS]
    if compiler.profile.gcc:
        tools.append(Tool.GCC_ANALYZER)
    else:
        tools += [Tool.CLANG_ANALYZER, Tool.CLANG_TIDY]
    return tools


def jobs_for(cases: list[Case], compilers: list[Toolchain], tools: list[Tool] | None = None,
             levels: tuple[str, ...] = ("-O2",), cppcheck: str | None = None) -> list[ToolJob]:
    """Every tool of every compiler on every case (``tools``: only these), warnings once
    per level; cppcheck once per case when its version is given."""
    jobs = []
    for case in cases:
        for compiler in compilers:
            for t in tools_for(compiler):
                if tools is not None and t not in tools:
                    continue
                for level in (levels if t is Tool.WARNINGS else ("",)):
                    jobs.append(ToolJob(case, t, compiler, level))
        if cppcheck and (tools is None or Tool.CPPCHECK in tools):
            jobs.append(ToolJob(case, Tool.CPPCHECK, None, cppcheck=cppcheck))
    return jobs


def run_job(job: ToolJob) -> ToolRun:
    """Run one job, through the cache; whatever happens, a :class:`ToolRun`
    (module-level: executors call it)."""
    if missing_now(job):
        return _clang_tidy(job)          # missing now, whatever a cache says of before
    path = _cache_path(job)
    cached = _cached(path, job)
    if cached is not None:
        return cached
    runner = {Tool.WARNINGS: _warnings, Tool.SANITIZERS: _sanitizers,
              Tool.GCC_ANALYZER: _gcc_analyzer, Tool.CLANG_ANALYZER: _clang_analyzer,
              Tool.CLANG_TIDY: _clang_tidy, Tool.CPPCHECK: _cppcheck}[job.tool]
    run = runner(job)
    if lasting(run):
        atomic_write(path, json.dumps({
            "status": run.status.value, "note": run.note,
            "findings": [[f.detector, f.kind.value, f.line, f.message] for f in run.findings]}).encode())
    return run


def missing_now(job: ToolJob) -> bool:
    """Whether the job's tool is missing now (clang-tidy-N not beside clang-N), whatever
    a cached or stored run of it says of before."""
    return job.tool is Tool.CLANG_TIDY and job.compiler is not None \
        and job.compiler.tool(f"clang-tidy-{job.compiler.major}") is None


def lasting(run: ToolRun) -> bool:
    """Whether a run says what the tool makes of the program for good (its findings, or
    an error of its own exit), so that it is kept and not run again; a limit, a signal,
    a missing tool or an output not understood is tried again by the next run."""
    return run.status is RunStatus.OK or (run.status is RunStatus.FAILED and " exit " in run.note)


#: Bump when what a cached run means changes (the tools' flags, the parsers).
CACHE_VERSION = "detectors-3"


def run_key(job: ToolJob) -> str:
    """The hash of everything a run of this job depends on: the program's bytes, the
    tool, the compiler's identity (an upgraded package makes new keys) and the level
    (the key of its cached file, and of its row in the database)."""
    who = job.compiler.identity if job.compiler else f"cppcheck {job.cppcheck}"
    return hashlib.sha256("\0".join(
        [CACHE_VERSION, job.tool.value, who, job.level, job.case.language, job.case.std,
         _filename(job.case), *job.case.link, "--args", *job.case.args]).encode()
        + b"\0" + job.case.source).hexdigest()


def _cache_path(job: ToolJob):
    """Where a run of this tool on this program is kept (:func:`run_key`); only a
    :func:`lasting` run is kept."""
    key = run_key(job)
    return cache_dir("ub", "detect", key[:2]) / f"{key}.json"


def _cached(path, job: ToolJob) -> ToolRun | None:
    try:
        data = json.loads(path.read_bytes())
        findings = [Finding(d, Kind(k), l, m) for d, k, l, m in data["findings"]]
        return _run(job, RunStatus(data["status"]), findings, data["note"])
    except (OSError, ValueError, KeyError, TypeError):
        return None      # not there, or damaged: run again


def run_jobs(jobs: list[ToolJob], executor=None) -> list[ToolRun]:
    """All ``jobs``, on ``executor`` (:mod:`analyzer.runtime.executors`) or here one by one; a
    job whose worker failed is a FAILED run saying why."""
    if executor is None:
        return [run_job(j) for j in jobs]
    return [done.result if done.error is None else failed_job(done.job, done.error)
            for done in executor.map(run_job, jobs)]


def failed_job(job: ToolJob, error: BaseException) -> ToolRun:
    """The run of a job whose worker failed: FAILED, saying why."""
    return _run(job, RunStatus.FAILED, note=f"its job failed: {type(error).__name__}: "
                                            f"{' '.join(str(error).split())[:200]}")


# --- the tools ---------------------------------------------------------------------------

def _run(job: ToolJob, status: RunStatus, findings: list[Finding] = (), note: str = "") -> ToolRun:
    return ToolRun(job.case.id, job.tool, job.version, status, det.unique(list(findings)),
                   note, job.level)


def _std(case: Case) -> str:
    return f"-std={case.std}"


def _compile_flags(case: Case) -> list[str]:
    """What of the case's ``link:`` speaks to the compiler too (-D, -U, -std=, -f, -W,
    -pthread; not the libraries): the tools see the program as its compiles do."""
    return [w for w in case.link if not w.startswith("-l")]


def _filename(case: Case) -> str:
    return os.path.basename(case.path)


def _in_sandbox(job: ToolJob, argv: list[str], root: str | None,
                limits: sandbox.Limits = COMPILE_LIMITS) -> sandbox.RunResult:
    """``argv`` run in a workspace holding only the program (as a compile runs)."""
    with sandbox.workspace() as ws:
        src = ws.path / _filename(job.case)
        src.write_bytes(job.case.source)
        os.chmod(src, 0o644)
        return ws.run(argv, limits, root=root)


def _ended_badly(job: ToolJob, result: sandbox.RunResult, name: str) -> ToolRun | None:
    """The run when the tool did not end by itself (a limit, a signal), else None."""
    if result.status == SandboxStatus.TIMEOUT:
        return _run(job, RunStatus.TIMED_OUT, note=f"{name} stopped at the sandbox's "
                                                    f"{result.limit or 'time'} limit")
    if result.status == SandboxStatus.SIGNAL:
        return _run(job, RunStatus.FAILED, note=f"{name} was killed by signal {result.signal}"
                                                + (f" ({result.limit} limit)" if result.limit else ""))
    if result.status == SandboxStatus.OUTPUT_TRUNCATED:
        return _run(job, RunStatus.FAILED, note=f"{name} printed more than the sandbox keeps")
    return None


def _first_error(stderr: str) -> str:
    lines = [l for l in stderr.splitlines() if "error" in l] or stderr.splitlines() or [""]
    return " ".join(lines[0].split())[:200]


def _text_tool(job: ToolJob, argv: list[str], name: str, kind: Kind, prefix: str = "",
               skip: tuple[str, ...] = (), root: str | None = None) -> ToolRun:
    """A tool whose findings are ``file:line:col: warning: ... [name]`` lines."""
    result = _in_sandbox(job, argv, root)
    bad = _ended_badly(job, result, name)
    if bad:
        return bad
    text = (result.stdout + b"\n" + result.stderr).decode("utf-8", "replace")
    findings, strange = det.bracketed(text, _filename(job.case), kind, prefix, skip)
    if result.exit != 0 and not findings:
        if result.exit == 127:
            return _run(job, RunStatus.UNAVAILABLE, note=f"{name} could not be started: "
                                                         f"{_first_error(text)}")
        return _run(job, RunStatus.FAILED, note=f"{name} exit {result.exit}: {_first_error(text)}")
    if strange:
        return _run(job, RunStatus.UNKNOWN_OUTPUT, findings,
                    note=f"{name} printed {' '.join(strange[0].split())[:160]!r}, "
                         "a shape not understood here")
    return _run(job, RunStatus.OK, findings)


def _driver(job: ToolJob) -> list[str]:
    """The compiler's driver and what its target adds to every compile (WASI's flags for
    a WebAssembly compiler: :meth:`Toolchain.target_flags`), so that a tool sees the
    program as the target's compiles do (``long`` of 32 bits on wasm32)."""
    assert job.compiler is not None
    return [job.compiler.driver(job.case.language), *job.compiler.target_flags(job.case.language)]


def _warnings(job: ToolJob) -> ToolRun:
    compiler = job.compiler
    assert compiler is not None
    name = f"{compiler.name} {job.level} warnings"
    if compiler.profile.clang:
        argv = [*_driver(job), _std(job.case), *_compile_flags(job.case), job.level,
                "-fsyntax-only", *CLANG_WARNINGS,
                "-fno-color-diagnostics", "-fdiagnostics-show-option", _filename(job.case)]
        return _text_tool(job, argv, name, Kind.WARNING, root=compiler.root)
    argv = [*_driver(job), _std(job.case), *_compile_flags(job.case), job.level, "-c",
            *gcc_warning_flags(), *_diagnostics_option(compiler), _filename(job.case),
            "-o", "a.o"]
    return _gcc_json_tool(job, argv, name, root=compiler.root)


def _diagnostics_option(compiler: Toolchain) -> tuple[str, ...]:
    """What asks this GCC for the diagnostics its profile says it prints: JSON up to 15,
    SARIF from 16 (read alike by :func:`parse_gcc_json.split_parts`)."""
    return compiler.profile.diagnostics_option(compiler.major)


def _gcc_json_tool(job: ToolJob, argv: list[str], name: str, root: str | None,
                   kind: Kind = Kind.WARNING) -> ToolRun:
    """A gcc run with JSON or SARIF diagnostics; only findings of ``kind`` are this tool's."""
    result = _in_sandbox(job, argv, root)
    bad = _ended_badly(job, result, name)
    if bad:
        return bad
    stderr = result.stderr.decode("utf-8", "replace")
    diagnostics, rest, documents = parse_gcc_json.split_parts(stderr)
    findings = [f for f in det.gcc_json(diagnostics, _filename(job.case)) if f.kind is kind]
    if result.exit != 0:
        return _run(job, RunStatus.FAILED, note=f"{name} exit {result.exit}: "
                                                f"{_first_error(chr(10).join(rest))}")
    leftover = [l for l in rest if l.strip()]
    if leftover and not documents:
        return _run(job, RunStatus.UNKNOWN_OUTPUT, note=f"{name} printed "
                    f"{' '.join(leftover[0].split())[:160]!r}, not JSON or SARIF diagnostics")
    return _run(job, RunStatus.OK, findings)


def _gcc_analyzer(job: ToolJob) -> ToolRun:
    compiler = job.compiler
    assert compiler is not None
    if not compiler.profile.has_analyzer(compiler.major):
        return _run(job, RunStatus.UNAVAILABLE, note=f"{compiler.name} has no "
                    f"{compiler.profile.analyzer_option} (GCC {compiler.profile.analyzer_since} on)")
    # -fanalyzer runs in the middle end: a real compile (-c), not -fsyntax-only; -w would
    # silence the analyzer too, so the compiler's few default warnings are dropped instead
    argv = [*_driver(job), _std(job.case), *_compile_flags(job.case), "-O0", "-c",
            compiler.profile.analyzer_option, *_diagnostics_option(compiler), _filename(job.case),
            "-o", "a.o"]
    return _gcc_json_tool(job, argv, f"{compiler.name} -fanalyzer", root=compiler.root,
                          kind=Kind.ANALYZER)


def _clang_analyzer(job: ToolJob) -> ToolRun:
    compiler = job.compiler
    assert compiler is not None
    argv = [*_driver(job), _std(job.case), *_compile_flags(job.case), "--analyze",
            "-Xclang", "-analyzer-output=text",
            "-fno-color-diagnostics", "-w", _filename(job.case), "-o", "a.plist"]
    return _text_tool(job, argv, f"{compiler.name} --analyze", Kind.ANALYZER, root=compiler.root)


def _clang_tidy(job: ToolJob) -> ToolRun:
    compiler = job.compiler
    assert compiler is not None
    tidy = compiler.tool(f"clang-tidy-{compiler.major}")
    if tidy is None:
        return _run(job, RunStatus.UNAVAILABLE, note=f"clang-tidy-{compiler.major} is not installed "
                                                    f"(Debian package clang-tidy-{compiler.major})")
    lang = "c" if job.case.language == "c" else "c++"
    argv = [tidy, f"--checks={TIDY_CHECKS}", "--quiet", _filename(job.case), "--",
            "-x", lang, *compiler.target_flags(job.case.language), _std(job.case),
            *_compile_flags(job.case), "-w"]
    return _text_tool(job, argv, f"clang-tidy-{compiler.major}", Kind.ANALYZER,
                      skip=("clang-diagnostic-",), root=compiler.root)


def _cppcheck(job: ToolJob) -> ToolRun:
    lang = "c" if job.case.language == "c" else "c++"
    std = job.case.std.replace("gnu++", "c++").replace("gnu", "c")
    argv = ["cppcheck", "--enable=warning,portability", "--inconclusive", "--quiet",
            f"--language={lang}", f"--std={std}", f"--template={det.CPPCHECK_TEMPLATE}",
            _filename(job.case)]
    return _text_tool(job, argv, f"cppcheck {job.cppcheck}", Kind.ANALYZER, prefix="cppcheck:")


def _sanitizers(job: ToolJob) -> ToolRun:
    compiler = job.compiler
    assert compiler is not None
    case = job.case
    name = f"{compiler.name} -fsanitize=address,undefined"
    build = compile_program(compiler, case.language, case.std, _filename(case), case.source,
                            SANITIZE, list(case.link), want_diagnostics=False)
    if not build.ok or build.binary is None:
        return _run(job, RunStatus.FAILED, note=f"{name}: the build failed: {_first_error(build.log)}")
    result = sandbox.run(build.binary, case.args, SANITIZER_LIMITS, env=SANITIZER_ENV,
                         root=compiler.root, emulator=compiler.emulator)
    stderr = result.stderr.decode("utf-8", "replace")
    findings, unsummarised = det.sanitizer_reports(stderr, _filename(case))
    if unsummarised:
        return _run(job, RunStatus.UNKNOWN_OUTPUT, note=f"{name}: a report without its SUMMARY "
                                                       f"line: {_first_error(stderr)}")
    if result.status == SandboxStatus.TIMEOUT and not findings:
        return _run(job, RunStatus.TIMED_OUT, note=f"{name}: the program ran past "
                                                    f"{SANITIZER_LIMITS.timeout:g} s without a report")
    return _run(job, RunStatus.OK, findings)
