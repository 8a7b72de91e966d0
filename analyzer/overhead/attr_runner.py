"""The runner of an attribution: its workspace (a configured, built private copy of
the project and the TUs its build compiles) and the measuring of probes, each
configuration compiled over the workload's TUs by :func:`experiment.compile_tu`, the
same measurement as a tu-mode study's, and stored when measured.

A probe already stored (a rerun of the same attribution) is read back, never measured
again; a complete resume configures and builds nothing.
"""
from __future__ import annotations

import sqlite3
from contextlib import ExitStack
from pathlib import Path

from warnscope.errors import BadInput, BuildFailed
from warnscope.measure import CACHEGRIND, host, instructions

from analyzer.projects.failure import log_tail
from analyzer.projects.recipes import Recipe
from analyzer.projects.sandbox import BuildSandbox, build_sandbox, mirror_tree
from analyzer.projects.steps import readable_for
from analyzer.projects.workdir import WorkDir
from analyzer.overhead import phases as phases_mod, store, study
from analyzer.overhead import text as oh_text
from analyzer.projects.tus import Tu
from analyzer.overhead.experiment import compile_tu, count_warnings
from analyzer.overhead.results import Probe, StudyCell, TuRun
from analyzer.runtime.progress import Progress
from analyzer.runtime.toolchain import Toolchain

#: metric -> unit (a probe's instrument)
METRICS = {"cpu": "s", "instructions": "instructions"}


class Workspace:
    """A configured, built private copy of the project, made on first need (a complete
    resume needs none), and the TUs to compile."""

    def __init__(self, recipe: Recipe, tree: Path, tc: Toolchain, opt: str, timeout: float,
                 progress: Progress):
        self.recipe, self.tree, self.tc, self.opt, self.timeout = recipe, tree, tc, opt, timeout
        self.progress = progress
        self.work: Path | None = None
        self.box: BuildSandbox | None = None
        self._open = ExitStack()
        self._tus: list[Tu] | None = None

    def tus(self) -> list[Tu]:
        if self._tus is None:
            self.work = self._open.enter_context(WorkDir(f"attr-{self.tc.name}-"))
            # a root compiler's workspace is in its root, as a study's builds are
            self.box = self._open.enter_context(build_sandbox(self.work, readable_for(self.recipe),
                                                              root=self.tc.root))
            if self.recipe.build_system == "ccdb":
                self.box = mirror_tree(self.box, self.tree)
            opts = study.Options(opt=self.opt, timeout=max(self.timeout, 3600.0))
            probe = StudyCell(self.tc.name, "", "", "capture", {})
            tus = study.capture(self.recipe, self.tree, self.tc, opts, self.work, [probe], self.progress,
                                self.box)
            if tus is None:   # the error holds the log's first error line where it has one
                raise BuildFailed(f"{self.recipe.name} {self.tc.name}: {probe.error}")
            (self.box.box / "objects").mkdir()
            self.box.adopt(self.box.box / "objects")
            self._tus = tus
        return self._tus

    def close(self) -> None:
        self._open.close()


class Attributor:
    """Measures an attribution's probes over its workload, resuming from the stored ones."""

    def __init__(self, conn: sqlite3.Connection, attr: int, ws: Workspace, tc: Toolchain,
                 all_sets: dict[str, list[str]], timeout: float, progress: Progress):
        self.conn, self.attr, self.ws, self.tc, self.timeout, self.progress = conn, attr, ws, tc, timeout, progress
        self.all_sets = {lang: set(v) for lang, v in all_sets.items()}
        self.union = {f for v in all_sets.values() for f in v}
        self.probes = store.load_probes(conn, attr)
        self.names: list[str] | None = None   # the TUs of the workload
        self.chosen_from = ""

    def _flags_for(self, flags: tuple[str, ...], language: str) -> list[str]:
        """A configuration's flags for one TU: warning flags of the other language's set dropped."""
        own = self.all_sets.get(language, set())
        return [f for f in flags if f not in self.union or f in own]

    def _compile(self, tu: Tu, flags: list[str], instrument: str, seq: int,
                 index: int) -> tuple[TuRun, dict[str, tuple[float, float]]]:
        assert self.ws.work is not None and self.ws.box is not None
        out = self.ws.work / "tu.log"
        t = compile_tu(self.tc, tu, [*flags, *(["-ftime-report"] if instrument == "time-report" else [])],
                       self.ws.box.box / "objects" / f"{index}.o", out, self.timeout,
                       wrapper=CACHEGRIND if instrument == "instructions" else (), box=self.ws.box)
        if t.exit != 0:
            raise BuildFailed(f"{tu.name} failed to compile with {' '.join(flags[:3])}"
                                 f"{' …' if len(flags) > 3 else ''} (exit {t.exit}): {log_tail(out)[-200:]}")
        data = out.read_bytes()
        refs = instructions(data) if instrument == "instructions" else None
        found = (phases_mod.parse(data.decode(errors="replace"), self.tc.family)
                 if instrument == "time-report" else {})
        return TuRun(tu=tu.name, seq=seq, tree=t, warnings=count_warnings(out), host=host(),
                     instructions=refs), found

    def measure(self, wanted: list[Probe], runs: int, label: str) -> list[Probe]:
        """The probes, measured where not stored yet: ``runs`` rounds, each round every
        probe over every TU (A B A B …); each probe stored after its last round."""
        todo = [p for p in wanted if p.key not in self.probes]
        if todo:
            tus = [t for t in self.ws.tus() if self.names is None or t.name in self.names]
            missing = sorted(set(self.names or ()) - {t.name for t in tus})
            if missing:
                raise BadInput(f"TU {missing[0]} of {self.chosen_from} is not compiled by this build")
            index = {t.name: i for i, t in enumerate(self.ws.tus())}
            rounds = 1 if todo[0].instrument != "cpu" else runs
            self.progress.add_total(rounds * len(todo) * len(tus))
            unit = METRICS.get(todo[0].instrument, "s")
            for seq in range(1, rounds + 1):
                for p in todo:
                    for tu in tus:
                        run, found = self._compile(tu, self._flags_for(p.flags, tu.language), p.instrument,
                                                   seq, index[tu.name])
                        p.runs.append(run)
                        if found:
                            p.phases[tu.name] = found
                        self.progress.advance()
                    if seq == rounds:
                        store.save_probe(self.conn, self.attr, p)
                        self.probes[p.key] = p
                    shown = p.values()[-1] if p.instrument in METRICS else p.totals()[-1]
                    self.progress(f"{label}: {p.role} ({len(p.flags)} flags) run {seq}/{rounds}: "
                                  f"{oh_text.amount(shown, unit)}")
        return [self.probes[p.key] for p in wanted]
