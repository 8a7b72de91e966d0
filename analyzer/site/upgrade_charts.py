"""The upgrade page's chart, from its :class:`~analyzer.warnings.results.UpgradePair`:
the move's new errors by option, each split by what the old compiler did at that place
(warned, or printed nothing), beside the table of the same counts. Drawn by
:mod:`analyzer.site.charts`; kept apart from :mod:`analyzer.site.upgrade`'s pages."""
from __future__ import annotations

from dataclasses import dataclass

from analyzer.site import charts
from analyzer.site.charts import Chart
from analyzer.warnings.results import UpgradePair

#: options a chart names; the rest are one bar, "other options"
OPTIONS = 10
#: the old compiler's doing at a new error's place, as the page words it
WAS = {"warning": "was a warning", "nothing": "not printed"}
NO_OPTION, OTHERS = "(no option)", "other options"


@dataclass
class OptionErrors:
    """The new errors of one option (or of none, or of the options past :data:`OPTIONS`)."""

    option: str
    was_warning: int
    not_printed: int

    @property
    def total(self) -> int:
        return self.was_warning + self.not_printed


def errors_by_option(pair: UpgradePair) -> list[OptionErrors]:
    """Every new error counted once under its option, the options with most first; past
    :data:`OPTIONS` of them the rest are summed as one row."""
    counts: dict[str, OptionErrors] = {}
    for e in pair.new_errors:
        row = counts.setdefault(e.option or NO_OPTION, OptionErrors(e.option or NO_OPTION, 0, 0))
        if e.was == "warning":
            row.was_warning += 1
        else:
            row.not_printed += 1
    rows = sorted(counts.values(), key=lambda r: (-r.total, r.option))
    if len(rows) > OPTIONS + 1:
        rest = rows[OPTIONS:]
        rows = rows[:OPTIONS] + [OptionErrors(OTHERS, sum(r.was_warning for r in rest),
                                              sum(r.not_printed for r in rest))]
    return rows


def errors_chart(rows: list[OptionErrors]) -> Chart | None:
    """A bar per option, stacked by what the old compiler did there; None without a new error."""
    return charts.stacked_bars([r.option for r in rows],
                               {WAS["warning"]: [float(r.was_warning) for r in rows],
                                WAS["nothing"]: [float(r.not_printed) for r in rows]},
                               {WAS["warning"]: charts.PALETTE[1], WAS["nothing"]: charts.PALETTE[3]},
                               "new errors", "the old compiler")
