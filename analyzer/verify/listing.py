"""A database entry from nothing but the compiler binary, and its verification.

``warnscope flags ingest NAME --from-binary`` for a compiler without sources at hand and
without the GCC plugin (a vendor's GCC, a clang Debian has no tables of): the binary's
own listings (``gcc -Q --help=warnings``, ``clang --print-diagnostic-options``,
``diagtool``) read by :mod:`flagdb.listing`. Every run goes through the one tool runner
with a timeout; the binary is the user's compiler, its output is read as untrusted text.

``flags verify`` of such an entry runs the listings again and compares: the names, every
state each language's listing printed (by default, after ``-Wall``, after ``-Wextra``),
and the edges the entry derived against what ``-Wall`` and ``-Wextra`` change now. A
clang entry read so is verified as every clang entry is (:mod:`analyzer.verify.clang`).
"""
from __future__ import annotations

import os
import re
import tempfile

from flagdb import listing
from flagdb.closure import Index, closure
from flagdb.model import CompilerData
from warnscope import tool
from warnscope.errors import BadInput, NotInstalled
from analyzer.runtime.toolchain import Toolchain
from analyzer.verify.report import Finding, VerifyReport

#: seconds one listing may take
TIMEOUT = 120
#: the scenarios a GCC entry's recorded listing is compared in
SCENARIOS = {"listed": [], "wall": ["-Wall"], "wextra": ["-Wextra"]}


def ingest(tc: Toolchain) -> CompilerData:
    """The entry of ``tc`` (any GCC or clang binary, a cross one too) from its listings."""
    if tc.profile.gcc:
        return ingest_gcc(tc)
    return ingest_clang(tc)


def _version(tc: Toolchain, option: str) -> str:
    argv = [tc.c_driver, option]
    version = tool.run(tc.wrap(argv), timeout=TIMEOUT, what=tool.shown(argv)).stdout.strip()
    if not re.fullmatch(r"[0-9]{1,3}(?:\.[0-9]{1,3}){0,3}", version):
        raise BadInput(f"{tc.c_driver} {option} printed {version[:60]!r}: not a version")
    return version


def ingest_gcc(tc: Toolchain) -> CompilerData:
    """A GCC's entry from ``-Q --help=warnings`` (C and C++, once per option) and the
    help texts of ``--help=warnings``."""
    from analyzer.verify.gcc_q import lister

    version = _version(tc, "-dumpfullversion")
    argv = [tc.c_driver, "--help=warnings"]
    # one line per option: GCC wraps its help at $COLUMNS
    helps = tool.run(tc.wrap(argv), timeout=TIMEOUT, what=tool.shown(argv),
                     env={**os.environ, "COLUMNS": "1000"}).stdout
    source = f"{tc.c_driver} -Q --help=warnings ({tc.version})"
    with lister(tc) as ask, tempfile.TemporaryDirectory() as tmp:
        empty = os.path.join(tmp, "empty.c")
        with open(empty, "w"):
            pass

        def probe(lang: str, flags: list[str]) -> str:
            argv = [tc.driver(lang.lower()), "-fsyntax-only", "-x", lang.lower(), empty, *flags]
            # LC_ALL=C: GCC quotes an option in plain ASCII, as the reader expects
            return tool.run(tc.wrap(argv, ro_binds=(tmp,)), timeout=TIMEOUT, check=False,
                            env={**os.environ, "LC_ALL": "C"},
                            what=tool.shown(argv[:6]) + " -W…").stderr

        return listing.gcc_data(tc.name, version, source, ask, helps, tc.c_driver, probe)


def ingest_clang(tc: Toolchain) -> CompilerData:
    """A clang's entry from diagtool (tree, list-warnings, show-enabled) where it is
    installed, checked against ``--print-diagnostic-options`` (clang 15 and later)."""
    from analyzer.verify.clang import run_on_tty

    version = _version(tc, "-dumpversion")
    major = int(version.split(".")[0])
    printed = None
    if major >= 15:
        argv = [tc.c_driver, "--print-diagnostic-options"]
        printed = listing.parse_print_options(
            tool.run(tc.wrap(argv), timeout=TIMEOUT, what=tool.shown(argv)).stdout, tool.shown(argv))
    diagtool = _diagtool(tc, major)
    if diagtool is None:
        if printed is None:
            raise NotInstalled(f"{tc.name} from the binary needs diagtool-{major} (clang "
                               "before 15 lists its warning groups nowhere else): install "
                               f"clang-tools-{major}, or ingest {tc.name} from its tables")
        remarks = _remark_only(tc, printed)
        source = (f"{tc.c_driver} --print-diagnostic-options ({tc.version}); names only, "
                  f"no diagtool-{major}: members and defaults unknown")
        return listing.clang_names_only(tc.name, version, source, printed, remarks)

    def run(*args: str) -> str:
        argv = [*diagtool, *args]
        return tool.run(tc.wrap(argv), timeout=TIMEOUT, what=tool.shown(argv)).stdout

    what = f"{diagtool[-1]}"
    colours, edges = listing.parse_tree(run_on_tty(tc.wrap([*diagtool, "tree"])))
    if not colours:
        raise BadInput(f"{what} tree printed no coloured group: not diagtool's tree")
    diag_groups = listing.parse_list_warnings(run("list-warnings"), f"{what} list-warnings")
    default = listing.parse_show_enabled(run("show-enabled", "-x", "c", "/dev/null"),
                                         f"{what} show-enabled")
    everything = listing.parse_show_enabled(
        run("show-enabled", "-x", "c", "/dev/null", "-Weverything", "-Reverything"),
        f"{what} show-enabled -Weverything -Reverything")
    groups = sorted(set(colours) | set(printed or []))
    tables = listing.clang_tables(version, groups, edges, diag_groups, default, everything)
    from flagdb.clang_ingest import build

    source = f"{' '.join(diagtool)} tree, list-warnings, show-enabled ({tc.version})"
    return build(tc.name, tables, listing.SOURCE_KIND, source, origin=listing.CLANG_ORIGIN)


def _diagtool(tc: Toolchain, major: int) -> list[str] | None:
    """The diagtool of this clang: beside its driver (``diagtool-16``, ``diagtool``), else
    the toolchain's ``diagtool-N``; None where there is none."""
    folder = os.path.dirname(tc.c_driver)
    for name in (f"diagtool-{major}", "diagtool"):
        beside = os.path.join(folder, name)
        if tc.root is None and os.path.isfile(beside) and os.access(beside, os.X_OK):
            return [beside]
    found = tc.tool(f"diagtool-{major}")
    return [found] if found else None


def _remark_only(tc: Toolchain, groups: list[str]) -> set[str]:
    """The groups clang takes only as ``-R<g>`` (made of remarks): one run with both
    spellings of every group, the rejected ones read from its warnings."""
    tried = [f"-{k}{g}" for g in groups for k in "WR" if g not in ("frame-larger-than",
                                                                   "frame-larger-than=")]
    argv = [tc.c_driver, "-fsyntax-only", "-x", "c", "/dev/null", *tried]
    proc = tool.run(tc.wrap(argv), timeout=TIMEOUT, check=False,
                    what=tool.shown(argv[:5]) + " -W<every group> -R<every group>")
    rejected = set(re.findall(r"unknown (?:warning|remark) option '([^']+)'", proc.stderr))
    return {g for g in groups if f"-W{g}" in rejected and f"-R{g}" not in rejected}


# ------------------------------------------------------------------ verify

def is_listing_entry(data: CompilerData) -> bool:
    """Was the entry read from the binary's listings (``--from-binary`` without plugin)?"""
    return data.source_kind == listing.SOURCE_KIND


def verify_gcc_listing(data: CompilerData, tc: Toolchain) -> VerifyReport:
    """A GCC entry read from ``-Q --help=warnings`` against the binary's listings now."""
    from analyzer.verify.gcc_q import lister

    report = VerifyReport(compiler=data.compiler)
    version = _version(tc, "-dumpfullversion")
    report.compared["version"] = 1
    if version != data.version:
        report.findings.append(Finding("version", data.compiler, data.version, version, None))
    index = Index(data)
    with lister(tc) as ask:
        now = {(lang, sc): listing.parse_gcc_q(ask(lang, flags), f"{tc.c_driver} -Q --help=warnings")
               for lang in listing.LANGS for sc, flags in SCENARIOS.items()}
    names = set(now[("C", "listed")])
    report.compared["names"] = len(names | {f.name for f in data.flags})
    for name in sorted({f.name for f in data.flags} - names):
        report.findings.append(Finding("names", name, "listed when ingested", "not listed", None))
    for name in sorted(names - {f.name for f in data.flags}):
        report.findings.append(Finding("names", name, "not in the entry", "listed", None))
    for (lang, scenario), lines in now.items():
        check = f"{scenario}-{lang.lower()}"
        compared = 0
        base = now[(lang, "listed")]
        if scenario == "listed":
            for f in data.flags:
                recorded = (f.gcc.states.get(lang) or {}).get("listed")
                if recorded is None or f.name not in lines:
                    continue
                compared += 1
                if recorded != lines[f.name].state:
                    report.findings.append(Finding(check, f.name, recorded or "(blank)",
                                                   lines[f.name].state or "(blank)", None))
        else:
            compared = _check_closure(report, check, index, lang, SCENARIOS[scenario], base, lines)
        report.compared[check] = compared
    return report


def _check_closure(report: VerifyReport, check: str, index: Index, lang: str,
                   flags: list[str], base: dict, lines: dict) -> int:
    """What the entry's edges say ``flags`` turn on against the states the listing
    changed: an edge the listing does not show, or a change no edge gives, is a finding.
    One state under two names (``-Warray-bounds``, ``-Warray-bounds=``) counts once, and
    an option on by default shows no change whatever turns it on."""
    predicted = {n: v for n, v in closure(index, flags, lang).items() if listing.is_on(v)}
    changed = {n: listing.value_of(l.state) for n, l in lines.items()
               if base.get(n) is not None and base[n].state != l.state
               and listing.is_on(listing.value_of(l.state))}
    own = set(flags) | {f.partition("=")[0] + "=" for f in flags}

    def twin_in(name: str, found: dict) -> bool:
        other = name[:-1] if name.endswith("=") else name + "="
        return other in found

    for name, value in sorted(predicted.items()):
        if name in own or name in changed or twin_in(name, changed):
            continue
        state = lines.get(name).state if name in lines else "(not listed)"
        if listing.value_of(state) == value or (value == "1" and state == "[enabled]"):
            continue   # on by default: no change to show
        report.findings.append(Finding(check, name, f"turned on ({value})", state or "(blank)", None))
    for name, value in sorted(changed.items()):
        if name in own or name in predicted or twin_in(name, predicted):
            continue
        report.findings.append(Finding(check, name, "not turned on", lines[name].state, None))
    return len(set(predicted) | set(changed))
