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
