"""A compiler is a profile, not a string: no module compares a compiler family or a target
triple with a string literal (``tc.family == "gcc"``, ``cid.data_family != "clang"``,
``family in ("gcc", "clang")``, ``tc.target == "aarch64-linux-gnu"``); it asks the profile
(:mod:`warnscope.profiles`), where each family and target is declared once. Two places
that each decide from a string disagree on a variant (``== "clang"`` and ``!= "gcc"`` on
Apple's clang). Read from the source with ``ast``; the profiles module itself is the
one place that names families.
"""
from __future__ import annotations

import ast
from pathlib import Path

from warnscope.compilers import TRIPLE

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("analyzer", "flagdb", "warnscope")
#: the one module that may name a family or a target by its string
PROFILES = ROOT / "warnscope" / "profiles.py"
#: what a family or a target is called where it is compared
FAMILY_NAMES = ("family", "data_family")
TARGET_NAMES = ("target", "triple", "arch")


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return None


def _strings(node: ast.AST) -> list[str]:
    """The string literals ``node`` is or holds (a tuple, list or set of them)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [s for e in node.elts for s in _strings(e)]
    return []


def _is_target_literal(text: str) -> bool:
    return bool(TRIPLE.fullmatch(text)) or text.split("-", 1)[0] in ("wasm32", "wasm64", "aarch64",
                                                                    "x86_64", "arm", "riscv64")


def literal_comparisons(path: Path) -> list[str]:
    """``path:line: what`` of each comparison of a family or target with a literal."""
    found = []
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        for op, (left, right) in zip(node.ops, zip(operands, operands[1:])):
            if not isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)):
                continue
            for named, other in ((left, right), (right, left)):
                name = _name(named)
                strings = _strings(other)
                if not strings or name is None:
                    continue
                if name in FAMILY_NAMES or (name in TARGET_NAMES
                                            and any(_is_target_literal(s) for s in strings)):
                    found.append(f"{path}:{node.lineno}: {ast.unparse(node)}")
    return found


def scanned() -> list[Path]:
    return [p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))
            if p != PROFILES and "web" not in p.parts]


def test_no_family_or_target_is_compared_with_a_literal():
    files = scanned()
    assert len(files) > 50 and ROOT / "analyzer" / "projects" / "levels.py" in files
    found = [f for p in files for f in literal_comparisons(p)]
    assert found == []


def test_the_scan_catches_a_planted_comparison(tmp_path):
    """The scanner itself: each way of writing such a comparison is found, and what is
    not one is not (the test above would pass vacuously if it found none)."""
    planted = ['tc.family == "clang"', "'gcc' != cid.family", 'cid.data_family == "gcc"',
               'family in ("gcc", "clang")', 'family not in ["apple-clang"]',
               'tc.target == "aarch64-linux-gnu"', 'tc.target_profile.arch == "wasm32"',
               'if x and tc.family != "gcc":\n    pass']
    for i, text in enumerate(planted):
        path = tmp_path / f"m{i}.py"
        path.write_text(text + "\n")
        assert len(literal_comparisons(path)) == 1, text
    clean = tmp_path / "clean.py"
    clean.write_text('tc.profile.gcc\np.target == "[module]"\nname == "gcc"\n'
                     'tc.family == other.family\nif not tc.target:\n    pass\n')
    assert literal_comparisons(clean) == []
