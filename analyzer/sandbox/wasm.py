"""Running one WebAssembly program (``clang-16 --target=wasm32-wasi``) in the sandbox.

The sandboxed program is the Wasmtime host (:mod:`analyzer.sandbox.wasm_host`, run by
the system's python3 with a copy of the ``wasmtime`` package in the run's workspace), so
a wasm run has what every run has -- a pool uid, no network, the rlimits, the wall clock
killing the whole tree, capped output, nothing left behind, its CPU accounted (the host's:
Python's start, Wasmtime compiling the module, the program) -- and, inside Wasmtime, what
a wasm program needs besides: an epoch interruption a little before the time limit, a
limit on its linear memory, WASI with no file, no environment and empty stdin.

How it ended is the sandbox's status: ``exit`` (its code), ``trap`` (a wasm trap, with
its code in :attr:`WasmResult.trap`: ``integer-overflow``, ``integer-division-by-zero``,
``unreachable``, ``memory-out-of-bounds``, ``stack-overflow``, ...: crash-like, but no
POSIX signal), ``timeout`` (the interruption, the wall clock or the CPU limit) or
``output-truncated``; ``limit`` is ``"memory"`` when the program's linear memory reached
its limit (a growth was refused: malloc returned NULL to it), as it is for a native run
stopped at the resident-memory cap; a program whose memory starts above the limit (a large
static array) never starts: status ``signal`` with no signal and ``limit`` ``"memory"``,
the sandbox's word for a run the memory limit ended.

A profile that runs its target's programs under WebAssembly calls :func:`require` once
(one line saying which package is missing) and :func:`run` per program."""
from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from warnscope.errors import NotInstalled, ToolFailed

from analyzer.sandbox import runner
from analyzer.sandbox.limits import Limits, RunResult, SandboxStatus

HOST = Path(__file__).with_name("wasm_host.py")
#: The target triple of clang's WASI programs.
TARGET = "wasm32-wasi"
#: The compiler whose WASI packages :data:`NEEDED` names.
COMPILER = f"clang-16@{TARGET}"
#: What clang-16 needs besides a program's own flags to build it for the target: C's
#: ``signal()`` exists in WASI only as an emulation (``raise`` reaches a handler; a trap
#: never does), C++ has libc++ without exceptions, whose headers Debian's clang-16 does
#: not find by itself.
COMPILE_FLAGS = (f"--target={TARGET}", "-D_WASI_EMULATED_SIGNAL")
CXX_FLAGS = ("-fno-exceptions", "-isystem", "/usr/lib/llvm-16/include/wasm32-wasi/c++/v1")
LINK_FLAGS = ("-lwasi-emulated-signal",)
#: What a compile for the target and a run need, each with the Debian package (or pip
#: extra) that brings it: (file, what it is, package).
NEEDED = (
    ("/usr/include/wasm32-wasi/stdio.h", "WASI's C library (wasi-libc)", "wasi-libc"),
    ("/usr/lib/llvm-16/lib/clang/16/lib/wasi/libclang_rt.builtins-wasm32.a",
     "clang-16's wasm32 builtins", "libclang-rt-16-dev-wasm32"),
    ("/usr/lib/llvm-16/bin/wasm-ld", "the wasm linker of clang-16", "lld-16"),
    ("/usr/lib/llvm-16/include/wasm32-wasi/c++/v1/cstdio", "libc++ for WASI",
     "libc++-16-dev-wasm32"),
    ("/usr/lib/llvm-16/lib/wasm32-wasi/libc++abi.a", "libc++abi for WASI",
     "libc++abi-16-dev-wasm32"),
)
#: The part of a linear memory's limit within which it counts as reached: malloc asks
#: for what it needs at once, so a refused growth leaves the memory this close to it.
REACHED_WITHIN = 1 / 16


@dataclass(frozen=True, kw_only=True)
class WasmResult(RunResult):
    """A sandboxed run of a wasm program: the host's :class:`RunResult` (its figures are
    the whole run's), with the program's own ending. ``trap``: the wasm trap that ended it
    (status ``trap``), as Wasmtime names it in lower case with dashes; ``trap_message``
    its first line; ``memory``: the linear memory's size at the end, in bytes, of at most
    ``memory_limit``."""

    trap: str | None = None
    trap_message: str = ""
    memory: int = 0
    memory_limit: int = 0


def require() -> None:
    """Raise :class:`NotInstalled`, in one line naming the package, unless the wasm32
    target can be compiled for (wasi-libc, the builtins, wasm-ld) and run (wasmtime)."""
    for path, what, package in NEEDED:
        if not Path(path).exists():
            raise NotInstalled(f"{what} not found ({path}): install the Debian package {package}")
    if importlib.util.find_spec("wasmtime") is None:
        raise NotInstalled("Wasmtime, which runs wasm32 programs, is not installed: "
                           "pip install 'warnscope[wasm]' (PyPI's wasmtime)")


def memory_limit(limits: Limits) -> int:
    """The linear memory a program may grow to: half of what the run may use (its
    resident memory, its address space), the other half left to the host (Python, Wasmtime,
    the compiled code); never more than wasm32's 4 GiB."""
    whole = min(limits.memory, limits.address_space or limits.memory)
    return min(whole // 2, 4 << 30)


def run(program: str | Path, args: Sequence[str] = (), limits: Limits = Limits()) -> WasmResult:
    """Run the wasm program ``program`` (a WASI command: ``_start``) with ``args`` under
    ``limits``, in the sandbox (see the module's docstring)."""
    require()
    import wasmtime
    package = Path(wasmtime.__file__).parent
    memory = memory_limit(limits)
    with runner.workspace() as ws:
        shutil.copyfile(HOST, ws.path / HOST.name)
        shutil.copyfile(program, ws.path / "prog.wasm")
        shutil.copytree(package, ws.path / "wasmtime",
                        ignore=shutil.ignore_patterns("__pycache__", "component"))
        python = os.path.realpath(sys.executable)
        result = ws.run([python, "-s", "-E", "-B", HOST.name, "prog.wasm", repr(limits.timeout),
                         str(memory), "outcome.json", *args], limits)
        said = ws.read("outcome.json")
    return _result(result, said, memory)


def _result(host: RunResult, said: bytes | None, memory: int) -> WasmResult:
    """The run's result from the host's run and the outcome it wrote (None: none)."""
    fields = {f.name: getattr(host, f.name) for f in dataclasses.fields(RunResult)}
    fields["memory_limit"] = memory
    if host.limit is not None or host.status in (SandboxStatus.TIMEOUT,
                                                 SandboxStatus.OUTPUT_TRUNCATED):
        return WasmResult(**fields)       # the sandbox ended the host: its word stands
    if said is None:
        if host.signal is not None:       # Wasmtime itself crashed: the sandbox saw a signal
            return WasmResult(**fields)
        tail = host.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
        raise ToolFailed(f"the wasm host failed: {tail[0]}")
    try:
        outcome = json.loads(said)
        end = outcome["end"]
        fields["memory"] = int(outcome["memory"])
    except (ValueError, KeyError, TypeError) as exc:
        raise ToolFailed(f"the wasm host wrote an outcome that is not one ({exc})") from None
    fields.update(signal=None, exit=None)
    if end == "exit":
        fields.update(status=SandboxStatus.EXIT, exit=int(outcome["exit"]))
    elif end == "trap":
        fields.update(status=SandboxStatus.TRAP, trap=str(outcome["trap"]),
                      trap_message=str(outcome.get("message", "")))
    elif end == "refused":      # its memory starts above the limit: it never started
        fields.update(status=SandboxStatus.SIGNAL, limit="memory",
                      trap_message=str(outcome.get("message", "")))
    else:
        fields.update(status=SandboxStatus.TIMEOUT, limit="time")
    if fields["memory"] >= memory * (1 - REACHED_WITHIN) and fields["limit"] is None:
        fields["limit"] = "memory"
    return WasmResult(**fields)
