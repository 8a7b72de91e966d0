"""Check a clang :class:`CompilerData` against the installed clang-N and diagtool-N.

The tables in ``libclang-N-dev`` are generated from the same .td files as the
binaries, so every fact we derive from them should be visible in the tools:

``tree``     ``diagtool-N tree`` prints every group with its subgroups. On a terminal
             (only there) it colours a group green when every diagnostic below it is
             on by default, red when there is no diagnostic below it (accepted for GCC
             compatibility), yellow otherwise. We run it under a pseudo-terminal and
             compare names, parent→child edges and colours with our flags.
``warnings`` ``diagtool-N list-warnings`` lists each warning, extension and remark with
             its flag; compared with our messages.
``names``    ``clang-N --print-diagnostic-options`` (clang 15 and later) lists ``-W<g>``
             for every group; compared with our flag names.
``probe``    one run of ``clang-N -Werror=unknown-warning-option`` with both spellings
             ``-W<g>`` and ``-R<g>`` of every group: exactly the spellings we store
             must be accepted, which checks the warning/remark split too.

A tool that is not installed skips its check with an explained note.
"""
from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass

from flagdb.clang_ingest import major_of
from flagdb.listing import parse_tree
from warnscope import tool
from warnscope.errors import BadInput, NotInstalled
from warnscope.profiles import profile
from flagdb.model import CompilerData, Flag
from analyzer.runtime.toolchain import resolve
from analyzer.verify.report import Finding, VerifyReport

#: Left out of the probe: clang's driver takes ``-Wframe-larger-than`` and
#: ``-Wframe-larger-than=`` as its own option ``-Wframe-larger-than=<bytes>`` and fails
#: without a value, which would stop the whole batch.
PROBE_SKIP = {"frame-larger-than", "frame-larger-than="}
#: seconds one diagtool listing or clang run may take
TOOL_TIMEOUT = 120
_UNKNOWN = re.compile(r"unknown (?:warning|remark) option '([^']+)'")


@dataclass
class _Group:
    """What our data says of one clang group, named without its -W/-R prefix."""

    flag: Flag
    children: list[str]


def verify_clang(data: CompilerData) -> VerifyReport:
    """Run every check whose tool is installed; see :attr:`VerifyReport.ok`."""
    if not profile(data.family).clang:
        raise BadInput(f"{data.compiler} is not a clang compiler")
    major = major_of(data.compiler)
    report = VerifyReport(compiler=data.compiler)
    groups = groups_of(data)
    _check_tree(report, major, groups)
    _check_warnings(report, major, data)
    _check_names(report, major, groups)
    _check_probe(report, major, groups)
    return report


def groups_of(data: CompilerData) -> dict[str, _Group]:
    """Every explicit group of ``data`` by name without its -W/-R prefix, with its
    children: what the checks (and :func:`probe_spellings`) compare with the binaries."""
    out: dict[str, _Group] = {}
    for f in data.flags:
        if f.clang.implicit:
            continue
        out[f.name[2:]] = _Group(f, [])
    for e in data.edges:
        out[e.parent[2:]].children.append(e.child[2:])
    return out


def _tool(report: VerifyReport, check: str, name: str, major: int) -> list[str] | None:
    """The command that runs ``name`` of clang ``major``: from PATH, or inside the root of
    a prepared root toolchain (``toolchain add clang-18``); None (check skipped) if absent."""
    try:
        tc = resolve(f"clang-{major}")
    except NotInstalled:
        tc = None
    path = tc.tool(name) if tc is not None else shutil.which(name)
    if path is None:
        report.findings.append(Finding(check, "", name, "not installed", f"{name} not found on PATH: check skipped"))
        return None
    return tc.wrap([path]) if tc is not None else [path]


# ----------------------------------------------------------------------------- tree

def expected_colour(flag: Flag) -> str:
    if flag.ignored:
        return "red"
    return "green" if flag.default == "on" else "yellow"


def run_on_tty(argv: list[str], timeout: float = TOOL_TIMEOUT) -> str:
    """Output of ``argv`` run with a pseudo-terminal as stdout (so tools use colour)."""
    out = tool.run(argv, timeout=timeout, tty=True, check=False,
                   env=dict(os.environ, TERM="xterm"), what=_named(argv))
    return out.stdout.replace("\r", "")


def _named(argv: list[str]) -> str:
    """A tool's command as errors show it: without the bubblewrap wrapping of a root
    toolchain (``diagtool-18 tree``, not ``bwrap … -- /usr/bin/diagtool-18 tree``)."""
    if "--" in argv and os.path.basename(argv[0]) == "bwrap":
        argv = argv[argv.index("--") + 1:]
    return tool.shown(argv)


def _check_tree(report: VerifyReport, major: int, groups: dict[str, _Group]) -> None:
    command = _tool(report, "tree", f"diagtool-{major}", major)
    if not command:
        return
    colours, edges = parse_tree(run_on_tty([*command, "tree"]))
    if not colours:
        report.findings.append(Finding("tree", "", "coloured group tree", "no coloured lines", None))
        return
    report.compared["tree"] = len(groups)
    for name, g in groups.items():
        if name not in colours:
            report.findings.append(Finding("tree", g.flag.name, "present", "absent", None))
        elif colours[name] != expected_colour(g.flag):
            report.findings.append(Finding("tree", g.flag.name, expected_colour(g.flag), colours[name],
                                           _colour_reason(major, g.flag, colours[name])))
    for name in colours.keys() - groups.keys():
        report.findings.append(Finding("tree", "-W" + name, "absent", "present", None))
    ours = {(p, c) for p, g in groups.items() for c in g.children}
    for p, c in sorted(ours - edges):
        report.findings.append(Finding("tree-edge", "-W" + p, f"enables -W{c}", "no such edge", None))
    for p, c in sorted(edges - ours):
        report.findings.append(Finding("tree-edge", "-W" + p, "no such edge", f"enables -W{c}", None))


def _colour_reason(major: int, flag: Flag, colour: str) -> str | None:
    """Why diagtool may colour a group otherwise than :func:`expected_colour`.

    clang 9's ``diagtool tree`` shows a group without diagnostics (an ignored one,
    kept for GCC compatibility) green, not red: "every diagnostic below it is on by
    default" holds vacuously for it (all 39 such groups of clang 9, and no other
    difference). clang 11's diagtool, the next in Debian's archive, shows them red.
    Only that case is explained: an ignored group shown green by clang 9 or older.
    """
    if major <= 9 and flag.ignored and colour == "green":
        return ("clang 9's diagtool colours a group without diagnostics green ('every "
                "diagnostic below it is on' holds vacuously); clang 11 and later red")
    return None


# ----------------------------------------------------------------------------- list-warnings

_WARNING_LINE = re.compile(r"^  (\w+)(?: \[-W(\S*)\])?$")


def _check_warnings(report: VerifyReport, major: int, data: CompilerData) -> None:
    command = _tool(report, "warnings", f"diagtool-{major}", major)
    if not command:
        return
    argv = [*command, "list-warnings"]
    proc = tool.run(argv, timeout=TOOL_TIMEOUT, check=False, what=_named(argv))
    theirs: dict[str, str | None] = {}
    for line in proc.stdout.splitlines():
        if line.startswith("STATISTICS"):
            break
        m = _WARNING_LINE.match(line)
        if m:
            theirs[m.group(1)] = m.group(2)
    ours = {m.diag: m.flag[2:] for m in data.messages if m.diag_class != "ERROR"}
    everything = data.flag("-Weverything")
    ungrouped = everything.clang.ungrouped if everything else []
    ours.update({d: None for d in ungrouped})
    report.compared["warnings"] = len(theirs)
    for diag in sorted(ours.keys() | theirs.keys()):
        mine = _describe(ours, diag)
        other = _describe(theirs, diag)
        if mine != other:
            report.findings.append(Finding("warnings", diag, mine, other, None))


def _describe(flags: dict[str, str | None], diag: str) -> str:
    """How one side files a diagnostic: under ``-W<group>``, with no flag, or not at all."""
    if diag not in flags:
        return "(absent)"
    group = flags[diag]
    return "no flag" if group is None else "-W" + group


# ----------------------------------------------------------------------------- names

def _check_names(report: VerifyReport, major: int, groups: dict[str, _Group]) -> None:
    if major < 15:
        report.findings.append(Finding("names", "", "--print-diagnostic-options", "clang < 15",
                                       "clang before 15 has no --print-diagnostic-options: check skipped"))
        return
    command = _tool(report, "names", f"clang-{major}", major)
    if not command:
        return
    argv = [*command, "--print-diagnostic-options"]
    proc = tool.run(argv, timeout=TOOL_TIMEOUT, check=False, what=_named(argv))
    printed = {l.strip()[2:] for l in proc.stdout.splitlines()
               if l.strip().startswith("-W") and not l.strip().startswith("-Wno-")}
    report.compared["names"] = len(printed)
    for name in sorted(groups.keys() - printed):
        report.findings.append(Finding("names", groups[name].flag.name, "listed", "not listed", None))
    for name in sorted(printed - groups.keys()):
        report.findings.append(Finding("names", "-W" + name, "not a flag", "listed", None))


# ----------------------------------------------------------------------------- probe

def probe_spellings(groups: dict[str, _Group]) -> tuple[list[str], set[str]]:
    """(every spelling to try, the ones that must be accepted)."""
    tried, accepted = ["-Weverything"], {"-Weverything"}
    for name, g in sorted(groups.items()):
        if name in PROBE_SKIP:
            continue
        for spelling in ("-W" + name, "-R" + name):
            tried.append(spelling)
        accepted.add(g.flag.name)
        if g.flag.clang.remarks and g.flag.kind == "warning":
            accepted.add("-R" + name)   # a group with warnings and remarks takes both
    return tried, accepted


def _check_probe(report: VerifyReport, major: int, groups: dict[str, _Group]) -> None:
    command = _tool(report, "probe", f"clang-{major}", major)
    if not command:
        return
    tried, accepted = probe_spellings(groups)
    argv = [*command, "-Werror=unknown-warning-option", "-ferror-limit=0", "-fsyntax-only",
            "-x", "c", "/dev/null", *tried, "-Wno-empty-translation-unit"]
    proc = tool.run(argv, timeout=TOOL_TIMEOUT, check=False,
                    what=_named(argv[:argv.index("/dev/null") + 1]) + " -W<every group>")
    rejected = set(_UNKNOWN.findall(proc.stderr))
    other = [l for l in proc.stderr.splitlines() if "error:" in l and not _UNKNOWN.search(l)]
    report.compared["probe"] = len(tried)
    for line in other:
        report.findings.append(Finding("probe", "", "no other error", line.strip(), None))
    if other:
        return  # the batch did not get as far as checking the options
    for spelling in tried:
        want = spelling in accepted
        got = spelling not in rejected
        if want != got:
            report.findings.append(Finding("probe", spelling, "accepted" if want else "rejected",
                                           "accepted" if got else "rejected", None))
