"""``flags verify`` of zoo compilers against their own binaries in the bullseye root.

gcc-10 and clang-11 are ingested from Debian (bullseye is the one suite that has
them) and verified against gcc-10 / clang-11 run inside the bullseye root (built into
the shared cache if it has none: ``debootstrap --variant=minbase bullseye`` plus the
compilers, a few minutes on a fresh machine). gcc-10 is the case of a Debian snapshot:
gcc-10-source 10.2.1-6 wraps the 10.2.0 tarball plus the branch update that makes the
binary 10.2.1, and the entry must say 10.2.1 too. Preparing a root needs root and the
Debian mirror; without them the module is skipped, saying which.
"""
from __future__ import annotations

import json
import os
import shutil

import pytest

from analyzer.runtime.toolchain import resolve
from warnscope.database import connect
from warnscope.compilers import CompilerId
from flagdb import store

SUITE = "bullseye"

pytestmark = [
    pytest.mark.skipif(os.geteuid() != 0, reason="preparing a Debian root needs root"),
    pytest.mark.skipif(shutil.which("debootstrap") is None or shutil.which("bwrap") is None,
                       reason="needs debootstrap and bubblewrap (setup.sh installs them)"),
]


@pytest.fixture(scope="module")
def bullseye(request):
    """gcc-10 and clang-11 in the bullseye root (built now if the cache has none:
    ``bullseye_root``)."""
    for cid in (CompilerId("gcc", 10), CompilerId("clang", 11)):
        if shutil.which(str(cid)) is not None:
            pytest.skip(f"{cid} is installed on this host: the test needs the root's")
    request.getfixturevalue("bullseye_root")
    return {name: resolve(name) for name in ("gcc-10", "clang-11")}


def _ingest_and_verify(warnscope, db, compiler: str) -> dict:
    proc = warnscope("--db", str(db), "flags", "ingest", compiler, "--suite", SUITE)
    assert proc.returncode == 0, proc.stderr
    proc = warnscope("--db", str(db), "flags", "verify", compiler, "--json")
    report = json.loads(proc.stdout)
    assert proc.returncode == 0, [f for f in report["findings"] if f["reason"] is None][:5]
    return report


def test_gcc10_snapshot_version_and_verify(bullseye, warnscope, tmp_path):
    tc = bullseye["gcc-10"]
    assert tc.root is not None and tc.suite == SUITE
    db = tmp_path / "w.db"
    report = _ingest_and_verify(warnscope, db, "gcc-10")
    data = store.load(connect(db), "gcc-10")
    # Debian's git-updates.diff applied: BASE-VER says what the binary says
    assert data.version == "10.2.1" and data.debian_version == tc.package
    assert report["compared"]["version"] == 1 and report["compared"]["package"] == 1
    assert not [f for f in report["findings"] if f["check"] in ("version", "package")]
    assert report["compared"]["wall-c++"] > 300 and report["compared"].get("plugin", 0) > 800


def test_clang11_verifies_in_the_root(bullseye, warnscope, tmp_path):
    tc = bullseye["clang-11"]
    assert tc.root is not None and tc.suite == SUITE
    report = _ingest_and_verify(warnscope, tmp_path / "w.db", "clang-11")
    assert report["compared"]["package"] == 1 and report["compared"]["probe"] > 700
    assert report["compared"]["tree"] > 300 and report["compared"]["warnings"] > 1000
    # clang 11 has no --print-diagnostic-options: skipped, and said so
    assert any(f["check"] == "names" and f["reason"] for f in report["findings"])
