"""The overhead report and an attribution as text: ``overhead report`` (and the table
``overhead run`` prints), ``overhead attribute``; the Markdown and CSV renderings of the
same :class:`~analyzer.overhead.results.OverheadReport` are :mod:`analyzer.overhead.markdown` and
:mod:`analyzer.overhead.csvreport`, its JSON :func:`warnscope.serial.to_json` of it."""
from __future__ import annotations

from analyzer.overhead import report as report_mod
from analyzer.overhead.breakdown import seconds
from analyzer.overhead.results import (AddedCpu, Attribution, Calibration, Interval, ModeCost, OverheadReport,
                                       ProcessAdded, Projects, Row, Study, StudyRun)
from analyzer.projects.cell import BuildStatus


def _pct(ratio: float | None) -> str:
    return "" if ratio is None else f"{(ratio - 1) * 100:+.1f} %"


def _range(r: Row) -> str:
    return "" if r.ratio is None else f"{r.ratio_min:.3f}–{r.ratio_max:.3f}"


def noisy(r: Row) -> str:
    """A noisy row's two figures, whichever of them marked it: 'spread 7.1 %, load 5.8'
    ('' for a row that is not noisy)."""
    if not r.noisy:
        return ""
    return ", ".join(part for part in (
        None if r.spread is None else f"spread {100 * r.spread:.1f} %",
        None if r.max_load is None else f"load {r.max_load:.1f}") if part)


def inject_of(r: Row) -> str:
    return getattr(r, "inject", "")


def cells(r: Row) -> list[str]:
    cpu = r.cpu_s
    split = ("" if r.added_compiler_pct is None
             else f"{r.added_compiler_pct:+.1f} / {r.added_other_pct:+.1f}")
    return [r.compiler, r.level, inject_of(r), r.status if r.status != BuildStatus.OK else str(r.runs),
            "" if not cpu else f"{cpu.median:.2f} ({cpu.min:.2f}–{cpu.max:.2f})",
            "" if r.ratio is None else f"{r.ratio:.3f}", _range(r), _pct(r.ratio), split,
            "" if not r.wall_s else f"{r.wall_s.median:.2f}",
            "" if r.warnings is None else str(r.warnings),
            f"noisy ({noisy(r)})" if r.noisy else ""]


HEADERS = ["compiler", "level", "inject", "runs", "CPU s median (min–max)", "ratio", "range", "overhead",
           "added % compiler / other", "wall s", "warnings", ""]


def _ratio_range(ratio: float, low: float, high: float) -> str:
    return f"{ratio:.3f} ({low:.3f}–{high:.3f})"


def modes_table(found: list[ModeCost]) -> list[list[str]]:
    """The rows of the build-vs-wrapper comparison (header first)."""
    out = [["compiler", "level", "ratio, flags through the build", "ratio, wrapper (compiler only)",
            "through the build costs"]]
    for m in found:
        out.append([m.compiler, m.level, _ratio_range(m.build_ratio, m.build_ratio_min, m.build_ratio_max),
                    _ratio_range(m.wrapper_ratio, m.wrapper_ratio_min, m.wrapper_ratio_max),
                    f"{100 * m.through_build:+.1f} % of off, {seconds(m.through_build_s)}"])
    return out


#: the article's columns: the build without warnings, with all, and the analyzers
ARTICLE = (("off", "no warnings"), ("all", "all warnings"), ("analyzer", "analyzer"), ("cppcheck", "cppcheck"))


def _times(r: Row | None) -> str:
    if r is None:
        return "-"
    if r.status != BuildStatus.OK:
        return "unavailable" if (r.error or "").startswith("analyzer unavailable") else r.status
    if r.ratio is None:
        return "not compared"
    findings = "" if r.findings is None else f", {r.findings} finding{'s' * (r.findings != 1)}"
    return f"{r.ratio:.2f}× ({r.ratio_min:.2f}–{r.ratio_max:.2f}){findings}"


def article_table(table: list[Row]) -> list[list[str]]:
    """The article's shape, per compiler (and inject): no warnings, all warnings, the
    analyzers, each × the build (``off``), an analyzer's findings beside its cost (header
    first); empty when the study ran no analyzer."""
    if not any(r.level in ("analyzer", "cppcheck") for r in table):
        return []
    by = {(r.compiler, r.inject, r.level): r for r in table}
    keys = sorted({(r.compiler, r.inject) for r in table if r.level == "off"})
    both = len({inject for _, inject in keys}) > 1
    out = [["compiler", *(head for _, head in ARTICLE)]]
    for compiler, inject in keys:
        out.append([compiler + (f" ({inject})" if both else ""),
                    *(_times(by.get((compiler, inject, level))) for level, _ in ARTICLE)])
    return out


def label(a: AddedCpu, both: bool) -> str:
    return f"{a.compiler} {a.level}" + (f" ({a.inject})" if both else "")


def _process_line(p: ProcessAdded) -> str:
    name = p.name if p.programs == 1 else f"other ({p.programs} programs)"
    return (f"{name[:28]:28} {p.added_s:+9.3f} s  {p.off_s:9.3f} → {p.cpu_s:9.3f} s  "
            f"{p.off_processes:7.0f} → {p.processes:7.0f} processes  [{p.group}]")


def _columns(body: list[list[str]]) -> list[str]:
    """Left-aligned text columns, the first row being the header."""
    widths = [max(len(row[i]) for row in body) for i in range(len(body[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in body]


#: what a tu-mode report says of itself: its figures are the compiler's alone
TU_NOTE = ("per TU, compiler only: each TU compiled alone from its captured command, so every process timed "
           "is a compiler (no build system, no CPU by process)")


def title(info: Study) -> str:
    """The report's first line: the study and how its figures are made."""
    return (f"{info.project} ({info.origin}), {info.opt}, {info.how}; CPU = user+sys of the "
            f"process tree; ratio of medians to 'off' (same compiler and inject), range min/max–max/min")


def machine(info: Study) -> str:
    return info.machine.get("summary", "")


def two_modes_of(table: list[Row]) -> bool:
    """Whether the table holds both inject modes (each row then names its own)."""
    return len({inject_of(r) for r in table}) > 1


def render_run(run: StudyRun, **_options) -> str:
    """``overhead run``'s text: the table of the study's cells just run."""
    return render(report_mod.report(run.info, run.cells))


def render(rep: OverheadReport) -> str:
    """``overhead report`` (and ``overhead run``) as text: the table, the errors, both
    modes side by side, where the added CPU went, the top TUs."""
    info, table, tus = rep.study, rep.rows, rep.top_tus
    where, both, two_modes = rep.added, rep.modes, two_modes_of(table)
    body = [cells(r) for r in table]
    lines = [title(info), f"machine: {machine(info)}"]
    if info.mode == "tu":
        lines.append(TU_NOTE)
    lines += [""] + _columns([HEADERS, *body])
    for r in table:
        if r.error:
            lines.append(f"{r.compiler} {r.level}{f' ({inject_of(r)})' if two_modes else ''}: {r.error}")
    article = article_table(table)
    if article:
        lines += ["", "the article's table (CPU user+sys, ratio of medians × the build without warnings, "
                      "range; an analyzer's distinct findings beside it):"]
        lines += ["  " + line for line in _columns(article)]
    if both:
        lines += ["", "flags through the build vs appended by the wrapper (both measured in this study):"]
        lines += ["  " + line for line in _columns(modes_table(both))]
    if where:
        lines += ["", "where the added CPU went (medians, vs off):"]
        for a in where:
            lines.append(f"{label(a, two_modes)}: {a.finding}")
            lines += ["  " + _process_line(p) for p in a.processes + ([a.other] if a.other else [])]
    if tus:
        lines += ["", "top TUs by added CPU (median, vs off):"]
        lines += [f"  {t.compiler:9} {t.level:8} {t.added_s:+8.3f} s  x{t.ratio}  "
                  f"{t.warnings:5} warnings  {t.tu}" for t in tus]
    return "\n".join(lines)


def amount(value: float, unit: str, sign: bool = False) -> str:
    """A figure in an attribution's unit: '1.234 s', '+176,709,980 instr'."""
    if unit == "s":
        return f"{value:{'+' if sign else ''}.3f} s"
    return f"{int(value):{'+' if sign else ''},} instr"


def _iv(i: Interval | None, unit: str) -> str:
    """An added interval: '+1.234 s (+1.100 … +1.400)'; an exact count has no range."""
    if i is None:
        return ""
    if i.low == i.high:
        return amount(i.median, unit, True)
    return f"{amount(i.median, unit, True)} ({amount(i.low, unit, True)} … {amount(i.high, unit, True)})"


def render_attribution(a: Attribution, **_options) -> str:
    """The text of an :class:`~analyzer.overhead.results.Attribution`."""
    load = ", ".join(f"{x:.2f}" for x in a.load_average)
    lines = [f"{a.project} ({a.origin}), {a.compiler} {a.opt}: which flags of 'all' ({a.flags_searched} flags) "
             f"carry the cost",
             f"workload: the top {len(a.tus)} TUs by added CPU ({a.tus_from}), each compiled alone; "
             + ("metric: CPU user+sys; " if a.metric == "cpu" else
                "metric: instructions executed (valgrind cachegrind, exact); ")
             + f"{a.runs} runs (search probes {a.search_runs})"
             + ("; intervals are [min−max, max−min] of the runs" if a.runs > 1 else ""),
             f"machine: {a.machine}; load average at the end {load}", "",
             f"{'TU':40} {'off s':>8} {'all s':>8} {'added s':>9}"]
    lines += [f"{t.tu[:40]:40} {t.off_cpu_s:8.3f} {t.all_cpu_s:8.3f} {t.added_s:+9.3f}" for t in a.tus]
    u = a.unit
    off_med = sorted(a.off)[len(a.off) // 2]
    lines += ["", f"off {amount(off_med, u)}, all adds {_iv(a.added, u)}; a group costs above "
                  f"{amount(a.threshold, u)}; {a.probes} probes stored", ""]
    if a.suspects:
        lines.append(f"{'flag':36} {'alone (+off)':32} {'share':>6} {'removed from all':32} {'warnings':>8}")
        for s in a.suspects:
            name = " ".join(s.flags) if len(s.flags) <= 2 else f"{s.flags[0]} … {s.flags[-1]} ({len(s.flags)} flags)"
            if s.diffuse:
                name += " [diffuse]"
            lines.append(f"{name[:36]:36} {_iv(s.alone, u):32} {100 * s.alone_share:5.1f}% {_iv(s.unique, u):32} "
                         f"{s.warnings_alone:8}")
            if s.alone_instructions is not None:
                lines.append(f"{'':36} instructions: alone {s.alone_instructions:+,}, removed {s.unique_instructions:+,}")
        if a.explained_share is not None:
            lines.append(f"the flags alone explain {100 * a.explained_share:.0f} % of all's added "
                         f"{'CPU' if a.metric == 'cpu' else 'instructions'}")
    else:
        lines.append("no flag group costs above the threshold")
    if a.off_instructions is not None:
        lines.append(f"instructions (cachegrind): off {a.off_instructions:,}, all {a.all_instructions:,}")
    p = a.printing
    if p is not None:
        lines += ["", f"printing vs finding ({p.method}); {p.warnings} warnings printed by all:"]
        if p.printing is not None:
            share = "" if p.printing_share is None else f" = {100 * p.printing_share:.1f} % of all's added cost"
            lines.append(f"  finding (all -w − off)   {_iv(p.finding, u)}")
            lines.append(f"  printing (all − all -w)  {_iv(p.printing, u)}{share}")
        lines.append(f"  caret/quoting (all − plain output) {_iv(p.caret, u)}")
    if a.phases:
        lines += ["", f"phases that grow most ({a.compiler} -ftime-report, summed over the TUs, one run):",
                  f"  {'phase':40} {'off s':>8} {'all s':>8} {'added s':>8}"]
        lines += [f"  {ph.name[:40]:40} {ph.off_s:8.2f} {ph.all_s:8.2f} {ph.added_s:+8.2f}" for ph in a.phases]
    if a.search:
        lines += ["", "search (depth, flags, first … last, added):"]
        lines += [f"  {'  ' * (s.depth - 1)}{s.size:4} {s.first} … {s.last}: {amount(s.added, u, True)}"
                  f"{' *' if s.costs else ''}"
                  for s in a.search]
    lines += a.notes
    return "\n".join(lines)


def render_calibration(result: Calibration, **_options) -> str:
    """``overhead calibrate``'s table: each condition's CPU and wall time against idle."""
    lines = [f"calibration: {result.iterations} iterations of burn.c; loaded = "
             f"{result.competing_processes} spinning processes; {result.machine}", "",
             f"{'condition':18} {'CPU s median (min–max)':26} {'CPU vs idle':>11} {'spread':>7} "
             f"{'wall s median':>13} {'wall vs idle':>12}"]
    for c in result.conditions:
        cpu, wall = c.cpu_s, c.wall_s
        lines.append(f"{c.condition:18} {cpu.median:.3f} ({cpu.min:.3f}–{cpu.max:.3f}){'':6} "
                     f"{c.cpu_vs_idle_pct:+10.2f}% {c.cpu_spread_pct:6.2f}% {wall.median:13.3f} "
                     f"{c.wall_vs_idle:11.2f}x")
    return "\n".join(lines)


def render_projects(projects: Projects, **_options) -> str:
    """``overhead projects``: a recipe a line (name, build system, languages, what it is)."""
    return "\n".join(f"{p.name:10} {p.build_system:9} {'/'.join(p.languages):4} {p.description}"
                     for p in projects.projects)
