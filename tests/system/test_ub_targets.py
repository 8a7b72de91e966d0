"""What the UB reports say must hold on real runs: a case whose behaviour differs between
targets of one compiler version is counted and marked as a divergence by target, though
each target's cells are ``expected`` there; the bundled corpus is named as such, never by
the directory it is installed in, and a user's corpus by its path.

Real drivers and programs: the host's gcc-12 and Debian's aarch64 gcc-12, whose programs
run under qemu-aarch64 in the same sandbox (setup.sh installs both); ``INT_MIN / -1``
traps on x86-64 (its handler prints SIGFPE) and prints -2147483648 on aarch64, each
target's own expected output.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from analyzer.ub.corpus import bundled_corpus, load
from analyzer.ub.results import corpus_content

ROOT = Path(__file__).resolve().parents[2]
CROSS = "aarch64-linux-gnu-gcc-12"
CASE = "int-min-division/divide"


def _row(page: str, case: str) -> str:
    """The matrix row of ``case`` on a matrix page, as written."""
    (row,) = re.findall(r'<tr class="[^"]*"><td class="case"><a href="[^"]*">'
                        + re.escape(case) + r"</a>.*?</tr>", page, re.S)
    return row


def test_int_min_division_is_a_divergence_by_target(tmp_path, cli_at, require):
    """gcc-12 for x86-64 and for aarch64 at -O0 and -O2: every cell of the case is
    ``expected`` on its target, yet the two targets printed different things; the case
    is counted in the headline as a divergence by target and marked in the text matrix,
    in the JSON and on the site; its fixed twin, which prints the same on both, is not."""
    require("gcc-12")
    require(CROSS)
    require("qemu-aarch64")
    corpus = tmp_path / "my corpus" / "int-min-division"
    corpus.mkdir(parents=True)
    for f in (ROOT / "corpus" / "int-min-division").glob("divide.*"):
        shutil.copy(f, corpus / f.name)
    db = tmp_path / "ub.db"
    code, out, err = cli_at(db)("ub", "run", "--corpus", str(corpus.parent), "--compilers",
                                f"gcc-12,{CROSS}", "--levels", "O0,O2", "--no-sanitizers",
                                "--no-warnings")
    assert code == 0, err
    assert ("1 of 2 cases diverge across 4 configurations, 1 of them by target:\n"
            f"  {CASE}  (by target)\n") in out

    code, out, err = cli_at(db)("ub", "report")
    assert code == 0, err
    lines = out.splitlines()
    # a user's corpus keeps its path
    assert lines[0] == (f"UB corpus {corpus.parent.resolve()}: 2 cases, 4 configurations, "
                        "1 diverge, 1 of them by target")
    # every cell expected on its own target, the row marked all the same
    assert re.fullmatch(re.escape(CASE) + r" +\*@ +\. \.  +\. \. *", lines[4]), lines[4]
    assert re.fullmatch(re.escape(CASE + ".fixed") + r" +\. \.  +\. \. *", lines[5]), lines[5]
    assert "  * the case diverges: its cells show more than one behaviour, or it diverges by " \
           "target" in lines
    assert any(line.startswith("  @ by target: one compiler version at one level did "
                               "different things on two targets") for line in lines)
    assert f"{CASE}  (C17 6.5.5p6)  DIVERGES (by target)" in lines

    code, out, err = cli_at(db)("ub", "report", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["corpus"] == str(corpus.parent.resolve()) and doc["corpus_kind"] == "user"
    case, twin = doc["cases"]
    assert case["case"] == CASE and case["diverges"] and case["diverges_by_target"]
    assert {c["outcome"] for c in case["cells"]} == {"expected"}
    assert [s["level"] for s in case["by_target"]] == ["-O0", "-O2"]
    assert twin["case"] == CASE + ".fixed" and not twin["diverges"] \
        and not twin["diverges_by_target"] and twin["by_target"] == []

    site = tmp_path / "site"
    code, out, err = cli_at(db)("site", "build", "-o", str(site))
    assert code == 0, err
    (matrix,) = [p for p in (site / "ub").glob("*.html") if p.name != "index.html"]
    page = matrix.read_text()
    assert "4 configurations, 1 diverge (listed first, marked ✱),\n1 of them by target" in page
    assert 'title="diverges by target">by target</span> it diverges by target: one compiler ' \
           "version at one level did different things on two targets" in page     # the legend
    assert 'title="diverges by target"' in _row(page, CASE)
    assert "by target" not in _row(page, CASE + ".fixed")
    assert f"Corpus <code>{corpus.parent.resolve()}</code>" in page
    front = (site / "index.html").read_text()
    assert "<strong>1</strong> diverge, <strong>1</strong> of them by target." in front
    index = (site / "ub" / "index.html").read_text()
    assert '<th class="num">by target</th>' in index
    assert re.search(r'<td class="num">1</td><td class="num">1</td></tr>', index)
    case_pages = list((site / "ub" / matrix.stem).glob("*.html"))
    divide = next(p for p in case_pages if p.name.endswith("divide.html"))
    assert 'title="diverges by target">by target</span></h1>' in divide.read_text()


def test_the_bundled_corpus_is_named_as_such(tmp_path, cli_at, require):
    """The corpus shipped with warnscope is "the bundled corpus" with its content hash in
    the text, the JSON (its kind) and the site; the directory it is installed in (in an
    installation, a virtualenv's site-packages) is shown nowhere a user reads."""
    require("gcc-12")
    db = tmp_path / "ub.db"
    code, out, err = cli_at(db)("ub", "run", "--compilers", "gcc-12", "--levels", "O0",
                                "--case", CASE, "--no-sanitizers", "--no-warnings")
    assert code == 0, err
    installed = str(bundled_corpus())
    content = corpus_content(load(bundled_corpus()).cases)
    assert re.fullmatch(r"[0-9a-f]{12}", content)
    named = f"the bundled corpus (content {content})"

    code, out, err = cli_at(db)("ub", "report")
    assert code == 0, err
    assert out.startswith(f"UB corpus {named}: 2 cases, 1 configurations, 0 diverge\n")
    assert installed not in out
    code, out, err = cli_at(db)("ub", "report", "--json")
    doc = json.loads(out)
    assert doc["corpus_kind"] == "bundled" and doc["corpus_content"] == content
    code, out, err = cli_at(db)("ub", "explain", CASE, "--labels-only")
    assert code == 0, err
    assert out.startswith(f"{CASE}  (the bundled corpus)\n") and installed not in out
    code, out, err = cli_at(db)("ub", "why", "no-such-case", "--compiler", "gcc-12",
                                "--level", "O2")
    assert code != 0 and "no case 'no-such-case' in the bundled corpus" in err
    assert installed not in err

    site = tmp_path / "site"
    code, out, err = cli_at(db)("site", "build", "-o", str(site))
    assert code == 0, err
    html_named = f"bundled corpus (content <code>{content}</code>)"
    pages = {"index.html": "The " + html_named, "ub/index.html": "the " + html_named,
             "ub/corpus.html": "The " + html_named}
    for rel, words in pages.items():
        text = (site / rel).read_text()
        assert words in text, rel
        assert installed not in text, rel


def test_toolchain_list_says_when_a_cross_compilers_programs_cannot_run(tmp_path, cli_at, monkeypatch,
                                                                       require):
    """``toolchain list`` names each cross compiler on PATH with its driver; one whose
    qemu-user is not on PATH (a PATH holding the aarch64 driver alone) says so, naming
    the package, in text and JSON."""
    require(CROSS)
    require("qemu-aarch64")
    code, out, err = cli_at(tmp_path / "t.db")("toolchain", "list", "--json")
    assert code == 0, err
    (entry,) = [e for e in json.loads(out) if e["compiler"] == "gcc-12@aarch64-linux-gnu"]
    assert (entry["status"], entry["path"], entry["cannot_run"]) == ("cross", shutil.which(CROSS), "")
    bare = tmp_path / "bin"
    bare.mkdir()
    (bare / CROSS).symlink_to(shutil.which(CROSS))
    monkeypatch.setenv("PATH", str(bare))
    code, out, err = cli_at(tmp_path / "t.db")("toolchain", "list")
    assert code == 0, err
    (line,) = [l for l in out.splitlines() if l.startswith("gcc-12@aarch64-linux-gnu ")]
    assert line == (f"gcc-12@aarch64-linux-gnu cross compiler, {bare / CROSS}; cannot run here: "
                    "aarch64-linux-gnu: programs for it run under qemu-aarch64, which is not "
                    "installed (qemu-user: apt-get install qemu-user, dnf install qemu-user, "
                    "pacman -S qemu-user)")
