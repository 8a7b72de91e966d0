"""The wasm32 target of the UB runner, the real thing: clang-16 builds each program for
``wasm32-wasi`` (``clang-16@wasm32-wasi``, named here as Debian would name its driver,
``wasm32-wasi-clang-16``), Wasmtime runs it in the sandbox, and the wasm32 column joins the
target axis of ``ub run``, ``ub report`` (text and JSON) and the site, beside the host's
clang-16. ``INT_MIN / -1`` traps there (its wasm32 output names the trap), where x86-64's
handler prints ``SIGFPE``; a load through a null pointer reads 0 and goes on, where
x86-64's handler prints ``SIGSEGV``. A missing piece of the target is one line naming its
package, and nothing is stored. Skips, naming it, without clang-16 or a wasm package.
"""
from __future__ import annotations

import json
import re

import pytest

from analyzer.runtime import toolchain
from analyzer.sandbox import wasm


pytestmark = pytest.mark.usefixtures("wasm_target")

WASM = "clang-16@wasm32-wasi"
DIVIDE = "int-min-division/divide"
NULL_LOAD = "null-dereference/check-after-use"


@pytest.fixture(scope="module")
def wasm_db(tmp_path_factory):
    return tmp_path_factory.mktemp("wasm") / "ub.db"


def test_ub_run_takes_the_wasm32_target(wasm_db, cli_at):
    """Two cases and their twins, clang-16 for the host and for wasm32, at -O0 and -O2:
    both cases diverge by target, every -O0 cell expected on its own target."""
    code, out, err = cli_at(wasm_db)("ub", "run", "--compilers", "clang-16,wasm32-wasi-clang-16",
                                     "--levels", "O0,O2", "--case", DIVIDE, "--case", NULL_LOAD,
                                     "--no-sanitizers", "--runs", "1")
    assert code == 0, err
    assert ("2 of 4 cases diverge across 4 configurations, 2 of them by target:\n"
            f"  {DIVIDE}  (by target)\n  {NULL_LOAD}  (by target)\n") in out

    code, out, err = cli_at(wasm_db)("ub", "report", "--json")
    assert code == 0, err
    cases = {c["case"]: c for c in json.loads(out)["cases"]}
    cells = {(c["case"], c["compiler"], c["level"]): c
             for case in cases.values() for c in case["cells"]}
    # INT_MIN / -1: a trap at both levels, the target's plain behaviour
    for level in ("-O0", "-O2"):
        trap = cells[(DIVIDE, WASM, level)]
        assert (trap["outcome"], trap["exploited"]) == ("expected", False)
        assert trap["stdout"] == "trap: integer-overflow\n"
        assert [r["status"] for r in trap["runs"]] == ["trap"]
        assert trap["runs"][0]["user"] + trap["runs"][0]["sys"] > 0     # Wasmtime's CPU counted
        assert cells[(DIVIDE, "clang-16", level)]["stdout"] == "SIGFPE\n"
    # the null load reads 0 and goes on at -O0; -O2 drops the check as on the host
    null = cells[(NULL_LOAD, WASM, "-O0")]
    assert (null["outcome"], null["stdout"], null["exit"]) == ("expected", "-1\n", 0)
    assert cells[(NULL_LOAD, "clang-16", "-O0")]["stdout"] == "SIGSEGV\n"
    o2 = cells[(NULL_LOAD, WASM, "-O2")]
    assert (o2["outcome"], o2["stdout"]) == ("unexpected-output", "7\n")
    # libclang parsed each program for wasm32 (WASI's headers found): its warnings, not none
    assert "-Wdeclaration-after-statement" in cells[(DIVIDE, WASM, "-O0")]["warnings"]
    assert cases[DIVIDE]["diverges_by_target"] and cases[NULL_LOAD]["diverges_by_target"]
    assert not cases[DIVIDE + ".fixed"]["diverges"]
    observed = cases[DIVIDE]["by_target"][0]["observed"]
    assert observed["wasm32-wasi"]["stdout"] == "trap: integer-overflow\n"
    assert observed["x86_64 (host)"]["stdout"] == "SIGFPE\n"

    code, out, err = cli_at(wasm_db)("ub", "report")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].endswith(": 4 cases, 4 configurations, 2 diverge, 2 of them by target")
    assert re.fullmatch(r" +clang-16 +clang-16@wasm32-wasi *", lines[2]), lines[2]
    assert re.fullmatch(re.escape(DIVIDE) + r" +\*@ \. \. +\. \. *", lines[4]), lines[4]
    assert ("  from the target: clang-16 -O0 -O2: 'trap: integer-overflow' on wasm32-wasi; "
            "'SIGFPE' on x86_64 (host)") in lines
    assert "  from the target: clang-16 -O0: '-1' on wasm32-wasi; 'SIGSEGV' on x86_64 (host)" \
        in lines


def test_the_site_has_the_wasm32_column(wasm_db, cli_at, tmp_path):
    """The site's matrix has the wasm32 compiler's column and marks both cases as
    diverging by target; the case page says what each target printed."""
    site = tmp_path / "site"
    code, out, err = cli_at(wasm_db)("site", "build", "-o", str(site))
    assert code == 0, err
    page = (site / "ub" / "corpus.html").read_text()
    assert WASM in page
    for case in (DIVIDE, NULL_LOAD):
        (row,) = re.findall(r'<tr class="[^"]*"><td class="case"><a href="[^"]*">'
                            + re.escape(case) + r"</a>.*?</tr>", page, re.S)
        assert 'title="diverges by target"' in row
    divide = next(p for p in (site / "ub" / "corpus").glob("*.html") if p.name.endswith("divide.html"))
    text = divide.read_text()
    assert "trap: integer-overflow" in text and WASM in text


def test_a_missing_wasm_piece_is_one_line_naming_its_package(tmp_path, cli_at, monkeypatch):
    """WASI's C library missing (its header looked for where there is none): ``ub run``
    with the wasm32 compiler says so in one line naming the Debian package, and stores
    nothing."""
    monkeypatch.setattr(wasm, "NEEDED", (("/nonexistent/wasm32-wasi/stdio.h",
                                          "WASI's C library (wasi-libc)", "wasi-libc"),))
    toolchain._resolve.cache_clear()     # resolved above with every piece there
    try:
        db = tmp_path / "ub.db"
        code, out, err = cli_at(db)("ub", "run", "--compilers", f"clang-16,{WASM}", "--levels",
                                    "O0", "--case", DIVIDE, "--no-sanitizers", "--no-warnings")
        assert code != 0
        assert err.strip().count("\n") == 0, err
        assert "clang-16@wasm32-wasi" in err and "install the Debian package wasi-libc" in err
        assert not db.exists()      # refused before the database was made
    finally:
        toolchain._resolve.cache_clear()


def test_toolchain_list_names_the_wasm32_compiler_and_what_it_misses(tmp_path, cli_at, monkeypatch):
    """``toolchain list`` has a line for the host's clang-16 building for wasm32-wasi
    (text and JSON), and, with a piece of the target missing, says which package."""
    code, out, err = cli_at(tmp_path / "t.db")("toolchain", "list")
    assert code == 0, err
    assert f"{WASM} WebAssembly, " in out and "clang-16 --target=wasm32-wasi, run under Wasmtime\n" in out
    assert "cannot run here" not in out
    monkeypatch.setattr(wasm, "NEEDED", (("/nonexistent/wasm32-wasi/stdio.h",
                                          "WASI's C library (wasi-libc)", "wasi-libc"),))
    code, out, err = cli_at(tmp_path / "t.db")("toolchain", "list", "--json")
    assert code == 0, err
    (entry,) = [e for e in json.loads(out) if e["compiler"] == WASM]
    assert entry["status"] == "wasm" and entry["path"].endswith("/clang-16")
    assert "install the Debian package wasi-libc" in entry["cannot_run"]


WIDTH = """/* ub-case
 * category: mine
 * standard: C17 6.5.7p3
 * summary: a long shifted by 40: past its width where long has 32 bits (wasm32)
 * ub: yes
 * ub-line: 6
 */
#include <stdio.h>

int main(void)
{
    long big = 1L << 40;
    printf("%ld\\n", big);
    return 0;
}
"""


def test_the_detectors_see_the_program_as_wasm32_does(tmp_path):
    """The warnings and clang's analyzer of ``ub detectors`` get the target's flags: a
    long shifted by 40 is past its width on wasm32 (32-bit long) and not on x86-64, so
    both tools report the line for clang-16@wasm32-wasi and neither for clang-16."""
    from analyzer.ub.corpus import load
    from analyzer.ub.detectors import analyzers as an
    from analyzer.ub.detectors.detectors import RunStatus, Tool

    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "width.c").write_text(WIDTH)
    [case] = load(tmp_path).cases
    host, target = toolchain.resolve("clang-16"), toolchain.resolve(WASM)
    jobs = [an.ToolJob(case, tool, tc, level)
            for tc in (host, target)
            for tool, level in ((Tool.WARNINGS, "-O2"), (Tool.CLANG_ANALYZER, ""))]
    runs = an.run_jobs(jobs)
    assert all(r.status is RunStatus.OK for r in runs), [(r.version, r.note) for r in runs]
    lines = {(r.version, r.tool): {f.line for f in r.findings} for r in runs}
    assert lines[(WASM, Tool.WARNINGS)] == {12} and lines[(WASM, Tool.CLANG_ANALYZER)] == {12}
    assert lines[("clang-16", Tool.WARNINGS)] == set() and lines[("clang-16", Tool.CLANG_ANALYZER)] == set()
