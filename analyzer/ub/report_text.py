"""The UB results as text: the run's closing lines, the report's matrix and legend, and
each case's detail, rendered from :mod:`analyzer.ub.report`'s objects alone (its JSON is
those objects serialised).

The matrix has one row per case (divergent cases first) and one column per
configuration (compiler, level, flag set), one letter per cell (:class:`Outcome`'s);
the detail says for each case and compiler what each level did, what the compiler did to
the code where a rule of :mod:`analyzer.ub.explain.codelabels` says so, why it differs from -O0
where ``ub run --why`` found it, which warning options fired, which sanitizers caught it,
and its detectors per version.
"""
from __future__ import annotations

import signal as signals

from warnscope.compilers import level_key, sort_key

from analyzer.ub.detectors import scores
from analyzer.ub.results import (CaseReport, Cell, Divergence, JobFailure, Observed, Outcome,
                                 RunPrinted, RunSummary, SanitizerFinding, UbReport)


#: the text matrix's mark of a case that diverges by target (a compiler id's target
#: follows an ``@``: ``gcc-12@aarch64-linux-gnu``)
TARGET_MARK = "@"


def render_run(printed: RunPrinted, **_options) -> str:
    """``ub run``'s closing lines: the count (:func:`run_line`) and the divergence
    (:func:`render_divergence`) where the run holds cells."""
    lines = [run_line(printed.summary, printed.why)]
    if printed.divergence is not None:
        lines.append(render_divergence(printed.divergence))
    return "\n".join(lines)


def run_line(summary: RunSummary, why: bool) -> str:
    """``ub run``'s closing count: cells, compiles, checks, runs, causes, seconds."""
    return (f"{summary.cells} cells ({summary.cells_run} run now, {summary.compiled} "
            f"compiled), {summary.warnings_run} warning checks, {summary.sanitizers_run} "
            f"sanitizer runs" + (f", {summary.explained} causes found" if why else "")
            + f" in {summary.seconds:.1f} s")


def failure_lines(failures: list[JobFailure]) -> list[str]:
    """One line per problem: its first cell, how many more, the stage and the message."""
    lines = []
    from analyzer.ub.run import group_failures  # the runner's grouping, its one home

    for (stage, _cause, detail), refs in group_failures(failures).items():
        more = f" (and {len(refs) - 1} more jobs)" if len(refs) > 1 else ""
        lines.append(f"{refs[0]}{more}: {stage}: {detail}")
    return lines


def render_divergence(d: Divergence, shown: int = 12) -> str:
    """``7 of 105 cases diverge across 4 configurations:`` and the first of them; with
    targets ``…, 3 of them by target:``, each of those marked ``(by target)``."""
    by_target = set(d.by_target or ())
    lines = [f"{len(d.divergent)} of {d.cases} cases diverge across {d.configurations} "
             f"configurations"
             + (f", {len(by_target)} of them by target" if d.by_target is not None else "")
             + (":" if d.divergent else "")]
    lines += [f"  {case}" + ("  (by target)" if case in by_target else "")
              for case in d.divergent[:shown]]
    if len(d.divergent) > shown:
        lines.append(f"  … and {len(d.divergent) - shown} more")
    if d.divergent:
        lines.append("the matrix and each case: warnscope ub report")
    return "\n".join(lines)


def render(report: UbReport, *, matrix: bool = True, detail: bool = True) -> str:
    """The text of a report: header, matrix and legend (``matrix``), then the detail of
    each case (``detail``)."""
    lines: list[str] = []
    if matrix:
        lines += [headline(report), ""]
        lines += _matrix(report)
        lines += ["", "  " + "  ".join(f"{o.letter} {o}" for o in Outcome),
                  "  * the case diverges: its cells show more than one behaviour"
                  + (", or it diverges by target" if report.has_targets else "")]
        if report.has_targets:
            lines.append(f"  {TARGET_MARK} by target: one compiler version at one level did "
                         "different things on two targets (exit status, signal or output), "
                         "even where each did what its target expects")
        lines.append("")
    for case in report.cases if detail else []:
        lines += _detail(case)
    return "\n".join(lines).rstrip() + "\n"


def headline(report: UbReport) -> str:
    """``UB corpus the bundled corpus (content …): 34 cases, 4 configurations, 8
    diverge, 8 of them by target`` (the count by target where some compiler version of
    the report ran on two targets)."""
    n = len(report.cases)
    n_div = sum(c.diverges for c in report.cases)
    by_target = sum(c.diverges_by_target for c in report.cases)
    return (f"UB corpus {report.corpus_shown}: {n} case{'' if n == 1 else 's'}, "
            f"{len(report.configurations)} configurations, {n_div} diverge"
            + (f", {by_target} of them by target" if report.has_targets else ""))


def _matrix(report: UbReport) -> list[str]:
    groups: dict[tuple[str, str], list[str]] = {}
    for compiler, level, flags in report.configurations:
        groups.setdefault((compiler, flags), []).append(level)
    letter = {(c.case, c.compiler, c.level, c.flags): c.outcome.letter
              for case in report.cases for c in case.cells}
    width = max([len(c.case) for c in report.cases] + [4]) + 2
    heads = [f"{comp}{' ' + flags if flags else ''}" for comp, flags in groups]
    widths = [max(len(h), len(levels)) for h, levels in zip(heads, groups.values())]
    level_row = [" ".join(l[2] for l in levels) for levels in groups.values()]  # -O2 -> 2
    widths = [max(w, len(r)) for w, r in zip(widths, level_row)]
    lines = [" " * (width + 2) + "  ".join(h.ljust(w) for h, w in zip(heads, widths)),
             " " * (width + 2) + "  ".join(r.ljust(w) for r, w in zip(level_row, widths))]
    targets = report.has_targets
    if targets:  # the marks take two places: divergence, then the target's
        lines = [" " + line for line in lines]
    for case in report.cases:
        mark = "*" if case.diverges else " "
        if targets:
            mark += TARGET_MARK if case.diverges_by_target else " "
        row = [" ".join(letter.get((case.case, comp, l, flags), " ") for l in levels)
               for (comp, flags), levels in groups.items()]
        lines.append(f"{case.case.ljust(width)}{mark} "
                     + "  ".join(r.ljust(w) for r, w in zip(row, widths)))
    return lines


def _detail(case: CaseReport) -> list[str]:
    head = case.case + (f"  ({case.standard})" if case.standard else "")
    if case.diverges:
        head += "  DIVERGES" + (" (by target)" if case.diverges_by_target else "")
    lines = [head]
    if case.summary:
        lines.append(f"  {case.summary}")
    lines += _by_target(case)
    for compiler in sorted(dict.fromkeys(c.compiler for c in case.cells), key=sort_key):
        for flags in dict.fromkeys(c.flags for c in case.cells if c.compiler == compiler):
            mine = sorted((c for c in case.cells if c.compiler == compiler and c.flags == flags),
                          key=lambda c: level_key(c.level))
            label = compiler + (f" {flags}" if flags else "")
            grouped: dict[str, list[str]] = {}
            for c in mine:
                grouped.setdefault(_describe_outcome(c), []).append(c.level)
            lines.append(f"  {label:<10} " + "; ".join(
                f"{' '.join(lv)} {what}" for what, lv in grouped.items()))
            for c in mine:
                if c.labels:
                    lines.append(f"  {'':<10} {c.level} {_describe_outcome(c)} — "
                                 + "; ".join(l.text for l in c.labels))
            for c in mine:
                if c.why is not None:
                    lines.append(f"  {'':<10} why {c.level}: {c.why.summary}")
            fired: dict[str, list[str]] = {}
            for c in mine:
                for opt in c.warnings or []:
                    fired.setdefault(opt, []).append(c.level)
            if fired:
                lines.append(f"  {'':<10} warns: " + "; ".join(
                    f"{opt} ({' '.join(lv)})" for opt, lv in sorted(fired.items())))
            elif any(c.warnings is not None for c in mine):
                lines.append(f"  {'':<10} warns: nothing")
        mine_sans = sorted(case.sanitizers.get(compiler, {}).items())
        if mine_sans:
            lines.append(f"  {'':<10} sanitizers: " + ", ".join(
                f"{name} {_san_word(s)}" for name, s in mine_sans))
    if case.detectors is not None:
        lines += ["  " + line for line in scores.render_versions(case.detectors)]
    lines.append("")
    return lines


def render_targets(report: UbReport, **_options) -> str:
    """Per case of ``report`` that ran on more than one target: which of its divergences
    come from the target and which from the optimiser (the demo's target section)."""
    lines: list[str] = []
    for case in report.cases:
        if case.by_target is not None:
            lines += [case.case, *_by_target(case)]
    return "\n".join(lines) + ("\n" if lines else "")


def _by_target(case: CaseReport) -> list[str]:
    """Which divergences come from the target and which from the optimiser (a report of
    more than one target): ``from the target: gcc-12 -O0 -O2: SIGFPE on x86_64 (host);
    '-2147483648' on aarch64-linux-gnu``."""
    if case.by_target is None:
        return []
    grouped: dict[tuple[str, str, str], list[str]] = {}
    for split in case.by_target:
        seen: dict[str, list[str]] = {}
        for target, obs in split.observed.items():
            seen.setdefault(_describe_observed(obs), []).append(target)
        what = "; ".join(f"{desc} on {', '.join(targets)}" for desc, targets in seen.items())
        grouped.setdefault((split.compiler, split.flags, what), []).append(split.level)
    lines = [f"  from the target: {compiler}{' ' + flags if flags else ''} "
             f"{' '.join(levels)}: {what}" for (compiler, flags, what), levels in grouped.items()]
    if not lines:
        lines.append("  from the target: nothing (each version did the same on every target)")
    lines.append("  from the optimiser: " + (", ".join(case.by_level) if case.by_level
                                             else "nothing (every level behaved alike)"))
    return lines


def _describe_observed(obs: Observed) -> str:
    if obs.outcome is Outcome.HANG:
        return "hang"
    if obs.signal:
        try:
            return f"crash ({signals.Signals(obs.signal).name})"
        except ValueError:
            return f"crash (signal {obs.signal})"
    out = obs.stdout.strip().replace("\n", " | ")
    return (f"exit {obs.exit} " if obs.exit else "") + repr(out[:30])


def _describe_outcome(cell: Cell) -> str:
    o = cell.outcome
    if o is Outcome.CRASH and cell.signal:
        try:
            return f"crash ({signals.Signals(cell.signal).name})"
        except ValueError:
            return f"crash (signal {cell.signal})"
    if o is Outcome.NONZERO_EXIT:
        return f"exit {cell.exit}"
    if o in (Outcome.UNEXPECTED_OUTPUT, Outcome.COMPLETED):
        out = cell.stdout.strip().replace("\n", " | ")
        return f"{o} {out[:30]!r}"
    return str(o)


def _san_word(s: SanitizerFinding) -> str:
    if s.detected is None:
        return "did not build"
    return "caught" if s.detected else "silent"
