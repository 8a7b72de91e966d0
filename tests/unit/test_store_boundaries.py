"""A family's tables are named only by its own modules: another family reads them
through the owner's store API (``analyzer/<family>/store.py``, tests/unit/test_layering.py),
never with SQL of its own, so a change of a table is a change of one family.

Who owns a table is read from :data:`warnscope.schema.SCHEMA`: each section names the
store that reads and writes its tables (``-- Read and written by analyzer/ub/store.py``;
a section without that line continues the one before it), and the tables of one owner
share a prefix (``ub_``, ``oh_``, ``wn_``; the flag family's are unprefixed), so a table
a section does not list yet is still owned by its prefix.

The scan (an AST walk of analyzer/ and flagdb/) reads every string literal that is SQL
(an uppercase keyword: SELECT, INSERT, UPDATE, DELETE, CREATE, FROM, JOIN, INTO),
f-strings with their holes left out, docstrings skipped, and finds the tables it names:
after FROM, JOIN, INTO, UPDATE, TABLE, REFERENCES or ON, and any word with an owner's
prefix anywhere in it (``name = 'wn_build'`` in a lookup of ``sqlite_master``); a literal
that is exactly the name of a prefixed table counts as well (``"ub_cell"`` handed to a query). A module names only the tables
its own family owns; the families that own none (advise, verify, the site, the CLI, the
build base) name none. The base (``warnscope/``: the schema, its migrations, the guards of
a database file) keeps the database as a whole and is not scanned.
"""
from __future__ import annotations

import ast
import re
from functools import lru_cache
from pathlib import Path

from warnscope.schema import SCHEMA

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("analyzer", "flagdb")
#: the family a table of no prefix belongs to (the flag family's: compiler, flag, edge, message)
UNPREFIXED = "flagdb"

SQL = re.compile(r"\b(?:SELECT|INSERT|UPDATE|DELETE|CREATE|FROM|JOIN|INTO)\b")
AFTER_KEYWORD = re.compile(r"\b(?:FROM|JOIN|INTO|UPDATE|TABLE|REFERENCES|ON)\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)")
WORD = re.compile(r"\w+")
SECTION = re.compile(r"^-- -+ ")
OWNER_LINE = re.compile(r"^-- Read and written by (\S+?)\.py\b")
CREATE = re.compile(r"^CREATE TABLE (?:IF NOT EXISTS )?(\w+)")


def family_of_store(path: str) -> str:
    """``analyzer/ub/store`` -> ``analyzer.ub``; ``flagdb/store`` -> ``flagdb``."""
    parts = path.split("/")[:-1]
    return ".".join(parts)


@lru_cache(maxsize=None)
def owners() -> dict[str, str]:
    """table -> the family that owns it, from the schema's sections."""
    out, owner = {}, None
    for line in SCHEMA.splitlines():
        line = line.strip()
        found = OWNER_LINE.match(line)
        if found:
            owner = family_of_store(found.group(1))
        table = CREATE.match(line)
        if table:
            assert owner is not None, f"{table.group(1)}: no section of the schema names its store"
            out[table.group(1)] = owner
    return out


def prefix(table: str) -> str:
    return table.split("_", 1)[0] + "_" if "_" in table else ""


@lru_cache(maxsize=None)
def prefixes() -> dict[str, str]:
    """prefix ('ub_') -> the family that owns the tables with it."""
    out: dict[str, str] = {}
    for table, owner in owners().items():
        if prefix(table):
            assert out.setdefault(prefix(table), owner) == owner, f"{table}: its prefix has two owners"
    return out


def owner_of(word: str) -> str | None:
    """The family that owns table ``word`` (a known table, or a word with an owner's
    prefix); None: not a table of warnscope's (an alias, ``sqlite_master``, a column)."""
    if word in owners():
        return owners()[word]
    return prefixes().get(prefix(word))


def family_of(rel: str) -> str:
    """The family a module belongs to: ``analyzer/ub/run.py`` -> ``analyzer.ub``,
    ``flagdb/store.py`` -> ``flagdb``, ``analyzer/__main__.py`` -> ``analyzer``."""
    parts = Path(rel).with_suffix("").parts
    return parts[0] if parts[0] != "analyzer" or len(parts) < 3 else ".".join(parts[:2])


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def literals(text: str) -> list[tuple[int, str]]:
    """(line, text) of every string literal of a module but its docstrings; an f-string
    as its constant parts, a space where each hole was."""
    tree = ast.parse(text)
    skip = _docstrings(tree)
    inside = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for v in node.values}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            out.append((node.lineno, " ".join(v.value if isinstance(v, ast.Constant) else " "
                                              for v in node.values)))
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and id(node) not in skip and id(node) not in inside):
            out.append((node.lineno, node.value))
    return sorted(out)


def tables_named(literal: str) -> set[str]:
    """The tables a string literal names (see the module)."""
    if prefix(literal) and literal in owners():
        return {literal}
    if not SQL.search(literal):
        return set()
    found = set(AFTER_KEYWORD.findall(literal))
    found |= {w for w in WORD.findall(literal) if prefix(w) in prefixes()}
    return {t for t in found if owner_of(t) is not None}


def foreign_tables(rel: str, text: str) -> list[str]:
    """``path:line: names TABLE (FAMILY's)`` for every table the module at ``rel`` (its
    source ``text``) names that its family does not own."""
    mine = family_of(rel)
    return [f"{rel}:{line}: names {table} ({owner_of(table)}'s)"
            for line, literal in literals(text) for table in sorted(tables_named(literal))
            if owner_of(table) != mine]


def modules() -> list[Path]:
    return [p for pkg in SCANNED for p in sorted((ROOT / pkg).rglob("*.py"))]


def test_the_owners_are_read_from_the_schema():
    assert {p: o for p, o in prefixes().items()} == {
        "ub_": "analyzer.ub", "oh_": "analyzer.overhead", "wn_": "analyzer.warnings"}
    assert {t for t, o in owners().items() if not prefix(t)} == {"compiler", "flag", "edge", "message"}
    assert {o for t, o in owners().items() if not prefix(t)} == {UNPREFIXED}
    assert owners()["oh_attr_result"] == "analyzer.overhead"       # a section without its own owner line
    assert owner_of("ub_not_yet_a_table") == "analyzer.ub" and owner_of("sqlite_master") is None


def test_no_module_names_another_familys_table():
    files = modules()
    assert ROOT / "analyzer" / "site" / "builder.py" in files and ROOT / "flagdb" / "store.py" in files
    named = {str(p.relative_to(ROOT)): {t for _, lit in literals(p.read_text()) for t in tables_named(lit)}
             for p in files}
    # the scan is not vacuous: each owner's store names its own tables
    assert {"ub_cell", "ub_warning"} <= named["analyzer/ub/store.py"]
    assert {"wn_build", "wn_diag"} <= named["analyzer/warnings/store.py"]
    assert {"oh_attr", "oh_attr_result"} <= named["analyzer/overhead/store.py"]
    assert {"compiler", "flag", "edge"} <= named["flagdb/store.py"]
    wrong = [w for p in files for w in foreign_tables(str(p.relative_to(ROOT)), p.read_text())]
    assert wrong == []


def test_a_planted_foreign_query_is_found():
    """The checker itself (the test above would pass vacuously if it found nothing): a
    query of another family's tables in each form the scan reads is flagged, its own
    family's and a docstring's are not."""
    planted = '''"""Reads wn_build and FROM ub_cell (a docstring: not SQL that runs)."""
def builds(conn, project, compilers):
    marks = ",".join("?" * len(compilers))
    conn.execute("SELECT b.id, b.flags FROM wn_build b JOIN wn_diag d ON d.build_id = b.id "
                 f"WHERE b.project = ? AND b.compiler IN ({marks})", (project, *compilers))
    conn.execute(f"SELECT options FROM {'ub_warning'} WHERE corpus = ?", ("c",))
    conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'oh_attr'")
    conn.execute("SELECT name FROM compiler ORDER BY name")
    return conn.execute("SELECT * FROM advice_cache")
'''
    assert foreign_tables("analyzer/advise/store.py", planted) == [
        "analyzer/advise/store.py:4: names wn_build (analyzer.warnings's)",
        "analyzer/advise/store.py:4: names wn_diag (analyzer.warnings's)",
        "analyzer/advise/store.py:6: names ub_warning (analyzer.ub's)",
        "analyzer/advise/store.py:7: names oh_attr (analyzer.overhead's)",
        "analyzer/advise/store.py:8: names compiler (flagdb's)"]
    # the same module in the warnings family: only the other families' tables
    assert [w.split(": ", 1)[1] for w in foreign_tables("analyzer/warnings/store.py", planted)] == [
        "names ub_warning (analyzer.ub's)", "names oh_attr (analyzer.overhead's)", "names compiler (flagdb's)"]
    # the site and the CLI own no table
    assert foreign_tables("analyzer/site/pages.py", 'q = "SELECT id FROM ub_case"\n') == [
        "analyzer/site/pages.py:1: names ub_case (analyzer.ub's)"]
    assert foreign_tables("analyzer/cli/flags.py", 'q = "DELETE FROM flag WHERE name = ?"\n') == [
        "analyzer/cli/flags.py:1: names flag (flagdb's)"]
