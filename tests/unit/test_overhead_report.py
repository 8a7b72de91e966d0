"""The overhead report's arithmetic and rendering on hand-made cells (no compiler runs):
ratios only within one host and one inject mode, where the added CPU went by program and
group and the one-line finding, both modes side by side, a study without finished cells."""
from __future__ import annotations

import csv
import dataclasses
import io
import json

import pytest

from analyzer.overhead import breakdown, csvreport, markdown, report
from analyzer.overhead import text as oh_text
from analyzer.overhead.results import Cell, Figures, ProcessFigures, Probe, Study, TuRun
from warnscope.measure import TreeRun
from warnscope.serial import to_json

INFO = Study(id=1, project="p", origin="p_1.0", mode="build", opt="-O2", runs=1, jobs=2, nice=0, sched=None,
             noise=0.05, host="a", machine={"summary": "test"}, started_at="2026-01-01T00:00:00+00:00")


def cell(level: str, host: str, cpu: float, status: str = "ok", inject: str = "wrapper",
         by_process: dict[str, ProcessFigures] | None = None, compiler_cpu: float | None = None) -> Cell:
    mmm = Figures(cpu, cpu, cpu)
    comp = cpu if compiler_cpu is None else compiler_cpu
    return Cell(study=1, project="p", mode="build", opt="-O2", compiler="gcc-12", compiler_version="12.2.0",
                level=level, inject=inject, flags=[], flags_by_language={}, status=status, runs=1,
                cpu_s=mmm, user_s=mmm, by_process=by_process,
                sys_s=Figures(0, 0, 0), wall_s=mmm, compiler_cpu_s=Figures(comp, comp, comp),
                other_cpu_s=Figures(cpu - comp, cpu - comp, cpu - comp),
                compilers=1, maxrss_kb=1, warnings=0, noisy=False, spread=0.0, max_load=0.0, host=host,
                error=None if status == "ok" else "build failed")


def test_no_cross_host_ratios():
    """A cell measured on another host than its compiler's off cell gets no ratio."""
    same = report.rows([cell("off", "a", 1.0), cell("all", "a", 1.5)])
    assert same[1].ratio == 1.5
    other = report.rows([cell("off", "a", 1.0), cell("all", "b", 1.5)])
    assert other[1].ratio is None and "not compared" in other[1].error


def test_a_noisy_row_says_its_spread_and_load():
    """A noisy cell's row carries both figures that can mark it, in the text and JSON;
    a quiet one says nothing."""
    loud = dataclasses.replace(cell("all", "a", 1.5), noisy=True, spread=0.0712, max_load=5.84)
    rep = report.report(INFO, [cell("off", "a", 1.0), loud])
    assert oh_text.noisy(rep.rows[0]) == "" and oh_text.noisy(rep.rows[1]) == "spread 7.1 %, load 5.8"
    lines = oh_text.render(rep).splitlines()
    row = {line.split()[1]: line for line in lines if line.startswith("gcc-12 ")}
    assert row["all"].endswith("noisy (spread 7.1 %, load 5.8)") and "noisy" not in row["off"]
    row_json = json.loads(to_json(rep))["rows"][1]
    assert (row_json["spread"], row_json["max_load"]) == (0.0712, 5.84)


def test_json_is_the_results():
    """``report --json`` is the serialisation of the typed report: the study, the rows
    with their figures as {min, median, max}, the top TUs."""
    rep = report.report(INFO, [cell("off", "a", 1.0), cell("all", "a", 1.5)])
    out = json.loads(to_json(rep))
    assert {"study", "rows", "top_tus"} <= set(out)  # the report's keys stay; new ones are added
    assert out["study"]["machine"] == {"summary": "test"} and out["study"]["id"] == 1
    assert out["rows"][1]["cpu_s"] == {"min": 1.5, "median": 1.5, "max": 1.5}
    assert out["rows"][1]["ratio"] == 1.5 and out["rows"][1]["ratio_min"] == 1.5
    assert out["rows"][1]["inject"] == "wrapper" and out["modes"] == []
    # the sentence is the text renderer's; JSON holds the figures it is made from
    assert "finding" not in out["added"][0] and out["added"][0]["added_s"] == 0.5
    assert rep.added[0].finding.startswith("+0.50 s added (50 % of off)")


def test_figures_are_measures_stats():
    assert Figures.of([]) is None
    assert Figures.of([3.0, 1.0, 2.00049]) == Figures(1.0, 2.0, 3.0)
    assert Figures.of([1.23456], 4) == Figures(1.2346, 1.2346, 1.2346)


#: each format's renderer, as ``overhead report --format`` chooses it
RENDER = {"text": oh_text.render, "markdown": markdown.render, "csv": csvreport.render, "json": to_json}


@pytest.mark.parametrize("fmt", ["text", "markdown", "csv", "json"])
def test_render_without_cells(fmt):
    """A study whose cells all failed to start renders (the CLI refuses an empty one before)."""
    out = RENDER[fmt](report.report(INFO, []))
    if fmt == "json":
        assert json.loads(out)["rows"] == [] and json.loads(out)["added"] == []
    elif fmt == "csv":
        assert list(csv.reader(io.StringIO(out))) == [csvreport.CSV_FIELDS]
    else:
        assert "compiler" in out and "gcc-12" not in out


def test_tu_report_says_compiler_only():
    """A tu-mode study times compilers alone: no split of the added CPU, and the report says so."""
    tu = dataclasses.replace(INFO, mode="tu")
    rep = report.report(tu, [cell("off", "a", 1.0), cell("all", "a", 1.5)])
    assert rep.added == [] and rep.rows[1].ratio == 1.5
    assert oh_text.TU_NOTE in oh_text.render(rep) and oh_text.TU_NOTE in markdown.render(rep)
    assert oh_text.TU_NOTE not in oh_text.render(report.report(INFO, []))


def test_render_failed_cell():
    cells = [cell("off", "a", 1.0), cell("all", "a", 0.0, "failed")]
    assert "gcc-12 all: build failed" in oh_text.render(report.report(INFO, cells))
    rows = list(csv.DictReader(io.StringIO(csvreport.render(report.report(INFO, cells)))))
    assert [r["error"] for r in rows] == ["", "build failed"]  # not lost when the first row has none
    assert [r["inject"] for r in rows] == ["wrapper", "wrapper"]


def test_probe_values_by_metric():
    """A probe's figure is its metric's: CPU seconds per run, or one exact count as an int."""
    def r(tu: str, seq: int, cpu: float, instr: int | None) -> TuRun:
        return TuRun(tu, seq, TreeRun(user=cpu, sys=0.0, wall=cpu, maxrss_kb=1), 0, "h", instr)

    cpu = Probe("off", ("-w",), "cpu", [r("a", 1, 1.0, None), r("b", 1, 0.5, None), r("a", 2, 1.25, None),
                                         r("b", 2, 0.5, None)])
    assert cpu.values() == [1.5, 1.75]
    exact = Probe("off", ("-w",), "instructions", [r("a", 1, 9.0, 1_000), r("b", 1, 9.0, 234)])
    assert exact.values() == [1_234] and isinstance(exact.values()[0], int)


def test_render_instructions_attribution():
    """An attribution by instructions shows counts, with no [min, max] range (one exact run)."""
    from analyzer.overhead import results as at

    exact = at.Interval(176_709_980, 176_709_980, 176_709_980)
    a = at.Attribution(
        id=1, project="p", origin="p_1", compiler="gcc-12", compiler_version="12.2.0", opt="-O3",
        metric="instructions", unit="instructions", runs=1, search_runs=1, host="h", load_average=(14.0, 13.0, 12.0),
        tus_from="study 1", tus=[at.TuCost("a.c", 0.3, 0.5, 0.2)], off=[4_326_171_765], all=[4_502_881_745],
        added=exact, threshold=8_835_499, flags_searched=308, probes=9,
        search=[at.Step(1, 154, "-Wa", "-Wb", 170_000_000, True)],
        suspects=[at.FlagCost(("-Wa",), False, exact, exact, 1.0, 3)], explained_share=1.0,
        off_instructions=None, all_instructions=None, phases=[], printing=None, machine="m")
    text = oh_text.render_attribution(a)
    assert "off 4,326,171,765 instr, all adds +176,709,980 instr;" in text
    assert "metric: instructions executed" in text and "intervals" not in text
    assert "-Wa" in text and "+170,000,000 instr *" in text and "of all's added instructions" in text


# ------------------------------------------------------------------ where the added CPU went

def procs(cpu: dict[str, tuple[float, int]]) -> dict[str, ProcessFigures]:
    """``by_process`` of a cell from {name: (cpu s, processes)}, one run (min = median =
    max), largest CPU first as stored."""
    return {name: ProcessFigures(cpu_s=Figures(s, s, s), processes=Figures(n, n, n))
            for name, (s, n) in sorted(cpu.items(), key=lambda kv: -kv[1][0])}


OFF_PROCS = procs({"cc1": (6.0, 40), "as": (1.0, 40), "make": (1.0, 3), "sh": (1.0, 60), "ld": (0.5, 1)})
ALL_PROCS = procs({"cc1": (10.0, 40), "as": (1.2, 40), "make": (1.6, 3), "sh": (2.0, 60), "ld": (0.5, 1),
                   "libtool (bash)": (0.3, 20), "sed": (0.1, 5), "perl": (0.05, 1)})


def test_group():
    """The compiler's toolchain (drivers, compilers proper, assembler, linker) against
    everything else, scripts named by their interpreter included."""
    for name in ("cc1", "cc1plus", "cc1obj", "as", "ld", "ld.gold", "collect2", "lto1", "lto-wrapper", "gcc-12",
                 "g++-12", "clang-16", "clang", "clang++", "gcc", "x86_64-linux-gnu-gcc-12", "cc"):
        assert breakdown.group(name) == breakdown.COMPILER, name
    for name in ("make", "sh", "dash", "bash", "libtool (bash)", "cmake", "ninja", "perl", "python3", "sed",
                 "awk", "configure (sh)", "gcc-wrapper.sh (bash)", "asm-gen"):
        assert breakdown.group(name) == breakdown.BUILD_SYSTEM, name


def test_ratios_match_off_of_the_same_inject():
    """A build cell is compared with the build ``off``, a wrapper cell with the wrapper
    ``off``: flags through the build system can make ``off`` itself cost more."""
    cells = [cell("off", "a", 10.0, inject="build"), cell("off", "a", 8.0), cell("all", "a", 15.0, inject="build"),
             cell("all", "a", 12.0)]
    got = {(r.level, r.inject): r.ratio for r in report.rows(cells)}
    assert got == {("off", "build"): 1.0, ("off", "wrapper"): 1.0, ("all", "build"): 1.5, ("all", "wrapper"): 1.5}
    # no off of its own mode: no ratio (never the other mode's off)
    alone = report.rows([cell("off", "a", 8.0), cell("all", "a", 15.0, inject="build")])
    assert alone[1].ratio is None and alone[1].inject == "build"
    assert breakdown.added([cell("off", "a", 8.0), cell("all", "a", 15.0, inject="build")]) == []


def test_added_by_process():
    """Each program's median minus off's (0 where off did not run it), largest first
    by size, the programs past the top summed as "other"; the groups over all programs."""
    off = cell("off", "a", 9.6, by_process=OFF_PROCS, compiler_cpu=7.5)
    lvl = cell("all", "a", 15.9, by_process=ALL_PROCS, compiler_cpu=11.7)
    [a] = breakdown.added([off, lvl], top=3)
    assert (a.compiler, a.level, a.inject, a.by_process) == ("gcc-12", "all", "wrapper", True)
    assert a.added_s == 6.3 and a.off_s == 9.6
    assert [(p.name, p.added_s) for p in a.processes] == [("cc1", 4.0), ("sh", 1.0), ("make", 0.6)]
    assert (a.processes[0].off_s, a.processes[0].cpu_s, a.processes[0].processes) == (6.0, 10.0, 40)
    o = a.other
    assert o is not None and (o.name, o.programs, o.group) == ("other", 5, "mixed")
    assert o.added_s == pytest.approx(0.65) and o.off_s == 1.5 and o.processes == 67
    new = next(p for p in breakdown.added([off, lvl], top=10)[0].processes if p.name == "libtool (bash)")
    assert (new.off_s, new.cpu_s, new.off_processes, new.group) == (0.0, 0.3, 0, breakdown.BUILD_SYSTEM)
    assert a.compiler_s == 4.2 and a.build_system_s == pytest.approx(2.05)
    assert a.unattributed_s == pytest.approx(0.05)
    assert breakdown.added([off, lvl], top=8)[0].other is None


def test_finding_line():
    """The line is computed from the figures: the added seconds, their share of off, each
    group's share with the programs that added most, and what the table leaves over."""
    off = cell("off", "a", 9.6, by_process=OFF_PROCS, compiler_cpu=7.5)
    lvl = cell("all", "a", 15.9, by_process=ALL_PROCS, compiler_cpu=11.7)
    [a] = breakdown.added([off, lvl])
    assert a.finding == ("+6.30 s added (66 % of off): 67 % in the compiler (cc1, as), "
                         "33 % in the build system (sh, make, libtool (bash)), 1 % unattributed")
    # the build system first where it added more
    heavy = cell("all", "a", 12.6, by_process=procs({"cc1": (6.5, 40), "as": (1.0, 40), "make": (1.0, 3),
                                                     "sh": (3.5, 60), "ld": (0.5, 1)}))
    assert breakdown.added([off, heavy])[0].finding == ("+3.00 s added (31 % of off): 83 % in the build system (sh), "
                                                     "17 % in the compiler (cc1)")
    less = cell("all", "a", 9.5, by_process=OFF_PROCS)
    assert breakdown.added([off, less])[0].finding == "-0.10 s: no CPU added over off"


def test_cell_without_by_process():
    """Without the kernel's per-process account (either cell), the finding falls back on the
    wrapper's compiler/other split, says so, and lists no program."""
    off = cell("off", "a", 10.0, compiler_cpu=8.0)
    lvl = cell("all", "a", 14.0, by_process=ALL_PROCS, compiler_cpu=11.0)
    [a] = breakdown.added([off, lvl])
    assert not a.by_process and a.processes == [] and a.other is None
    assert (a.compiler_s, a.build_system_s, a.unattributed_s) == (3.0, 1.0, 0.0)
    assert a.finding == ("+4.00 s added (40 % of off): 75 % in the compiler processes, "
                         "25 % in the rest of the build (no per-process account)")
    text = oh_text.render(report.report(INFO, [off, lvl]))
    assert "gcc-12 all: +4.00 s added" in text and "[compiler]" not in text


def test_both_modes():
    """A study holding both modes: the two ratios side by side per compiler x level, and
    what passing the flags through the build costs over the wrapper's compiler-only view;
    the text names each cell's mode and lists its added CPU by program."""
    cells = [cell("off", "a", 9.6, inject="build", by_process=OFF_PROCS, compiler_cpu=7.5),
             cell("off", "a", 9.6, by_process=OFF_PROCS, compiler_cpu=7.5),
             cell("all", "a", 15.9, inject="build", by_process=ALL_PROCS, compiler_cpu=11.7),
             cell("all", "a", 13.6, by_process=procs({"cc1": (10.0, 40), "as": (1.0, 40), "make": (1.0, 3),
                                                     "sh": (1.0, 60), "ld": (0.5, 1)}), compiler_cpu=11.5)]
    rep = report.report(INFO, cells)
    [m] = rep.modes
    assert (m.compiler, m.level, m.build_ratio, m.wrapper_ratio) == ("gcc-12", "all", 1.6562, 1.4167)
    assert m.through_build == pytest.approx(0.2395) and m.through_build_s == pytest.approx(2.3)
    assert (m.build_added_s, m.wrapper_added_s) == (6.3, 4.0)
    text = oh_text.render(rep)
    assert "1.656 (1.656–1.656)" in text and "1.417 (1.417–1.417)" in text and "+23.9 % of off, +2.30 s" in text
    assert "gcc-12 all (build): +6.30 s added (66 % of off)" in text
    assert "gcc-12 all (wrapper): +4.00 s added (42 % of off): 100 % in the compiler (cc1)" in text
    assert "other (3 programs)" in text and "libtool (bash)" in text
    lines = text.splitlines()
    start = lines.index("gcc-12 all (build): " + rep.added[0].finding)
    assert len([ln for ln in lines[start + 1:start + 7] if ln.startswith("  ")]) == 6  # top 5 + the rest
    md = markdown.render(rep)
    assert "| gcc-12 | all | 1.656 (1.656–1.656) | 1.417 (1.417–1.417) |" in md
    out = json.loads(to_json(rep))
    assert [r["inject"] for r in out["rows"]] == ["build", "wrapper", "build", "wrapper"]
    assert out["modes"][0]["through_build_s"] == pytest.approx(2.3)
    assert [a["inject"] for a in out["added"]] == ["build", "wrapper"]
    assert out["added"][0]["processes"][0] == {"name": "cc1", "group": "compiler", "off_s": 6.0, "cpu_s": 10.0,
                                               "added_s": 4.0, "off_processes": 40, "processes": 40,
                                               "programs": 1}
    # one mode only: no comparison, and no mode in the labels
    single = oh_text.render(report.report(INFO, cells[1::2]))
    assert "through the build" not in single and "gcc-12 all: +4.00 s" in single


def test_how_says_the_warm_ups_and_runs():
    """The report's title says how many uncounted rounds came before the counted ones."""
    assert INFO.how == "whole build, make -j2, 1 run after a warm-up"
    assert dataclasses.replace(INFO, runs=3, warmups=0).how == "whole build, make -j2, 3 runs, no warm-up"
    assert dataclasses.replace(INFO, warmups=2).how == "whole build, make -j2, 1 run after 2 warm-ups"
    assert dataclasses.replace(INFO, mode="tu", runs=3).how == "each TU compiled alone, 3 runs after a capturing build"
