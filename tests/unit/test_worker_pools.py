"""One place creates worker processes: :mod:`analyzer.runtime.executors` (its ``LocalExecutor``
forks them, with the lifetime rules every worker needs: die with the parent, ignore
Ctrl-C, take their children down on SIGTERM). A second pool elsewhere would be a
worker without those rules, so no other module names ``multiprocessing`` or a
``ProcessPoolExecutor``. (The sandbox forks its own processes with ``os.fork``: those
are not workers, and it is not counted here.)"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("analyzer", "flagdb", "warnscope", "bench")
THE_PLACE = ROOT / "analyzer" / "runtime" / "executors.py"


def pool_uses(path: Path) -> list[str]:
    """``line: what`` for each import of multiprocessing and each name or attribute
    ``ProcessPoolExecutor`` in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.Import):
            found += [f"{node.lineno}: import {a.name}" for a in node.names
                      if a.name.split(".")[0] == "multiprocessing"]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if module.split(".")[0] == "multiprocessing":
                found.append(f"{node.lineno}: from {module} import …")
            found += [f"{node.lineno}: from {module} import {a.name}" for a in node.names
                      if a.name == "ProcessPoolExecutor"]
        elif isinstance(node, ast.Attribute) and node.attr == "ProcessPoolExecutor":
            found.append(f"{node.lineno}: .ProcessPoolExecutor")
        elif isinstance(node, ast.Name) and node.id == "ProcessPoolExecutor":
            found.append(f"{node.lineno}: ProcessPoolExecutor")
    return found


def test_only_the_executors_make_worker_pools():
    files = [p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))]
    assert THE_PLACE in files and pool_uses(THE_PLACE)   # the scan sees the one place
    elsewhere = [f"{p.relative_to(ROOT)}:{use}" for p in files if p != THE_PLACE
                 for use in pool_uses(p)]
    assert elsewhere == []
