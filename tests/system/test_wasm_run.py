"""WebAssembly programs run in the sandbox (analyzer/sandbox/wasm.py): compiled for real by
clang-16 for wasm32-wasi (Debian's wasi-libc, the wasm32 builtins, lld-16), run for real
under Wasmtime inside the sandbox, with its limits and accounting."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from analyzer.runtime.toolchain import resolve as resolve_compiler
from analyzer.sandbox import runner as sandbox
from analyzer.sandbox import wasm
from analyzer.sandbox.limits import Limits, SandboxStatus
from analyzer.ub.compile import compile_program
from warnscope.errors import NotInstalled, ToolFailed

REPO = Path(__file__).resolve().parents[2]
LIMITS = Limits(timeout=3.0, cpu=4)
INITIAL_MEMORY = 576 << 20


pytestmark = pytest.mark.usefixtures("wasm_target")

PROGRAMS = {
    "divide": r"""
#include <limits.h>
#include <stdio.h>
int main(int argc, char **argv) {
    volatile int a = INT_MIN, b = -argc;  /* -1 */
    printf("before\n");
    fflush(stdout);
    printf("%d\n", a / b);
    return 0;
}""",
    "null": r"""
#include <stdio.h>
int main(void) {
    int *volatile p = 0;
    printf("%d\n", *p);
    puts("goes on");
    return 3;
}""",
    "loop": r"""
int main(void) { volatile unsigned n = 0; for (;;) n++; }""",
    "grow": r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
char *volatile keep;
int main(void) {
    size_t n = 0;
    for (;;) {
        char *p = malloc(1 << 20);
        if (!p) { printf("NULL after %zu MiB\n", n); return 1; }
        memset(p, 1, 1 << 20);
        keep = p;
        n++;
    }
}""",
    # linked with an initial memory of 576 MiB (INITIAL_MEMORY)
    "large": r"""
#include <stdio.h>
#include <stdlib.h>
int main(void) { puts(malloc(400 << 20) ? "large" : "NULL"); return 0; }""",
    "flood": r"""
#include <stdio.h>
#include <string.h>
int main(void) {
    static char line[4096];
    memset(line, 'x', sizeof line - 1);
    for (int i = 0; i < 4096; i++) puts(line);   /* 16 MiB */
    return 0;
}""",
    # What the program can reach of the world: nothing. It also prints a forged outcome.
    "world": r"""
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    const char *names[] = {"/etc/passwd", "/", ".", "outcome.json", "wasm_host.py",
                           "prog.wasm", "/work/outcome.json", "/proc/self/environ"};
    printf("argc %d arg1 %s\n", argc, argc > 1 ? argv[1] : "-");
    printf("HOME %s TOKEN %s\n", getenv("HOME") ? "seen" : "unset",
           getenv("WASM_RUN_TOKEN") ? "seen" : "unset");
    for (unsigned i = 0; i < sizeof names / sizeof *names; i++) {
        FILE *f = fopen(names[i], "r");
        DIR *d = opendir(names[i]);
        printf("%s %s\n", names[i], f || d ? "OPEN" : "refused");
    }
    FILE *w = fopen("outcome.json", "w");
    printf("write %s\n", w ? "OPEN" : "refused");
    fprintf(stderr, "{\"end\": \"exit\", \"exit\": 0, \"memory\": 0}\n");
    return 0;
}""",
    "busy": r"""
int main(void) {
    volatile unsigned long n = 0;
    for (unsigned long i = 0; i < 400000000UL; i++) n += i;
    return 0;
}""",
    "unreachable": r"""
#include <stdio.h>
int main(void) { puts("then"); fflush(stdout); __builtin_trap(); }""",
    "recurse": r"""
int down(volatile int n) { return n ? down(n + 1) + 1 : 0; }
int main(void) { return down(1); }""",
}


@pytest.fixture(scope="module")
def programs() -> dict[tuple[str, str], str]:
    """(name, level) -> a .wasm of each program, compiled at -O0 and -O2 through the UB
    runner's compile (the sandbox, the cache)."""
    clang = resolve_compiler("clang-16")
    built = {}
    for name, source in PROGRAMS.items():
        for level in ("-O0", "-O2"):
            link = [f"-Wl,--initial-memory={INITIAL_MEMORY}"] if name == "large" else []
            b = compile_program(clang, "c", "gnu17", f"{name}.c", source.encode(),
                                [f"--target={wasm.TARGET}", level], link, False)
            assert b.ok, b.log
            built[name, level] = b.binary
    return built


@pytest.fixture(params=["namespace", "fallback"])
def mode(request, monkeypatch):
    """With namespaces, and with the fallback used where the kernel forbids them."""
    if request.param == "fallback":
        monkeypatch.setattr(sandbox, "_NS_STATE", False)
    else:
        assert sandbox.namespaces_available()
    return request.param


def test_programs_are_wasm(programs):
    for binary in programs.values():
        assert Path(binary).read_bytes()[:4] == b"\0asm"


@pytest.mark.parametrize("level", ["-O0", "-O2"])
def test_int_min_divided_by_minus_one_traps(programs, level, mode):
    r = wasm.run(programs["divide", level], limits=LIMITS)
    assert r.status == SandboxStatus.TRAP and r.trap == "integer-overflow", r
    assert r.signal is None and r.exit is None and r.limit is None
    assert r.stdout == b"before\n"          # what it wrote before the trap is kept
    assert (r.mode == "namespace") == (mode == "namespace")


@pytest.mark.parametrize("level", ["-O0", "-O2"])
def test_null_load_reads_zero_and_goes_on(programs, level):
    r = wasm.run(programs["null", level], limits=LIMITS)
    assert (r.status, r.exit, r.trap, r.stdout) == (SandboxStatus.EXIT, 3, None, b"0\ngoes on\n")


def test_other_traps_are_named(programs):
    r = wasm.run(programs["unreachable", "-O0"], limits=LIMITS)
    assert (r.status, r.trap, r.stdout) == (SandboxStatus.TRAP, "unreachable", b"then\n")
    # C's stack is in the linear memory (64 KiB below the data): a runaway recursion
    # runs off its bottom, past address 0, before the wasm call stack is full.
    r = wasm.run(programs["recurse", "-O0"], limits=LIMITS)
    assert (r.status, r.trap) == (SandboxStatus.TRAP, "memory-out-of-bounds")


def test_infinite_loop_ends_at_the_time_limit(programs):
    limits = Limits(timeout=1.5, cpu=4)
    r = wasm.run(programs["loop", "-O2"], limits=limits)
    assert (r.status, r.limit, r.trap) == (SandboxStatus.TIMEOUT, "time", None)
    assert r.wall < limits.timeout + 1.0
    assert r.leftovers_killed == 0


def test_unbounded_memory_growth_ends_at_the_limit(programs):
    limits = Limits(timeout=10.0, cpu=10, memory=256 << 20, address_space=512 << 20)
    r = wasm.run(programs["grow", "-O2"], limits=limits)
    assert r.limit == "memory" and r.memory_limit == wasm.memory_limit(limits) == 128 << 20
    assert r.memory_limit * (1 - wasm.REACHED_WITHIN) <= r.memory <= r.memory_limit
    assert (r.status, r.exit) == (SandboxStatus.EXIT, 1)   # malloc said NULL; it said so
    assert r.stdout.startswith(b"NULL after 12")
    assert r.maxrss_kb * 1024 < limits.memory


def test_memory_above_the_limit_from_the_start_never_starts(programs):
    assert wasm.memory_limit(LIMITS) < INITIAL_MEMORY
    r = wasm.run(programs["large", "-O0"], limits=LIMITS)
    assert (r.status, r.signal, r.exit, r.limit) == (SandboxStatus.SIGNAL, None, None, "memory")
    assert "exceeds memory limits" in r.trap_message and r.stdout == b""
    big = Limits(timeout=5.0, cpu=5, memory=2 << 30, address_space=2 << 30)
    r = wasm.run(programs["large", "-O0"], limits=big)   # 1 GiB of linear memory: it runs
    assert (r.status, r.exit, r.stdout) == (SandboxStatus.EXIT, 0, b"large\n"), r


def test_output_is_capped(programs):
    r = wasm.run(programs["flood", "-O2"], limits=LIMITS)
    assert (r.status, r.limit, r.truncated) == (SandboxStatus.OUTPUT_TRUNCATED, "output", True)
    assert len(r.stdout) == LIMITS.output_cap


def test_nothing_outside_is_visible(programs, mode, monkeypatch):
    monkeypatch.setenv("WASM_RUN_TOKEN", "planted")
    r = wasm.run(programs["world", "-O0"], ["one"], limits=LIMITS)
    assert (r.status, r.exit) == (SandboxStatus.EXIT, 0), r
    lines = r.stdout.decode().splitlines()
    assert lines[:2] == ["argc 2 arg1 one", "HOME unset TOKEN unset"]
    assert lines[2:] and all(line.endswith(" refused") for line in lines[2:]), lines
    assert b"planted" not in r.stdout + r.stderr


def test_cpu_is_accounted(programs):
    idle = wasm.run(programs["null", "-O2"], limits=LIMITS)
    busy = wasm.run(programs["busy", "-O0"], limits=Limits(timeout=20.0, cpu=20))
    assert busy.status == SandboxStatus.EXIT and busy.exit == 0, busy
    assert idle.user + idle.sys > 0.02                 # Python and Wasmtime start: counted
    assert busy.user + busy.sys > idle.user + idle.sys + 0.2


def test_not_a_wasm_program_is_one_line(tmp_path):
    bad = tmp_path / "bad.wasm"
    bad.write_bytes(b"\0asm garbage")
    with pytest.raises(ToolFailed, match="wasm host failed") as exc:
        wasm.run(bad, limits=LIMITS)
    assert "\n" not in str(exc.value)


def test_missing_pieces_name_their_package(monkeypatch):
    monkeypatch.setattr(wasm, "NEEDED", (("/nonexistent/wasm32-wasi/stdio.h",
                                          "WASI's C library (wasi-libc)", "wasi-libc"),))
    with pytest.raises(NotInstalled, match="install the Debian package wasi-libc"):
        wasm.require()
    # Debian's python3 without the virtualenv: no wasmtime
    probe = subprocess.run(
        ["/usr/bin/python3", "-s", "-c", "import importlib.util as u; "
         "print(u.find_spec('wasmtime') is None)"], capture_output=True, text=True, check=True)
    if probe.stdout.strip() != "True":
        pytest.skip("the system's python3 has wasmtime itself")
    done = subprocess.run(
        ["/usr/bin/python3", "-s", "-c", "from analyzer.sandbox import wasm; wasm.require()"],
        capture_output=True, text=True, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert "NotInstalled" in last and "pip install 'warnscope[wasm]'" in last, done.stderr


def _wasm32_cases():
    from analyzer.ub.corpus import bundled_corpus, load
    cases = {c.id: c for c in load(bundled_corpus()).cases}
    held = [c for c in cases.values() if "wasm32" in c.expected_by_arch]
    return [(c, cases[c.twin]) for c in held]


#: the cases whose UB clang-16's -O2 build for wasm32 exploits (the trapping division
#: dropped, the null check or the store folded away): their file is the -O0 run's
EXPLOITED_AT_O2 = {"division-by-zero/sunk-division", "division-by-zero/unused-remainder",
                   "incompatible-function-pointer/ignored-result",
                   "null-dereference/check-after-use", "string-literal-modification/shared-literal",
                   "string-literal-modification/write-literal"}


def _said(r) -> bytes:
    """What a run said as an expected output holds it: its stdout, then the trap that
    ended it on a line of its own (``trap: integer-overflow``)."""
    return r.stdout + (f"trap: {r.trap}\n".encode() if r.status == SandboxStatus.TRAP else b"")


@pytest.mark.parametrize("level", ["-O0", "-O2"])
def test_corpus_wasm32_outputs_are_what_it_prints(level):
    """Every ``NAME.wasm32.output`` of the corpus is what the program prints on wasm32 (its
    exit as the case says, or the trap it names), at -O0 and, but for the cases whose UB
    -O2 exploits (which print something else there), at -O2; its fixed twin prints its
    plain output there at both."""
    clang = resolve_compiler("clang-16@wasm32-wasi")   # WASI's flags, C++'s too
    pairs = _wasm32_cases()
    assert len(pairs) >= 19
    for case, twin in pairs:
        for one, expected in ((case, case.expected_on("wasm32")), (twin, twin.expected)):
            b = compile_program(clang, one.language, one.std, one.path.name, one.source,
                                [level], list(one.link), False)
            assert b.ok, b.log
            r = wasm.run(b.binary, one.args, LIMITS)
            if one is case and level == "-O2" and case.id in EXPLOITED_AT_O2:
                assert _said(r) not in expected, (one.id, "no longer exploited at -O2")
                continue
            assert r.status is SandboxStatus.TRAP or r.exit == one.exit, (one.id, r)
            assert _said(r) in expected, (one.id, level, _said(r))
