"""Benchmark of one GCC plugin query against a bare ``gcc -fsyntax-only`` on an empty file.

A plugin query is what ``warnscope flags closure gcc-12 -Wall`` runs: the compiler
on an empty input with the plugin, the flags on its command line and one closure
asked of the plugin. The configurations are interleaved (bare, plugin, bare, …)
so drift on a busy machine falls on both alike. Times are the child's CPU
(user+sys, from os.wait4) and wall.

Run from the repository root after ./setup.sh:  .venv/bin/python -m bench.bench_plugin
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path


from warnscope.measure import Sample, machine, run_inprocess, summary
from warnscope.tool import run_child

from analyzer.gccplugin import binary as gcc_binary
from analyzer.gccplugin import plugin as gcc_plugin

RUNS = int(os.environ.get("BENCH_RUNS", "20"))
GOAL = 0.05


def commands(plugin: gcc_plugin.Plugin, lang: str, tmp: Path) -> dict[str, list[str]]:
    empty = tmp / "empty"
    empty.write_bytes(b"")
    out = (tmp / "report.json").as_posix().encode().hex()
    prefix = f"-fplugin-arg-{plugin.name}-"
    bare = [plugin.gcc, "-x", lang, "-fsyntax-only", str(empty), "-Wall"]
    query = bare + [f"-fplugin={plugin.path}", f"{prefix}out={out}",
                    f"{prefix}closure=" + "-Wall".encode().hex()]
    return {f"bare {plugin.compiler} -x {lang} -fsyntax-only -Wall (empty file)": bare,
            f"plugin query {plugin.compiler} -x {lang}: states + closure of -Wall": query,
            f"plugin query {plugin.compiler} -x {lang} with the option table": query + [f"{prefix}table"]}


def library_closure(plugin: gcc_plugin.Plugin, lang: str) -> Sample:
    """``gcc_binary.closure`` as the CLI calls it: this process plus its compiler runs."""
    return run_inprocess(lambda: gcc_binary.closure(plugin, ["-Wall"], lang),
                         include_children=True)


def main() -> None:
    print(f"machine: {machine()}")
    print("timed: CPU user+sys of the compiler process (os.wait4) and wall, interleaved")
    for compiler in ("gcc-12", "gcc-11"):
        plugin = gcc_plugin.locate(compiler)
        for lang in ("c", "c++"):
            with tempfile.TemporaryDirectory() as tmp:
                cmds = commands(plugin, lang, Path(tmp))
                samples: dict[str, list[Sample]] = {name: [] for name in cmds}
                for cmd in cmds.values():
                    run_child(cmd)  # warm-up
                for _ in range(RUNS):
                    for name, cmd in cmds.items():
                        samples[name].append(run_child(cmd))
                for name, got in samples.items():
                    print(summary(name, got, goal=GOAL if "plugin" in name else None))
            library_closure(plugin, lang)  # warm-up; the baseline run is cached from here on
            got = [library_closure(plugin, lang) for _ in range(RUNS)]
            print(summary(f"gcc_binary.closure({plugin.compiler}, -Wall, {lang}) in-process, "
                          "CPU of this process and its compiler runs", got))


if __name__ == "__main__":
    main()
