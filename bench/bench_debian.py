"""What building a Debian package as a project costs (:mod:`analyzer.projects.debian`).

For BENCH_DEBIAN_PACKAGE (default ``sl/trixie``) and BENCH_COMPILER (default gcc-14 of the
trixie root), BENCH_RUNS times (default 3, after one warm-up; the source package and the
build dependencies' .deb files are in the cache after it):

* the per-package root: a fresh overlay layer mounted and unmounted (``true`` run in it),
  then resolving and downloading the build dependencies (from the warm download cache),
  then installing them without the network: wall and CPU user+sys of each step;
* the build in that root: ``dpkg-buildpackage`` under warnscope (the compiler wrapper
  reached by every name, each compile's log record and stderr file, the level's
  flags) against a bare ``dpkg-buildpackage`` in the same root and the same sandbox
  (the suite's own compilers, no wrapper), each in a fresh copy of the tree;

min / median / max of each; the machine and its load. Run from the repository root as
root: ``.venv/bin/python -m bench.bench_debian``.
"""
from __future__ import annotations

import os
import shutil
import time

from warnscope import tool
from warnscope.measure import Sample, machine, run_inprocess, stats

from analyzer.projects import debian, process
from analyzer.projects.workdir import WorkDir
from analyzer.runtime import toolchain

PACKAGE = os.environ.get("BENCH_DEBIAN_PACKAGE", "sl/trixie")
COMPILER = os.environ.get("BENCH_COMPILER", "gcc-14")
RUNS = int(os.environ.get("BENCH_RUNS", "3"))


def _line(name: str, samples: list[Sample]) -> str:
    wall, cpu = stats([s.wall for s in samples]), stats([s.cpu for s in samples])
    return (f"  {name}: wall {wall.text('.2f')} s, CPU user+sys {cpu.text('.2f')} s "
            f"(min / median / max, {len(samples)} runs)")


def one(src: debian.SourcePackage, suite: str, tc) -> dict[str, Sample]:
    out: dict[str, Sample] = {}
    with WorkDir("bench-debian-") as work:
        root = debian.new_root(suite, work / "mount")
        out["overlay mounted, true run, unmounted"] = run_inprocess(
            lambda: tool.run(root.mounted(["/bin/true"]), timeout=60), include_children=True)
        root = debian.new_root(suite, work / "root")
        archives = debian.roots.debs_dir(suite, "apt")
        out["build dependencies resolved and downloaded"] = run_inprocess(
            lambda: debian._download(root, src, archives, 1800), include_children=True)
        out["build dependencies installed (no network)"] = run_inprocess(
            lambda: debian._install(root, src, archives, 1800), include_children=True)
        with debian.package_sandbox(work, root) as box:
            env = debian.build_env(tc, box, os.cpu_count() or 1)
            env["WARNSCOPE_BUILD_LOG"] = str(box.box / "wrapper.log")
            stderr = box.box / "stderr"
            stderr.mkdir()
            box.adopt(stderr)
            env["WARNSCOPE_BUILD_STDERR"] = str(stderr)
            bare = {**env, "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"}
            for k in ("CC", "CXX", "WARNSCOPE_BUILD_LOG", "WARNSCOPE_BUILD_STDERR"):
                bare.pop(k)
            for name, e in (("dpkg-buildpackage under warnscope", env), ("bare dpkg-buildpackage", bare)):
                tree = debian.unpack(src, box)
                t = process.run(debian.BUILD_COMMAND, tree, e, work / f"{len(out)}.log", timeout=3600,
                                box=box)
                if t.exit != 0:
                    raise SystemExit(f"{name} failed: exit {t.exit} (log {work / f'{len(out)}.log'})")
                out[name] = t
                shutil.rmtree(box.box / "src")
    return out


def main_() -> None:
    print(f"machine: {machine()} (loaded: shared with other work)")
    name, source_suite = debian.parse(f"debian:{PACKAGE}")
    tc = toolchain.resolve(COMPILER)
    assert tc.suite is not None, f"{COMPILER} is not a compiler of a Debian root"
    src = debian.fetch(name, source_suite)
    print(f"{src.project} {src.version} in the {tc.suite} root, {COMPILER}")
    one(src, tc.suite, tc)   # warm-up: the download cache, the wrappers, the init
    runs = [one(src, tc.suite, tc) for _ in range(RUNS)]
    for key in runs[0]:
        print(_line(key, [r[key] for r in runs]))
    print(f"load average at the end: {os.getloadavg()[0]:.2f} ({time.strftime('%H:%M UTC', time.gmtime())})")


if __name__ == "__main__":
    main_()
