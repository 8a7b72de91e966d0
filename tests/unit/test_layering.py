"""Imports run one way: the CLI (``analyzer/cli``) sits on top of the libraries and the
site, and nothing below it imports it. A library that reached up into the CLI would
drag click and every command's wording into the site, the benchmarks and other
libraries, and a change of wording in one command would silently change another
renderer. Read from the source (the import statements themselves, with ``ast``), so a
lazy import inside a function counts as much as one at the top of a module.

Below the CLI, the families (:data:`FAMILIES`) stand side by side on one base: each
imports the shared base (``warnscope``), ``flagdb``, the build base (``analyzer.projects``),
the runtime (``analyzer/runtime/``: executors, progress, toolchains, roots; also spelled
as the loose modules they were) and the sandbox (``analyzer/sandbox/``, or
``analyzer.sandbox`` and ``analyzer.sandbox_ns`` as modules), and the GCC plugin's driver
(``analyzer.gccplugin``) -- and of another family only its store API module
(``analyzer.<family>.store``, :func:`store_apis`: the reads of its tables as typed results),
never anything else of it, so a change inside one family cannot silently change another.
One exception, stated in :data:`SITE_READS`: the site renders every family's data, so it
may import the modules listed there as well (each family's results and the modules that
shape them), and no other module of a family.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: the packages whose modules are scanned
PACKAGES = ("analyzer", "flagdb", "warnscope")
#: the CLI itself, and the entry point that runs it (``python -m analyzer``)
ALLOWED = (ROOT / "analyzer" / "cli", ROOT / "analyzer" / "__main__.py")
CLI = "analyzer.cli"


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_statements(path: Path, root: Path = ROOT) -> list[tuple[int, str, list[str]]]:
    """(line, absolute module, names taken from it) of every import in ``path``: ``import
    a.b`` is ``(n, "a.b", [])``, ``from a import b, c`` is ``(n, "a", ["b", "c"])``,
    relative imports resolved."""
    package = module_name(path, root).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.append((node.lineno, module, [alias.name for alias in node.names]))
    return found


def imported_modules(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in ``path``; ``from X import y``
    counts as both ``X`` and ``X.y`` (``y`` may be a module), relative imports resolved."""
    found = []
    for line, module, names in import_statements(path, root):
        found += [(line, module), *((line, f"{module}.{name}") for name in names)]
    return found


def imported_names(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """(line, absolute name) of what each import in ``path`` binds: ``import a.b`` is
    ``a.b``, ``from a import b`` is ``a.b`` (``b`` a module or a name in ``a``): what a
    module takes of another, not the package it is taken from."""
    return [(line, f"{module}.{name}") if names else (line, module)
            for line, module, names in import_statements(path, root)
            for name in (names or [""])]


def is_cli(module: str) -> bool:
    return module == CLI or module.startswith(CLI + ".")


def scanned() -> list[Path]:
    files = [p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))]
    return [p for p in files
            if not any(p == a or a in p.parents for a in ALLOWED) and "web" not in p.parts]


def test_no_module_outside_the_cli_imports_the_cli():
    files = scanned()
    assert len(files) > 50 and ROOT / "analyzer" / "site" / "builder.py" in files
    upward = [f"{p.relative_to(ROOT)}:{line}: imports {module}"
              for p in files for line, module in imported_modules(p) if is_cli(module)]
    assert upward == []


def test_the_scan_sees_every_form_of_import(tmp_path):
    """The scanner itself: each way of writing an import of the CLI is found (the test
    above would pass vacuously if it found none)."""
    pkg = tmp_path / "analyzer" / "site"
    pkg.mkdir(parents=True)
    forms = ["import analyzer.cli.render", "from analyzer.cli.render import x",
             "from analyzer import cli", "from ..cli import render", "from .. import cli",
             "def f():\n    from analyzer.cli import main"]
    for i, form in enumerate(forms):
        path = pkg / f"m{i}.py"
        path.write_text(form + "\n")
        modules = [m for _, m in imported_modules(path, tmp_path)]
        assert any(is_cli(m) for m in modules), (form, modules)
    clean = pkg / "clean.py"
    clean.write_text("from analyzer.site import builder\nimport analyzer.client\n")
    assert not any(is_cli(m) for _, m in imported_modules(clean, tmp_path))


#: the families of ``analyzer``: each imports the shared base, the runtime modules,
#: ``analyzer.projects`` and ``flagdb``, never another family
FAMILIES = ("analyzer.warnings", "analyzer.ub", "analyzer.overhead", "analyzer.advise",
            "analyzer.verify", "analyzer.site")
#: what a family may import of the project besides itself (a module and what is under it)
BASE = ("warnscope", "flagdb", "analyzer.projects", "analyzer.gccplugin", "analyzer.runtime",
        "analyzer.sandbox")
#: the base packages of ``analyzer``: what the families stand on, importing none of them
BASE_PACKAGES = ("analyzer.projects", "analyzer.runtime", "analyzer.sandbox", "analyzer.gccplugin")
#: the project's own top-level packages (anything else is the standard library or a dependency)
FIRST_PARTY = ("analyzer", "flagdb", "warnscope", "bench", "tests")
#: the exception: the modules of other families the site may import besides their store
#: API modules, because it renders their data (their results and queries, and the reports
#: built from them)
SITE_READS = {
    "analyzer.site": (
        "analyzer.warnings.upgrade", "analyzer.warnings.rebuild",
        "analyzer.advise.advice", "analyzer.advise.results", "analyzer.advise.rules",
        "analyzer.overhead.breakdown", "analyzer.overhead.report", "analyzer.overhead.results",
        "analyzer.ub.compile", "analyzer.ub.corpus", "analyzer.ub.detectors.detectors", "analyzer.ub.disasm",
        "analyzer.ub.explain.explain", "analyzer.ub.report", "analyzer.ub.results", "analyzer.ub.detectors.scores",
        "analyzer.warnings.queries", "analyzer.warnings.results"),
}


#: the store API modules of a family besides its ``store.py``: the UB detectors' scores,
#: read from the UB store and scored by the detectors (no SQL of their own)
FEATURE_STORES = {"analyzer.ub": ("analyzer.ub.detectors.store",)}


def store_api(family: str) -> str:
    """A family's store API module: the module of it another family may import (the
    reads of its tables, returning its own dataclasses)."""
    return family + ".store"


def store_apis(family: str) -> tuple[str, ...]:
    """Every store API module of a family: its :func:`store_api` and those of
    :data:`FEATURE_STORES`."""
    return (store_api(family), *FEATURE_STORES.get(family, ()))


def under(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def foreign_imports(root: Path = ROOT) -> list[str]:
    """``path:line: imports name`` for every name a family's module imports of the
    project that is neither its own family's, nor the base's, nor under another family's
    store API module (nor, for the site, under one of :data:`SITE_READS`)."""
    wrong = []
    for family in FAMILIES:
        allowed = (family, *BASE, *(api for f in FAMILIES for api in store_apis(f)),
                   *SITE_READS.get(family, ()))
        for path in sorted((root / Path(*family.split("."))).rglob("*.py")):
            for line, name in imported_names(path, root):
                if name.split(".")[0] not in FIRST_PARTY or name in FIRST_PARTY:
                    continue
                if not any(under(name, a) for a in allowed):
                    wrong.append(f"{path.relative_to(root)}:{line}: imports {name}")
    return wrong


def test_a_family_imports_of_another_family_only_its_store_api():
    """Every family is a package of ``analyzer`` and imports only itself, the base and
    other families' store API modules."""
    assert {p.name for p in (ROOT / "analyzer").iterdir() if (p / "__init__.py").exists()} >= \
        {f.split(".")[1] for f in FAMILIES}
    assert foreign_imports() == []


def test_the_base_names_what_exists():
    """Every module :data:`BASE` and :data:`BASE_PACKAGES` name is there."""
    for name in (*BASE, *BASE_PACKAGES):
        path = ROOT / Path(*name.split("."))
        assert path.is_dir() or path.with_suffix(".py").is_file(), name


def base_imports_of_families(root: Path = ROOT) -> list[str]:
    """``path:line: imports name`` for every import of a family or the CLI by a module of
    the base packages (:data:`BASE_PACKAGES`)."""
    wrong = []
    for package in BASE_PACKAGES:
        for p in sorted((root / Path(*package.split("."))).rglob("*.py")):
            wrong += [f"{p.relative_to(root)}:{line}: imports {name}"
                      for line, name in imported_names(p, root)
                      if any(under(name, f) for f in FAMILIES) or is_cli(name)]
    return wrong


def test_the_base_packages_import_no_family():
    """``analyzer/projects`` (building a project), ``runtime``, ``sandbox`` and
    ``gccplugin`` are what the families stand on: importing one would tie the base to a
    family's internals."""
    assert ROOT / "analyzer" / "projects" / "steps.py" in (ROOT / "analyzer" / "projects").rglob("*.py")
    assert base_imports_of_families() == []


def test_a_planted_base_import_of_a_family_is_found(tmp_path):
    for package in BASE_PACKAGES:
        (tmp_path / Path(*package.split("."))).mkdir(parents=True)
    (tmp_path / "analyzer/sandbox/runner.py").write_text("from analyzer.ub import store\n")
    (tmp_path / "analyzer/runtime/roots.py").write_text("def f():\n    import analyzer.cli.common\n")
    (tmp_path / "analyzer/projects/steps.py").write_text("from analyzer.runtime import toolchain\n")
    found = base_imports_of_families(tmp_path)
    assert [f.split(":")[0] for f in found] == ["analyzer/runtime/roots.py", "analyzer/sandbox/runner.py"], found


def test_a_planted_cross_family_import_is_found(tmp_path):
    """The check itself fails on a family importing another (the test above would pass
    vacuously if it read nothing): here warnings importing the overhead study, the site
    importing a family's module outside :data:`SITE_READS`, a UB module the CLI, and the
    advice a UB module beside its store API (which it may import, in any form)."""
    for family in FAMILIES:
        (tmp_path / Path(*family.split("."))).mkdir(parents=True)
    planted = {"analyzer/warnings/runner.py": "from analyzer.overhead import study\n",
               "analyzer/site/pages.py": "def f():\n    import analyzer.ub.run\n",
               "analyzer/ub/jobs.py": "from analyzer.cli import render\n",
               "analyzer/advise/store.py": ("from analyzer.ub import store\nimport analyzer.warnings.store\n"
                                            "from analyzer.overhead.store import StoredAttribution\n"
                                            "from analyzer.ub.detectors.scores import WarningScores\n"
                                            "from analyzer.ub.detectors import scores\n")}
    clean = ("import os\nimport click\nfrom warnscope import tool\nfrom flagdb import store\n"
             "from analyzer.projects import steps\nfrom analyzer.projects.recipes import Recipe\n"
             "from analyzer.runtime.toolchain import Toolchain\nfrom analyzer.runtime import executors\n"
             "from analyzer.sandbox import runner\nimport analyzer.sandbox.zygote\n"
             "from analyzer.overhead import store\nfrom .results import CellResult\n")
    for rel, text in planted.items():
        (tmp_path / rel).write_text(text)
    (tmp_path / "analyzer/overhead/study.py").write_text(clean)
    (tmp_path / "analyzer/site/overheaddata.py").write_text("from analyzer.overhead import store\n"
                                                             "from analyzer.warnings.results import Build\n")
    assert foreign_imports(tmp_path) == [
        "analyzer/warnings/runner.py:1: imports analyzer.overhead.study",
        "analyzer/ub/jobs.py:1: imports analyzer.cli.render",
        "analyzer/advise/store.py:4: imports analyzer.ub.detectors.scores.WarningScores",
        "analyzer/advise/store.py:5: imports analyzer.ub.detectors.scores",
        "analyzer/site/pages.py:2: imports analyzer.ub.run"]


def test_the_advice_reads_other_families_only_through_their_store_apis():
    """``analyzer/advise`` reads the other families' data only through their store API
    modules (``advise/store.py`` names what it reads from which): it runs no SQL of its
    own on their tables (tests/unit/test_store_boundaries.py) and imports nothing else of
    theirs, which would tie it to their internals."""
    files = sorted((ROOT / "analyzer" / "advise").rglob("*.py"))
    assert ROOT / "analyzer" / "advise" / "store.py" in files
    others = [f for f in FAMILIES if f != "analyzer.advise"]
    read = {api for p in files for _, name in imported_names(p) for o in others
            for api in store_apis(o) if under(name, api)}
    assert read == {"analyzer.warnings.store", "analyzer.ub.store", "analyzer.overhead.store",
                    "analyzer.ub.detectors.store"}
    wrong = [f"{p.relative_to(ROOT)}:{line}: imports {name}"
             for p in files for line, name in imported_names(p)
             if any(under(name, o) and not any(under(name, a) for a in store_apis(o)) for o in others)
             or is_cli(name)]
    assert wrong == []
