"""The site's charts, in one home: matplotlib's SVG, drawn from the same typed results
the tables beside them are drawn from, in the site's colours.

Why matplotlib: the site is static and opens from ``file://``, so a chart has to be
there without a server and without a script from elsewhere. matplotlib is already a
dependency (the overhead charts), writes SVG at build time (nothing ships to the
reader: no script, no library file in the site) and is deterministic with a fixed
``svg.hashsalt`` and no date, so a rebuild over unchanged data writes no file. Text is
written as SVG text (``svg.fonttype`` none: searchable, the reader's fonts) and every
label is XML-escaped by matplotlib's writer.

Every mark that stands for a number (a bar, a point) carries an id
``mark-<series>-<point>-<value>`` (:func:`mark`): the browser tests count a chart's
marks and read their values against the table beside it. matplotlib is imported only
when a chart is drawn.
"""
from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass, replace
from html import escape

from warnscope.text import on_page

#: the site's chart colours (web/static/style.css's link blue first), stable from build to build
PALETTE = ("#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2", "#9d755d", "#eeca3b")
MUTED = "#5c6773"
#: figure widths in inches at the site's 100 dpi: a desktop column; an <img> scales it down on a phone
WIDTH = 7.0
#: names written beside one place of a scatter chart; the rest are counted (the table names them)
LABELS = 4


@dataclass(frozen=True)
class Chart:
    """A drawn chart: its SVG, how many marks stand for numbers, and the chart in words
    (the ``alt`` text; the table beside it holds every number)."""

    svg: bytes
    marks: int
    alt: str


def figure(width: float = WIDTH, height: float = 3.2, columns: int = 1):
    """A figure and its axes (a list when ``columns`` > 1), laid out by matplotlib."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    axes = fig.subplots(1, columns, squeeze=True)
    return fig, (list(axes) if columns > 1 else axes)


def svg(fig) -> bytes:
    """The figure as SVG bytes, the same bytes for the same figure on every run."""
    import matplotlib

    buf = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": "warnscope", "svg.fonttype": "none"}):
        fig.savefig(buf, format="svg", metadata={"Date": None})
    return buf.getvalue()


def finite(value: float | None) -> bool:
    """A number a chart can draw (not None, NaN or infinite)."""
    return value is not None and math.isfinite(value)


def mark(artist, series: int, point: int, value: float) -> None:
    """Give a mark its id: the series, the point and the value it stands for, exactly
    (digits, ``.``, ``-`` and ``e`` only: nothing of the data's text reaches an id)."""
    shown = repr(float(value)).replace("+", "")
    artist.set_gid(f"mark-{series}-{point}-{shown}")


MARK_ID = re.compile(r"^mark-(\d+)-(\d+)-(-?[0-9.e-]+|nan|inf)$")


def style(ax) -> None:
    """The site's look: no top or right spine, muted ticks."""
    ax.spines[["top", "right"]].set_visible(False)
    ax.tick_params(colors=MUTED, labelcolor="#1d232a")


def counts(ax, values: list) -> None:
    """Whole ticks on an axis of counts (no 0.25 of a case)."""
    if all(float(v).is_integer() for v in values if finite(v)):
        from matplotlib.ticker import MaxNLocator

        ax.yaxis.set_major_locator(MaxNLocator(integer=True))


def outliers(values: list[float]) -> float | None:
    """An upper limit for the axis when one value dwarfs the others (over ten times the
    next largest): the rest stays readable and the outlier is drawn clipped, its value
    written on it; None when no value does."""
    shown = sorted(v for v in values if finite(v) and v > 0)
    if len(shown) < 2 or shown[-1] <= 10 * shown[-2]:
        return None
    return shown[-2] * 1.6


# ------------------------------------------------------------------ the charts

def grouped_bars(groups: list[str], series: list[str], values: list[list[float | None]],
                 ylabel: str, errors: list[list[tuple[float, float] | None]] | None = None,
                 colours: dict[str, str] | None = None, baseline: float | None = None,
                 legend: str | None = None) -> Chart | None:
    """Bars per group (x) and series (colour): ``values[s][g]``; a None or NaN value has
    no bar (and no mark); ``errors[s][g]`` its (low, high) as an error bar. None when no
    value can be drawn. One value far above the rest is clipped (:func:`outliers`)."""
    flat = [v for row in values for v in row if finite(v)]
    if not flat or not groups or not series:
        return None
    groups, series = [label(g) for g in groups], [label(n) for n in series]
    colours = {label(k): v for k, v in (colours or {}).items()}
    fig, ax = figure(WIDTH, 3.2)
    width = 0.8 / len(series)
    top = outliers(flat + [hi for row in errors or [] for e in row if e for hi in e[1:] if finite(hi)])
    marks = 0
    for s, name in enumerate(series):
        xs, ys, err, points = [], [], [[], []], []
        for g in range(len(groups)):
            v = values[s][g]
            if not finite(v):
                continue
            xs.append(g - 0.4 + width * (s + 0.5))
            ys.append(min(v, top) if top is not None else v)
            e = errors[s][g] if errors else None
            lo, hi = e if e and finite(e[0]) and finite(e[1]) else (v, v)
            err[0].append(max(v - lo, 0.0))
            err[1].append(max(min(hi, top) - v if top is not None else hi - v, 0.0))
            points.append((g, v))
        if not xs:
            continue
        colour = (colours or {}).get(name, PALETTE[s % len(PALETTE)])
        bars = ax.bar(xs, ys, width * 0.9, color=colour, label=name,
                      yerr=err if errors else None, capsize=3 if errors else 0,
                      error_kw={"elinewidth": 1, "ecolor": "#333333"})
        for patch, (g, v) in zip(bars.patches, points):
            mark(patch, s, g, v)
            marks += 1
            if top is not None and v > top:
                ax.annotate(f"{v:g} ↑", (patch.get_x() + patch.get_width() / 2, top),
                            ha="center", va="bottom", fontsize="small")
    if baseline is not None:
        ax.axhline(baseline, color="#555555", linewidth=0.8, linestyle="--")
    ax.set_xticks(range(len(groups)), groups, fontsize="small")
    ax.set_ylabel(ylabel)
    counts(ax, flat)
    if top is not None:
        ax.set_ylim(0, top * 1.12)
    if len(series) > 1 or legend:
        ax.legend(title=legend, frameon=False, fontsize="small", loc="upper left", bbox_to_anchor=(1, 1))
    style(ax)
    alt = "; ".join(f"{groups[g]} {name}: {values[s][g]:g}" for s, name in enumerate(series)
                    for g in range(len(groups)) if finite(values[s][g]))
    return Chart(svg(fig), marks, alt)


def stacked_bars(groups: list[str], parts: dict[str, list[float]], colours: dict[str, str],
                 ylabel: str, legend: str) -> Chart | None:
    """One bar per group, stacked by part (``parts[name][g]``, the order of ``parts``);
    a NaN or negative part is left out; None when nothing can be drawn."""
    if not groups or not any(finite(v) and v > 0 for row in parts.values() for v in row):
        return None
    groups = [label(g) for g in groups]
    parts = {label(k): v for k, v in parts.items()}
    colours = {label(k): v for k, v in colours.items()}
    fig, ax = figure(WIDTH, 3.2)
    xs = list(range(len(groups)))
    bottom = [0.0] * len(groups)
    marks = 0
    for s, (name, row) in enumerate(parts.items()):
        heights = [v if finite(v) and v > 0 else 0.0 for v in row]
        bars = ax.bar(xs, heights, 0.6, bottom=bottom, color=colours.get(name, PALETTE[s % len(PALETTE)]),
                      label=name)
        for g, (patch, v) in enumerate(zip(bars.patches, row)):
            if finite(v) and v > 0:  # a zero part draws nothing and keeps its legend swatch
                mark(patch, s, g, v)
                marks += 1
        bottom = [b + h for b, h in zip(bottom, heights)]
    ax.set_xticks(xs, groups, fontsize="small")
    ax.set_ylabel(ylabel)
    counts(ax, [v for row in parts.values() for v in row])
    ax.legend(title=legend, frameon=False, fontsize="small", loc="upper left", bbox_to_anchor=(1, 1))
    style(ax)
    alt = "; ".join(f"{groups[g]}: " + ", ".join(f"{name} {row[g]:.2f}" for name, row in parts.items()
                                                 if finite(row[g]))
                    for g in range(len(groups)))
    return Chart(svg(fig), marks, alt)


@dataclass(frozen=True)
class Release:
    """One compiler version's counts, for :func:`releases_chart` (a flag family's
    :class:`analyzer.site.flags.FlagCounts` gives them)."""

    family: str
    label: str
    counts: dict[str, int]
    #: warning options new since the family's release before
    added: int | None


def releases_chart(releases: list[Release], series: tuple[str, ...]) -> Chart | None:
    """Per compiler family (a panel each), the counts of each series across its releases
    as lines with a mark per release; the release that added the most options is
    labelled. None without a release."""
    if not releases:
        return None
    releases = [replace(r, family=label(r.family), label=label(r.label)) for r in releases]
    families = list(dict.fromkeys(r.family for r in releases))
    fig, axes = figure(WIDTH, 3.0, columns=len(families))
    axes = axes if isinstance(axes, list) else [axes]
    marks = 0
    for ax, family in zip(axes, families):
        mine = [r for r in releases if r.family == family]
        xs = list(range(len(mine)))
        for s, name in enumerate(series):
            ys = [float(r.counts.get(name, math.nan)) for r in mine]
            line, = ax.plot(xs, ys, color=PALETTE[s % len(PALETTE)], linewidth=1.5, label=name)
            for i, y in enumerate(ys):
                if finite(y):
                    dot, = ax.plot([i], [y], "o", color=PALETTE[s % len(PALETTE)], markersize=4)
                    mark(dot, s, marks, y)
                    marks += 1
        most = max((r for r in mine if r.added), key=lambda r: r.added or 0, default=None)
        if most is not None:
            i = mine.index(most)
            ax.annotate(f"+{most.added}", (i, most.counts.get(series[0], 0)), textcoords="offset points",
                        xytext=(0, 6), ha="center", fontsize="small", color=MUTED)
        ax.set_xticks(xs, [r.label for r in mine], fontsize="small", rotation=45 if len(mine) > 6 else 0)
        ax.set_title(family, fontsize="medium")
        ax.set_ylim(bottom=0)
        if len(mine) == 1:
            ax.set_xlim(-0.5, 0.5)
        style(ax)
    axes[0].set_ylabel("options")
    axes[-1].legend(frameon=False, fontsize="small", loc="upper left", bbox_to_anchor=(1, 1))
    alt = "; ".join(f"{r.label}: " + ", ".join(f"{n} {r.counts.get(n, 0)}" for n in series)
                    for r in releases)
    return Chart(svg(fig), marks, alt)


@dataclass(frozen=True)
class Point:
    """One labelled point of :func:`scatter`: ``x`` and ``y`` where it is drawn, ``value``
    the number its mark carries (a count the table beside it shows)."""

    label: str
    x: float
    y: float
    value: float


def scatter(points: list[Point], xlabel: str, ylabel: str) -> Chart | None:
    """Labelled points on two shares (0–1 each, drawn as %): the detectors' catches
    against their false alarms. A point with NaN is left out; None without one."""
    shown = [Point(label(p.label), p.x, p.y, p.value) for p in points if finite(p.x) and finite(p.y)]
    if not shown:
        return None
    fig, ax = figure(WIDTH, 3.6)
    at: dict[tuple[float, float], list[str]] = {}
    for i, p in enumerate(shown):
        dot, = ax.plot([100 * p.x], [100 * p.y], "o", color=PALETTE[i % len(PALETTE)], markersize=6, alpha=0.85)
        mark(dot, i, i, p.value)
        at.setdefault((100 * p.x, 100 * p.y), []).append(p.label)
    for xy, labels in at.items():  # points in one place share one label, a name a line
        text = "\n".join(labels[:LABELS]) + (f"\n+{len(labels) - LABELS} more" if len(labels) > LABELS else "")
        ax.annotate(text, xy, textcoords="offset points", xytext=(6, 0), va="center",
                    fontsize="x-small", color="#1d232a")
    ax.set_xlim(-5, 105)
    ax.set_ylim(-5, 105)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(color="#d9dee3", linewidth=0.5)
    style(ax)
    alt = "; ".join(f"{p.label}: {100 * p.y:.0f} %, {100 * p.x:.0f} %" for p in shown)
    return Chart(svg(fig), len(shown), alt)


# ------------------------------------------------------------------ grids, written as SVG here

#: the colours of web/static/style.css's ``:root`` a chart may name as ``var(--name)``
#: (an SVG shown by ``<img>`` does not see the page's style sheet);
#: tests/unit/test_site_charts.py holds them to the style sheet
SITE_COLOURS = {"--ok": "#d7f0dc", "--bad": "#f8d0cc", "--hang": "#fbe3b3", "--odd": "#e3d7f5",
                "--err": "#dddddd", "--fg": "#1d232a", "--muted": "#5c6773", "--line": "#d9dee3"}


def colour(css: str) -> str:
    """A colour as an SVG attribute takes it: ``var(--ok)`` resolved from :data:`SITE_COLOURS`."""
    if css.startswith("var("):
        return SITE_COLOURS[css[4:-1].strip()]
    return css


def label(text: str) -> str:
    """A name from the data as a chart writes it: every control and format character
    written out as an escape (:func:`warnscope.text.on_page`, as the pages do), so an SVG
    stays well-formed XML and a name cannot pass for another."""
    return on_page(text)


def _attr(text: str) -> str:
    return escape(label(text), quote=True)


@dataclass(frozen=True)
class State:
    """One colour of a grid and its name in the legend."""

    name: str
    colour: str


@dataclass(frozen=True)
class Lane:
    """One row of a :func:`grid`: its name, each column's state (an index into the
    grid's states; None: no cell there) and, optional, each cell's text and hover title,
    and a note written under the row."""

    label: str
    cells: tuple[int | None, ...]
    texts: tuple[str, ...] = ()
    titles: tuple[str, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class Ticks:
    """A row of ticks above a grid's lanes: the columns it marks (a case that diverges
    by the optimiser, or by target)."""

    label: str
    marked: tuple[bool, ...]
    colour: str


#: a grid's text, px: its size and an average character's width (for laying out)
FONT, CHAR = 11, 6.2


def grid(lanes: list[Lane], states: list[State], cell: tuple[int, int] = (34, 18),
         ticks: list[Ticks] | None = None, caption: str = "", alt: str | None = None) -> Chart | None:
    """Lanes of coloured cells, one per column, in the site's colours, written as SVG
    here rather than by matplotlib: a grid is rectangles and text, and it is drawn on
    pages that come by the hundred (every flag page), where a figure of matplotlib's
    (some 50 ms) would be most of the build. Every cell is a mark
    ``mark-<lane>-<column>-<state>`` (the value its state's place in the legend); a tick
    row marks columns above the lanes (ids ``tick-<row>-<column>``). Names are escaped
    (:func:`label`, then XML). ``alt`` says the chart in words (by default every cell's
    state, lane by lane). None without a cell."""
    if not any(s is not None for lane in lanes for s in lane.cells):
        return None
    ticks = ticks or []
    cw, ch = cell
    left = int(max([len(label(lane.label)) for lane in lanes] + [len(t.label) for t in ticks]) * CHAR) + 12
    columns = max(len(lane.cells) for lane in lanes)
    note_h = FONT + 5
    out: list[str] = []
    y = 4
    for r, row in enumerate(ticks):
        out.append(f'<text x="{left - 6}" y="{y + 8}" text-anchor="end">{_attr(row.label)}</text>')
        for c, on in enumerate(row.marked):
            if on:
                out.append(f'<rect id="tick-{r}-{c}" x="{left + c * cw}" y="{y + 1}" width="{max(cw - 1, 1)}" '
                           f'height="8" fill="{colour(row.colour)}"/>')
        y += 12
    marks = 0
    used: set[int] = set()
    for i, lane in enumerate(lanes):
        out.append(f'<text x="{left - 6}" y="{y + ch / 2 + 4:g}" text-anchor="end">{_attr(lane.label)}</text>')
        for c, state in enumerate(lane.cells):
            if state is None:
                continue
            used.add(state)
            title = f"<title>{_attr(lane.titles[c])}</title>" if c < len(lane.titles) and lane.titles[c] else ""
            out.append(f'<rect id="mark-{i}-{c}-{state}" x="{left + c * cw}" y="{y}" width="{max(cw - 1, 1)}" '
                       f'height="{ch}" fill="{colour(states[state].colour)}">{title}</rect>')
            marks += 1
            if c < len(lane.texts) and lane.texts[c]:
                out.append(f'<text x="{left + c * cw + cw / 2:g}" y="{y + ch / 2 + 4:g}" '
                           f'text-anchor="middle">{_attr(lane.texts[c])}</text>')
        y += ch + 3
        if lane.note:
            out.append(f'<text x="{left}" y="{y + FONT - 1}" fill="{colour("var(--muted)")}">{_attr(lane.note)}</text>')
            y += note_h
    # the legend: the states drawn, in their order, as many to a line as fit
    width = max(left + columns * cw, 320)
    x, y = left, y + 6
    for s, state in enumerate(states):
        if s not in used:
            continue
        w = 16 + int(len(state.name) * CHAR) + 14
        if x + w > width and x > left:
            x, y = left, y + 16
        out.append(f'<rect x="{x}" y="{y}" width="11" height="11" fill="{colour(state.colour)}" '
                   f'stroke="{colour("var(--line)")}"/>'
                   f'<text x="{x + 15}" y="{y + 10}">{_attr(state.name)}</text>')
        x += w
    height = y + 16
    alt = alt if alt is not None else "; ".join(f"{label(lane.label)}: " + ", ".join(
        (f"{label(lane.texts[c])} " if c < len(lane.texts) and lane.texts[c] else "") + label(states[s].name)
        for c, s in enumerate(lane.cells) if s is not None) for lane in lanes)
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}" font-family="system-ui, sans-serif" font-size="{FONT}" fill="{SITE_COLOURS["--fg"]}"'
            f' role="img" aria-label="{escape(label(caption or alt), quote=True)}">')
    return Chart((head + "".join(out) + "</svg>").encode(), marks, alt)
