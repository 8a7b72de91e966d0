"""Every format of a command is a renderer of a typed report, registered once
(:mod:`warnscope.render`: a :class:`~warnscope.render.Formats` registry per command, in its
family's ``renderers.py``), and a renderer reads only the object it is given: no renderer
module imports the database, sqlite3, a store or the queries that read one, nor runs SQL
(the query that builds what a format reads is the family's, named beside the renderer).
Read from the source with ``ast``; each registered renderer and query is imported and
found.
"""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

from warnscope.render import Format, Formats, Rendered

ROOT = Path(__file__).resolve().parents[2]
#: what a renderer may not import: the database and what reads it
FORBIDDEN = ("sqlite3", "warnscope.database")
FORBIDDEN_SUFFIXES = (".store", ".queries")
#: a call that runs SQL
SQL_CALLS = ("execute", "executemany", "executescript")


def registries() -> dict[str, Formats]:
    """Every registry of every family's ``renderers.py`` (the flag family's too), by
    ``module.NAME``."""
    found = {}
    for path in sorted([*(ROOT / "analyzer").rglob("renderers.py"), ROOT / "flagdb" / "renderers.py"]):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for name, value in vars(importlib.import_module(module)).items():
            if isinstance(value, Formats):
                found[f"{module}.{name}"] = value
    return found


def _module_of(spec: str) -> str:
    return spec.partition(":")[0]


def _path_of(module: str, root: Path = ROOT) -> Path:
    path = root / Path(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def database_uses(path: Path, root: Path = ROOT) -> list[str]:
    """``path:line: what`` for each import of the database or of what reads it, and each
    call that runs SQL, in the module at ``path``."""
    found = []
    package = list(path.relative_to(root).with_suffix("").parts[:-1])
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            names = [module, *(f"{module}.{a.name}" for a in node.names)]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in SQL_CALLS:
            found.append(f"{path.relative_to(root)}:{node.lineno}: runs SQL ({node.func.attr})")
        for name in names:
            if name in FORBIDDEN or any(name.startswith(f + ".") for f in FORBIDDEN) \
                    or any(name.endswith(s) or (s + ".") in name for s in FORBIDDEN_SUFFIXES):
                found.append(f"{path.relative_to(root)}:{node.lineno}: imports {name}")
    return found


def test_every_registered_renderer_and_query_is_there():
    regs = registries()
    assert {"analyzer.warnings.renderers.REPORT", "analyzer.warnings.renderers.UPGRADE",
            "analyzer.ub.renderers.DETECTORS", "analyzer.advise.renderers.ADVICE",
            "analyzer.overhead.renderers.REPORT", "analyzer.ub.renderers.RUN",
            "analyzer.overhead.renderers.CALIBRATE", "analyzer.overhead.renderers.ATTRIBUTE",
            "analyzer.runtime.renderers.LIST", "analyzer.warnings.renderers.REBUILD",
            "analyzer.warnings.renderers.FLAG_SHOW", "analyzer.verify.renderers.VERIFY",
            "flagdb.renderers.LIST", "flagdb.renderers.CHECK", "flagdb.renderers.EXPORT"} <= set(regs)
    for name, formats in regs.items():
        # the first is the default: text (``flags export``'s is its list, to grep)
        assert formats.names and formats.names[0] == ("list" if name == "flagdb.renderers.EXPORT" else "text"), name
        for f in formats:
            assert callable(importlib.import_module(_module_of(f.renderer)).__dict__[f.renderer.split(":")[1]])
            if f.query:
                assert callable(importlib.import_module(_module_of(f.query)).__dict__[f.query.split(":")[1]])


def test_no_renderer_reads_the_database():
    modules = {_module_of(f.renderer) for formats in registries().values() for f in formats}
    assert {"analyzer.warnings.sarif", "analyzer.warnings.text", "analyzer.overhead.csvreport",
            "flagdb.text", "analyzer.verify.text", "analyzer.runtime.toolchain_text",
            "analyzer.gccplugin.closure_text"} <= modules
    assert [u for m in sorted(modules) for u in database_uses(_path_of(m))] == []


def test_a_planted_database_use_is_found(tmp_path):
    """The scan itself: each way a renderer could reach the database is found."""
    pkg = tmp_path / "analyzer" / "warnings"
    pkg.mkdir(parents=True)
    planted = pkg / "sarif.py"
    planted.write_text("import sqlite3\nfrom warnscope.database import connect\n"
                       "from analyzer.warnings import store\nfrom . import queries\n"
                       "def f(conn):\n    return conn.execute('SELECT 1')\n")
    assert database_uses(planted, tmp_path) == [
        "analyzer/warnings/sarif.py:1: imports sqlite3",
        "analyzer/warnings/sarif.py:2: imports warnscope.database",
        "analyzer/warnings/sarif.py:2: imports warnscope.database.connect",
        "analyzer/warnings/sarif.py:3: imports analyzer.warnings.store",
        "analyzer/warnings/sarif.py:4: imports analyzer.warnings.queries",
        "analyzer/warnings/sarif.py:6: runs SQL (execute)"]
    clean = pkg / "text.py"
    clean.write_text("from analyzer.warnings.results import Build\nfrom warnscope import serial\n"
                     "def f(rows):\n    return rows.restore()\n")
    assert database_uses(clean, tmp_path) == []


def test_a_format_renders_through_the_registry():
    """A command's format by name: the renderer's text, a SARIF log with its notes, and
    an unknown name one line of error naming the known ones."""
    from analyzer.overhead import renderers
    from warnscope.errors import BadInput

    formats = Formats("demo", Format("text", "warnscope.render:as_json", newline=False),
                      Format("sarif", "warnscope.render:sarif_log"))
    out = formats["text"].render({"a": 1})
    assert out == Rendered('{\n  "a": 1\n}', [], False)
    log = {"version": "2.1.0", "runs": []}
    assert formats["sarif"].render(log).text.startswith("{")
    try:
        renderers.REPORT["html"]
    except BadInput as exc:
        assert str(exc) == "overhead report: unknown format 'html': one of text, csv, json, markdown"
    else:
        raise AssertionError("an unknown format was accepted")


def _callee(call: ast.Call) -> tuple[str, ast.AST | None]:
    """A call's function name, and what it is taken from (``module.f``: the module)."""
    if isinstance(call.func, ast.Name):
        return call.func.id, None
    if isinstance(call.func, ast.Attribute):
        return call.func.attr, call.func.value
    return "", None


def printed_directly(path: Path, root: Path = ROOT) -> list[str]:
    """``path:line: what`` for each ``echo`` of the CLI module at ``path`` that prints a
    report rendered outside the protocol: its JSON by ``to_json``, a renderer called by
    name rather than through a registry's entry (``REPORT[fmt].render``), or anything a
    text module (``report_text``, ``flag_text`` ...) lays out."""
    found = []
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if not (isinstance(node, ast.Call) and _callee(node)[0] == "echo"):
            continue
        for arg in [*node.args, *(k.value for k in node.keywords)]:
            for inner in ast.walk(arg):
                if not isinstance(inner, ast.Call):
                    continue
                name, source = _callee(inner)
                module = source.id if isinstance(source, ast.Name) else ""
                if name == "to_json" or module.endswith("text") \
                        or (name.startswith("render") and not isinstance(source, ast.Subscript)):
                    found.append(f"{path.relative_to(root)}:{node.lineno}: prints {module or ''}"
                                 f"{'.' if module else ''}{name}(...) outside a registry")
    return found


def test_no_command_prints_a_report_without_its_renderer():
    """Every report a command prints goes through its registry: no CLI module echoes
    ``to_json``, a renderer called by name or a text module's lines."""
    paths = sorted((ROOT / "analyzer" / "cli").glob("*.py"))
    assert len(paths) > 10
    assert [f for p in paths for f in printed_directly(p)] == []


def test_a_planted_direct_print_is_found(tmp_path):
    cli = tmp_path / "analyzer" / "cli"
    cli.mkdir(parents=True)
    planted = cli / "planted.py"
    planted.write_text("from analyzer.cli.output import echo\n"
                       "def a(r):\n    echo(to_json(r))\n"
                       "def b(r):\n    echo(report_text.render(r), nl=False)\n"
                       "def c(r):\n    echo(flag_text.check(r, [], []).rstrip())\n"
                       "def d(r):\n    echo(render(r))\n"
                       "def e(r):\n    common.show(renderers.REPORT['text'].render(r))\n"
                       "    echo(f'{len(r)} cells')\n")
    assert printed_directly(planted, tmp_path) == [
        "analyzer/cli/planted.py:3: prints to_json(...) outside a registry",
        "analyzer/cli/planted.py:5: prints report_text.render(...) outside a registry",
        "analyzer/cli/planted.py:7: prints flag_text.check(...) outside a registry",
        "analyzer/cli/planted.py:9: prints render(...) outside a registry"]
