"""Running an overhead study, as ``overhead run`` asks: the project chosen
(:func:`recipe_for`: a recipe, a tree, a compile database, or the default project),
everything that could stop the study checked first (:func:`plan`: the levels and
options, compilers a study can time, what of the project it can time, the tree
fetched, a root's build tools), then the cells measured and stored (:func:`run`), as
:mod:`analyzer.warnings.plan` does for the warnings builds."""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

from warnscope.errors import BadInput

from analyzer.overhead import store, study
from analyzer.overhead.results import StudyRun
from analyzer.projects import levels as levels_mod, recipes, steps
from analyzer.projects.recipes import Recipe
from analyzer.runtime.progress import Progress
from analyzer.runtime.toolchain import Toolchain


@dataclass(frozen=True)
class Plan:
    """A study that can run: the project, its fetched tree, the compilers, levels, options."""

    recipe: Recipe
    source: tuple[Path, str]
    toolchains: list[Toolchain]
    levels: list[str]
    opts: study.Options


def recipe_for(project: str | None, source: str | None, configure: str, build: str, clean: str,
               language: str, ccdb: str | None, opts: study.Options) -> tuple[Recipe, study.Options]:
    """The project the options name (the default project when none is) and the study's
    options as that project needs them: a compile database is replayed per TU (its flags
    through the wrapper), a Debian package's flags reach its compiles through the wrapper."""
    if sum(x is not None for x in (project, source, ccdb)) > 1:
        raise BadInput("give one of --project, --source, --compile-commands")
    if ccdb:
        if opts.inject in ("build", "both"):
            raise BadInput(f"--inject {opts.inject}: a compile_commands.json has no build system to pass "
                           "flags through (its TUs are replayed with --inject wrapper)")
        return recipes.compile_commands(ccdb), replace(opts, mode=opts.mode or "tu")
    if source:
        recipe = recipes.local(source, configure, build, clean, (language,))
    else:
        recipe = recipes.get(project or recipes.DEFAULT_PROJECT)
    if recipe.build_system == "debian":       # its flags are Debian's: the level's through
        opts = replace(opts, inject=opts.inject or "wrapper")   # the wrapper, whatever debian/rules calls
    return recipe, opts


def plan(recipe: Recipe, toolchains: list[Toolchain], levels: list[str], opts: study.Options,
         say: Callable[[str], None] = lambda _m: None) -> Plan:
    """The study of ``recipe`` by ``toolchains`` at ``levels``, checked: a bad level or
    option, a compiler a study cannot time, what it cannot time of the project, a source
    that cannot be fetched is one error here, before anything is written; a root lacking
    the build's tools has them installed (``say`` is told)."""
    levels_mod.validate(levels, opts.custom, analyzers=True)
    opts = replace(opts, mode=opts.mode or "build")
    opts.validate()
    study.check_compilers(toolchains)                    # another target's: one line, nothing written
    study.check_project(recipe, opts, toolchains)        # what a study cannot time of it: likewise
    if any(tc.root is None for tc in toolchains):        # a root's build runs the root's tools
        recipes.check_needs(recipe)
    if recipe.build_system == "ccdb" and opts.mode != "tu":
        raise BadInput("a compile_commands.json is replayed per TU: use --mode tu")
    source = steps.source_tree(recipe)                   # cannot fetch: one line, nothing written
    # a root lacking the build's make or libtool: installed there as root, else one line
    study.root_tools(recipe, toolchains, say)
    return Plan(recipe, source, list(toolchains), list(levels), opts)


def run(conn: sqlite3.Connection, p: Plan, progress: Progress | Callable[[str], None],
        executor: Any = None) -> StudyRun:
    """Measure and store the planned study's missing cells; the study with its cells of
    the planned compilers and levels (the study may hold others')."""
    sid = study.run_study(conn, p.recipe, p.source, p.toolchains, p.levels, p.opts, progress, executor)
    names = {t.name for t in p.toolchains}
    cells = [c for c in store.cells(conn, sid) if c.compiler in names and c.level in p.levels]
    return StudyRun(sid, cells, store.study_info(conn, sid))
