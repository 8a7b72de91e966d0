"""Every parser of untrusted text read to the end of an adversarial input as large as
its cap, with the real entries among it read back: the shapes that made a parser
super-linear before (a run of spaces before a colon or the end of a line, a lazy value
before ``\\s*$``, a thousand lines of ``[``, a failed decode counting every line before
it, a scan of the whole file per word of each flipped check). How long each takes is
measured in ``bench/bench_parsers.py`` (bench/README), never asserted here.
"""
from __future__ import annotations

import re

from analyzer.warnings import checks, formats
from analyzer.warnings import sarif as wsarif
from analyzer.warnings.results import Check
from warnscope import extract
from warnscope.diagnostics import RawDiagnostic, parse_gcc_json, parse_sarif, parse_text

#: a warnings build's TU output and a tree's file are read up to this; a UB compile's
#: output up to UB_CAP (analyzer/ub/compile.py's output_cap)
TU_CAP = extract.MAX_FILE_BYTES
UB_CAP = 4 << 20


def repeat(filler: str, cap: int, real: str, every: int) -> tuple[str, int]:
    """``filler`` lines with ``real`` after every ``every`` of them, up to ``cap`` bytes;
    and how many times ``real`` stands in it."""
    block = filler * every + real
    n = cap // len(block)
    assert n * len(block) > cap * 0.9
    return block * n, n


def test_autoconf_log_of_long_blank_names_and_colon_lines():
    check = "configure:10: checking for \t" + " " * 1500 + "x\nconfigure:11: result: yes\n"
    text, n = repeat("a: " * 600 + "\n", checks.MAX_LOG, check, 200)
    found = checks.autoconf_checks(text)
    assert found == [Check("autoconf", "for" + " " * (checks.MAX_TEXT - 3), "yes", "")] * n


def test_cmake_cache_and_error_log_of_long_names():
    cache, n = repeat("HAVE_" + "_" * 1900 + ":INTERNAL=1\n", checks.MAX_LOG, "HAVE_STRLCPY:INTERNAL=\n", 100)
    log, _ = repeat('  variable: "' + "x" * 1000 + '"' + " " * 900 + "y\n", checks.MAX_LOG,
                    "Performing C SOURCE FILE Test HAVE_STRLCPY failed with:\nsrc.c:1:1: error: no\n", 100)
    found = checks.cmake_checks(cache, log)
    strlcpy = [c for c in found if c.name == "HAVE_STRLCPY"]
    assert strlcpy == [Check("cmake", "HAVE_STRLCPY", "(false)", "src.c:1:1: error: no")] * n
    assert len(found) == 101 * n and {c.result for c in found if c not in strlcpy} == {"1"}


def test_meson_log_of_runs_of_spaces_before_no_colon():
    real = 'Checking for function "strlcpy" : NO\ncc.c:1:1: error: undeclared\nHas header "a.h" : YES\n'
    text, n = repeat("Checking if " + " " * 1980 + "x\n", checks.MAX_LOG, real, 1000)
    found = checks.meson_checks(text)
    assert found == [Check("meson", 'Checking for function "strlcpy"', "NO", ""),
                     Check("meson", 'Has header "a.h"', "YES", "")] * n


def test_meson_check_lines_as_meson_writes_them():
    found = checks.meson_checks('Header "a.h" has symbol "f" : YES (cached)\n'
                                "Compiler for C supports arguments -Wx: NO \n"
                                "Library m found: YES\nLibrary m found later: YES\n"
                                "Checking if : YES\nHeader has symbol : YES\n")
    assert [(c.name, c.result) for c in found] == [('Header "a.h" has symbol "f"', "YES"),
                                                   ("Compiler for C supports arguments -Wx", "NO"),
                                                   ("Library m found", "YES")]


def test_config_header_of_long_blank_values():
    real = "#define HAVE_A 1   \n/* #undef HAVE_B */\n#  define  HAVE_C\t\n"
    text, _ = repeat("#define X a" + " " * 1980 + "b\n#undef Y" + " " * 1980 + "*/ z\n",
                     checks.MAX_LOG, real, 100)
    assert checks.config_macros(text) == {"X": "a" + " " * (checks.MAX_TEXT - 1), "HAVE_A": "1",
                                          "HAVE_B": None, "HAVE_C": ""}


def test_clang_text_of_colons_and_brackets():
    real = "f.c:3:5: warning: unused variable 'x' [-Wunused-variable]\n"
    text, n = repeat("f.c:1:" * 300 + " [-W" * 100 + "\n", TU_CAP, real, 100)
    parsed = parse_text.parse(text)
    assert parsed.problem is None
    assert parsed.diagnostics == [RawDiagnostic("-Wunused-variable", "warning", "f.c", 3, 5,
                                                "unused variable 'x'")] * n


GCC = '[{"kind": "warning", "message": "m", "option": "-Wx", "locations": []}]\n'


def test_gcc_json_nested_past_the_decoders_depth():
    """A thousand-deep array is a problem of the output, said; what came before is kept."""
    parsed = parse_gcc_json.parse(GCC + "[\n" * (TU_CAP // 2))
    assert [d.option for d in parsed.diagnostics] == ["-Wx"]
    assert parsed.problem == f"GCC JSON nested too deeply at byte {len(GCC)}"


def test_sarif_nested_past_the_decoders_depth():
    parsed = parse_sarif.parse('{"runs": [\n' + "[\n" * (TU_CAP // 2))
    assert parsed.diagnostics == [] and parsed.problem == "SARIF nested too deeply at byte 0"


def test_gcc_json_among_lines_that_open_and_never_close():
    """The UB runner's reading: lines of ``["a`` (each decode failing on the next line),
    of ``[x`` and of ``[`` (nested past the decoder's depth) stay text, the arrays
    between them are read, and no line is lost."""
    filler, n = repeat('["a\n[x\n', UB_CAP // 2, "[x]\n" + GCC, 1000)
    stderr = GCC + filler + "[\n" * (UB_CAP // 4)
    elements, rest = parse_gcc_json.split_stderr(stderr)
    assert [e["option"] for e in elements] == ["-Wx"] * (n + 1)
    lines = rest.splitlines()
    assert lines[:n + 1] == ["warning: m [-Wx]"] * (n + 1)
    assert (lines.count('["a'), lines.count("[x"), lines.count("[x]"), lines.count("[")) == \
        (n * 1000, n * 1000, n, UB_CAP // 4)
    assert len(lines) == stderr.count("\n")


def test_gcc_json_after_a_line_that_failed_is_still_read():
    """A line that fails to decode ends where its brackets do: the array on the next
    line is read."""
    elements, rest = parse_gcc_json.split_stderr("[x]\n{standard input}: Assembler messages:\n" + GCC)
    assert [e["option"] for e in elements] == ["-Wx"]
    assert rest.splitlines()[-2:] == ["[x]", "{standard input}: Assembler messages:"]


def split_parts(size: int) -> list[str]:
    """A compile of three sources' GCC JSON at ``size`` bytes: the first with the driver's
    line before it, the second after half of text and a quarter of lines of ``["a`` and
    ``[x`` (each a failed decode), the third after a value nested past the decoder's depth
    (closed, a quarter), the linker's line after it."""
    return ["cc1: warning: command-line option '-Wx'\n" + GCC,
            ("x" * 99 + "\n") * (size // 200) + '["a\n[x\n' * (size // 28) + "[x]\n" + GCC,
            "[\n" * (size // 16) + "]\n" * (size // 16) + "[x]\n" + GCC + "ld: error: x\n"]


def test_split_of_a_compile_of_lines_that_open_and_never_close():
    """A warnings build's compile of several sources split per source (its GCC JSON
    arrays): lines that open a value and fail stay their source's text, each decode
    failing without counting the lines before it; nothing is lost."""
    parts = split_parts(TU_CAP)
    assert formats.split_documents("".join(parts), ["a.c", "b.c", "c.c"]) == parts


def test_flipped_checks_found_in_one_pass_over_a_large_file():
    """10,000 flipped checks' words in a file at the cap: each placed at the line a scan
    per word (the old reading, kept here for a few) places it; words that share every
    prefix and suffix (``a a a … b``) too."""
    line = "AC_MSG_CHECKING([if libc defines thing_{}]) dnl " + "x" * 400
    lines = [line.format(i) for i in range(TU_CAP // (len(line) + 5))]
    lines[5_000] = " ".join(["a"] * 50)
    words = [w for i in range(10_000)
             for w in wsarif._check_words(f"if libc defines {'thing' if i % 2 else 'missing'}_{i}")]
    words += [" ".join(["a"] * k + ["b"]) for k in range(1, 60)] + [" ".join(["a"] * k) for k in range(1, 60)]
    found = wsarif.WordLines(words).first_lines(lines)

    def scanned(word: str) -> int | None:
        pattern = re.compile(r"(?<![\w])" + re.escape(word) + r"(?![\w])")
        return next((n for n, text in enumerate(lines[:20_000], 1) if pattern.search(text)), None)

    for i in (1, 3, 4, 2_001):
        name = f"if libc defines {'thing' if i % 2 else 'missing'}_{i}"
        assert found.get(name) == scanned(name), name
    assert found["if libc defines thing_7"] == 8 and "if libc defines missing_0" not in found
    assert sum(1 for w in words if w.startswith("if libc") and w in found) == 5_000
    assert found["a a a"] == found[" ".join(["a"] * 50)] == 5_001
    assert "a b" not in found and " ".join(["a"] * 51) not in found


def test_clang_text_resolved_against_the_files_read():
    """Names resolved (``read``): lines of many places, each a name no compile read, with
    a different name on every line (past the names one output asks about), under lines
    that could begin a name: every one kept without a place and counted, the real
    diagnostics in their file."""
    real = "x\nreal:file.c:3:5: warning: unused variable 'x' [-Wunused-variable]\n"
    lines = [f"n{i}:1: error: " * 6 + "m" for i in range(TU_CAP // 100)]
    text = "".join(line + "\n" + (real if i % 100 == 0 else "") for i, line in enumerate(lines))
    assert len(text) > TU_CAP * 0.9
    asked: list[str] = []
    parsed = parse_text.parse(text, lambda name: asked.append(name) or name == "real:file.c")
    placed = [d for d in parsed.diagnostics if d.file is not None]
    assert placed == [RawDiagnostic("-Wunused-variable", "warning", "real:file.c", 3, 5, "unused variable 'x'")] \
        * (len(lines) // 100 + 1)
    unplaced = [d for d in parsed.diagnostics if d.file is None]
    assert len(unplaced) == len(lines) and {d.severity for d in unplaced} == {"error"}
    assert parsed.problem.startswith(f"{len(lines)} diagnostics at a file this compile did not read ('n0')")
    assert len(asked) == parse_text.MAX_ASKED
