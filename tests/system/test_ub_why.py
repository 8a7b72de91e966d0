"""``warnscope ub why``: the cause of a divergent cell, found with real compilers in the
real sandbox, and checked by building what it says: the -fno- flag GCC's search names,
and the opt-bisect limit just below the pass clang's search names, each restore the -O0
behaviour when that build is run; the limit at the pass does not. A program whose output
changes at every run is reported unstable, never explained; bad input is one line."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from analyzer.sandbox import runner as sandbox
from analyzer.runtime.toolchain import resolve
from analyzer.ub.why import why as ub_why
from analyzer.ub.corpus import bundled_corpus, load_case
from analyzer.ub.jobs import CellJob, CellResult, execute
from analyzer.ub.results import WhyStatus, cause_from_plain

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "ub"
LOOP = "signed-integer-overflow/loop"

pytestmark = pytest.mark.skipif(shutil.which("gcc-12") is None or shutil.which("clang-16") is None,
                                reason="needs gcc-12 and clang-16")


@pytest.fixture(scope="module")
def loop():
    sandbox.prepare()
    root = bundled_corpus()
    return load_case(root, root / f"{LOOP}.c")


def behaviour(case, compiler, level, flags) -> str:
    """The behaviour of one build, run as a cell runs (twice, classified)."""
    result = execute(CellJob(case=case, source=case.source, compiler=compiler, level=level,
                             flags=tuple(flags), runs=2, limits=sandbox.Limits(), key="",
                             code=False))
    assert isinstance(result, CellResult), result
    return result.verdict.behaviour


def test_gcc12_O2_loop_flag_restores_O0(loop, cli_at, tmp_path):
    gcc = resolve("gcc-12")
    cause = ub_why.why(loop, gcc, "-O2", cached=False)
    assert cause.status is WhyStatus.EXPLAINED, cause.reason
    assert cause.observed.outcome == "hang" and cause.baseline.outcome == "expected"
    assert cause.method == "flags" and cause.flags and len(cause.flags) <= 2
    assert all(f.startswith("-fno-") for f in cause.flags)
    assert cause.probes <= cause.bound
    # applied, the flag set restores the -O0 outcome
    o0 = behaviour(loop, gcc, "-O0", [])
    assert behaviour(loop, gcc, "-O2", cause.flags) == o0
    assert behaviour(loop, gcc, "-O2", []) != o0
    guards = {g.flag: g.restores for g in cause.guards}
    assert guards["-fwrapv"] is True and guards["-fno-strict-overflow"] is True
    assert guards["-fno-aggressive-loop-optimizations"] is False
    # the CLI: text and JSON of the same (cached) answer
    code, out, err = cli_at(tmp_path / "x.db")("ub", "why", LOOP, "--compiler", "gcc-12",
                                               "--level", "O2")
    assert code == 0, err
    assert f"flags: {' '.join(cause.flags)} restore -O0's behaviour" in out
    assert "-O2: hang" in out and "-fwrapv" in out
    code, out, err = cli_at(tmp_path / "x.db")("ub", "why", LOOP, "--compiler", "gcc-12",
                                               "--level", "-O2", "--json")
    data = json.loads(out)
    assert data["status"] == "explained" and data["flags"] == cause.flags
    assert not (tmp_path / "x.db").exists()  # ub why writes no database


def test_clang16_O2_loop_each_pass_change(loop):
    clang = resolve("clang-16")
    cause = ub_why.why(loop, clang, "-O2", cached=False)
    assert cause.status is WhyStatus.EXPLAINED, cause.reason
    assert cause.method == "opt-bisect" and cause.passes_total > 50
    assert cause.probes <= cause.bound
    first = cause.passes[0]
    assert first.name and first.function == "main"
    o0 = behaviour(loop, clang, "-O0", [])
    limit = lambda n: ["-mllvm", f"-opt-bisect-limit={n}"]  # noqa: E731
    # the limit just below the first pass restores the -O0 outcome; the pass itself does not
    assert behaviour(loop, clang, "-O2", limit(first.index - 1)) == o0
    assert behaviour(loop, clang, "-O2", limit(first.index)) != o0
    # every change found is one: the behaviour just before and at each pass differ
    for p in cause.passes:
        assert behaviour(loop, clang, "-O2", limit(p.index - 1)) != \
            behaviour(loop, clang, "-O2", limit(p.index))
    # the outcome is not monotonic here: more than one change (a hang, then exit 48)
    assert len(cause.passes) >= 2 and cause.passes[-1].after == cause.observed.said
    assert [g.flag for g in cause.guards if g.restores] == ["-fwrapv", "-fno-strict-overflow"]


def test_unstable_output_is_reported_unstable(cli_at, tmp_path):
    code, out, err = cli_at(tmp_path / "x.db")(
        "ub", "why", "timing/clock", "--corpus", str(FIXTURES / "unstable"), "--compiler",
        "clang-16", "--level", "O2", "--json", "--no-cache")
    assert code == 0, err
    data = json.loads(out)
    assert data["status"] == "unstable" and not data["flags"] and not data["passes"]
    assert data["baseline"]["outcome"] == "nondeterministic"
    code, out, err = cli_at(tmp_path / "x.db")(
        "ub", "why", "timing/clock", "--corpus", str(FIXTURES / "unstable"), "--compiler",
        "gcc-12", "--level", "O2")
    assert "unstable:" in out and "(not explained)" in out


def test_causes_it_cannot_find_are_said(cli_at, tmp_path):
    cli = cli_at(tmp_path / "x.db")
    code, out, _ = cli("ub", "why", "broken/does-not-link", "--corpus", str(FIXTURES / "mini"),
                       "--compiler", "clang-16", "--level", "O2")
    assert code == 0 and "cause unknown: the -O0 build does not compile" in out
    code, out, _ = cli("ub", "why", "control/exit-three", "--corpus", str(FIXTURES / "mini"),
                       "--compiler", "gcc-12", "--level", "O2", "--json")
    assert json.loads(out)["status"] == "same"


def test_a_table_across_compilers(loop, cli_at, tmp_path):
    """``--compilers``: a row per compiler in listing order, each the very cause ``ub why
    --compiler`` gives for it; a compiler not installed is a row whose cause is unknown,
    saying so, compared with nothing."""
    cli = cli_at(tmp_path / "x.db")
    code, out, err = cli("ub", "why", LOOP, "--compilers", "clang-16,gcc-99,gcc-12",
                         "--level", "O2", "--json")
    assert code == 0, err
    rows = json.loads(out)["rows"]
    assert [r["compiler"] for r in rows] == ["gcc-12", "gcc-99", "clang-16"]
    for r in (rows[0], rows[2]):
        code, out, err = cli("ub", "why", LOOP, "--compiler", r["compiler"], "--level", "O2",
                             "--json")
        assert code == 0 and r["cause"] == json.loads(out), err
        assert r["cause"]["status"] == "explained" and r["change"] == ""
        assert r["guards"] == "-fwrapv, -fno-strict-overflow"
    assert rows[0]["what"] == " ".join(rows[0]["cause"]["flags"])
    assert rows[2]["what"].startswith(rows[2]["cause"]["passes"][0]["name"] + " on main -> ")
    assert rows[1]["cause"]["status"] == "unknown" and rows[1]["change"] == ""
    assert rows[1]["what"].startswith("cause unknown: compiler gcc-99 is not installed")
    code, out, err = cli("ub", "why", LOOP, "--compilers", "gcc-12,gcc-99", "--level", "O2")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == f"{LOOP} at -O2: the cause per compiler version"
    assert lines[2].startswith("| compiler | version | -O0 | -O2 | cause |")
    assert lines[4].startswith("| gcc-12 | gcc-12 (Debian ") and f"| {rows[0]['what']} |" in lines[4]
    assert lines[5].startswith("| gcc-99 |  |  |  | cause unknown: compiler gcc-99 is not installed")
    assert not (tmp_path / "x.db").exists()


def test_clang_listing_is_read():
    passes = ub_why.parse_bisect(
        "BISECT: running pass (7) EarlyCSEPass on main\n"
        "BISECT: running pass (8) GlobalOptPass on [module]\n"
        "BISECT: running pass (45) LoopDeletionPass on <unnamed loop>\n"
        "BISECT: running pass (46) LICMPass on loop %<unnamed loop> in function f\n"
        "BISECT: running pass (98) Merge contiguous icmps into a memcmp on function (g)\n"
        "warning: something else\n")
    assert [(p.index, p.name, p.function) for p in passes] == [
        (7, "EarlyCSEPass", "main"), (8, "GlobalOptPass", ""), (45, "LoopDeletionPass", "main"),
        (46, "LICMPass", "f"), (98, "Merge contiguous icmps into a memcmp", "g")]


@pytest.mark.parametrize("args, words", [
    (["no/such-case", "--compiler", "gcc-12", "--level", "O2"], "no case 'no/such-case'"),
    ([LOOP, "--compiler", "gcc-99", "--level", "O2"], "gcc-99 is not installed"),
    ([LOOP, "--compiler", "icc-16", "--level", "O2"], "unknown compiler id"),
    ([LOOP, "--compiler", "gcc-12", "--level", "O9"], "unknown optimization level"),
    ([LOOP, "--compiler", "gcc-12", "--level", "O2", "--timeout", "-1"], "--timeout"),
    ([LOOP, "--compiler", "gcc-12", "--level", "O2", "--corpus", "/nonexistent"], "nonexistent"),
    ([LOOP, "--level", "O2"], "--compiler"),
    ([LOOP, "--compiler", "gcc-12", "--compilers", "gcc-12", "--level", "O2"], "--compilers"),
    ([LOOP, "--compilers", "gcc-12,icc-16", "--level", "O2"], "unknown compiler id"),
    ([LOOP, "--compilers", ",", "--level", "O2"], "no compilers given"),
    (["no/such-case", "--compilers", "gcc-12", "--level", "O2"], "no case 'no/such-case'"),
])
def test_bad_input_is_one_line(args, words, cli_at, tmp_path):
    code, out, err = cli_at(tmp_path / "x.db")("ub", "why", *args)
    assert code != 0 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("warnscope: error:") and words in lines[0], err


def test_run_why_stores_each_divergent_cells_cause(loop, cli_at, tmp_path, chromium):
    corpus = tmp_path / "corpus"
    for rel in (f"{LOOP}.c", f"{LOOP}.output"):
        (corpus / rel).parent.mkdir(parents=True, exist_ok=True)
        (corpus / rel).write_bytes((bundled_corpus() / rel).read_bytes())
    (corpus / "control").mkdir()
    for name in ("exit-three.c", "exit-three.output"):
        (corpus / "control" / name).write_bytes((FIXTURES / "mini" / "control" / name).read_bytes())
    cli = cli_at(tmp_path / "ub.db")
    code, out, err = cli("ub", "run", "--corpus", str(corpus), "--compilers", "gcc-12,clang-16",
                         "--levels", "O0,O2", "--no-sanitizers", "--why")
    assert code == 0, err
    assert "2 causes found" in out  # the loop at -O2 with each compiler; nothing else diverges
    code, out, _ = cli("ub", "report", "--json", "--case", LOOP)
    cells = {(c["compiler"], c["level"]): c for c in json.loads(out)["cases"][0]["cells"]}
    assert "why" not in cells[("gcc-12", "-O0")]
    gcc, clang = cells[("gcc-12", "-O2")]["why"], cells[("clang-16", "-O2")]["why"]
    assert gcc["status"] == clang["status"] == "explained"
    assert gcc["flags"] and clang["passes"][0]["function"] == "main"
    code, out, _ = cli("ub", "report", "--case", LOOP)
    assert "why -O2: hang at -O2; -fno-" in out and "why -O2: exit 48 at -O2; pass " in out
    code, out, _ = cli("ub", "explain", LOOP, "--compiler", "clang-16", "--level", "O2",
                       "--labels-only")
    assert "  why: exit 48 at -O2; pass " in out
    # a rerun searches nothing again
    code, out, _ = cli("ub", "run", "--corpus", str(corpus), "--compilers", "gcc-12,clang-16",
                       "--levels", "O0,O2", "--no-sanitizers", "--why")
    assert code == 0 and "0 run now" in out and "0 causes found" in out
    # the site: beside the labels, in the list of causes, and on hover in the matrix
    site = tmp_path / "site"
    code, out, err = cli("site", "build", "-o", str(site))
    assert code == 0, err
    [page] = (site / "ub").rglob("*loop.html")
    html = page.read_text()
    assert 'id="why"' in html and "why: hang at -O2; -fno-" in html
    matrix = next(p for p in (site / "ub").glob("*.html") if p.name != "index.html")
    assert "; why: exit 48 at -O2; pass " in matrix.read_text()
    _in_a_browser(chromium, page)
    _matrix_hover_in_a_browser(chromium, matrix, {"gcc-12": gcc, "clang-16": clang})
    assert chromium.errors == []


def _matrix_hover_in_a_browser(chromium, matrix_path: Path, causes: dict[str, dict]) -> None:
    """The matrix in Debian's chromium: hovering the loop's -O2 cell of each compiler
    gives, in its title, that cell's cause exactly as ``ub report --json`` has it (the
    quotes of its outputs escaped in the HTML and read back whole); its -O0 cell, which
    does not diverge, has no cause."""
    page = chromium.open(matrix_path)
    row = page.locator("#matrix tbody tr", has_text=LOOP)
    for compiler, why in causes.items():
        summary = cause_from_plain(why).summary
        assert '"' in summary or "'" in summary  # something the attribute must escape
        cell = row.locator(f'td.cell[title^="{compiler} -O2:"]')
        cell.hover()
        title = cell.get_attribute("title")
        assert title.startswith(f"{compiler} -O2: ") and title.endswith(f"; why: {summary}"), title
        plain = row.locator(f'td.cell[title^="{compiler} -O0:"]').get_attribute("title")
        assert "why:" not in plain, plain
    page.close()


def _in_a_browser(chromium, page_path: Path) -> None:
    """The case page in Debian's chromium: the list of causes is shown, each cause beside
    its cell's labels, and nothing on the page fails or reaches off the site."""
    page = chromium.open(page_path)
    causes = page.locator("ul#why li")
    assert causes.count() == 2 and causes.first.is_visible()
    texts = [causes.nth(i).inner_text() for i in range(2)]
    assert any(t.startswith("clang-16 -O2: exit 48 at -O2; pass ") for t in texts), texts
    assert any(t.startswith("gcc-12 -O2: hang at -O2; -fno-") for t in texts), texts
    row = page.locator("table.cells tr", has_text="clang-16").filter(has_text="-O2")
    assert "why: exit 48 at -O2" in row.locator("td.labels p.why").inner_text()
    page.close()
