"""The UB index's charts of a corpus, from its report (``ub report --json``'s
:class:`~analyzer.ub.results.UbReport`): the matrix at a glance (every case by every
configuration, coloured by outcome, the cases that diverge by the optimiser or by target
marked above), beside each configuration's counts by outcome; and per compiler version,
how many cases behave otherwise at each ``-O`` level than at its lowest, beside the table
of the same counts. Drawn by :mod:`analyzer.site.charts`; kept apart from the matrix
pages of :mod:`analyzer.site.ub`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from warnscope.compilers import level_key, sort_key

from analyzer.site import charts
from analyzer.site.charts import Chart
from analyzer.ub.results import CaseReport, Outcome, UbReport

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


# ------------------------------------------------------------------ the matrix at a glance

#: the overview draws every cell up to this many (a case by a configuration each, some
#: 90 bytes of SVG): past it, as over a zoo of compilers, the matrix's pages by class are
#: the overview, and the chart says so
OVERVIEW_CELLS = 8000
#: the overview's cells, px: a case a column (as wide as fits :data:`WIDTH`, 3 to 16 px),
#: a configuration a lane
WIDTH, NARROW, WIDE, HIGH = 680, 3, 16, 12
#: the tick rows' words and colours
BY_LEVEL, BY_TARGET = "optimiser", "target"
TICK_COLOURS = {BY_LEVEL: "#e45756", BY_TARGET: "#b279a2"}


@dataclass
class ConfigurationCounts:
    """One configuration (a column of the matrix) and its cases by outcome."""

    configuration: str
    #: outcome word -> cases, every outcome of the report in the legend's order
    counts: dict[str, int]

    @property
    def cases(self) -> int:
        return sum(self.counts.values())


@dataclass
class Overview:
    """The matrix at a glance: each configuration's counts (the table) and the cases
    that diverge by the optimiser and by target (the chart's ticks)."""

    configurations: list[ConfigurationCounts]
    outcomes: list[str]
    by_level: int
    by_target: int
    cases: int
    #: some compiler version ran on two targets (the target's ticks are drawn)
    has_targets: bool
    chart: Chart | None
    #: why there is no chart ('' where there is one)
    why: str = ""


def configuration_name(compiler: str, level: str, flags: str) -> str:
    return " ".join(p for p in (compiler, level, flags) if p)


def diverges_by_level(case: CaseReport) -> bool:
    """A divergent case in which some compiler (and flag set, and target) behaves
    otherwise at one level than at another: the report's ``by_level`` where it has
    targets (whose behaviours tell apart two outputs a case accepts: only a case that
    diverges counts); else the cells' outcomes, a compile error not compared (as
    :func:`level_divergences`)."""
    if not case.diverges:
        return False
    if case.by_level is not None:
        return bool(case.by_level)
    seen: dict[tuple[str, str], set[Outcome]] = {}
    for c in case.cells:
        if c.outcome is not Outcome.COMPILE_ERROR:
            seen.setdefault((c.compiler, c.flags), set()).add(c.outcome)
    return any(len(outcomes) > 1 for outcomes in seen.values())


def overview(report: UbReport) -> Overview:
    """Every case (a column, in the report's order: divergent first) by every configuration
    (a lane), coloured by outcome in the matrix's colours, with the cases that diverge
    by the optimiser and by target ticked above; no chart past :data:`OVERVIEW_CELLS`."""
    configs = list(report.configurations)
    outcomes = [o for o in Outcome if any(c.outcome is o for case in report.cases for c in case.cells)]
    at = {o: i for i, o in enumerate(outcomes)}
    cells = [[None] * len(report.cases) for _ in configs]
    where = {tuple(k): i for i, k in enumerate(configs)}
    counts = [dict.fromkeys((str(o) for o in outcomes), 0) for _ in configs]
    for n, case in enumerate(report.cases):
        for c in case.cells:
            i = where.get((c.compiler, c.level, c.flags))
            if i is not None:
                cells[i][n] = at[c.outcome]
                counts[i][str(c.outcome)] += 1
    level = tuple(diverges_by_level(case) for case in report.cases)
    target = tuple(case.diverges_by_target for case in report.cases)
    table = [ConfigurationCounts(configuration_name(*k), counts[i]) for i, k in enumerate(configs)]
    result = Overview(table, [str(o) for o in outcomes], sum(level), sum(target), len(report.cases),
                      report.has_targets, None)
    drawn = sum(row.cases for row in table)
    if drawn > OVERVIEW_CELLS:
        result.why = (f"the matrix has {drawn:,} cells, more than the overview draws ({OVERVIEW_CELLS:,}); "
                      "the matrix's pages by class show them")
        return result
    wide = max(NARROW, min(WIDE, WIDTH // max(len(report.cases), 1)))
    # where a cell is wide enough, its outcome's letter, as the matrix writes it (two
    # outcomes share a colour there too)
    letters = [o.letter for o in outcomes] if wide >= 10 else None
    lanes = [charts.Lane(row.configuration, tuple(cells[i]),
                         tuple("" if s is None else letters[s] for s in cells[i]) if letters else ())
             for i, row in enumerate(table)]
    ticks = [charts.Ticks(BY_LEVEL, level, TICK_COLOURS[BY_LEVEL])]
    if report.has_targets:
        ticks.append(charts.Ticks(BY_TARGET, target, TICK_COLOURS[BY_TARGET]))
    words = "; ".join(f"{row.configuration}: " + ", ".join(f"{n} {o}" for o, n in row.counts.items() if n)
                      for row in table)
    alt = (f"{len(report.cases)} cases by {len(configs)} configurations; {sum(level)} diverge by the optimiser"
           + (f", {sum(target)} by target" if report.has_targets else "") + f"; {words}")
    result.chart = charts.grid(lanes, [charts.State(f"{o.letter} {o}", o.colour) for o in outcomes], (wide, HIGH),
                               ticks, alt=alt)
    if result.chart is None:
        result.why = "no cell"
    return result


@dataclass
class CorpusCharts:
    """What the UB index shows of one corpus beside its row."""

    stem: str
    levels: list[LevelDivergence]
    levels_chart: Chart | None
    overview: Overview | None = None


def corpus_charts(b: SiteBuild, report: UbReport, stem: str) -> CorpusCharts:
    """Draw a corpus's charts into ``ub/<stem>.levels.svg`` and ``ub/<stem>.overview.svg``
    and say what they are."""
    rows = level_divergences(report)
    chart = levels_chart(rows)
    if chart is not None:
        b.writer.write(f"ub/{stem}.levels.svg", chart.svg)
    glance = overview(report)
    if glance.chart is not None:
        b.writer.write(f"ub/{stem}.overview.svg", glance.chart.svg)
    return CorpusCharts(stem, rows, chart, glance)
