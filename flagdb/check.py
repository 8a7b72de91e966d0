"""``flags check``: what each compiler version does with each flag as typed (known,
an alias, a no-op, removed, a bad value, unknown with the closest name as a
suggestion), and which flags every one of them takes.
"""
from __future__ import annotations

import re
import sqlite3

from flagdb import store
from flagdb.closure import Index, is_negative, negatable, positive_of
from flagdb.model import CompilerData, Flag
from flagdb.results import BuildEffect, CheckResult, CheckStatus
from flagdb.suggest import Suggester
from warnscope.profiles import profile


#: switches that steer diagnostics rather than name a warning; GCC and clang take them
#: all. ``-pedantic``/``--pedantic`` are here for compilers whose data lacks them
#: (clang's tables hold no driver spellings); a GCC entry knows them as aliases of
#: ``-Wpedantic``, as GCC's option files define them, and its data answers first.
DIAGNOSTIC_CONTROLS = {
    "-Werror": "every warning is an error",
    "-Wno-error": "warnings are not errors",
    "-Wfatal-errors": "stop at the first error",
    "-Wno-fatal-errors": "do not stop at the first error",
    "-w": "no warnings at all",
    "-pedantic": "the same as -Wpedantic",
    "--pedantic": "the same as -Wpedantic",
    "-pedantic-errors": "the -Wpedantic warnings are errors",
}
#: clang's driver options -Rpass=<regex>, -Rpass-missed=<regex>, -Rpass-analysis=<regex>
REMARK_REGEX = re.compile(r"-Rpass(-missed|-analysis)?=.+")
#: -Werror=X / -Wno-error=X: X must be a warning option, named positively
ERROR_FOR = re.compile(r"-W(no-)?error=(.+)")
#: clang also takes -Werror-X / -Wno-error-X for -Werror=X (and warns about an unknown X)
ERROR_DASH_FOR = re.compile(r"-W(no-)?error-(.+)")


def check_flag(index: Index, typed: str) -> CheckResult:
    """What one compiler version does with one flag as typed."""
    data = index.data

    def result(status: CheckStatus, **fields) -> CheckResult:
        fields.setdefault("build", build_effect(data.family, status, typed))
        return CheckResult(flag=typed, compiler=data.compiler, status=status, **fields)

    if typed in DIAGNOSTIC_CONTROLS and typed not in index.flags:
        return result(CheckStatus.KNOWN, description=DIAGNOSTIC_CONTROLS[typed])
    if profile(data.family).clang and REMARK_REGEX.fullmatch(typed):
        return result(CheckStatus.KNOWN, description="optimization remarks of the passes "
                                                     "matching the regular expression")
    m = ERROR_FOR.fullmatch(typed)
    if m is None and profile(data.family).clang and index.resolve(typed) is None:
        m = ERROR_DASH_FOR.fullmatch(typed)
    if m:
        name = "-W" + m.group(2)
        hit = None if m.group(2).startswith("no-") else index.resolve(name)
        if hit is None:
            hint = index.suggest(name)
            if hint:
                return result(CheckStatus.UNKNOWN,
                              suggestion=f"-W{m.group(1) or ''}error={hint[2:]}")
            return result(CheckStatus.UNKNOWN, reason=f"no warning option {name}")
        return result(CheckStatus.KNOWN,
                      description=f"{name} warnings {'are not' if m.group(1) else 'are'} errors")
    negative = typed.startswith("-Wno-")
    hit = index.resolve(typed)
    if hit is None:
        hint = index.suggest(typed)
        positive = index.flags.get("-W" + typed[5:]) if negative else None
        if positive is not None and not positive.takes_argument and not negatable(positive):
            return result(CheckStatus.UNKNOWN, build=BuildEffect.STOPS,
                          reason=f"{positive.name} cannot be negated (RejectNegative): "
                                 f"{data.compiler} rejects {typed}")
        note = None
        if negative and profile(data.family).gcc:
            note = ("GCC accepts an unknown -Wno-… silently (it only complains if another "
                    f"diagnostic is issued); -W{typed[5:]} would be rejected")
        return result(CheckStatus.UNKNOWN, suggestion=hint,
                      reason=None if hint else "no such warning option", note=note)
    flag, value = hit
    if flag.removed:
        return result(CheckStatus.REMOVED, description=flag.description or "removed option")
    if flag.ignored:
        return result(CheckStatus.NOOP, description="accepted, does nothing")
    if value is not None and value != "0" and flag.takes_argument:
        problem = _bad_value(flag, value)
        if problem:
            return result(CheckStatus.BAD_VALUE, description=flag.description, reason=problem)
    if flag.alias_of:
        return result(CheckStatus.ALIAS, description=flag.description,
                      alias_of=alias_spelling(flag, value))
    return result(CheckStatus.KNOWN, description=flag.description)


def build_effect(family: str, status: CheckStatus, typed: str) -> BuildEffect:
    """What a compile does with a flag of this status, as each family's driver does it:
    GCC stops at an unknown or badly valued option (``-Werror=X`` of an unknown X too)
    but takes an unknown ``-Wno-…`` silently (the negation of a RejectNegative switch
    it knows is an error: :func:`check_flag` says so), and warns that a removed switch is no
    longer supported; clang warns about any option it does not know
    (``-Wunknown-warning-option``) and goes on."""
    if status in (CheckStatus.KNOWN, CheckStatus.ALIAS):
        return BuildEffect.APPLIES
    if status is CheckStatus.NOOP:
        return BuildEffect.NO_EFFECT
    if not profile(family).gcc:
        return BuildEffect.WARNS
    if status is CheckStatus.REMOVED:
        return BuildEffect.WARNS
    if status is CheckStatus.UNKNOWN and typed.startswith("-Wno-") and not ERROR_FOR.fullmatch(typed):
        return BuildEffect.SILENT
    return BuildEffect.STOPS


def alias_spelling(flag: Flag, value: str | None) -> str:
    """What an alias stands for as typed: ``-Wno-aligned-new`` is ``-Waligned-new=none``
    (the alias's negative argument), ``-Wno-shadow=global`` is ``-Wno-shadow``."""
    if value == "0":
        if flag.gcc.alias_negative:
            return flag.gcc.alias_negative
        if "=" not in flag.alias_of:
            return flag.alias_of[:2] + "no-" + flag.alias_of[2:]
    return flag.alias_of


def _bad_value(flag: Flag, value: str) -> str | None:
    rng = flag.gcc.range
    if rng:
        lo, hi = rng
        if not value.isdigit() or not lo <= int(value) <= hi:
            return f"{flag.name} takes a level from {lo} to {hi}"
    arg = flag.argument or ""
    if arg.startswith("[") and arg.endswith("]"):
        choices = arg[1:-1].split("|")
        if value not in choices:
            return f"{flag.name} takes one of {', '.join(choices)}"
    return None


def check(datas: list[CompilerData], flags: list[str]) -> list[CheckResult]:
    """The table of every flag against every compiler, flag-major."""
    indexes = [Index(d) for d in datas]
    return [check_flag(index, typed) for typed in flags for index in indexes]


def candidate_names(typed: str) -> list[str]:
    """Every stored name that ``typed`` could resolve to (see :meth:`Index.resolve`;
    for ``-Werror=X`` and clang's ``-Werror-X``, the names of ``-WX`` too)."""
    names = _spellings(typed)
    m = ERROR_FOR.fullmatch(typed) or ERROR_DASH_FOR.fullmatch(typed)
    if m:
        names += _spellings("-W" + m.group(2))
    return names


def _spellings(typed: str) -> list[str]:
    """``typed``, its positive form and the stored name of its level option."""
    names = [typed]
    if is_negative(typed):
        names.append(positive_of(typed))
    if "=" in typed:
        base = typed.partition("=")[0]
        names += [base + "=", positive_of(base) + "="]
    return names


def check_in_db(conn: sqlite3.Connection, compilers: list[str], flags: list[str]) -> list[CheckResult]:
    """:func:`check` reading only the flags asked about (and the names, for suggestions),
    so checking a few flags against many compilers stays fast."""
    wanted = {n for typed in flags for n in candidate_names(typed)}
    names = {compiler: store.flag_names(conn, compiler) for compiler in compilers}
    suggester = Suggester(set().union(*names.values()))
    indexes = [Index(store.load_subset(conn, compiler, wanted), names[compiler], suggester)
               for compiler in compilers]
    return [check_flag(index, typed) for typed in flags for index in indexes]


def portable(results: list[CheckResult]) -> list[str]:
    """Flags every named compiler knows and that do something in each."""
    by_flag: dict[str, list[CheckResult]] = {}
    for r in results:
        by_flag.setdefault(r.flag, []).append(r)
    ok = (CheckStatus.KNOWN, CheckStatus.ALIAS)
    return [f for f, rs in by_flag.items() if all(r.status in ok for r in rs)]


def portable_span(conn, names: list[str]) -> str:
    """What ``--portable``'s list is good for, per family of the compilers asked:
    ``present in every version given (gcc-4.4 … gcc-16)``, and that nothing older than
    the oldest ingested version of a family is known (its history starts there)."""
    from flagdb import store
    from warnscope.compilers import CompilerId, sort_key

    ingested = [r.name for r in store.compilers(conn)]
    parts = []
    for family in dict.fromkeys(CompilerId.parse(n).family for n in sorted(names, key=sort_key)):
        mine = sorted((n for n in names if CompilerId.parse(n).family == family), key=sort_key)
        line = [n for n in ingested if CompilerId.parse(n).family == family]
        span = mine[0] if len(mine) == 1 else f"{mine[0]} … {mine[-1]}"
        older = f"; nothing before {line[0]} is ingested" if line and line[0] == mine[0] else ""
        parts.append(f"{span}{older}")
    return "present in every version given (" + "; ".join(parts) + ")"
