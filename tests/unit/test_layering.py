"""Imports run one way: the CLI (``analyzer/cli``) sits on top of the libraries and the
site, and nothing below it imports it. A library that reached up into the CLI would
drag click and every command's wording into the site, the benchmarks and other
libraries, and a change of wording in one command would silently change another
renderer. Read from the source (the import statements themselves, with ``ast``), so a
lazy import inside a function counts as much as one at the top of a module."""
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


def imported_modules(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in ``path``; ``from X import y``
    counts as both ``X`` and ``X.y`` (``y`` may be a module), relative imports resolved."""
    package = module_name(path, root).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.append((node.lineno, module))
            found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
    return found


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
#: ``analyzer.build`` and ``flagdb``, never another family
FAMILIES = ("analyzer.warnings", "analyzer.ub", "analyzer.overhead", "analyzer.advise",
            "analyzer.verify", "analyzer.site")


def test_the_advice_imports_no_other_family():
    """``analyzer/advise`` reads the other families' tables with its own SQL
    (``advise/store.py``) and is handed what it needs of their code by the CLI (the UB
    checks' flags): importing their packages would tie it to their internals."""
    files = sorted((ROOT / "analyzer" / "advise").rglob("*.py"))
    assert ROOT / "analyzer" / "advise" / "store.py" in files
    others = [f for f in FAMILIES if f != "analyzer.advise"]
    wrong = [f"{p.relative_to(ROOT)}:{line}: imports {module}"
             for p in files for line, module in imported_modules(p)
             if any(module == o or module.startswith(o + ".") for o in others) or is_cli(module)]
    assert wrong == []
