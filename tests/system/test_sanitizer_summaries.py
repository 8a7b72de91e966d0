"""Every summary GCC's and clang's AddressSanitizer print is read, the signals it catches
(upper case: SEGV, BUS, FPE, ILL) too: each kind proven on a real run of a small program
built with ``-fsanitize=address,undefined``."""
from __future__ import annotations

import os
import subprocess

import pytest

from analyzer.ub.detectors.detectors import sanitizer_reports

PROGRAMS = {
    # a plain null store: UBSan's runtime error, then ASan's SEGV summary
    "SEGV": ("int main(int argc, char **argv) {\n"
             "    int *volatile p = argc > 5 ? &argc : 0;\n"
             "    (void)argv;\n"
             "    *p = 3;\n"
             "    return 0;\n"
             "}\n", 4),
    # a store past the end of a mapped file: SIGBUS
    "BUS": ("#include <stdio.h>\n#include <stdlib.h>\n#include <sys/mman.h>\n#include <unistd.h>\n"
            "int main(void) {\n"
            "    FILE *f = tmpfile();\n"
            "    if (f == NULL) return 1;\n"
            "    char *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fileno(f), 0);\n"
            "    if (m == MAP_FAILED) return 1;\n"
            "    m[10] = 1;\n"
            "    return 0;\n"
            "}\n", 10),
    # INT_MIN / -1: UBSan reports the overflow and goes on, idiv traps: SIGFPE
    "FPE": ("#include <limits.h>\n"
            "int main(int argc, char **argv) {\n"
            "    (void)argv;\n"
            "    volatile int n = INT_MIN;\n"
            "    return n / -argc;\n"
            "}\n", 5),
    # a trap instruction: SIGILL
    "ILL": ("int main(void) {\n"
            "    __builtin_trap();\n"
            "    return 0;\n"
            "}\n", 2),
}


@pytest.mark.parametrize("compiler", ["gcc-12", "clang-16"])
@pytest.mark.parametrize("signal_name", sorted(PROGRAMS))
def test_an_upper_case_summary_is_a_finding(compiler, signal_name, tmp_path, require):
    driver = require(compiler)
    source, line = PROGRAMS[signal_name]
    (tmp_path / "p.c").write_text(source)
    subprocess.run([driver, "-g", "-O0", "-fsanitize=address,undefined", "p.c", "-o", "p"],
                   cwd=tmp_path, check=True, capture_output=True)
    env = {k: v for k, v in os.environ.items() if not k.endswith("SAN_OPTIONS")}
    env["ASAN_OPTIONS"] = "detect_leaks=0:handle_sigbus=1:handle_sigfpe=1:handle_sigill=1"
    run = subprocess.run(["./p"], cwd=tmp_path, capture_output=True, env=env, timeout=60)
    stderr = run.stderr.decode("utf-8", "replace")
    assert f"SUMMARY: AddressSanitizer: {signal_name}" in stderr, stderr
    findings, unsummarised = sanitizer_reports(stderr, "p.c")
    assert not unsummarised
    asan = [f for f in findings if f.detector == f"asan:{signal_name}"]
    assert asan, findings
    # GCC's runtime symbolizes its own stack; clang's prints the line only where an
    # llvm-symbolizer is found
    assert asan[0].line == line or (compiler.startswith("clang") and asan[0].line is None)
