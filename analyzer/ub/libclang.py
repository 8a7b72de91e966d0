"""Which warning options clang emits, read through libclang's Python bindings.

Each diagnostic of a libclang translation unit carries its option
(``-Wtautological-compare``), so no text scraping is needed. Every clang version
is asked through its own library (Debian's ``libclang1-N``): the bindings'
``Config.set_library_file`` can be called once per process, so each version runs
in its own short-lived worker process (``python -m analyzer.ub.libclang``) that
reads a JSON request on stdin and writes a JSON answer on stdout.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from flagdb.errors import WarnscopeError

WORKER_TIMEOUT = 600


def library_for(major: int) -> str:
    """The libclang shared library of clang ``major``, or a clear error."""
    for candidate in (f"/usr/lib/llvm-{major}/lib/libclang-{major}.so.1",
                      f"/usr/lib/x86_64-linux-gnu/libclang-{major}.so.1",
                      f"/usr/lib/llvm-{major}/lib/libclang.so.1"):
        if Path(candidate).exists():
            return candidate
    raise WarnscopeError(f"libclang of clang-{major} not found: install libclang1-{major}")


def clang_warning_args(language: str, std: str, level: str, flags: list[str]) -> list[str]:
    """Arguments of a parse with every warning on."""
    return ["-x", language, f"-std={std}", level, *flags, "-Weverything"]


def warnings_for(major: int, units: list[dict]) -> dict:
    """Ask clang ``major``'s libclang about ``units``.

    ``units``: [{"id": str, "filename": str, "source": str, "args": [...]}]. Returns
    {"version": "...", "options": {id: [option, ...]}}.
    """
    request = json.dumps({"library": library_for(major), "units": units})
    # From the directory that holds this very ``analyzer`` package, so the worker is
    # the same code as its caller (a source tree or an installed copy).
    proc = subprocess.run([sys.executable, "-m", "analyzer.ub.libclang"], input=request,
                          capture_output=True, text=True, timeout=WORKER_TIMEOUT,
                          cwd=str(Path(__file__).resolve().parents[2]), check=False)
    if proc.returncode != 0:
        tail = proc.stderr.strip().splitlines()[-1:] or ["no output"]
        raise WarnscopeError(f"libclang worker for clang-{major} failed: {tail[0]}")
    answer = json.loads(proc.stdout)
    if f"clang version {major}." not in answer["version"]:
        raise WarnscopeError(f"{library_for(major)} reports {answer['version']!r}, not clang {major}")
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
    lib.clang_getClangVersion.errcheck = cindex._CXString.from_result
    version = lib.clang_getClangVersion()
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
