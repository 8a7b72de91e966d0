"""What the warnings family returns: plain dataclasses, serialised by
:mod:`warnscope.serial` for ``--json`` and rendered as text by the CLI.

Names of options are as the compiler reports them (``-Wunused-variable``); a diagnostic
no option controls has ``option`` None (JSON null), never a made-up name.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from warnscope.serial import OPTIONAL

from analyzer.projects.cell import BuildStatus


@dataclass
class Diagnostic:
    """A diagnostic of one build (project x compiler x level): counted once however many
    TUs printed it (a header's warning), with those TUs listed."""

    option: str | None
    severity: str
    file: str | None        # relative to the project's tree; absolute outside it (/usr/include/...);
    #                         the compiler's own headers as <gcc>/include/stddef.h, <clang>/include/...
    line: int | None
    column: int | None
    message: str
    tus: list[str] = field(default_factory=list)
    #: times printed over all its TUs: a build log's count (a TU can print one
    #: diagnostic more than once: a macro's warning at each expansion)
    printed: int = 0

    @property
    def key(self) -> tuple:
        """What makes two TUs' diagnostics the same one."""
        return (self.file, self.line, self.column, self.option, self.severity, self.message)


@dataclass
class TuOutcome:
    """One compile of a build: its TU, exit status, and whether its output was read."""

    tu: str                 # source relative to the tree, '-> object' when compiled more than once
    language: str
    exit: int
    diagnostics: int        # diagnostics it printed (before merging with other TUs)
    problem: str | None = field(default=None, metadata=OPTIONAL)  # why its output could not be read


@dataclass(frozen=True)
class Check:
    """One configure check (:mod:`analyzer.warnings.checks`): the build system that ran it,
    its name as the build system says it (``if libc defines __progname``,
    ``HAVE_STDINT_H``, ``Checking for function "strlcpy"``), its result (``yes``, ``no``,
    ``1``, ``YES``, a value) and the compiler's first error of a failed check ('' when
    there is none or it passed)."""

    system: str
    name: str
    result: str
    error: str = ""


@dataclass
class Build:
    """One cell: a project built by one compiler at one level, every diagnostic kept."""

    project: str
    origin: str
    compiler: str
    compiler_version: str
    level: str
    opt: str                # the -O level ('-O2'): some warnings need the optimiser
    flags: dict[str, list[str]]
    format: str             # 'gcc-json' | 'sarif' | 'clang-text'
    status: BuildStatus = BuildStatus.OK
    error: str | None = field(default=None, metadata=OPTIONAL)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    tus: list[TuOutcome] = field(default_factory=list)
    finished_at: str = ""
    #: built past errors (make -k): a failed build lists every error, not the first TU's
    keep_going: bool = False
    #: the compiler's default language standards: {'c': '201710L', 'c++': '201703L'}
    std_defaults: dict[str, str] = field(default_factory=dict)
    #: the -W and -std options of the project's own compile commands (not the level's)
    project_options: list[str] = field(default_factory=list)
    #: the configure checks, as the build system logged them
    checks: list[Check] = field(default_factory=list)
    #: the macros of its generated configuration headers: file -> name -> value (None: #undef)
    macros: dict[str, dict[str, str | None]] = field(default_factory=dict)
    #: what was built: sha256 of the tree's files and the commands
    #: (:func:`analyzer.projects.digest.tree_digest`); '' for a build stored before it was kept
    tree_digest: str = ""
    #: the names of the caller's variables passed to every step (``--env``), never their values
    passed_env: list[str] = field(default_factory=list)


@dataclass
class Run:
    """``warnings run --json``: the builds run, each as stored."""

    builds: list[Build]


# ------------------------------------------------------------------ questions

@dataclass
class OptionCount:
    """How often one option fired in a build."""

    option: str | None
    count: int              # diagnostics, a header's counted once
    printed: int            # as a build log shows them: every time a TU printed one
    files: list[str]
    known: bool | None      # the flag database knows the option (None: the compiler is not ingested)


@dataclass
class Uncertain:
    """Diagnostics of a wider build that a narrower level may or may not print
    (:mod:`analyzer.warnings.derive`): the flag database cannot say, and ``why`` says
    what stops it (``-Wformat= is 2 at the build's level and 1 here``)."""

    option: str | None
    count: int
    printed: int
    why: str


@dataclass
class CompilerReport:
    """``warnings report``: one build's diagnostics by option, and the level's silent options."""

    compiler: str
    compiler_version: str
    level: str
    opt: str
    status: BuildStatus
    diagnostics: int
    printed: int
    tus: int
    by_option: list[OptionCount]
    silent: list[str]       # options the level turns on that never fired
    unread: list[TuOutcome] # TUs whose output could not be read, with the reason
    error: str | None = field(default=None, metadata=OPTIONAL)
    #: answered from the build at this level (``all``) through the flag database, not built
    derived_from: str | None = field(default=None, metadata=OPTIONAL)
    #: with ``derived_from``: what the flag database cannot place in or out, per option
    uncertain: list[Uncertain] | None = field(default=None, metadata=OPTIONAL)
    #: the compiler whose flag data answered ``known`` and ``silent`` where it is not this
    #: one's own: a compiler of another target not ingested is read with its host id's
    #: (``gcc-12`` for ``gcc-12@aarch64-linux-gnu``)
    flag_data: str | None = field(default=None, metadata=OPTIONAL)


@dataclass
class WarningsReport:
    project: str
    origin: str
    builds: list[CompilerReport]


@dataclass
class DiffEntry:
    """A diagnostic that appears, disappears or is reworded between two compilers."""

    change: str             # 'added' | 'removed' | 'changed'
    option: str | None
    file: str | None
    line: int | None
    message: str            # the new message ('removed': the old one)
    old_message: str | None = field(default=None, metadata=OPTIONAL)  # 'changed' only


@dataclass
class OptionDiff:
    option: str | None
    added: int
    removed: int
    changed: int
    entries: list[DiffEntry]


@dataclass
class Diff:
    """``warnings diff OLD NEW``: the upgrade report of one project at one level."""

    project: str
    level: str
    old: str
    new: str
    unchanged: int
    added: int
    removed: int
    changed: int
    by_option: list[OptionDiff]


@dataclass
class TopOption:
    option: str | None
    diagnostics: int
    projects: list[str]
    compilers: list[str]


@dataclass
class Top:
    """``warnings top``: the noisiest options over the chosen builds, and the silent ones
    (on in every build's level, fired in none)."""

    projects: list[str]
    level: str
    noisiest: list[TopOption]
    silent: list[str]


@dataclass
class Example:
    """One diagnostic of ``warnings show``, with its source line when the file is in the tree."""

    project: str
    compiler: str
    level: str
    option: str | None
    severity: str
    file: str | None
    line: int | None
    column: int | None
    message: str
    tus: list[str]
    source_line: str | None


@dataclass
class Show:
    #: the option asked about; None when every diagnostic of a project is listed
    option: str | None
    known: dict[str, bool]  # per compiler of the examples: whether the flag database knows it
    examples: list[Example]
    total: int


@dataclass
class Fired:
    """"Fires on real code": how often one flag fired in one stored build (``flags show``,
    ``flags history`` and each flag page). Only builds where it fired are listed."""

    project: str
    compiler: str
    compiler_version: str
    level: str
    status: BuildStatus     # the build's (counts up to the failure)
    diagnostics: int        # a header's counted once
    files: int
    printed: int            # as the build's log shows them
    options: list[str]      # the flag as the compiler printed it (one name, unless aliases differ)
    #: False: matched through the flag database; True: the compiler is not in it, and the
    #: option was matched by its name as printed
    by_spelling: bool = False


# ------------------------------------------------------------------ the upgrade report

@dataclass
class CheckFlip:
    """A configure check whose outcome differs between the two compilers: a feature the
    build system silently turns on or off. ``error`` is the to-compiler's first error of
    the check (why it failed), ``old_error`` the from-compiler's."""

    system: str
    name: str
    old: str
    new: str
    error: str = ""
    old_error: str = ""


@dataclass
class MacroChange:
    """A macro of a generated configuration header that differs (None: ``#undef``)."""

    file: str
    name: str
    old: str | None
    new: str | None


@dataclass
class NewError:
    """An error the to-compiler prints that the from-compiler did not: where, the option
    that makes it an error where there is one, and what the from-compiler did at that
    place (``was``: 'warning', printed as a warning; 'nothing', not printed)."""

    file: str | None
    line: int | None
    column: int | None
    option: str | None
    message: str
    was: str
    old_message: str | None = field(default=None, metadata=OPTIONAL)


@dataclass
class HatchTrial:
    """One build with some of the escape hatch's switches: whether the build then
    succeeds, and the errors left (``error`` a failed build's first error)."""

    flags: list[str]
    status: BuildStatus
    errors_left: int
    error: str | None = field(default=None, metadata=OPTIONAL)


@dataclass
class EscapeHatch:
    """The smallest set of switches that restores the old behaviour, proven by builds:
    each candidate switch built alone first (``alone``, in the order of how exactly it
    restores the old compiler's behaviour), then combinations only as needed
    (``combined``). ``flags``, ``status``, ``errors_left`` and ``error`` are the smallest
    set that builds; where none does, the last set tried (every switch together)."""

    flags: list[str]
    why: str
    status: BuildStatus
    errors_left: int
    error: str | None = field(default=None, metadata=OPTIONAL)
    alone: list[HatchTrial] = field(default_factory=list)
    combined: list[HatchTrial] = field(default_factory=list)


#: a standard's macro value as its name
STD_NAMES = {"199409L": "C94", "199901L": "C99", "201112L": "C11", "201710L": "C17",
             "202000L": "C2x", "202311L": "C23", "199711L": "C++98", "201103L": "C++11",
             "201402L": "C++14", "201703L": "C++17", "202002L": "C++20", "202302L": "C++23"}


def std_name(value: str | None) -> str:
    """``202311L`` -> ``C23 (202311L)``; unknown values as they are."""
    if value is None:
        return "unknown"
    return f"{STD_NAMES[value]} ({value})" if value in STD_NAMES else value


@dataclass
class StdDefault:
    """A language's default standard in each compiler (``__STDC_VERSION__``,
    ``__cplusplus``), and the ``-std=`` options the project gives its compiles (none: the
    default applies to it)."""

    language: str
    old: str | None
    new: str | None
    pinned: list[str] = field(default_factory=list)


@dataclass
class OptionChange:
    """One of the project's own warning options that the to-compiler takes otherwise:
    ``old`` and ``new`` are what each compiler does with it (flags check's status:
    'known', 'unknown', 'removed', 'ignored', ...), ``detail`` the to-compiler's reason or
    suggestion."""

    option: str
    old: str
    new: str
    detail: str = ""


@dataclass
class Environment:
    """Where each compiler ran, and what differs besides the compiler (the C library,
    libstdc++, the build tools): a comparison is fair where this is empty."""

    old: str
    new: str
    differs: list[str] = field(default_factory=list)


@dataclass
class UpgradePair:
    """One move, from one compiler to another: the build's fate, the configure checks
    that flip and the macros they cost, every new error, the escape hatch proven, the
    defaults and options that changed under the project, and the warnings' diff.

    Each diagnostic is counted once: an error the new compiler prints is in
    ``new_errors`` (or was an error before too); ``warnings`` compares what each compiler
    printed as a warning, and leaves out an old warning that is one of the new errors."""

    old: str
    new: str
    switching: bool         # another family: "switching compilers", not an upgrade
    old_status: BuildStatus
    new_status: BuildStatus
    old_error: str | None
    new_error: str | None
    flips: list[CheckFlip]
    macros: list[MacroChange]
    new_errors: list[NewError]
    hatch: EscapeHatch | None
    defaults: list[StdDefault]
    options: list[OptionChange]
    #: the warnings' diff: diagnostics printed as warnings only (errors: ``new_errors``)
    warnings: Diff
    environment: Environment
    notes: list[str] = field(default_factory=list)
    #: where a failed build's whole configure and build logs are kept (None: it built,
    #: or they are gone)
    old_log: str | None = field(default=None, metadata=OPTIONAL)
    new_log: str | None = field(default=None, metadata=OPTIONAL)


@dataclass
class Upgrade:
    """``warnscope upgrade``: a project moved from one compiler to one or more others."""

    project: str
    origin: str
    level: str
    pairs: list[UpgradePair]
    #: the names of the caller's variables the compared builds were given (``--env``)
    passed_env: list[str] = field(default_factory=list)


# --- what a SARIF log reads beyond the report: the builds it was made from ------------

@dataclass
class ReportBuilds:
    """``warnings report --format sarif``'s object: the report, the builds it was made from
    (derived where it answers ``--as``), and per compiler the words of its options (the
    flag database's help text, where the compiler is ingested)."""

    report: WarningsReport
    builds: list[Build]
    words: dict[str, dict[str, str]]


@dataclass
class DiffBuilds:
    """``warnings diff --format sarif``'s object: the diff and its two builds."""

    diff: Diff
    before: Build
    after: Build
    words: dict[str, dict[str, str]]


@dataclass
class UpgradeBuilds:
    """``upgrade --format sarif``'s object: the report, the builds it compares (by
    compiler), each pair's diff of the whole builds, the options' words."""

    report: Upgrade
    builds: dict[str, Build]
    diffs: dict[tuple[str, str], Diff]
    words: dict[str, dict[str, str]]
