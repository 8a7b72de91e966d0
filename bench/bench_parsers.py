"""Every parser of untrusted text, on adversarial input at its size cap.

Each parser reads text a build, a compile or a tree wrote: a configure log, a CMake cache
and its error log, a Meson log, a generated header (``analyzer.warnings.checks``, at most
``checks.MAX_LOG`` = 32 MiB each), a compile's diagnostics (``warnscope.diagnostics``: a
warnings build's TU output at most ``extract.MAX_FILE_BYTES`` = 16 MiB, a UB compile's
4 MiB), and the build system's input where the upgrade's SARIF places a flipped check
(``analyzer.warnings.sarif.TreeLines``, a file of at most 16 MiB). Each input is the
shape that made a parser super-linear before (a run of spaces before a colon, a lazy
value before ``\\s*$``, a thousand lines of ``[``, a failure counting the lines before
it, lines of ``["a`` in a compile of several sources split per source, a scan of the
file per word) at the cap, with real entries among it that must be
read back. Then ``warnscope upgrade --format sarif``'s log builder over 10,000 flipped
checks located in a 3.6 MB ``configure.ac``.

Wall of each parse, BENCH_RUNS runs (default 3): min / median / max, and the load
average before and after. Run from the repository root:
``.venv/bin/python -m bench.bench_parsers``.
"""
from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from typing import Callable

from warnscope.measure import machine, stats

RUNS = int(os.environ.get("BENCH_RUNS", "3"))
MIB = 1 << 20


def fill(line: str, size: int, every: int = 0, real: str = "") -> str:
    """``line`` repeated to ``size`` bytes, ``real`` after every ``every`` lines."""
    n = max(1, size // (len(line) + (len(real) / every if every else 0)))
    if not every:
        return line * int(n)
    block = line * every + real
    return block * max(1, size // len(block))


def inputs() -> list[tuple[str, int, Callable[[], object], Callable[[object], str]]]:
    """(name, bytes, parse, say what was read) per parser."""
    from analyzer.warnings import checks
    from analyzer.warnings.formats import split_documents
    from warnscope.diagnostics import parse_gcc_json, parse_sarif, parse_text

    cap = checks.MAX_LOG
    autoconf = fill("x: " * 600 + "\n", cap, 200,
                    "configure:1: checking for \t" + " " * 1500 + "x\nconfigure:2: result: yes\n")
    cache = fill("HAVE_" + "_" * 1900 + ":INTERNAL=1\n", cap, 100, "HAVE_STRLCPY:INTERNAL=\n")
    errors = fill("  variable: \"" + "x" * 1000 + "\"" + " " * 900 + "y\n", cap, 100,
                  "Performing C SOURCE FILE Test HAVE_STRLCPY failed with:\nsrc.c:1:1: error: no\n")
    meson = fill("Checking if " + " " * 1980 + "x\n", cap, 1000,
                 'Checking for function "strlcpy" : YES\n')
    header = fill("#define X a" + " " * 1980 + "b\n#undef Y" + " " * 1980 + "*/ z\n", cap, 100,
                  "/* #undef HAVE_Z */\n")
    tu = 16 * MIB
    text = fill("f.c:1:" * 300 + " [-W" * 100 + "\n", tu, 100,
                "f.c:3:5: warning: unused variable 'x' [-Wunused-variable]\n")
    real = "x\nreal:file.c:3:5: warning: unused variable 'x' [-Wunused-variable]\n"
    resolved = "".join("".join(f"n{i}:1: error: " * 6 + "m\n" for i in range(j, j + 100)) + real
                       for j in range(0, tu // 100, 100))
    nested = '[{"kind": "warning", "message": "m", "option": "-Wx", "locations": []}]\n' + "[\n" * (tu // 2)
    sarif = '{"runs": [\n' + "[\n" * (tu // 2)
    ub = 4 * MIB
    stderr = ('[{"kind": "warning", "message": "m", "option": "-Wx"}]\n'
              + fill('["a\n', ub // 2) + fill("[\n", ub // 2))
    gcc = '[{"kind": "warning", "message": "m", "option": "-Wx", "locations": []}]\n'
    several = [gcc, fill('["a\n', tu // 2) + "[x]\n" + gcc, "[\n" * (tu // 8) + "]\n" * (tu // 8) + gcc]
    compile_ = "".join(several)
    return [
        ("autoconf config.log", len(autoconf), lambda: checks.autoconf_checks(autoconf),
         lambda r: f"{len(r)} checks"),
        ("CMakeCache.txt + CMakeError.log", len(cache) + len(errors),
         lambda: checks.cmake_checks(cache, errors), lambda r: f"{len(r)} checks"),
        ("meson-log.txt", len(meson), lambda: checks.meson_checks(meson), lambda r: f"{len(r)} checks"),
        ("config.h", len(header), lambda: checks.config_macros(header), lambda r: f"{len(r)} macros"),
        ("clang text", len(text), lambda: parse_text.parse(text),
         lambda r: f"{len(r.diagnostics)} diagnostics"),
        ("clang text, names resolved", len(resolved),
         lambda: parse_text.parse(resolved, lambda name: name == "real:file.c"),
         lambda r: f"{sum(1 for d in r.diagnostics if d.file)} placed, "
                   f"{sum(1 for d in r.diagnostics if d.file is None)} unplaced"),
        ("GCC JSON, nested", len(nested), lambda: parse_gcc_json.parse(nested),
         lambda r: f"{len(r.diagnostics)} diagnostics, problem: {r.problem}"),
        ("SARIF, nested", len(sarif), lambda: parse_sarif.parse(sarif),
         lambda r: f"problem: {r.problem}"),
        ("GCC JSON among text (UB compile)", len(stderr), lambda: parse_gcc_json.split_stderr(stderr),
         lambda r: f"{len(r[0])} elements"),
        ("GCC JSON of a compile of three sources, split (warnings build)", len(compile_),
         lambda: split_documents(compile_, ["a.c", "b.c", "c.c"]),
         lambda r: f"{len(r or [])} pieces, as made: {r == several}"),
    ]


def upgrade_sarif(tmp: Path) -> tuple[str, int, Callable[[], object], Callable[[object], str]]:
    """The upgrade's SARIF with 10,000 flipped checks, located in a 3.6 MB configure.ac
    (a tree in the cache, where a stored build's tree is)."""
    os.environ["WARNSCOPE_CACHE"] = str(tmp / "cache")
    from analyzer.warnings import queries, sarif
    from analyzer.warnings.results import Build, CheckFlip, Environment, Upgrade, UpgradePair

    tree = tmp / "cache" / "apt" / "trees" / "bench"
    tree.mkdir(parents=True)
    lines = [f"AC_MSG_CHECKING([if libc defines thing_{i}]) dnl {'x ' * 20}" for i in range(36_000)]
    (tree / "configure.ac").write_text("\n".join(lines) + "\n")
    flips = [CheckFlip("autoconf", f"if libc defines {'thing' if i % 2 else 'missing'}_{i}", "yes", "no")
             for i in range(10_000)]
    builds = {c: Build(project="bench", origin="bench", compiler=c, compiler_version=c, level="default",
                       opt="-O2", flags={"c": []}, format="clang-text") for c in ("clang-14", "clang-16")}
    assert queries.source_root(builds["clang-16"]) == tree
    diff = queries.diff_of(builds["clang-14"], builds["clang-16"])
    pair = UpgradePair(old="clang-14", new="clang-16", switching=False, old_status="ok", new_status="ok",
                       old_error=None, new_error=None, flips=flips, macros=[], new_errors=[], hatch=None,
                       defaults=[], options=[], warnings=diff, environment=Environment("host", "host"))
    report = Upgrade("bench", str(tree), "default", [pair])
    size = (tree / "configure.ac").stat().st_size

    def located(log: dict) -> str:
        results = log["runs"][1]["results"]
        placed = sum(1 for r in results if r["locations"][0]["physicalLocation"].get("region"))
        return f"{len(results)} results, {placed} at a line"

    return ("upgrade SARIF, 10,000 flips", size, lambda: sarif.upgrade_log(report, builds, {("clang-14", "clang-16"): diff}), located)


def main() -> None:
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="bench-parsers-") as tmp:
        for name, size, parse, said in [*inputs(), upgrade_sarif(Path(tmp))]:
            load = os.getloadavg()[0]
            walls, result = [], None
            for _ in range(RUNS):
                start = time.monotonic()
                result = parse()
                walls.append(time.monotonic() - start)
            s = stats(walls)
            print(f"{name}: {size / MIB:.1f} MiB, {RUNS} runs: wall min {s.min:.2f} / median {s.median:.2f} "
                  f"/ max {s.max:.2f} s; {said(result)}; load {load:.2f} -> {os.getloadavg()[0]:.2f}",
                  flush=True)


if __name__ == "__main__":
    main()
