"""The options of a command over a project's builds, declared once: which project
(``--project``, a local tree with its commands, or a compile database) and how its builds run (``--opt``,
``-j``, ``--workers``, ``--timeout``, ``--scheduler``, ``--env``); the recipe they name, and the
warnings builds they run (``warnings run``, and ``advise`` for the builds it lacks)."""
from __future__ import annotations

from typing import Callable

import click

from warnscope.errors import BadInput

from analyzer.runtime import toolchain
from analyzer.runtime.toolchain import Toolchain
from analyzer.cli import common, complete, options
from analyzer.projects import recipes


def _apply(decorators: list[Callable]) -> Callable:
    def wrap(f: Callable) -> Callable:
        for d in reversed(decorators):
            f = d(f)
        return f
    return wrap


#: --project, or --source with its commands and language (--lang)
project_options = _apply([
    click.option("--project", default=None, help=f"A recipe (see `overhead projects`); default {recipes.DEFAULT_PROJECT}.",
                 shell_complete=complete.projects),
    click.option("--source", default=None, type=click.Path(), help="A local source tree instead of a recipe."),
    click.option("--configure", "configure_cmd", default="", help="With --source: configure command."),
    click.option("--build", "build_cmd", default="", help="With --source: build command ({jobs} = -j)."),
    click.option("--clean", "clean_cmd", default="make clean", show_default=True, help="With --source: clean command."),
    click.option("--lang", "language", default="c", type=click.Choice(["c", "c++"]),
                 help="With --source: its language."),
    options.alias("language", "--language", type=click.Choice(["c", "c++"])),   # its name before --lang
    click.option("--compile-commands", "ccdb", default=None, type=click.Path(),
                 help="A compile_commands.json instead of a recipe: each entry's compile replayed."),
])

#: how each build runs (``overhead run`` too, which schedules its cells itself)
build_step_options = _apply([
    click.option("--opt", default="-O2", show_default=True, help="Optimization level."),
    click.option("-j", "--jobs", type=options.BUILD_JOBS, default=None,
                 help="Each build's parallelism (default: cores)."),
    click.option("--timeout", type=options.SECONDS, default=3600.0, show_default=True,
                 help="Seconds per build step."),
    click.option("--scheduler", default=None, help="A Dask scheduler tcp://HOST:PORT to run the builds on."),
    click.option("--env", "env_names", multiple=True, metavar="NAME",
                 help="Pass this variable of your environment to every build step (repeatable); a "
                      "build gets none of yours otherwise but PATH, HOME and TMPDIR. Its name is "
                      "stored with the build, never its value."),
])

#: how the builds run: each build, and how many at once
build_options = _apply([
    build_step_options,
    click.option("--workers", type=options.WORKERS, default=None,
                 help="Builds at once (default: 2 per core, at most one per build)."),
])


def compiler_ids(text: str) -> list[str]:
    """The compilers a ``--compilers`` option names, as ids, in order: an id as it is, a
    name on PATH, a path or a cross driver identified from the binary
    (``aarch64-linux-gnu-gcc-12`` is ``gcc-12@aarch64-linux-gnu``), here at the edge and
    only here; two names for one binary (``gcc,gcc-12``) are one line of error."""
    names = toolchain.canonical_list(common.split(text))
    if not names:
        raise BadInput("no compilers given")
    return names


def toolchains(text: str) -> list[Toolchain]:
    """The compilers a ``--compilers`` option names (:func:`compiler_ids`), each resolved
    to its toolchain here, once: one not installed is one line of error."""
    return [toolchain.resolve(n) for n in compiler_ids(text)]


def recipe_of(project: str | None, source: str | None, configure_cmd: str, build_cmd: str, clean_cmd: str,
              language: str, ccdb: str | None = None):
    """The recipe the project options name (one line for an unknown project, two given,
    a tree that is not a directory, a compile database that is refused, a program the
    build needs missing)."""
    if sum(x is not None for x in (project, source, ccdb)) > 1:
        raise BadInput("give one of --project, --source, --compile-commands")
    if ccdb is not None:
        return recipes.compile_commands(ccdb)
    recipe = (recipes.local(source, configure_cmd, build_cmd, clean_cmd, (language,)) if source
              else recipes.get(project or recipes.DEFAULT_PROJECT))
    recipes.check_needs(recipe)
    return recipe


def passed(env_names: tuple[str, ...]) -> dict[str, str]:
    """The variables ``--env`` names, with their values from this environment: one line
    for a name not set, not a name, or one a build sets itself."""
    from analyzer.projects import process
    return process.passed_env(dict.fromkeys(env_names))


def run_builds(ctx: click.Context, recipe, compilers: list[str], levels: list[str], custom: dict[str, list[str]],
               opt: str, jobs: int | None, workers: int | None, timeout: float, scheduler: str | None,
               quiet: bool, label: str, env_names: tuple[str, ...] = ()) -> tuple[list, list[str]]:
    """Build the project with each compiler (ids: :func:`compiler_ids`) at each level and
    store each build as it finishes (:mod:`analyzer.warnings.plan`): what could stop it is
    one line before anything is written. Returns the builds and the notes."""
    from analyzer.warnings import plan

    planned = plan.plan(recipe, compilers, levels, custom, opt, jobs, timeout, passed(env_names))
    with common.running(ctx, label, quiet, scheduler) as run:
        return plan.run(run.conn, planned, run.progress, run.executor, workers)
