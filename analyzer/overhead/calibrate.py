"""How exact are CPU time and wall time on this machine? (``overhead calibrate``)

A child burning a fixed amount of CPU (burn.c: a fixed number of iterations of a
register-only recurrence) is measured with the same wait4 path as the builds:
idle (nothing of ours beside it), and under competing load (one spinning process
per core), at normal priority and at nice 19. The goal of the measurement design:
CPU time within 2 % of the idle figure under load, while wall time grows.
"""
from __future__ import annotations

import hashlib
import math
import os
import statistics
import signal
import tempfile
from pathlib import Path

from warnscope import tool
from warnscope.errors import BadInput, ToolFailed
from warnscope.paths import cache_dir

from warnscope import measure
from analyzer.projects import process
from analyzer.overhead.results import Calibration, Condition, Figures

SOURCE = Path(__file__).with_name("burn.c")


def burn_binary() -> Path:
    key = hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:16]
    dest = cache_dir("overhead", "burn", key) / "burn"
    if dest.exists():
        return dest
    return tool.build_helper(SOURCE, dest, what="the calibration program")


def _once(burn: Path, iterations: int, nice: int, work: Path) -> process.Timed:
    t = process.run([str(burn), str(iterations)], work, process.build_env(), work / "out", nice=nice)
    if t.exit != 0:
        raise ToolFailed(f"the calibration program failed (exit {t.exit})")
    return t


def calibrate(seconds: float = 1.0, runs: int = 5, load: int | None = None) -> Calibration:
    """Measure the burn idle and loaded, at nice 0 and 19; returns figures per condition."""
    if not 0 < seconds < math.inf or runs < 1:
        raise BadInput("calibrate needs --seconds > 0 and --runs >= 1")
    if load is not None and load < 1:
        raise BadInput("--load must be at least 1 (the competing processes)")
    burn = burn_binary()
    load = load if load is not None else (os.cpu_count() or 1)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        probe = _once(burn, 50_000_000, 0, work)
        iterations = max(1_000_000, int(50_000_000 * seconds / max(probe.cpu, 1e-3)))
        _once(burn, iterations, 0, work)  # warm-up
        results = {}
        for loaded in (False, True):
            spinners = [tool.Background([str(burn), "0"], what="the calibration load")
                        for _ in range(load if loaded else 0)]
            try:
                for nice in (0, 19):
                    samples = [_once(burn, iterations, nice, work) for _ in range(runs)]
                    results[f"{'loaded' if loaded else 'idle'}, nice {nice}"] = samples
            finally:
                for p in spinners:
                    p.stop(signal.SIGKILL, grace=0)
    base_cpu = statistics.median(s.cpu for s in results["idle, nice 0"])
    base_wall = statistics.median(s.wall for s in results["idle, nice 0"])
    out = []
    for name, samples in results.items():
        cpu = Figures.of([s.cpu for s in samples], None)
        wall = Figures.of([s.wall for s in samples], None)
        assert cpu is not None and wall is not None  # runs >= 1
        out.append(Condition(condition=name, runs=runs, cpu_s=cpu, wall_s=wall,
                             cpu_vs_idle_pct=round(100 * (cpu.median / base_cpu - 1), 2),
                             cpu_spread_pct=round(100 * (cpu.max - cpu.min) / cpu.median, 2),
                             wall_vs_idle=round(wall.median / base_wall, 3)))
    return Calibration(machine=measure.machine(), iterations=iterations, competing_processes=load,
                       conditions=out)
