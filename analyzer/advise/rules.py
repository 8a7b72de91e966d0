"""The rules of the advice: explicit, tunable, and the only place a verdict is made.

:class:`Rules` holds every threshold, with its default; :func:`decide` takes one flag's
evidence per compiler (:class:`~analyzer.advise.results.PerCompiler`) and returns its
verdict with the reasons, as sentences built from that evidence. The README states the
same rules ("Which warnings to turn on").

In order, for one flag:

1. Compilers that accept it as a no-op are left out; if none is left: no evidence. A
   build at ``all`` failed on it (a crash it triggers, named by the crash's function, or
   its diagnostic as the error that stopped the build) → **breaks the build**.
2. On at the base level (default, ``-Wall``, ``-Wall -Wextra``) with every compiler that
   knows it: **already on**. Otherwise the rest is about the compilers that have it off.
3. UB cases count only from compilers whose corpus checks had it on, not where it fires
   on the case's fixed twin alike, and only where it fires on at most
   ``max_control_hits`` programs without UB, controls and fixed twins (a flag that fires
   on a correct program says nothing by firing on a wrong one).
4. It prints in the project's own files with some compiler (``n`` diagnostics, the most
   of any compiler):
   UB cases counted and fewer than ``often`` diagnostics per case → **fix first**,
   ranked by cases per diagnostic; else at least ``often`` diagnostics (per case
   counted, or in all when none is) → **style**; else → **review**.
5. Silent with every compiler (diagnostics outside the project's files do not count:
   without ``-Wsystem-headers`` they are not printed; a build that failed is silent only
   up to the failure, which is not enough) and UB cases counted:
   a measured cost above ``cost_threshold`` with some compiler → **costly**; not known by
   every compiler of the list under ``--portable all`` → **not portable**; else
   **turn on now**. Silent and nothing counted → **no evidence**.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field

from analyzer.advise.results import CostStatus, OnAt, PerCompiler, Verdict

#: the base levels and what each has on
BASES = {"default": (OnAt.DEFAULT,), "wall": (OnAt.DEFAULT, OnAt.WALL),
         "wextra": (OnAt.DEFAULT, OnAt.WALL, OnAt.WEXTRA)}
#: the flags each base level passes
BASE_FLAGS = {"default": [], "wall": ["-Wall"], "wextra": ["-Wall", "-Wextra"]}


class Portability(enum.Enum):
    """Which compilers must know a flag before it is turned on."""

    #: every compiler of the list
    ALL = "all"
    #: any: the export passes it only to those that know it
    ANY = "any"


@dataclass(frozen=True)
class Rules:
    """Every threshold of the rules, with its default (each a command-line option)."""

    #: the level the project builds at already: default, wall, wextra
    base: str = "wextra"
    portable: Portability = Portability.ALL
    #: diagnostics per UB case caught (or in all, when it catches none) from which a flag
    #: that fires is style rather than a finding
    often: int = 10
    #: programs without UB a flag may fire on and still have its UB hits counted
    max_control_hits: int = 0
    #: a measured cost above this share of the off compile is said, and stops "turn on now"
    cost_threshold: float = 0.05
    #: files listed per compiler
    top_files: int = 3


@dataclass
class Decision:
    verdict: Verdict
    reasons: list[str] = field(default_factory=list)
    #: the UB cases counted
    cases: list[str] = field(default_factory=list)
    rank: float | None = None


def base_on(c: PerCompiler, base: str) -> bool:
    return c.on is not None and c.on in BASES[base]


def decide(compilers: list[PerCompiler], rules: Rules) -> Decision:
    """The verdict on one flag from its evidence with every compiler of the list."""
    known = [c for c in compilers if c.known]
    working = [c for c in known if not c.noop]
    reasons: list[str] = []
    if len(working) < len(known):
        reasons.append(f"a no-op with {_names(c for c in known if c.noop)}")
    if not working:
        return Decision(Verdict.NO_EVIDENCE, reasons)
    broken = [c for c in working if c.trouble]
    if broken:
        return Decision(Verdict.BREAKS_BUILD, reasons + [
            f"the build at all failed on it with {_names(broken)} (its trouble says how): not turned on"])
    if all(base_on(c, rules.base) for c in working):
        return Decision(Verdict.ALREADY_ON, reasons + [
            f"on at the base level ({rules.base}) with " + ", ".join(f"{c.compiler} ({c.on.value})"
                                                                    for c in working)])
    active = [c for c in working if not base_on(c, rules.base)]
    if len(active) < len(working):
        reasons.append(f"on at the base level with {_names(c for c in working if base_on(c, rules.base))}; "
                       f"off with {_names(active)}")
    cases, ub_reasons = _counted_cases(active, rules)
    reasons += ub_reasons
    built = [c for c in active if c.prints is not None]
    most = max((c.prints.own for c in built), default=0)
    costly = [c for c in active if c.cost.status is CostStatus.MEASURED and c.cost.share_of_off is not None
              and c.cost.share_of_off > rules.cost_threshold]
    cost_reasons = [f"costs {c.cost.share_of_off:.1%} of the off compile with {c.compiler} "
                    f"(alone: {_amount(c.cost.alone, c.cost.unit)})" for c in costly]
    if most > 0:
        reasons += _grouped([c for c in built if c.prints.own], _prints)
        quiet = [c for c in built if not c.prints.own]
        if quiet:
            reasons.append(f"silent with {_names(quiet)}")
        per_case = most / len(cases) if cases else most
        if cases and per_case < rules.often:
            return Decision(Verdict.FIX_FIRST, reasons + [
                f"{_n(len(cases), 'UB case')} for {_n(most, 'diagnostic')}: fewer than {rules.often} per case"]
                + cost_reasons, cases, len(cases) / most)
        if per_case >= rules.often:
            what = (f"{per_case:.3g} diagnostics per UB case caught" if cases
                    else f"{_n(most, 'diagnostic')}, no UB caught")
            return Decision(Verdict.STYLE, reasons + [f"fires often: {what} (--often {rules.often})"]
                            + cost_reasons, cases)
        return Decision(Verdict.REVIEW, reasons + [f"fires {_n(most, 'time')} and catches no UB: read them"]
                        + cost_reasons, cases)
    unbuilt = [c for c in active if c.prints is None]
    if unbuilt:
        return Decision(Verdict.NO_EVIDENCE, reasons + [f"no build at all with {_names(unbuilt)}: "
                                                       "silence there is not known"], cases)
    failed = [c for c in active if not c.prints.complete]
    if failed:
        quiet = [c for c in active if c.prints.complete]
        return Decision(Verdict.NO_EVIDENCE, reasons + (
            [f"silent on this tree with {_names(quiet)}"] if quiet else []) + [
            f"the build at all failed with {_names(failed)}: silent up to the failure, the rest is not known"],
            cases)
    reasons.append(f"silent on this tree with {_names(active)}")
    if not cases:
        return Decision(Verdict.NO_EVIDENCE, reasons + ["catches nothing counted in the UB corpus"])
    if costly:
        return Decision(Verdict.COSTLY, reasons + cost_reasons, cases)
    unknown = [c for c in compilers if not c.known]
    if unknown and rules.portable is Portability.ALL:
        return Decision(Verdict.NOT_PORTABLE, reasons + [
            f"not known by {_names(unknown)} (--portable any passes it to the others)"], cases)
    if unknown:
        reasons.append(f"passed only to the compilers that know it, not to {_names(unknown)}")
    return Decision(Verdict.TURN_ON, reasons + ["a free guard: nothing to fix now, and the UB it catches "
                                                "is reported the day it is written"], cases)


def _counted_cases(active: list[PerCompiler], rules: Rules) -> tuple[list[str], list[str]]:
    """The UB cases counted for the flag, and the reasons of what was not."""
    counted: set[str] = set()
    reasons = []
    untried = [c for c in active if c.ub is not None and not c.ub.tried]
    if untried:
        reasons.append(f"not on in the UB corpus's checks with {_names(untried)}")
    missing = [c for c in active if c.ub is None]
    if missing:
        reasons.append(f"no UB results with {_names(missing)}")
    alarmed = []
    for c in active:
        if c.ub is None or not c.ub.tried:
            continue
        if len(c.ub.controls) + len(c.ub.twins) > rules.max_control_hits:
            if c.ub.cases:
                alarmed.append(c)
            continue
        counted.update(c.ub.cases)
    reasons += _grouped(alarmed, lambda c: (
        f"fires on {_n(len(c.ub.controls) + len(c.ub.twins), 'program')} without UB "
        f"({_few(c.ub.controls + c.ub.twins)}): its {_n(len(c.ub.cases), 'UB case')} not counted"))
    reasons += _grouped([c for c in active if c.ub is not None and c.ub.tried and c.ub.alike], lambda c: (
        f"fires on {_n(len(c.ub.alike), 'UB case')} and "
        f"{'its fixed twin' if len(c.ub.alike) == 1 else 'their fixed twins'} alike ({_few(c.ub.alike)}): "
        "not caught"))
    catching = [c for c in active if c.ub is not None and c.ub.tried and c.ub.cases
                and len(c.ub.controls) <= rules.max_control_hits]
    if counted:
        reasons.append(f"catches {_n(len(counted), 'UB case')} ({_few(sorted(counted))}) with {_names(catching)}")
    return sorted(counted), reasons


def _prints(c: PerCompiler) -> str:
    p = c.prints
    files = ", ".join(f"{f.file} {f.diagnostics}" for f in p.top_files)
    return f"prints {_n(p.own, 'diagnostic')} in the project's files" + (f" ({files})" if files else "")


def _grouped(compilers: list[PerCompiler], say) -> list[str]:
    """One sentence per distinct text, naming the compilers it holds for."""
    texts: dict[str, list[PerCompiler]] = {}
    for c in compilers:
        texts.setdefault(say(c), []).append(c)
    return [f"{text} with {_names(cs)}" for text, cs in texts.items()]


def _n(count: int, noun: str) -> str:
    """``1 UB case``, ``3 UB cases``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _names(compilers) -> str:
    return ", ".join(c.compiler for c in compilers)


def _few(items: list[str], n: int = 3) -> str:
    return ", ".join(items[:n]) + (f" and {len(items) - n} more" if len(items) > n else "")


def _amount(value: float | None, unit: str | None) -> str:
    if value is None:
        return "?"
    return f"{value:.3g} s" if unit == "s" else f"{value:,.0f} {unit or ''}".rstrip()
