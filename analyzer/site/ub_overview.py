"""The UB index's charts of a corpus, from its report (``ub report --json``'s
:class:`~analyzer.ub.results.UbReport`): per compiler version, how many cases behave
otherwise at each ``-O`` level than at its lowest, beside the table of the same counts.
Drawn by :mod:`analyzer.site.charts`; kept apart from the matrix pages of
:mod:`analyzer.site.ub`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from warnscope.compilers import level_key, sort_key

from analyzer.site import charts
from analyzer.site.charts import Chart
from analyzer.ub.results import Outcome, UbReport

if TYPE_CHECKING:
    from analyzer.site.pages import SiteBuild


@dataclass
class LevelDivergence:
    """One compiler version (and flag set) at one level: of the cases it ran there and at
    its lowest level (``base``), those whose behaviour differs (a compile error at
    either is not compared)."""

    compiler: str
    level: str
    base: str
    compared: int
    differ: int


def level_divergences(report: UbReport) -> list[LevelDivergence]:
    """Every compiler (with its flags where it has any) and level of the report above its
    lowest level, in the report's order."""
    outcome: dict[tuple[str, str], dict[str, Outcome]] = {}
    for case in report.cases:
        for c in case.cells:
            if c.outcome is not Outcome.COMPILE_ERROR:
                name = f"{c.compiler} {c.flags}".strip()
                outcome.setdefault((name, c.level), {})[case.case] = c.outcome
    names = sorted({name for name, _ in outcome}, key=lambda n: sort_key(n.split()[0]))
    out = []
    for name in names:
        levels = sorted((l for n, l in outcome if n == name), key=level_key)
        base = outcome[(name, levels[0])]
        for level in levels[1:]:
            seen = outcome[(name, level)]
            both = [case for case in seen if case in base]
            out.append(LevelDivergence(name, level, levels[0], len(both),
                                       sum(1 for case in both if seen[case] != base[case])))
    return out


def levels_chart(rows: list[LevelDivergence]) -> Chart | None:
    """Bars per compiler, one per level: the cases that behave otherwise than at the
    compiler's lowest level. None without two levels of one compiler."""
    compilers = list(dict.fromkeys(r.compiler for r in rows))
    levels = sorted({r.level for r in rows}, key=level_key)
    at = {(r.compiler, r.level): r.differ for r in rows}
    return charts.grouped_bars(compilers, levels,
                               [[at.get((c, l)) for c in compilers] for l in levels],  # type: ignore[misc]
                               "cases that behave otherwise", legend="level")


@dataclass
class CorpusCharts:
    """What the UB index shows of one corpus beside its row."""

    stem: str
    levels: list[LevelDivergence]
    levels_chart: Chart | None


def corpus_charts(b: SiteBuild, report: UbReport, stem: str) -> CorpusCharts:
    """Draw a corpus's charts into ``ub/<stem>.levels.svg`` and say what they are."""
    rows = level_divergences(report)
    chart = levels_chart(rows)
    if chart is not None:
        b.writer.write(f"ub/{stem}.levels.svg", chart.svg)
    return CorpusCharts(stem, rows, chart)
