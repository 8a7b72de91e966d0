"""``warnscope warnings run|report|diff|top|show``: thin shells over analyzer.warnings."""
from __future__ import annotations


import click

from warnscope.errors import RunFailed

from analyzer.runtime import toolchain
from analyzer.cli import common, complete, options, projects
from analyzer.cli.flags import FLAG_ARGS
from analyzer.cli.output import echo
from analyzer.projects.cell import BuildStatus
from analyzer.warnings.results import Run
from analyzer.warnings import renderers

DEFAULT_COMPILERS = "gcc-12,clang-16"


@click.group()
def warnings() -> None:
    """Every diagnostic of real projects' builds, per compiler version and level."""


@warnings.command("run")
@projects.project_options
@click.option("--compilers", default=DEFAULT_COMPILERS, show_default=True,
              help="Comma-separated: ids (gcc-12, clang-16, gcc-12@aarch64-linux-gnu), names on PATH "
                   "(gcc, aarch64-linux-gnu-gcc-12) or paths of compilers.",
              shell_complete=complete.compilers)
@click.option("--levels", "levels", default="all", show_default=True,
              help="Comma-separated: off, default, wall, wextra, all, or --flag-set names.")
@options.alias("levels", "--level")   # shown beside --levels before
@click.option("--flag-set", "flag_sets", multiple=True,
              help="A custom level NAME=FLAGS (repeatable), as in `overhead run`.")
@projects.build_options
@common.json_option("Print the builds as JSON.")
@click.option("--quiet", is_flag=True, help="No progress on stderr.")
@click.pass_context
def run_cmd(ctx, project, source, configure_cmd, build_cmd, clean_cmd, language, ccdb, compilers, levels,
            flag_sets, opt, jobs, workers, timeout, scheduler, env_names, as_json, quiet) -> None:
    """Build a project with each compiler at each level and store every diagnostic."""
    from analyzer.projects import levels as levels_mod

    recipe = projects.recipe_of(project, source, configure_cmd, build_cmd, clean_cmd, language, ccdb)
    custom = levels_mod.parse_custom(tuple(flag_sets))
    level_list = common.split(levels)
    level_list += [n for n in custom if n not in level_list]
    names = projects.compiler_ids(compilers)
    builds, notes = projects.run_builds(ctx, recipe, names, level_list, custom, opt, jobs, workers,
                                        timeout, scheduler, quiet, f"{recipe.name} warnings", env_names)
    common.show(renderers.RUN["json" if as_json else "text"].render(Run(builds)))
    for note in notes:
        echo(f"warnscope: note: {note}", err=True)
    failed = [b for b in builds if b.status != BuildStatus.OK]
    if failed:
        raise RunFailed(f"{len(failed)} of {len(builds)} builds failed, stored with the diagnostics "
                             f"up to the failure (first: {failed[0].compiler} {failed[0].level}: {failed[0].error})")


@warnings.command("report")
@click.option("--project", required=True, help="A project built by `warnings run`.",
              shell_complete=complete.projects)
@click.option("--compilers", default=None, help="Comma-separated; default: every stored build.",
              shell_complete=complete.compilers)
@click.option("--level", "level", default=None, help="One level; default: every stored level.")
@options.alias("level", "--levels")   # shown beside --level before
@click.option("--as", "as_level", default=None, metavar="LEVEL",
              help="Answer for wall, wextra or default from the builds at --level (default all), "
                   "through the flag database, without building again.")
@click.option("--limit", "limit", type=options.COUNT, default=15, show_default=True,
              help="Options shown per build in text (JSON has them all).")
@options.alias("limit", "--top", type=options.COUNT)   # its name before --limit
@common.json_option("Print the report as JSON (the same as --format json).")
@common.format_option(renderers.REPORT.names,
                      "text, json (the same as --json), or sarif: SARIF 2.1.0 for GitHub code "
                      "scanning, a run per build with every diagnostic.")
@click.pass_context
def report_cmd(ctx, project, compilers, level, as_level, limit, as_json, fmt) -> None:
    """Per compiler: the diagnostics by option, and the level's options that never fired."""
    from analyzer.warnings import queries

    fmt = common.format_of(fmt, as_json)
    conn = common.open_read(ctx)
    chosen = projects.compiler_ids(compilers) if compilers else None
    out = renderers.REPORT[fmt]
    common.show(out.render(out.load(queries.report, conn, project, chosen, level, as_level), limit=limit))


@warnings.command("diff")
@click.argument("old", shell_complete=complete.compilers)
@click.argument("new", shell_complete=complete.compilers)
@click.option("--project", required=True, help="A project built by both compilers.",
              shell_complete=complete.projects)
@click.option("--level", "level", default="all", show_default=True,
              help="The level both were built at.")
@options.alias("level", "--levels")   # shown beside --level before
@click.option("--limit", type=options.COUNT, default=10, show_default=True,
              help="Diagnostics shown per option in text (JSON has them all).")
@common.json_option("Print the diff as JSON (the same as --format json).")
@common.format_option(renderers.DIFF.names,
                      "text, json (the same as --json), or sarif: SARIF 2.1.0 for GitHub code "
                      "scanning, NEW's diagnostics with their baseline state against OLD's.")
@click.pass_context
def diff_cmd(ctx, old, new, project, level, limit, as_json, fmt) -> None:
    """What appears, disappears and is reworded from OLD to NEW, by option."""
    from analyzer.warnings import queries

    fmt = common.format_of(fmt, as_json)
    conn = common.open_read(ctx)
    old, new = toolchain.canonical(old), toolchain.canonical(new)
    out = renderers.DIFF[fmt]
    common.show(out.render(out.load(queries.diff, conn, project, old, new, level), limit=limit))


@warnings.command("top")
@click.option("--projects", default=None, help="Comma-separated; default: every stored project.",
              shell_complete=complete.projects)
@click.option("--level", "level", default="all", show_default=True, help="The level to rank.")
@options.alias("level", "--levels")   # shown beside --level before
@click.option("--limit", type=options.COUNT, default=20, show_default=True, help="Options listed.")
@common.json_option("Print as JSON.")
@click.pass_context
def top_cmd(ctx, projects, level, limit, as_json) -> None:
    """The noisiest options across projects and compilers, and the ones that stay silent."""
    from analyzer.warnings import queries

    conn = common.open_read(ctx)
    result = queries.top(conn, common.split(projects) if projects else None, level, limit)
    common.show(renderers.TOP["json" if as_json else "text"].render(result))


@warnings.command("show", **FLAG_ARGS)
@click.argument("option", required=False, shell_complete=complete.flags)
@click.option("--project", default=None,
              help="Only this project's builds (without OPTION: every diagnostic they print).",
              shell_complete=complete.projects)
@click.option("--compilers", default=None, help="Only these compilers' builds, comma-separated.",
              shell_complete=complete.compilers)
@click.option("--level", "level", default=None, help="Only the builds at this level.")
@options.alias("level", "--levels")   # shown beside --level before
@click.option("--file", "file_glob", default=None, help="Only files matching this glob (src/*.c).")
@click.option("--limit", type=options.COUNT, default=None,
              help="Diagnostics shown (default: 10 of one OPTION, all of a --project).")
@common.json_option("Print as JSON.")
@click.pass_context
def show_cmd(ctx, option, project, compilers, level, file_glob, limit, as_json) -> None:
    """Where OPTION fired, with the source lines; without OPTION, every diagnostic of
    the --project's builds."""
    from analyzer.warnings import queries

    conn = common.open_read(ctx)
    if limit is None and option is not None:
        limit = 10
    chosen = projects.compiler_ids(compilers) if compilers else None
    result = queries.show(conn, option, project, limit, chosen, level, file_glob)
    common.show(renderers.SHOW["json" if as_json else "text"].render(result))
