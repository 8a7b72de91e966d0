"""Compilers by name, and compiling a program through a cache keyed by content.

A compiler is named as installed: ``gcc-12``, ``clang-16``. Its identity is the
resolved driver path plus its ``--version`` output, so an upgraded package makes
new cache keys. A binary is cached under ``cache_dir("ub", "bin")`` by
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

LEVELS = ("-O0", "-O1", "-O2", "-O3", "-Os", "-Og", "-Oz", "-Ofast")
COMPILE_TIMEOUT = 120


@dataclass(frozen=True)
class Compiler:
    """An installed compiler: ``name`` as the user typed it, both drivers, identity."""

    name: str          # 'gcc-12'
    family: str        # 'gcc' | 'clang'
    major: int
    c_driver: str      # path of gcc-12 / clang-16
    cxx_driver: str    # path of g++-12 / clang++-16
    version: str       # first line of --version
    identity: str      # sha256 of paths and full --version output

    def driver(self, language: str) -> str:
        return self.c_driver if language == "c" else self.cxx_driver


def resolve_compiler(name: str) -> Compiler:
    """``gcc-12`` -> Compiler, or a clear error when it is not installed."""
    m = re.fullmatch(r"(gcc|clang)-(\d+)", name)
    if not m:
        raise WarnscopeError(f"unknown compiler {name!r}: expected gcc-N or clang-N")
    family, major = m.group(1), int(m.group(2))
    cxx_name = f"g++-{major}" if family == "gcc" else f"clang++-{major}"
    c_path, cxx_path = shutil.which(name), shutil.which(cxx_name)
    if not c_path:
        raise WarnscopeError(f"compiler {name} is not installed (no {name} on PATH)")
    cxx_path = cxx_path or c_path
    # Drivers are invoked by their own names (clang++-14 is a symlink to clang, which
    # links C++ only when called as clang++); the identity uses the resolved files.
    proc = subprocess.run([c_path, "--version"], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise WarnscopeError(f"{name} --version failed: {proc.stderr.strip()[:200]}")
    real = f"{os.path.realpath(c_path)}\0{os.path.realpath(cxx_path)}"
    identity = hashlib.sha256(f"{c_path}\0{cxx_path}\0{real}\0{proc.stdout}".encode()).hexdigest()
    return Compiler(name=name, family=family, major=major, c_driver=c_path,
                    cxx_driver=cxx_path, version=proc.stdout.splitlines()[0].strip(),
                    identity=identity)


def installed_compilers(names: list[str]) -> list[str]:
    """Those of ``names`` (gcc-N / clang-N) found on PATH, for a run on whatever is here."""
    return [n for n in names if shutil.which(n)]


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


def compile_program(compiler: Compiler, language: str, std: str, filename: str,
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


