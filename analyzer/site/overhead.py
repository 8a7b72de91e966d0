"""The overhead side of the site: a page per study as ``overhead report --json`` gives it,
with its charts, and the index of studies.

Everything is read through :mod:`analyzer.overhead.store` and shaped by
:mod:`analyzer.overhead.report`, the same code the CLI's report uses, as the typed
results of :mod:`analyzer.overhead.results`: a page and ``overhead report --json``
cannot disagree, and nothing here parses rendered text. The charts are matplotlib's
SVG, made deterministic (a fixed ``svg.hashsalt`` for its element ids, no date in the
metadata) so that a rebuild over unchanged data writes no file. matplotlib is
imported only when the database holds a study.
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from analyzer.overhead import breakdown
from analyzer.overhead import report as oh_report
from analyzer.overhead import store as oh_store
from analyzer.overhead.breakdown import AddedCpu
from analyzer.projects.cell import BuildStatus
from analyzer.overhead.report import ModeCost
from analyzer.overhead.results import Cell, OverheadReport, Row, Study, StudyRun
from analyzer.site import charts
from analyzer.site.charts import Chart
from analyzer.site.pages import Headline

if TYPE_CHECKING:
    from analyzer.site.pages import SiteBuild

#: TUs listed per compiler and level on a tu-mode study's page
TOP_TUS = 15
#: studies the index page lists
LATEST = 5
#: bar colours, one per level (the off baseline grey), stable from build to build
PALETTE = charts.PALETTE
OFF_COLOUR = "#bab0ac"
#: the process groups' colours (the compiler's programs as the split chart's compilers)
GROUP_COLOURS = {breakdown.COMPILER: "#4c78a8", breakdown.BUILD_SYSTEM: "#f58518"}


@dataclass
class StudyView:
    """One study: its parameters, its cells (``overhead run --json``) and its report."""

    id: int
    info: Study
    cells: list[Cell]
    #: ``overhead report --json``
    report: OverheadReport
    #: ``overhead attribute --json`` results whose TUs are this study's, empty where none
    #: (the JSON documents stored when each attribution finished)
    attribution: list[dict] = field(default_factory=list)

    @property
    def stem(self) -> str:
        return f"study-{self.id}"

    @property
    def compilers(self) -> list[str]:
        return list(dict.fromkeys(c.compiler for c in self.cells))

    @property
    def levels(self) -> list[str]:
        return list(dict.fromkeys(c.level for c in self.cells))

    @property
    def how(self) -> str:
        return self.info.how

    @property
    def headline(self) -> list[Row]:
        """The rows of the levels other than ``off`` that have a ratio: the index's summary."""
        return [r for r in self.report.rows if r.level != oh_report.BASE and r.ratio is not None]

    @property
    def injects(self) -> list[str]:
        """The ways its flags reached the compiler (``build``, ``wrapper``): two when the
        study measured both, and the page then names each row's."""
        return list(dict.fromkeys(c.inject for c in self.cells))

    @property
    def added(self) -> list[AddedCpu]:
        """Where each cell's added CPU went, with its one-line finding (the report's)."""
        return list(getattr(self.report, "added", []))

    @property
    def modes(self) -> list[ModeCost]:
        """Both modes side by side per compiler x level (the report's), empty unless both ran."""
        return list(getattr(self.report, "modes", []))

    def label(self, compiler: str, level: str, inject: str) -> str:
        """A cell's name on the page: its mode only where the study holds both."""
        return f"{compiler} {level}" + (f" ({inject})" if len(self.injects) > 1 else "")

    def rows_with_cells(self) -> list[tuple[Row, Cell]]:
        """Each report row beside its cell (``rows`` keeps the cells' order)."""
        return list(zip(self.report.rows, self.cells))


def load_studies(conn: sqlite3.Connection) -> list[StudyView]:
    """Every study, newest first; none in a database without the overhead tables."""
    if not oh_store.has_schema(conn):
        return []
    out = []
    for sid in oh_store.studies(conn):
        info = oh_store.study_info(conn, sid)
        cells = oh_store.cells(conn, sid, with_tus=info.mode == "tu")
        out.append(StudyView(id=sid, info=info, cells=cells, report=oh_report.report(info, cells, TOP_TUS)))
    attach_attributions(out, attributions(conn))
    return out


def attributions(conn: sqlite3.Connection) -> list[dict]:
    """Every finished ``overhead attribute`` result, as stored when it finished (nothing
    is measured here)."""
    return oh_store.attribution_results(conn)


def attach_attributions(views: list[StudyView], found: list[dict]) -> None:
    """Each attribution on the page of the study its TUs came from ("study N"); one
    that measured its own TUs on the newest study of its project (``views`` is newest
    first), or on none when the project has no study."""
    by_id = {v.id: v for v in views}
    for a in found:
        source = str(a.get("tus_from", ""))
        sid = int(source.split()[1]) if source.startswith("study ") and source.split()[1].isdigit() else None
        view = by_id.get(sid) if sid is not None else \
            next((v for v in views if v.info.project == a.get("project")), None)
        if view is not None:
            view.attribution.append(a)


# ------------------------------------------------------------------ charts

def _colours(levels: list[str]) -> dict[str, str]:
    others = [l for l in levels if l != oh_report.BASE]
    out = {l: PALETTE[i % len(PALETTE)] for i, l in enumerate(others)}
    out[oh_report.BASE] = OFF_COLOUR
    return out


def ratio_chart(view: StudyView) -> Chart | None:
    """Each level's CPU as a ratio to ``off``, grouped by compiler, with the min–max
    range as error bars; None when no cell has a ratio (only ``off``, or all failed)."""
    rows = [r for r in view.report.rows if r.ratio is not None and r.level != oh_report.BASE]
    compilers = [c for c in view.compilers if any(r.compiler == c for r in rows)]
    levels = [l for l in view.levels if any(r.level == l for r in rows)]
    at = {(r.compiler, r.level): r for r in rows}
    values = [[at[(c, l)].ratio if (c, l) in at else None for c in compilers] for l in levels]
    errors = [[(at[(c, l)].ratio_min, at[(c, l)].ratio_max) if (c, l) in at else None for c in compilers]
              for l in levels]
    return charts.grouped_bars(compilers, levels, values, "CPU time / off", errors=errors,  # type: ignore[arg-type]
                               colours=_colours(view.levels), baseline=1.0, legend="level")


def time_chart(view: StudyView) -> Chart | None:
    """Each level's CPU seconds (user+sys of the build's tree, the median of its runs)
    grouped by compiler (and inject mode where the study holds both), ``off`` included,
    with the runs' min–max as error bars: the ratio chart's numbers before they are
    divided. None when no cell finished."""
    rows = [(r, c) for r, c in view.rows_with_cells() if r.status == BuildStatus.OK and r.cpu_s is not None]
    both = len(view.injects) > 1
    groups = list(dict.fromkeys(r.compiler + (f" ({c.inject})" if both else "") for r, c in rows))
    levels = [l for l in view.levels if any(r.level == l for r, _ in rows)]
    at = {(r.compiler + (f" ({c.inject})" if both else ""), r.level): r.cpu_s for r, c in rows}
    values = [[at[(g, l)].median if (g, l) in at else None for g in groups] for l in levels]
    errors = [[(at[(g, l)].min, at[(g, l)].max) if (g, l) in at else None for g in groups] for l in levels]
    return charts.grouped_bars(groups, levels, values, "CPU s (user+sys), median", errors=errors,  # type: ignore[arg-type]
                               colours=_colours(view.levels), legend="level")


def cpu_chart(view: StudyView) -> Chart | None:
    """Median CPU seconds per compiler and level, split into the compilers' own
    processes and the rest of the build (make, shells, the linker driver …), with the
    whole tree's min–max as an error bar; None when no cell finished, and in tu mode,
    where every process timed is a compiler."""
    cells = [c for c in view.cells if c.status == BuildStatus.OK and c.cpu_s and c.compiler_cpu_s and c.other_cpu_s]
    if not cells or view.info.mode == "tu":
        return None
    both = len(view.injects) > 1
    labels = [f"{c.compiler}\n{c.level}" + (f"\n{c.inject}" if both else "") for c in cells]
    comp = [c.compiler_cpu_s.median for c in cells]  # type: ignore[union-attr]
    other = [max(c.other_cpu_s.median, 0.0) for c in cells]  # type: ignore[union-attr]
    total = [c.cpu_s.median for c in cells]  # type: ignore[union-attr]
    err = [[max(t - c.cpu_s.min, 0.0) for t, c in zip(total, cells)],  # type: ignore[union-attr]
           [max(c.cpu_s.max - t, 0.0) for t, c in zip(total, cells)]]  # type: ignore[union-attr]
    fig, ax = charts.figure(7.0, 3.2)
    xs = list(range(len(cells)))
    marks = 0
    for s, (name, heights, bottom, colour) in enumerate((
            ("compilers", comp, None, "#4c78a8"), ("build system", other, comp, "#bab0ac"))):
        bars = ax.bar(xs, heights, 0.6, bottom=bottom, color=colour, label=name)
        for g, (patch, v) in enumerate(zip(bars.patches, heights)):
            charts.mark(patch, s, g, v)
            marks += 1
    ax.errorbar(xs, total, yerr=err, fmt="none", ecolor="#333333", elinewidth=1, capsize=4)
    ax.set_xticks(xs, labels, fontsize="small")
    ax.set_ylabel("CPU s (user+sys), median")
    ax.legend(frameon=False, fontsize="small", loc="upper left", bbox_to_anchor=(1, 1))
    charts.style(ax)
    alt = "; ".join(f"{label.replace(chr(10), ' ')}: compilers {c:.2f} s, build system {o:.2f} s"
                    for label, c, o in zip(labels, comp, other))
    return Chart(charts.svg(fig), marks, alt)


def group_cpu(cell: Cell) -> dict[str, float]:
    """A cell's median CPU by process group (:func:`analyzer.overhead.breakdown.group`),
    summed over its programs' medians; empty without the kernel's per-process account."""
    if cell.by_process is None:
        return {}
    out = {g: 0.0 for g in GROUP_COLOURS}
    for name, figures in cell.by_process.items():
        out[breakdown.group(name)] += figures.cpu_s.median
    return out


def process_chart(view: StudyView) -> Chart | None:
    """Median CPU seconds per compiler, level (and inject mode where the study holds
    both), stacked by process group: the compiler's programs (drivers, cc1, as, ld …)
    and the build system's (make, shells, libtool, cmake …), from the kernel's account of
    every process; None when no finished cell has that account."""
    cells = [c for c in view.cells if c.status == BuildStatus.OK and c.by_process is not None]
    if not cells:
        return None
    both = len(view.injects) > 1
    labels = [f"{c.compiler}\n{c.level}" + (f"\n{c.inject}" if both else "") for c in cells]
    groups = [group_cpu(c) for c in cells]
    return charts.stacked_bars(labels, {name: [g[name] for g in groups] for name in GROUP_COLOURS},
                               GROUP_COLOURS, "CPU s (user+sys), median", "process group")


def process_groups(view: StudyView) -> list[tuple[str, dict[str, float]]]:
    """Each finished cell with the kernel's account, labelled, and its CPU by process
    group: the numbers of the process-group chart, for the table beside it."""
    return [(view.label(c.compiler, c.level, c.inject), group_cpu(c)) for c in view.cells
            if c.status == BuildStatus.OK and c.by_process is not None]


def summary_json(views: list[StudyView]) -> list[Study]:
    """The studies index as JSON: each study's parameters (``report --json``'s "study")."""
    return [v.report.study for v in views]


# ------------------------------------------------------------------ the pages

def overhead_pages(b: SiteBuild) -> None:
    """Per study: the classic table (ratio to ``off`` with its min–max range), charts with
    min–max error bars, the compiler vs build-system CPU split, the CPU by process group
    and where each level's added CPU went (where the kernel accounted for every
    process), both inject modes side by side where both ran, the top TUs of a
    tu-mode study and attribution where stored; the JSON beside each page is
    ``overhead report --json`` (and the cells of ``overhead run --json``)."""
    views = load_studies(b.conn)
    for view in views:
        drawn: dict[str, tuple[str, Chart]] = {}
        for kind, make in (("ratio", ratio_chart), ("time", time_chart), ("cpu", cpu_chart),
                           ("process", process_chart)):
            chart = make(view)
            if chart is not None:
                drawn[kind] = (f"{view.stem}.{kind}.svg", chart)
                b.writer.write(f"overhead/{view.stem}.{kind}.svg", chart.svg)
        b.page(f"overhead/{view.stem}.html", "overhead_study.html", view=view, charts=drawn,
               groups=process_groups(view),
               headers=OVERHEAD_HEADERS, top=TOP_TUS)
        b.json(f"overhead/{view.stem}.json", view.report)
        b.json(f"overhead/{view.stem}.cells.json", StudyRun(view.id, view.cells))
        if view.attribution:
            b.json(f"overhead/{view.stem}.attribution.json", view.attribution)
    b.page("overhead/index.html", "overhead_index.html", studies=views)
    b.json("overhead/index.json", summary_json(views))
    b.headlines.append(Headline("_overhead_headline.html",
                                {"studies": views[:LATEST], "count": len(views)}))


#: the classic table's columns (the text report's, the ratio first: what a phone shows unscrolled)
OVERHEAD_HEADERS = ("compiler", "level", "ratio", "range", "overhead", "runs", "CPU s median", "min–max",
                    "added: compilers", "added: build system", "wall s", "warnings", "")
