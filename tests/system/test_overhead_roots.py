"""An overhead study of a root compiler: gcc-14 of the trixie root (``zoo_root``), zlib,
``off`` and ``wall``, through the build and by the wrapper (the control), one run each,
for real.

What it shows: the study is not refused; the whole build runs in the root (its make,
its shell, its compiler: the sandbox the study builds in shows the root's files), with
one bubblewrap entry per build step, not one per compiler process; the kernel's
per-process table sums to the tree's ``wait4`` within the study's tolerance, with the
sandbox's own processes named as such and not counted as the compiler's; the level's
flags arrived through ``make CFLAGS=…``, and in the control by the wrapper alone (a cell
is only stored ``ok`` when every compile carried them so). Structure only: no figure
here is a claim about speed.
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import shutil

import pytest

from analyzer.projects import process
from analyzer.cli import main
from analyzer.runtime import roots
from analyzer.projects.sandbox import Containment, build_sandbox, containment
from analyzer.overhead import breakdown
from warnscope.accounting import SLACK_S, TOLERANCE

pytestmark = [
    pytest.mark.skipif(os.geteuid() != 0 or shutil.which("bpftrace") is None,
                       reason="the per-process table needs root and bpftrace"),
    pytest.mark.skipif(containment() is not Containment.NAMESPACE,
                       reason="a build in a root needs bubblewrap's namespaces"),
]


@pytest.fixture(scope="module")
def cells(zoo_root, tmp_path_factory):
    db = tmp_path_factory.mktemp("oh-roots") / "oh.db"
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--db", str(db), "overhead", "run", "--project", "zlib", "--compilers", "gcc-14",
                     "--levels", "off,wall", "--inject", "both", "--runs", "1", "--warmups", "0",
                     "--opt", "-O0", "--json"])
    assert code == 0, err.getvalue()
    return json.loads(out.getvalue())["cells"], err.getvalue()


def test_a_root_compiler_is_measured_in_its_root(cells):
    found, progress = cells
    assert "the whole build runs in the trixie root" in progress
    by = {(c["level"], c["inject"]): c for c in found}
    assert set(by) == {(level, inject) for level in ("off", "wall") for inject in ("build", "wrapper")}
    for c in found:
        # ok: every compile carried the level's flags, through make (build) or appended
        # by the wrapper with none from make (wrapper, the control)
        assert c["status"] == "ok", c.get("error")
        assert "[Debian trixie" in c["compiler_version"]
        assert c["compilers"] >= 30                      # zlib's static and shared objects, its links
        assert c["flags"] == (["-w"] if c["level"] == "off" else ["-Wall"])


def test_the_table_sums_to_the_tree_and_names_the_sandbox(cells):
    for c in cells[0]:
        table = c["by_process"]
        assert table is not None
        cpu = c["cpu_s"]["median"]                       # one run: min = median = max
        assert abs(sum(p["cpu_s"]["median"] for p in table.values()) - cpu) <= TOLERANCE * cpu + SLACK_S
        assert abs(c["residual_s"]["median"]) <= TOLERANCE * cpu + SLACK_S
        # the build's programs, the root's compiler among them
        assert {"make", "sh", "cc1", "as", "gcc-14"} <= set(table)
        # the sandbox's own, by name; one entry per build step, not one per compile
        assert {"bwrap (sandbox)", "init (sandbox)"} <= set(table) and "bwrap" not in table
        assert table["bwrap (sandbox)"]["processes"]["max"] <= 2 < c["compilers"]
        for name in ("bwrap (sandbox)", "init (sandbox)", "setpriv (sandbox)"):
            assert breakdown.group(name) == breakdown.BUILD_SYSTEM
        # the wrapper's compiler CPU (each driver's wait4) holds no bubblewrap: it is
        # within the table's compiler programs (which add the wrappers' own forks)
        compiler_programs = sum(p["cpu_s"]["median"] for n, p in table.items()
                                if breakdown.group(n) == breakdown.COMPILER)
        assert c["compiler_cpu_s"]["median"] <= compiler_programs + TOLERANCE * cpu + SLACK_S
    # sid's GCC 15 and 16 run their assembler as x86_64-linux-gnu-as, which the kernel
    # names by its first 15 bytes: still the compiler's
    assert breakdown.group("x86_64-linux-gn") == breakdown.COMPILER


def test_the_build_sandbox_shows_the_roots_programs(cells, zoo_root, tmp_path):
    """What the study's builds run is the root's: the sandbox it builds in (the same
    call) shows the root's make and shell, not the host's."""
    root = roots.load(zoo_root.suite)
    assert "make" in root.tools                          # installed there for the build
    want = {p: hashlib.sha256((root.path / p.lstrip("/")).read_bytes()).hexdigest()
            for p in ("/usr/bin/make", "/usr/bin/dash")}
    os.chmod(tmp_path, 0o755)
    with build_sandbox(tmp_path, root=root.path) as box:
        log = tmp_path / "probe.log"
        t = process.run("sha256sum /usr/bin/make /bin/sh", box.box, process.build_env(), log, box=box)
        assert t.exit == 0, log.read_text()
    got = {path: digest for digest, path in (line.split() for line in log.read_text().splitlines())}
    assert got == {"/usr/bin/make": want["/usr/bin/make"], "/bin/sh": want["/usr/bin/dash"]}
    host_make = shutil.which("make")
    if host_make:
        assert hashlib.sha256(open(host_make, "rb").read()).hexdigest() != want["/usr/bin/make"]
