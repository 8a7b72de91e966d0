"""Advice on a project, as ``warnscope advise`` asks: what it needs checked first
(:func:`plan`: the database, each compiler's flag data, which compilers have no stored
build at ``all`` of this tree), then, once the warnings family has run the builds it
lacks (:mod:`analyzer.warnings.plan`, whose builds every family reads through
:mod:`analyzer.warnings.store`), the advice itself (:func:`advise`)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from flagdb import store as flag_store
from warnscope.compilers import CompilerId
from warnscope.database import connect
from warnscope.errors import NotIngested, OldSchema

from analyzer.advise import advice as advice_mod
from analyzer.advise.results import Advice
from analyzer.advise.rules import Rules
from analyzer.advise.store import LEVEL
from analyzer.projects import digest, steps
from analyzer.projects.levels import data_name
from analyzer.projects.recipes import Recipe
from analyzer.warnings import store as warnings_store


@dataclass(frozen=True)
class Plan:
    """The advice asked: the project, the compilers (ids), and those of them whose build
    at ``all`` of this tree is not stored (to be built before the advice is given)."""

    recipe: Recipe
    compilers: list[str]
    missing: list[str]


def _open(db: Path):
    """The database read-only; one of an older schema is upgraded first, as by any
    writing command (advise is one: it runs the builds it lacks)."""
    try:
        return connect(db, write=False)
    except OldSchema:
        connect(db, write=True).close()      # the migrations, in one transaction
        return connect(db, write=False)


def has_flag_data(conn, name: str) -> None:
    """One line naming the command that ingests what ``name`` needs, where the database
    has no flag data for it: its own, or for a compiler of another target its host id's
    (which the advice reads in its stead, and says so)."""
    used = data_name(conn, name)
    try:
        flag_store.compiler_row(conn, used)
    except NotIngested as exc:
        if used == name:
            raise
        raise NotIngested(f"{name} has no flag data of its own, nor has {used}, whose data it would be "
                          f"read with: run: warnscope flags ingest {used} (or {name})") from exc


def plan(db: Path, recipe: Recipe, compilers: list[str]) -> Plan:
    """The advice on ``recipe`` for ``compilers`` (ids), checked before anything runs: a
    database or a compiler without flag data is one line naming the command that ingests
    it; the compilers whose stored build at ``all`` does not answer for this tree (none
    stored, or one of another tree of the same name or of this one edited) are
    ``missing``."""
    if not db.exists():
        wanted = list(dict.fromkeys(str(CompilerId.of(n).host) for n in compilers))
        raise NotIngested(f"compiler {compilers[0]!r} is not in the database (nothing ingested yet); "
                          f"run: warnscope flags ingest {' '.join(wanted)}")
    conn = _open(db)
    try:
        for name in compilers:
            has_flag_data(conn, name)        # not ingested: the command that ingests it
        source = steps.source_tree(recipe)
        found = warnings_store.answering(conn, recipe.name, source[1], digest.tree_digest(source[0], recipe),
                                         compilers, LEVEL)
    finally:
        conn.close()
    return Plan(recipe, list(compilers), [c for c in compilers if c not in found])


def advise(db: Path, p: Plan, rules: Rules, added: list[str]) -> Advice:
    """The advice of the planned project, its builds at ``all`` stored (those built now,
    ``p.missing``, said so)."""
    conn = connect(db, write=False)
    try:
        return advice_mod.advise(conn, p.recipe.name, list(p.recipe.languages), p.compilers, rules, added,
                                 ran_now=set(p.missing))
    finally:
        conn.close()
