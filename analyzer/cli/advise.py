"""``warnscope advise``: which warnings a project should turn on, from every family's
data; the builds at ``all`` it lacks are run first (the warnings runner, its executor
and ``--scheduler``). A thin shell over :mod:`analyzer.advise`, which reads the other
families' data itself: running the missing builds is the CLI's part."""
from __future__ import annotations

from pathlib import Path

import click

from warnscope.database import connect
from warnscope.compilers import CompilerId
from warnscope.errors import NotIngested, OldSchema
from warnscope.serial import to_json

from analyzer.advise import export
from analyzer.cli import common, complete, options, projects
from analyzer.cli.output import echo


def _open(db: Path):
    """The database read-only; one of an older schema is upgraded first, as by any
    writing command (advise is one: it runs the builds it lacks)."""
    try:
        return connect(db, write=False)
    except OldSchema:
        connect(db, write=True).close()      # the migrations, in one transaction
        return connect(db, write=False)


def _has_flag_data(conn, name: str) -> None:
    """One line naming the command that ingests what ``name`` needs, where the database
    has no flag data for it: its own, or for a compiler of another target its host id's
    (which the advice reads in its stead, and says so)."""
    from analyzer.projects.levels import data_name
    from flagdb import store as flag_store

    used = data_name(conn, name)
    try:
        flag_store.compiler_row(conn, used)
    except NotIngested as exc:
        if used == name:
            raise
        raise NotIngested(f"{name} has no flag data of its own, nor has {used}, whose data it would be "
                          f"read with: run: warnscope flags ingest {used} (or {name})") from exc


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
              type=click.Choice(("text", "json", *export.FORMATS)),
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
    from analyzer.advise import advice as advice_mod, text
    from analyzer.projects import steps
    from analyzer.warnings import plan
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
    if not db.exists():
        wanted = list(dict.fromkeys(str(CompilerId.of(n).host) for n in names))
        raise NotIngested(f"compiler {names[0]!r} is not in the database (nothing ingested yet); "
                          f"run: warnscope flags ingest {' '.join(wanted)}")
    conn = _open(db)
    try:
        for name in names:
            _has_flag_data(conn, name)                # not ingested: the command that ingests it
        # a stored build of another tree of the same name, or of this one edited, does not answer
        missing = plan.unanswered(conn, recipe, steps.source_tree(recipe), names, "all")
    finally:
        conn.close()
    if missing:
        projects.run_builds(ctx, recipe, missing, ["all"], {}, opt, jobs, workers, timeout, scheduler, quiet,
                            f"{recipe.name} warnings at all", env_names)   # its notes: the advice's say the same
    conn = connect(db, write=False)
    try:
        result = advice_mod.advise(conn, recipe.name, list(recipe.languages), names, rules, add,
                                   ran_now=set(missing))
    finally:
        conn.close()
    if fmt in export.FORMATS:
        echo(export.write(result.targets, fmt), nl=False)
        for f in result.forced:
            if not f.known:
                echo(f"warnscope: note: --add {f.flag}: {f.compiler} does not know it: left out of its list",
                     err=True)
    elif fmt == "json":
        echo(to_json(result))
    elif explain_flag is not None:
        echo(text.explain(result, explain_flag))
    else:
        echo(text.render(result, limit))
