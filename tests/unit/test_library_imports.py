"""The libraries stay libraries: importing any module of the shared base (``warnscope``)
or of ``flagdb`` loads neither the analyzer (compilers, the CLI) nor click, and the base
loads no family at all."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _loaded_after_importing(package: str) -> tuple[list[str], list[str]]:
    modules = sorted(p.stem for p in (ROOT / package).glob("*.py") if p.stem != "__init__")
    code = ("import importlib, sys\n"
            f"for m in {modules!r}:\n"
            f"    importlib.import_module({package!r} + '.' + m)\n"
            "print(sorted({m.split('.')[0] for m in sys.modules}))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    return modules, eval(proc.stdout)


@pytest.mark.parametrize("package, forbidden, at_least", [
    ("flagdb", {"analyzer", "click"}, 8),
    ("warnscope", {"analyzer", "click", "flagdb"}, 6),
])
def test_library_imports_nothing_above_it(package, forbidden, at_least):
    modules, loaded = _loaded_after_importing(package)
    assert len(modules) >= at_least
    assert forbidden.isdisjoint(loaded), sorted(forbidden & set(loaded))
