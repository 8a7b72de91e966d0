"""Static analyzers as cells of a study, beside the warning levels: the article's row.

Two levels run an analyzer (:data:`LEVELS`):

* ``analyzer``, the compiler's own: for GCC (10 on) ``-fanalyzer``, a level of the build
  like any other (its flags go where a user puts them and the build is timed as every
  build is); for clang the clang static analyzer, ``clang --analyze`` with the version's
  default checkers;
* ``cppcheck``, the host's (Debian's) cppcheck, whatever the compiler, set up as for a
  build by that compiler: given the macros the compiler predefines for the language
  (and the compile's ``-std=``), as a user sets up cppcheck for a GCC or clang build
  (:func:`write_predefined`), and the files the compile forces in (``-include``) after
  them, in the compiler's order, as one file (:func:`forced_includes`).

The clang static analyzer and cppcheck are not builds: they run over the build's own
compile commands, captured from a build of the same tree by the compiler wrapper (as a
tu-mode study captures them), each source once (libtool compiles a source twice, for the
shared and the static library; the analyzers are run on it once). A round runs them all
as one process tree, ``make -j{jobs}`` of a generated Makefile with one target per
source, in the build sandbox, timed like a build (CPU user+sys of the tree, the kernel's
per-process table); each command's output and exit status go to files of the box.

What an analyzer found is counted as distinct diagnostics (file, line, column, checker,
message): a header's finding shown by every TU that includes it counts once. An
analyzer that is missing, crashes, hangs or prints a line of a shape not understood here
raises :class:`~warnscope.errors.AnalyzerUnavailable`: the cell fails saying so, never
"found nothing".
"""
from __future__ import annotations

import enum
import hashlib
import json
import os
import re
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from warnscope.diagnostics import parse_text
from warnscope.errors import AnalyzerUnavailable, ToolFailed
from warnscope.text import one_line

from analyzer.projects import levels, process
from analyzer.runtime.toolchain import KNOWN_STDS, cppcheck_version, predefined_macros
from analyzer.projects.recipes import is_source

if TYPE_CHECKING:
    from warnscope.accounting import Accountant, ProcessTable
    from warnscope.measure import TreeRun

    from analyzer.projects.sandbox import BuildSandbox
    from analyzer.projects.tus import Tu
    from analyzer.runtime.toolchain import Toolchain


class Analyzer(enum.Enum):
    GCC = "gcc -fanalyzer"
    CLANG = "clang --analyze"
    CPPCHECK = "cppcheck"


#: the levels that run a static analyzer (see the module), named by the levels' module
LEVELS = levels.ANALYZERS
#: GCC's analyzer, from GCC 10 on
GCC_FIRST = 10
#: what the clang static analyzer is given after a compile command's own arguments:
#: its findings as text lines, without caret lines or colours, no compiler warnings, no
#: reproducer files written after a crash
CLANG_ARGS = ("--analyze", "-Xclang", "-analyzer-output=text", "-fno-caret-diagnostics",
              "-fno-color-diagnostics", "-w", "-fno-crash-diagnostics")
#: cppcheck's checks (those of the UB detectors: warnings and portability, inconclusive too)
CPPCHECK_ARGS = ("--enable=warning,portability", "--inconclusive", "--quiet")
CPPCHECK_TEMPLATE = "{file}:{line}:{column}: {severity}: {message} [{id}]"
#: cppcheck's --std values, by a compile's -std= (GNU dialects as their ISO base)
CPPCHECK_STD = re.compile(r"-std=(?:gnu|c|iso9899:(?:19|20))(89|90|99|11|17|18|\+\+\d\d)$")


def analyzer_of(level: str, tc: Toolchain) -> Analyzer | None:
    """The analyzer a level runs for ``tc`` (None: a warning level)."""
    if level == "cppcheck":
        return Analyzer.CPPCHECK
    if level == "analyzer":
        return Analyzer.GCC if tc.profile.gcc else Analyzer.CLANG
    return None


def over_commands(an: Analyzer | None) -> bool:
    """Whether the analyzer runs over the compile commands (not as a build's flags)."""
    return an in (Analyzer.CLANG, Analyzer.CPPCHECK)


def flags(an: Analyzer, tc: Toolchain, languages: Sequence[str]) -> dict[str, list[str]]:
    """The cell's flags per language (stored with it, part of its key): GCC's
    ``-fanalyzer``; the clang analyzer's arguments; cppcheck's version, checks and the
    compiler's predefined macros it is given (``--include=<gcc-12 -dM -E -x c>``: a
    cell stored before cppcheck was given them has a key of its own)."""
    if an is Analyzer.GCC:
        return {lang: ["-fanalyzer"] for lang in languages}
    if an is Analyzer.CLANG:
        return {lang: list(CLANG_ARGS) for lang in languages}
    return {lang: [f"cppcheck-{cppcheck_version() or 'missing'}", *CPPCHECK_ARGS,
                   f"--include=<{tc.name} -dM -E -x {lang}>"] for lang in languages}


def name(an: Analyzer, tc: Toolchain) -> str:
    return {Analyzer.GCC: f"{tc.name} -fanalyzer", Analyzer.CLANG: f"{tc.name} --analyze",
            Analyzer.CPPCHECK: "cppcheck"}[an]


def unavailable(an: Analyzer, tc: Toolchain) -> str | None:
    """Why the analyzer cannot run here, before anything runs (None: it can)."""
    if an is Analyzer.GCC and tc.major < GCC_FIRST:
        return f"{tc.name} has no -fanalyzer (GCC {GCC_FIRST} on)"
    if an is Analyzer.CPPCHECK and shutil.which("cppcheck") is None:
        return "cppcheck is not installed (Debian package cppcheck)"
    if an is Analyzer.CPPCHECK and cppcheck_version() is None:
        return "cppcheck --version did not answer with a version"
    return None


@dataclass(frozen=True)
class Found:
    """What an analyzer reported in one run: distinct findings, and its warning lines."""

    findings: int
    warnings: int


# --------------------------------------------------------------- the commands

def sources(tus: Sequence[Tu]) -> list[Tu]:
    """Each source once: its first compile command (see the module)."""
    seen, out = set(), []
    for tu in tus:
        src = next((a for a in tu.args if is_source(a)), None)
        key = os.path.normpath(os.path.join(tu.cwd, src or tu.name))
        if key not in seen:
            seen.add(key)
            out.append(tu)
    return out


def language(tu: Tu) -> str:
    """cppcheck's language of a TU (and the driver's ``-x``): ``c`` or ``c++``."""
    return "c++" if tu.language == "c++" else "c"


def std_of(tu: Tu) -> str | None:
    """The compile's ``-std=`` (its last, as the driver takes it) when it is one of the
    known standards (:data:`KNOWN_STDS`), else None: the compiler's default."""
    stds = [a for a in tu.args if a.startswith("-std=")]
    return stds[-1] if stds and stds[-1] in KNOWN_STDS else None


def forced_includes(tu: Tu) -> list[str]:
    """The files the compile forces in (``-include F``, ``-includeF``), in its order; a
    relative one from the compile's directory, where GCC looks first."""
    out, args = [], list(tu.args)
    for i, a in enumerate(args):
        if a == "-include" and i + 1 < len(args):
            out.append(args[i + 1])
        elif a.startswith("-include") and len(a) > len("-include") and a != "-include-pch":
            out.append(a[len("-include"):])
    return [os.path.join(tu.cwd, f) for f in out]


def _macros_file(tu: Tu, directory: Path) -> Path:
    std = std_of(tu)
    return directory / f"{language(tu)}{'-' + std[len('-std='):] if std else ''}.h"


def predefined(tu: Tu, directory: Path) -> Path:
    """The file of :func:`write_predefined` that cppcheck is given for ``tu``: the macros
    for its language and standard (``c.h``, ``c++-gnu++17.h``); for a compile that
    forces files in, one that includes those macros and then the forced files
    (``c++-gnu++11-<hash>.h``). One file, because cppcheck 2.10 (simplecpp) reads
    several ``--include=`` files last one first: the compiler's macros, given first,
    would come after a forced header that tests them (cppcheck's own precompiled header
    reaches ``#error "No threading model defined"`` so)."""
    macros, forced = _macros_file(tu, directory), forced_includes(tu)
    if not forced:
        return macros
    digest = hashlib.sha256(json.dumps(forced).encode()).hexdigest()[:16]
    return macros.with_name(f"{macros.stem}-{digest}.h")


def guarded(macros: str, what: str) -> str:
    """A compiler's ``-dM -E`` lines, each ``#define`` kept from redefining a macro the
    command defines (``-D``), as the command's own definitions win over the compiler's
    (a ``-U`` wins in cppcheck either way)."""
    out = []
    for line in macros.splitlines():
        m = re.match(r"#define ([A-Za-z_]\w*)", line)
        if m is None:
            if line.strip():
                raise AnalyzerUnavailable(f"{what} printed {line[:160]!r}, not a #define")
            continue
        out += [f"#ifndef {m[1]}", line, "#endif"]
    return "\n".join(out) + "\n"


def write_predefined(tc: Toolchain, tus: Sequence[Tu], box: BuildSandbox) -> Path:
    """The macros ``tc`` predefines, one file per language and standard of ``tus`` in the
    box (written again each time: the builds could change them), for cppcheck's
    ``--include=``: without them cppcheck stops at a project's test of the compiler
    (cppcheck's own ``#if !defined(__GNUC__)`` / ``#error``). Returns their directory."""
    directory = box.box / "predefined"
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir()
    os.chmod(directory, 0o755)       # read by the build's uid, written by no one but us
    for tu in tus:
        path = _macros_file(tu, directory)
        if not path.exists():
            what = f"{tc.name} -dM -E -x {language(tu)}"
            try:
                macros = predefined_macros(tc, language(tu), std_of(tu))
            except ToolFailed as exc:
                raise AnalyzerUnavailable(f"the macros {tc.name} predefines: {exc}") from None
            path.write_text(guarded(macros, what))
            os.chmod(path, 0o644)
        both = predefined(tu, directory)
        if both != path and not both.exists():
            lines = [f'#include "{_includable(f, tu)}"\n' for f in (str(path), *forced_includes(tu))]
            both.write_text("".join(lines))
            os.chmod(both, 0o644)
    return directory


def _includable(path: str, tu: Tu) -> str:
    """``path`` as the text of an ``#include "…"`` line; a name no such line can hold
    (a quote, a backslash, a control character) makes the cell unavailable, saying so."""
    if '"' in path or "\\" in path or one_line(path) != path:   # one_line: the shared control set
        raise AnalyzerUnavailable(f"{one_line(tu.name)}: -include {one_line(path)}: a file name cppcheck "
                                  "cannot be given in an #include line")
    return path


def argv(an: Analyzer, tc: Toolchain, tu: Tu, macros: Path | None) -> list[str]:
    """The command that analyzes one TU (run in its directory); ``macros``: cppcheck's,
    the directory of :func:`write_predefined` (None for the clang analyzer).

    cppcheck is given what its own ``--project=compile_commands.json`` takes of a command
    (cppcheck 2.10's ``ImportProject::FileSettings::parseCommand``): ``-D``, ``-U``, ``-I``
    and the standard; ``-isystem`` and ``-imacros`` are left out as it leaves them out
    (it passes ``-isystem`` on only in its clang mode). ``-include`` is kept, which that
    import would drop: the file is part of every line the compiler saw (a precompiled
    header's source, a config header); it comes after the compiler's macros in the one
    file :func:`predefined` names."""
    if an is Analyzer.CLANG:
        return [tc.driver(tu.language), *tu.args, *CLANG_ARGS, "-o", "/dev/null"]
    assert an is Analyzer.CPPCHECK and macros is not None
    # the macros and the forced files in one --include= (cppcheck reads -include as -i,
    # a path to ignore, and its file as one more to check)
    keep, args = [f"--include={predefined(tu, macros)}"], list(tu.args)
    for i, a in enumerate(args):
        if a in ("-D", "-U", "-I") and i + 1 < len(args):
            keep += [a, args[i + 1]]
        elif a.startswith(("-D", "-U", "-I")) and len(a) > 2:
            keep.append(a)
        elif CPPCHECK_STD.match(a):
            std = CPPCHECK_STD.match(a)[1]
            keep.append(f"--std={'c++' + std[2:] if std.startswith('++') else 'c' + std}"
                        .replace("c90", "c89").replace("c18", "c17"))
    source = [a for a in args if is_source(a)]
    return ["cppcheck", *CPPCHECK_ARGS, f"--template={CPPCHECK_TEMPLATE}",
            f"--language={language(tu)}", *keep, *source[:1]]


def makefile(an: Analyzer, tc: Toolchain, tus: Sequence[Tu], out: Path, macros: Path | None) -> str:
    """A Makefile with one target per TU: the analyzer's output to ``out/N.log``, its exit
    status to ``out/N.rc`` (the target itself always succeeds: every TU is analyzed);
    ``macros`` as :func:`argv`'s."""
    lines = [".PHONY: all " + " ".join(f"t{i}" for i in range(len(tus))),
             "all: " + " ".join(f"t{i}" for i in range(len(tus)))]
    for i, tu in enumerate(tus):
        words = [tu.cwd, *argv(an, tc, tu, macros)]
        if any(c in w for w in words for c in "\n\r\0"):
            raise AnalyzerUnavailable(f"the compile command of {tu.name} holds a line break")
        cmd = (f"cd {shlex.quote(tu.cwd)} && {shlex.join(words[1:])} "
               f"> {shlex.quote(str(out / f'{i}.log'))} 2>&1; echo $? > {shlex.quote(str(out / f'{i}.rc'))}")
        lines += [f"t{i}:", "\t@" + cmd.replace("$", "$$")]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------- their outputs

#: a clang note (a step of a path) and the lines around diagnostics that are none
_NOTE = re.compile(r"^(?:[^\s:][^:]*?:\d+:(?:\d+:)? note: |In file included from |\s+from |"
                   r"\d+ warnings? (?:and \d+ errors? )?generated\.$)")
#: the checker or check id that ends an analyzer's finding: [core.NullDereference], [uninitvar]
_CHECKER = re.compile(r" \[(?P<id>[A-Za-z][\w.-]*)\]$")


def findings(an: Analyzer, text: str, cwd: str, seen: set[tuple], what: str) -> int:
    """Add the distinct findings of one analyzer's output to ``seen``; returns its
    warning lines. A line of a shape not understood raises :class:`AnalyzerUnavailable`."""
    warnings = 0
    for line in text.splitlines():
        if not line.strip() or _NOTE.match(line):
            continue
        m = parse_text.LOCATED.match(line) or _CPPCHECK_LINE.match(line)
        checker = _CHECKER.search(line)
        if m is None or checker is None:
            d = parse_text.line_diagnostic(line)
            if d is not None and d.option is not None:
                continue   # the driver's own diagnostic (an unused argument), not a finding
            raise AnalyzerUnavailable(f"{what} printed {' '.join(line.split())[:160]!r}, "
                                      "a shape not understood here")
        warnings += 1
        if m["sev"] == "information":
            continue
        if an is Analyzer.CPPCHECK and checker["id"] in CPPCHECK_GAVE_UP:
            raise AnalyzerUnavailable(f"{what} could not analyze {m['file']}: "
                                      f"{' '.join(line[m.start('msg'):].split())[:160]}")
        seen.add((os.path.normpath(os.path.join(cwd, m["file"])), m["line"], m["col"],
                  checker["id"], m["msg"][:checker.start() - m.start("msg")]))
    return warnings


#: cppcheck's reports that it could not analyze a file (its preprocessor stopped at an
#: ``#error``, its parser gave up): not findings of the code, which compiled, but an
#: analyzer that checked nothing there
CPPCHECK_GAVE_UP = frozenset({"preprocessorErrorDirective", "syntaxError", "internalAstError",
                              "cppcheckError", "internalError", "unknownMacro"})
#: cppcheck's lines (its severities are not a compiler's)
_CPPCHECK_LINE = re.compile(r"^(?P<file>[^\s:][^:]*?):(?P<line>\d+):(?P<col>\d+): "
                            r"(?P<sev>error|warning|style|performance|portability|information): (?P<msg>.*)$")


def gcc_findings(text: str, seen: set[tuple]) -> None:
    """Add the distinct ``-Wanalyzer-*`` diagnostics of a build's or a compile's output
    (GCC's -fanalyzer) to ``seen``."""
    for line in text.splitlines():
        d = parse_text.line_diagnostic(line)
        if d is not None and (d.option or "").startswith("-Wanalyzer-"):
            seen.add((d.file, d.line, d.column, d.option, d.message))


def _exit(rc: str, what: str, tu: Tu, log: str) -> None:
    """Raise when one TU's analyzer did not end well (a crash, a signal, an error)."""
    try:
        code = int(rc.strip())
    except ValueError:
        raise AnalyzerUnavailable(f"{what} on {tu.name}: no exit status recorded") from None
    if code == 0:
        return
    lines = log.strip().splitlines()
    first = next((l for l in lines if "error" in l.lower()), lines[0] if lines else "")
    how = f"exit {code}" + (f" (signal {code - 128})" if code > 128 else "")
    raise AnalyzerUnavailable(f"{what} {how} on {tu.name}: {' '.join(first.split())[:200]}")


def run(an: Analyzer, tc: Toolchain, tus: Sequence[Tu], box: BuildSandbox, work: Path, jobs: int,
        timeout: float, accountant: Accountant | None = None, nice: int = 0, sched: str | None = None
        ) -> tuple[TreeRun, ProcessTable | None, Found]:
    """One round: the analyzer over every TU, one measured process tree (see the module)."""
    what = name(an, tc)
    out = box.box / "analysis"
    if out.exists():
        shutil.rmtree(out)
    out.mkdir()
    box.adopt(out)
    mk = box.box / "analysis.mk"     # written again each round: the builds could change it
    mk.unlink(missing_ok=True)
    macros = write_predefined(tc, tus, box) if an is Analyzer.CPPCHECK else None
    mk.write_text(makefile(an, tc, tus, out, macros))
    os.chmod(mk, 0o644)
    log = work / "analysis.log"
    log.unlink(missing_ok=True)
    t, table = process.run_accounted(["make", "-s", "-f", str(mk), f"-j{jobs}"], box.box,
                                     process.build_env(), log, accountant, nice=nice, sched=sched,
                                     timeout=timeout, box=box)
    if t.exit == -1:
        raise AnalyzerUnavailable(f"{what} ran past the timeout ({timeout:g} s)")
    if t.exit != 0:
        raise AnalyzerUnavailable(f"{what}: make exit {t.exit}: "
                                  f"{' '.join(log.read_text(errors='replace').split())[:200]}")
    seen: set[tuple] = set()
    warnings = 0
    for i, tu in enumerate(tus):
        text = box.read(out / f"{i}.log").decode("utf-8", "replace")
        _exit(box.read(out / f"{i}.rc").decode("ascii", "replace"), what, tu, text)
        warnings += findings(an, text, tu.cwd, seen, what)
    return t, table, Found(len(seen), warnings)


def run_tu(an: Analyzer, tc: Toolchain, tu: Tu, log: Path, timeout: float, box: BuildSandbox,
           nice: int = 0, sched: str | None = None) -> tuple[TreeRun, set[tuple], int]:
    """tu mode: the analyzer on one TU, measured alone; (its tree, its distinct findings,
    its warning lines)."""
    what = name(an, tc)
    log.unlink(missing_ok=True)
    macros = write_predefined(tc, [tu], box) if an is Analyzer.CPPCHECK else None
    t = process.run(argv(an, tc, tu, macros), Path(tu.cwd), process.build_env(), log, nice=nice, sched=sched,
                    timeout=timeout, box=box)
    text = log.read_text(errors="replace")
    if t.exit == -1:
        raise AnalyzerUnavailable(f"{what} on {tu.name} ran past the timeout ({timeout:g} s)")
    _exit(str(t.exit), what, tu, text)
    seen: set[tuple] = set()
    return t, seen, findings(an, text, tu.cwd, seen, what)
