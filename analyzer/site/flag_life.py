"""A flag page's life chart, from its :class:`~analyzer.site.flags.FlagHistory` (the
entries of ``flags history --json``, the rows of the history table beside it): per
compiler family, a cell per ingested version coloured by what the name was there
(absent, present, on by default, turned on by ``-Wextra`` or ``-Wall``, a name for
another flag, kept but doing nothing), with when it came, when it went and under which
other name it lived written under the family's row. Drawn by :func:`analyzer.site.charts.grid`
(SVG written directly: there is a flag page per name); kept apart from
:mod:`analyzer.site.flags`' pages."""
from __future__ import annotations

from functools import lru_cache

from flagdb.results import HistoryEntry
from warnscope.compilers import CompilerId

from analyzer.site import charts
from analyzer.site.charts import Chart, State

#: the states, in the legend's order; a version's is the first that holds
#: (:func:`state`); the colours are the site's
STATES = (State("absent", "#f3f5f7"), State("present", "#dfe6ee"), State("on by default", "#b9e0bf"),
          State("in -Wextra", "#b3d1f2"), State("in -Wall", "#79a8de"),
          State("as another name", "#d9c8f0"), State("kept, does nothing", "var(--err)"))
ABSENT, PRESENT, DEFAULT, WEXTRA, WALL, RENAMED, NOOP = range(len(STATES))
#: defaults that leave a warning off (as the front page counts them)
OFF = frozenset({"off", "0", ""})
#: versions a cell is wide enough for, px: the version's number written in it
CELL = (30, 18)


def state(name: str, e: HistoryEntry) -> int:
    """What the name was in one version: absent; kept but doing nothing (GCC's
    ``Ignore`` and removed options); a name for another flag; turned on by -Wall, else by
    -Wextra; on by default; present."""
    if not e.present:
        return ABSENT
    if e.ignored or e.removed:
        return NOOP
    if e.name != name:
        return RENAMED
    if e.in_wall:
        return WALL
    if e.in_wextra:
        return WEXTRA
    if (e.default or "").lower() not in OFF:
        return DEFAULT
    return PRESENT


@lru_cache(maxsize=None)
def lane_of(compiler: str) -> tuple[str, str]:
    """A version's lane (its family, and its target where it is not the host's) and the
    text its cell shows (``12``, ``4.4``)."""
    try:
        cid = CompilerId.parse(compiler)
    except ValueError:
        return compiler, ""
    number = str(cid.major) + (f".{cid.minor}" if cid.minor is not None else "")
    return cid.family + (f"@{cid.target}" if cid.target else ""), number


def lanes(name: str, entries: list[HistoryEntry]) -> list[charts.Lane]:
    """Per lane, its versions' states in order, with its note: when the name came (where
    it was not there from the oldest version), when it went, the other names it was."""
    by: dict[str, list[HistoryEntry]] = {}
    for e in entries:
        by.setdefault(lane_of(e.compiler)[0], []).append(e)
    out = []
    for lane, mine in by.items():
        states = tuple(state(name, e) for e in mine)
        present = [e.compiler for e, s in zip(mine, states) if s != ABSENT]
        notes = []
        if present and present[0] != mine[0].compiler:
            notes.append(f"since {present[0]}")
        if present and not mine[-1].present:
            notes.append(f"gone after {present[-1]}")
        others: dict[str, str] = {}
        for e, s in zip(mine, states):
            if s == RENAMED and e.name:
                others.setdefault(e.name, e.compiler)
        notes += [f"as {other} from {first}" for other, first in others.items()]
        if not present:
            notes.append("in no version")
        out.append(charts.Lane(lane, states, tuple(lane_of(e.compiler)[1] for e in mine),
                               tuple(f"{e.compiler} ({e.version}): {STATES[s].name}"
                                     for e, s in zip(mine, states)),
                               "; ".join(notes)))
    return out


def life_chart(name: str, entries: list[HistoryEntry]) -> Chart | None:
    """The chart of one name's life; None without an ingested version."""
    return charts.grid(lanes(name, entries), list(STATES), CELL,
                       caption=f"{name} across the ingested versions, per family")
