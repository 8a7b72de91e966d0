"""The Wasmtime host of one WebAssembly program: the program the sandbox runs for a wasm
run (:mod:`analyzer.sandbox.wasm`), as a script copied into the run's workspace beside a
copy of the ``wasmtime`` package, since the sandbox shows nothing of warnscope's
virtualenv.

    python3 -s -E -B wasm_host.py PROGRAM.wasm SECONDS MEMORY_BYTES OUTCOME [ARG...]

It runs PROGRAM's ``_start`` with WASI: its arguments, no environment, no preopened
directory (no file at all), stdin empty, stdout and stderr its own (the sandbox's capped
pipes). The program may run for SECONDS (an epoch interruption ends it) and its linear
memory may grow to MEMORY_BYTES (``Store.set_limits``: a growth past it fails, so malloc
returns NULL). How it ended goes to the file OUTCOME, as one JSON object: the program has
no file to write, so what it prints cannot pass for it::

    {"end": "exit", "exit": 3, "memory": ..., "memory_limit": ...}
    {"end": "trap", "trap": "integer-overflow", "message": "...", ...}
    {"end": "interrupt", ...}
    {"end": "refused", "message": "... exceeds memory limits", ...}   (never started)

A host that writes no OUTCOME failed itself (an import, a module Wasmtime rejects): its
own error is on stderr.

Standalone: the standard library and ``wasmtime`` only, nothing of warnscope."""
from __future__ import annotations

import json
import os
import sys
import threading
import time

#: Seconds of the run's time limit kept for what comes after the program: the host's end
#: and the outcome's file, so the interruption, not the sandbox's kill, ends a program
#: that runs too long.
END_MARGIN = 0.3
#: Virtual address space reserved beyond a linear memory's limit, to catch an access past
#: its end without a bounds check of every access.
GUARD = 64 << 10


def main(argv: list[str]) -> int:
    started = time.monotonic()
    program, seconds, memory_limit, outcome_file, *args = argv
    seconds, memory_limit = float(seconds), int(memory_limit)
    import wasmtime

    config = wasmtime.Config()
    config.epoch_interruption = True
    config.parallel_compilation = False          # no thread pool: the run's process limit
    # One reservation, never moved, as large as the limit: the program fits in the
    # sandbox's address-space limit, which Wasmtime's default (4 GiB and guards) does not.
    config.memory_reservation = memory_limit
    config.memory_reservation_for_growth = 0
    config.memory_may_move = False
    config.memory_guard_size = GUARD
    engine = wasmtime.Engine(config)
    module = wasmtime.Module.from_file(engine, program)
    store = wasmtime.Store(engine)
    store.set_limits(memory_size=memory_limit)
    store.set_epoch_deadline(1)
    wasi = wasmtime.WasiConfig()
    wasi.argv = ["prog", *args]
    wasi.inherit_stdout()
    wasi.inherit_stderr()
    store.set_wasi(wasi)
    linker = wasmtime.Linker(engine)
    linker.define_wasi()
    try:
        instance = linker.instantiate(store, module)
    except wasmtime.WasmtimeError as refused:
        # A module whose memory starts larger than the limit (a large static array) never
        # starts: the memory limit ended it. Any other refusal is the host's to report.
        message = str(refused).splitlines()[0] if str(refused) else ""
        if "exceeds memory limits" not in message:
            raise
        return _outcome(outcome_file, {"end": "refused", "message": message, "memory": 0,
                                       "memory_limit": memory_limit})
    rest = max(0.05, seconds - (time.monotonic() - started) - END_MARGIN)
    timer = threading.Timer(rest, engine.increment_epoch)
    timer.daemon = True
    timer.start()
    try:
        instance.exports(store)["_start"](store)
        outcome = {"end": "exit", "exit": 0}
    except wasmtime.ExitTrap as exit_:
        outcome = {"end": "exit", "exit": exit_.code}
    except wasmtime.Trap as trap:
        code = trap.trap_code
        if code == wasmtime.TrapCode.INTERRUPT:
            outcome = {"end": "interrupt"}
        else:
            outcome = {"end": "trap",
                       "trap": code.name.lower().replace("_", "-") if code is not None else "unknown",
                       "message": str(trap).splitlines()[0] if str(trap) else ""}
    timer.cancel()
    memory = instance.exports(store).get("memory")
    outcome["memory"] = memory.data_len(store) if isinstance(memory, wasmtime.Memory) else 0
    outcome["memory_limit"] = memory_limit
    return _outcome(outcome_file, outcome)


def _outcome(outcome_file: str, outcome: dict) -> int:
    sys.stdout.flush()
    with open(outcome_file, "x", encoding="utf-8") as f:
        json.dump(outcome, f)
    # Wasmtime's objects are freed at the interpreter's exit; nothing is left to run.
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
