"""The overhead family's results and records, as plain data.

:mod:`analyzer.overhead.store` returns these dataclasses; ``--json`` prints
:func:`warnscope.serial.to_json` of them, the text, CSV and Markdown renderers
(:mod:`analyzer.overhead.report`) and the site (:mod:`analyzer.site.overhead`) read
the same objects, so a field renamed here changes every output at once and nothing
parses rendered text.

Two kinds live here:

* **records** of what was measured (:class:`BuildRun`, :class:`TuRun`, :class:`Probe`,
  :class:`StudyCell`): each holds the :class:`warnscope.measure.TreeRun` of its
  process tree, the one record of a measured process in warnscope, and what the
  overhead family adds to it (the TU, the round, the host);
* **results** users see (:class:`Study`, :class:`Cell`, :class:`OverheadReport`,
  :class:`Attribution` …), whose field names and order are the JSON keys of
  ``overhead run|report|attribute --json``.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Sequence

from warnscope.accounting import ProcessTable
from warnscope.measure import TreeRun, stats
from warnscope.serial import OPTIONAL, TEXT_ONLY

from analyzer.projects.cell import BuildCell, BuildStatus


# ------------------------------------------------------------------ records

@dataclass(frozen=True)
class BuildRun:
    """One counted round of a cell: a whole build (build mode) or every TU compiled once
    (tu mode, the TUs' trees summed). ``compiler_cpu_s`` is the CPU of the compiler
    processes alone (the wrapper's log), so the rest of the build is ``cpu_s`` minus it."""

    seq: int
    tree: TreeRun
    compiler_cpu_s: float
    compilers: int
    warnings: int
    host: str
    started_at: str
    #: every process of the build by program name, from the kernel's account of each
    #: (:mod:`warnscope.accounting`); None where that accounting was not available
    processes: ProcessTable | None = None

    @property
    def cpu_s(self) -> float:
        return self.tree.cpu


@dataclass(frozen=True)
class TuRun:
    """One TU compiled alone, once: a tu-mode study's round or an attribution's probe.
    ``instructions``: what cachegrind counted, when the probe counts instructions."""

    tu: str
    seq: int
    tree: TreeRun
    warnings: int
    host: str = ""
    instructions: int | None = None

    @property
    def cpu_s(self) -> float:
        return self.tree.cpu


@dataclass
class StudyCell(BuildCell):
    """A cell being measured (compiler x level: a :class:`analyzer.projects.cell.BuildCell`),
    then stored whole: its runs are appended round by round, and a failure replaces them
    with what went wrong."""

    runs: list[BuildRun] = field(default_factory=list)
    tu_runs: list[TuRun] = field(default_factory=list)
    #: a static analyzer's cell (:mod:`analyzer.overhead.analysis`): the distinct
    #: diagnostics it reported in the last counted run; None for a warning level
    findings: int | None = None

    def mark_failed(self, error: str, log_tail: str) -> None:
        super().mark_failed(error, log_tail)
        self.runs, self.tu_runs, self.findings = [], [], None

    @property
    def key(self) -> tuple[str, str, str, str, str]:
        """What makes a cell the same on a rerun (its stored row's key)."""
        return self.compiler, self.compiler_identity, self.level, self.flags_json, self.inject

    @property
    def flags_json(self) -> str:
        """The flags as stored: part of the key that says a cell is measured already."""
        return json.dumps(self.flags, sort_keys=True)


@dataclass
class Probe:
    """One configuration of an attribution and what it measured over the workload's TUs.
    ``instrument``: ``cpu``, ``instructions`` (cachegrind) or ``time-report``;
    ``phases``: tu -> {phase: (cpu, wall)} from ``-ftime-report``."""

    role: str
    flags: tuple[str, ...]
    instrument: str = "cpu"
    runs: list[TuRun] = field(default_factory=list)
    phases: dict[str, dict[str, tuple[float, float]]] = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str, str]:
        """What makes a probe the same on a rerun (its stored row's key)."""
        return self.role, json.dumps(list(self.flags)), self.instrument

    def totals(self) -> list[float]:
        """CPU seconds summed over the TUs, one figure per run (seq)."""
        by: dict[int, float] = {}
        for r in self.runs:
            by[r.seq] = by.get(r.seq, 0.0) + r.cpu_s
        return [by[s] for s in sorted(by)]

    def values(self) -> list[float]:
        """The probe's figure per run in its own unit: CPU seconds summed over the TUs
        (``cpu``), or the instructions counted over them (``instructions``: exact, so one
        run, kept as an int)."""
        if self.instrument == "instructions":
            n = self.instructions()
            return [] if n is None else [n]
        return self.totals()

    def instructions(self) -> int | None:
        values = [r.instructions for r in self.runs if r.seq == 1]
        return None if not values or None in values else sum(values)  # type: ignore[arg-type]

    def warnings(self) -> int:
        last = max((r.seq for r in self.runs), default=0)
        return sum(r.warnings for r in self.runs if r.seq == last)


# ------------------------------------------------------------------ a study

@dataclass(frozen=True)
class ProjectRecipe:
    """A project recipe as ``overhead projects`` lists it."""

    name: str
    package: str | None
    build_system: str
    languages: list[str]
    needs: list[str]
    description: str


@dataclass(frozen=True)
class Projects:
    """``overhead projects --json``: every recipe."""

    projects: list[ProjectRecipe]


@dataclass(frozen=True)
class Figures:
    """min / median / max of one quantity over a cell's runs, rounded for people (the
    minimum is the figure least disturbed by other load; the spread says how much
    there was). Computed by :func:`warnscope.measure.stats`, the one summary."""

    min: float
    median: float
    max: float

    @classmethod
    def of(cls, values: Sequence[float], digits: int | None = 3) -> Figures | None:
        """None for no values (a failed cell has no runs); ``digits=None``: unrounded."""
        if not values:
            return None
        s = stats(values)
        if digits is None:
            return cls(s.min, s.median, s.max)
        return cls(round(s.min, digits), round(s.median, digits), round(s.max, digits))


@dataclass(frozen=True)
class Study:
    """A study's parameters and where it ran: ``"study"`` of ``overhead report --json``.
    ``machine`` is the facts stored with it (host, cores, kernel, load, a one-line
    ``summary``, the compilers' versions), kept as stored: older studies hold fewer."""

    id: int
    project: str
    origin: str
    mode: str
    opt: str
    runs: int
    jobs: int
    nice: int
    sched: str | None
    noise: float
    host: str
    machine: dict[str, Any]
    started_at: str
    #: uncounted rounds before the counted ones (whole builds)
    warmups: int = 1

    @property
    def how(self) -> str:
        """How the cells were measured, in words (the report's title and the site's page)."""
        runs = f"{self.runs} run{'s' if self.runs != 1 else ''}"
        if self.mode == "build":
            after = {0: ", no warm-up", 1: " after a warm-up"}.get(self.warmups,
                                                                   f" after {self.warmups} warm-ups")
            return f"whole build, make -j{self.jobs}, {runs}{after}"
        return f"each TU compiled alone, {runs} after a capturing build"


@dataclass(frozen=True)
class TuFigures:
    """One TU of a tu-mode cell: its CPU over the runs, warnings and exit of the last."""

    cpu_s: Figures | None
    warnings: int
    exit: int


@dataclass(frozen=True)
class ProcessFigures:
    """One program's share of a cell's builds: its CPU (user+sys s) and how many
    processes ran it, min / median / max over the runs."""

    cpu_s: Figures
    processes: Figures


@dataclass(frozen=True)
class Cell:
    """A stored cell (compiler x level of a study), as ``overhead run --json`` lists it.
    ``error`` and ``log_tail`` are set for a failed cell only; ``tus`` (tu -> figures)
    only when asked for (the report of a tu-mode study)."""

    study: int
    project: str
    mode: str
    opt: str
    compiler: str
    compiler_version: str
    level: str
    #: ``build``: the flags went through the build system (CFLAGS, CMAKE_C_FLAGS, ...);
    #: ``wrapper``: the wrapper appended them (the compiler-only view, and every tu cell)
    inject: str
    flags: list[str]
    flags_by_language: dict[str, list[str]]
    status: BuildStatus
    runs: int
    cpu_s: Figures | None
    user_s: Figures | None
    sys_s: Figures | None
    wall_s: Figures | None
    compiler_cpu_s: Figures | None
    other_cpu_s: Figures | None
    #: program name -> its CPU and processes over the runs, largest first (None: the
    #: kernel's per-process accounting was not available; tu mode: not measured)
    by_process: dict[str, ProcessFigures] | None
    compilers: int
    maxrss_kb: int | None
    warnings: int | None
    noisy: bool
    spread: float | None
    max_load: float | None
    #: the host its runs ran on ('a,b' if they were split, which a report refuses to compare)
    host: str
    error: str | None = field(default=None, metadata=OPTIONAL)
    log_tail: str | None = field(default=None, metadata=OPTIONAL)
    tus: dict[str, TuFigures] | None = field(default=None, metadata=OPTIONAL)
    #: the tree's wait4 CPU minus ``by_process``'s sum, over the runs: shown, never hidden
    residual_s: Figures | None = field(default=None, metadata=OPTIONAL)
    #: a static analyzer's cell (level ``analyzer`` or ``cppcheck``): the distinct
    #: diagnostics it reported; left out for a warning level and a failed cell
    findings: int | None = field(default=None, metadata=OPTIONAL)


@dataclass(frozen=True)
class StudyRun:
    """``overhead run --json``: the study run and its cells of the compilers and levels
    asked for (the site writes the same beside each study's page)."""

    study: int
    cells: list[Cell]
    #: what the study is, for the text's table (JSON has the study's id)
    info: Study | None = field(default=None, metadata=TEXT_ONLY)


@dataclass(frozen=True)
class Row:
    """One line of the overhead table: a cell beside its compiler's ``off`` cell. The
    ratio is of medians; its range the widest the runs allow (fastest over ``off``'s
    slowest, slowest over ``off``'s fastest); the added CPU split into the compilers'
    share and the rest of the build's, in % of ``off``. ``error``: why a cell failed,
    or why it is not compared (another host than ``off``)."""

    project: str
    mode: str
    opt: str
    compiler: str
    level: str
    #: how the cell's flags reached the compiler (``build`` | ``wrapper``): with both
    #: modes in a study, two rows share a compiler and level
    inject: str
    status: BuildStatus
    runs: int
    flags: int
    cpu_s: Figures | None
    wall_s: Figures | None
    warnings: int | None
    noisy: bool
    ratio: float | None
    ratio_min: float | None
    ratio_max: float | None
    added_compiler_pct: float | None
    added_other_pct: float | None
    host: str | None
    error: str | None = field(default=None, metadata=OPTIONAL)
    #: a static analyzer's distinct findings (left out for a warning level, or failed)
    findings: int | None = field(default=None, metadata=OPTIONAL)
    #: the runs' spread (max−min)/median and the highest load average at a run's start:
    #: the two figures either of which can mark the row noisy
    spread: float | None = field(default=None, metadata=OPTIONAL)
    max_load: float | None = field(default=None, metadata=OPTIONAL)


@dataclass(frozen=True)
class TopTu:
    """A TU with much added CPU (median of the level minus ``off``'s), tu mode."""

    compiler: str
    level: str
    tu: str
    off_cpu_s: float
    cpu_s: float
    added_s: float
    ratio: float | None
    warnings: int


@dataclass(frozen=True)
class ProcessAdded:
    """One program's added CPU in a cell: its median over the level's runs minus its
    median over ``off``'s (0 where it did not run), and how many processes ran it
    (medians). ``programs`` > 1 for the entry summing the programs not listed."""

    name: str
    group: str
    off_s: float
    cpu_s: float
    added_s: float
    off_processes: float
    processes: float
    programs: int = 1

@dataclass(frozen=True)
class AddedCpu:
    """Where a cell's added CPU went, against its ``off`` cell (same compiler, inject
    and host): the whole tree's added seconds (medians), the part in the compiler's
    programs and in the build system's, and what neither explains (the residual of
    the kernel's account, and medians that do not add up exactly). ``by_process``:
    the split comes from the kernel's per-process account; without it (None in the
    cell), from the wrapper's log of the compiler processes, and ``processes`` is empty."""

    compiler: str
    level: str
    inject: str
    off_s: float
    added_s: float
    compiler_s: float
    build_system_s: float
    unattributed_s: float
    by_process: bool
    #: the :data:`analyzer.overhead.breakdown.TOP_PROCESSES` programs with the most added CPU (either sign), largest first
    processes: list[ProcessAdded]
    #: the other programs summed, None when every program is listed
    other: ProcessAdded | None
    #: the one line a reader needs: how much was added, and where (text and HTML only:
    #: JSON holds the figures it is computed from, not the sentence)
    finding: str = field(default="", metadata=TEXT_ONLY)

@dataclass(frozen=True)
class ModeCost:
    """One compiler x level measured both ways in one study: the ratio to ``off`` with
    the flags through the build (``build``) and appended by the wrapper (``wrapper``,
    the compiler's own cost), and what the build's way adds over the compiler's:
    ``through_build`` is the difference of the ratios (a fraction of ``off``),
    ``through_build_s`` that of the added seconds."""

    compiler: str
    level: str
    build_ratio: float
    build_ratio_min: float
    build_ratio_max: float
    wrapper_ratio: float
    wrapper_ratio_min: float
    wrapper_ratio_max: float
    build_added_s: float
    wrapper_added_s: float
    through_build: float
    through_build_s: float


@dataclass(frozen=True)
class OverheadReport:
    """``overhead report``: the study, its table and (tu mode) its top TUs; where the
    added CPU went, per cell (``added``) and, in a study with both modes, the build's way
    against the wrapper's (``modes``)."""

    study: Study
    rows: list[Row]
    top_tus: list[TopTu]
    added: list[AddedCpu] = field(default_factory=list)
    modes: list[ModeCost] = field(default_factory=list)


# ------------------------------------------------------------------ an attribution

@dataclass(frozen=True)
class Interval:
    """An added cost in the metric's unit: the median difference and the widest range the
    runs allow (all three equal with ``instructions``: one exact run)."""

    median: float
    low: float
    high: float


@dataclass(frozen=True)
class TuCost:
    """A TU of an attribution's workload and what ``all`` adds to it (CPU seconds)."""

    tu: str
    off_cpu_s: float
    all_cpu_s: float
    added_s: float


@dataclass(frozen=True)
class Step:
    """One group-testing probe: a slice of the flag set and its added cost over off."""

    depth: int
    size: int
    first: str
    last: str
    added: float
    costs: bool


@dataclass(frozen=True)
class FlagCost:
    """A suspect flag (or a diffuse group) confirmed: alone over off, and all minus all-without."""

    flags: tuple[str, ...]
    diffuse: bool
    alone: Interval
    unique: Interval
    alone_share: float          # alone median / all's added median
    warnings_alone: int
    alone_instructions: int | None = None     # metric cpu with --instructions: over off, exact
    unique_instructions: int | None = None    # all minus all-without


@dataclass(frozen=True)
class Phase:
    """A compiler phase (``-ftime-report``) summed over the TUs, off and all."""

    name: str
    off_s: float
    all_s: float
    added_s: float


@dataclass(frozen=True)
class Printing:
    """Finding vs printing the diagnostics of ``all``."""

    method: str
    warnings: int
    all: float
    quiet: float | None           # all + -w: found, not printed (GCC only)
    plain: float
    finding: Interval | None      # quiet - off
    printing: Interval | None     # all - quiet
    printing_share: float | None  # printing / (all - off)
    caret: Interval               # all - plain: the caret lines and source quoting


@dataclass(frozen=True)
class Attribution:
    """``overhead attribute``: which flags of ``all`` carry a project's warning cost."""

    id: int
    project: str
    origin: str
    compiler: str
    compiler_version: str
    opt: str
    metric: str                   # 'cpu' | 'instructions': what every figure below measures
    unit: str                     # 's' | 'instructions'
    runs: int
    search_runs: int
    host: str
    load_average: tuple[float, float, float]
    tus_from: str                 # 'study N' | 'measured'
    tus: list[TuCost]
    off: list[float]
    all: list[float]
    added: Interval
    threshold: float
    flags_searched: int
    probes: int
    search: list[Step]
    suspects: list[FlagCost]
    explained_share: float | None  # sum of the suspects' alone medians / all's added median
    off_instructions: int | None   # metric cpu with --instructions
    all_instructions: int | None
    phases: list[Phase]
    printing: Printing | None
    machine: str = ""
    notes: list[str] = field(default_factory=list)


# ------------------------------------------------------------------ calibration

@dataclass(frozen=True)
class Condition:
    """The calibration program under one condition (idle or loaded, a niceness): CPU and
    wall over the runs, and how far they moved from idle at nice 0."""

    condition: str
    runs: int
    cpu_s: Figures
    wall_s: Figures
    cpu_vs_idle_pct: float
    cpu_spread_pct: float
    wall_vs_idle: float


@dataclass(frozen=True)
class Calibration:
    """``overhead calibrate``: how exact CPU and wall time are on this machine."""

    machine: str
    iterations: int
    competing_processes: int
    conditions: list[Condition]
