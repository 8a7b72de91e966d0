"""Compilers by name, and compiling a program through a cache keyed by content.

Compilers are resolved by :mod:`analyzer.runtime.toolchain`; its identity goes into every
cache key, so an upgraded package makes new keys. A binary is cached under ``cache_dir("ub", "bin")`` by
sha256(source, identity, command-line flags); a compile that failed through the
program's own fault (the compiler ran and said no) is cached too, with its log,
so an unchanged rerun compiles nothing. A failure that was not the program's
fault -- a timeout, a signal to the compiler, a limit, a full disk -- is not
cached. Cache entries are written to a temporary name and renamed, because
other processes share the cache.

The source is untrusted, so the compiler runs in :mod:`analyzer.sandbox.runner` like
the programs do: a pool uid, no network, rlimits, a timeout that kills every
process of the compile, stdin from /dev/null, and a root file system with only
the system directories and the compile's own directory in it. A compiler of a
Debian root compiles with that root's system directories (``root=``), and its
programs run with them too (the caller passes ``compiler.root`` to ``sandbox.run``).

A cell's compile (``want_code``) also keeps the program's generated code: the same
sandboxed run compiles with ``-g`` (line tables; tested to leave ``.text`` byte for byte
as it is without) and then runs that system's objdump on the binary
(:data:`analyzer.ub.disasm.SCRIPT`), so untrusted bytes are disassembled only inside the
sandbox, and once per binary: the normalised text is cached beside the binary
(``KEY.code``, zlib), or why there is none (``code_note`` in the meta).
"""
from __future__ import annotations

import hashlib
import json
import os
import zlib
from dataclasses import dataclass

from warnscope.compilers import OPT_LEVELS
from warnscope.diagnostics import parse_gcc_json
from warnscope.errors import BadInput
from warnscope.paths import atomic_write, cache_dir

from analyzer.sandbox import runner as sandbox
from analyzer.sandbox.limits import SandboxStatus
from analyzer.runtime.toolchain import Toolchain
from analyzer.ub.warnflags import gcc_warning_flags
from analyzer.ub.corpus import PLAIN_NAME   # what the driver is given: never an option, never a path
from analyzer.ub import disasm

COMPILE_TIMEOUT = 120
#: A compile may take long and write a big binary, but not take the machine.
COMPILE_LIMITS = sandbox.Limits(timeout=COMPILE_TIMEOUT, cpu=COMPILE_TIMEOUT,
                                address_space=4 << 30, processes=32, file_size=256 << 20,
                                open_files=256, output_cap=4 << 20, memory=2 << 30,
                                tmpfs_size=256 << 20, stack=64 << 20)
#: Bump when what a cache entry means changes: "sandboxed" -- entries made by an
#: unsandboxed compiler (which could embed any file root can read) are not reused;
#: "-2": GCC 14's multi-line JSON diagnostics were stored as text, not as warnings.
CACHE_VERSION = "sandboxed-2"
#: Part of the key of a build that keeps its code ("code-2": -g and one objdump in the
#: compile's sandbox run); builds without code (sanitizers) keep their old keys.
CODE_VERSION = "code-2"
#: Messages of a compile that failed for want of room, not because of the program.
_NO_ROOM = ("No space left on device", "File too large", "Disk quota exceeded")
#: ... and for want of memory (the address-space limit reached before the watchdog's).
_NO_MEMORY = ("out of memory", "virtual memory exhausted", "Cannot allocate memory")


def normalize_level(level: str) -> str:
    """``O2`` and ``-O2`` both mean ``-O2``."""
    norm = level if level.startswith("-") else f"-{level}"
    if norm not in OPT_LEVELS:
        raise BadInput(f"unknown optimization level {level!r}: one of {', '.join(OPT_LEVELS)}")
    return norm


@dataclass
class CompiledProgram:
    """A compiled program, or why there is none."""

    ok: bool
    binary: str | None   # path in the cache
    log: str             # compiler stderr (rendered from JSON for gcc)
    diagnostics: list    # gcc's JSON diagnostics; [] for clang
    cached: bool
    command: list[str]
    #: the program's code (:func:`analyzer.ub.disasm.dumps`), None when not asked or
    #: unavailable; ``code_note`` says why it is unavailable ('' when it is there)
    code: str | None = None
    code_note: str = ""


def compile_program(compiler: Toolchain, language: str, std: str, filename: str,
                    source: bytes, flags: list[str], link: list[str],
                    want_diagnostics: bool, want_code: bool = False) -> CompiledProgram:
    """Compile ``source`` (named ``filename``) with ``flags``, through the cache.

    ``want_diagnostics`` asks gcc for ``-fdiagnostics-format=json`` with broad
    warnings on, so the same compile also says which warning options fired.
    Warning options do not change the generated code. ``want_code`` adds ``-g`` and keeps
    the disassembly of the program's own functions (``CompiledProgram.code``).
    """
    # a target's own flags first (WASI's: Toolchain.target_flags), in the key and the command
    args = [*compiler.target_flags(language), f"-std={std}", *flags] + (["-g"] if want_code else [])
    link = [*link, *compiler.target_link_flags()]
    if want_diagnostics and compiler.profile.gcc:
        # JSON up to GCC 15, SARIF from 16 (the profile's format): read alike by split_stderr
        args += gcc_warning_flags() + list(compiler.profile.diagnostics_option(compiler.major))
    key = hashlib.sha256("\0".join(
        [CACHE_VERSION, *([CODE_VERSION] if want_code else []), compiler.identity, language,
         filename, *args, "--link", *link]).encode()
        + b"\0" + source).hexdigest()
    store = cache_dir("ub", "bin", key[:2])
    meta_path, bin_path, code_path = store / f"{key}.json", store / key, store / f"{key}.code"
    driver = compiler.driver(language)
    if meta_path.exists():
        meta = json.loads(meta_path.read_text())
        if not meta["ok"] or bin_path.exists():
            code, note = _cached_code(code_path, meta) if want_code and meta["ok"] else (None, "")
            return CompiledProgram(ok=meta["ok"], binary=str(bin_path) if meta["ok"] else None,
                                   log=meta["log"], diagnostics=meta["diagnostics"], cached=True,
                                   command=meta["command"], code=code, code_note=note)
    if not PLAIN_NAME.fullmatch(filename):
        raise BadInput(f"{filename!r}: not a plain source file name")
    # Relative names: no temp path ends up in the binary. -pipe: no temporary
    # files between the stages (about 7% less CPU here), same code.
    command = [driver, "-pipe", *args, filename, "-o", "a.out", *link]
    argv = (["/bin/sh", "-c", disasm.SCRIPT, "sh", compiler.objdump(), *command] if want_code
            else command)
    code: str | None = None
    note = ""
    with sandbox.workspace() as ws:
        src = ws.path / filename
        src.write_bytes(source)
        os.chmod(src, 0o644)
        result = ws.run(argv, COMPILE_LIMITS, root=compiler.root)
        stderr = result.stderr.decode("utf-8", "replace")
        ok = result.status == SandboxStatus.EXIT and result.exit == 0
        binary = ws.read("a.out") if ok else None
        if ok and binary is not None and want_code:
            code, note = _read_code(ws)
    diagnostics: list = []
    if any(a.startswith("-fdiagnostics-format=") for a in args):
        diagnostics, stderr = parse_gcc_json.split_stderr(stderr)
    log = stderr.replace("/work/", "").replace(str(ws.path) + "/", "")
    why_not = _not_the_programs_fault(result, log)
    if why_not:
        log = f"{log}\n{why_not}".strip()
    if ok and binary is None:
        ok, log = False, log + "\ncompiler succeeded but wrote no binary"
    shown = command
    if ok:
        atomic_write(bin_path, binary, mode=0o755)
        if code is not None:
            atomic_write(code_path, zlib.compress(code.encode(), 6))
    if ok or not why_not:
        meta = {"ok": ok, "log": log, "diagnostics": diagnostics, "command": shown}
        if want_code and ok:
            meta["code_note"] = note
        atomic_write(meta_path, json.dumps(meta).encode())
    return CompiledProgram(ok=ok, binary=str(bin_path) if ok else None, log=log,
                           diagnostics=diagnostics, cached=False, command=shown,
                           code=code, code_note=note)


def _read_code(ws: sandbox.Workspace) -> tuple[str | None, str]:
    """The normalised code from what objdump wrote in the workspace, or (None, why not).
    Whatever the binary holds, this is a reason, never an exception."""
    status = (ws.read("a.status") or b"").strip()
    if status != b"0":
        err = (ws.read("a.err") or b"").decode("utf-8", "replace")
        why = " ".join(err.split())[:200] or (
            f"objdump ended with status {status.decode('ascii', 'replace')}"
            + (" (its time or size limit)" if status in (b"152", b"153", b"137") else "")
            if status else "objdump did not finish")
        return None, why
    try:
        dis = ws.read("a.dis")
        if dis is None:
            return None, "objdump wrote no output"
        code = disasm.parse(dis.decode("utf-8", "replace"))
    except disasm.Unavailable as exc:
        return None, str(exc)
    if not code.functions:
        return None, "no functions of the program in .text (stripped or empty binary)"
    return disasm.dumps(code), ""


def _cached_code(code_path: os.PathLike, meta: dict) -> tuple[str | None, str]:
    """The code cached beside a binary, or (None, why there is none)."""
    note = meta.get("code_note")
    if note is None:
        return None, "built before code capture"
    if note:
        return None, note
    try:
        with open(code_path, "rb") as f:
            return zlib.decompress(f.read()).decode(), ""
    except (OSError, zlib.error, UnicodeDecodeError):
        return None, "the cached code is missing or damaged"


def _not_the_programs_fault(result: sandbox.RunResult, log: str) -> str:
    """Why a failed compile says nothing about the program ('' when it does): such a
    failure is not cached, the next run tries again."""
    if result.status == SandboxStatus.TIMEOUT:
        return f"compiler stopped at the {result.limit or 'time'} limit ({COMPILE_TIMEOUT} s)"
    if result.status == SandboxStatus.SIGNAL:
        what = "memory limit" if result.limit == "memory" else f"signal {result.signal}"
        return f"compiler killed ({what})"
    if result.status == SandboxStatus.OUTPUT_TRUNCATED:
        return "compiler output over the cap; compile stopped"
    if result.exit and any(m in log for m in _NO_ROOM):
        return "compile failed for want of disk space"
    if result.exit and any(m in log for m in _NO_MEMORY):
        return "compiler stopped at the memory limit"
    return ""
