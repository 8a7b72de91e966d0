"""``warnscope rebuild`` on a Dask cluster, and what one project costs a worker.

``cluster`` (the default): BENCH_REBUILD_PROJECTS projects (default 20) moved from
BENCH_FROM to BENCH_TO (default clang-14 -> clang-16, on the host) on a local Dask
cluster of two worker processes with one build slot each (``--resources build=1``).
The projects are local trees, copies of tests/fixtures/rebuild's three (builds, fails,
slow: its make sleeps 8 s before each compile) and of the Clang 16 breakage
tests/fixtures/upgrade/gcc14-autotools, one in four slow; with BENCH_REBUILD_DEBIAN
(a file of Debian package names, one a line) those packages instead (BENCH_FROM and
BENCH_TO then compilers of their suite's root, e.g. gcc-13 and gcc-14 for trixie).
When the first slow project's task is seen running (Debian packages: when a worker's
process tree first runs ``dpkg-buildpackage``), the worker running it is killed with
SIGKILL. At the end: every project answered, each build stored exactly once, the
killed project built again on a worker; the run's wall time, its CPU user+sys (of
everything the run started, orphans of the killed worker included: the run is put in
a cgroup of its own, whose ``cpuacct``/``cpu.stat`` counts every process in it), the
load average before and after, and the outcomes. bench/debian-packages.txt is the
shipped list of small Debian packages.

``package NAME/SUITE``: one Debian package's move (default sl/trixie, gcc-13 ->
gcc-14 of the trixie root) as one worker does it (:func:`rebuild.build_project`, in this
process), BENCH_RUNS times (default 1, after BENCH_WARMUPS warm-ups, default 1, that
fetch the source and the build dependencies): wall, CPU user+sys of the worker and everything it started
(``RUSAGE_CHILDREN``: the sandbox's processes are reaped up the tree), the largest
resident set of one process it started, this process's own, and the peak disk of the
work folders it holds (sampled every 0.5 s; other runs' folders beside them left out).

Run from the repository root: ``.venv/bin/python -m bench.bench_rebuild [cluster|package NAME/SUITE]``.
"""
from __future__ import annotations

import os
import resource
import shutil
import signal
import sqlite3
import sys
import tempfile
import threading
import time
from pathlib import Path

from warnscope.database import connect
from warnscope.measure import Sample, machine, stats
from warnscope.paths import cache_dir

from analyzer.projects.options import BuildOptions
from analyzer.runtime.executors import DaskExecutor
from analyzer.runtime.toolchain import resolve
from analyzer.warnings import rebuild

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
TREES = (FIXTURES / "rebuild" / "builds", FIXTURES / "rebuild" / "fails",
         FIXTURES / "upgrade" / "gcc14-autotools", FIXTURES / "rebuild" / "slow")


def _ours(work: Path) -> int:
    """The disk of the work folders this process holds (each is flock'ed by its holder:
    /proc/locks names the pid), not those of other runs on the machine."""
    inodes = set()
    try:
        for line in Path("/proc/locks").read_text().splitlines():
            f = line.split()
            if len(f) >= 6 and f[1] == "FLOCK" and f[4] == str(os.getpid()):
                inodes.add(int(f[5].rsplit(":", 1)[1]))
    except OSError:
        return 0
    total = 0
    for d in work.iterdir():
        try:
            if (d / ".lock").stat().st_ino in inodes:
                total += _du(d)
        except OSError:
            pass
    return total


def _du(path: Path) -> int:
    total = 0
    for dirpath, _dirs, files in os.walk(path):
        for f in files:
            try:
                total += os.lstat(os.path.join(dirpath, f)).st_blocks * 512
            except OSError:
                pass
    return total


class _CpuGroup:
    """This process moved into a cgroup of its own, which every process it starts
    inherits (a killed worker's orphans too): the CPU user+sys of all of them, read from
    the cgroup (v2 ``cpu.stat``, else v1 ``cpuacct.stat``). None where no cgroup can be
    made here (not root, no cgroup file system): then :meth:`cpu` is None."""

    CANDIDATES = (("/sys/fs/cgroup", "cpu.stat"), ("/sys/fs/cgroup/unified", "cpu.stat"),
                  ("/sys/fs/cgroup/cpuacct", "cpuacct.stat"))

    def __init__(self) -> None:
        self.path: Path | None = None
        self.stat = ""
        for base, stat in self.CANDIDATES:
            if not (Path(base) / stat).exists() and not (Path(base) / "cgroup.procs").exists():
                continue
            path = Path(base) / f"warnscope-bench-{os.getpid()}"
            try:
                path.mkdir()
                (path / "cgroup.procs").write_text(str(os.getpid()))
            except OSError:
                try:
                    path.rmdir()
                except OSError:
                    pass
                continue
            if (path / stat).exists():
                self.path, self.stat = path, stat
                break

    def cpu(self) -> tuple[float, float] | None:
        """(user, sys) seconds of every process that ran in the group."""
        if self.path is None:
            return None
        fields = dict(line.split() for line in (self.path / self.stat).read_text().splitlines())
        if self.stat == "cpu.stat":
            return int(fields["user_usec"]) / 1e6, int(fields["system_usec"]) / 1e6
        hz = os.sysconf("SC_CLK_TCK")
        return int(fields["user"]) / hz, int(fields["system"]) / hz

    def close(self) -> list[int]:
        """Back to the parent group; the group removed where it is empty. The pids still
        in it (processes that outlived the run) are returned."""
        if self.path is None:
            return []
        (self.path.parent / "cgroup.procs").write_text(str(os.getpid()))
        left = [int(p) for p in (self.path / "cgroup.procs").read_text().split()]
        if not left:
            self.path.rmdir()
        return left


def _building(pid: int) -> bool:
    """Whether the process ``pid`` has a ``dpkg-buildpackage`` among its descendants."""
    import psutil
    try:
        for child in psutil.Process(pid).children(recursive=True):
            try:
                if any("dpkg-buildpackage" in a for a in child.cmdline()[:2]):
                    return True
            except psutil.Error:
                continue
    except psutil.Error:
        pass
    return False


def cluster() -> None:
    import distributed

    old, new = os.environ.get("BENCH_FROM", "clang-14"), os.environ.get("BENCH_TO", "clang-16")
    with tempfile.TemporaryDirectory(prefix="bench-rebuild-") as tmp:
        listing = os.environ.get("BENCH_REBUILD_DEBIAN")
        if listing:
            lines = rebuild.read_list(listing)
        else:
            lines = []
            for i in range(int(os.environ.get("BENCH_REBUILD_PROJECTS", "20"))):
                kind = TREES[i % len(TREES)]
                tree = Path(tmp) / f"p{i:02d}-{kind.name}"
                shutil.copytree(kind, tree)
                lines.append((f"project {i}", str(tree)))
        entries, refused = rebuild.entries(lines, "trixie")
        assert not refused, refused
        db = Path(tmp) / "rebuild.db"
        killed: list[str] = []
        result: dict = {}
        load_before = os.getloadavg()
        group = _CpuGroup()
        start = time.monotonic()
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                      resources={"build": 1}, dashboard_address=None) as c, \
                DaskExecutor(c.scheduler_address) as executor:
            def run() -> None:
                conn = connect(db)
                try:
                    result["summary"] = rebuild.run(conn, entries, resolve(old), resolve(new),
                                                    BuildOptions(jobs=1, timeout=3600), executor=executor)
                finally:
                    conn.close()

            thread = threading.Thread(target=run)
            thread.start()
            victim = "slow" if not listing else ""
            while thread.is_alive() and not killed:
                for worker, keys in executor.client.processing().items():
                    running = [str(k) for k in keys if victim in str(k)]
                    if not running:
                        continue
                    pid = executor.client.run(os.getpid, workers=[worker])[worker]
                    if listing and not _building(pid):
                        continue    # a package's task: killed once its dpkg-buildpackage runs
                    time.sleep(3)
                    os.kill(pid, signal.SIGKILL)
                    killed.append(f"{running[0]} on {worker} (pid {pid}, {time.monotonic() - start:.0f} s "
                                  "into the run)")
                    break
                time.sleep(1 if listing else 0.2)
            thread.join()
        wall = time.monotonic() - start
        cpu = group.cpu()
        left = group.close()
        load_after = os.getloadavg()
        s = result["summary"]
        with sqlite3.connect(db) as conn:
            rows = conn.execute("SELECT project, compiler, level, COUNT(*) FROM wn_build "
                                "GROUP BY project, compiler, level").fetchall()
        twice = [r for r in rows if r[3] != 1]
        stored = {r[0] for r in rows if r[2] == "default"}
        print(f"rebuild of {len(entries)} projects, {old} -> {new}, on a local Dask cluster of 2 worker "
              f"processes (build=1 each); {machine()}")
        print(f"  killed mid-build: {', '.join(killed) or 'nothing (no task seen running)'}")
        print(f"  wall {wall:.1f} s (one run); every project answered: {s.complete}; projects stored: "
              f"{len(stored)}/{len(entries)}; builds stored more than once: {len(twice)}")
        print(f"  {len(entries) / wall * 3600:.1f} projects per hour on this machine (2 build slots); "
              f"load average {' '.join(f'{x:.1f}' for x in load_before)} before, "
              f"{' '.join(f'{x:.1f}' for x in load_after)} after")
        if cpu is not None:
            print(f"  CPU user+sys of everything the run started: {cpu[0] + cpu[1]:.1f} s "
                  f"(user {cpu[0]:.1f}, sys {cpu[1]:.1f}; {(cpu[0] + cpu[1]) / len(entries):.1f} s a project)"
                  + (f"; processes left running: {left}" if left else ""))
        else:
            print("  CPU: no cgroup could be made here, not measured")
        for c in s.outcomes:
            print(f"    {c.name:17} {len(c.projects):3}  {' '.join(c.projects)}")
        for p in s.projects:
            print(f"  {p.project}: {p.outcome}{' (built now)' if p.built else ''}: {p.why}")


def package(spec: str) -> None:
    old, new = os.environ.get("BENCH_FROM", "gcc-13"), os.environ.get("BENCH_TO", "gcc-14")
    runs = int(os.environ.get("BENCH_RUNS", "1"))
    warmups = int(os.environ.get("BENCH_WARMUPS", "1"))
    (entry,), refused = rebuild.entries([("argument", spec)], "trixie")
    job = rebuild.ProjectJob(entry, resolve(old), resolve(new), BuildOptions(jobs=1, timeout=3600, keep_going=True),
                             rebuild.LocalCommands())
    work = cache_dir("builds", "work")
    samples: list[Sample] = []
    peaks: list[int] = []
    rss: list[int] = []
    for i in range(warmups + runs):
        peak = [0]
        done = threading.Event()

        def watch() -> None:
            while not done.wait(0.5):
                peak[0] = max(peak[0], _ours(work))

        watcher = threading.Thread(target=watch)
        watcher.start()
        before = [resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
        t = time.monotonic()
        builds = rebuild.build_project(job)
        wall = time.monotonic() - t
        after = [resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
        done.set()
        watcher.join()
        if i < warmups:
            print(f"warm-up: {len(builds)} builds ({', '.join(f'{b.compiler} {b.level} {b.status}' for b in builds)}),"
                  f" wall {wall:.1f} s")
            continue
        samples.append(Sample(user=sum(a.ru_utime - b.ru_utime for a, b in zip(after, before)),
                              sys=sum(a.ru_stime - b.ru_stime for a, b in zip(after, before)), wall=wall))
        peaks.append(peak[0])
        rss.append(after[1].ru_maxrss)
    w, c = stats([s.wall for s in samples]), stats([s.cpu for s in samples])
    print(f"{entry.project}: {old} -> {new}, one worker's job; {machine()}")
    print(f"  wall {w.text('.1f')} s, CPU user+sys {c.text('.1f')} s (min / median / max, {len(samples)} runs)")
    print(f"  peak disk of the builds' work folder: {max(peaks) / 2**20:.0f} MiB; largest process started: "
          f"{max(rss) / 1024:.0f} MiB resident; this process: "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    args = sys.argv[1:] or ["cluster"]
    if args[0] == "package":
        package(args[1] if len(args) > 1 else "debian:sl/trixie")
    else:
        cluster()
