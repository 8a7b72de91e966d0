"""The compiler wrapper (wrapper.c): built once per driver into the cache, and its log.

See wrapper.c for why a compiled wrapper: it appends the level's warning flags and
records each compiler process's rusage and command line at the cost of one fork.
"""
from __future__ import annotations

import hashlib
import os
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from warnscope import tool
from warnscope.paths import atomic_write, cache_dir

if TYPE_CHECKING:
    from analyzer.projects.sandbox import BuildSandbox
    from analyzer.runtime.toolchain import Toolchain

SOURCE = Path(__file__).with_name("wrapper.c")
LOG_ENV = "WARNSCOPE_BUILD_LOG"
#: a directory: each compiler process's stderr goes to a file of its own there, named
#: in its log record (what `warnings run` reads each TU's diagnostics from)
STDERR_ENV = "WARNSCOPE_BUILD_STDERR"
FLAGS_ENV = {"c": "WARNSCOPE_BUILD_CFLAGS", "c++": "WARNSCOPE_BUILD_CXXFLAGS"}
#: put in front of a level's flags passed through the build system; the wrapper removes
#: it before the compiler runs and logs it, which proves where the flags arrived
MARKER = "--warnscope-level="
#: a wrapper log larger than this is not one a real build wrote (cppcheck's at ``all``:
#: about 1 MB)
MAX_LOG_BYTES = 1 << 30


def driver_for(tc: "Toolchain", language: str) -> str:
    """The driver a whole build on the host's system runs for ``tc``: the host's driver;
    for a compiler of a Debian root, a launcher script in the cache (named like the
    driver) that runs it through bubblewrap with the root's system directories and the
    builds' work directories at their own paths, in the build's current directory, so
    that the host's make and shell drive the root's compiler (``warnings run``). An
    overhead study does not use it: its build runs whole inside the root, the root's
    driver at its own path (:func:`analyzer.projects.steps.prepare`), since a bubblewrap
    per compiler process would count as the compiler's time. Trusted runs only (a
    project's build, as a user would run it); corpus programs use the sandbox. A
    compiler whose target has flags of its own (WebAssembly: the host's clang with
    ``--target=wasm32-wasi``, :meth:`Toolchain.target_flags`) is a launcher that adds them
    (and its link flags to a link), as a cross compiler's own driver would."""
    driver = tc.driver(language)
    if tc.root is None and not tc.target_flags(language):
        return driver
    if tc.root is None:
        return _launcher(tc.name, f"{shlex.quote(driver)} {shlex.join(tc.target_flags(language))}",
                         tc.target_link_flags(), driver)
    from analyzer.runtime.roots import bwrap_argv, host_link_flags
    prefix = bwrap_argv(Path(tc.root), [], binds=(str(cache_dir("builds", "work")),))[:-1]
    # a link gets the root's loader and libraries, so that a tool the build makes and runs
    # starts on the host; compiles see exactly their arguments
    return _launcher(f"{tc.name} of the {tc.suite} root",
                     f'{shlex.join(prefix)} --chdir "$PWD" -- {shlex.quote(driver)}',
                     host_link_flags(Path(tc.root)), driver)


def _launcher(title: str, command: str, link_flags: "tuple[str, ...] | list[str]",
              driver: str) -> str:
    """A launcher script in the cache, named like ``driver``: ``command`` (shell words)
    with the build's arguments, ``link_flags`` after them on a link (no -c, -S, -E, -M,
    -MM, -fsyntax-only)."""
    script = (f"#!/bin/sh\n# {title}, for warnscope's builds\n"
              'link=yes\nfor a in "$@"; do case $a in -c|-S|-E|-M|-MM|-fsyntax-only) link=no;; esac; done\n'
              f'[ $link = yes ] && set -- "$@" {shlex.join(link_flags)}\n'
              f'exec {command} "$@"\n')
    key = hashlib.sha256(script.encode()).hexdigest()[:16]
    dest = cache_dir("builds", "launchers", key) / os.path.basename(driver)
    if not dest.exists():
        atomic_write(dest, script.encode(), mode=0o755)
    return str(dest)


def wrapper_for(driver: str, language: str, static: bool = False) -> Path:
    """The wrapper executable for ``driver`` (a path), named like the driver so that
    build systems that look at the compiler's name (zlib's configure) see gcc as gcc.
    ``static``: a static executable, for a build that runs inside a Debian root
    (:func:`analyzer.projects.sandbox.build_sandbox` with ``root``), where ``driver`` is the
    root's own path of its driver and the wrapper must run on the root's C library,
    whichever it is (bullseye's is older than the host's, sid's newer). Built by the
    host's ``cc`` either way: the wrapper is warnscope's, not the build's; static, it
    needs no loader at all, which makes it a little cheaper to start than the host's
    dynamic one (a fraction of a millisecond per compile, in both cells of a ratio)."""
    flags_env = FLAGS_ENV[language]
    source = SOURCE.read_bytes()
    key = hashlib.sha256(source + f"\0{driver}\0{flags_env}".encode()
                         + (b"\0static" if static else b"")).hexdigest()[:16]
    dest = cache_dir("builds", "wrappers", key) / os.path.basename(driver)
    if dest.exists():
        return dest
    return tool.build_helper(SOURCE, dest, [f'-DREAL="{driver}"', f'-DFLAGS_ENV="{flags_env}"',
                                            *(["-static"] if static else [])],
                             what="the overhead wrapper" + (" (static)" if static else ""))


@dataclass(frozen=True)
class Record:
    """One compiler process as the wrapper saw it."""

    cpu: float        # user + sys seconds, the driver and what it waited for
    maxrss_kb: int
    status: int       # raw wait status
    cwd: str
    args: tuple[str, ...]  # the real driver, then the arguments as the build system gave them
    #                        (no flags the wrapper appended; the marker, if any, kept)
    stderr: str | None = None  # the file holding its stderr (with STDERR_ENV set), else None


def read_log(path: Path, box: "BuildSandbox | None" = None) -> list[Record]:
    """The wrapper's records; a missing log (no compiler ran) is an empty list. With
    ``box``, the log was written in that build sandbox, whose build could have put a
    link or a FIFO in its place: it is read as a regular file inside the box only."""
    if not os.path.lexists(path):
        return []
    if box is not None:
        text = box.read(path, max_bytes=MAX_LOG_BYTES).decode("utf-8", "replace")
    else:
        text = path.read_text(errors="replace")
    out = []
    for line in text.splitlines():
        parts = line.split("\t")  # the wrapper turns tabs inside a field into spaces
        if len(parts) not in (6, 7):
            continue  # a record cut short by a killed build
        user, sys_, rss, status, cwd, args = parts[:6]
        out.append(Record(cpu=(int(user) + int(sys_)) / 1e6, maxrss_kb=int(rss), status=int(status),
                          cwd=cwd, args=tuple(args.split("\x1f")) if args else (),
                          stderr=parts[6] if len(parts) == 7 else None))
    return out
