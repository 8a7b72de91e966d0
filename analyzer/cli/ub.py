"""``warnscope ub run`` and ``warnscope ub report``: thin shells over ub_run and ub_report."""
from __future__ import annotations

import math
from pathlib import Path

import click

from warnscope.database import connect
from warnscope.errors import BadInput, NoData, ToolFailed
from warnscope.paths import db_path
from warnscope.serial import to_json

from analyzer import progress as progress_mod
from analyzer import sandbox
from analyzer.executors import check_scheduler, check_workers
from analyzer.toolchain import canonical
from analyzer.ub import report as ub_report
from analyzer.ub import run as ub_run
from analyzer.ub.compile import normalize_level
from analyzer.ub.corpus import bundled_corpus
from analyzer.ub.jobs import JobFailure

#: the longest --timeout accepted, in seconds
MAX_TIMEOUT = 86400.0

DEFAULT_COMPILERS = "gcc-11,gcc-12,clang-14,clang-16,clang-19"
DEFAULT_LEVELS = "O0,O1,O2,O3,Os,Og"


def _db(ctx: click.Context) -> Path:
    return db_path((ctx.obj or {}).get("db"))


@click.group()
def ub() -> None:
    """Run the undefined-behaviour corpus and report what compilers did with it."""


@ub.command("run")
@click.option("--corpus", "corpus_dir", type=click.Path(file_okay=False), default=None,
              help="Directory tree of .c/.cpp programs (default: the bundled corpus).")
@click.option("--compilers", default=DEFAULT_COMPILERS, show_default=True,
              help="Comma-separated gcc-N / clang-N.")
@click.option("--levels", default=DEFAULT_LEVELS, show_default=True,
              help="Comma-separated optimization levels; O2 and -O2 both work.")
@click.option("--flags", "flag_sets", multiple=True,
              help="An extra flag set (repeatable), run besides the plain one: --flags -fwrapv")
@click.option("--runs", default=ub_run.DEFAULT_RUNS, show_default=True,
              help="Runs per cell (more than one catches nondeterminism).")
@click.option("--timeout", default=sandbox.Limits().timeout, show_default=True,
              help="Wall-clock seconds per run before it counts as a hang.")
@click.option("-j", "--jobs", type=int, default=None,
              help="Local worker processes (default 2 per core; never more than the jobs "
                   "to do, nor 8 per core).")
@click.option("--scheduler", default=None, help="Dask scheduler address, tcp://HOST:PORT.")
@click.option("--no-warnings", is_flag=True, help="Skip warning detection.")
@click.option("--no-sanitizers", is_flag=True, help="Skip the sanitizer builds.")
@click.option("--json", "as_json", is_flag=True, help="Print the cells as JSON.")
@click.pass_context
def run_cmd(ctx, corpus_dir, compilers, levels, flag_sets, runs, timeout, jobs, scheduler,
            no_warnings, no_sanitizers, as_json) -> None:
    """Compile and run every cell: program x compiler x level x flag set."""
    corpus_dir = corpus_dir or str(bundled_corpus())
    compiler_list = list(dict.fromkeys(canonical(c) for c in compilers.split(",") if c.strip()))
    level_list = [normalize_level(l.strip()) for l in levels.split(",") if l.strip()]
    flag_list = ["", *[f.strip() for f in flag_sets if f.strip()]]
    limits = sandbox.Limits(timeout=check_timeout(timeout),
                            cpu=max(1, math.ceil(timeout) + 1))
    check_workers(jobs)
    if scheduler is not None:
        check_scheduler(scheduler)
    if runs < 1:
        raise BadInput(f"--runs must be at least 1, not {runs}")
    ub_run.validate(corpus_dir, compiler_list, level_list)  # bad input: nothing written
    executor = None
    if scheduler is not None:
        from analyzer.executors import DaskExecutor
        executor = DaskExecutor(scheduler)
    conn = connect(_db(ctx), write=True)
    progress = progress_mod.for_cli(as_json, "ub run")
    try:
        summary = ub_run.run(conn, corpus_dir, compiler_list, level_list, flag_list,
                             jobs=jobs, runs=runs, limits=limits,
                             warnings=not no_warnings, sanitizers=not no_sanitizers,
                             executor=executor, progress=progress)
    finally:
        progress.close()
        if executor is not None:
            executor.close()
    for line in failure_lines(summary.failures):
        click.echo(f"warnscope: error: {line}", err=True)
    if as_json:
        data = ub_report.load(conn, summary.corpus)
        flags_norm = {" ".join(f.split()) for f in flag_list}
        click.echo(to_json(ub_report.cells(data, set(compiler_list), set(level_list),
                                           flags_norm)))
    else:
        click.echo(f"{summary.cells} cells ({summary.cells_run} run now, {summary.compiled} "
                   f"compiled), {summary.warnings_run} warning checks, {summary.sanitizers_run} "
                   f"sanitizer runs in {summary.seconds:.1f} s")
    if summary.failures:
        raise ToolFailed(f"{len(summary.failures)} jobs failed; their results are not stored")


@ub.command("report")
@click.option("--corpus", "corpus_dir", default=None,
              help="Corpus directory (default: the one run most recently).")
@click.option("--case", "case_id", default=None, help="Detail of one case only.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.pass_context
def report_cmd(ctx, corpus_dir, case_id, as_json) -> None:
    """The matrix (divergent cases first) and per-case detail."""
    if not _db(ctx).exists():
        raise NoData(f"{_db(ctx)}: no such database: run 'warnscope ub run' first")
    conn = connect(_db(ctx), write=False)
    corpus = str(Path(corpus_dir).resolve()) if corpus_dir else None
    report = ub_report.build(ub_report.load(conn, corpus))
    if case_id is not None:
        report = report.only(case_id)
    if as_json:
        click.echo(to_json(report))
    else:
        click.echo(ub_report.render(report), nl=False)


def check_timeout(seconds: float) -> float:
    """--timeout: finite, above 0, at most :data:`MAX_TIMEOUT`; else a one-line error."""
    if not math.isfinite(seconds) or not 0 < seconds <= MAX_TIMEOUT:
        raise BadInput(f"--timeout must be a number of seconds above 0 and at most "
                             f"{MAX_TIMEOUT:g}, not {seconds:g}")
    return seconds


def failure_lines(failures: list[JobFailure]) -> list[str]:
    """One line per problem: its first cell, how many more, the stage and the message."""
    lines = []
    for (stage, _cause, detail), refs in ub_run.group_failures(failures).items():
        more = f" (and {len(refs) - 1} more jobs)" if len(refs) > 1 else ""
        lines.append(f"{refs[0]}{more}: {stage}: {detail}")
    return lines
