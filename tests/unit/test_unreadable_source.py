"""A source file its reader may not read: one error line naming the file, no database.

warnscope runs as root, which reads through ``chmod 000``; the ingest runs here as the
unprivileged user 65534 instead, on a hand-written GCC source tree.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest


def test_unreadable_file_for_a_non_root_user(gcc_tree, common_opt, warnscope, one_error,
                                             reachable_as):
    """Root reads through chmod 000, so a non-root helper meets the permission error."""
    if shutil.which("setpriv") is None:
        pytest.skip("setpriv is not installed")
    reachable_as(65534, 65534)
    base = Path(tempfile.mkdtemp(prefix="warnscope-perm-"))
    try:
        os.chmod(base, 0o755)
        root = gcc_tree(base / "src", {"common.opt": common_opt})
        for p in [base / "src", *(base / "src").rglob("*")]:
            os.chmod(p, 0o755 if p.is_dir() else 0o644)
        os.chmod(root / "gcc" / "c-family" / "c.opt", 0o000)
        proc = warnscope("--db", str(base / "w.db"), "flags", "ingest", "gcc-99", "--source", str(root),
                         prefix=("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"),
                         env={"WARNSCOPE_CACHE": str(base / "cache"), "HOME": str(base)})
        assert "c-family/c.opt: permission denied" in one_error(proc)
        assert not (base / "w.db").exists()
    finally:
        shutil.rmtree(base)
