"""The overhead table and its renderings (text, CSV, JSON, Markdown), and the text of an
attribution: every output of ``overhead report`` and ``overhead attribute`` is made
here from :mod:`analyzer.overhead.results`.

Each level's CPU time is a ratio to ``off`` of the same compiler measured the same way
(the same ``inject``: flags through the build system, or appended by the wrapper). The
ratio is of medians; its range is the widest the runs allow (the level's fastest run
over ``off``'s slowest, to its slowest over ``off``'s fastest). The added CPU is split
into the compiler processes' share and the rest of the build's, and, where the kernel
accounted for every process, by program and summed up in one line computed from those
figures (:mod:`analyzer.overhead.breakdown`). A study holding both modes also says what
passing the flags through the build costs over the compiler's own work (:func:`modes`).
"""
from __future__ import annotations

import csv
import dataclasses
import io

from warnscope.serial import to_json

from analyzer.overhead.breakdown import (BASE, BUILD, WRAPPER, added, bases,
                                         comparable, seconds)
from analyzer.overhead.results import (AddedCpu, Attribution, Cell, Interval, ModeCost, ProcessAdded, Report,
                                       Row, Study, TopTu)








def rows(cells: list[Cell]) -> list[Row]:
    """One row per cell, with ratios to the ``off`` cell of the same compiler and inject
    mode where there is one (on the same host)."""
    base = bases(cells)
    out = []
    for c in cells:
        ratio = ratio_min = ratio_max = added_compiler = added_other = None
        b = base.get((c.compiler, c.inject))
        error = comparable(c, b)
        if error:
            b = None  # ratios only within one host
        if c.status == "ok" and b is not None and b.cpu_s and c.cpu_s:
            bc, cc = b.cpu_s, c.cpu_s
            ratio, ratio_min, ratio_max = (round(cc.median / bc.median, 4), round(cc.min / bc.max, 4),
                                           round(cc.max / bc.min, 4))
            assert c.compiler_cpu_s and b.compiler_cpu_s and c.other_cpu_s and b.other_cpu_s
            added_compiler = round(100 * (c.compiler_cpu_s.median - b.compiler_cpu_s.median) / bc.median, 2)
            added_other = round(100 * (c.other_cpu_s.median - b.other_cpu_s.median) / bc.median, 2)
        if c.status != "ok":
            error = c.error
        out.append(Row(project=c.project, mode=c.mode, opt=c.opt, compiler=c.compiler, level=c.level,
                       inject=c.inject, status=c.status, runs=c.runs, flags=len(c.flags), cpu_s=c.cpu_s,
                       wall_s=c.wall_s, warnings=c.warnings, noisy=c.noisy, ratio=ratio,
                       ratio_min=ratio_min, ratio_max=ratio_max, added_compiler_pct=added_compiler,
                       added_other_pct=added_other, host=c.host, error=error))
    return out


def modes(table: list[Row], where: list[AddedCpu]) -> list[ModeCost]:
    """For each compiler x level with a ratio in both modes: the two side by side, and
    what passing the flags through the build costs beyond the compiler's own work."""
    by = {(r.compiler, r.level, r.inject): r for r in table if r.ratio is not None and r.level != BASE}
    seconds = {(a.compiler, a.level, a.inject): a.added_s for a in where}
    out = []
    for (compiler, level, inject), b in by.items():
        w = by.get((compiler, level, WRAPPER))
        if inject != BUILD or w is None:
            continue
        assert b.ratio is not None and w.ratio is not None  # for the type checker: filtered above
        bs, ws = seconds[(compiler, level, BUILD)], seconds[(compiler, level, WRAPPER)]  # a ratio has them
        out.append(ModeCost(compiler=compiler, level=level, build_ratio=b.ratio,
                            build_ratio_min=b.ratio_min or 0.0, build_ratio_max=b.ratio_max or 0.0,
                            wrapper_ratio=w.ratio, wrapper_ratio_min=w.ratio_min or 0.0,
                            wrapper_ratio_max=w.ratio_max or 0.0, build_added_s=bs, wrapper_added_s=ws,
                            through_build=round(b.ratio - w.ratio, 4), through_build_s=round(bs - ws, 4)))
    return out


def top_tus(cells: list[Cell], n: int) -> list[TopTu]:
    """tu mode: the TUs with the most added CPU (median, level minus ``off``), per compiler and level
    (every tu cell is a wrapper cell: one ``off`` per compiler)."""
    base = {c.compiler: c.tus or {} for c in cells if c.level == BASE and c.status == "ok"}
    out = []
    for c in cells:
        if c.level == BASE or c.status != "ok" or c.compiler not in base:
            continue
        added = []
        for tu, v in (c.tus or {}).items():
            b = base[c.compiler].get(tu)
            if b and v.cpu_s and b.cpu_s:
                added.append(TopTu(compiler=c.compiler, level=c.level, tu=tu, off_cpu_s=b.cpu_s.median,
                                   cpu_s=v.cpu_s.median, added_s=round(v.cpu_s.median - b.cpu_s.median, 4),
                                   ratio=round(v.cpu_s.median / b.cpu_s.median, 3)
                                   if b.cpu_s.median > 0 else None,
                                   warnings=v.warnings))
        added.sort(key=lambda r: -r.added_s)
        out.extend(added[:n])
    return out


def report(study: Study, cells: list[Cell], top: int = 10) -> Report:
    """The study's table, in tu mode its ``top`` TUs per compiler and level, where each
    cell's added CPU went, and with both modes the two side by side."""
    table = rows(cells)
    where = added(cells) if study.mode == "build" else []  # tu: compiler processes only, nothing to split
    return Report(study=study, rows=table, top_tus=top_tus(cells, top) if study.mode == "tu" else [],
                  added=where, modes=modes(table, where))


def _pct(ratio: float | None) -> str:
    return "" if ratio is None else f"{(ratio - 1) * 100:+.1f} %"


def _range(r: Row) -> str:
    return "" if r.ratio is None else f"{r.ratio_min:.3f}–{r.ratio_max:.3f}"


def _inject(r: Row) -> str:
    return getattr(r, "inject", "")


def _cells_text(r: Row) -> list[str]:
    cpu = r.cpu_s
    split = ("" if r.added_compiler_pct is None
             else f"{r.added_compiler_pct:+.1f} / {r.added_other_pct:+.1f}")
    return [r.compiler, r.level, _inject(r), r.status if r.status != "ok" else str(r.runs),
            "" if not cpu else f"{cpu.median:.2f} ({cpu.min:.2f}–{cpu.max:.2f})",
            "" if r.ratio is None else f"{r.ratio:.3f}", _range(r), _pct(r.ratio), split,
            "" if not r.wall_s else f"{r.wall_s.median:.2f}",
            "" if r.warnings is None else str(r.warnings), "noisy" if r.noisy else ""]


HEADERS = ["compiler", "level", "inject", "runs", "CPU s median (min–max)", "ratio", "range", "overhead",
           "added % compiler / other", "wall s", "warnings", ""]


#: the CSV columns: every row's fields (``error`` empty where there is none), CPU and wall flattened
CSV_FIELDS = ["project", "mode", "opt", "compiler", "level", "inject", "status", "runs", "flags", "warnings",
              "noisy", "ratio", "ratio_min", "ratio_max", "added_compiler_pct", "added_other_pct", "host",
              "error", "cpu_min", "cpu_median", "cpu_max", "wall_median"]


def _csv(rep: Report) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=CSV_FIELDS, extrasaction="ignore")
    w.writeheader()
    for r in rep.rows:
        cpu, wall = r.cpu_s, r.wall_s
        w.writerow({**{f.name: getattr(r, f.name) for f in dataclasses.fields(r)},
                    "cpu_min": cpu and cpu.min, "cpu_median": cpu and cpu.median,
                    "cpu_max": cpu and cpu.max, "wall_median": wall and wall.median})
    return buf.getvalue().rstrip("\n")


def _ratio_range(ratio: float, low: float, high: float) -> str:
    return f"{ratio:.3f} ({low:.3f}–{high:.3f})"


def _modes_table(found: list[ModeCost]) -> list[list[str]]:
    """The rows of the build-vs-wrapper comparison (header first)."""
    out = [["compiler", "level", "ratio, flags through the build", "ratio, wrapper (compiler only)",
            "through the build costs"]]
    for m in found:
        out.append([m.compiler, m.level, _ratio_range(m.build_ratio, m.build_ratio_min, m.build_ratio_max),
                    _ratio_range(m.wrapper_ratio, m.wrapper_ratio_min, m.wrapper_ratio_max),
                    f"{100 * m.through_build:+.1f} % of off, {seconds(m.through_build_s)}"])
    return out


def _label(a: AddedCpu, both: bool) -> str:
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


def render(rep: Report, fmt: str) -> str:
    """``overhead report --format``: text, csv, json (:func:`warnscope.serial.to_json`) or markdown."""
    if fmt == "json":
        return to_json(rep)
    if fmt == "csv":
        return _csv(rep)
    info, table, tus = rep.study, rep.rows, rep.top_tus
    where: list[AddedCpu] = getattr(rep, "added", [])
    both: list[ModeCost] = getattr(rep, "modes", [])
    two_modes = len({_inject(r) for r in table}) > 1
    title = (f"{info.project} ({info.origin}), {info.opt}, {info.how}; CPU = user+sys of the "
             f"process tree; ratio of medians to 'off' (same compiler and inject), range min/max–max/min")
    machine = info.machine.get("summary", "")
    body = [_cells_text(r) for r in table]
    if fmt == "markdown":
        lines = [f"**{title}**", "", f"Machine: {machine}", "", *([TU_NOTE, ""] if info.mode == "tu" else []),
                 "| " + " | ".join(h or "note" for h in HEADERS) + " |",
                 "|" + "---|" * len(HEADERS)]
        lines += ["| " + " | ".join(c) + " |" for c in body]
        if both:
            head, *mrows = _modes_table(both)
            lines += ["", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
            lines += ["| " + " | ".join(c) + " |" for c in mrows]
        if where:
            lines += [""] + [f"- **{_label(a, two_modes)}**: {a.finding}" for a in where]
        if tus:
            lines += ["", "| compiler | level | TU | off CPU s | CPU s | added s | ratio | warnings |",
                      "|---|---|---|---|---|---|---|---|"]
            lines += [f"| {t.compiler} | {t.level} | {t.tu} | {t.off_cpu_s:.3f} | {t.cpu_s:.3f} "
                      f"| {t.added_s:+.3f} | {t.ratio} | {t.warnings} |" for t in tus]
        return "\n".join(lines)
    lines = [title, f"machine: {machine}"]
    if info.mode == "tu":
        lines.append(TU_NOTE)
    lines += [""] + _columns([HEADERS, *body])
    for r in table:
        if r.error:
            lines.append(f"{r.compiler} {r.level}{f' ({_inject(r)})' if two_modes else ''}: {r.error}")
    if both:
        lines += ["", "flags through the build vs appended by the wrapper (both measured in this study):"]
        lines += ["  " + line for line in _columns(_modes_table(both))]
    if where:
        lines += ["", "where the added CPU went (medians, vs off):"]
        for a in where:
            lines.append(f"{_label(a, two_modes)}: {a.finding}")
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


def render_attribution(a: Attribution) -> str:
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
