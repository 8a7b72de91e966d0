"""Where a cell's added CPU went: by program and by group, and in one line.

A level's CPU beyond its ``off`` cell's (same compiler, same ``inject``, same host) is
split by program name from the kernel's account of every process of the build
(``Cell.by_process``: each program's median over the level's runs minus its median
over ``off``'s), the programs grouped into the compiler's toolchain and the build
system's (:func:`group`), and summed up in one line computed from those figures
(:func:`finding`), e.g. "+12.40 s added (35 % of off): 71 % in the compiler (cc1plus,
as), 22 % in the build system (make, sh), 7 % unattributed". Without that account the
split is the wrapper's (its log of the compiler processes against the rest).

Pure functions over :class:`~analyzer.overhead.results.Cell`: the text report
(:mod:`analyzer.overhead.report`), ``--json`` and the site read the same dataclasses.
"""
from __future__ import annotations

import dataclasses
import re

from analyzer.overhead.results import AddedCpu, Cell, ProcessAdded
from analyzer.projects.cell import BuildStatus

BASE = "off"
#: the two ways a level's flags reach the compiler (``Cell.inject``)
BUILD, WRAPPER = "build", "wrapper"
#: the two groups of programs a build's CPU is split into
COMPILER, BUILD_SYSTEM = "compiler", "build system"
#: programs listed one by one in a cell's added CPU; the rest are summed as "other"
TOP_PROCESSES = 5

#: programs of the compiler toolchain by exact name (drivers, the compilers proper,
#: the assembler and the linker, and cppcheck: an analyzer cell's tool stands where the
#: compiler stands, :mod:`analyzer.overhead.analysis`); anything starting with
#: :data:`COMPILER_PREFIXES` too
COMPILER_PROGRAMS = frozenset({"cc", "c++", "gcc", "g++", "cc1", "cc1plus", "cc1obj", "cc1objplus",
                               "as", "ld", "collect2", "lto1", "lto-wrapper", "clang", "clang++",
                               "cppcheck"})
COMPILER_PREFIXES = ("gcc", "g++", "clang", "cc1", "ld.", "lto")
#: a cross toolchain's target prefix (``x86_64-linux-gnu-gcc-12``), not part of the program's name
_TARGET = re.compile(r"^[A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*-linux-gnu[A-Za-z0-9_]*-")
#: the kernel names a process by the first 15 bytes of its file's name, so a
#: target-prefixed tool is ``x86_64-linux-gn`` whichever it is: the assembler that
#: Debian's GCC 15 and 16 (sid) run by its full name ``x86_64-linux-gnu-as``; a build
#: system runs ``ar`` and ``ranlib`` by their plain names (a cross build, which would
#: run ``aarch64-linux-gnu-ar``, is not a study's)
_TRUNCATED_TARGET = re.compile(r"^[A-Za-z0-9_]+-linux(?:-[A-Za-z0-9_]*)?$")
COMM_LEN = 15


def group(name: str) -> str:
    """:data:`COMPILER` or :data:`BUILD_SYSTEM` for a program name of ``by_process``.
    A script named by its interpreter (``libtool (bash)``) is the build system's, and
    so is every program that is not the compiler toolchain's (make, shells, cmake …),
    the build sandbox's own processes among them (``bwrap (sandbox)``: never the
    compiler's). A target-prefixed name cut at 15 bytes (``x86_64-linux-gn``) is the
    compiler driver's assembler or linker."""
    if " (" in name:
        return BUILD_SYSTEM
    if len(name) == COMM_LEN and _TRUNCATED_TARGET.match(name):
        return COMPILER
    base = _TARGET.sub("", name)
    if base in COMPILER_PROGRAMS or base.startswith(COMPILER_PREFIXES):
        return COMPILER
    return BUILD_SYSTEM


def bases(cells: list[Cell]) -> dict[tuple[str, str], Cell]:
    """The ``off`` cell of each compiler and inject mode that finished."""
    return {(c.compiler, c.inject): c for c in cells if c.level == BASE and c.status == BuildStatus.OK}


def comparable(c: Cell, b: Cell | None) -> str | None:
    """Why ``c`` cannot be compared with its ``off`` cell ``b``; None when it can."""
    if b is not None and (b.host != c.host or "," in (c.host or "")):
        return f"not compared: ran on {c.host}, off on {b.host}"
    return None


def seconds(x: float, sign: bool = True) -> str:
    """Seconds for people: two decimals under 10 s, one above."""
    return f"{x:{'+' if sign else ''}.{2 if abs(x) < 10 else 1}f} s"


def _share(part: float, whole: float) -> str:
    return f"{100 * part / whole:.0f} %"


def _names(programs: list[ProcessAdded], of: str, n: int = 3) -> str:
    """' (cc1plus, as)': the group's programs that added the most CPU."""
    names = [p.name for p in programs if p.group == of and p.added_s > 0][:n]
    return f" ({', '.join(names)})" if names else ""


def finding(a: AddedCpu, programs: list[ProcessAdded]) -> str:
    """The one line of a cell, e.g. '+12.40 s added (35 % of off): 71 % in the compiler
    (cc1plus, as), 22 % in the build system (make, sh), 7 % unattributed': each group's
    share of the tree's added CPU, larger first, with the programs that added most to it.
    ``programs``: every program's figures, largest added first."""
    if a.added_s <= 0:
        return f"{seconds(a.added_s)}: no CPU added over off"
    if a.by_process:
        parts = sorted([(a.compiler_s, f"in the compiler{_names(programs, COMPILER)}"),
                        (a.build_system_s, f"in the build system{_names(programs, BUILD_SYSTEM)}")],
                       key=lambda p: -p[0])
    else:
        parts = [(a.compiler_s, "in the compiler processes"), (a.build_system_s, "in the rest of the build")]
    text = [f"{_share(s, a.added_s)} {where}" for s, where in parts]
    if a.by_process and abs(a.unattributed_s) >= 0.005 * a.added_s:
        text.append(f"{_share(a.unattributed_s, a.added_s)} unattributed")
    of_off = f" ({_share(a.added_s, a.off_s)} of off)" if a.off_s > 0 else ""
    line = f"{seconds(a.added_s)} added{of_off}: " + ", ".join(text)
    return line if a.by_process else line + " (no per-process account)"


def added_cpu(c: Cell, off: Cell, top: int = TOP_PROCESSES) -> AddedCpu | None:
    """Where ``c``'s CPU beyond ``off``'s went (both finished, same compiler and inject);
    None without the figures to say it. By program where both cells have the kernel's
    per-process account, else by the wrapper's compiler/other split."""
    if c.status != BuildStatus.OK or off.status != BuildStatus.OK or not c.cpu_s or not off.cpu_s:
        return None
    added_s = c.cpu_s.median - off.cpu_s.median
    programs: list[ProcessAdded] = []
    if c.by_process is not None and off.by_process is not None:
        for name in dict.fromkeys([*c.by_process, *off.by_process]):
            now, then = c.by_process.get(name), off.by_process.get(name)
            cpu, base = (now.cpu_s.median if now else 0.0), (then.cpu_s.median if then else 0.0)
            programs.append(ProcessAdded(name=name, group=group(name), off_s=base, cpu_s=cpu,
                                         added_s=round(cpu - base, 4),
                                         off_processes=then.processes.median if then else 0.0,
                                         processes=now.processes.median if now else 0.0))
        programs.sort(key=lambda p: (-abs(p.added_s), p.name))
        comp = sum(p.added_s for p in programs if p.group == COMPILER)
        rest = sum(p.added_s for p in programs if p.group == BUILD_SYSTEM)
        by_process = True
    elif c.compiler_cpu_s and off.compiler_cpu_s and c.other_cpu_s and off.other_cpu_s:
        comp = c.compiler_cpu_s.median - off.compiler_cpu_s.median
        rest = c.other_cpu_s.median - off.other_cpu_s.median
        by_process = False
    else:
        return None
    listed, others = programs[:top], programs[top:]
    other = None
    if others:
        groups = {p.group for p in others}
        other = ProcessAdded(name="other", group=groups.pop() if len(groups) == 1 else "mixed",
                             off_s=round(sum(p.off_s for p in others), 4),
                             cpu_s=round(sum(p.cpu_s for p in others), 4),
                             added_s=round(sum(p.added_s for p in others), 4),
                             off_processes=sum(p.off_processes for p in others),
                             processes=sum(p.processes for p in others), programs=len(others))
    a = AddedCpu(compiler=c.compiler, level=c.level, inject=c.inject, off_s=off.cpu_s.median,
                 added_s=round(added_s, 4), compiler_s=round(comp, 4), build_system_s=round(rest, 4),
                 unattributed_s=round(added_s - comp - rest, 4), by_process=by_process,
                 processes=listed, other=other, finding="")
    return dataclasses.replace(a, finding=finding(a, programs))


def added(cells: list[Cell], top: int = TOP_PROCESSES) -> list[AddedCpu]:
    """Where the added CPU went, for every finished cell other than ``off`` that has an
    ``off`` cell of its compiler and inject mode on the same host; in the cells' order."""
    base = bases(cells)
    out = []
    for c in cells:
        b = base.get((c.compiler, c.inject))
        if c.level == BASE or b is None or comparable(c, b):
            continue
        a = added_cpu(c, b, top)
        if a is not None:
            out.append(a)
    return out
