"""Detectors and what they report on one program: the model and the parsers.

A detector is one thing that can say "this program has a defect here":

* a warning option, as the compiler names it per diagnostic (``-Wshift-count-overflow``);
* a sanitizer check, as its report names it (``asan:heap-use-after-free``; UBSan's by
  its ``-fsanitize=`` name, ``ubsan:signed-integer-overflow``, read from the message);
* a static analyzer's checker: GCC's ``-Wanalyzer-*`` (``-fanalyzer``), the clang static
  analyzer's checkers (``core.NullDereference``), clang-tidy's checks
  (``bugprone-sizeof-expression``), cppcheck's ids (``cppcheck:nullPointer``).

A :class:`~analyzer.ub.results.Finding` is one report of a detector, with the line of the
program it points at (None when it points elsewhere, into a header, or nowhere: ASan
without a symbolizer). A :class:`~analyzer.ub.results.ToolRun` is one tool run on one
program: its findings, or why it has none (``RunStatus``), never a silent "found
nothing"; both are the family's stored types (:mod:`analyzer.ub.results`, which the store
reads them into). The parsers here read the tools'
own output shapes; what they do not recognise makes the run ``UNKNOWN_OUTPUT``.
"""
from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field

from warnscope.diagnostics import parse_gcc_json, parse_text

from analyzer.ub.results import Finding, Kind, RunStatus, Tool, ToolRun


# --- parsers ---------------------------------------------------------------------------

#: ``file:line:col: warning: message [name]``: clang's warnings, the clang static analyzer
#: (the checker in brackets), clang-tidy (the check, or several joined by commas) and
#: cppcheck with :data:`CPPCHECK_TEMPLATE`: the place after the file's name (which may hold
#: colons and newlines: :func:`warnscope.diagnostics.parse_text.located` finds where it
#: ends), then the message and the bracketed name
_PLACE = re.compile(r":(?P<line>\d+):(?:(?P<col>\d+):)? "
                    r"(?P<severity>warning|error|style|performance|portability|information): ")
_BRACKETED = re.compile(r"(?P<message>.*?) \[(?P<name>[^\]\s]+)\]$")
#: the template cppcheck is run with, so its findings look like the compilers'
CPPCHECK_TEMPLATE = "{file}:{line}:{column}: {severity}: {message} [{id}]"
#: cppcheck's ids that say something of the run, not of the program
CPPCHECK_META = {"missingInclude", "missingIncludeSystem", "checkersReport", "toomanyconfigs",
                 "normalCheckLevelMaxBranches", "unmatchedSuppression", "noValidConfiguration"}


def bracketed(text: str, filename: str, kind: Kind, prefix: str = "",
              skip: tuple[str, ...] = ()) -> tuple[list[Finding], list[str]]:
    """The findings of ``file:line:col: warning: message [name]`` lines, and the warning
    lines of another shape (non-empty: the output is not understood). A name of several
    checks (``bugprone-x,cert-y``) is one finding per check. ``skip``: name prefixes that
    are not this tool's detectors (clang-tidy's ``clang-diagnostic-``). An ``error`` is a
    finding only for cppcheck (whose severities say how sure it is); for the compilers'
    tools an error means the program did not compile, which the run's status says."""
    found: list[Finding] = []
    strange: list[str] = []
    lines = text.split("\n")

    def read(name: str) -> bool:   # the program, or a system header (the sandbox has no other file)
        return _same_file(name, filename) or (name.startswith("/") and "\n" not in name)

    for i, file, place in parse_text.located(lines, _PLACE, read):
        m = _BRACKETED.match(lines[i], place.end())
        if m is None:
            if place["severity"] == "warning":
                strange.append(lines[i][:place.end()])
            continue
        if place["severity"] == "error" and prefix != "cppcheck:":
            continue
        line = int(place["line"]) if file is not None and _same_file(file, filename) else None
        for name in m["name"].split(","):
            if name.startswith(skip) or (prefix == "cppcheck:" and name in CPPCHECK_META):
                continue
            found.append(Finding(prefix + name, kind, line, m["message"]))
    return found, strange


def gcc_json(diagnostics: list, filename: str) -> list[Finding]:
    """Findings of GCC's JSON diagnostics (the elements :func:`split_stderr
    <warnscope.diagnostics.parse_gcc_json.split_stderr>` gives, read by
    :func:`~warnscope.diagnostics.parse_gcc_json.diagnostics_of`): each warning with its
    option, at its first location's line (notes and the analyzer's event paths are
    children, not findings)."""
    found = []
    for d in parse_gcc_json.diagnostics_of(diagnostics, nested=False):
        if d.severity != "warning" or not d.option:
            continue
        line = d.line if _same_file(str(d.file or ""), filename) else None
        kind = Kind.ANALYZER if d.option.startswith("-Wanalyzer-") else Kind.WARNING
        found.append(Finding(d.option, kind, line, d.message))
    return found


#: ``SUMMARY: AddressSanitizer: heap-use-after-free (/work/a.out+0xf2b7f)``, or with the
#: place when symbolized (``... uaf.c:19 in main``); ``attempting double-free`` too; a
#: signal it caught is named in upper case (``SEGV``, ``BUS``, ``FPE``, ``ILL``).
_ASAN_SUMMARY = re.compile(r"^SUMMARY: AddressSanitizer: (?:attempting )?(?P<check>[A-Za-z][A-Za-z0-9-]*)"
                           r"(?: (?P<where>\S+))?", re.M)
#: UBSan's report: ``loop.c:16:39: runtime error: signed integer overflow: ...``
_UBSAN_ERROR = re.compile(r"^(?P<file>[^\n:]+):(?P<line>\d+):(?:\d+:)? runtime error: (?P<message>.*)$", re.M)
#: UBSan's messages by check, each named as ``-fsanitize=`` names it (GCC's reports name no
#: check, and clang's summaries name them differently from one version to the next)
UBSAN_MESSAGES = [
    (r"signed integer overflow|negation of .* cannot be represented|division of .* by -1 cannot",
     "signed-integer-overflow"),
    (r"shift exponent", "shift-exponent"),
    (r"left shift of", "shift-base"),
    (r"division by zero", "integer-divide-by-zero"),
    (r"(load of|store to|member access within|member call on|reference binding to) null pointer",
     "null"),
    (r"index .* out of bounds", "bounds"),
    (r"misaligned address", "alignment"),
    (r"not a valid value for type '(_Bool|bool)'", "bool"),
    (r"not a valid value for type", "enum"),
    (r"outside the range of representable values", "float-cast-overflow"),
    (r"null pointer passed as argument", "nonnull-attribute"),
    (r"end of a value-returning function", "return"),
    (r"unreachable program point", "unreachable"),
    (r"pointer index expression|applying (non-)?zero offset|addition of unsigned offset|"
     r"subtraction of unsigned offset", "pointer-overflow"),
    (r"incorrect function type", "function"),
    (r"variable length array bound", "vla-bound"),
    (r"implicit conversion", "implicit-conversion"),
]


def _ubsan_check(message: str) -> str:
    for pattern, check in UBSAN_MESSAGES:
        if re.search(pattern, message):
            return check
    return "runtime-error"


def sanitizer_reports(stderr: str, filename: str) -> tuple[list[Finding], bool]:
    """The sanitizer checks a run reported (``ubsan:shift-exponent``, ``asan:double-free``),
    each at its line where the report gives one in the program's file; and whether
    stderr held an ASan error without its summary (an output shape not understood).
    UBSan's checks are named by their message, as ``-fsanitize=`` names them (the same
    name for GCC and every clang); a message not known here is ``ubsan:runtime-error``."""
    found = []
    for m in _UBSAN_ERROR.finditer(stderr):
        check = _ubsan_check(m["message"])
        line = int(m["line"]) if _same_file(m["file"], filename) else None
        found.append(Finding("ubsan:" + check, Kind.SANITIZER, line, m["message"][:200]))
    asan = list(_ASAN_SUMMARY.finditer(stderr))
    for m in asan:
        parts = (m["where"] or "").split(":")
        line = (int(parts[1]) if len(parts) >= 2 and _same_file(parts[0], filename)
                and parts[1].isdigit() else None)
        found.append(Finding("asan:" + m["check"], Kind.SANITIZER, line))
    unsummarised = not asan and "ERROR: AddressSanitizer" in stderr
    return found, unsummarised


def _same_file(reported: str, filename: str) -> bool:
    """A location in the program's own file (tools print it relative or absolute)."""
    return reported == filename or reported.endswith("/" + filename)


def unique(findings: list[Finding]) -> tuple[Finding, ...]:
    """Findings without repeats (one detector at one line once), in their first order."""
    seen, out = set(), []
    for f in findings:
        if (f.detector, f.line) not in seen:
            seen.add((f.detector, f.line))
            out.append(f)
    return tuple(out)


# --- what a detector claims --------------------------------------------------------------

#: The UB category (corpus/README's categories) each detector's reports claim, by name: a
#: report of one of these names says "this program has that UB", so that on a program
#: without it the report is a false alarm, where another report (a dead store, a style
#: check, an analyzer's note of a different kind) is not. A name ending in ``*`` stands for
#: every name it begins; GCC's ``-Wformat=``, ``-Wdangling-pointer=`` are read without the
#: ``=``. A detector may claim several categories (cppcheck's ``nullPointer`` is said of a
#: dereference and of a library argument); a detector named nowhere here has no known class.
UB_CLASSES: dict[str, tuple[str, ...]] = {
    "signed-integer-overflow": (
        "ubsan:signed-integer-overflow", "-Waggressive-loop-optimizations", "-Wstrict-overflow",
        "-Winteger-overflow", "-Woverflow", "cppcheck:integerOverflow*",
        "cppcheck:invalidTestForOverflow", "bugprone-implicit-widening-of-multiplication-result"),
    "division-by-zero": (
        "ubsan:integer-divide-by-zero", "asan:FPE", "-Wdiv-by-zero", "-Wdivision-by-zero",
        "core.DivideZero", "cppcheck:zerodiv", "cppcheck:zerodivcond"),
    "int-min-division": (
        "ubsan:signed-integer-overflow", "asan:FPE", "-Woverflow", "-Winteger-overflow"),
    "shift-out-of-range": (
        "ubsan:shift-exponent", "-Wshift-count-overflow", "-Wshift-count-negative",
        "core.UndefinedBinaryOperatorResult", "core.BitwiseShift", "cppcheck:shiftTooManyBits*",
        "cppcheck:shiftNegative"),
    "left-shift-negative": (
        "ubsan:shift-base", "-Wshift-negative-value", "-Wshift-overflow",
        "core.UndefinedBinaryOperatorResult", "core.BitwiseShift", "cppcheck:shiftNegativeLHS"),
    "float-to-int-overflow": (
        "ubsan:float-cast-overflow", "-Wfloat-overflow-conversion", "-Woverflow",
        "cppcheck:floatConversionOverflow"),
    "array-out-of-bounds": (
        "ubsan:bounds", "asan:stack-buffer-overflow", "asan:stack-buffer-underflow",
        "asan:heap-buffer-overflow", "asan:global-buffer-overflow",
        "asan:dynamic-stack-buffer-overflow", "-Warray-bounds", "-Wstringop-overflow",
        "-Wstringop-overread", "-Wchar-subscripts", "-Wanalyzer-out-of-bounds",
        "-Wanalyzer-buffer-overflow", "-Wanalyzer-buffer-over-read", "-Wanalyzer-buffer-underwrite",
        "-Wanalyzer-buffer-under-read", "alpha.security.ArrayBound*", "security.ArrayBound",
        "cppcheck:arrayIndexOutOfBounds*", "cppcheck:negativeIndex", "cppcheck:bufferAccessOutOfBounds",
        "cppcheck:outOfBounds", "cppcheck:pointerOutOfBounds*", "cppcheck:containerOutOfBounds"),
    "pointer-overflow": (
        "ubsan:pointer-overflow", "-Warray-bounds-pointer-arithmetic", "cppcheck:pointerOutOfBounds*",
        "cppcheck:invalidTestForOverflow", "cppcheck:nullPointerArithmetic*"),
    "null-dereference": (
        "ubsan:null", "asan:SEGV", "-Wnull-dereference", "-Wanalyzer-null-dereference",
        "-Wanalyzer-possible-null-dereference", "-Wtautological-undefined-compare",
        "-Wundefined-bool-conversion", "-Wnonnull-compare", "core.NullDereference",
        "cppcheck:nullPointer", "cppcheck:nullPointerRedundantCheck", "cppcheck:ctunullpointer",
        "cppcheck:nullPointerDefaultArg"),
    "null-library-argument": (
        "ubsan:nonnull-attribute", "-Wnonnull", "-Wanalyzer-null-argument",
        "-Wanalyzer-possible-null-argument", "core.NonNullParamChecker", "cppcheck:nullPointer",
        "cppcheck:ctunullpointer"),
    "use-after-free": (
        "asan:heap-use-after-free", "-Wuse-after-free", "-Wanalyzer-use-after-free", "unix.Malloc",
        "cplusplus.NewDelete", "cppcheck:deallocuse", "cppcheck:invalidContainer*",
        "cppcheck:invalidIterator*", "cppcheck:danglingLifetime", "cppcheck:invalidLifetime"),
    "use-after-scope": (
        "asan:stack-use-after-scope", "asan:stack-use-after-return", "-Wdangling-pointer",
        "-Wreturn-local-addr", "-Wreturn-stack-address", "-Wdangling", "-Wdangling-gsl",
        "-Wanalyzer-use-of-pointer-in-stale-stack-frame", "core.StackAddressEscape",
        "cppcheck:returnDanglingLifetime", "cppcheck:invalidLifetime", "cppcheck:danglingLifetime",
        "cppcheck:danglingTemporaryLifetime", "cppcheck:danglingReference", "cppcheck:autoVariables",
        "cppcheck:returnLocalVariable", "cppcheck:returnTempReference", "cppcheck:returnReference"),
    "dangling-pointer-value": (
        "-Wuse-after-free", "-Wdangling-pointer", "-Wanalyzer-use-after-free", "unix.Malloc",
        "cppcheck:deallocuse"),
    "bad-deallocation": (
        "asan:double-free", "asan:bad-free", "asan:alloc-dealloc-mismatch",
        "asan:new-delete-type-mismatch", "-Wfree-nonheap-object", "-Wmismatched-new-delete",
        "-Wmismatched-dealloc", "-Wanalyzer-double-free", "-Wanalyzer-free-of-non-heap",
        "-Wanalyzer-mismatching-deallocation", "unix.Malloc", "unix.MismatchedDeallocator",
        "cplusplus.NewDelete", "cppcheck:doubleFree", "cppcheck:mismatchAllocDealloc",
        "cppcheck:autovarInvalidDeallocation", "cppcheck:deallocDealloc"),
    "uninitialized-read": (
        "msan:use-of-uninitialized-value", "-Wuninitialized", "-Wmaybe-uninitialized",
        "-Wsometimes-uninitialized", "-Wconditional-uninitialized",
        "-Wanalyzer-use-of-uninitialized-value", "core.uninitialized.*", "core.CallAndMessage",
        "core.UndefinedBinaryOperatorResult", "cppcheck:uninitvar", "cppcheck:uninitdata",
        "cppcheck:uninitStructMember", "cppcheck:uninitMemberVar*", "cppcheck:legacyUninitvar"),
    "strict-aliasing": ("-Wstrict-aliasing", "cppcheck:invalidPointerCast"),
    "misaligned-access": ("ubsan:alignment", "-Wcast-align", "-Waddress-of-packed-member"),
    "overlapping-copy": (
        "asan:*-param-overlap", "-Wrestrict", "-Wanalyzer-overlapping-buffers",
        "unix.cstring.BufferOverlap", "alpha.unix.cstring.BufferOverlap",
        "cppcheck:sprintfOverlappingData", "cppcheck:overlappingWriteFunction"),
    "string-literal-modification": (
        "-Wwrite-strings", "-Wwritable-strings", "-Wanalyzer-write-to-string-literal",
        "cppcheck:stringLiteralWrite"),
    "const-object-modification": ("-Wanalyzer-write-to-const",),
    "unsequenced-modification": ("-Wsequence-point", "-Wunsequenced", "cppcheck:unknownEvaluationOrder"),
    "pointer-comparison": ("asan:pointer-compare", "asan:pointer-subtract", "cppcheck:comparePointers"),
    "incompatible-function-pointer": (
        "ubsan:function", "-Wcast-function-type", "-Wcast-function-type-strict",
        "-Wincompatible-function-pointer-types"),
    "missing-return": ("ubsan:return", "-Wreturn-type", "cppcheck:missingReturn"),
    "infinite-loop": ("-Wanalyzer-infinite-loop", "bugprone-infinite-loop"),
    "data-race": ("tsan:data-race",),
    "restrict-violation": ("-Wrestrict",),
    "invalid-bool-enum": (
        "ubsan:bool", "ubsan:enum", "-Wenum-constexpr-conversion", "optin.core.EnumCastOutOfRange",
        "alpha.cplusplus.EnumCastOutOfRange"),
    "object-lifetime": (
        "asan:heap-use-after-free", "-Wanalyzer-use-after-free", "-Wuse-after-free",
        "-Wclass-memaccess", "cplusplus.NewDelete", "unix.Malloc"),
    "delete-non-virtual-destructor": (
        "asan:new-delete-type-mismatch", "asan:bad-free", "-Wdelete-non-virtual-dtor",
        "-Wdelete-non-abstract-non-virtual-dtor", "cppcheck:virtualDestructor"),
    "unreachable-reached": ("ubsan:unreachable",),
    "format-mismatch": (
        "-Wformat", "-Wformat-extra-args", "-Wformat-insufficient-args", "-Wformat-invalid-specifier",
        "-Wformat-pedantic", "cppcheck:invalidPrintfArgType_*", "cppcheck:invalidScanfArgType_*",
        "cppcheck:wrongPrintfScanfArgNum"),
}


def _index(table: dict[str, tuple[str, ...]]) -> tuple[dict[str, frozenset[str]],
                                                       list[tuple[str, frozenset[str]]]]:
    """:data:`UB_CLASSES` turned round: the categories of each plain name, and of each
    pattern (a name with ``*``)."""
    names: dict[str, set[str]] = {}
    for category, detectors in table.items():
        for name in detectors:
            names.setdefault(name, set()).add(category)
    return ({n: frozenset(cs) for n, cs in names.items() if "*" not in n},
            [(n, frozenset(cs)) for n, cs in names.items() if "*" in n])


_BY_NAME, _BY_PATTERN = _index(UB_CLASSES)


def ub_classes(detector: str) -> frozenset[str]:
    """The UB categories a detector's reports claim (:data:`UB_CLASSES`); empty for a
    detector of no known class."""
    name = detector.split("=", 1)[0] if detector.startswith("-W") else detector
    found = set(_BY_NAME.get(name, ()))
    for pattern, categories in _BY_PATTERN:
        if fnmatch.fnmatchcase(name, pattern):
            found |= categories
    return frozenset(found)


def claims_ub(finding: Finding, category: str | None = None, fixed_lines: tuple[int, ...] = ()) -> bool:
    """Whether ``finding``, on a program without UB, claims UB there: a sanitizer's report
    always (it says the run had UB); another detector's when it is of the class
    ``category`` (:func:`ub_classes`; ``None``: of any known class, as on a control program)
    or at one of ``fixed_lines`` (a twin's lines where its case's defect was)."""
    if finding.kind is Kind.SANITIZER:
        return True
    if finding.line is not None and finding.line in fixed_lines:
        return True
    classes = ub_classes(finding.detector)
    return bool(classes) if category is None else category in classes
@dataclass
class Judgement:
    """What a detector's findings on a case and its twin mean (see :func:`judge`)."""

    caught: bool = False            # on the case, at its ub-line (a sanitizer: at run time)
    elsewhere: bool = False         # on the case, but not at its ub-line
    false_alarm: bool = False       # on the twin, claiming the case's UB
    unrelated: bool = False         # on the twin, only reports that claim nothing of it
    lines: list[int] = field(default_factory=list)
    #: the twin's lines it reported (of its false alarm, else of its unrelated reports)
    twin_lines: list[int] = field(default_factory=list)


def judge(kind: Kind, case_lines: tuple[int, ...], on_case: list[Finding],
          on_twin: list[Finding] | None, fixed_lines: tuple[int, ...] = (),
          category: str = "") -> Judgement:
    """One detector on one case and its twin (None: no twin, or it did not run). A static
    detector catches a case when it reports one of the case's ``ub-line``s; a sanitizer
    when it reports anything at run time (ASan's stack has no lines without a symbolizer,
    and the UB is the only defect of the program). On the twin, as the Juliet and Toyota
    ITC benchmarks count: a report at one of its ``fixed_lines`` (where the defect was), or
    of the case's ``category`` anywhere (:func:`claims_ub`), or any sanitizer report, is a
    false alarm; any other report is unrelated (a dead store, a style check)."""
    v = Judgement(lines=sorted({f.line for f in on_case if f.line is not None}))
    if kind is Kind.SANITIZER:
        v.caught = bool(on_case)
    else:
        v.caught = any(f.line in case_lines for f in on_case)
        v.elsewhere = bool(on_case) and not v.caught
    claims = [f for f in on_twin or [] if claims_ub(f, category, fixed_lines)]
    v.false_alarm = bool(claims)
    v.unrelated = bool(on_twin) and not claims
    v.twin_lines = sorted({f.line for f in claims or on_twin or [] if f.line is not None})
    return v


def judge_control(findings: list[Finding]) -> tuple[bool, bool]:
    """One detector on a program without UB that fixes none (a control): (a false alarm,
    unrelated). A sanitizer's report, or a report of any known UB class, claims UB there;
    the others are unrelated."""
    claims = any(claims_ub(f) for f in findings)
    return claims, bool(findings) and not claims
