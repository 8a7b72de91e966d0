"""The site's charts (analyzer/site/charts.py) on hand-made numbers: one mark per number
drawn, each carrying its value; one point, none, a NaN and a huge outlier still draw a
readable chart or none; labels from the data escaped in the SVG; the same bytes twice."""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET

from analyzer.site import charts
from analyzer.site.charts import MARK_ID, Release

SVG = "{http://www.w3.org/2000/svg}"


def marks(chart: charts.Chart) -> list[float]:
    """The values of the chart's marks, as their ids carry them."""
    root = ET.fromstring(chart.svg)
    found = [MARK_ID.match(e.get("id", "")) for e in root.iter()]
    return sorted(float(m.group(3)) for m in found if m)


def texts(chart: charts.Chart) -> list[str]:
    return ["\n".join(e.itertext()) for e in ET.fromstring(chart.svg).iter(f"{SVG}text")]


def test_grouped_bars_mark_every_value():
    chart = charts.grouped_bars(["gcc-12", "clang-16"], ["default", "all"], [[1.02, 1.05], [1.2, 1.31]],
                                "CPU / off", errors=[[(1.0, 1.04), (1.01, 1.1)], [(1.1, 1.3), (1.2, 1.4)]],
                                baseline=1.0)
    assert chart is not None and chart.marks == 4
    assert marks(chart) == [1.02, 1.05, 1.2, 1.31]
    assert chart.svg == charts.grouped_bars(["gcc-12", "clang-16"], ["default", "all"],
                                            [[1.02, 1.05], [1.2, 1.31]], "CPU / off",
                                            errors=[[(1.0, 1.04), (1.01, 1.1)], [(1.1, 1.3), (1.2, 1.4)]],
                                            baseline=1.0).svg
    assert b"dc:date" not in chart.svg and "gcc-12 default: 1.02" in chart.alt


def test_one_point_none_and_nan():
    one = charts.grouped_bars(["gcc-12"], ["all"], [[3.0]], "s")
    assert one is not None and marks(one) == [3.0]
    assert charts.grouped_bars([], ["all"], [[]], "s") is None
    assert charts.grouped_bars(["gcc-12"], ["all"], [[math.nan]], "s") is None
    assert charts.grouped_bars(["gcc-12"], ["all"], [[None]], "s") is None
    some = charts.grouped_bars(["a", "b"], ["all"], [[math.nan, 2.0]], "s")
    assert some is not None and marks(some) == [2.0] and "nan" not in some.alt
    assert charts.stacked_bars(["a"], {"x": [math.nan]}, {}, "s", "part") is None
    stacked = charts.stacked_bars(["a", "b"], {"x": [1.0, math.nan], "y": [2.0, 0.5]}, {}, "s", "part")
    assert stacked is not None and marks(stacked) == [0.5, 1.0, 2.0]
    assert charts.releases_chart([], ("warnings",)) is None
    single = charts.releases_chart([Release("gcc", "gcc-12", {"warnings": 300, "-Wall": 90}, None)],
                                   ("warnings", "-Wall"))
    assert single is not None and marks(single) == [90, 300]


def test_a_huge_outlier_keeps_the_rest_readable():
    """A value over ten times the others is drawn clipped with its value written on it:
    the axis ends near the others, not at the outlier."""
    chart = charts.grouped_bars(["a", "b", "c"], ["all"], [[1.0, 1.2, 5000.0]], "s")
    assert chart is not None and marks(chart) == [1.0, 1.2, 5000.0]
    assert "5000 ↑" in texts(chart)
    ticks = [float(t.replace("−", "-")) for t in texts(chart) if t.replace(".", "").replace("−", "").isdigit()]
    assert ticks and max(ticks) < 10


def test_labels_are_escaped():
    """Names from the data (a compiler, a level) are text in the SVG, never markup."""
    hostile = "<script>alert(1)</script>&"
    chart = charts.grouped_bars([hostile], [hostile], [[1.0]], "s", legend="level")
    assert chart is not None
    assert b"<script>" not in chart.svg and b"&lt;script&gt;" in chart.svg
    assert hostile in texts(chart)
    line = charts.releases_chart([Release(hostile, hostile, {"warnings": 3}, 1)], ("warnings",))
    assert line is not None and b"<script>" not in line.svg


def test_scatter_points_in_one_place_share_a_label():
    points = [charts.Point(f"ubsan:{n}", 0.0, 0.5, 1) for n in ("null", "shift", "bounds", "align", "vla")]
    chart = charts.scatter(points + [charts.Point("<b>x</b>", math.nan, 0.5, 2)], "alarms", "caught")
    assert chart is not None and chart.marks == 5 and marks(chart) == [1.0] * 5
    written = texts(chart)
    assert written.count("ubsan:null") == 1 and "+1 more" in written and "ubsan:vla" not in written
    assert "<b>" not in chart.alt
    assert charts.scatter([charts.Point("a", math.nan, 1.0, 1)], "x", "y") is None


def test_upgrade_errors_by_option():
    """Each new error once under its option (or none), most first; past ten options the
    rest summed; no chart without a new error."""
    from types import SimpleNamespace

    from analyzer.site import upgrade_charts

    def err(option, was):
        return SimpleNamespace(option=option, was=was)

    errors = ([err("-Wimplicit-int", "warning")] * 3 + [err("-Wimplicit-int", "nothing")]
              + [err(None, "nothing")] + [err(f"-Wx{i}", "warning") for i in range(12)])
    rows = upgrade_charts.errors_by_option(SimpleNamespace(new_errors=errors))
    assert [(r.option, r.was_warning, r.not_printed) for r in rows[:2]] == [("-Wimplicit-int", 3, 1),
                                                                           ("(no option)", 0, 1)]
    assert len(rows) == 11 and rows[-1].option == "other options" and rows[-1].total == 4
    assert sum(r.total for r in rows) == len(errors)
    chart = upgrade_charts.errors_chart(rows)
    assert chart is not None and chart.marks == 12  # zero parts draw no mark
    assert upgrade_charts.errors_chart(upgrade_charts.errors_by_option(SimpleNamespace(new_errors=[]))) is None


# ------------------------------------------------------------------ grids, control characters

HOSTILE = "<script>alert(1)</script>&\x1b[2J\u202eevil\x07"


def grid_marks(chart: charts.Chart) -> list[tuple[int, int, int]]:
    """The (lane, column, state) of every cell of a grid, from its ids."""
    found = [MARK_ID.match(e.get("id", "")) for e in ET.fromstring(chart.svg).iter()]
    return sorted((int(m.group(1)), int(m.group(2)), int(float(m.group(3)))) for m in found if m)


def test_grid_marks_every_cell_with_its_state():
    states = [charts.State("off", "#ffffff"), charts.State("on", "var(--ok)")]
    chart = charts.grid([charts.Lane("gcc", (0, 1, None, 1), ("9", "10", "", "12")),
                         charts.Lane("clang", (1,))], states,
                        ticks=[charts.Ticks("marked", (True, False, False, True), "#e45756")])
    assert chart is not None and chart.marks == 4
    assert grid_marks(chart) == [(0, 0, 0), (0, 1, 1), (0, 3, 1), (1, 0, 1)]
    root = ET.fromstring(chart.svg)
    assert [e.get("id") for e in root.iter(f"{SVG}rect") if e.get("id", "").startswith("tick-")] == \
        ["tick-0-0", "tick-0-3"]
    assert 'fill="#d7f0dc"' in chart.svg.decode()  # var(--ok) resolved: an <img> sees no style sheet
    assert chart.svg == charts.grid([charts.Lane("gcc", (0, 1, None, 1), ("9", "10", "", "12")),
                                     charts.Lane("clang", (1,))], states,
                                    ticks=[charts.Ticks("marked", (True, False, False, True), "#e45756")]).svg


def test_grid_none_and_one():
    states = [charts.State("on", "#000000")]
    assert charts.grid([], states) is None
    assert charts.grid([charts.Lane("gcc", (None, None))], states) is None
    one = charts.grid([charts.Lane("gcc", (0,))], states)
    assert one is not None and grid_marks(one) == [(0, 0, 0)]


def test_hostile_labels_stay_text_in_every_chart():
    """A name holding markup, a terminal's escape, a bidi override and a bell: the SVG
    is well-formed XML (a control character would make it unreadable), no markup gets
    through, and the characters are written out as the pages write them."""
    state = charts.State(HOSTILE, "#000000")
    drawn = [charts.grid([charts.Lane(HOSTILE, (0,), (HOSTILE,), (HOSTILE,), HOSTILE)], [state],
                         ticks=[charts.Ticks(HOSTILE, (True,), "#000000")], caption=HOSTILE),
             charts.grouped_bars([HOSTILE], [HOSTILE], [[1.0]], "s", legend="level"),
             charts.stacked_bars([HOSTILE], {HOSTILE: [1.0]}, {}, "s", "part"),
             charts.releases_chart([Release(HOSTILE, HOSTILE, {"warnings": 3}, 1)], ("warnings",)),
             charts.scatter([charts.Point(HOSTILE, 0.5, 0.5, 1)], "x", "y")]
    for chart in drawn:
        assert chart is not None
        root = ET.fromstring(chart.svg)  # raises on a control character or stray markup
        assert b"<script>" not in chart.svg and b"\x1b" not in chart.svg and "\u202e" not in chart.svg.decode()
        words = " ".join("".join(e.itertext()) for e in root.iter() if e.tag in (f"{SVG}text", f"{SVG}title"))
        assert "<script>alert(1)</script>&\\x1b[2J\\u202eevil\\x07" in words, words
        assert "\x1b" not in chart.alt


def test_site_colours_are_the_style_sheets():
    from pathlib import Path
    import re

    css = (Path(__file__).resolve().parents[2] / "web/static/style.css").read_text()
    root = css[css.index(":root"):css.index("}", css.index(":root"))]
    declared = dict(re.findall(r"(--[a-z]+):\s*(#[0-9a-f]{6})", root))
    assert {k: declared[k] for k in charts.SITE_COLOURS} == charts.SITE_COLOURS


# ------------------------------------------------------------------ a flag's life

def entry(compiler, present=True, name="-Wfoo", **kw):
    from flagdb.results import HistoryEntry

    return HistoryEntry(compiler=compiler, version=compiler.split("-")[-1] + ".1", present=present,
                        name=name if present else None, **kw)


def test_a_flags_life_per_family():
    from analyzer.site import flag_life as life

    entries = [entry("gcc-10", present=False), entry("gcc-11", default="0"),
               entry("gcc-12", in_wextra=True), entry("gcc-13", in_wall=True, in_wextra=True),
               entry("gcc-14", name="-Wbar"), entry("gcc-15", present=False),
               entry("clang-16", default="on"), entry("clang-17", ignored=True),
               entry("gcc-14@aarch64-linux-gnu", in_wall=True)]
    lanes = life.lanes("-Wfoo", entries)
    assert [(lane.label, lane.cells, lane.texts) for lane in lanes] == [
        ("gcc", (life.ABSENT, life.PRESENT, life.WEXTRA, life.WALL, life.RENAMED, life.ABSENT),
         ("10", "11", "12", "13", "14", "15")),
        ("clang", (life.DEFAULT, life.NOOP), ("16", "17")),
        ("gcc@aarch64-linux-gnu", (life.WALL,), ("14",))]
    assert lanes[0].note == "since gcc-11; gone after gcc-14; as -Wbar from gcc-14"
    assert lanes[1].note == "" and lanes[0].titles[3] == "gcc-13 (13.1): in -Wall"
    chart = life.life_chart("-Wfoo", entries)
    assert chart is not None and chart.marks == len(entries)
    assert [s for _, _, s in sorted(grid_marks(chart))] == [c for lane in lanes for c in lane.cells]
    assert life.life_chart("-Wfoo", []) is None
    hostile = life.life_chart(HOSTILE, [entry("gcc-12", name=HOSTILE + "x")])
    assert hostile is not None and b"<script>" not in hostile.svg
    ET.fromstring(hostile.svg)


# ------------------------------------------------------------------ the UB matrix at a glance

def ub_report(cases, configurations, targets=False):
    from types import SimpleNamespace

    from analyzer.ub.results import Configuration

    return SimpleNamespace(configurations=[Configuration(*c) for c in configurations], cases=cases,
                           has_targets=targets)


def ub_case(outcomes, by_level=None, by_target=False, diverges=True):
    from types import SimpleNamespace

    cells = [SimpleNamespace(compiler=c, level=l, flags="", outcome=o) for (c, l), o in outcomes.items()]
    return SimpleNamespace(cells=cells, by_level=by_level, diverges_by_target=by_target, diverges=diverges)


def test_the_matrix_at_a_glance():
    from analyzer.site import ub_overview
    from analyzer.ub.results import Outcome as O

    configs = [("gcc-12", "-O0", ""), ("gcc-12", "-O2", ""), ("clang-16", "-O2", "")]
    cases = [ub_case({("gcc-12", "-O0"): O.EXPECTED, ("gcc-12", "-O2"): O.HANG, ("clang-16", "-O2"): O.CRASH}),
             ub_case({("gcc-12", "-O0"): O.EXPECTED, ("gcc-12", "-O2"): O.COMPILE_ERROR}, diverges=False),
             ub_case({("gcc-12", "-O0"): O.EXPECTED, ("gcc-12", "-O2"): O.EXPECTED,
                      ("clang-16", "-O2"): O.EXPECTED}, by_level=[], by_target=True)]
    o = ub_overview.overview(ub_report(cases, configs, targets=True))
    assert o.outcomes == ["expected", "crash", "hang", "compile-error"]
    assert [(r.configuration, r.counts, r.cases) for r in o.configurations] == [
        ("gcc-12 -O0", {"expected": 3, "crash": 0, "hang": 0, "compile-error": 0}, 3),
        ("gcc-12 -O2", {"expected": 1, "crash": 0, "hang": 1, "compile-error": 1}, 3),
        ("clang-16 -O2", {"expected": 1, "crash": 1, "hang": 0, "compile-error": 0}, 2)]
    assert (o.by_level, o.by_target) == (1, 1)  # a compile error is not a divergence
    # two outputs the case accepts tell its levels apart, but it does not diverge
    calm = ub_case({("gcc-12", "-O0"): O.EXPECTED, ("gcc-12", "-O2"): O.EXPECTED}, by_level=["gcc-12"],
                   diverges=False)
    assert ub_overview.overview(ub_report([calm], configs, targets=True)).by_level == 0
    assert o.chart is not None and o.chart.marks == 8
    ids = [e.get("id") for e in ET.fromstring(o.chart.svg).iter() if e.get("id", "").startswith("tick-")]
    assert ids == ["tick-0-0", "tick-1-2"]
    assert ub_overview.overview(ub_report([], configs)).chart is None


def test_a_matrix_too_large_for_the_glance_says_why(monkeypatch):
    from analyzer.site import ub_overview
    from analyzer.ub.results import Outcome as O

    monkeypatch.setattr(ub_overview, "OVERVIEW_CELLS", 3)
    cases = [ub_case({("gcc-12", "-O0"): O.EXPECTED, ("gcc-12", "-O2"): O.EXPECTED})] * 2
    o = ub_overview.overview(ub_report(cases, [("gcc-12", "-O0", ""), ("gcc-12", "-O2", "")]))
    assert o.chart is None and "4 cells" in o.why and sum(r.cases for r in o.configurations) == 4


# ------------------------------------------------------------------ an upgrade's flipped checks

def test_flipped_checks_by_system_and_way():
    from types import SimpleNamespace

    from analyzer.site import upgrade_charts as uc

    assert [uc.way(a, b) for a, b in (("yes", "no"), ("no", "yes"), ("1", "(false)"), ("-lm", "none required"),
                                      ("YES", "NO"), ("yes", "yes (some)"))] == \
        [uc.OFF_WAY, uc.ON_WAY, uc.OFF_WAY, uc.VALUE_WAY, uc.OFF_WAY, uc.VALUE_WAY]
    flip = lambda system, old, new: SimpleNamespace(system=system, old=old, new=new)  # noqa: E731
    macro = lambda old, new: SimpleNamespace(old=old, new=new)  # noqa: E731
    pair = SimpleNamespace(flips=[flip("autoconf", "yes", "no")] * 3 + [flip("meson", "NO", "YES"),
                                                                        flip(HOSTILE, "a", "b")],
                           macros=[macro("1", None), macro(None, "1"), macro("1", "2")])
    rows = uc.flips_by_system(pair)
    assert [(r.system, list(r.ways.values())) for r in rows] == [
        ("autoconf", [3, 0, 0]), ("meson", [0, 1, 0]), (HOSTILE, [0, 0, 1]), ("generated macros", [1, 1, 1])]
    chart = uc.flips_chart(rows)
    assert chart is not None and marks(chart) == [1.0] * 5 + [3.0] and b"<script>" not in chart.svg
    ET.fromstring(chart.svg)
    assert uc.flips_chart(uc.flips_by_system(SimpleNamespace(flips=[], macros=[]))) is None
