"""``ub why CASE --compilers A,B,... --level L``: one cell's cause across compiler
versions, as a table that says where the cause changes from one version to the next.

Each compiler's search is :func:`analyzer.ub.why.why.why` (a :class:`~analyzer.ub.why.whyrun.WhyJob`
on a local pool, as ``ub run --why`` runs them). A compiler that is not installed, whose
tools do not answer, or whose search failed is a row whose cause is unknown, saying why;
an id that is not a compiler id is bad input, as everywhere.

A row is compared with the row before it of the same family (gcc-13 with gcc-12, not
with clang-18) on three things: the cause (:func:`cause_key`: GCC's flag set or passes,
clang's passes by name and where each ran -- their numbers are left out, they differ
between versions, and so is the spelling of their names), the level's behaviour, and
the UB guards that restore -O0's behaviour. A row that was not searched (its compiler missing) is
compared with nothing, and the next row with the one before it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from warnscope.compilers import family_of, sort_key
from warnscope.errors import NotInstalled, ToolFailed

from analyzer.runtime.executors import in_use
from analyzer.runtime.toolchain import Toolchain, resolve
from analyzer.sandbox import runner as sandbox
from analyzer.ub.why import whyrun
from analyzer.ub.corpus import Case
from analyzer.ub.results import Cause, JobFailure, WhyStatus, pass_place


@dataclass(frozen=True)
class WhyRow:
    compiler: str
    cause: Cause
    #: the cause in a few words, as rows are compared (:func:`what`)
    what: str
    #: the UB guards that restore -O0's behaviour ('none'; '' where none were tried)
    guards: str
    #: against the row before of the same family: '' for the first; 'same cause as
    #: gcc-14' or 'cause changes from gcc-14 (was: ...)', then what else changes
    #: ('-O2 behaviour changes (was: hang)', 'guards change (was: ...)', 'passes spelt
    #: early-cse (was: EarlyCSEPass)')
    change: str


@dataclass(frozen=True)
class WhyTable:
    case: str
    level: str
    rows: list[WhyRow]


def what(c: Cause) -> str:
    """The cause in a few words: '-fno-tree-vrp', 'EarlyCSEPass on main -> hang; ...',
    'cause unknown: ...'."""
    if c.status is WhyStatus.UNKNOWN:
        return f"cause unknown: {c.reason}"
    if c.status is WhyStatus.UNSTABLE:
        return f"unstable: {c.reason}"
    if c.status is WhyStatus.SAME:
        return "nothing to explain (behaves as -O0)"
    parts = [" ".join(c.flags)] if c.flags else []
    parts += [p.switch if p.switch else f"{p.name}{pass_place(p)} -> {p.after}" for p in c.passes]
    return "; ".join(parts)


def guards(c: Cause) -> str:
    if not c.guards:
        return ""
    return ", ".join(g.flag for g in c.guards if g.restores) or "none"


def said(c: Cause) -> str:
    return c.observed.said if c.observed else "?"


def spelt(name: str) -> str:
    """A pass name as rows compare it: clang spells one pass 'Early CSE' (its legacy
    pass manager), 'EarlyCSEPass' and 'early-cse' (clang 22 on): all 'earlycse'."""
    word = re.sub(r"[^a-z0-9]", "", name.lower())
    return word[:-4] if word.endswith("pass") and len(word) > 4 else word


def cause_key(c: Cause) -> tuple:
    """What rows compare as the cause: the status (and reason) where nothing was found;
    else the flags, and each pass by its name as :func:`spelt`, where it ran, and what
    it made of the program -- the last pass's is the level's behaviour, compared on
    its own."""
    if c.status is not WhyStatus.EXPLAINED:
        return (what(c),)
    last = len(c.passes) - 1
    return (tuple(c.flags), tuple((p.switch or spelt(p.name), pass_place(p),
                                   p.after if i < last else "") for i, p in enumerate(c.passes)))


def change(row: WhyRow, before: WhyRow | None) -> str:
    if before is None:
        return ""
    now, was = row.cause, before.cause
    parts = [f"same cause as {before.compiler}" if cause_key(now) == cause_key(was)
             else f"cause changes from {before.compiler} (was: {before.what})"]
    if said(now) != said(was):
        parts.append(f"{now.level} behaviour changes (was: {said(was)})")
    if row.guards != before.guards:
        parts.append(f"guards change (was: {before.guards or 'not tried'})")
    names, old = [p.name for p in now.passes], [p.name for p in was.passes]
    if cause_key(now) == cause_key(was) and names != old:
        parts.append(f"passes spelt {', '.join(names)} (was: {', '.join(old)})")
    return "; ".join(parts)


def unknown(case: Case, compiler: str, level: str, cell_flags: tuple[str, ...],
            reason: str) -> Cause:
    """The row of a compiler whose search could not run: cause unknown, saying why."""
    return Cause(case=case.id, compiler=compiler, compiler_version="", level=level,
                 cell_flags=" ".join(cell_flags), status=WhyStatus.UNKNOWN,
                 reason=" ".join(reason.split())[:300], method="", baseline=None,
                 observed=None, flags=[], passes=[], passes_total=0, flags_total=0,
                 guards=[], probes=0, bound=0)


def table(case: Case, compilers: list[str], level: str, cell_flags: tuple[str, ...] = (),
          runs: int = 2, limits: sandbox.Limits = sandbox.Limits(), jobs: int | None = None,
          cached: bool = True) -> WhyTable:
    """The cause of ``case`` at ``level`` for each of ``compilers`` (canonical ids),
    in listing order (GCC, then clang, each by version)."""
    causes: dict[str, Cause] = {}
    work = []
    for name in compilers:
        try:
            tc: Toolchain = resolve(name)
        except (NotInstalled, ToolFailed) as exc:
            causes[name] = unknown(case, name, level, cell_flags, str(exc))
            continue
        if tc.root is not None and not sandbox.namespaces_available():
            causes[name] = unknown(case, name, level, cell_flags,
                                   f"{name} runs from its Debian {tc.suite} root, which needs "
                                   "the namespace sandbox; this system allows none")
            continue
        work.append(whyrun.WhyJob(case=case, compiler=tc, level=level, flags=cell_flags,
                                  runs=runs, limits=limits, key=name, cached=cached))
    if work:
        sandbox.prepare()
        with in_use(None, jobs) as executor:
            for job, result, error in executor.map(whyrun.execute, work):
                if error is None and not isinstance(result, JobFailure):
                    causes[job.key] = result[1]
                    continue
                detail = f"{error}" if error is not None else f"{result.cause}: {result.detail}"
                causes[job.key] = unknown(case, job.key, level, cell_flags,
                                          f"the search failed: {detail}")
    rows: list[WhyRow] = []
    last: dict[str, WhyRow] = {}
    for name in sorted(causes, key=sort_key):
        c = causes[name]
        row = WhyRow(compiler=name, cause=c, what=what(c), guards=guards(c), change="")
        family = family_of(name)
        if c.baseline is not None:  # searched: compared, and compared with
            row = replace(row, change=change(row, last.get(family)))
            last[family] = row
        rows.append(row)
    return WhyTable(case=case.id, level=level, rows=rows)
