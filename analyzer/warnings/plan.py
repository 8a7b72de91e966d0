"""Running a project's missing warnings builds, as ``warnings run`` and ``advise`` ask:
everything that could stop the builds checked first (:func:`plan`: the levels, the
compilers installed and able to build the project for their target, the source tree
fetched), then the builds run and stored (:func:`run`), with a note for each compiler
whose level flags came from another id's flag data."""
from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from warnscope.errors import BadInput

from analyzer.projects import levels as levels_mod, recipes, steps
from analyzer.projects.options import BuildOptions
from analyzer.projects.recipes import Recipe
from analyzer.runtime import toolchain
from analyzer.runtime.progress import Progress
from analyzer.runtime.toolchain import Toolchain
from analyzer.warnings import runner
from analyzer.warnings.results import Build


@dataclass(frozen=True)
class Plan:
    """Builds that can run: the project, its fetched tree, the compilers and levels."""

    recipe: Recipe
    source: tuple[Path, str]
    toolchains: list[Toolchain]
    levels: list[str]
    opts: BuildOptions


def plan(recipe: Recipe, compilers: list[str], levels: list[str], custom: dict[str, list[str]],
         opt: str = "-O2", jobs: int | None = None, timeout: float = 3600.0) -> Plan:
    """The builds of ``recipe`` by each compiler (ids) at each level, checked: an unknown
    level, a compiler not installed, a project that cannot build for a compiler's
    target, a source that cannot be fetched is one error here, before anything is
    written."""
    levels_mod.validate(levels, custom)
    opts = BuildOptions(opt=opt, jobs=(os.cpu_count() or 1) if jobs is None else jobs, timeout=timeout,
                        custom=custom)
    opts.validate()
    if not compilers:
        raise BadInput("no compilers given")
    toolchains = [toolchain.resolve(n) for n in compilers]
    for tc in toolchains:
        recipes.check_target(recipe, tc.target, tc.name)
    return Plan(recipe, steps.source_tree(recipe), toolchains, list(levels), opts)


def run(conn: sqlite3.Connection, p: Plan, progress: Progress, executor: Any = None,
        workers: int | None = None) -> tuple[list[Build], list[str]]:
    """Run and store the planned builds; (the builds, the notes on borrowed flag data)."""
    builds = runner.run(conn, p.recipe, p.source, p.toolchains, p.levels, p.opts, progress, executor, workers)
    return builds, borrowed_notes(conn, p.toolchains, p.levels, p.opts.custom)


def borrowed_notes(conn: sqlite3.Connection, toolchains: list[Toolchain], levels: list[str],
                   custom: dict[str, list[str]]) -> list[str]:
    """A line for each compiler of another target whose level flags came from its host
    id's flag data (:func:`analyzer.projects.levels.data_name`)."""
    notes = []
    for tc in toolchains:
        host = levels_mod.borrowed(conn, tc.name) if tc.target else None
        used = [lv for lv in levels if levels_mod.needs_data(tc, lv, custom)]
        if host and used:
            notes.append(levels_mod.borrowed_note(tc.name, host, f"the flags of {', '.join(used)}"))
    return notes
