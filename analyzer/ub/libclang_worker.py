"""The libclang worker: one clang library, many translation units, run in the sandbox.

It is copied into a sandbox workspace beside the request and run there by the system's
``python3`` as the sandbox's uid, so it imports nothing of warnscope: the corpus
program it parses is untrusted (``#include "/etc/shadow"``, ``#include "/dev/zero"``),
and libclang reads includes from the file system. Usage: ``python3 -s -E
libclang_worker.py REQUEST.json``; the answer is JSON on stdout.
"""
import json
import sys


def main(request_path: str) -> None:
    with open(request_path, encoding="utf-8") as fh:
        request = json.load(fh)
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
    options = {}
    for unit in request["units"]:
        tu = index.parse(unit["filename"], args=unit["args"],
                         unsaved_files=[(unit["filename"], unit["source"])])
        fired = {d.option for d in tu.diagnostics
                 if d.severity == cindex.Diagnostic.Warning and d.option}
        options[unit["id"]] = sorted(o for o in fired if o.startswith("-W"))
    json.dump({"version": version, "options": options}, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
