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

import io
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
from analyzer.site.pages import Headline

if TYPE_CHECKING:
    from analyzer.site.pages import SiteBuild

#: TUs listed per compiler and level on a tu-mode study's page
TOP_TUS = 15
#: studies the index page lists
LATEST = 5
#: bar colours, one per level (the off baseline grey), stable from build to build
PALETTE = ("#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2", "#9d755d", "#eeca3b")
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

def _figure(width: float, height: float):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    return fig, fig.add_subplot()


def _svg(fig) -> bytes:
    """The figure as SVG bytes, the same bytes for the same figure on every run."""
    import matplotlib

    buf = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": "warnscope", "svg.fonttype": "none"}):
        fig.savefig(buf, format="svg", metadata={"Date": None})
    return buf.getvalue()


def _colours(levels: list[str]) -> dict[str, str]:
    others = [l for l in levels if l != oh_report.BASE]
    out = {l: PALETTE[i % len(PALETTE)] for i, l in enumerate(others)}
    out[oh_report.BASE] = OFF_COLOUR
    return out


def ratio_chart(view: StudyView) -> bytes | None:
    """Each level's CPU as a ratio to ``off``, grouped by compiler, with the min–max
    range as error bars; None when no cell has a ratio (only ``off``, or all failed)."""
    rows = [r for r in view.report.rows if r.ratio is not None and r.level != oh_report.BASE]
    if not rows:
        return None
    compilers = [c for c in view.compilers if any(r.compiler == c for r in rows)]
    levels = [l for l in view.levels if any(r.level == l for r in rows)]
    colours = _colours(view.levels)
    fig, ax = _figure(7.0, 3.2)
    width = 0.8 / len(levels)
    for i, level in enumerate(levels):
        xs, ys, lo, hi = [], [], [], []
        for x, compiler in enumerate(compilers):
            r = next((r for r in rows if r.compiler == compiler and r.level == level), None)
            if r is None or r.ratio is None or r.ratio_min is None or r.ratio_max is None:
                continue
            xs.append(x - 0.4 + width * (i + 0.5))
            ys.append(r.ratio)
            lo.append(max(r.ratio - r.ratio_min, 0.0))
            hi.append(max(r.ratio_max - r.ratio, 0.0))
        ax.bar(xs, ys, width * 0.9, yerr=[lo, hi], capsize=4, color=colours[level], label=level,
               error_kw={"elinewidth": 1, "ecolor": "#333333"})
    ax.axhline(1.0, color="#555555", linewidth=0.8, linestyle="--")
    ax.set_xticks(range(len(compilers)), compilers)
    ax.set_ylabel("CPU time / off")
    top = max(r.ratio_max or 0.0 for r in rows)
    ax.set_ylim(0, max(top * 1.1, 1.1))
    ax.legend(title="level", frameon=False, fontsize="small", loc="upper left", bbox_to_anchor=(1, 1))
    ax.spines[["top", "right"]].set_visible(False)
    return _svg(fig)


def cpu_chart(view: StudyView) -> bytes | None:
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
    fig, ax = _figure(7.0, 3.2)
    xs = list(range(len(cells)))
    ax.bar(xs, comp, 0.6, color="#4c78a8", label="compilers")
    ax.bar(xs, other, 0.6, bottom=comp, color="#bab0ac", label="build system")
    ax.errorbar(xs, total, yerr=err, fmt="none", ecolor="#333333", elinewidth=1, capsize=4)
    ax.set_xticks(xs, labels, fontsize="small")
    ax.set_ylabel("CPU s (user+sys), median")
    ax.legend(frameon=False, fontsize="small", loc="upper left", bbox_to_anchor=(1, 1))
    ax.spines[["top", "right"]].set_visible(False)
    return _svg(fig)


def group_cpu(cell: Cell) -> dict[str, float]:
    """A cell's median CPU by process group (:func:`analyzer.overhead.breakdown.group`),
    summed over its programs' medians; empty without the kernel's per-process account."""
    if cell.by_process is None:
        return {}
    out = {g: 0.0 for g in GROUP_COLOURS}
    for name, figures in cell.by_process.items():
        out[breakdown.group(name)] += figures.cpu_s.median
    return out


def process_chart(view: StudyView) -> bytes | None:
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
    fig, ax = _figure(7.0, 3.2)
    xs = list(range(len(cells)))
    bottom = [0.0] * len(cells)
    for name, colour in GROUP_COLOURS.items():
        heights = [max(g[name], 0.0) for g in groups]
        ax.bar(xs, heights, 0.6, bottom=bottom, color=colour, label=name)
        bottom = [b + h for b, h in zip(bottom, heights)]
    ax.set_xticks(xs, labels, fontsize="small")
    ax.set_ylabel("CPU s (user+sys), median")
    ax.legend(title="process group", frameon=False, fontsize="small", loc="upper left", bbox_to_anchor=(1, 1))
    ax.spines[["top", "right"]].set_visible(False)
    return _svg(fig)


def process_alt(view: StudyView) -> str:
    """The process-group chart in words, for the image's alt text."""
    parts = []
    for c in view.cells:
        g = group_cpu(c) if c.status == BuildStatus.OK else {}
        if g:
            parts.append(f"{view.label(c.compiler, c.level, c.inject)}: "
                         + ", ".join(f"{name} {s:.2f} s" for name, s in g.items()))
    return "; ".join(parts) or "no per-process account"


def chart_alt(view: StudyView) -> str:
    """The ratio chart in words, for the image's alt text."""
    return "; ".join(f"{r.compiler} {r.level}: {r.ratio:.3f} ({r.ratio_min:.3f}–{r.ratio_max:.3f})"
                     for r in view.headline) or "no ratios"


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
        charts = {}
        for kind, make in (("ratio", ratio_chart), ("cpu", cpu_chart),
                           ("process", process_chart)):
            svg = make(view)
            if svg is not None:
                charts[kind] = f"{view.stem}.{kind}.svg"
                b.writer.write(f"overhead/{charts[kind]}", svg)
        b.page(f"overhead/{view.stem}.html", "overhead_study.html", view=view, charts=charts,
               alt=chart_alt(view), process_alt=process_alt(view),
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
