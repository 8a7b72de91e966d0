"""Ingesting one compiler version: pick the parser by family, then save in one transaction.

Parsing happens completely before the database is touched, so a malformed file or
a failed download leaves the database exactly as it was.
"""
from __future__ import annotations

import sqlite3

from . import store
from .errors import WarnscopeError
from .model import CompilerData, family_of


def parse_compiler_id(compiler: str) -> str:
    """Validate ``gcc-12`` / ``clang-16`` and return the family."""
    try:
        return family_of(compiler)
    except ValueError:
        raise WarnscopeError(
            f"unknown compiler id {compiler!r}: expected gcc-N or clang-N (e.g. gcc-12, clang-16)"
        ) from None


def load(compiler: str, source: str | None = None, from_binary: bool = False) -> CompilerData:
    """Parse a compiler version's warning data without touching the database."""
    family = parse_compiler_id(compiler)
    if from_binary:
        if family != "gcc":
            raise WarnscopeError("--from-binary needs a GCC (it uses the warnscope GCC plugin)")
        from analyzer.plugin_cli import ingest_from_binary

        return ingest_from_binary(compiler)
    if family == "gcc":
        from .gcc_ingest import load_gcc

        return load_gcc(compiler, source)
    from .clang_ingest import load_clang

    return load_clang(compiler, source)


def ingest(conn: sqlite3.Connection, compiler: str, source: str | None = None,
           from_binary: bool = False) -> tuple[CompilerData, str]:
    """Parse, then store; returns the data and ``added`` / ``replaced`` / ``unchanged``."""
    data = load(compiler, source, from_binary)
    if not data.flags:
        raise WarnscopeError(f"{compiler}: no warning options found in {data.source}")
    return data, store.save(conn, data)
