"""``warnscope ub run``, ``ub report``, ``ub explain`` and ``ub detectors``: thin shells
over ub_run, ub_report, ub_explain, ub why and the detectors; each format a renderer of
analyzer/ub/renderers.py."""
from __future__ import annotations

import math
from pathlib import Path

import click

from warnscope.errors import BadInput, ToolFailed, UnsafeInput
from warnscope.text import one_line

from analyzer.sandbox import runner as sandbox
from analyzer.cli import common, complete, options
from analyzer.cli.output import echo
from analyzer.runtime.executors import check_scheduler, check_workers
from analyzer.runtime.toolchain import canonical, canonical_list
from analyzer.ub import report as ub_report
from analyzer.ub import report_text
from analyzer.ub import run as ub_run
from analyzer.ub import renderers
from analyzer.ub import store as ub_store
from analyzer.ub.why import whyrun
from analyzer.ub.compile import normalize_level
from analyzer.runtime import toolchain
from analyzer.ub.detectors import analyzers as an
from analyzer.ub.corpus import bundled_corpus
from analyzer.ub.corpus import load as load_corpus
from analyzer.ub.detectors.detectors import Tool
from analyzer.ub.results import corpus_name

DEFAULT_COMPILERS = "gcc-11,gcc-12,clang-14,clang-16,clang-19"
DEFAULT_LEVELS = "O0,O1,O2,O3,Os,Og"


@click.group()
def ub() -> None:
    """Run the undefined-behaviour corpus and report what compilers did with it."""


@ub.command("run")
@click.option("--corpus", "corpus_dir", type=click.Path(file_okay=False), default=None,
              help="Directory tree of .c/.cpp programs (default: the bundled corpus).")
@click.option("--compilers", default=DEFAULT_COMPILERS, show_default=True,
              help="Comma-separated gcc-N / clang-N.", shell_complete=complete.compilers)
@click.option("--levels", default=DEFAULT_LEVELS, show_default=True,
              help="Comma-separated optimization levels; O2 and -O2 both work.")
@click.option("--extra-flags", "extra_flags", multiple=True,
              help="Flags added to every cell (repeatable, each a set of its own), run besides "
                   "the plain cells: --extra-flags -fwrapv")
@options.alias("extra_flags", "--flags", multiple=True)   # its name before --extra-flags
@click.option("--runs", type=options.RUNS, default=ub_run.DEFAULT_RUNS, show_default=True,
              help="Runs per cell (more than one catches nondeterminism).")
@click.option("--timeout", type=options.SECONDS, default=sandbox.Limits().timeout, show_default=True,
              help="Wall-clock seconds per run before it counts as a hang.")
@click.option("--workers", type=options.WORKERS, default=None,
              help="Local worker processes (default 2 per core; never more than the jobs "
                   "to do, nor 8 per core).")
@options.alias("workers", "-j", "--jobs", type=options.WORKERS)   # its name before --workers
@click.option("--scheduler", default=None, help="Dask scheduler address, tcp://HOST:PORT.")
@click.option("--case", "case_ids", multiple=True,
              help="Only this case (repeatable; its twin runs with it).",
              shell_complete=complete.cases)
@click.option("--no-warnings", is_flag=True, help="Skip warning detection.")
@click.option("--no-sanitizers", is_flag=True, help="Skip the sanitizer builds.")
@click.option("--no-code", is_flag=True,
              help="Keep no generated code (no -g, no disassembly; ub explain has none).")
@click.option("--why", "why", is_flag=True,
              help="Also find why each divergent cell differs from -O0 (ub why), and store it.")
@common.json_option("Print the cells as JSON.")
@click.pass_context
def run_cmd(ctx, corpus_dir, compilers, levels, extra_flags, runs, timeout, workers, scheduler,
            case_ids, no_warnings, no_sanitizers, no_code, why, as_json) -> None:
    """Compile and run every cell: program x compiler x level x flag set."""
    sandbox.prepare_soon()  # the zygote's build overlaps reading the corpus
    corpus_dir = corpus_dir or str(bundled_corpus())
    toolchains = toolchain.resolve_list(common.split(compilers))   # once, here
    level_list = [normalize_level(l.strip()) for l in levels.split(",") if l.strip()]
    flag_list = ["", *[f.strip() for f in extra_flags if f.strip()]]
    limits = sandbox.Limits(timeout=timeout, cpu=max(1, math.ceil(timeout) + 1))
    if scheduler is not None:
        check_scheduler(scheduler)
    validated = ub_run.validate(corpus_dir, toolchains, level_list)  # bad input: nothing written
    ub_run.chosen(validated[0], case_ids)
    fmt = renderers.RUN["json" if as_json else "text"]
    with common.running(ctx, "ub run", as_json, scheduler) as run:
        summary = (whyrun.run_and_explain if why else ub_run.run)(
            run.conn, corpus_dir, toolchains, level_list, flag_list,
            jobs=workers, runs=runs, limits=limits, warnings=not no_warnings,
            sanitizers=not no_sanitizers, code=not no_code, executor=run.executor,
            progress=run.progress, validated=validated, case_ids=case_ids)
        # what is printed is read before the connection closes: the cells (JSON), or the
        # divergence of a run with cells (text)
        printed = fmt.load(ub_report.run_printed, run.conn, summary, {tc.name for tc in toolchains},
                           set(level_list), {" ".join(f.split()) for f in flag_list}, why)
    for line in summary.refused:
        echo(f"refused {one_line(line)}", err=True, prefix="error")
    for line in report_text.failure_lines(summary.failures):
        echo(one_line(line), err=True, prefix="error")
    common.show(fmt.render(printed))
    if summary.failures:
        raise ToolFailed(f"{len(summary.failures)} jobs failed; their results are not stored"
                         + (f"; {len(summary.refused)} files of the corpus refused"
                            if summary.refused else ""))
    if summary.refused:
        raise UnsafeInput(f"{len(summary.refused)} files of the corpus refused (not read, "
                          "not run); the rest of it ran")


@ub.command("report")
@click.option("--corpus", "corpus_dir", default=None,
              help="Corpus directory (default: the one run most recently).")
@click.option("--case", "case_id", default=None, help="Detail of one case only.",
              shell_complete=complete.cases)
@common.json_option("Print the results as JSON.")
@click.pass_context
def report_cmd(ctx, corpus_dir, case_id, as_json) -> None:
    """The matrix (divergent cases first) and per-case detail."""
    conn = common.open_read(ctx, first="warnscope ub run")
    corpus = str(Path(corpus_dir).resolve()) if corpus_dir else None
    report = ub_report.build(ub_report.load(conn, corpus))
    if case_id is not None:
        report = report.only(case_id)
    common.show(renderers.REPORT["json" if as_json else "text"].render(report))


@ub.command("explain")
@click.argument("case_id", shell_complete=complete.cases)
@click.option("--corpus", "corpus_dir", default=None,
              help="Corpus directory (default: the one run most recently).")
@click.option("--compiler", default=None, help="Only this compiler's configurations.",
              shell_complete=complete.compilers)
@click.option("--level", "level", default=None,
              help="Only this level's configurations (O2 or -O2).")
@options.alias("level", "--levels")   # shown beside --level before
@click.option("--vs", "vs", default=None, metavar="COMPILER:LEVEL",
              help="Align the code of the first configuration shown with this one.")
@click.option("--labels-only", is_flag=True, help="The labels without the instructions.")
@common.json_option("Print the explanation as JSON.")
@click.pass_context
def explain_cmd(ctx, case_id, corpus_dir, compiler, level, vs, labels_only, as_json) -> None:
    """What the compiler did with a case: per configuration the labels and the code of
    the program's functions; --vs shows two configurations aligned."""
    from analyzer.ub.explain import explain as ub_explain
    compiler = canonical(compiler) if compiler else None
    level = normalize_level(level) if level else None
    other = None
    if vs is not None:
        comp, sep, lvl = vs.partition(":")
        if not sep or not comp or not lvl:
            raise BadInput(f"--vs {vs}: expected COMPILER:LEVEL, e.g. clang-16:O2")
        other = (canonical(comp), normalize_level(lvl))
    conn = common.open_read(ctx, first="warnscope ub run")
    corpus = str(Path(corpus_dir).resolve()) if corpus_dir else None
    data = ub_store.load(conn, corpus, with_code=False)
    ex = ub_explain.explain(conn, data, case_id, compiler, level, other)
    common.show(renderers.EXPLAIN["json" if as_json else "text"].render(ex, code=not labels_only))


@ub.command("detectors")
@click.option("--corpus", "corpus_dir", type=click.Path(file_okay=False), default=None,
              help="Directory tree of .c/.cpp programs (default: the bundled corpus).")
@click.option("--compilers", default=DEFAULT_COMPILERS, show_default=True,
              help="Comma-separated gcc-N / clang-N: each brings its warnings, sanitizers "
                   "and analyzers.", shell_complete=complete.compilers)
@click.option("--tools", default=",".join(t.value for t in Tool), show_default=True,
              help="Comma-separated tools to run.")
@click.option("--levels", default="O2", show_default=True,
              help="Optimization levels of the warnings runs (GCC warns more with -O2).")
@click.option("--case", "case_ids", multiple=True,
              help="Only this case (repeatable; its twin runs with it); its detail is printed.",
              shell_complete=complete.cases)
@click.option("--workers", type=options.WORKERS, default=None,
              help="Local worker processes (default 2 per core).")
@options.alias("workers", "-j", "--jobs", type=options.WORKERS)   # its name before --workers
@click.option("--scheduler", default=None, help="Dask scheduler address, tcp://HOST:PORT.")
@click.option("--categories", is_flag=True, help="Each detector's catches per UB category too.")
@common.json_option("Print the scores as JSON (the same as --format json).")
@common.format_option(renderers.DETECTORS.names,
                      "text, json (the same as --json), or sarif: SARIF 2.1.0, a run per "
                      "compiler version and tool, each finding on a case, twin or control a "
                      "result with its verdict.")
@click.pass_context
def detectors_cmd(ctx, corpus_dir, compilers, tools, levels, case_ids, workers, scheduler,
                  categories, as_json, fmt) -> None:
    """Score every detector -- warning, sanitizer check, analyzer checker -- per compiler
    version: UB cases caught at their ub-line, false alarms on their fixed twins. Runs
    stored in the database are read, not run again; the others are run and stored."""
    from analyzer.ub.detectors import detect
    from analyzer.ub.detectors.sarif import files_of
    fmt = common.format_of(fmt, as_json)
    if scheduler is not None:
        check_scheduler(scheduler)
    sandbox.prepare_soon()
    corpus = str(Path(corpus_dir or bundled_corpus()).resolve())
    loaded = load_corpus(corpus)
    chosen = _detector_tools(tools)
    level_list = [normalize_level(l.strip()) for l in levels.split(",") if l.strip()]
    names = common.split(compilers)
    # the one resolution of --compilers; none given is cppcheck's alone (it needs no compiler)
    compiler_list = toolchain.resolve_list(names) if names else []
    cases = ub_run.chosen(loaded, case_ids)
    notes = list(loaded.notes)
    version = toolchain.cppcheck_version() if Tool.CPPCHECK in chosen else None
    if Tool.CPPCHECK in chosen and version is None:
        notes.append("cppcheck unavailable: not installed (Debian package cppcheck)")
    job_list = an.jobs_for(cases, compiler_list, chosen, tuple(level_list), version)
    with common.running(ctx, "ub detectors", fmt != "text", scheduler) as r:
        done = detect.run(r.conn, corpus, loaded.cases, cases, job_list, workers, notes,
                          r.progress, r.executor)
    report = detect.Report(done, corpus, files_of(loaded.cases, corpus),
                           {(j.version, j.tool.value) for j in job_list}, list(case_ids))
    common.show(renderers.DETECTORS[fmt].render(report, categories=categories))


def _detector_tools(tools: str) -> list[Tool]:
    names = [t.strip() for t in tools.split(",") if t.strip()]
    known = {t.value: t for t in Tool}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise BadInput(f"unknown tool {unknown[0]!r}: one of {', '.join(known)}")
    return [known[n] for n in names]


@ub.command("why")
@click.argument("case_id", shell_complete=complete.cases)
@click.option("--compiler", default=None, help="The cell's compiler: gcc-12, clang-16.",
              shell_complete=complete.compilers)
@click.option("--compilers", default=None,
              help="Comma-separated compilers instead: a table of the cause per version, "
                   "saying where it changes (gcc-9,gcc-10,...).",
              shell_complete=complete.compilers)
@click.option("--level", "level", required=True, help="The cell's level (O2 or -O2).")
@options.alias("level", "--levels")   # shown beside --level before
@click.option("--extra-flags", "extra_flags", default="",
              help="The flags the cell adds, if any (as ub run --extra-flags ran it).")
@options.alias("extra_flags", "--flags")   # its name before --extra-flags
@click.option("--corpus", "corpus_dir", type=click.Path(file_okay=False), default=None,
              help="Directory tree of .c/.cpp programs (default: the bundled corpus).")
@click.option("--runs", type=options.RUNS, default=ub_run.DEFAULT_RUNS, show_default=True,
              help="Runs per build (two tell an unstable outcome).")
@click.option("--timeout", type=options.SECONDS, default=sandbox.Limits().timeout, show_default=True,
              help="Wall-clock seconds per run before it counts as a hang.")
@click.option("--workers", type=options.WORKERS, default=None,
              help="With --compilers: searches at once (default 2 per core).")
@options.alias("workers", "-j", "--jobs", type=options.WORKERS)   # its name before --workers
@click.option("--no-cache", is_flag=True, help="Search again even if the answer is cached.")
@common.json_option("Print the cause as JSON.")
def why_cmd(case_id, compiler, compilers, level, extra_flags, corpus_dir, runs, timeout, workers,
            no_cache, as_json) -> None:
    """Why a cell diverges: the flag or pass that changes its behaviour from -O0's
    (clang: opt-bisect; GCC: the level's flags, then its passes), and which UB-guard
    switches restore it. Each step is a sandboxed compile and run like a cell's.
    With --compilers, the same for each compiler, as a table per version."""
    from analyzer.ub.why import why as ub_why
    if (compiler is None) == (compilers is None):
        raise BadInput("give the cell's compiler: --compiler gcc-12, or --compilers "
                       "gcc-12,clang-16 for a table")
    sandbox.prepare_soon()
    corpus_dir = corpus_dir or str(bundled_corpus())
    limits = sandbox.Limits(timeout=timeout, cpu=max(1, math.ceil(timeout) + 1))
    if compilers is not None:
        _why_table(case_id, compilers, level, extra_flags, corpus_dir, runs, limits, workers,
                   no_cache, as_json)
        return
    corpus, (tc,), (lvl,) = ub_run.validate(corpus_dir, toolchain.resolve_list([compiler]), [level])
    case = _case(corpus, case_id, corpus_dir)
    sandbox.prepare()
    cause = ub_why.why(case, tc, lvl, tuple(extra_flags.split()), runs, limits,
                       cached=not no_cache)
    common.show(renderers.WHY["json" if as_json else "text"].render(cause))


def _case(corpus, case_id: str, corpus_dir: str):
    case = next((c for c in corpus.cases if c.id == case_id), None)
    if case is None:
        raise BadInput(f"no case {case_id!r} in {corpus_name(corpus_dir)}")
    return case


def _why_table(case_id, compilers, level, extra_flags, corpus_dir, runs, limits, workers,
               no_cache, as_json) -> None:
    """``ub why --compilers``: every id is checked (an unknown one is bad input); one
    not installed here is a row whose cause is unknown."""
    from analyzer.ub.why import why_table
    names = canonical_list([c for c in compilers.split(",") if c.strip()])
    if not names:
        raise BadInput("no compilers given")
    check_workers(workers)
    corpus = load_corpus(corpus_dir)
    case = _case(corpus, case_id, corpus_dir)
    t = why_table.table(case, names, normalize_level(level), tuple(extra_flags.split()), runs,
                        limits, workers, cached=not no_cache)
    common.show(renderers.WHY_TABLE["json" if as_json else "text"].render(t))
