"""GCC writes a file name's control characters into its JSON diagnostics unescaped:
the JSON is read all the same (only control characters in strings are let through),
and the file's diagnostics are counted, not listed as unread."""
from __future__ import annotations

import subprocess

from warnscope.diagnostics import parse_gcc_json


def test_a_file_name_with_control_characters(tmp_path, require):
    gcc = require("gcc-12")
    name = "a\tb\x01c.c"
    (tmp_path / name).write_text("int f(void)\n{\n    int unused;\n    return 0;\n}\n")
    proc = subprocess.run([gcc, "-c", "-Wall", "-fdiagnostics-format=json", name, "-o",
                           "/dev/null"], cwd=tmp_path, capture_output=True)
    stderr = proc.stderr.decode("utf-8")
    assert "\x01" in stderr and "\\u0001" not in stderr   # GCC's own JSON, unescaped
    parsed = parse_gcc_json.parse(stderr)
    assert parsed.problem is None, parsed.problem
    (d,) = parsed.diagnostics
    assert d.option == "-Wunused-variable" and d.file == name and d.line == 3
    found, rest = parse_gcc_json.split_stderr(stderr)
    assert [x["option"] for x in found] == ["-Wunused-variable"] and rest.strip() != stderr.strip()
