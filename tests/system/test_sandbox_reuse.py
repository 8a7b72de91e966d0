"""Nothing a run leaves reaches the next run in the same worker.

The namespace sandbox builds its namespaces and read-only root once per worker (the
zygote, ``analyzer/sandbox/zygote.c``) and forks every run inside. A real program
(``fixtures/sandbox/leave-behind.c``, compiled by gcc-12) first leaves everything it
can -- files in each writable place, a daemon holding an abstract socket, SysV shared
memory and a message queue, a lower rlimit, umask 0, another cwd, an environment
variable -- then a second run of it in the same process, through the same zygote,
looks for each. As root and as a normal user (through a user namespace).
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from analyzer.sandbox import runner as sandbox, zygote
from analyzer.runtime.toolchain import resolve as resolve_compiler
from analyzer.ub.compile import compile_program

SOURCE = Path(__file__).resolve().parents[1] / "fixtures" / "sandbox" / "leave-behind.c"
LIMITS = sandbox.Limits(timeout=5.0, cpu=2)
ITEMS = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/work", "/dev", "shm", "msg", "daemon",
         "processes", "rlimit", "umask", "cwd", "env")

pytestmark = pytest.mark.skipif(shutil.which("gcc-12") is None, reason="gcc-12 not installed")


def exercise() -> dict:
    """Leave, then look, in this one process; what each run printed, and the zygotes."""
    build = compile_program(resolve_compiler("gcc-12"), "c", "gnu17", SOURCE.name,
                            SOURCE.read_bytes(), ["-O0"], [], False)
    assert build.ok, build.log
    leave = sandbox.run(build.binary, ["leave"], LIMITS)
    zygotes_after_leave = sorted(zygote.zygote_pids())
    look = sandbox.run(build.binary, ["look"], LIMITS)
    return {"euid": os.geteuid(), "namespaces": sandbox.namespaces_available(),
            "leave": {"status": leave.status, "stdout": leave.stdout.decode(),
                      "leftovers": leave.leftovers_killed},
            "look": {"status": look.status, "stdout": look.stdout.decode()},
            "zygotes": [zygotes_after_leave, sorted(zygote.zygote_pids())]}


def check(seen: dict) -> None:
    assert seen["namespaces"]
    leave = seen["leave"]
    assert leave["status"] == "exit" and leave["stdout"].endswith("left\n"), leave
    wrote = dict(line.rsplit(" ", 1) for line in leave["stdout"].splitlines()[:-1])
    # it did leave things: files in every private place, SysV objects, its daemon
    for place in ("/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/work"):
        assert wrote[f"{place}/warnscope-left-behind"] == "written", wrote
    assert wrote["/dev/warnscope-left-behind"] == "refused"   # /dev is read-only
    assert wrote["shm"] == wrote["msg"] == "created"
    assert leave["leftovers"] == 1                             # the daemon, killed and counted
    # both runs went through one zygote: this is the reuse under test
    assert seen["zygotes"][0] and seen["zygotes"][0] == seen["zygotes"][1]
    look = seen["look"]
    assert look["status"] == "exit"
    found = {}
    for line in look["stdout"].splitlines():
        name, what = line.rsplit(" ", 1)
        found[name.removesuffix("/warnscope-left-behind")] = what
    assert set(found) == set(ITEMS)
    assert {name for name, what in found.items() if what != "absent"} == set(), found


@pytest.mark.skipif(os.geteuid() != 0, reason="the root half; the user half runs below")
def test_nothing_of_a_run_reaches_the_next_as_root():
    check(exercise())


def test_nothing_of_a_run_reaches_the_next_as_a_normal_user(exercised_as_user):
    check(exercised_as_user("tests.system.test_sandbox_reuse"))
