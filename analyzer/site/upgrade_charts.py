"""The upgrade page's charts, from its :class:`~analyzer.warnings.results.UpgradePair`:
the move's new errors by option, each split by what the old compiler did at that place
(warned, or printed nothing), and the configure checks that flipped (and the generated
macros lost or gained) by build system, split by which way: each beside the table of
the same counts. Drawn by :mod:`analyzer.site.charts`; kept apart from
:mod:`analyzer.site.upgrade`'s pages."""
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


# ------------------------------------------------------------------ the checks that flipped

#: which way a check or a macro went, in the legend's order, and its colour
WAYS = {"turned off": charts.PALETTE[3], "turned on": charts.PALETTE[2], "another value": charts.PALETTE[0]}
OFF_WAY, ON_WAY, VALUE_WAY = WAYS
#: a check's answer that says no, and one that says yes (lower case; autoconf's ``no``,
#: CMake's empty ``(false)`` and ``0``, Meson's ``NO``); anything else is a value
NO = frozenset({"no", "0", "(false)", "false", "off", "not found", "unsupported"})
YES = frozenset({"yes", "1", "true", "on", "found", "supported"})
MACROS = "generated macros"


def answer(result: str) -> bool | None:
    """A check's result as yes (True), no (False) or a value (None)."""
    word = result.strip().lower()
    if word in NO or word.startswith("no "):
        return False
    if word in YES or word.startswith("yes"):
        return True
    return None


def way(old: str, new: str) -> str:
    """Which way a check flipped: yes to no is turned off, no to yes turned on, the rest
    another value (``-lm`` to ``none required``)."""
    before, after = answer(old), answer(new)
    if before is True and after is False:
        return OFF_WAY
    if before is False and after is True:
        return ON_WAY
    return VALUE_WAY


@dataclass
class FlipCounts:
    """One build system's checks that flipped (or the generated macros), by which way."""

    system: str
    ways: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.ways.values())


def flips_by_system(pair: UpgradePair) -> list[FlipCounts]:
    """Every flipped check counted once under its build system, in the order met; the
    generated macros last (a macro gained is turned on, one lost turned off)."""
    rows: dict[str, FlipCounts] = {}
    for f in pair.flips:
        row = rows.setdefault(f.system, FlipCounts(f.system, dict.fromkeys(WAYS, 0)))
        row.ways[way(f.old, f.new)] += 1
    if pair.macros:
        row = rows.setdefault(MACROS, FlipCounts(MACROS, dict.fromkeys(WAYS, 0)))
        for m in pair.macros:
            row.ways[ON_WAY if m.old is None else OFF_WAY if m.new is None else VALUE_WAY] += 1
    return list(rows.values())


def flips_chart(rows: list[FlipCounts]) -> Chart | None:
    """A bar per build system (and the macros), stacked by which way its checks went;
    None without a flip."""
    return charts.stacked_bars([r.system for r in rows], {w: [float(r.ways[w]) for r in rows] for w in WAYS},
                               WAYS, "checks that flipped", "which way")
