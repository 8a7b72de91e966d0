"""Running one build step as a measured process tree.

The build command's ``wait4`` rusage covers it and every descendant it waited for
(RUSAGE_CHILDREN semantics for that one child): make, the shells, the compilers.
Output goes to a file, never a terminal (no colours, no terminal speed in the figures).
"""
from __future__ import annotations

import dataclasses
import os
import re
import shutil
import sysconfig
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Mapping

from warnscope.errors import BadInput
from warnscope.text import visible

from warnscope.accounting import Accountant, ProcessCost, ProcessTable
from warnscope.measure import SCHED, TreeRun
from warnscope.tool import run_measured

if TYPE_CHECKING:
    from analyzer.projects.sandbox import BuildSandbox

#: variables that would change what a build compiles or bypass the measured compiler
#: (``CHOST`` makes zlib's configure cross-compile: a cross build sets it itself); a
#: build never takes them from the caller, nor may ``--env`` pass them
SCRUBBED = {"CC", "CXX", "CPP", "CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "MAKEFLAGS", "MFLAGS",
            "MAKELEVEL", "GCC_COLORS", "DISTCC_HOSTS", "CCACHE_PREFIX", "CMAKE_C_COMPILER_LAUNCHER",
            "CMAKE_CXX_COMPILER_LAUNCHER", "CHOST"}
#: what a build takes of the caller's environment, and nothing else: where its programs
#: are, the caller's home and temporary directory (the build sandbox gives its own)
FROM_CALLER = ("PATH", "HOME", "TMPDIR")
#: what warnscope sets in every build's environment itself
OWN = {"CCACHE_DISABLE": "1", "LC_ALL": "C", "LANG": "C"}
#: PATH where the caller has none
DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"
#: the name of a variable as ``--env`` takes it
ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")

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


def build_env(extra: dict[str, str] | None = None, passed: dict[str, str] | None = None
              ) -> dict[str, str]:
    """The environment of every build step, composed, never the caller's: PATH (without
    ccache's and distcc's directories, warnscope's own programs last), HOME and TMPDIR
    (:data:`FROM_CALLER`), C locale (stable diagnostics to count), ccache kept out
    (CCACHE_DISABLE=1); then ``passed``, the caller's variables a user passed by name
    (:func:`passed_env`), and ``extra``, what warnscope sets for the build (CC, CFLAGS, a
    cross build's CHOST, the wrapper's variables). A token, a key or a password in the
    caller's environment never reaches a configure script, which could write it into a
    ``config.h`` or a log that is stored, printed and published."""
    env = {k: os.environ[k] for k in FROM_CALLER if k in os.environ}
    path = [p for p in env.get("PATH", DEFAULT_PATH).split(":")
            if p and "ccache" not in p and "distcc" not in p]
    env.update(PATH=":".join([*path, *own_tools()]), **OWN)
    env.update(passed or {})
    env.update(extra or {})
    return env


def passed_env(names: Iterable[str], environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The caller's variables ``names`` (``--env NAME``) with their values, for
    :func:`build_env`: one line where a name is not a variable's name, is one warnscope
    sets itself or keeps out (``CC``, ``CFLAGS``, ``PATH``: :data:`SCRUBBED`), or is not
    set."""
    environ = os.environ if environ is None else environ
    out: dict[str, str] = {}
    for name in names:
        if not ENV_NAME.fullmatch(name):
            raise BadInput(f"--env {visible(name)[:80]!r}: not a variable's name (letters, digits, _)")
        if name in SCRUBBED or name in FROM_CALLER or name in OWN or name.startswith(
                ("WARNSCOPE_", "DISTCC_")):
            raise BadInput(f"--env {name}: warnscope sets or keeps out {name} in a build itself")
        if name not in environ:
            raise BadInput(f"--env {name}: not set in this environment")
        out[name] = environ[name]
    return out


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
