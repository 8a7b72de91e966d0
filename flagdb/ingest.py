"""Ingesting one compiler version: pick the parser by family, then save in one transaction.

Parsing happens completely before the database is touched, so a malformed file or
a failed download leaves the database exactly as it was.
"""
from __future__ import annotations

import logging
import sqlite3

from flagdb import names, store
from warnscope.database import is_empty
from warnscope.errors import BadInput
from flagdb.model import CompilerData
from warnscope.compilers import CompilerId

#: what this module is doing, for the progress a terminal shows (analyzer.cli.output)
log = logging.getLogger(__name__)


def load(compiler: str, source: str | None = None, suite: str | None = None,
         sha256: str | None = None) -> CompilerData:
    """Parse a compiler version's warning data without touching the database.

    Without ``source`` the data comes from Debian's package for it (gcc-N-source,
    libclang-N-dev) in the suite :meth:`warnscope.apt.AptState.best` picks, or ``suite``.

    (The binary route, which asks a GCC through the warnscope plugin, runs compilers
    and so lives in :mod:`analyzer.gccplugin.binary`; its result is stored with
    :func:`store_data` like this one's.)

    ``sha256``: the SHA-256 a tarball given as ``source`` must have (checked before it
    is read).

    A compiler for another target (``gcc-12@aarch64-linux-gnu``) gets the data of its
    release read for that target: GCC's option files with the target's own files in
    scope (:func:`flagdb.gcc_ingest.target_scope`); clang's tables as they are, since one
    clang binary holds every target's diagnostics. Either way the entry is stored under
    the cross id, its provenance saying for which target it was read.
    """
    cid = CompilerId.of(compiler)
    if cid.profile.gcc:
        from flagdb.gcc_ingest import load_gcc

        return load_gcc(str(cid), source, suite, sha256)
    from flagdb.clang_ingest import load_clang

    if not cid.target:
        return load_clang(str(cid), source, suite, sha256)
    data = load_clang(str(cid.host), source, suite, sha256)
    data.compiler = str(cid)
    data.source += (f", for {cid.target} (clang's diagnostic tables are one for every "
                    "target)")
    return data


def ingest(conn: sqlite3.Connection, compiler: str, source: str | None = None,
           suite: str | None = None) -> tuple[CompilerData, str]:
    """Parse, then store; returns the data and ``added`` / ``replaced`` / ``unchanged``."""
    data = load(compiler, source, suite)
    return data, store_data(conn, data)


#: A new entry with fewer flags than this share of the stored one is refused unless forced.
MIN_SHARE = 0.8


def store_data(conn: sqlite3.Connection, data: CompilerData, force: bool = False) -> str:
    """Store parsed data in one transaction; an empty parse is refused, not stored, and
    so is one far smaller than the stored entry (an incomplete source would silently
    replace a good entry) unless ``force``."""
    compiler = data.compiler
    if not data.flags:
        raise BadInput(f"{compiler}: no warning options found in {data.source}")
    bad = names.first_problem(names.data_names(data))
    if bad is not None:  # the parsers refuse these with file:line; the binary route ends here
        raise BadInput(f"{compiler}: {data.source} gives the warning option {names.shown(bad[0])}, "
                       f"{bad[1]}; not stored")
    if not force and not is_empty(conn):
        stored = next((r for r in store.compilers(conn) if r.name == compiler), None)
        if stored is not None and len(data.flags) < MIN_SHARE * stored.flags:
            raise BadInput(
                f"{compiler}: {data.source} gives {len(data.flags)} flags, far fewer than the "
                f"{stored.flags} stored (from {stored.source}); an incomplete source? "
                "Not replaced (--force replaces it)")
    log.info("%s: storing %d flags", compiler, len(data.flags))
    return store.save(conn, data)
