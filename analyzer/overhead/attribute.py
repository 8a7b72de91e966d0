"""Which flags of the ``all`` set carry a project's warning cost (``overhead attribute``).

The workload is the project's top TUs by added CPU (``all`` minus ``off``): from the
latest tu-mode study of the same project, compiler and -O level in the database, or
measured here (each TU once under ``off`` and ``all``). Every probe compiles each of
those TUs alone (:func:`warnscope.tool.run_measured`), and its figure (the *metric*) is
either their summed CPU user+sys (``cpu``, the default) or the instructions cachegrind
counts over them (``instructions``: ``valgrind --tool=cachegrind --cache-sim=no``, about
50 times slower but exact, so one run per probe whatever the machine's load, and the
search threshold is only a share of ``all``'s added instructions). Every figure below is
in the metric's unit (``unit``: ``s`` or ``instructions``).

1. **Baselines**: ``off`` (``-w``) and ``all``, ``runs`` times, interleaved.
2. **Group testing**: the flag set is halved (in its own order); each half is timed
   (``search_runs`` times) and the search recurses into each half whose added cost
   over ``off`` is above the threshold: ``min_share`` of ``all``'s added cost, and
   with ``cpu`` at least the spread of ``off``'s runs and 1 % of ``off``. A single flag above it is a
   suspect; a group above it whose halves are both below it is reported as *diffuse*
   (the cost is spread over its flags, or needs two of them together).
3. **Confirmation** of each suspect, ``runs`` times, interleaved: the flag alone
   (added CPU over ``off``: what it costs by itself) and the full set without it
   (``all`` minus that: what removing it saves, less when other flags share its
   analysis). The confidence interval is the widest the runs allow: [min − max,
   max − min] of the two configurations' run totals (with ``instructions`` the flag
   alone is the search's own exact count of it). With ``--instructions`` (metric
   ``cpu``) the same four configurations are also counted exactly by cachegrind.
4. **Printing vs finding** (GCC): ``all`` + ``-w`` computes every warning and prints
   none. GCC's warning passes are gated on the option variables that the flags set
   (``warn_maybe_uninitialized`` …), and ``-w`` only makes the diagnostic machinery
   drop each warning before it is formatted; so ``all`` minus ``all -w`` is the cost
   of formatting and writing the diagnostics (caret lines, source quoting), and
   ``all -w`` minus ``off`` the cost of finding them. ``-fdiagnostics-plain-output``
   beside it shows how much of the printing is the caret/quoting. clang skips the
   analysis of ignored diagnostics (``-w`` turns the finding off too), so for clang
   only the plain-output comparison is made.
5. **Phases**: each TU once with ``-ftime-report`` under ``off`` and ``all`` (not timed:
   the report has a cost of its own); the phases whose time grows most.

Every probe is stored when measured; rerunning the same parameters resumes.

This module is the procedure; the probes are measured by :mod:`attr_runner`, the
group testing of step 2 is :mod:`attr_search`, and the result types are in
:mod:`analyzer.overhead.results`.
"""
from __future__ import annotations

import json
import os
import shutil
import sqlite3
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from warnscope.database import transaction
from warnscope.errors import BadInput, BuildFailed, NotInstalled
from warnscope.serial import to_json

from analyzer.projects import digest, levels as levels_mod
from analyzer.projects.cell import BuildStatus
from analyzer.overhead import report, store, study
from analyzer.overhead.attr_runner import METRICS, Attributor, Workspace
from analyzer.overhead.attr_search import search, threshold as search_threshold
from analyzer.overhead.experiment import Experiment, machine_facts
from analyzer.projects.recipes import Recipe
from analyzer.overhead.results import (Attribution, FlagCost, Interval, Phase, Printing, Probe, Step,
                                       TuCost)
from analyzer.runtime.progress import Progress, as_progress
from analyzer.runtime.toolchain import Toolchain

PLAIN = {"gcc": ("-fdiagnostics-plain-output",),
         "clang": ("-fno-caret-diagnostics", "-fno-diagnostics-fixit-info", "-fno-color-diagnostics")}
LANGUAGES = ("c", "c++")


@dataclass
class AttrOptions:
    opt: str = "-O2"
    top: int = 10
    runs: int = 3
    search_runs: int = 1
    min_share: float = 0.05
    max_suspects: int = 12
    instructions: bool = False
    metric: str = "cpu"           # what every probe measures: 'cpu' | 'instructions'
    study: int | None = None      # the tu-mode study to take the top TUs from (default: the latest)
    timeout: float = 600.0

    def validate(self) -> None:
        study.Options(opt=self.opt, timeout=self.timeout).validate()
        if self.top < 1 or self.runs < 1 or self.search_runs < 1 or self.max_suspects < 1:
            raise BadInput("--top, --runs, --search-runs and --max-suspects must be at least 1")
        if not 0 < self.min_share < 1:
            raise BadInput("--min-share must be between 0 and 1")
        if self.metric not in METRICS:
            raise BadInput(f"--metric must be one of {', '.join(METRICS)}, not {self.metric!r}")
        if self.instructions and self.metric == "instructions":
            raise BadInput("--instructions adds exact counts to --metric cpu; --metric instructions "
                                 "counts every probe already")
        if (self.instructions or self.metric == "instructions") and shutil.which("valgrind") is None:
            raise NotInstalled("counting instructions needs valgrind, which is not installed "
                                 "(your distribution's valgrind package; Debian: apt-get "
                                 "install valgrind)")


def _interval(a: list[float], b: list[float]) -> Interval:
    """a minus b: median difference, [min a − max b, max a − min b]."""
    return Interval(round(statistics.median(a) - statistics.median(b), 4), round(min(a) - max(b), 4),
                    round(max(a) - min(b), 4))


# ------------------------------------------------------------------ the procedure

def _top_from_study(conn: sqlite3.Connection, project: str, tc: Toolchain, opts: AttrOptions
                    ) -> tuple[int, list[TuCost]] | None:
    """The workload from the latest tu-mode study (``opts.study``: that one) of the same
    project, compiler and -O level: its top TUs by added CPU; None when there is none."""
    for sid in store.tu_studies(conn, project, opts.opt, opts.study):
        cells = [c for c in store.cells(conn, sid, with_tus=True) if c.compiler == tc.name
                 and c.level in ("off", "all") and c.status == BuildStatus.OK]
        if len(cells) == 2:
            top = [t for t in report.top_tus(cells, opts.top) if t.level == "all"]
            return sid, [TuCost(t.tu, t.off_cpu_s, t.cpu_s, t.added_s) for t in top]
    if opts.study is not None:
        raise BadInput(f"study {opts.study} is not a tu-mode study of {project} with {tc.name} "
                             f"off and all at {opts.opt}")
    return None


def run(conn: sqlite3.Connection, recipe: Recipe, source: tuple[Path, str], tc: Toolchain,
        opts: AttrOptions, progress: Progress | Callable[[str], None] = lambda _m: None) -> Attribution:
    """Attribute the cost of ``all`` on ``recipe`` to flags; returns the stored result."""
    progress = as_progress(progress)
    study.refuse_emulated([tc])
    if tc.root is not None and (opts.instructions or opts.metric == "instructions"):
        raise BadInput(f"{tc.name}'s compiles run in the {tc.suite} root, which has no valgrind "
                       "(the host's cannot run there): attribute it with --metric cpu")
    study.root_tools(recipe, [tc], progress)
    tree, origin = source
    all_sets = levels_mod.flags(conn, tc, "all", LANGUAGES, {})
    exact = opts.metric == "instructions"   # one run per probe: --runs and --search-runs do not apply
    params = {"metric": opts.metric, "top": opts.top, "runs": 1 if exact else opts.runs,
              "search_runs": 1 if exact else opts.search_runs, "min_share": opts.min_share,
              "max_suspects": opts.max_suspects, "instructions": opts.instructions, "study": opts.study}
    exp = Experiment(recipe, origin, params, machine_facts([tc]))
    key = exp.key(opt=opts.opt, identity=tc.identity, tree=digest.tree_digest(tree, recipe))
    with transaction(conn):
        fresh = store.find_attribution(conn, key) is None
        attr = store.attribution_id(conn, key, exp.project(conn), tc.name, tc.version, tc.identity, opts.opt,
                                    params, all_sets, exp.machine["host"], exp.machine)
    ws = Workspace(recipe, tree, tc, opts.opt, opts.timeout, progress)
    a = Attributor(conn, attr, ws, tc, all_sets, opts.timeout, progress)
    try:
        return _attribute(conn, attr, recipe, tc, a, opts, progress)
    except BaseException:
        # a build that fails before the first probe (or an interrupt then) leaves the
        # database as it was: an attribution with nothing measured is no result to resume
        if fresh:
            store.discard_empty_attribution(conn, attr)
        raise
    finally:
        ws.close()
        progress.close()


def _attribute(conn: sqlite3.Connection, attr: int, recipe: Recipe, tc: Toolchain, a: Attributor,
               opts: AttrOptions, progress: Progress) -> Attribution:
    name = f"{recipe.name} {tc.name}"
    off_flags, all_flags = ("-w",), tuple(_ordered_union(levels_mod.flags(conn, tc, "all", LANGUAGES, {})))
    chosen = store.attribution_info(conn, attr)["tus"]
    if chosen is None:
        found = _top_from_study(conn, recipe.name, tc, opts)
        if found is not None:
            chosen = {"from": f"study {found[0]}", "tus": [t.__dict__ for t in found[1]]}
        else:
            progress(f"{name}: no tu-mode study at {opts.opt}: ranking every TU (off and all, once)")
            r_off, r_all = a.measure([Probe("rank-off", off_flags), Probe("rank-all", all_flags)], 1, name)
            off_by = {r.tu: r.cpu_s for r in r_off.runs}
            costs = sorted((TuCost(r.tu, round(off_by[r.tu], 4), round(r.cpu_s, 4), round(r.cpu_s - off_by[r.tu], 4))
                            for r in r_all.runs), key=lambda t: -t.added_s)
            chosen = {"from": "measured", "tus": [t.__dict__ for t in costs[:opts.top]]}
        if not chosen["tus"]:
            raise BuildFailed(f"{name}: no TU to attribute")
        store.set_attribution_tus(conn, attr, chosen)
    tus = [TuCost(**t) for t in chosen["tus"]]
    a.names = [t.tu for t in tus]
    a.chosen_from = chosen["from"]

    metric = opts.metric
    runs = opts.runs if metric == "cpu" else 1     # an exact count needs no second run
    progress(f"{name}: baselines off and all over {len(tus)} TUs, {runs} runs, metric {metric}")
    off, all_ = a.measure([Probe("off", off_flags, metric), Probe("all", all_flags, metric)], runs, name)
    off_t, all_t = off.values(), all_.values()
    added = _interval(all_t, off_t)
    off_med = statistics.median(off_t)
    threshold = search_threshold(off_t, added.median, opts.min_share, metric)

    # group testing
    steps: list[Step] = []
    leaves: list[tuple[tuple[str, ...], bool]] = []
    if added.median > threshold:
        found = search(all_flags, off_med, threshold, metric, opts.search_runs, opts.max_suspects, a.measure, name)
        steps, leaves = found.steps, found.leaves
    notes = []
    spread = max(off_t) - min(off_t)
    if metric == "instructions" and added.median <= 0:
        notes.append("not searched: all executes no more instructions than off")
    if metric == "cpu" and added.median <= threshold and spread >= threshold:
        notes.append(f"not searched: off's runs spread by {spread:.3f} s, more than all adds ({added.median:.3f} s);"
                     f" CPU time is this noisy here (load average {os.getloadavg()[0]:.2f}): more --runs or --top,"
                     " or a quieter machine, or --metric instructions (exact)")
    if len(leaves) >= opts.max_suspects:
        notes.append(f"search stopped at {opts.max_suspects} suspects (--max-suspects)")

    # confirmation
    # an exact count of a group alone is the search's own probe of it: counted once
    alone_role = "alone" if metric == "cpu" else "subset"
    alone_probes = [Probe(alone_role, group, metric) for group, _ in leaves]
    without_probes = [Probe("without", tuple(f for f in all_flags if f not in set(group)), metric)
                      for group, _ in leaves]
    measured = a.measure(alone_probes + without_probes, runs, f"{name} confirm") if leaves else []
    n = len(leaves)
    instr: dict[str, int | None] = {}
    if opts.instructions:   # exact counts beside a cpu attribution
        counted = a.measure([Probe(p.role, p.flags, "instructions") for p in [off, all_, *alone_probes, *without_probes]],
                            1, f"{name} instructions")
        instr = {json.dumps([p.role, list(p.flags)]): p.instructions() for p in counted}

    def ins(role: str, flags: tuple[str, ...]) -> int | None:
        return instr.get(json.dumps([role, list(flags)]))

    suspects = []
    for i, (group, diffuse) in enumerate(leaves):
        alone, without = measured[i], measured[n + i]
        alone_i = _interval(alone.values(), off_t)
        ia, io, iall, iw = (ins("alone", group), ins("off", off_flags), ins("all", all_flags),
                            ins("without", without.flags))
        suspects.append(FlagCost(flags=group, diffuse=diffuse, alone=alone_i,
                                 unique=_interval(all_t, without.values()),
                                 alone_share=round(alone_i.median / added.median, 4) if added.median > 0 else 0.0,
                                 warnings_alone=alone.warnings(),
                                 alone_instructions=None if ia is None or io is None else ia - io,
                                 unique_instructions=None if iall is None or iw is None else iall - iw))
    suspects.sort(key=lambda s: -s.alone.median)

    # printing vs finding
    plain_flags = all_flags + PLAIN[tc.family]
    wanted = [Probe("plain", plain_flags, metric)] + ([Probe("quiet", all_flags + ("-w",), metric)]
                                                      if tc.profile.gcc else [])
    pr = a.measure(wanted, runs, f"{name} printing")
    plain_t = pr[0].values()
    quiet_t = pr[1].values() if len(pr) > 1 else None
    printing_i = _interval(all_t, quiet_t) if quiet_t else None
    printing = Printing(
        method=("all vs all -w (found, not printed); all vs -fdiagnostics-plain-output" if quiet_t
                else "clang: -w skips the analysis too; only all vs plain output (no caret, no fix-its)"),
        warnings=all_.warnings(), all=round(statistics.median(all_t), 4),
        quiet=round(statistics.median(quiet_t), 4) if quiet_t else None,
        plain=round(statistics.median(plain_t), 4),
        finding=_interval(quiet_t, off_t) if quiet_t else None, printing=printing_i,
        printing_share=round(printing_i.median / added.median, 4) if printing_i and added.median > 0 else None,
        caret=_interval(all_t, plain_t))

    # phases
    ph_off, ph_all = a.measure([Probe("off", off_flags, "time-report"), Probe("all", all_flags, "time-report")],
                               1, f"{name} phases")
    phase_list = _phases(ph_off, ph_all)

    info = store.attribution_info(conn, attr)
    explained = (round(sum(s.alone.median for s in suspects) / added.median, 4)
                 if added.median > 0 and suspects else None)
    result = Attribution(
        id=attr, project=info["project"], origin=info["origin"], compiler=tc.name,
        compiler_version=tc.version, opt=opts.opt, metric=metric, unit=METRICS[metric], runs=runs,
        search_runs=opts.search_runs if metric == "cpu" else 1,
        host=info["host"], load_average=tuple(round(x, 2) for x in os.getloadavg()),  # type: ignore[arg-type]
        tus_from=chosen["from"], tus=tus, off=[round(x, 4) for x in off_t], all=[round(x, 4) for x in all_t],
        added=added, threshold=round(threshold, 4), flags_searched=len(all_flags),
        probes=len(a.probes), search=steps, suspects=suspects, explained_share=explained,
        off_instructions=ins("off", off_flags), all_instructions=ins("all", all_flags),
        phases=phase_list, printing=printing, machine=info["machine"].get("summary", ""), notes=notes)
    store.finish_attribution(conn, attr, to_json(result))
    return result


def _ordered_union(sets: dict[str, list[str]]) -> list[str]:
    seen: dict[str, None] = {}
    for lang in LANGUAGES:
        for f in sets.get(lang, []):
            seen.setdefault(f, None)
    return list(seen)


def _phases(off: Probe, all_: Probe, n: int = 12) -> list[Phase]:
    """The phases whose CPU grows most from off to all, summed over the TUs."""
    def total(p: Probe) -> dict[str, float]:
        out: dict[str, float] = {}
        for found in p.phases.values():
            for name, (cpu, _wall) in found.items():
                out[name] = out.get(name, 0.0) + cpu
        return out

    a, b = total(off), total(all_)
    rows = [Phase(name, round(a.get(name, 0.0), 3), round(b.get(name, 0.0), 3), round(b.get(name, 0.0) - a.get(name, 0.0), 3))
            for name in set(a) | set(b)]
    rows.sort(key=lambda p: (-p.added_s, -p.all_s, p.name))
    return rows[:n]
