"""What ``warnscope advise`` returns: one :class:`Row` per candidate flag with the evidence
of every family behind it, and the whole :class:`Advice` (its rows, the builds and UB
results it read, and the :class:`~analyzer.advise.targets.Target` list the exporters
take). ``--json`` prints these objects; the text renderer reads the same ones.

Names only in the fields that hold names: a flag as a user types it (``-Wformat=2``), a
compiler id (``gcc-12``), a UB case id (``restrict-violation/memcpy``). The sentences of
a verdict (``reasons``) are text only: JSON holds the fields they are built from.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from flagdb.results import Span
from warnscope.serial import OPTIONAL, TEXT_ONLY

from analyzer.advise.targets import Target
from analyzer.projects.cell import BuildStatus

if TYPE_CHECKING:   # rules.py reads these types: the annotation only, no import cycle
    from analyzer.advise.rules import Rules


class Verdict(enum.Enum):
    """What the rules (:mod:`analyzer.advise.rules`) make of a flag, in the order the
    advice lists them."""

    #: a build at ``all`` of this project failed on it (a crash it triggers, or its
    #: diagnostic as the error that stopped the build): not turned on
    BREAKS_BUILD = "breaks-build"
    #: silent on this tree, catches UB in the corpus, known where it is passed: a free guard
    TURN_ON = "turn-on"
    #: fires on this tree and catches UB: its diagnostics are worth fixing first
    FIX_FIRST = "fix-first"
    #: would be turned on but for its measured cost
    COSTLY = "costly"
    #: would be turned on but not every compiler of the list knows it (``--portable all``)
    NOT_PORTABLE = "not-portable"
    #: fires a few times and catches nothing in the corpus: read them
    REVIEW = "review"
    #: fires often for what it catches: the team's call
    STYLE = "style"
    #: silent here and catches nothing in the corpus (or was not tried there)
    NO_EVIDENCE = "no-evidence"
    #: on at the project's base level with every compiler that knows it
    ALREADY_ON = "already-on"


#: the listing order of the verdicts
ORDER = tuple(Verdict)


class OnAt(enum.Enum):
    """The lowest level at which a compiler has a flag on (in the state the row types)."""

    DEFAULT = "default"
    WALL = "-Wall"
    WEXTRA = "-Wextra"


class CostStatus(enum.Enum):
    """What the stored overhead attributions say of a flag's cost with one compiler."""

    #: a suspect of a finished attribution: its cost alone was measured
    MEASURED = "measured"
    #: searched by a finished attribution and not a suspect: below its threshold
    BELOW_THRESHOLD = "below-threshold"
    #: the attribution measured a set this flag is inside (clang's -Weverything) as one
    NOT_SEPARATED = "not-separated"
    #: no finished attribution of this project with this compiler
    NONE = "none"


@dataclass(frozen=True)
class FileCount:
    file: str
    diagnostics: int


@dataclass
class Prints:
    """What turning the flag on prints on this tree with one compiler, read from its
    build at ``all``: the diagnostics of every option the flag turns on and the base has
    off (each once, however many TUs printed it), in the project's own files and outside
    them (system headers, the compiler's own; stored as absolute paths or ``<gcc>/…``).
    With a compiler that has the flag on at the base already: what it prints there (its
    options the base has on at the level the build at ``all`` ran them)."""

    own: int = 0
    own_printed: int = 0
    outside: int = 0
    #: False when the build failed: the diagnostics up to the failure, the rest unknown
    complete: bool = True
    #: the options the compiler printed them under
    options: list[str] = field(default_factory=list)
    #: the project's files with the most of them
    top_files: list[FileCount] = field(default_factory=list)


@dataclass
class UbCatch:
    """What the flag catches in the UB corpus with one compiler (any level it ran at),
    from the source :class:`UbUsed` names (see :mod:`analyzer.advise.catches`)."""

    #: whether the flag was on in the corpus's warning runs (GCC's pass a list of flags;
    #: clang's checks -Weverything, its detectors a list); False: the corpus says nothing of it
    tried: bool
    #: UB cases an option the flag turns on caught (detectors: reported at the case's
    #: ub-line; checks: fired anywhere in it), and not on the case's fixed twin
    cases: list[str] = field(default_factory=list)
    #: UB cases it caught and whose fixed twins it fired on alike: not caught
    alike: list[str] = field(default_factory=list)
    #: the corpus's control programs (no UB) on which it fired (checks only: the
    #: detectors score false alarms on the twins)
    controls: list[str] = field(default_factory=list)
    #: fixed twins (the same program without its UB) on which it fired: false alarms
    twins: list[str] = field(default_factory=list)


@dataclass
class Cost:
    """The flag's cost on this tree with one compiler, where an attribution measured it."""

    status: CostStatus
    attribution: int | None = None
    metric: str | None = None
    unit: str | None = None
    #: the flag alone over ``off`` (median, in ``unit``) on the attribution's TUs
    alone: float | None = None
    #: ``alone`` as a share of those TUs' ``off`` compile
    share_of_off: float | None = None
    #: the command that measures it (status none)
    command: str | None = field(default=None, metadata=OPTIONAL)


@dataclass
class PerCompiler:
    """One row's evidence with one compiler of the list."""

    compiler: str
    #: known for at least one of the project's languages (an alias counts; a flag GCC
    #: reports as removed does not)
    known: bool
    #: the project's languages it applies to
    languages: list[str] = field(default_factory=list)
    #: the flag database's name it resolves to (``-Wformat`` -> ``-Wformat=``)
    resolves_to: str | None = None
    #: accepted but does nothing (a clang group left for compatibility, GCC's Ignore)
    noop: bool = False
    #: the lowest level that has it on (None: off at -Wextra)
    on: OnAt | None = None
    #: what it prints on this tree (None: no build of this compiler at all)
    prints: Prints | None = None
    #: what it catches in the UB corpus (None: no UB results of this compiler)
    ub: UbCatch | None = None
    cost: Cost = field(default_factory=lambda: Cost(CostStatus.NONE))
    #: trouble our own data shows with this compiler (a failed build naming it)
    trouble: list[str] = field(default_factory=list)


@dataclass
class Row:
    """One candidate flag: its evidence per compiler and what the rules make of it."""

    flag: str
    #: the umbrella that turns it on (``default``, ``-Wall``, ``-Wextra``, ``-Wpedantic``,
    #: the topmost group above it, or ``""`` when none does)
    group: str
    verdict: Verdict
    compilers: list[PerCompiler]
    #: per family, the first ingested version that knows the name (and the last, if gone)
    known_since: list[Span] = field(default_factory=list)
    #: the UB cases counted for the verdict (after the rules' filters)
    ub_cases: list[str] = field(default_factory=list)
    #: fix-first rank: UB cases counted per diagnostic in the project's own files
    rank: float | None = None
    #: level forms whose meaning differs between the compilers, and the like
    trouble: list[str] = field(default_factory=list)
    #: the rules' reasons, built from the fields above
    reasons: list[str] = field(default_factory=list, metadata=TEXT_ONLY)

    def of(self, compiler: str) -> PerCompiler:
        return next(c for c in self.compilers if c.compiler == compiler)


@dataclass
class BuildUsed:
    """A stored warnings build at ``all`` the advice read."""

    compiler: str
    compiler_version: str
    status: BuildStatus
    error: str | None
    opt: str
    diagnostics: int
    tus: int
    finished_at: str
    #: run by this advice (False: it was stored already)
    ran_now: bool = False


class UbSource(enum.Enum):
    """Where the advice's UB catches come from (see :mod:`analyzer.advise.catches`)."""

    #: the scores of ``ub detectors``: caught at the case's ub-line, false alarms on twins
    DETECTORS = "detectors"
    #: the warning checks of ``ub run``: fired anywhere in the case, at any level
    CHECKS = "checks"


@dataclass
class UbUsed:
    """The UB results the advice read."""

    corpus: str | None
    #: programs with UB
    cases: int
    #: control programs without UB
    controls: int
    #: the compilers of the list with results in it
    compilers: list[str]
    #: UB cases with their fixed twin in the corpus (the same program without the UB):
    #: where there is none, false alarms are counted only on the controls
    twins: int = 0
    #: the detector scores (``ub detectors``, read when the database has them) or the
    #: warning checks of ``ub run``
    source: UbSource = UbSource.CHECKS
    #: the corpus as a user is shown it: ``the bundled corpus`` or a user's corpus's path
    shown: str | None = None


@dataclass
class Forced:
    """A flag the user forced (``--add``) with one compiler: in its list or not."""

    flag: str
    compiler: str
    known: bool
    #: the project's languages it goes to for this compiler
    languages: list[str] = field(default_factory=list)


@dataclass
class Advice:
    project: str
    origin: str
    languages: list[str]
    compilers: list[str]
    base: str
    rules: Rules
    builds: list[BuildUsed]
    ub: UbUsed
    rows: list[Row]
    targets: list[Target]
    forced: list[Forced] = field(default_factory=list)
    #: what the reader must know about the evidence (a failed build, no UB results ...),
    #: said in words from the fields above
    notes: list[str] = field(default_factory=list, metadata=TEXT_ONLY)

    def row(self, flag: str) -> Row | None:
        return next((r for r in self.rows if r.flag == flag), None)

    def by_verdict(self, verdict: Verdict) -> list[Row]:
        return [r for r in self.rows if r.verdict is verdict]
