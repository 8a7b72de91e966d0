"""Hostile programs against the sandbox, at compile time and at run time, as root and
as a normal user (a user created for the test, driving this same module through
``setpriv``). Real gcc-12, real programs; the host's shared directories are checked
afterwards for anything left behind.

What is asserted is the same in both modes, except where noted: as root the
program also runs under a pool uid (root-only files unreadable through
permissions, RLIMIT_NPROC per uid); as a normal user the user namespace gives
the same namespaces, and permissions are the user's own.
"""
from __future__ import annotations

import os
import shutil
import signal
from pathlib import Path

import pytest

from analyzer.sandbox import runner as sandbox
from analyzer.runtime.toolchain import resolve as resolve_compiler
from analyzer.ub.compile import compile_program
from analyzer.ub.corpus import discover
from warnscope import processes
from warnscope.errors import ParseError

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "ub"
REPO = Path(__file__).resolve().parents[2]
LIMITS = sandbox.Limits(timeout=3.0, cpu=2)
SHARED = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")
NESTED = Path("/var/cache/warnscope-test-nested/open")

pytestmark = pytest.mark.skipif(shutil.which("gcc-12") is None, reason="gcc-12 not installed")


def _build(rel: str, flags: list[str]) -> tuple[bool, str | None, str, bool]:
    src = FIXTURES / rel
    b = compile_program(resolve_compiler("gcc-12"), "c", "gnu17", src.name, src.read_bytes(),
                        flags, [], False)
    return b.ok, b.binary, b.log, b.cached


def _run(binary: str, limits: sandbox.Limits = LIMITS, env: dict | None = None) -> dict:
    r = sandbox.run(binary, limits=limits, env=env)
    return {"status": r.status, "limit": r.limit, "exit": r.exit, "signal": r.signal,
            "stdout": r.stdout.decode("utf-8", "replace"), "leftovers": r.leftovers_killed,
            "mode": r.mode, "maxrss_kb": r.maxrss_kb}


def exercise() -> dict:
    """Every hostile program once; what happened, as JSON-able data (run by both modes)."""
    seen: dict = {"euid": os.geteuid(), "namespaces": sandbox.namespaces_available()}
    # long-lived helpers of earlier tests (multiprocessing's resource tracker) are not ours
    before = set(processes.descendants(os.getpid()))
    ok, _, log, _ = _build("hostile-compile/incbin.c", ["-O0"])
    seen["incbin"] = {"ok": ok, "log": log}
    ok, binary, log, _ = _build("hostile-compile/dev-stdin.c", ["-O0"])
    seen["dev-stdin"] = {"ok": ok, "run": _run(binary) if ok else None}
    ok, _, log, cached = _build("hostile-compile/dev-zero.c", ["-O0"])
    ok2, _, _, cached2 = _build("hostile-compile/dev-zero.c", ["-O0"])
    seen["dev-zero"] = {"ok": ok, "log": log, "cached_again": cached2}
    env = {"NESTED": str(NESTED), "READ_1": str(REPO / "pyproject.toml"),
           "READ_2": str(Path.home()), "READ_3": "/proc/1/environ"}
    for name in ("network", "tmp-writes", "daemon", "tmpfs-fill", "secrets"):
        ok, binary, log, _ = _build(f"hostile-run/{name}.c", ["-O0"])
        assert ok, log
        seen[name] = _run(binary, env=env)
    ok, binary, log, _ = _build("hostile/fork-bomb.c", ["-O0"])
    seen["fork-bomb"] = _run(binary)
    # The CPU limit, well inside the wall limit: each run is a CPU timeout, never a crash.
    cpu_limit = sandbox.Limits(timeout=30, cpu=1)
    ok, binary, log, _ = _build("hostile/infinite-loop.c", ["-O0"])
    seen["spin"] = [_run(binary, cpu_limit) for _ in range(5)]
    ok, binary, log, _ = _build("hostile-run/catch-xcpu.c", ["-O0"])
    assert ok, log
    seen["catch-xcpu"] = _run(binary, cpu_limit)
    ok, binary, log, _ = _build("hostile-run/big-alloc.c", ["-O0", "-fsanitize=address"])
    assert ok, log
    seen["big-alloc"] = _run(binary, sandbox.Limits(timeout=20, cpu=20, address_space=None))
    seen["alive"] = sorted(set(processes.descendants(os.getpid())) - before)
    return seen


def _left_behind() -> list[str]:
    found = []
    for d in (*SHARED, str(NESTED)):
        try:
            found += [f"{d}/{n}" for n in os.listdir(d) if n.startswith("warnscope-")
                      and ("hostile" in n or "fill" in n)]
        except OSError:
            pass
    return found


def check(seen: dict) -> None:
    """What must hold whoever runs the sandbox."""
    assert seen["namespaces"], "this host allows namespaces; the sandbox must use them"
    # Compile time: a root-only file cannot be embedded (root: pool uid; user: permissions).
    assert not seen["incbin"]["ok"] and "/etc/shadow" in seen["incbin"]["log"]
    # /dev/stdin is /dev/null: the compile does not wait on our stdin, the include is empty.
    assert seen["dev-stdin"]["ok"] and seen["dev-stdin"]["run"]["stdout"] == "compiled\n"
    # /dev/zero: stopped by a limit, said so, and not cached as the program's fault.
    assert not seen["dev-zero"]["ok"]
    assert "memory limit" in seen["dev-zero"]["log"]
    assert not seen["dev-zero"]["cached_again"]
    net = seen["network"]
    assert net["status"] == "exit" and net["mode"] == "namespace"
    assert "loopback no\nssh no\noutside no\n" in net["stdout"]
    writes = seen["tmp-writes"]["stdout"].splitlines()
    assert writes[:4] == [f"{d} written" for d in SHARED]   # private tmpfs, writable ...
    assert writes[4] == f"{NESTED} refused"                  # the host is read-only
    daemon = seen["daemon"]
    assert (daemon["status"], daemon["stdout"]) == ("exit", "main done\n")
    assert daemon["leftovers"] == 1                          # the grandchild, killed and counted
    fill = seen["tmpfs-fill"]
    assert fill["status"] == "exit" and fill["stdout"] == "wrote 16 MiB\n"  # the tmpfs cap
    secrets = seen["secrets"]["stdout"].splitlines()
    assert all(line.endswith(" refused") for line in secrets), secrets
    assert len(secrets) == 5
    bomb = seen["fork-bomb"]
    assert bomb["status"] == "timeout" and 0 < bomb["leftovers"] <= LIMITS.processes + 2
    # With soft == hard the kernel's SIGKILL came with rusage a few ms under the limit, and
    # about a third of such runs were taken for crashes.
    assert {(r["status"], r["limit"], r["signal"]) for r in seen["spin"]} == {
        ("timeout", "cpu", signal.SIGXCPU)}
    xcpu = seen["catch-xcpu"]
    assert (xcpu["status"], xcpu["limit"], xcpu["signal"]) == ("timeout", "cpu", signal.SIGKILL)
    big = seen["big-alloc"]
    assert (big["status"], big["limit"], big["signal"]) == ("signal", "memory", signal.SIGKILL)
    assert big["maxrss_kb"] < 3 * sandbox.Limits().memory // 1024
    assert seen["alive"] == []                               # nothing of any run survived it


@pytest.fixture
def nested_dir():
    NESTED.mkdir(parents=True, exist_ok=True)
    os.chmod(NESTED, 0o1777)
    yield NESTED
    shutil.rmtree(NESTED.parent, ignore_errors=True)


@pytest.mark.skipif(os.geteuid() != 0, reason="the root half; the user half runs below")
def test_hostile_programs_as_root(nested_dir):
    before = _left_behind()
    seen = exercise()
    check(seen)
    assert _left_behind() == before == []


def test_hostile_programs_as_a_normal_user(nested_dir, exercised_as_user):
    """The same programs, the same assertions, by a user without privileges: what the
    user namespace gives. (As root, the uid pool is not used by that user.)"""
    check(exercised_as_user("tests.system.test_sandbox_hostile"))
    assert _left_behind() == []


def test_driver_options_in_metadata_are_refused_with_file_and_line(tmp_path):
    with pytest.raises(ParseError) as info:
        discover(FIXTURES / "hostile-meta")
    msg = str(info.value)
    assert "\n" not in msg
    assert msg.startswith(f"{FIXTURES / 'hostile-meta' / 'wrapper.c'}:6: link: '-wrapper'")
    assert not Path("/tmp/warnscope-hostile-wrapper").exists()
    for bad in ("-B/tmp", "-specs=x", "-fplugin=/x.so", "@opts", "-o", "-I/etc", "-Wl,-T,x",
                "-l:libc.so", "-Wp,-imacros,/etc/shadow", "--sysroot=/", "-fprofile-generate=/x"):
        (tmp_path / "c").mkdir(parents=True, exist_ok=True)
        (tmp_path / "c" / "a.c").write_text(
            f"/* ub-case\n * category: c\n * standard: none\n * summary: s\n * ub: no\n"
            f" * link: -lm {bad}\n */\nint main(void){{return 0;}}\n")
        with pytest.raises(ParseError, match=r"a\.c:6: link: "):
            discover(tmp_path)
    (tmp_path / "c" / "a.c").write_text(
        "/* ub-case\n * category: c\n * standard: none\n * summary: s\n * ub: no\n"
        " * link: -lm -pthread -DX=1 -UY -fwrapv -Wno-unused -std=c11\n */\nint main(void){}\n")
    assert discover(tmp_path)[0].link[-1] == "-std=c11"
