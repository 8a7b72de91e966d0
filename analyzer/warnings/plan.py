"""Running a project's missing warnings builds, as ``warnings run`` and ``advise`` ask:
everything that could stop the builds checked first (:func:`plan`: the levels, the
compilers installed and able to build the project for their target, the source tree
fetched), then the builds run and stored (:func:`run`), with a note for each compiler
whose level flags came from another id's flag data.

And whether a stored build answers for the tree asked about (:func:`answers`): a build
answers only for the tree it was built from, its path and its digest
(:mod:`analyzer.projects.digest`), so that ``local:twin`` of another folder, or the same
tree edited, is built anew rather than answered from another tree's builds."""
from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from warnscope.errors import BadInput, NotIngested

from analyzer.projects import digest, levels as levels_mod, recipes, steps
from analyzer.projects.options import BuildOptions
from analyzer.projects.recipes import Recipe
from analyzer.runtime import toolchain
from analyzer.runtime.progress import Progress
from analyzer.runtime.toolchain import Toolchain
from analyzer.warnings import runner, store
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
         opt: str = "-O2", jobs: int | None = None, timeout: float = 3600.0,
         env: dict[str, str] | None = None) -> Plan:
    """The builds of ``recipe`` by each compiler (ids) at each level, checked: an unknown
    level, a compiler not installed, a project that cannot build for a compiler's
    target, a source that cannot be fetched is one error here, before anything is
    written."""
    levels_mod.validate(levels, custom)
    opts = BuildOptions(opt=opt, jobs=(os.cpu_count() or 1) if jobs is None else jobs, timeout=timeout,
                        custom=custom, env=dict(env or {}))
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


def answers(b: Build, source: tuple[Path, str], built_from: str) -> bool:
    """Whether the stored build ``b`` answers for the tree ``source`` (:func:`steps.source_tree`'s
    answer) whose digest is ``built_from`` (:func:`digest.tree_digest`): built from the same
    place (the tree's path; a package's directory) and the same files and commands. A build
    stored before its digest was kept answers for nothing (:func:`store.answers`)."""
    return store.answers(b, source[1], built_from)


def unanswered(conn: sqlite3.Connection, recipe: Recipe, source: tuple[Path, str],
               compilers: list[str], level: str) -> list[str]:
    """Those of ``compilers`` whose stored build of ``recipe`` at ``level`` does not answer
    for ``source`` (:func:`answers`): none stored, or one of another tree."""
    found = answering(conn, recipe, source, compilers, level)
    return [c for c in compilers if c not in found]


def answering(conn: sqlite3.Connection, recipe: Recipe, source: tuple[Path, str],
              compilers: list[str], level: str) -> dict[str, Build]:
    """The stored builds of ``recipe`` at ``level`` by ``compilers`` that answer for
    ``source`` (:func:`answers`), by compiler, without their diagnostics."""
    return store.answering(conn, recipe.name, source[1], digest.tree_digest(source[0], recipe),
                           compilers, level)


def check_stored(conn: sqlite3.Connection, recipe: Recipe, source: tuple[Path, str],
                 compilers: list[str], level: str) -> None:
    """One :class:`NotIngested` line where a stored build of ``recipe`` at ``level`` is of
    another tree than ``source`` (another folder of the same name, or this one edited since),
    naming both: an answer from stored builds only must be about this tree."""
    found = answering(conn, recipe, source, compilers, level)
    for b in store.builds(conn, recipe.name, compilers, level, with_diagnostics=False):
        if b.compiler not in found:
            what = (f"of {b.origin}" if b.origin != source[1]
                    else "of this tree as it was before an edit" if b.tree_digest else
                    "of a tree warnscope did not keep the digest of")
            raise NotIngested(f"the stored {level} build of {recipe.name} by {b.compiler} is {what}, "
                              f"not of {source[1]}: run without --stored to build it")


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
