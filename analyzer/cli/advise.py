"""``warnscope advise``: which warnings a project should turn on, from every family's
data; the builds at ``all`` it lacks are run first (the warnings runner, its executor
and ``--scheduler``). A thin shell over :mod:`analyzer.advise.plan` (what is checked
first, which builds are missing, the advice) and the warnings builds it runs."""
from __future__ import annotations

import click

from analyzer.advise import export, renderers
from analyzer.cli import common, complete, options, projects


@click.command("advise")
@projects.project_options
@click.option("--compilers", default="gcc-12,clang-16", show_default=True,
              help="The compilers the project supports, comma-separated: ids (gcc-12, "
                   "gcc-12@aarch64-linux-gnu), names on PATH (gcc, aarch64-linux-gnu-gcc-12) or paths.",
              shell_complete=complete.compilers)
@click.option("--base", default="wextra", show_default=True, type=click.Choice(["default", "wall", "wextra"]),
              help="The level the project builds at already (wextra: -Wall -Wextra).")
@click.option("--add", "added", multiple=True, metavar="FLAG",
              help="A flag to build with whatever the rules say (repeatable): -Wshadow, -Wno-unused, -Wformat=2.")
@click.option("--portable", default="all", show_default=True, type=click.Choice(["all", "any"]),
              help="Turn a flag on only if every compiler knows it (all), or for those that do (any).")
@click.option("--often", type=options.COUNT, default=10, show_default=True,
              help="Diagnostics per UB case caught (or in all) from which a flag that fires is style.")
@click.option("--max-control-hits", type=options.Number(int, 0, 100_000), default=0, show_default=True,
              help="Programs without UB a flag may fire on and still have its UB cases counted.")
@click.option("--cost-threshold", type=options.SHARE, default=0.05, show_default=True,
              help="A measured cost above this share of the off compile is said and stops 'turn on now'.")
@click.option("--format", "fmt", default="text", show_default=True,
              type=click.Choice(renderers.ADVICE.names),
              help=f"The advice (text, json) or the chosen set for a build ({', '.join(export.FORMATS)}).")
@common.json_option("The advice as JSON (--format json).")
@click.option("--limit", type=options.COUNT, default=10, show_default=True,
              help="Rows shown per verdict in text (JSON has them all).")
@click.option("--explain", "explain_flag", default=None, metavar="FLAG",
              help="One row with all its evidence, per compiler.")
@projects.build_options
@click.option("--quiet", is_flag=True, help="No progress on stderr.")
@click.pass_context
def advise(ctx, project, source, configure_cmd, build_cmd, clean_cmd, language, ccdb, compilers, base, added,
           portable, often, max_control_hits, cost_threshold, fmt, as_json, limit, explain_flag, opt, jobs,
           workers, timeout, scheduler, env_names, quiet) -> None:
    """Which warnings PROJECT should turn on: one row per flag the compilers know, with
    what it prints here, what it catches in the UB corpus, what it costs, and a verdict
    by rules the README states; missing builds at 'all' are run first."""
    from analyzer.advise import advice as advice_mod, plan
    from analyzer.advise.rules import Portability, Rules

    fmt = "json" if as_json else fmt
    rules = Rules(base=base, portable=Portability(portable), often=often, max_control_hits=max_control_hits,
                  cost_threshold=cost_threshold)
    add = list(dict.fromkeys(added))
    advice_mod.check_added(add)
    names = projects.compiler_ids(compilers)
    recipe = projects.recipe_of(project, source, configure_cmd, build_cmd, clean_cmd, language, ccdb)
    projects.passed(env_names)                        # a name not set: one line, before anything
    db = common.db_of(ctx)
    planned = plan.plan(db, recipe, names)
    if planned.missing:
        projects.run_builds(ctx, recipe, planned.missing, ["all"], {}, opt, jobs, workers, timeout, scheduler,
                            quiet, f"{recipe.name} warnings at all", env_names)   # its notes: the advice's say the same
    result = plan.advise(db, planned, rules, add)
    common.show(renderers.ADVICE[fmt].render(result, limit=limit, explain_flag=explain_flag))
