"""A compiler's diagnostics read from what it printed: GCC's JSON
(:mod:`~warnscope.diagnostics.parse_gcc_json`, GCC 9-15), SARIF
(:mod:`~warnscope.diagnostics.parse_sarif`: GCC 13 on, and clang's) and text
(:mod:`~warnscope.diagnostics.parse_text`). Read in this one place for every family: the
warnings family counts each diagnostic of a build (:class:`Parsed`), the UB runner asks
GCC which warning options fired on a program and what its analyzer found (the elements
as GCC prints them, :func:`~warnscope.diagnostics.parse_gcc_json.split_stderr`).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RawDiagnostic:
    """One diagnostic as one compile printed it, before paths are made relative to the
    tree and before the TUs that share it are merged. Notes are not diagnostics of
    their own (they belong to the warning above them) and are dropped by the parsers."""

    option: str | None      # '-Wunused-variable'; None: no option controls it
    severity: str           # 'warning' | 'error' | 'fatal' | 'ice' | 'remark' | another word the compiler used
    file: str | None        # as printed (relative to the compile's directory, or absolute); None: no location
    line: int | None
    column: int | None
    message: str


@dataclass(frozen=True)
class Parsed:
    """A compile's diagnostics output read: what it held, and ``problem`` when part of it
    could not be read (truncated JSON, an unknown SARIF shape): the TU is then reported
    with that reason, and the diagnostics read before the problem are kept."""

    diagnostics: list[RawDiagnostic]
    problem: str | None = None
