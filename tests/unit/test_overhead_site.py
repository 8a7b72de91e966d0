"""The overhead study page on hand-made cells (no compiler runs): the CPU by process
group chart (stacked, deterministic SVG, none without the kernel's per-process account),
where the added CPU went and both inject modes side by side on the page."""
from __future__ import annotations

import dataclasses

from analyzer.overhead import report
from analyzer.site import builder, overhead, pages
from analyzer.site.overhead import StudyView

from tests.unit.test_overhead_report import ALL_PROCS, INFO, OFF_PROCS, cell


def view(cells) -> StudyView:
    return StudyView(id=1, info=INFO, cells=cells, report=report.report(INFO, cells))


BOTH = [cell("off", "a", 9.6, inject="build", by_process=OFF_PROCS, compiler_cpu=7.5),
        cell("off", "a", 9.6, by_process=OFF_PROCS, compiler_cpu=7.5),
        cell("all", "a", 15.9, inject="build", by_process=ALL_PROCS, compiler_cpu=11.7),
        cell("all", "a", 13.6, by_process=OFF_PROCS, compiler_cpu=11.5)]
PLAIN = [cell("off", "a", 10.0, compiler_cpu=8.0), cell("all", "a", 14.0, compiler_cpu=11.0)]


def page(v: StudyView, kinds: tuple[str, ...]) -> str:
    env = builder.environment([None])  # type: ignore[list-item]  # no flag is linked on this page
    drawn = {kind: (f"study-1.{kind}.svg", chart) for kind, make in
             (("ratio", overhead.ratio_chart), ("process", overhead.process_chart))
             if kind in kinds and (chart := make(v)) is not None}
    return env.get_template("overhead_study.html").render(
        root="../", nav=pages.NAV, view=v, charts=drawn, groups=overhead.process_groups(v),
        headers=overhead.OVERHEAD_HEADERS, top=overhead.TOP_TUS)


def test_group_cpu():
    """A cell's CPU by group is the sum of its programs' medians, each in its group."""
    assert overhead.group_cpu(BOTH[2]) == {"compiler": 11.7, "build system": 4.05}
    assert overhead.group_cpu(PLAIN[0]) == {}


def test_process_chart():
    """Stacked bars by process group, the same bytes on every build; no chart for a study
    without the per-process account."""
    chart = overhead.process_chart(view(BOTH))
    assert chart is not None and chart.svg == overhead.process_chart(view(BOTH)).svg
    assert chart.marks == 8  # four cells, two groups each
    text = chart.svg.decode()
    assert "<svg" in text and "dc:date" not in text
    assert "build system" in text and "process group" in text and "wrapper" in text  # modes in the labels
    assert overhead.process_chart(view(PLAIN)) is None
    assert overhead.process_chart(view([cell("off", "a", 1.0, status="failed")])) is None


def test_page_with_both_modes():
    """The page names each row's mode, compares the modes, and says where the CPU went."""
    v = view(BOTH)
    html = page(v, ("process",))
    assert "<th>inject</th>" in html and 'id="modes-table"' in html and "+23.9 % of off" in html
    assert 'id="process-chart" data-marks="8" data-table="groups-table"' in html
    assert 'src="study-1.process.svg"' in html and 'id="process-table"' in html
    assert '<td>gcc-12 all (build)</td><td class="num">11.70</td><td class="num">4.05</td>' in html
    assert "gcc-12 all (build)" in html and "gcc-12 all (wrapper)" in html
    # the finding, as the report says it (autoescaped: libtool's parentheses pass as they are)
    assert v.added[0].finding in html
    assert "<code>libtool (bash)</code>" in html and "other (3 programs)" in html


def test_page_without_by_process():
    """One mode, no per-process account: no mode column or comparison, no process chart
    nor table rows of programs, the finding from the compiler/other split."""
    v = view(PLAIN)
    html = page(v, ())
    assert "<th>inject</th>" not in html and 'id="modes-table"' not in html and 'id="process-chart"' not in html
    assert "(no per-process account)" in html and 'id="process-table"' not in html


def test_a_noisy_row_says_why_on_the_page():
    """A noisy row's tag carries its spread and load as its title."""
    loud = dataclasses.replace(PLAIN[1], noisy=True, spread=0.0712, max_load=5.84)
    html = page(view([PLAIN[0], loud]), ())
    assert '<span class="tag" title="spread 7.1 %, load 5.8">noisy</span>' in html
