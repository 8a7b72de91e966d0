"""UB runner: where a cold cell's time goes, phase by phase.

A cold ``ub_run.run`` (empty compile cache, empty database) of a subset of the corpus
(the first BENCH_UB_CASES cases, default 40, each with its twin) x BENCH_UB_COMPILERS
(gcc-12,clang-16) x BENCH_UB_LEVELS (O2), warnings and sanitizers off, generated code
kept as ``ub run`` keeps it by default (BENCH_UB_CODE=0: ``--no-code``), -j
BENCH_UB_JOBS (default 2), in this process, BENCH_RUNS rounds (default 3). Each round
the functions of a cell are wrapped (before the pool forks, so the workers run the
wrappers) and every job appends its phases to a file of its worker:

* compile: the compile's sandboxed run (the shell that runs the compiler and, with
  code, objdump): wall; CPU of the sandboxed processes (the run's rusage); the
  worker's own CPU supervising it (``time.thread_time``).
* objdump: that CPU split off, after the round, by running the same objdump on each
  binary the round cached, outside the sandbox (``os.wait4``); "compile" then shows
  the rest (the compiler, with ``-g`` when code is kept, and its shell).
* disassembly read: reading objdump's text into functions and the stored text
  (``compile._read_code``: ``disasm.parse`` + ``disasm.dumps``), worker CPU.
* labels: not part of a run (``codelabels.labels`` runs when a cell is read: ``ub
  explain``, the site); timed here after the round on each stored code, in process,
  for scale.
* cache and workspace: the rest of ``compile_program`` (the key, the workspace's
  directory, writing the source, reading ``a.out``, writing the cache entries).
* sandbox set-up: the CPU the zygote of each worker spent beyond the processes it
  ran (its clone, the run's init, mounts; from ``/proc/PID/stat`` of the zygote,
  itself and its reaped children, minus the runs' own rusage), 10 ms ticks summed.
* program runs: ``sandbox.run`` of the program (2 per cell): wall, the program's CPU,
  the worker's supervising CPU.
* classify and the rest of the job (``execute`` minus the phases above).
* worker outside jobs: the worker process's CPU (``os.times``) minus its jobs' (the
  pool's queues, pickling).
* store: the client's ``store.save_results`` (wall, thread CPU); the client's whole
  CPU (``RUSAGE_SELF``: its main thread and the pool's threads).

Printed per phase: per cell, min / median / max over the rounds, of wall and of CPU
user+sys; and the whole round (wall, CPU of this process and everything it reaped).
Run from the repository root: ``.venv/bin/python -m bench.bench_ub_phases``.
"""
from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from warnscope.database import connect
from warnscope.measure import machine
from warnscope.tool import run_measured
from analyzer.runtime.toolchain import resolve
from analyzer.sandbox import runner as sandbox
from analyzer.sandbox import zygote
from analyzer.ub import jobs
from analyzer.ub.explain import codelabels
from analyzer.ub import disasm
from analyzer.ub import compile as ub_compile
from analyzer.ub import run as ub_run
from analyzer.runtime.toolchain import resolve_list
from analyzer.ub import store as ub_store
from analyzer.ub.corpus import bundled_corpus, load

CORPUS = os.environ.get("BENCH_UB_CORPUS") or str(bundled_corpus())
COMPILERS = os.environ.get("BENCH_UB_COMPILERS", "gcc-12,clang-16").split(",")
LEVELS = os.environ.get("BENCH_UB_LEVELS", "O2").split(",")
CASES = int(os.environ.get("BENCH_UB_CASES", "40"))
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
JOBS = int(os.environ.get("BENCH_UB_JOBS", "2"))
CODE = os.environ.get("BENCH_UB_CODE", "1") != "0"
TICK = os.sysconf("SC_CLK_TCK")

#: where each worker appends its jobs' phases (set per round, before the pool forks)
_OUT: dict[str, str] = {}
#: this process's accumulators for the job under way: phase -> [wall, own CPU, child CPU]
_ACC: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
_orig = {}


def _cpu() -> float:
    return time.thread_time()


def _timed(phase: str, fn, child=None):
    def wrapper(*args, **kwargs):
        w, c = time.perf_counter(), _cpu()
        result = fn(*args, **kwargs)
        acc = _ACC[phase]
        acc[0] += time.perf_counter() - w
        acc[1] += _cpu() - c
        if child is not None:
            acc[2] += child(result)
        return result
    return wrapper


def _rusage(r) -> float:
    return r.user + r.sys


def _zygote_ticks() -> int:
    """utime + stime + cutime + cstime of this process's zygotes (Z, pid 1 of each)."""
    total = 0
    for z in list(zygote._ALL):
        if z.owner != os.getpid():
            continue
        try:
            with open(f"/proc/{z.init_pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += sum(int(v) for v in fields[11:15])
        except (OSError, IndexError, ValueError):
            pass
    return total


def timed_execute(job):
    """:func:`jobs.execute` with its phases written to this worker's file."""
    _ACC.clear()
    z0 = _zygote_ticks()
    w, c = time.perf_counter(), _cpu()
    result = _orig["execute"](job)
    wall, cpu = time.perf_counter() - w, _cpu() - c
    z1 = _zygote_ticks()
    new_zygote = z0 == 0 and z1 > 0 and len(_ACC) > 0  # first job: the zygote's start
    t = os.times()
    line = {"pid": os.getpid(), "wall": wall, "cpu": cpu, "zygote": (z1 - z0) / TICK,
            "new_zygote": new_zygote, "proc_cpu": t.user + t.system,
            "phases": {k: list(v) for k, v in _ACC.items()}}
    with open(os.path.join(_OUT["dir"], f"{os.getpid()}.jsonl"), "a") as f:
        f.write(json.dumps(line) + "\n")
    return result


def install() -> None:
    _orig.update(execute=jobs.execute, compile_program=jobs.compile_program,
                 ws_run=sandbox.Workspace.run, read_code=ub_compile._read_code,
                 run=sandbox.run, save=ub_store.save_results)
    ub_run.execute = timed_execute
    jobs.compile_program = _timed("compile_program", _orig["compile_program"])
    sandbox.Workspace.run = _timed("compile run", _orig["ws_run"], _rusage)
    ub_compile._read_code = _timed("disassembly read", _orig["read_code"])
    sandbox.run = _timed("program runs", _orig["run"], _rusage)
    ub_store.save_results = _timed("store", _orig["save"])


def objdump_cpu(cache: Path) -> tuple[float, int]:
    """CPU user+sys of the objdump of every binary with code in ``cache``, run as the
    compile's script runs it (outside the sandbox), and how many."""
    total, n = 0.0, 0
    for code in cache.glob("ub/bin/*/*.code"):
        binary = code.with_suffix("")
        t = run_measured(["objdump", "-h", "-t", "-d", "-l", "-C", "-w", "--no-show-raw-insn",
                          str(binary)], timeout=60)
        total += t.user + t.sys
        n += 1
    return total, n


def labels_cpu(db: Path) -> tuple[float, int]:
    """CPU of ``codelabels.labels`` over every stored code (no reference), in process."""
    conn = connect(db)
    import zlib
    codes = [disasm.loads(zlib.decompress(r[0]).decode())
             for r in conn.execute("SELECT code.code FROM ub_cell cell JOIN ub_code code "
                                   "ON code.hash = cell.code")]
    conn.close()
    c = _cpu()
    for code in codes:
        codelabels.labels(code)
    return _cpu() - c, len(codes)


def one_round(tmp: Path, case_ids: list[str], i: int) -> dict[str, float]:
    cache = tmp / f"cache{i}"
    os.environ["WARNSCOPE_CACHE"] = str(cache)
    out = tmp / f"phases{i}"
    out.mkdir()
    _OUT["dir"] = str(out)
    db = tmp / f"run{i}.db"
    conn = connect(db)
    _ACC.clear()
    self0 = resource.getrusage(resource.RUSAGE_SELF)
    kids0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    w = time.perf_counter()
    summary = ub_run.run(conn, CORPUS, resolve_list(COMPILERS), LEVELS, jobs=JOBS, warnings=False,
                         sanitizers=False, code=CODE, case_ids=case_ids)
    wall = time.perf_counter() - w
    self1 = resource.getrusage(resource.RUSAGE_SELF)
    kids1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    conn.close()
    store = _ACC.get("store", [0.0, 0.0, 0.0])
    cells = summary.cells_run
    client = (self1.ru_utime - self0.ru_utime) + (self1.ru_stime - self0.ru_stime)
    total = client + (kids1.ru_utime - kids0.ru_utime) + (kids1.ru_stime - kids0.ru_stime)
    sums: dict[str, float] = defaultdict(float)
    procs: dict[int, list[float]] = {}
    for path in out.glob("*.jsonl"):
        for line in path.read_text().splitlines():
            j = json.loads(line)
            ph = j["phases"]
            comp_run = ph.get("compile run", [0, 0, 0])
            runs = ph.get("program runs", [0, 0, 0])
            read = ph.get("disassembly read", [0, 0, 0])
            cp = ph.get("compile_program", [0, 0, 0])
            sums["compile wall"] += comp_run[0]
            sums["compile sandboxed CPU"] += comp_run[2]
            sums["compile supervising CPU"] += comp_run[1]
            sums["disassembly read wall"] += read[0]
            sums["disassembly read CPU"] += read[1]
            sums["cache+workspace wall"] += cp[0] - comp_run[0] - read[0]
            sums["cache+workspace CPU"] += cp[1] - comp_run[1] - read[1]
            sums["runs wall"] += runs[0]
            sums["runs program CPU"] += runs[2]
            sums["runs supervising CPU"] += runs[1]
            if not j["new_zygote"]:
                sums["sandbox set-up CPU"] += j["zygote"] - comp_run[2] - runs[2]
                sums["sandbox set-up cells"] += 1
            sums["job rest wall"] += j["wall"] - cp[0] - runs[0]
            sums["job rest CPU"] += j["cpu"] - cp[1] - runs[1]
            sums["jobs CPU"] += j["cpu"]
            procs.setdefault(j["pid"], [j["proc_cpu"], 0.0])[0] = max(
                procs.get(j["pid"], [0])[0], j["proc_cpu"])
    sums["worker outside jobs CPU"] = sum(p[0] for p in procs.values()) - sums["jobs CPU"]
    dump_cpu, dumps = objdump_cpu(cache) if CODE else (0.0, 0)
    lab_cpu, labelled = labels_cpu(db) if CODE else (0.0, 0)
    per = {k: v / cells for k, v in sums.items() if not k.endswith("cells")}
    per["sandbox set-up CPU"] = sums["sandbox set-up CPU"] / max(sums["sandbox set-up cells"], 1)
    per["objdump CPU (outside the sandbox)"] = dump_cpu / max(dumps, 1)
    per["compile sandboxed CPU minus objdump"] = (sums["compile sandboxed CPU"] - dump_cpu) / cells
    per["labels CPU (not in a run)"] = lab_cpu / max(labelled, 1)
    per["store wall"] = store[0] / cells
    per["store CPU"] = store[1] / cells
    per["client CPU"] = client / cells
    per["round wall"] = wall / cells
    per["round CPU"] = total / cells
    print(f"  round {i}: {cells} cells in {wall:.1f} s wall, CPU user+sys {total:.1f} s "
          f"(client {client:.1f} s); load {os.getloadavg()[0]:.2f}", flush=True)
    shutil.rmtree(cache, ignore_errors=True)
    return per


ORDER = [
    ("compile wall", "compile: the sandboxed run's wall"),
    ("compile sandboxed CPU", "compile: sandboxed CPU (shell, compiler, objdump)"),
    ("objdump CPU (outside the sandbox)", "  of which objdump (re-run outside, per binary)"),
    ("compile sandboxed CPU minus objdump", "  the rest: compiler and shell"),
    ("compile supervising CPU", "compile: worker CPU supervising"),
    ("disassembly read wall", "disassembly read (parse + dumps): wall"),
    ("disassembly read CPU", "disassembly read: worker CPU"),
    ("labels CPU (not in a run)", "labels (not in a run; per stored code): CPU"),
    ("cache+workspace wall", "cache and workspace: wall"),
    ("cache+workspace CPU", "cache and workspace: worker CPU"),
    ("sandbox set-up CPU", "sandbox set-up: zygote CPU beyond the processes run"),
    ("runs wall", "program runs: wall"),
    ("runs program CPU", "program runs: the programs' CPU"),
    ("runs supervising CPU", "program runs: worker CPU supervising"),
    ("job rest wall", "classify, result, rest of the job: wall"),
    ("job rest CPU", "classify, result, rest of the job: worker CPU"),
    ("worker outside jobs CPU", "worker outside jobs (pool, pickling): CPU"),
    ("store wall", "store (client, save_results): wall"),
    ("store CPU", "store: client thread CPU"),
    ("client CPU", "client process CPU (all its threads)"),
    ("round wall", "whole round: wall per cell"),
    ("round CPU", "whole round: CPU user+sys per cell (process + reaped)"),
]


def main() -> None:
    print(f"machine: {machine()}")
    print(f"compilers: {'; '.join(resolve(c).version for c in COMPILERS)}")
    cases = load(CORPUS).cases
    firsts = [c.id for c in cases if c.ub][:CASES]
    print(f"cells: the first {len(firsts)} UB cases with their twins x {','.join(COMPILERS)} x "
          f"{','.join(LEVELS)}; code {'kept' if CODE else 'off'}; -j {JOBS}; {RUNS} rounds; "
          "cold (empty cache and database); figures per cell, ms")
    install()
    sandbox.prepare()
    with tempfile.TemporaryDirectory(prefix="bench-ub-phases-") as name:
        rounds = [one_round(Path(name), firsts, i) for i in range(1, RUNS + 1)]
    print(f"{'phase':58} min / median / max ms per cell")
    for key, label in ORDER:
        vals = [r[key] * 1000 for r in rounds]
        print(f"{label:58} {min(vals):7.2f} / {statistics.median(vals):7.2f} / {max(vals):7.2f}")
    print(f"machine after: {machine()}")


if __name__ == "__main__":
    main()
