"""The answers of the UB family, as plain data.

:mod:`analyzer.ub.store` reads the database into these types and nothing else;
:mod:`analyzer.ub.report` builds the report from them; ``ub run --json`` and ``ub
report --json`` print :func:`warnscope.serial.to_json` of them, the site writes the
same objects beside its pages and its templates read their attributes. So the JSON a
user sees is the declaration below: a field renamed here is renamed everywhere at
once, and nothing reshapes results into dicts of its own or parses rendered text.

Two views of a cell exist on purpose. A :class:`CellRecord` is everything stored
about a cell (its log, stderr, key, host); a :class:`Cell` is the cell as reported,
with its case's warnings and sanitizer verdicts beside it, and only the fields users
have always been given (``ub run --json``'s shape).
"""
from __future__ import annotations

import difflib
import enum
import hashlib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from warnscope.errors import NoData, NotInstalled
from warnscope.measure import Sample
from warnscope.serial import OPTIONAL

from analyzer.ub.disasm import Function

if TYPE_CHECKING:
    from analyzer.ub.detectors.scores import CaseDetections


# --- the detectors' runs (ub detectors), as stored ----------------------------------

class Kind(enum.Enum):
    """What sort of detector a finding comes from."""

    WARNING = "warning"
    SANITIZER = "sanitizer"
    ANALYZER = "analyzer"


class Tool(enum.Enum):
    """A tool that runs detectors over one program; its value is how a user names it."""

    WARNINGS = "warnings"              # the compiler's own warnings (-Wall -Wextra and the UB extras)
    SANITIZERS = "sanitizers"          # -fsanitize=address,undefined at -O0, run once
    GCC_ANALYZER = "gcc-analyzer"      # gcc -fanalyzer (GCC 10 on)
    CLANG_ANALYZER = "clang-analyzer"  # clang --analyze, its default checkers
    CLANG_TIDY = "clang-tidy"          # clang-tidy-N, the bugprone-* checks
    CPPCHECK = "cppcheck"              # the host's cppcheck

    @property
    def kind(self) -> Kind:
        return {Tool.WARNINGS: Kind.WARNING, Tool.SANITIZERS: Kind.SANITIZER}.get(self, Kind.ANALYZER)


class RunStatus(enum.Enum):
    """How a tool's run on a program ended."""

    OK = "ok"                          # it ran; its findings (maybe none) are all there is
    UNAVAILABLE = "unavailable"        # not installed, or too old to have the tool
    FAILED = "failed"                  # it stopped with an error (the program did not compile, it crashed)
    TIMED_OUT = "timed-out"            # stopped at the sandbox's limits
    UNKNOWN_OUTPUT = "unknown-output"  # it printed something of a shape not understood here


@dataclass(frozen=True)
class Finding:
    """One report of one detector on one program."""

    detector: str        # '-Wanalyzer-null-dereference', 'core.NullDereference', 'ubsan:shift-exponent'
    kind: Kind
    line: int | None     # in the program's own file; None: elsewhere or unknown
    message: str = ""


@dataclass(frozen=True)
class ToolRun:
    """One tool on one program, for one compiler version (``version``: the compiler's
    name, 'gcc-12'; for cppcheck, which belongs to no compiler, 'cppcheck-2.10')."""

    case_id: str
    tool: Tool
    version: str
    status: RunStatus
    findings: tuple[Finding, ...] = ()
    note: str = ""       # why the status is not OK: one line
    level: str = ""      # the -O level of a warnings run ('' for the others)

    @property
    def ok(self) -> bool:
        return self.status is RunStatus.OK

    def why(self) -> str:
        """'' for a run that worked, else one line: 'clang-tidy unavailable: ...'."""
        if self.ok:
            return ""
        return f"{self.tool.value} {self.status.value.replace('-', ' ')}: {self.note}".rstrip(": ")


class Outcome(enum.StrEnum):
    """How a cell ended (:mod:`analyzer.ub.classify` says how each is decided), stored
    and printed as its word, with the ``letter`` the text matrix and the site's matrix
    show for it and the ``colour`` the site paints it (a colour of web/static/style.css).
    In the order of the legend. A new outcome is one line here, shown everywhere."""

    letter: str
    colour: str

    def __new__(cls, word: str, letter: str, colour: str) -> "Outcome":
        member = str.__new__(cls, word)
        member._value_ = word
        member.letter = letter
        member.colour = colour
        return member

    EXPECTED = ("expected", ".", "var(--ok)")
    COMPLETED = ("completed", "=", "#e6f2e8")
    UNEXPECTED_OUTPUT = ("unexpected-output", "U", "var(--bad)")  # not "O": it reads as a zero
    CRASH = ("crash", "C", "var(--bad)")
    HANG = ("hang", "H", "var(--hang)")
    NONZERO_EXIT = ("nonzero-exit", "X", "var(--bad)")
    NONDETERMINISTIC = ("nondeterministic", "N", "var(--odd)")
    COMPILE_ERROR = ("compile-error", "E", "var(--err)")


# ------------------------------------------------------------------ stored records

@dataclass(frozen=True, kw_only=True)
class CellRun(Sample):
    """One run of a cell's program, as stored with the cell: the measured process
    (``user``, ``sys``, ``wall``, ``maxrss_kb`` of :class:`~warnscope.measure.Sample`,
    the one record of a measured process) and how it ended.

    A cell keeps every run, not only the first, because a cell whose runs disagree
    is ``nondeterministic`` and the runs are the evidence."""

    #: the sandbox's word: 'exit', 'signal', 'timeout' or 'output-truncated'
    status: str
    exit: int | None
    signal: int | None
    #: stdout or stderr passed the sandbox's cap (the run was killed there)
    truncated: bool
    #: bytes of stdout the run wrote (up to the cap); the text is the cell's ``stdout``
    stdout_bytes: int
    #: processes still alive when the run ended, killed with it (fork bombs, daemons)
    leftovers_killed: int
    #: the wall-clock limit this run had: a rerun of a hung program gets a shorter one.
    #: None in results stored before runs recorded it.
    timeout: float | None = None


@dataclass(frozen=True)
class CaseInfo:
    """One corpus case as stored at the last run: its metadata (what the report shows)
    and ``source_hash``, which tells the site whether the file on disk is still the
    program these results are about."""

    id: str
    category: str
    language: str
    std: str
    standard: str
    summary: str
    #: True: undefined behaviour; False: a control program; None: the case does not say
    ub: bool | None
    expected_exit: int
    #: how many expected outputs the case lists (0: none to compare against)
    expectations: int
    source_hash: str
    meta: dict[str, Any]


@dataclass(frozen=True)
class CellRecord:
    """Everything stored about one cell (case x compiler x level x flag set).

    ``behaviour`` is what divergence compares (the outcome, with the stdout's hash
    for outcomes whose output matters); ``key`` is the hash that lets a rerun skip
    the cell; ``exploited`` is None where there was nothing to exploit or compare."""

    case_id: str
    compiler: str
    level: str
    flags: str
    key: str
    outcome: Outcome
    exploited: bool | None
    behaviour: str
    exit: int | None
    signal: int | None
    stdout: str
    stderr: str
    compile_log: str
    compiler_version: str
    runs: list[CellRun]
    host: str
    finished_at: str
    #: the hash of the cell's stored code (``ub_code``), None when there is none, and
    #: then ``code_note`` says why ('' when there is code)
    code: str | None = None
    code_note: str = ""


@dataclass(frozen=True)
class WarningRecord:
    """The warning options that fired for one cell's compile: from gcc's own JSON
    diagnostics (``tool`` 'gcc-json') or from the compiler's libclang ('libclang')."""

    case_id: str
    compiler: str
    level: str
    flags: str
    key: str
    tool: str
    options: list[str]


@dataclass(frozen=True)
class SanitizerRecord:
    """One sanitizer build of a case (at -O0) and its run."""

    case_id: str
    compiler: str
    sanitizer: str
    key: str
    #: None: the sanitizer build did not compile
    detected: bool | None
    status: str
    report: str


@dataclass(frozen=True)
class StoredResults:
    """Everything stored for one corpus, as :func:`analyzer.ub.store.load` reads it;
    the report is built from this alone."""

    corpus: str
    cases: list[CaseInfo]
    cells: list[CellRecord]
    warnings: list[WarningRecord]
    sanitizers: list[SanitizerRecord]
    #: the stored code texts of the cells (hash -> analyzer.ub.disasm text)
    codes: dict[str, str] = field(default_factory=dict)
    #: the causes found by ``ub run --why`` for the cells as stored now, by
    #: (case, compiler, level, flags)
    causes: dict[tuple[str, str, str, str], "Cause"] = field(default_factory=dict)
    #: the runs of ``ub detectors`` on the cases and their twins
    detector_runs: list[ToolRun] = field(default_factory=list)


# ------------------------------------------------------------------ the code

@dataclass(frozen=True)
class CodeLabel:
    """What the compiler did, read from a cell's code by a rule of
    :mod:`analyzer.ub.explain.codelabels`: ``kind`` names the rule ('empty-function', 'trap',
    'loop-without-exit', 'call-removed', 'constant-output', 'check-removed'),
    ``function`` and ``line`` ('loop.c:14'; '' where unknown) say where, ``text`` says it
    in words."""

    kind: str
    function: str
    line: str
    text: str


@dataclass(frozen=True)
class CellCode:
    """One configuration of a case as ``ub explain`` shows it: the outcome (``said``
    in a few words), the labels, and the code of the program's functions (None, with
    ``code_note`` saying why, where there is none)."""

    compiler: str
    level: str
    flags: str
    outcome: Outcome
    said: str
    labels: list[CodeLabel] | None
    code_note: str
    functions: list[Function] | None
    #: why it behaves as it does, in a line (``ub run --why``); '' when not searched
    why: str = ""


@dataclass(frozen=True)
class DiffRow:
    """One row of two aligned functions: an instruction on each side (None where that
    side has none here), their source lines, and whether the two are the same code."""

    left: str | None
    right: str | None
    left_line: str
    right_line: str
    same: bool


@dataclass(frozen=True)
class FunctionDiff:
    """A function of either build, aligned; ``left_note``/``right_note`` say when a side
    has no such function or an empty one."""

    name: str
    rows: list[DiffRow]
    left_note: str = ""
    right_note: str = ""


@dataclass(frozen=True)
class CodeDiff:
    """The code of two configurations of one case, aligned (``ub explain --vs``)."""

    left: "Configuration"
    right: "Configuration"
    functions: list[FunctionDiff]


@dataclass(frozen=True)
class Explanation:
    """``ub explain CASE``: each configuration's outcome, labels and code, and with
    ``--vs`` two of them aligned."""

    corpus: str
    case: str
    configurations: list[CellCode]
    diff: CodeDiff | None
    #: the case's detectors per version (``ub detectors``); left out of the JSON where
    #: none ran
    detectors: "CaseDetections | None" = field(default=None, metadata=OPTIONAL)


# ------------------------------------------------------------------ the report

class Configuration(NamedTuple):
    """A column of the matrix. A tuple, so that its JSON is ``[compiler, level,
    flags]`` as ``ub report --json`` has always printed it."""

    compiler: str
    level: str
    flags: str


@dataclass(frozen=True)
class SanitizerFinding:
    """A sanitizer's verdict on a case, as the report gives it under its compiler
    and sanitizer name."""

    #: None: the sanitizer build did not compile
    detected: bool | None
    status: str
    report: str


@dataclass(frozen=True)
class Cell:
    """One cell as reported (``ub run --json`` prints a list of these): what the
    program did, the warnings of this very compile (None: not checked), and the
    sanitizer verdicts of its case and compiler (by sanitizer), so that one record
    says whether anything could have told the user."""

    case: str
    compiler: str
    level: str
    flags: str
    outcome: Outcome
    exploited: bool | None
    exit: int | None
    signal: int | None
    stdout: str
    warnings: list[str] | None
    sanitizers: dict[str, bool | None]
    compiler_version: str
    runs: list[CellRun]
    #: what the compiler did, read from the cell's code (None: no code, see code_note)
    labels: list[CodeLabel] | None = None
    #: why the cell has no code ('' when it has)
    code_note: str = ""
    #: what turns its behaviour into -O0's (``ub run --why``); left out of the JSON
    #: where no cause was searched
    why: "Cause | None" = field(default=None, metadata=OPTIONAL)


@dataclass(frozen=True)
class Observed:
    """What a cell's program did, as a user would see it: how it ended and what it
    printed (the first run's stdout, capped as stored)."""

    outcome: Outcome
    exit: int | None
    signal: int | None
    stdout: str


@dataclass(frozen=True)
class TargetSplit:
    """One compiler version, level and flag set whose programs behave differently on
    two or more targets: a divergence that comes from the target, not the optimiser
    (``gcc-12 -O0``: SIGFPE on x86_64, ``-2147483648`` on aarch64-linux-gnu)."""

    compiler: str                    # the version's host id: 'gcc-12'
    level: str
    flags: str
    #: target -> what its program did; the host's target under its own triple
    observed: dict[str, Observed]


@dataclass(frozen=True)
class CaseReport:
    """One case of the report: its metadata, whether it diverges, the cells, and its
    sanitizer findings by compiler, then by sanitizer.

    A case diverges when its cells show more than one behaviour class
    (:func:`analyzer.ub.classify.diverges`) or when it diverges by target: one compiler
    version, level and flag set whose programs did different things (exit status, signal
    or output) on two targets, though each target's cells may all be ``expected`` there
    (``INT_MIN / -1``: SIGFPE on x86-64, ``-2147483648`` on aarch64)."""

    case: str
    category: str
    standard: str
    summary: str
    ub: bool | None
    diverges: bool
    cells: list[Cell]
    sanitizers: dict[str, dict[str, SanitizerFinding]]
    #: the detectors that caught it at its ub-line, fired elsewhere or falsely claimed on
    #: its twin, per version (``ub detectors``); left out of the JSON where none ran
    detectors: "CaseDetections | None" = field(default=None, metadata=OPTIONAL)
    #: the (compiler, level, flags) whose behaviour differs between targets: the
    #: divergences that come from the target; None (left out of the JSON) where no
    #: compiler version ran on two targets
    by_target: "list[TargetSplit] | None" = field(default=None, metadata=OPTIONAL)
    #: the compilers (with their target) whose levels behave differently: the
    #: divergences that come from the optimiser; None where the report has no targets
    by_level: "list[str] | None" = field(default=None, metadata=OPTIONAL)
    #: the case diverges by target: ``by_target`` is not empty (then ``diverges`` too)
    diverges_by_target: bool = False


class CorpusKind(enum.StrEnum):
    """Whose corpus results are about: the one shipped with warnscope (``bundled``,
    named as such, never by the directory it is installed in) or a directory the user
    gave with ``--corpus DIR`` (``user``, named by its path)."""

    BUNDLED = "bundled"
    USER = "user"


@dataclass(frozen=True)
class UbReport:
    """The results of one corpus (``ub report --json``): its configurations (the
    matrix's columns, in the report's order) and its cases, divergent ones first.
    The text renderer and the site read this, nothing else.

    ``corpus`` is the directory the results are stored under (what ``--corpus``
    takes); ``corpus_kind`` and ``corpus_content`` say which corpus that is, and
    :attr:`corpus_shown` how every output names it."""

    corpus: str
    configurations: list[Configuration]
    cases: list[CaseReport]
    corpus_kind: CorpusKind = CorpusKind.USER
    #: the stored cases' content hash (:func:`corpus_content`); '' where not known
    corpus_content: str = ""

    @property
    def corpus_shown(self) -> str:
        """``the bundled corpus (content 1a2b3c4d5e6f)``, or a user's corpus's path."""
        return shown_corpus(self.corpus, self.corpus_kind, self.corpus_content)

    @property
    def has_targets(self) -> bool:
        """Some compiler version of the report ran on more than one target."""
        return any(c.by_target is not None for c in self.cases)

    def only(self, case_id: str) -> "UbReport":
        """The same report limited to one case (``ub report --case``); a case not in
        the results is :class:`~warnscope.errors.NoData`."""
        cases = [c for c in self.cases if c.case == case_id]
        if not cases:
            raise no_case(case_id, self.corpus, [c.case for c in self.cases])
        return replace(self, cases=cases)


@dataclass(frozen=True)
class Divergence:
    """How a run's matrix ended (``ub run``'s closing lines): its cases, and those whose
    cells show more than one behaviour across the run's compilers and levels."""

    cases: int
    configurations: int
    divergent: list[str]
    #: of ``divergent``, the cases that diverge by target (:class:`CaseReport`); None
    #: where no compiler version of the run ran on two targets
    by_target: list[str] | None = None


def no_case(case_id: str, corpus: str, known: list[str]) -> NoData:
    """The error for a case the stored results lack, naming the cases meant: those whose
    id holds what was typed (``loop``: ``infinite-loop-no-side-effects`` …), else the
    closest ids; the corpus by name (the bundled one is not a path to show)."""
    ids = sorted(set(known))
    meant = [i for i in ids if case_id.lower() in i.lower()]
    if not meant:  # a typo: of the whole id, or of its name within its category
        names = {i.rpartition("/")[2]: i for i in ids}
        meant = sorted({*difflib.get_close_matches(case_id, ids, n=3),
                        *(names[n] for n in difflib.get_close_matches(case_id, list(names), n=3))})
    shown = ", ".join(meant[:8]) + (f" … ({len(meant)} in all)" if len(meant) > 8 else "")
    return NoData(f"no case {case_id!r} in the stored UB results of {corpus_name(corpus)}"
                  + (f"; did you mean {shown}?" if meant else ""))


def corpus_kind(corpus: str) -> CorpusKind:
    """Whether ``corpus`` (a directory as stored) is the corpus shipped with this
    warnscope."""
    from analyzer.ub.corpus import bundled_corpus

    try:
        return CorpusKind.BUNDLED if Path(corpus).resolve() == bundled_corpus() \
            else CorpusKind.USER
    except (OSError, NotInstalled):
        return CorpusKind.USER


def corpus_content(cases: "list[CaseInfo] | list[Any]") -> str:
    """What a corpus holds, in 12 hex digits: the hash of its cases' ids and source
    hashes (each of those covers the program and its expected outputs), the same for
    the cases as loaded (:class:`analyzer.ub.corpus.Case`) and as stored."""
    digest = hashlib.sha256()
    for case_id, source_hash in sorted((c.id, c.source_hash) for c in cases):
        digest.update(f"{case_id}\0{source_hash}\n".encode())
    return digest.hexdigest()[:12]


def shown_corpus(corpus: str, kind: CorpusKind, content: str = "") -> str:
    """How a corpus is named to a user: ``the bundled corpus (content 1a2b3c4d5e6f)``
    (its directory is an installation's detail, a virtualenv's path), a user's by its
    path."""
    if kind is not CorpusKind.BUNDLED:
        return corpus
    return "the bundled corpus" + (f" (content {content})" if content else "")


def corpus_name(corpus: str) -> str:
    """``the bundled corpus`` for the corpus shipped with warnscope, else its path."""
    return shown_corpus(corpus, corpus_kind(corpus))


# ------------------------------------------------------------------ a run

@dataclass(frozen=True)
class CellRef:
    """Which cell(s) a job is about, for reporting: a cell (case, compiler, level and
    flags), a sanitizer build of a case, or a batch of libclang parses."""

    kind: str                 # 'cell' | 'sanitizer' | 'clang-warnings'
    compiler: str
    case: str | None = None   # None: a batch of many cases (libclang)
    config: str = ""          # '-O2 -fwrapv' | '-fsanitize=address' | ''

    def __str__(self) -> str:
        if self.kind == "clang-warnings":
            return " ".join(p for p in (self.case, self.compiler, self.config, "(libclang warnings)")
                            if p) if self.case else f"libclang warnings of {self.compiler}"
        return " ".join(p for p in (self.case, self.compiler, self.config) if p)


@dataclass(frozen=True)
class JobFailure:
    """A job that produced no result: ``cause`` is the exception's type, ``detail``
    its message on one line. Failures with equal (stage, cause, detail) are one
    problem, so failures are data the client aggregates, never text it parses."""

    cell: CellRef
    stage: str                # 'compile' | 'run' | 'warnings' | 'sanitizer' | 'worker'
    cause: str
    detail: str

    @classmethod
    def of(cls, cell: CellRef, stage: str, exc: BaseException) -> "JobFailure":
        detail = " ".join(str(exc).split())[:300] or type(exc).__name__
        return cls(cell=cell, stage=stage, cause=type(exc).__name__, detail=detail)


@dataclass
class RunSummary:
    """What a run did (counted as results arrive, hence mutable). ``failures`` are
    jobs without a result (nothing stored for them); ``group_failures`` in
    :mod:`analyzer.ub.run` folds them into problems for reporting."""

    corpus: str
    cases: int
    cells: int                 # cells in the plan
    cells_run: int             # of which executed now (the rest were stored already)
    compiled: int              # cells whose binary was not in the cache
    warnings_run: int
    sanitizers_run: int
    failures: list[JobFailure] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)   # corpus files not read, with why
    seconds: float = 0.0
    outcomes: dict[str, int] = field(default_factory=dict)
    #: causes of divergent cells searched and stored now (``--why``)
    explained: int = 0


@dataclass(frozen=True)
class RunPrinted:
    """What ``ub run`` prints when it ends: its closing count (with the causes found,
    under ``--why``) and, where it holds cells, how its matrix diverges."""

    summary: RunSummary
    why: bool
    divergence: Divergence | None = None


# ------------------------------------------------------------------ why a cell diverges

class WhyStatus(enum.Enum):
    """What ``ub why`` found for a cell: ``explained`` (a flag set or a pass changes the
    level's behaviour back to -O0's), ``same`` (the level behaves as -O0: nothing to
    explain), ``unstable`` (a build's runs disagree: never bisected into noise),
    ``unknown`` (cause unknown, ``reason`` says why: no opt-bisect, no readable pass
    list, no flag or pass explains it, a tool missing)."""

    EXPLAINED = "explained"
    SAME = "same"
    UNSTABLE = "unstable"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Probe:
    """One step of the search: a sandboxed compile and run exactly like a cell's
    (``flags`` after the level), classified as a cell is."""

    flags: list[str]
    outcome: Outcome
    #: what divergence compares (the outcome, with the stdout's digest where it matters)
    behaviour: str
    exit: int | None
    signal: int | None
    stdout: str
    #: the outcome in a few words ('prints 3', 'hang', 'exit 48')
    said: str


@dataclass(frozen=True)
class PassChange:
    """A pass whose execution changes the program's behaviour. clang: the opt-bisect
    number (``index``, 1-based: the limit ``index - 1`` is the build just before it),
    its name and what it ran on (``target`` as clang printed it, ``function`` read from
    it, '' for a module pass). GCC: a pass of ``-fdump-passes`` (``index`` its place in
    the list) whose ``-fdisable-…`` is part of the minimal set that restores -O0's
    behaviour (``switch``)."""

    index: int
    name: str
    target: str
    function: str
    before: str
    after: str
    switch: str = ""


@dataclass(frozen=True)
class GuardCheck:
    """A UB-guard switch (``-fwrapv``, ``-fno-strict-aliasing``, ...) added to the
    level: whether it restores -O0's behaviour (None: the compiler refused it)."""

    flag: str
    restores: bool | None
    said: str


@dataclass(frozen=True)
class Cause:
    """``ub why CASE --compiler C --levels L``: what turns the level's behaviour into
    -O0's. ``flags`` (GCC) is a minimal set of ``-fno-…`` among those the level adds
    over -O0 that restores it; ``passes`` the passes found (clang: every change of
    behaviour along the pass pipeline, in order; GCC: a minimal set of disabled passes,
    searched where no flag set restores it); ``guards`` the UB-guard switches tried one
    by one. ``probes`` compiles and runs were spent, within ``bound``
    (2·⌈log2 P⌉ + F and the searches' own fixed steps, see :mod:`analyzer.ub.why.why`)."""

    case: str
    compiler: str
    compiler_version: str
    level: str
    #: the cell's extra flags ('' none)
    cell_flags: str
    status: WhyStatus
    #: for ``unknown``, ``unstable`` and ``same``: why, in a line; '' when explained
    reason: str
    #: 'opt-bisect' (clang) | 'flags' | 'flags+passes' (GCC) | '' (not searched)
    method: str
    baseline: Probe | None
    observed: Probe | None
    flags: list[str]
    passes: list[PassChange]
    #: passes in the pipeline (clang: opt-bisect's count; GCC: candidate passes)
    passes_total: int
    #: flags the level adds over -O0 (GCC)
    flags_total: int
    guards: list[GuardCheck]
    probes: int
    bound: int
    #: what the search could not settle ('a change between pass 60 and 140 not located')
    notes: list[str] = field(default_factory=list)

    @property
    def summary(self) -> str:
        """The cause in one line, as the report, explain and the site say it."""
        return summary(self)


def pass_place(p: PassChange) -> str:
    """' on main', ' on a loop in main', ' on the module', or ''."""
    if "loop" in p.target.lower():
        return f" on a loop in {p.function}" if p.function else " on a loop"
    if p.target == "[module]":
        return " on the module"
    return f" on {p.function or p.target}" if (p.function or p.target) else ""


def summary(c: "Cause") -> str:
    """'hang at -O2: -fno-tree-vrp restores -O0's "prints 3"; guards: -fwrapv, ...'."""
    if c.status is WhyStatus.UNSTABLE:
        return f"unstable: {c.reason}"
    if c.status is WhyStatus.SAME:
        return f"nothing to explain: {c.reason}"
    if c.status is WhyStatus.UNKNOWN:
        restoring = [g.flag for g in c.guards if g.restores]
        return f"cause unknown: {c.reason}" + (
            f"; guards restoring it: {', '.join(restoring)}" if restoring else "")
    said = c.observed.said if c.observed else "?"
    parts = [f"{said} at {c.level}"]
    if c.flags:
        parts.append(f"{' '.join(c.flags)} restores -O0's behaviour"
                     + (f" ({c.baseline.said})" if c.baseline else ""))
    for p in c.passes:
        where = pass_place(p)
        if p.switch:
            parts.append(f"pass {p.name} ({p.switch})")
        else:
            parts.append(f"pass {p.index} {p.name}{where}: {p.before} -> {p.after}")
    restoring = [g.flag for g in c.guards if g.restores]
    if c.guards:
        parts.append("guards restoring it: " + (", ".join(restoring) if restoring else "none"))
    return "; ".join(parts)


def cause_from_plain(d: dict) -> Cause:
    """A :class:`Cause` back from its JSON (the cache, the database); a value of another
    shape is a TypeError, KeyError or ValueError for the caller to handle."""
    def probe(p: dict | None) -> Probe | None:
        return None if p is None else Probe(**{**p, "outcome": Outcome(p["outcome"])})

    return Cause(**{**d, "status": WhyStatus(d["status"]), "baseline": probe(d["baseline"]),
                    "observed": probe(d["observed"]),
                    "passes": [PassChange(**p) for p in d["passes"]],
                    "guards": [GuardCheck(**g) for g in d["guards"]]})
