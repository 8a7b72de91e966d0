"""Why a cell diverges: the optimisation flag or pass that changes its behaviour.

``ub why CASE --compiler C --levels L`` searches for what turns the level's behaviour
back into -O0's. Every step is a :class:`~analyzer.ub.results.Probe`: a cell's own
job (:func:`analyzer.ub.jobs.execute` of a :class:`~analyzer.ub.jobs.CellJob` with the
probe's flags after the level, without code), so it compiles through the content-keyed
cache, runs in the sandbox with the cell's limits and runs per cell, and is classified
as a cell is; two probes are compared by their ``behaviour``, as divergence compares
cells.

* clang: ``-mllvm -opt-bisect-limit=-1`` lists the passes the level runs (``BISECT:
  running pass (7) EarlyCSEPass on main``); limit 0 runs none. Outcomes need not change
  monotonically along the pipeline, so the search bisects every interval whose two ends
  behave differently, down to the pass where the behaviour changes: each change, in
  order, with the function its pass ran on.
* GCC: ``-Q --help=optimizers`` at the level against -O0 gives the flags the level adds;
  with all their ``-fno-…`` the program should behave as at -O0, and delta debugging
  (ddmin) narrows that to a minimal set. Where no flag set restores it, the same is done
  with the passes of ``-fdump-passes`` the level runs and -O0 does not, each disabled by
  ``-fdisable-tree-…``/``-fdisable-rtl-…``/``-fdisable-ipa-…``.
* Both: the UB-guard switches (:data:`GUARDS`) one by one, the switch a user would pull.

The search is bounded: bisection spends at most 2·⌈log2 P⌉ probes for P passes, delta
debugging at most 4·⌈log2 F⌉ + 4 for F flags (or passes), the guards one probe each, and
the fixed steps (the -O0 and level builds, the ends of the pipeline); the bound and the
probes spent are in the answer. Whatever stops the search -- a build whose runs disagree
(``unstable``: reported, never bisected into noise), a compiler without opt-bisect, a
pass list that does not read, a behaviour nothing explains, a tool missing -- is a status
with its reason, never an exception and never a guess.

A finished answer is cached by content (source and expected outputs, compiler identity,
level, flags, runs, limits, :data:`WHY_VERSION`) under ``cache_dir("ub", "why")``.
"""
from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass, field, replace

from warnscope.errors import IncompleteInstallation, NotInstalled, SandboxUnavailable, ToolFailed
from warnscope.paths import atomic_write, cache_dir
from warnscope.serial import plain

from analyzer.sandbox import runner as sandbox
from analyzer.runtime.toolchain import Toolchain, probe as tool_probe
from analyzer.ub.compile import compile_program
from analyzer.ub.corpus import Case
from analyzer.ub.explain.explain import describe
from analyzer.ub.jobs import CellJob, CellResult, execute
from analyzer.ub.results import (Cause, GuardCheck, JobFailure, Outcome, PassChange, Probe,
                                 WhyStatus, cause_from_plain)

#: Bump when what a cached answer means changes.
WHY_VERSION = "1"
#: The UB-guard switches tried one by one, per family: each tells the compiler not to
#: assume one kind of UB away (clang has no -faggressive-loop-optimizations nor
#: -fisolate-erroneous-paths-*; -fno-finite-loops is its switch for loops assumed to end).
GUARDS = {
    "gcc": ("-fwrapv", "-fno-strict-overflow", "-fno-strict-aliasing",
            "-fno-delete-null-pointer-checks", "-fno-aggressive-loop-optimizations",
            "-fno-isolate-erroneous-paths-dereference"),
    "clang": ("-fwrapv", "-fno-strict-overflow", "-fno-strict-aliasing",
              "-fno-delete-null-pointer-checks", "-fno-finite-loops"),
}
#: ``BISECT: running pass (7) EarlyCSEPass on main``
_BISECT = re.compile(r"^BISECT: running pass \((\d+)\) (.+)$")
#: what a pass runs on, as clang prints it after " on "
_TARGET = re.compile(r" on (\[module\]|function \(.*\)|\(.*\)|loop .*|<unnamed loop>"
                     r"|(?:Parallel )?Loop at depth .*|[^ ]+)$")
#: a line of ``-fdump-passes``: '      tree-vrp1        :  ON'
_DUMPED = re.compile(r"^\s*(\*?)((?:tree|rtl|ipa)-\S+)\s*:\s*(ON|OFF)\s*$")
#: a line of ``-Q --help=optimizers``: '  -ftree-vrp        [enabled]'
_OPTIMIZER = re.compile(r"^\s+(-f[A-Za-z0-9][\w+-]*)\s+\[(enabled|disabled)\]\s*$")


class _Stop(Exception):
    """The search ends here with this status and reason."""

    def __init__(self, status: WhyStatus, reason: str):
        super().__init__(reason)
        self.status, self.reason = status, reason


class _OverBound(Exception):
    """A search spent its share of probes."""


@dataclass
class Prober:
    """Runs probes of one cell (case, compiler, level, the cell's flags), remembers
    each answer and counts them."""

    case: Case
    compiler: Toolchain
    level: str
    cell_flags: tuple[str, ...] = ()
    runs: int = 2
    limits: sandbox.Limits = field(default_factory=sandbox.Limits)
    spent: int = 0
    seen: dict[tuple[str, ...], Probe] = field(default_factory=dict)
    #: the compiler's first error line of each build that did not compile
    errors: dict[tuple[str, ...], str] = field(default_factory=dict)

    def __call__(self, extra: list[str] | tuple[str, ...], level: str | None = None) -> Probe:
        """The behaviour of the build at ``level`` (default the cell's) with ``extra``
        flags. A build whose runs disagree stops the search (unstable); a job that
        failed (the sandbox, a compiler killed at a limit) stops it as unknown."""
        flags = (*self.cell_flags, *extra)
        lvl = level or self.level
        key = (lvl, *flags)
        if key in self.seen:
            return self.seen[key]
        self.spent += 1
        job = CellJob(case=self.case, source=self.case.source, compiler=self.compiler,
                      level=lvl, flags=flags, runs=self.runs, limits=self.limits, key="",
                      code=False)
        result = execute(job)
        if isinstance(result, JobFailure):
            raise _Stop(WhyStatus.UNKNOWN, f"the build {shown(lvl, flags)} failed at its "
                                           f"{result.stage}: {result.detail}")
        p = to_probe(list(flags), result)
        self.seen[key] = p
        if p.outcome is Outcome.COMPILE_ERROR:
            self.errors[key] = _error_line(result.compile_log)
        if p.outcome is Outcome.NONDETERMINISTIC:
            raise _Stop(WhyStatus.UNSTABLE, f"the build {shown(lvl, flags)} behaves "
                                            "differently from one run to the next")
        return p


def shown(level: str, flags: tuple[str, ...] | list[str]) -> str:
    text = " ".join((level, *flags))
    return text if len(text) <= 80 else text[:77] + "..."


def to_probe(flags: list[str], r: CellResult) -> Probe:
    p = Probe(flags=flags, outcome=r.verdict.outcome, behaviour=r.verdict.behaviour,
              exit=r.exit, signal=r.signal, stdout=r.stdout[:200], said="")
    return replace(p, said=describe(p))


def cache_key(case: Case, compiler: Toolchain, level: str, cell_flags: tuple[str, ...],
              runs: int, limits: sandbox.Limits) -> str:
    return hashlib.sha256("\0".join(
        (WHY_VERSION, case.source_hash, case.id, case.language, case.std, compiler.identity,
         level, *cell_flags, "--runs", str(runs), repr(limits))).encode()
        + b"\0" + case.source).hexdigest()


def why(case: Case, compiler: Toolchain, level: str, cell_flags: tuple[str, ...] = (),
        runs: int = 2, limits: sandbox.Limits = sandbox.Limits(), cached: bool = True) -> Cause:
    """The cause of ``case``'s behaviour at ``level`` with ``compiler`` (see the module
    docstring); from the cache when it holds it."""
    key = cache_key(case, compiler, level, cell_flags, runs, limits)
    path = cache_dir("ub", "why", key[:2]) / f"{key}.json"
    if cached and path.exists():
        try:
            return cause_from_plain(json.loads(path.read_text()))
        except (ValueError, TypeError, KeyError):
            pass  # an entry of another shape: searched again
    cause = search(Prober(case, compiler, level, tuple(cell_flags), runs, limits))
    atomic_write(path, json.dumps(plain(cause)).encode())
    return cause


@dataclass
class _Found:
    method: str = ""
    flags: list[str] = field(default_factory=list)
    passes: list[PassChange] = field(default_factory=list)
    passes_total: int = 0
    flags_total: int = 0
    guards: list[GuardCheck] = field(default_factory=list)
    bound: int = 2
    notes: list[str] = field(default_factory=list)


#: what stops a search as "cause unknown", saying why: a tool the search needs is missing,
#: fails or times out, or the sandbox cannot run it. Anything else (bad input, the
#: database) is not a cause of the cell and ends the command as itself.
TOOL_ERRORS = (NotInstalled, IncompleteInstallation, ToolFailed, SandboxUnavailable)


def search(prober: Prober) -> Cause:
    """The whole search for one cell, as a :class:`Cause` whatever happens."""
    found = _Found()
    baseline = observed = None
    status, reason = WhyStatus.EXPLAINED, ""
    try:
        baseline = prober([], level="-O0")
        observed = prober([])
        if Outcome.COMPILE_ERROR in (baseline.outcome, observed.outcome):
            which = "-O0" if baseline.outcome is Outcome.COMPILE_ERROR else prober.level
            error = prober.errors.get((which, *prober.cell_flags), "")
            raise _Stop(WhyStatus.UNKNOWN, f"the {which} build does not compile"
                        + (f" ({error})" if error else ""))
        if baseline.behaviour == observed.behaviour:
            raise _Stop(WhyStatus.SAME, f"{prober.level} behaves as -O0 ({observed.said})")
        if prober.compiler.profile.bisects_passes:
            _clang(prober, baseline, observed, found)
        else:
            _gcc(prober, baseline, found)
        _guards(prober, baseline, found)
        if not found.flags and not found.passes:
            raise _Stop(WhyStatus.UNKNOWN, "no flag or pass explains it"
                        + (f" ({found.notes[0]})" if found.notes else ""))
    except _Stop as stop:
        status, reason = stop.status, stop.reason
    except TOOL_ERRORS as exc:  # a tool missing or failing: its one line
        status, reason = WhyStatus.UNKNOWN, " ".join(str(exc).split())[:300]
    if status is WhyStatus.UNSTABLE:  # never explained: drop what was found
        found = _Found(bound=found.bound)
    baseline = baseline or prober.seen.get(("-O0", *prober.cell_flags))
    observed = observed or prober.seen.get((prober.level, *prober.cell_flags))
    return Cause(case=prober.case.id, compiler=prober.compiler.name,
                 compiler_version=prober.compiler.version, level=prober.level,
                 cell_flags=" ".join(prober.cell_flags), status=status, reason=reason,
                 method=found.method, baseline=baseline, observed=observed,
                 flags=found.flags, passes=found.passes, passes_total=found.passes_total,
                 flags_total=found.flags_total, guards=found.guards, probes=prober.spent,
                 bound=found.bound, notes=found.notes)


def _log2(n: int) -> int:
    return max(1, math.ceil(math.log2(max(n, 2))))


# ------------------------------------------------------------------ clang

@dataclass(frozen=True)
class BisectPass:
    index: int
    name: str
    target: str
    function: str


def parse_bisect(log: str) -> list[BisectPass]:
    """The passes of ``-opt-bisect-limit=-1``'s lines, in order. A loop pass whose
    line does not name its function (``on <unnamed loop>``) ran inside the function of
    the function pass before it (clang runs loop passes nested in one)."""
    found = []
    current = ""
    for line in log.splitlines():
        m = _BISECT.match(line.strip())
        if not m:
            continue
        rest = m[2]
        t = _TARGET.search(rest)
        name, target = (rest[:t.start()], t[1]) if t else (rest, "")
        function = function_of(target)
        if function and "loop" not in target.lower():
            current = function
        elif not function and "loop" in target.lower():
            function = current
        found.append(BisectPass(int(m[1]), name.strip(), target, function))
    return found


def function_of(target: str) -> str:
    """The function a pass ran on, from clang's words for its target ('' for a module
    pass or a loop whose function clang did not name)."""
    if target == "[module]" or not target:
        return ""
    m = re.fullmatch(r"function \((.*)\)", target) or re.fullmatch(r"\((.*)\)", target) \
        or re.fullmatch(r"loop .* in function (\S+)", target)
    if m:
        return m[1]
    if "loop" in target.lower() or " " in target:
        return ""
    return target


def _clang(prober: Prober, baseline: Probe, observed: Probe, found: _Found) -> None:
    c = prober.compiler
    listing = compile_program(c, prober.case.language, prober.case.std, prober.case.path.name,
                              prober.case.source,
                              [prober.level, *prober.cell_flags, "-mllvm", "-opt-bisect-limit=-1"],
                              list(prober.case.link), False)
    passes = parse_bisect(listing.log)
    if not listing.ok and not passes:
        raise _Stop(WhyStatus.UNKNOWN, f"{c.name} did not list its passes with -mllvm "
                                       f"-opt-bisect-limit=-1: {_first_line(listing.log)}")
    if not passes:
        raise _Stop(WhyStatus.UNKNOWN, f"{c.name} prints no opt-bisect passes (no "
                                       "-opt-bisect-limit in this version)")
    total = passes[-1].index
    by_index = {p.index: p for p in passes}
    found.method, found.passes_total = "opt-bisect", total
    share = 2 * _log2(total)
    found.bound = 2 + 1 + share + len(GUARDS["clang"])

    def at(n: int) -> Probe:
        return prober(["-mllvm", f"-opt-bisect-limit={n}"])

    start = prober.spent
    ends = {0: at(0), total: observed}  # all passes: the level's own build
    changes: list[tuple[int, Probe, Probe]] = []

    def go(lo: int, hi: int) -> None:
        if ends[lo].behaviour == ends[hi].behaviour:
            return
        if hi - lo == 1:
            changes.append((hi, ends[lo], ends[hi]))
            return
        if prober.spent - start >= share + 1:
            found.notes.append(f"a change between pass {lo + 1} and pass {hi} not located "
                               "(bound reached)")
            return
        mid = (lo + hi) // 2
        ends[mid] = at(mid)
        go(lo, mid)
        go(mid, hi)

    go(0, total)
    if ends[0].behaviour != baseline.behaviour:
        found.notes.append(f"with no pass run (limit 0) it already {ends[0].said}, "
                           f"not -O0's {baseline.said}")
    for index, before, after in changes:
        p = by_index.get(index, BisectPass(index, "?", "", ""))
        found.passes.append(PassChange(index=index, name=p.name, target=p.target,
                                       function=p.function, before=before.said,
                                       after=after.said))


def _error_line(log: str) -> str:
    """The first line of a compile log that says 'error' (else its first line)."""
    lines = [l for l in log.splitlines() if "error" in l.lower()]
    return " ".join(lines[0].split())[:200] if lines else _first_line(log)


def _first_line(log: str) -> str:
    lines = [l for l in log.splitlines() if l.strip()]
    return " ".join(lines[0].split())[:200] if lines else "no output"


# ------------------------------------------------------------------ GCC

def optimizer_flags(compiler: Toolchain, language: str, level: str) -> set[str]:
    """The ``-f`` optimisation flags ``level`` enables (``-Q --help=optimizers``)."""
    argv = compiler.wrap([compiler.driver(language), "-Q", "--help=optimizers", level])
    text = tool_probe(argv, what=f"{compiler.name} -Q --help=optimizers {level}")
    return {m[1] for line in text.splitlines() if (m := _OPTIMIZER.match(line)) and m[2] == "enabled"}


def added_flags(compiler: Toolchain, language: str, level: str) -> list[str]:
    """The flags ``level`` turns on over -O0, sorted."""
    return sorted(optimizer_flags(compiler, language, level)
                  - optimizer_flags(compiler, language, "-O0"))


def negate(flag: str) -> str:
    return "-fno-" + flag[2:] if not flag.startswith("-fno-") else "-f" + flag[5:]


def dumped_passes(prober: Prober, level: str) -> list[tuple[int, str]]:
    """(place, name) of the passes ``-fdump-passes`` says run at ``level`` (not the
    unnamed '*' ones, which cannot be disabled)."""
    case = prober.case
    build = compile_program(prober.compiler, case.language, case.std, case.path.name,
                            case.source, [level, *prober.cell_flags, "-fdump-passes"],
                            list(case.link), False)
    out = []
    for i, line in enumerate(l for l in build.log.splitlines() if _DUMPED.match(l)):
        m = _DUMPED.match(line)
        if not m[1] and m[3] == "ON":
            out.append((i, m[2]))
    return out


def disable_switch(name: str) -> str:
    """'tree-vrp1' -> '-fdisable-tree-vrp1'."""
    return f"-fdisable-{name}"


def ddmin(items: list, restores, limit: int) -> tuple[list, bool]:
    """A minimal sublist of ``items`` that still ``restores`` (which ``items`` does), by
    delta debugging; (the smallest found, whether it is minimal) -- not minimal when
    ``limit`` tests were spent first."""
    spent = 0

    def test(sub: list) -> bool:
        nonlocal spent
        if spent >= limit:
            raise _OverBound
        spent += 1
        return restores(sub)

    n = 2
    try:
        while len(items) >= 2:
            size = math.ceil(len(items) / n)
            chunks = [items[i:i + size] for i in range(0, len(items), size)]
            for ch in chunks:
                if test(ch):
                    items, n = ch, 2
                    break
            else:
                for ch in (chunks if len(chunks) > 2 else []):
                    rest = [x for x in items if x not in ch]
                    if test(rest):
                        items, n = rest, max(n - 1, 2)
                        break
                else:
                    if n >= len(items):
                        return items, True
                    n = min(len(items), 2 * n)
        return items, True
    except _OverBound:
        return items, False


def _gcc(prober: Prober, baseline: Probe, found: _Found) -> None:
    case, c = prober.case, prober.compiler
    flags = added_flags(c, case.language, prober.level)
    found.method, found.flags_total = "flags", len(flags)
    if not flags:
        found.notes.append(f"{prober.level} adds no -f flag over -O0")
    offs = [negate(f) for f in flags]
    share = 4 * _log2(len(offs)) + 4
    found.bound = 2 + 1 + share + len(GUARDS["gcc"])

    def restores(sub: list[str]) -> bool:
        return prober(sub).behaviour == baseline.behaviour

    if offs and restores(offs):
        found.flags, minimal = ddmin(offs, restores, share)
        if not minimal:
            found.notes.append("the flag set is not minimal (bound reached)")
        return
    if offs:
        found.notes.append(f"all {len(offs)} -fno- flags of {prober.level} together do not "
                           "restore -O0's behaviour")
    # no flag set does: the passes the level runs and -O0 does not
    at_o0 = {name for _, name in dumped_passes(prober, "-O0")}
    passes = [(i, name) for i, name in dumped_passes(prober, prober.level) if name not in at_o0]
    if not passes:
        raise _Stop(WhyStatus.UNKNOWN, "no flag restores it and -fdump-passes lists no pass "
                                       "to disable" + (f" ({found.notes[0]})" if found.notes else ""))
    found.method, found.passes_total = "flags+passes", len(passes)
    pshare = 4 * _log2(len(passes)) + 4
    found.bound += 1 + pshare + 2
    switches = [disable_switch(name) for _, name in passes]

    def p_restores(sub: list[str]) -> bool:
        return prober(sub).behaviour == baseline.behaviour

    if not p_restores(switches):
        found.notes.append(f"disabling all {len(switches)} passes of {prober.level} that -O0 "
                           "does not run does not restore it either")
        return
    chosen, minimal = ddmin(switches, p_restores, pshare)
    if not minimal:
        found.notes.append("the pass set is not minimal (bound reached)")
    observed = prober([])
    restored = prober(chosen)
    for i, name in passes:
        sw = disable_switch(name)
        if sw in chosen:
            found.passes.append(PassChange(index=i, name=name, target="", function="",
                                           before=restored.said, after=observed.said,
                                           switch=sw))


# ------------------------------------------------------------------ guards

def _guards(prober: Prober, baseline: Probe, found: _Found) -> None:
    for flag in GUARDS.get(prober.compiler.family, ()):
        p = prober([flag])
        restores = None if p.outcome is Outcome.COMPILE_ERROR else p.behaviour == baseline.behaviour
        found.guards.append(GuardCheck(flag=flag, restores=restores,
                                       said="refused by the compiler" if restores is None else p.said))
