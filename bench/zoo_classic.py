"""The classic overflowing loop across every compiler of the zoo, as a markdown table.

``corpus/signed-integer-overflow/loop.c`` counts from ``INT_MAX - 2`` while ``i > 0``:
without exploitation it prints 3; a compiler that assumes signed overflow cannot happen
may loop forever, drop the loop, or drop the printf. The seed article showed it for GCC
4.7 / 4.9 and clang 3.4; this runs the same program through ``warnscope ub run`` (the
real CLI, its sandbox, its warning detection) on every GCC and clang found on the host
or in a prepared Debian root (``warnscope toolchain add``), at -O0/-O2/-O3, and prints
one row per compiler: exact version (suite, Debian package), what each level printed,
hung or crashed, and which warnings fired.

Only that one case runs: a private corpus directory holds just ``loop.c`` and its
``.output``. The results go to a private database, not the user's.

Run from the repository root: ``.venv/bin/python -m bench.zoo_classic [COMPILERS]``
(default: every compiler ``toolchain list`` shows on the host or in a root).
``ZOO_CLASSIC_JSON=FILE`` also keeps the raw ``ub run --json`` output.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from analyzer.runtime import roots
from warnscope.measure import machine
from analyzer.runtime.toolchain import resolve
from warnscope import tool
from warnscope.errors import NotInstalled, ToolFailed
from warnscope.compilers import sort_key

CASE = Path(__file__).resolve().parent.parent / "corpus" / "signed-integer-overflow" / "loop"
LEVELS = ("-O0", "-O2", "-O3")
TIMEOUT = float(os.environ.get("ZOO_CLASSIC_TIMEOUT", "3"))


def available() -> list[str]:
    """Every compiler on the host or in a root, GCC first, by major."""
    names = {e.compiler for e in roots.listing() if e.status in (roots.ToolchainStatus.HOST, roots.ToolchainStatus.ROOT)}
    return sorted(names, key=sort_key)


def provenance(name: str) -> str:
    """``trixie 14.2.0-19`` for a root, ``bookworm host 12.2.0-14`` for the host."""
    tc = resolve(name)
    if tc.root is not None:
        return f"{tc.suite} {tc.package}"
    pkg = os.path.basename(tc.c_driver)
    try:
        out = tool.run(["dpkg-query", "-S", os.path.realpath(tc.c_driver)], timeout=30,
                       check=False).stdout
        if out:
            pkg = out.split(":", 1)[0].split(",")[0].strip()
        ver = tool.run(["dpkg-query", "-W", "-f", "${Version}", pkg], timeout=30,
                       check=False).stdout
    except (NotInstalled, ToolFailed):
        ver = ""  # no dpkg here: the version stays unknown
    return f"host (bookworm) {pkg} {ver or '?'}"


def describe(cell: dict) -> str:
    out = cell["stdout"].strip() if cell.get("stdout") else ""
    shown = f"`{out}`" if out else "nothing"
    walls = [r["wall"] for r in cell.get("runs", []) if r.get("wall") is not None]
    took = f" ({min(walls):.2f} s)" if walls and cell["outcome"] != "hang" else ""
    return {"expected": f"prints {shown}{took}",
            "unexpected-output": f"exit {cell['exit']}, prints {shown}{took}",
            "hang": f"**hangs** (killed at {TIMEOUT:g} s)",
            "crash": f"**crashes** (signal {cell['signal']})",
            "nonzero-exit": f"exit {cell['exit']}, prints {shown}",
            "compile-error": "does not compile",
            }.get(cell["outcome"], cell["outcome"])


def main() -> None:
    wanted = sys.argv[1:] or available()
    usable, failed = [], {}
    for name in wanted:
        try:
            resolve(name)
            usable.append(name)
        except (NotInstalled, ToolFailed) as e:  # listed as not usable
            failed[name] = str(e)
    with tempfile.TemporaryDirectory(prefix="zoo-classic-") as tmp:
        corpus = Path(tmp) / "corpus" / "signed-integer-overflow"
        corpus.mkdir(parents=True)
        for suffix in (".c", ".output"):
            shutil.copy(CASE.with_suffix(suffix), corpus / CASE.with_suffix(suffix).name)
        argv = [sys.executable, "-c", "from analyzer.cli import main; main()",
                "--db", str(Path(tmp) / "classic.db"), "ub", "run",
                "--corpus", str(corpus.parent), "--compilers", ",".join(usable),
                "--levels", ",".join(LEVELS), "--timeout", f"{TIMEOUT:g}", "--json"]
        load = os.getloadavg()
        start = time.monotonic()
        # the whole zoo: a few minutes normally; an hour means something hangs
        proc = tool.run(argv, timeout=3600, check=False, what="warnscope ub run")
        wall = time.monotonic() - start
    if proc.returncode != 0:
        sys.exit(f"ub run failed ({proc.returncode}): {proc.stderr.strip()[-500:]}")
    data = json.loads(proc.stdout)
    if os.environ.get("ZOO_CLASSIC_JSON"):
        Path(os.environ["ZOO_CLASSIC_JSON"]).write_text(proc.stdout)
    rows: dict[str, dict] = {}
    for cell in data:  # one dict per cell
        if cell["flags"]:
            continue
        row = rows.setdefault(cell["compiler"], {"version": cell["compiler_version"],
                                                 "warned": {}, "sanitizers": set()})
        row[cell["level"]] = describe(cell)
        if cell["warnings"] is None:  # warning detection failed for this cell
            row["warned"].setdefault("(unknown)", []).append(cell["level"])
        for w in cell["warnings"] or []:
            row["warned"].setdefault(w, []).append(cell["level"])
        row["sanitizers"] |= {s for s, caught in (cell.get("sanitizers") or {}).items() if caught}
    print(f"machine: {machine()}")
    print(f"load average before: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    print(f"`ub run`: {len(usable)} compilers x {len(LEVELS)} levels, 2 runs per cell, "
          f"{TIMEOUT:g} s timeout, fresh database (shared compile cache): "
          f"wall {wall:.1f} s (1 run)\n")
    print("| compiler | version (`--version`) | suite, package | -O0 | -O2 | -O3 | warned | "
          "sanitizer caught it |")
    print("|---|---|---|---|---|---|---|---|")
    for name in usable:
        row = rows.get(name)
        if row is None:
            print(f"| {name} | ? | ? | no cell | | | | |")
            continue
        version = row["version"].split(" [Debian ")[0]
        warned = "; ".join(f"`{w}` ({', '.join(lv)})" for w, lv in sorted(row["warned"].items()))
        caught = ", ".join(sorted(row["sanitizers"])) or "no"
        print(f"| {name} | {version} | {provenance(name)} | "
              + " | ".join(row.get(lv, "?") for lv in LEVELS)
              + f" | {warned or 'nothing'} | {caught} |")
    for name, why in failed.items():
        print(f"\n{name}: not run: {why}")


if __name__ == "__main__":
    main()
