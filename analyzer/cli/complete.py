"""Shell completion of the names warnscope knows: compiler ids, flags, UB cases and
projects, read from the database the command line names (``--db``, ``WARNSCOPE_DB``).

Click completes commands and options itself; these callbacks give the values
(``warnscope flags tree gcc-<TAB>``, ``--compilers gcc-12,cl<TAB>``). A completion
never fails the shell: a missing or unreadable database completes nothing.
How to turn it on, per shell: docs/index.md ("Shell completion").
"""
from __future__ import annotations

import sqlite3
from typing import Callable

import click
from click.shell_completion import CompletionItem

from warnscope.errors import WarnscopeError
from warnscope.paths import db_path


def _read(ctx: click.Context, query: Callable[[sqlite3.Connection], list[str]]) -> list[str]:
    """``query`` on the command line's database, read-only; [] where there is none."""
    from warnscope.database import connect

    path = db_path(ctx.find_root().params.get("db"))
    if not path.is_file():
        return []
    try:
        conn = connect(path, write=False)
        try:
            return query(conn)
        finally:
            conn.close()
    except (WarnscopeError, sqlite3.Error, OSError):
        return []


def _items(names: list[str], before: str = "") -> list[CompletionItem]:
    return [CompletionItem(before + n) for n in names]


def compilers(ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Ingested compiler ids; in a comma-separated list, the last item."""
    from flagdb import store

    before, _, last = incomplete.rpartition(",")
    before = before + "," if before else ""
    names = _read(ctx, lambda conn: [] if store.is_empty(conn) else [r.name for r in store.compilers(conn)])
    return _items([n for n in names if n.startswith(last)], before)


def flags(ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Stored flag names (of the command's compiler where it names one)."""
    from flagdb import store

    compiler = ctx.params.get("compiler")
    compiler = compiler if isinstance(compiler, str) else None
    return _items(_read(ctx, lambda conn: store.names_starting(conn, incomplete, compiler)))


def cases(ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Stored UB case ids."""
    from analyzer.ub import store

    return _items(_read(ctx, lambda conn: store.case_ids(conn, incomplete)))


def projects(ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The projects warnscope can build (its recipes) and those with stored builds."""
    from analyzer.projects.recipes import RECIPES
    from analyzer.warnings import store

    stored = _read(ctx, lambda conn: store.projects(conn) if store.has_builds(conn) else [])
    before, _, last = incomplete.rpartition(",")
    before = before + "," if before else ""
    return _items(sorted(n for n in {*RECIPES, *stored} if n.startswith(last)), before)
