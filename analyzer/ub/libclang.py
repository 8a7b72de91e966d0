"""Which warning options clang emits, read through libclang's Python bindings.

Each diagnostic of a libclang translation unit carries its option
(``-Wtautological-compare``), so no text scraping is needed. Every clang version
is asked through its own library (Debian's ``libclang1-N``): the bindings'
``Config.set_library_file`` can be called once per process, so each version runs
in its own short-lived worker process (:mod:`analyzer.ub.libclang_worker`) that
reads a JSON request and writes a JSON answer on stdout. The worker parses untrusted
programs, so it runs in the sandbox like their compiles do. A clang of a Debian
root (``warnscope toolchain add clang-18``) is asked the same way with the root's
system directories, by the root's python3 with its python3-clang-N bindings.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from warnscope.errors import NotInstalled, ToolFailed

from analyzer.sandbox import runner as sandbox
from analyzer.sandbox.limits import SandboxStatus

WORKER_TIMEOUT = 600


def library_for(major: int) -> str:
    """The libclang shared library of clang ``major``, or a clear error."""
    for candidate in (f"/usr/lib/llvm-{major}/lib/libclang-{major}.so.1",
                      f"/usr/lib/x86_64-linux-gnu/libclang-{major}.so.1",
                      f"/usr/lib/llvm-{major}/lib/libclang.so.1"):
        if Path(candidate).exists():
            return candidate
    raise NotInstalled(f"libclang of clang-{major} not found: install libclang1-{major}")


def _root_toolchain(major: int):
    """The root toolchain of clang ``major`` when the host has no libclang of its own."""
    from analyzer.runtime.toolchain import resolve
    try:
        tc = resolve(f"clang-{major}")
    except NotInstalled:
        return None
    return tc if tc.root is not None else None


#: What one worker may use: libclang parses C++ headers in a few hundred MB; a source
#: that includes /dev/zero stops at the memory cap, one that never ends at the timeout.
LIMITS = sandbox.Limits(timeout=WORKER_TIMEOUT, cpu=WORKER_TIMEOUT, address_space=None,
                        memory=2 << 30, processes=32, file_size=16 << 20, open_files=256,
                        output_cap=16 << 20, tmpfs_size=64 << 20)
WORKER = Path(__file__).with_name("libclang_worker.py")


@dataclass
class Answer:
    """What a libclang worker said: its library's version, the options per unit, and
    the units it could not parse (unit id -> why: a limit ended its worker)."""

    version: str
    options: dict[str, list[str]]
    failed: dict[str, str] = field(default_factory=dict)


def warnings_for(major: int, units: list[dict]) -> Answer:
    """Ask clang ``major``'s libclang about ``units``, in the sandbox.

    ``units``: [{"id": str, "filename": str, "source": str, "args": [...]}]. libclang
    reads a program's includes from the file system, and the program is untrusted: the
    worker runs in :mod:`analyzer.sandbox.runner` as a pool uid, under limits, like a compile.
    A worker ended by a limit is retried one unit at a time, so one hostile program
    costs only its own answer (in ``failed``), not its batch's.
    """
    tc = _root_toolchain(major)
    if tc is not None:
        library = f"/usr/lib/llvm-{major}/lib/libclang-{major}.so.1"
        if not Path(tc.file(library)).exists():
            raise NotInstalled(f"libclang of clang-{major} not found in its {tc.suite} root")
    else:
        library = library_for(major)
    root = tc.root if tc is not None else None
    try:
        return _ask(major, library, units, root)
    except _LimitHit as hit:
        if len(units) == 1:
            return Answer(version="", options={}, failed={units[0]["id"]: str(hit)})
    answer = Answer(version="", options={})
    for unit in units:
        try:
            one = _ask(major, library, [unit], root)
        except _LimitHit as hit:
            answer.failed[unit["id"]] = str(hit)
            continue
        answer.version = one.version
        answer.options.update(one.options)
    return answer


class _LimitHit(Exception):
    """A worker ended by one of its limits: the program it parsed, not libclang, is at fault."""


def _ask(major: int, library: str, units: list[dict], root: str | None) -> Answer:
    """One sandboxed worker over ``units``."""
    with sandbox.workspace() as ws:
        shutil.copyfile(WORKER, ws.path / WORKER.name)
        if root is None:  # the host's bindings; a root brings its own python3-clang-N
            from clang import __file__ as bindings
            shutil.copytree(Path(bindings).parent, ws.path / "clang",
                            ignore=shutil.ignore_patterns("__pycache__"))
        (ws.path / "request.json").write_text(json.dumps({"library": library, "units": units}))
        python = "/usr/bin/python3" if root is not None else os.path.realpath(sys.executable)
        result = ws.run([python, "-s", "-E", "-B", WORKER.name, "request.json"], LIMITS, root=root)
    what = f"libclang worker for clang-{major}"
    if result.limit is not None:
        raise _LimitHit(f"{what} stopped at the {result.limit} limit")
    if result.status != SandboxStatus.EXIT or result.exit != 0:
        tail = result.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
        raise ToolFailed(f"{what} failed: {tail[0]}")
    try:
        answer = json.loads(result.stdout)
    except json.JSONDecodeError as exc:
        raise ToolFailed(f"{what} answered no JSON ({exc})") from None
    if f"clang version {major}." not in answer["version"]:
        raise ToolFailed(f"{library} reports {answer['version']!r}, not clang {major}")
    return Answer(version=answer["version"], options=answer["options"])
