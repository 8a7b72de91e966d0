"""Which warning options clang emits, read through libclang's Python bindings.

Each diagnostic of a libclang translation unit carries its option
(``-Wtautological-compare``), so no text scraping is needed. Every clang version
is asked through its own library (Debian's ``libclang1-N``): the bindings'
``Config.set_library_file`` can be called once per process, so each version runs
in its own short-lived worker process (``python -m analyzer.ub.libclang``) that
reads a JSON request on stdin and writes a JSON answer on stdout. A clang of a Debian
root (``warnscope toolchain add clang-18``) is asked the same way from inside its
root, by the root's python3 with its python3-clang-N bindings.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from warnscope import tool
from warnscope.errors import NotInstalled, ToolFailed

WORKER_TIMEOUT = 600


def library_for(major: int) -> str:
    """The libclang shared library of clang ``major``, or a clear error."""
    for candidate in (f"/usr/lib/llvm-{major}/lib/libclang-{major}.so.1",
                      f"/usr/lib/x86_64-linux-gnu/libclang-{major}.so.1",
                      f"/usr/lib/llvm-{major}/lib/libclang.so.1"):
        if Path(candidate).exists():
            return candidate
    raise NotInstalled(f"libclang of clang-{major} not found: install libclang1-{major}")


def clang_warning_args(language: str, std: str, level: str, flags: list[str]) -> list[str]:
    """Arguments of a parse with every warning on."""
    return ["-x", language, f"-std={std}", level, *flags, "-Weverything"]


def _root_toolchain(major: int):
    """The root toolchain of clang ``major`` when the host has no libclang of its own."""
    from analyzer.toolchain import resolve
    try:
        tc = resolve(f"clang-{major}")
    except NotInstalled:
        return None
    return tc if tc.root is not None else None


def warnings_for(major: int, units: list[dict]) -> dict:
    """Ask clang ``major``'s libclang about ``units``.

    ``units``: [{"id": str, "filename": str, "source": str, "args": [...]}]. Returns
    {"version": "...", "options": {id: [option, ...]}}.
    """
    # From the directory that holds this very ``analyzer`` package, so the worker is
    # the same code as its caller (a source tree or an installed copy).
    here = str(Path(__file__).resolve().parents[2])
    argv = [sys.executable, "-m", "analyzer.ub.libclang"]
    tc = _root_toolchain(major)
    if tc is not None:
        library = f"/usr/lib/llvm-{major}/lib/libclang-{major}.so.1"
        if not Path(tc.file(library)).exists():
            raise NotInstalled(f"libclang of clang-{major} not found in its {tc.suite} root")
        argv = tc.wrap(["python3", "-m", "analyzer.ub.libclang"], ro_binds=(here,), cwd=here)
    else:
        library = library_for(major)
    request = json.dumps({"library": library, "units": units})
    proc = tool.run(argv, input=request, timeout=WORKER_TIMEOUT, cwd=here, check=False,
                    what=f"the libclang worker for clang-{major}")
    if proc.returncode != 0:
        tail = proc.stderr.strip().splitlines()[-1:] or ["no output"]
        raise ToolFailed(f"libclang worker for clang-{major} failed: {tail[0]}")
    try:
        answer = json.loads(proc.stdout)
    except json.JSONDecodeError as exc:
        raise ToolFailed(f"libclang worker for clang-{major} answered no JSON ({exc})") from None
    if f"clang version {major}." not in answer["version"]:
        raise ToolFailed(f"{library} reports {answer['version']!r}, not clang {major}")
    return answer


def _worker() -> None:
    """Worker process: one library, many translation units (parsed from memory)."""
    request = json.load(sys.stdin)
    try:
        from clang import cindex
    except ImportError:
        sys.exit("the clang Python bindings are missing: pip install 'clang==14.*'")
    cindex.Config.set_library_file(request["library"])
    cindex.Config.set_compatibility_check(False)
    lib = cindex.conf.lib
    lib.clang_getClangVersion.restype = cindex._CXString
    # Converted by hand, not as ctypes' errcheck: from clang 17's bindings on,
    # from_result takes the result alone (errcheck passes three arguments).
    version = cindex._CXString.from_result(lib.clang_getClangVersion())
    index = cindex.Index.create()
    options: dict[str, list[str]] = {}
    for unit in request["units"]:
        tu = index.parse(unit["filename"], args=unit["args"],
                         unsaved_files=[(unit["filename"], unit["source"])])
        fired = {d.option for d in tu.diagnostics
                 if d.severity == cindex.Diagnostic.Warning and d.option}
        options[unit["id"]] = sorted(o for o in fired if o.startswith("-W"))
    json.dump({"version": version, "options": options}, sys.stdout)


if __name__ == "__main__":
    _worker()
