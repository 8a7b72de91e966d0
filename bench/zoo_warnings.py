"""What fires on real code across the compiler zoo: the published data, and its cost.

Two steps, both from the repository root:

``.venv/bin/python -m bench.zoo_warnings build``
    Runs ``warnscope warnings run --level all`` for zlib, lua5.4 and sqlite3 with every
    compiler of the zoo (ZOO: gcc-9 … gcc-16, clang-9 … clang-23; those not on the host
    from their Debian roots, ``warnscope toolchain add``), and for fftw3 and cppcheck with
    the host's five (HOST), into BENCH_ZOO_DB (default
    ``~/.cache/warnscope-bench/zoo-warnings.db``), each project as one measured
    process tree (``warnscope.tool.run_measured``: wall, CPU user+sys of every process
    of the builds), one run each, with the load average before it; first the clangs'
    flag data is ingested (``flags ingest``, untimed: ``report --as`` needs it). BENCH_ZOO_PROJECTS
    limits the projects. A project's run exits 1 when a build fails (cppcheck with
    gcc-11/12: the compiler's crash under ``-Wmismatched-tags``); its builds are stored.

``.venv/bin/python -m bench.zoo_warnings check``
    Builds zlib and lua5.4 at ``wall`` and ``wextra`` for real with the same compilers
    (timed likewise; BENCH_ZOO_BUILD=0 compares the stored builds only), and compares
    each with ``report --as`` of its ``all`` build: how many builds the flag database
    answers exactly, and every option where it does not.

``.venv/bin/python -m bench.zoo_warnings report``
    Prints, as Markdown, from the stored builds through warnscope's own queries
    (``analyzer.warnings.queries``, never by parsing its text): diagnostics per project
    and compiler at ``all``, with ``wall`` and ``wextra`` answered from the same builds
    (``report --as``: exact, plus what the flag database cannot place); the options
    that fire most; and what each GCC and clang release adds, from the diffs of
    consecutive versions (``warnings diff``).
"""
from __future__ import annotations

import os
import re
import sys
from collections import Counter
from pathlib import Path

from warnscope.compilers import sort_key
from warnscope.database import connect
from warnscope.errors import NoData
from warnscope.measure import machine
from warnscope.tool import run_measured

ZOO = ("gcc-9,gcc-10,gcc-11,gcc-12,gcc-13,gcc-14,gcc-15,gcc-16,clang-9,clang-11,clang-13,clang-14,"
       "clang-15,clang-16,clang-17,clang-18,clang-19,clang-21,clang-22,clang-23")
HOST = "gcc-11,gcc-12,clang-14,clang-16,clang-19"
PLAN = {"zlib": ZOO, "lua5.4": ZOO, "sqlite3": ZOO, "fftw3": HOST, "cppcheck": HOST}
DB = Path(os.environ.get("BENCH_ZOO_DB") or Path.home() / ".cache" / "warnscope-bench" / "zoo-warnings.db")
THIS_TREE = Path(__file__).resolve().parents[1]


def build() -> None:
    projects = [p for p in os.environ.get("BENCH_ZOO_PROJECTS", ",".join(PLAN)).split(",") if p]
    # the flag data `report --as` answers through (a GCC's is ingested by its first build;
    # clang's from libclang-N-dev here, untimed)
    clangs = sorted({c for p in projects for c in PLAN[p].split(",") if c.startswith("clang-")}, key=sort_key)
    run_measured([sys.executable, "-m", "analyzer", "--db", str(DB), "flags", "ingest", *clangs], cwd=THIS_TREE)
    print(f"# warnings run --level all into {DB}; {machine()}")
    print("| project | compilers | wall s | CPU user+sys s | load before | exit |")
    print("|---|---|---|---|---|---|")
    for project in projects:
        compilers = PLAN[project]
        argv = [sys.executable, "-m", "analyzer", "--db", str(DB), "warnings", "run", "--project", project,
                "--compilers", compilers, "--level", "all", "--quiet"]
        log = DB.parent / f"zoo-{project}.log"
        run = run_measured(argv, cwd=THIS_TREE, output=log)
        print(f"| {project} | {len(compilers.split(','))} | {run.wall:.0f} | {run.cpu:.0f} | "
              f"{run.load1:.2f} | {run.exit} |", flush=True)


def report() -> None:
    from analyzer.projects.cell import BuildStatus
    from analyzer.warnings import queries, store
    conn = connect(DB, write=False)
    projects = [p for p in PLAN if p in store.projects(conn)]
    print("## Diagnostics at `all`, and `wall`/`wextra` answered from the same builds\n")
    print("Per build: diagnostics at `all` (each counted once, a header's too); for `wall` and "
          "`wextra`, those the flag database places exactly, `+ n` those it cannot place "
          "(listed below the table by option and reason). `failed`: the build stopped; what it "
          "printed up to there is counted.\n")
    unsure_reasons: Counter = Counter()
    view = queries.FlagView(conn)   # each compiler's flag data and its own states, once
    for project in projects:
        builds = store.builds(conn, project, level="all")
        full = queries.report_of(project, builds, view)
        derived = {level: {b.compiler: b for b in queries.report_of(project, builds, view, level).builds}
                   for level in ("wall", "wextra")}
        print(f"### {project} ({full.origin})\n")
        own = {b.compiler: sum(1 for d in b.diagnostics if _own(d.file)) for b in builds}
        print("| compiler | all | in the project's files | options fired | wall | wextra | top options at all |")
        print("|---|---|---|---|---|---|---|")
        for b in sorted(full.builds, key=lambda b: sort_key(b.compiler)):
            cells = []
            for level in ("wall", "wextra"):
                d = derived[level][b.compiler]
                unsure = sum(u.count for u in d.uncertain or [])
                for u in d.uncertain or []:
                    unsure_reasons[(u.option, _reason(u.why))] += u.count
                cells.append(f"{d.diagnostics}" + (f" + {unsure}" if unsure else ""))
            tops = ", ".join(f"`{c.option}` {c.count}" for c in b.by_option[:3] if c.option)
            status = "" if b.status == BuildStatus.OK else " (failed)"
            print(f"| {b.compiler} {_version(b.compiler_version)} | {b.diagnostics}{status} | {own[b.compiler]} | "
                  f"{len(b.by_option)} | {cells[0]} | {cells[1]} | {tops} |")
        print()
    print("What the flag database could not place, over all builds (diagnostics):\n")
    for (option, why), n in unsure_reasons.most_common(12):
        print(f"- `{option}` {n}: {why}")
    print()
    _top(conn, projects)
    _releases(conn, [p for p in projects if PLAN[p] == ZOO])


def check() -> None:
    """Builds zlib and lua5.4 at ``wall`` and ``wextra`` for real with every compiler of
    the zoo, and compares them with ``report --as`` of the ``all`` builds: per build,
    whether every option placed has the real build's count, and whatever the real build
    printed beyond them is among the options said unsure."""
    from analyzer.warnings import queries, store
    projects = [p for p in os.environ.get("BENCH_ZOO_PROJECTS", "zlib,lua5.4").split(",") if p]
    print(f"# warnings run --level wall,wextra into {DB}; {machine()}")
    print("| project | compilers | wall s | CPU user+sys s | load before | exit |")
    print("|---|---|---|---|---|---|")
    for project in projects if os.environ.get("BENCH_ZOO_BUILD", "1") != "0" else ():
        argv = [sys.executable, "-m", "analyzer", "--db", str(DB), "warnings", "run", "--project", project,
                "--compilers", PLAN[project], "--level", "wall,wextra", "--quiet"]
        run = run_measured(argv, cwd=THIS_TREE, output=DB.parent / f"zoo-{project}-narrow.log")
        print(f"| {project} | {len(PLAN[project].split(','))} | {run.wall:.0f} | {run.cpu:.0f} | "
              f"{run.load1:.2f} | {run.exit} |", flush=True)
    conn = connect(DB, write=False)
    print("\n| project | level | builds | exact | placed but not printed | printed but not placed |")
    print("|---|---|---|---|---|---|")
    wrong: list[str] = []
    view = queries.FlagView(conn)
    for project in projects:
        builds = store.builds(conn, project, level="all")
        for level in ("wall", "wextra"):
            derived = {b.compiler: b for b in queries.report_of(project, builds, view, level).builds}
            real = {b.compiler: b for b in queries.report(conn, project, level=level).builds}
            exact = over = under = 0
            for compiler in sorted(set(derived) & set(real), key=sort_key):
                d, r = derived[compiler], real[compiler]
                placed = {c.option: c.count for c in d.by_option}
                printed = {c.option: c.count for c in r.by_option}
                unsure = {u.option for u in d.uncertain or []}
                too_many = {o: (n, printed.get(o, 0)) for o, n in placed.items() if printed.get(o, 0) < n}
                too_few = {o: (placed.get(o, 0), n) for o, n in printed.items()
                           if placed.get(o, 0) < n and o not in unsure}
                exact += not too_many and not too_few
                over += bool(too_many)
                under += bool(too_few)
                wrong += [f"{project} {compiler} {level}: `{o}` placed {a}, printed {b}"
                          for o, (a, b) in {**too_many, **too_few}.items()]
            print(f"| {project} | {level} | {len(set(derived) & set(real))} | {exact} | {over} | {under} |")
    print()
    for line in wrong:
        print(f"- {line}")


def _version(text: str) -> str:
    """``gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0`` -> ``12.2.0``."""
    found = re.search(r"\b\d+\.\d+(?:\.\d+)?\b", text)
    return found.group(0) if found else text


def _own(file: str | None) -> bool:
    """A file of the project's tree (not /usr/include, not the compiler's own headers,
    whose diagnostics change with each root's libc as much as with the compiler)."""
    from analyzer.warnings.derive import in_system_header
    return bool(file) and not in_system_header(file)


def _reason(why: str) -> str:
    """A reason without the option's own name and values, to add up across builds."""
    if " is " in why and "at the build's level" in why:
        return "on at another value than at `all`"
    return why.split("'s default", 1)[-1].strip() if "'s default" in why else why


def _top(conn, projects: list[str]) -> None:
    from analyzer.warnings import queries
    top = queries.top(conn, projects, "all", limit=15)
    print("## The options that fire most at `all` (diagnostics over every build above)\n")
    print("| option | diagnostics | projects | compilers |")
    print("|---|---|---|---|")
    for t in top.noisiest:
        print(f"| `{t.option}` | {t.diagnostics} | {len(t.projects)} | {len(t.compilers)} |")
    print()


def _releases(conn, projects: list[str]) -> None:
    from analyzer.warnings import queries
    print(f"## What each release adds at `all` on {', '.join(projects)}\n")
    print("From the diff of each version against the one before it (diagnostics matched by "
          "file, line, option and message; a reworded message counts as reworded), in the "
          "projects' own files (system headers differ between the roots' C libraries as much "
          "as between compilers), summed over the projects; the options with most added.\n")
    print("| from → to | added | removed | reworded | most added |")
    print("|---|---|---|---|---|")
    for family in ("gcc", "clang"):
        versions = sorted((c for c in ZOO.split(",") if c.startswith(family + "-")), key=sort_key)
        for old, new in zip(versions, versions[1:]):
            added = removed = changed = 0
            by_option: Counter = Counter()
            for project in projects:
                try:
                    d = queries.diff(conn, project, old, new)
                except NoData:
                    continue
                for o in d.by_option:
                    mine = [e for e in o.entries if _own(e.file)]
                    added += sum(e.change == "added" for e in mine)
                    removed += sum(e.change == "removed" for e in mine)
                    changed += sum(e.change == "changed" for e in mine)
                    by_option[o.option] += sum(e.change == "added" for e in mine)
            most = ", ".join(f"`{o}` +{n}" for o, n in by_option.most_common(3) if n)
            print(f"| {old} → {new} | {added} | {removed} | {changed} | {most} |")
    print()


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else ""
    if what == "build":
        build()
    elif what == "check":
        check()
    elif what == "report":
        report()
    else:
        sys.exit("usage: python -m bench.zoo_warnings build|check|report")
