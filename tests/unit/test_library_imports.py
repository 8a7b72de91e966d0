"""flagdb stays a library: importing any of its modules loads neither the analyzer
(compilers, the CLI) nor click."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_flagdb_imports_neither_analyzer_nor_click():
    root = Path(__file__).resolve().parents[2]
    modules = sorted(p.stem for p in (root / "flagdb").glob("*.py") if p.stem != "__init__")
    code = ("import importlib, sys\n"
            f"for m in {modules!r}:\n"
            "    importlib.import_module('flagdb.' + m)\n"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('analyzer', 'click'))\n"
            "print(bad)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=root)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"
    assert len(modules) >= 12
