"""Every process warnscope starts for itself goes through the one runner
(:mod:`warnscope.tool`: timeout, process-group kill, capped output, UTF-8 check).

An AST scan of the code (analyzer/, flagdb/, warnscope/, bench/): no other module
imports or calls ``subprocess``, ``os.fork``, ``os.exec*``, ``os.spawn*``,
``os.posix_spawn*``, ``os.system``, ``os.popen``, ``pty`` or ``multiprocessing``,
except those listed in :data:`EXEMPT`, each with its reason.
"""
from __future__ import annotations

import ast
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("analyzer", "flagdb", "warnscope", "bench")
#: modules that may not be imported at all outside the exemptions
MODULES = {"subprocess", "pty", "multiprocessing"}
#: ``os`` functions that start or replace a process (those this Python has)
PROCESS_FUNCTIONS = {n for n in dir(os) if n.startswith(("fork", "exec", "spawn", "posix_spawn"))
                     } | {"system", "popen"}

#: module -> why it may start processes itself. Temporary ones are marked so.
EXEMPT = {
    "warnscope/tool.py": "the one runner itself",
    "analyzer/sandbox/plain.py": "the sandbox without namespaces creates the limits, uid and "
                                 "process of an untrusted program itself: a tool run has none "
                                 "of them",
    "analyzer/sandbox/zygote.py": "starts the sandbox's zygote (zygote.c), which "
                              "forks each untrusted compile and run in its namespaces",
    "analyzer/runtime/executors.py": "the worker pool (multiprocessing fork context, "
                             "PR_SET_PDEATHSIG): workers run warnscope's own code, and "
                             "every tool they start goes through the runner",
}


def _is_process_call(node: ast.AST, os_aliases: set[str], os_names: set[str]) -> str | None:
    """``os.fork()``/``os.execvp(...)``/…, or a bare name imported from os; else None."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
            and node.value.id in os_aliases:
        name = node.attr
    elif isinstance(node, ast.Name) and node.id in os_names:
        name = node.id
    else:
        return None
    return f"os.{name}" if name in PROCESS_FUNCTIONS else None


def offences(path: Path) -> list[str]:
    """What in ``path`` starts processes without the runner, as ``line: what``."""
    tree = ast.parse(path.read_text(), str(path))
    found: list[str] = []
    os_aliases = {"os"}
    os_names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top in MODULES:
                    found.append(f"{node.lineno}: import {alias.name}")
                if alias.name == "os":
                    os_aliases.add(alias.asname or "os")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            top = node.module.split(".")[0]
            if top in MODULES:
                found.append(f"{node.lineno}: from {node.module} import ...")
            if node.module == "os":
                for alias in node.names:
                    if alias.name in PROCESS_FUNCTIONS:
                        found.append(f"{node.lineno}: from os import {alias.name}")
                        os_names.add(alias.asname or alias.name)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == "__import__" and node.args \
                and isinstance(node.args[0], ast.Constant) \
                and str(node.args[0].value).split(".")[0] in MODULES:
            found.append(f"{node.lineno}: __import__({node.args[0].value!r})")
    for node in ast.walk(tree):
        what = _is_process_call(node, os_aliases, os_names)
        if what:
            found.append(f"{node.lineno}: {what}")
    return sorted(set(found), key=lambda s: int(s.split(":")[0]))


def _modules() -> list[Path]:
    return sorted(p for d in SCANNED for p in (ROOT / d).rglob("*.py"))


def test_no_module_starts_processes_outside_the_runner():
    bad = {}
    for path in _modules():
        rel = path.relative_to(ROOT).as_posix()
        if rel in EXEMPT:
            continue
        found = offences(path)
        if found:
            bad[rel] = found
    assert bad == {}, ("start processes through warnscope.tool (or add an exemption with its "
                       f"reason): {bad}")


def test_the_exemptions_are_real_and_still_needed():
    """An exemption for a module that no longer exists, or no longer starts processes,
    is removed rather than kept as a hole."""
    for rel in EXEMPT:
        path = ROOT / rel
        assert path.is_file(), f"exempt module {rel} does not exist"
        assert offences(path), f"{rel} no longer starts processes: drop its exemption"


def test_the_scan_sees_every_way_of_starting_a_process(tmp_path):
    """The scanner itself, on code that does each forbidden thing (and on code that only
    looks alike)."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os, os as o2\n"
        "import subprocess as sp\n"
        "from multiprocessing import Pool\n"
        "import pty\n"
        "from os import execvp, getpid\n"
        "from subprocess import run\n"
        "os.fork()\n"
        "o2.posix_spawnp('x', [], {})\n"
        "os.spawnlp(0, 'x')\n"
        "os.system('x')\n"
        "os.popen('x')\n"
        "execvp('x', [])\n"
        "getpid(); os.getpid(); os.forked = 1\n"
        "__import__('subprocess')\n")
    found = [line.split(": ", 1)[1] for line in offences(sample)]
    assert found == ["import subprocess", "from multiprocessing import ...", "import pty",
                     "from os import execvp", "from subprocess import ...", "os.fork",
                     "os.posix_spawnp", "os.spawnlp", "os.system", "os.popen", "os.execvp",
                     "__import__('subprocess')"]
