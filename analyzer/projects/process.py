"""Running one build step as a measured process tree.

The build command's ``wait4`` rusage covers it and every descendant it waited for
(RUSAGE_CHILDREN semantics for that one child): make, the shells, the compilers.
Output goes to a file, never a terminal (no colours, no terminal speed in the figures).
"""
from __future__ import annotations

import dataclasses
import os
import shutil
import sysconfig
from pathlib import Path
from typing import TYPE_CHECKING

from warnscope.errors import BadInput

from warnscope.accounting import Accountant, ProcessCost, ProcessTable
from warnscope.measure import SCHED, TreeRun
from warnscope.tool import run_measured

if TYPE_CHECKING:
    from analyzer.projects.sandbox import BuildSandbox

#: variables that would change what a build compiles or bypass the measured compiler
#: (``CHOST`` makes zlib's configure cross-compile: a cross build sets it itself)
SCRUBBED = {"CC", "CXX", "CPP", "CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "MAKEFLAGS", "MFLAGS",
            "MAKELEVEL", "GCC_COLORS", "DISTCC_HOSTS", "CCACHE_PREFIX", "CMAKE_C_COMPILER_LAUNCHER",
            "CMAKE_CXX_COMPILER_LAUNCHER", "CHOST"}


#: one measured process tree (:class:`warnscope.measure.TreeRun`)
Timed = TreeRun


def own_tools() -> list[str]:
    """The directory of the programs installed with warnscope (Meson and ninja, which a
    Meson project's build runs), last on a build's PATH: a system's own come first."""
    scripts = sysconfig.get_path("scripts")
    return [scripts] if scripts and os.path.isdir(scripts) else []


def own_prefix() -> list[str]:
    """What a build must be able to read to run :func:`own_tools` (their installation:
    a virtual environment's whole tree)."""
    prefix = sysconfig.get_path("data")
    return [prefix] if own_tools() and prefix and prefix != "/usr" else []


def which(program: str) -> str | None:
    """``program`` as a build step finds it (:func:`build_env`'s PATH)."""
    return shutil.which(program, path=build_env()["PATH"])


def build_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of every build step: ccache and distcc kept out (their PATH
    directories dropped, CCACHE_DISABLE=1), C locale (stable diagnostics to count)."""
    env = {k: v for k, v in os.environ.items()
           if k not in SCRUBBED and not k.startswith(("WARNSCOPE_BUILD_", "DISTCC_"))}
    path = [p for p in env.get("PATH", "/usr/bin:/bin").split(":")
            if p and "ccache" not in p and "distcc" not in p]
    env.update(PATH=":".join([*path, *own_tools()]), CCACHE_DISABLE="1", LC_ALL="C", LANG="C")
    env.update(extra or {})
    return env


def ended(t: Timed, timeout: float | None) -> str:
    """How a step ended, as its failure says it: ``exit 2``, ``timed out after 60 s``."""
    if t.exit == -1:
        return f"timed out after {timeout:g} s" if timeout else "timed out"
    return f"exit {t.exit}"


def validate_sched(nice: int, sched: str | None) -> None:
    if not -20 <= nice <= 19:
        raise BadInput(f"--nice {nice}: expected -20 … 19")
    if sched is not None and SCHED.get(sched) is None:
        raise BadInput(f"--sched {sched}: expected batch or idle (on Linux)")


def run(command: str | list[str], cwd: Path, env: dict[str, str], output: Path,
        nice: int = 0, sched: str | None = None, timeout: float | None = None,
        box: "BuildSandbox | None" = None) -> Timed:
    """Run a build step (a shell string or argv) in ``cwd``, its output appended to
    ``output``, and measure its process tree (:func:`warnscope.tool.run_measured`); with
    ``box``, the step runs in that build sandbox (:mod:`analyzer.projects.sandbox`)."""
    return run_accounted(command, cwd, env, output, None, nice=nice, sched=sched, timeout=timeout,
                         box=box)[0]


def run_accounted(command: str | list[str], cwd: Path, env: dict[str, str], output: Path,
                  accountant: Accountant | None, nice: int = 0, sched: str | None = None,
                  timeout: float | None = None, box: "BuildSandbox | None" = None
                  ) -> tuple[Timed, ProcessTable | None]:
    """:func:`run`, and with an ``accountant`` the table of every process of the tree
    (by program name, from the kernel's account of each), read once its root is reaped."""
    argv = ["/bin/sh", "-c", command] if isinstance(command, str) else command
    if box is not None:
        argv, env = box.argv(argv, cwd), box.env(env)
    tables: list[ProcessTable] = []

    def reaped(pid: int, usage: TreeRun) -> None:
        table = accountant.table(pid, usage.cpu)
        tables.append(table if box is None else sandbox_named(table))

    t = run_measured(argv, cwd=cwd, env=env, output=output, nice=nice, sched=sched,
                     timeout=timeout, on_reaped=reaped if accountant is not None else None,
                     terminate=None if box is None else box.terminate)
    return t, (tables[0] if tables else None)


def sandbox_named(table: ProcessTable) -> ProcessTable:
    """``table`` with the build sandbox's own processes named as such (``bwrap
    (sandbox)``, ``init (sandbox)``, ``setpriv (sandbox)``:
    :data:`analyzer.projects.sandbox.SANDBOX_NAMES`), so that no reader takes them for a
    program of the build's, nor the compiler's; the sum, and so the residual, unchanged."""
    from analyzer.projects.sandbox import SANDBOX_NAMES
    merged: dict[str, tuple[float, int]] = {}
    for row in table.by_name:
        name = SANDBOX_NAMES.get(row.name, row.name)
        cpu, procs = merged.get(name, (0.0, 0))
        merged[name] = (cpu + row.cpu_s, procs + row.processes)
    rows = tuple(sorted((ProcessCost(n, c, k) for n, (c, k) in merged.items()),
                        key=lambda c: (-c.cpu_s, c.name)))
    return dataclasses.replace(table, by_name=rows)
