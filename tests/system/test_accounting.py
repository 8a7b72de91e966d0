"""Per-process accounting (warnscope.accounting) on real builds: the table of every
process of the tree, from the scheduler's own figure, sums to the tree's ``wait4``
rusage, and names scripts by the script."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from warnscope.accounting import Accountant, TOLERANCE, display_name

pytestmark = pytest.mark.skipif(os.geteuid() != 0 or shutil.which("bpftrace") is None,
                                reason="per-process accounting needs root and bpftrace")

LAYER = """#!/bin/sh
# a build layer that does work per argument, as generators and wrappers do
for arg in "$@"; do
  case "$arg" in -W*) n=0; while [ $n -lt 20 ]; do n=$((n+1)); done ;; esac
done
exec "$@"
"""

MAKEFILE = """SRCS := $(wildcard *.c)
all: $(SRCS:.c=.o)
%.o: %.c
\t$(SHELL) ./layer.sh $(CC) $(CFLAGS) -c $< -o $@
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    for i in range(24):
        (tmp_path / f"f{i}.c").write_text(f"int f{i}(int x) {{ return x * {i}; }}\n")
    (tmp_path / "layer.sh").write_text(LAYER)
    (tmp_path / "Makefile").write_text(MAKEFILE)
    return tmp_path


def _build(acc: Accountant, tree: Path, cflags: str):
    for obj in tree.glob("*.o"):
        obj.unlink()
    proc = subprocess.Popen(["make", "-s", "-j2", "SHELL=/bin/sh", "CC=gcc-12", f"CFLAGS={cflags}"],
                            cwd=tree, start_new_session=True, stdin=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    return acc.table(proc.pid, usage.ru_utime + usage.ru_stime)


def test_the_table_sums_to_the_trees_rusage_and_names_scripts(project):
    flags = " ".join("-Wno-unused-value -Wshadow" for _ in range(40))
    with Accountant() as acc:
        tables = [_build(acc, project, f"-O1 {flags}") for _ in range(3)]
    for table in tables:
        assert table.lost == 0
        assert abs(table.residual_s) <= TOLERANCE * table.tree_cpu_s, table
        assert table.complete
        names = table.as_dict()
        assert {"make", "cc1", "as", "gcc-12", "layer.sh (sh)"} <= set(names), names
        assert next(c for c in table.by_name if c.name == "cc1").processes == 24
        assert next(c for c in table.by_name if c.name == "layer.sh (sh)").processes == 24


def test_trees_run_one_after_another_are_kept_apart(project):
    with Accountant() as acc:
        small = _build(acc, project, "-O0")
        large = _build(acc, project, "-O2 " + " ".join(["-Wall -Wextra"] * 200))
    # the layer does work per -W argument: its CPU grows with the flags passed through it
    layer = lambda t: t.as_dict()["layer.sh (sh)"]
    assert layer(large) > 2 * layer(small)
    assert small.complete and large.complete


def test_without_root_it_says_why(reachable_as):
    if shutil.which("setpriv") is None:
        pytest.skip("setpriv missing")
    reachable_as(65534, 65534)  # skips where that user cannot read this checkout
    code = ("import sys; sys.path.insert(0, %r)\n"
            "from warnscope.accounting import Accountant, Unavailable\n"
            "try:\n    Accountant().start()\nexcept Unavailable as e:\n    print(e)\n") % str(
                Path(__file__).resolve().parents[2])
    proc = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                           sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, cwd="/")
    assert proc.returncode == 0, proc.stderr
    assert "needs root" in proc.stdout


@pytest.mark.parametrize("comm, a1, a2, name", [
    ("bash", "libtool", "--mode=compile", "libtool (bash)"),
    ("sh", "-c", "gcc -c x.c", "sh"),
    ("perl", "-w", "/usr/bin/automake", "automake (perl)"),
    ("python3", "/usr/bin/meson", "compile", "meson (python3)"),
    ("cc1", "-quiet", "x.c", "cc1"),
    ("dash", "", "", "dash"),
])
def test_display_names(comm, a1, a2, name):
    assert display_name(comm, a1, a2) == name


def test_a_bpftrace_that_does_not_attach_in_time_says_what_it_said(monkeypatch):
    """The attach timeout is one line with what bpftrace printed so far, and leaves no
    bpftrace behind."""
    from warnscope import accounting

    monkeypatch.setattr(accounting, "ATTACH_TIMEOUT", 0.0)
    acc = Accountant()
    with pytest.raises(accounting.Unavailable) as caught:
        acc.start()
    message = str(caught.value)
    assert message.startswith("bpftrace did not attach within 0 s")
    assert "\n" not in message and acc.proc is None
