"""``warnscope overhead projects|run|report``: thin shells over analyzer.overhead."""
from __future__ import annotations

import os

import click

from warnscope.errors import NoData, RunFailed

from analyzer.runtime import toolchain
from analyzer.cli import common, complete, options, projects
from analyzer.cli.output import echo
from analyzer.projects import levels as levels_mod, recipes, steps
from analyzer.projects.cell import BuildStatus
from analyzer.overhead import plan, renderers, report as report_mod, store, study
from analyzer.overhead.results import ProjectRecipe, Projects

DEFAULT_COMPILERS = "gcc-12,clang-16"
DEFAULT_LEVELS = "off,all"


@click.group()
def overhead() -> None:
    """Build-overhead studies: what warning flags cost on real projects."""


@overhead.command("projects")
@common.json_option("Print the recipes as JSON.")
def projects_cmd(as_json: bool) -> None:
    """List the project recipes."""
    items = [ProjectRecipe(name=r.name, package=r.package, build_system=r.build_system,
                           languages=list(r.languages), needs=list(r.needs), description=r.description)
             for r in recipes.RECIPES.values()]
    common.show(renderers.PROJECTS["json" if as_json else "text"].render(Projects(items)))


@overhead.command("run")
@projects.project_options
@click.option("--compilers", default=DEFAULT_COMPILERS, show_default=True,
              help="Comma-separated, for the host's target: ids (gcc-12, clang-16), names on PATH (gcc, cc) "
                   "or paths of compilers.",
              shell_complete=complete.compilers)
@click.option("--levels", default=DEFAULT_LEVELS, show_default=True,
              help="Comma-separated: off, default, wall, wextra, all, --flag-set names, and the "
                   "static analyzers: analyzer (GCC's -fanalyzer, clang's --analyze), cppcheck.")
@click.option("--flag-set", "flag_sets", multiple=True,
              help="A custom level NAME=FLAGS (repeatable); a level's name among FLAGS stands "
                   "for its flags, e.g. nomt='all -Wno-mismatched-tags'.")
@click.option("--runs", type=options.RUNS, default=3, show_default=True,
              help="Counted runs per cell, after the warm-ups.")
@click.option("--warmups", type=options.WARMUPS, default=1, show_default=True,
              help="Uncounted rounds of every cell before the counted runs (whole builds). 0 for "
                   "cells of hours: CPU time does not count waiting for a cold disk.")
@click.option("--mode", default=None, type=click.Choice(["build", "tu"]), help="Whole build (default) or per TU.")
@click.option("--inject", default=None, type=click.Choice(["build", "wrapper", "both"]),
              help="How each level's flags reach the compiler: build (default for whole builds): "
                   "through the build system, where a user puts them (CFLAGS, CMAKE_C_FLAGS, ...); "
                   "wrapper: appended by the compiler wrapper, the compiler-only view (tu mode); "
                   "both: the two interleaved in one study.")
@click.option("--no-accounting", is_flag=True,
              help="Do not record every process's CPU (the kernel's account; needs root and bpftrace).")
@click.option("--preset", default=None, type=click.Choice(["classic"]),
              help="classic: -O3, at least 3 runs (the published study's set-up).")
@click.option("--nice", type=options.NICE, default=0, show_default=True,
              help="Niceness of the timed processes (below 0 needs root).")
@click.option("--sched", default=None, type=click.Choice(["batch", "idle"]), help="Linux scheduling policy.")
@click.option("--noise", type=options.NOISE, default=0.05, show_default=True,
              help="Spread (max-min)/median above which a cell is noisy.")
@projects.build_step_options   # a Dask scheduler runs each compiler's cells on one worker
@common.json_option("Print the cells as JSON.")
@click.option("--quiet", is_flag=True, help="No progress on stderr.")
@click.pass_context
def run_cmd(ctx, project, source, configure_cmd, build_cmd, clean_cmd, language, ccdb, compilers, levels,
            flag_sets, runs, warmups, mode, inject, no_accounting, opt, preset, jobs, nice, sched, noise, timeout,
            scheduler, env_names, as_json, quiet) -> None:
    """Measure each compiler x level of a project and store the cells."""
    if preset == "classic":  # the published set-up: -O3, a minimum of 3 runs
        opt, runs = "-O3", max(runs, 3)
    opts = study.Options(runs=runs, warmups=warmups, mode=mode, opt=opt, jobs=(os.cpu_count() or 1) if jobs is None else jobs,
                         nice=nice, sched=sched, noise=noise, timeout=timeout,
                         custom=levels_mod.parse_custom(tuple(flag_sets)),
                         inject=inject, accounting=not no_accounting, env=projects.passed(env_names))
    recipe, opts = plan.recipe_for(project, source, configure_cmd, build_cmd, clean_cmd, language, ccdb, opts)
    level_list = common.split(levels)
    level_list += [n for n in opts.custom if n not in level_list]
    toolchains = projects.toolchains(compilers)          # not installed: one line, nothing written
    planned = plan.plan(recipe, toolchains, level_list, opts,
                        (lambda m: None) if quiet else (lambda m: echo(m, err=True)))
    with common.running(ctx, f"{recipe.name} {planned.opts.mode}", quiet, scheduler) as run:
        done = plan.run(run.conn, planned, run.progress, run.executor)
    common.show(renderers.RUN["json" if as_json else "text"].render(done))
    cells = done.cells
    failed = [c for c in cells if c.status != BuildStatus.OK]
    if failed:  # recorded with their log tail; the exit status says so
        first = failed[0]
        raise RunFailed(f"{len(failed)} of {len(cells)} cells failed, stored with their log tail "
                             f"(first: {first.compiler} {first.level}: {first.error})")


@overhead.command("report")
@click.option("--study", "study_id", type=options.ROW_ID, default=None, help="A study id (default: the latest).")
@click.option("--project", default=None, help="The latest study of this project.",
              shell_complete=complete.projects)
@click.option("--format", "fmt", default="text", type=click.Choice(renderers.REPORT.names),
              show_default=True, help="An export format (csv, markdown); json is --json.")
@common.json_option("Print the report as JSON (the same as --format json).")
@click.option("--limit", type=options.COUNT, default=10, show_default=True,
              help="tu mode: TUs listed per compiler and level.")
@options.alias("limit", "--top", type=options.COUNT)   # its name before --limit
@click.pass_context
def report_cmd(ctx, study_id, project, fmt, as_json, limit) -> None:
    """The overhead table: each level's CPU time as a ratio to 'off'."""
    path = common.db_of(ctx)
    conn = common.open_read(ctx, first="warnscope overhead run")
    try:
        if not store.has_schema(conn):
            raise NoData(f"{path}: no overhead studies (run `warnscope overhead run` first)")
        sid = study_id if study_id is not None else store.latest_study(conn, project)
        if sid is None:
            raise NoData(f"no overhead study{' of ' + project if project else ''} in {path}")
        info = store.study_info(conn, sid)
        cells = store.cells(conn, sid, with_tus=info.mode == "tu")
    finally:
        conn.close()
    if not cells:
        raise NoData(f"study {sid} ({info.project}) has no finished cell yet: rerunning "
                     "`warnscope overhead run` with its parameters resumes it")
    common.show(renderers.REPORT["json" if as_json else fmt].render(report_mod.report(info, cells, limit)))


@overhead.command("calibrate")
@click.option("--seconds", type=options.SECONDS, default=1.0, show_default=True,
              help="CPU seconds the burn takes.")
@click.option("--runs", type=options.RUNS, default=5, show_default=True, help="Runs per condition.")
@click.option("--load", type=options.LOAD, default=None,
              help="Competing spinning processes (default: cores).")
@common.json_option("Print the figures as JSON.")
def calibrate_cmd(seconds, runs, load, as_json) -> None:
    """How exact CPU and wall time are here: idle vs loaded, nice 0 vs 19."""
    from analyzer.overhead import calibrate

    result = calibrate.calibrate(seconds, runs, load)
    common.show(renderers.CALIBRATE["json" if as_json else "text"].render(result))


@overhead.command("attribute")
@click.argument("project", shell_complete=complete.projects)
@click.option("--compiler", "compiler", default="gcc-12", show_default=True,
              help="gcc-N or clang-N, or a compiler's name on PATH or its path.",
              shell_complete=complete.compilers)
@click.option("--opt", default="-O2", show_default=True, help="Optimization level.")
@click.option("--top", type=options.COUNT, default=10, show_default=True,
              help="TUs of the workload (top by added CPU).")
@click.option("--metric", default="cpu", show_default=True, type=click.Choice(["cpu", "instructions"]),
              help="What each probe measures: CPU user+sys, or instructions counted exactly by valgrind "
                   "cachegrind (slower, one run per probe, unaffected by the machine's load).")
@click.option("--runs", type=options.RUNS, default=3, show_default=True,
              help="Runs of baselines, confirmations and printing probes (cpu metric).")
@click.option("--search-runs", type=options.RUNS, default=1, show_default=True,
              help="Runs of each group-testing probe (cpu metric).")
@click.option("--min-share", type=options.SHARE, default=0.05, show_default=True,
              help="A flag group costs when it adds more than this share of all's added cost.")
@click.option("--max-suspects", type=options.COUNT, default=12, show_default=True,
              help="Stop the search after this many suspects.")
@click.option("--instructions", is_flag=True,
              help="With --metric cpu: also count the baselines and confirmations exactly (cachegrind).")
@click.option("--study", "study_id", type=options.ROW_ID, default=None,
              help="The tu-mode study to take the TUs from.")
@click.option("--timeout", type=options.SECONDS, default=600.0, show_default=True,
              help="Seconds per compile.")
@common.json_option("Print the attribution as JSON.")
@click.option("--quiet", is_flag=True, help="No progress on stderr.")
@click.pass_context
def attribute_cmd(ctx, project, compiler, opt, top, metric, runs, search_runs, min_share, max_suspects, instructions,
                  study_id, timeout, as_json, quiet) -> None:
    """Which flags of the 'all' set carry the cost on PROJECT: group testing on its top TUs,
    each suspect confirmed alone and removed from the set; phase timings; printing vs finding."""
    from analyzer.overhead import attribute

    recipe = recipes.get(project)
    recipes.check_needs(recipe)
    opts = attribute.AttrOptions(opt=opt, top=top, runs=runs, search_runs=search_runs, min_share=min_share,
                                 max_suspects=max_suspects, instructions=instructions, metric=metric, study=study_id,
                                 timeout=timeout)
    opts.validate()
    tc = toolchain.resolve(toolchain.canonical(compiler))
    study.refuse_emulated([tc])
    source_tree = steps.source_tree(recipe)
    with common.running(ctx, f"{recipe.name} attribute", quiet) as run:
        result = attribute.run(run.conn, recipe, source_tree, tc, opts, run.progress)
    common.show(renderers.ATTRIBUTE["json" if as_json else "text"].render(result))
