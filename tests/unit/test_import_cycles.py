"""Imports run one way inside the packages too, read from the source with ``ast``:

* no import cycle anywhere in ``analyzer/``, ``warnscope/`` and ``flagdb/``, an import
  inside a function (run when it is called) counting as much as one at the top of a
  module; an import under ``if TYPE_CHECKING:`` never runs and does not count (it names a
  type for an annotation only). A cycle hidden in a function is a module half-loaded when
  the other asks for it, or an order of imports that works by luck.
* the UB family in layers: its core (the corpus run, ``analyzer/ub/*.py``: what ``ub run``
  is made of and the store) imports none of its features (``explain/``, ``why/``,
  ``detectors/``) nor the reports that gather them (:data:`UB_REPORTS`); each feature
  stands on the core. So ``ub run`` loads no feature, and a change in a feature cannot
  change the run.
* a store API (``analyzer/<family>/store.py``, and the detectors' ``analyzer/ub/detectors/
  store.py``) loads no sandbox: another family reading the UB tables (the advice, the site)
  must not load the machinery that runs untrusted programs. Checked on the static graph,
  and by importing each store in a fresh interpreter and listing ``sys.modules``.
"""
from __future__ import annotations

import ast
import functools
import sys
from pathlib import Path

from warnscope import tool

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("analyzer", "flagdb", "warnscope")
UB = "analyzer.ub"
#: the UB family's features: each stands on the core, none is imported by it
UB_FEATURES = ("analyzer.ub.explain", "analyzer.ub.why", "analyzer.ub.detectors")
#: the UB reports (``ub report``, its text): they gather the run's cells and every
#: feature's findings, so they stand above the features, outside the core
UB_REPORTS = ("analyzer.ub.report", "analyzer.ub.report_text")
#: the sandbox: what runs an untrusted program
SANDBOX = "analyzer.sandbox"


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache
def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the scanned packages, by its name."""
    return {module_name(p, root): p for pkg in PACKAGES for p in sorted((root / pkg).rglob("*.py"))
            if "web" not in p.relative_to(root).parts}


def _type_checking(node: ast.AST) -> bool:
    test = node.test if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """(line, absolute name) of every import of ``path`` that runs, wherever it is (a
    function, a ``try``): ``from a import b`` gives ``a`` and ``a.b`` (``b`` may be a
    module); relative imports resolved; the body of ``if TYPE_CHECKING:`` skipped."""
    package = module_name(path, root).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.append((node.lineno, module))
            found.extend((node.lineno, f"{module}.{alias.name}") for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_bytes(), str(path)))
    return found


@functools.cache
def graph(root: Path = ROOT) -> dict[str, dict[str, int]]:
    """module -> {module it imports: the line of the first such import}. Importing
    ``a.b.c`` runs ``a/__init__.py`` and ``a/b/__init__.py`` too, so those are imported."""
    mods = modules(root)
    edges: dict[str, dict[str, int]] = {}
    for name, path in mods.items():
        out: dict[str, int] = {}
        for line, imported in imports(path, root):
            parts = imported.split(".")
            for n in range(1, len(parts) + 1):
                target = ".".join(parts[:n])
                if target in mods and target != name and not name.startswith(target + "."):
                    out.setdefault(target, line)
        edges[name] = out
    return edges


def cycles(edges: dict[str, dict[str, int]]) -> list[list[str]]:
    """The import cycles: each strongly connected set of more than one module (or a
    module importing itself), sorted (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                members = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    members.append(m)
                    if m == node:
                        break
                if len(members) > 1 or node in edges.get(node, ()):
                    found.append(sorted(members))
    return sorted(found)


def described(cycle: list[str], edges: dict[str, dict[str, int]], root: Path = ROOT) -> str:
    """One line naming where each module of ``cycle`` imports the next of it."""
    members = set(cycle)
    steps = [f"{modules(root)[m].relative_to(root)}:{line} imports {t}"
             for m in cycle for t, line in sorted(edges[m].items()) if t in members]
    return "; ".join(steps)


def closure(edges: dict[str, dict[str, int]], start: str) -> set[str]:
    """``start`` and every module its import loads."""
    seen, todo = set(), [start]
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo += edges.get(m, {})
    return seen


def under(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def ub_core(edges: dict[str, dict[str, int]]) -> list[str]:
    """The UB family's core: its modules outside the features and the reports."""
    return sorted(m for m in edges if under(m, UB) and m != UB
                  and not any(under(m, f) for f in (*UB_FEATURES, *UB_REPORTS)))


def core_imports_of_features(root: Path = ROOT) -> list[str]:
    """``path:line: imports name`` for each import by a module of the UB core of a
    feature or a report."""
    edges = graph(root)
    mods = modules(root)
    return [f"{mods[m].relative_to(root)}:{line}: imports {t}"
            for m in ub_core(edges) for t, line in sorted(edges[m].items(), key=lambda e: e[1])
            if any(under(t, f) for f in (*UB_FEATURES, *UB_REPORTS))]


def store_apis(root: Path = ROOT) -> list[str]:
    """Every store API module: ``analyzer/<family>/store.py`` and a feature's
    ``store.py`` under it."""
    return sorted(module_name(p, root) for p in (root / "analyzer").rglob("store.py")
                  if "web" not in p.parts)


def stores_loading_the_sandbox(root: Path = ROOT) -> list[str]:
    """``store: sandbox module`` for each store API whose import loads the sandbox."""
    edges = graph(root)
    return [f"{store}: {m}" for store in store_apis(root)
            for m in sorted(closure(edges, store)) if under(m, SANDBOX)]


def test_no_import_cycle():
    edges = graph()
    assert len(edges) > 150 and "analyzer.ub.run" in edges
    assert [described(c, edges) for c in cycles(edges)] == []


def test_the_ub_core_imports_no_feature():
    edges = graph()
    core = ub_core(edges)
    assert {"analyzer.ub.run", "analyzer.ub.store", "analyzer.ub.results", "analyzer.ub.jobs"} <= set(core)
    assert core_imports_of_features() == []
    # so ub run loads no feature
    assert sorted(m for m in closure(edges, "analyzer.ub.run")
                  if any(under(m, f) for f in (*UB_FEATURES, *UB_REPORTS))) == []


def test_no_store_api_loads_the_sandbox():
    apis = store_apis()
    assert {"analyzer.ub.store", "analyzer.warnings.store", "analyzer.overhead.store",
            "analyzer.advise.store", "analyzer.ub.detectors.store"} <= set(apis)
    assert stores_loading_the_sandbox() == []


def test_no_store_api_loads_the_sandbox_when_imported():
    """The same, by importing each store API in a fresh interpreter (this worktree's
    packages first) and listing what it loaded."""
    code = ("import importlib, sys; importlib.import_module(sys.argv[1]); "
            "print('\\n'.join(sorted(m for m in sys.modules if m.startswith('analyzer.'))))")
    for store in store_apis():
        done = tool.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(ROOT)!r}); {code}",
                         store], timeout=60, what=f"import {store}")
        loaded = done.stdout.split()
        assert store in loaded
        assert [m for m in loaded if under(m, SANDBOX)] == [], store


def plant(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    for pkg in PACKAGES:
        (root / pkg).mkdir(exist_ok=True)
        for d in [root / pkg, *(p for p in (root / pkg).rglob("*") if p.is_dir())]:
            if not (d / "__init__.py").exists():
                (d / "__init__.py").write_text("")


def test_a_planted_cycle_is_found(tmp_path):
    """Each form is found: at the top, in a function, relative, through a package's
    ``__init__``; the one under ``if TYPE_CHECKING:`` is not a cycle."""
    plant(tmp_path, {
        "analyzer/ub/store.py": "from analyzer.ub.results import Cell\n",
        "analyzer/ub/results.py": "import typing\nif typing.TYPE_CHECKING:\n    from analyzer.ub import store\n",
        "analyzer/ub/detectors/scores.py": "from analyzer.ub import store\n",
        "analyzer/ub/run.py": "from . import jobs\n",
        "analyzer/ub/jobs.py": "def f():\n    from .run import x\n",
        "warnscope/a.py": "import flagdb.b\n",
        "flagdb/__init__.py": "from flagdb import c\n",
        "flagdb/c.py": "from warnscope import a\n",
    })
    edges = graph(tmp_path)
    assert cycles(edges) == [["analyzer.ub.jobs", "analyzer.ub.run"],
                             ["flagdb", "flagdb.c", "warnscope.a"]]
    assert described(["analyzer.ub.jobs", "analyzer.ub.run"], edges, tmp_path) == \
        "analyzer/ub/jobs.py:2 imports analyzer.ub.run; analyzer/ub/run.py:1 imports analyzer.ub.jobs"


def test_a_planted_feature_import_of_the_core_is_found(tmp_path):
    plant(tmp_path, {
        "analyzer/ub/run.py": "def f():\n    from analyzer.ub.why import whyrun\n",
        "analyzer/ub/store.py": "from analyzer.ub.detectors.scores import latest\n",
        "analyzer/ub/results.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                  "    from analyzer.ub.detectors.scores import CaseDetections\n",
        "analyzer/ub/jobs.py": "from analyzer.ub import report\n",
        "analyzer/ub/report.py": "from analyzer.ub.explain import explain\n",
        "analyzer/ub/detectors/scores.py": "from analyzer.ub import store\n",
        "analyzer/ub/why/whyrun.py": "from analyzer.ub import run\n",
    })
    assert core_imports_of_features(tmp_path) == [
        "analyzer/ub/jobs.py:1: imports analyzer.ub.report",
        "analyzer/ub/run.py:2: imports analyzer.ub.why",
        "analyzer/ub/run.py:2: imports analyzer.ub.why.whyrun",
        "analyzer/ub/store.py:1: imports analyzer.ub.detectors",
        "analyzer/ub/store.py:1: imports analyzer.ub.detectors.scores"]


def test_a_planted_store_loading_the_sandbox_is_found(tmp_path):
    plant(tmp_path, {
        "analyzer/sandbox/runner.py": "",
        "analyzer/ub/store.py": "from analyzer.ub.results import Cell\n",
        "analyzer/ub/results.py": "def f():\n    from analyzer.ub.compile import x\n",
        "analyzer/ub/compile.py": "from analyzer.sandbox import runner\n",
        "analyzer/warnings/store.py": "import analyzer.warnings.results\n",
        "analyzer/warnings/results.py": "",
    })
    assert stores_loading_the_sandbox(tmp_path) == ["analyzer.ub.store: analyzer.sandbox",
                                                    "analyzer.ub.store: analyzer.sandbox.runner"]
