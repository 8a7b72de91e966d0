"""What a study and an attribution have in common: an experiment on one project.

Both are stored under a *key* (a hash of every parameter that changes their figures,
the project, its origin, the digest of its tree (:mod:`analyzer.projects.digest`) and
the host), so rerunning the same parameters finds the
same row and resumes: a study skips its stored cells, an attribution its stored
probes. Both record the machine they ran on, and both compile TUs alone and measure
each compile as a process tree (:func:`compile_tu`), so that a TU's figure in a study
and in an attribution are the same measurement.
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from warnscope import measure

from analyzer.projects import process
from analyzer.overhead import store
from analyzer.projects.recipes import Recipe
from analyzer.projects.tus import Tu
from analyzer.runtime.toolchain import Toolchain

if TYPE_CHECKING:
    from analyzer.projects.sandbox import BuildSandbox


@dataclass(frozen=True)
class Experiment:
    """A study or an attribution of ``recipe`` (from ``origin``) with these ``params``."""

    recipe: Recipe
    origin: str
    params: dict[str, Any]
    machine: dict[str, Any]

    def key(self, **identity: Any) -> str:
        """The experiment's key: its parameters, the project, its origin and the host,
        and ``identity`` (what else tells two experiments of the kind apart)."""
        text = json.dumps({**self.params, "project": self.recipe.name, "origin": self.origin,
                           "host": self.machine["host"], **identity}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()

    def project(self, conn: sqlite3.Connection) -> int:
        """The project's row (created on first use), inside the caller's transaction."""
        r = self.recipe
        kind = "debian" if r.package or r.build_system == "debian" else ("ccdb" if r.build_system == "ccdb" else "local")
        return store.project_id(conn, r.name, kind, self.origin, r.build_system, list(r.languages))


def machine_facts(toolchains: Iterable[Toolchain]) -> dict[str, Any]:
    """The facts stored with an experiment: :func:`warnscope.measure.machine_facts` (the
    one place they are computed) and the compilers' versions."""
    m = measure.machine_facts()
    toolchains = list(toolchains)
    out = {"host": m.host, "cores": m.cores, "kernel": m.kernel, "load": list(m.load_average),
           "summary": str(m), "compilers": {tc.name: tc.version for tc in toolchains}}
    rooted = {tc.name: root_facts(tc) for tc in toolchains if tc.root is not None}
    if rooted:
        out["roots"] = rooted
    return out


def root_facts(tc: Toolchain) -> dict[str, Any]:
    """Where a root compiler's builds ran: the root's suite, the compiler's package and
    the build tools installed there (make, libtool, CMake: ``{package: version}``)."""
    from analyzer.runtime import roots
    root = roots.load(tc.suite or "")
    return {"suite": tc.suite, "package": tc.package, "tools": dict(root.tools) if root else {}}


def count_warnings(path: Path) -> int:
    """Warning lines in a build's output (``file:line:col: warning: …``, ``cc1: warning: …``)."""
    try:
        with open(path, "rb") as fh:
            return sum(line.count(b"warning: ") for line in fh)
    except OSError:
        return 0


def compile_tu(tc: Toolchain, tu: Tu, flags: Sequence[str], obj: Path, log: Path, timeout: float,
               nice: int = 0, sched: str | None = None, wrapper: Sequence[str] = (),
               box: "BuildSandbox | None" = None) -> measure.TreeRun:
    """Compile ``tu`` alone with ``flags`` appended (the last word on warnings), its object
    to ``obj`` and its output to a fresh ``log``, and measure the compile's process tree,
    in the build sandbox ``box``. ``wrapper``: a command the compiler runs under
    (cachegrind counting instructions)."""
    argv = [*wrapper, tc.driver(tu.language), *tu.args, "-o", str(obj), *flags]
    log.unlink(missing_ok=True)
    return process.run(argv, Path(tu.cwd), process.build_env(), log, nice=nice, sched=sched,
                       timeout=timeout, box=box)
