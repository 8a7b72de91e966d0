"""The overhead table: what ``overhead report`` shows, as the
:class:`~analyzer.overhead.results.OverheadReport` every output renders (one module per format:
:mod:`analyzer.overhead.text`, :mod:`~analyzer.overhead.markdown`,
:mod:`~analyzer.overhead.csvreport`; JSON is :func:`warnscope.serial.to_json` of it).

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

from analyzer.overhead.breakdown import BASE, BUILD, WRAPPER, added, bases, comparable
from analyzer.overhead.results import AddedCpu, Cell, ModeCost, OverheadReport, Row, Study, TopTu
from analyzer.projects.cell import BuildStatus


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
        if c.status == BuildStatus.OK and b is not None and b.cpu_s and c.cpu_s:
            bc, cc = b.cpu_s, c.cpu_s
            ratio, ratio_min, ratio_max = (round(cc.median / bc.median, 4), round(cc.min / bc.max, 4),
                                           round(cc.max / bc.min, 4))
            assert c.compiler_cpu_s and b.compiler_cpu_s and c.other_cpu_s and b.other_cpu_s
            added_compiler = round(100 * (c.compiler_cpu_s.median - b.compiler_cpu_s.median) / bc.median, 2)
            added_other = round(100 * (c.other_cpu_s.median - b.other_cpu_s.median) / bc.median, 2)
        if c.status != BuildStatus.OK:
            error = c.error
        out.append(Row(project=c.project, mode=c.mode, opt=c.opt, compiler=c.compiler, level=c.level,
                       inject=c.inject, status=c.status, runs=c.runs, flags=len(c.flags), cpu_s=c.cpu_s,
                       wall_s=c.wall_s, warnings=c.warnings, findings=c.findings, noisy=c.noisy,
                       spread=c.spread, max_load=c.max_load, ratio=ratio,
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
    base = {c.compiler: c.tus or {} for c in cells if c.level == BASE and c.status == BuildStatus.OK}
    out = []
    for c in cells:
        if c.level == BASE or c.status != BuildStatus.OK or c.compiler not in base:
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


def report(study: Study, cells: list[Cell], top: int = 10) -> OverheadReport:
    """The study's table, in tu mode its ``top`` TUs per compiler and level, where each
    cell's added CPU went, and with both modes the two side by side."""
    table = rows(cells)
    where = added(cells) if study.mode == "build" else []  # tu: compiler processes only, nothing to split
    return OverheadReport(study=study, rows=table, top_tus=top_tus(cells, top) if study.mode == "tu" else [],
                  added=where, modes=modes(table, where))
