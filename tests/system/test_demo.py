"""``warnscope demo``, the README's first quick-start command, end to end, where the
README runs it: at the top of a git checkout, with the default database. It ends with
the report site built beside the database, a second run rewrites no page, and
everything it wrote is ignored by the project's ``.gitignore`` (``git status`` stays
clean)."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from analyzer.cli import main
from analyzer.sandbox import wasm
from warnscope.errors import NotInstalled
from analyzer.ub.corpus import bundled_corpus

ROOT = Path(__file__).resolve().parents[2]


def _site_files(root: Path) -> dict[Path, int]:
    return {p: p.stat().st_mtime_ns for p in root.rglob("*") if p.is_file()}


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=warnscope tests",
                           "-c", "user.email=tests@warnscope.invalid", "-c", "commit.gpgsign=false",
                           *args], check=True, capture_output=True, text=True, timeout=60).stdout


def checkout(tmp_path: Path) -> Path:
    """A throwaway git repository that ignores what this tree's ``.gitignore`` ignores
    (the file as it is in the working tree, committed there): the top of a checkout,
    as far as ``git status`` is concerned."""
    repo = tmp_path / "checkout"
    repo.mkdir()
    git(repo, "init", "-q")
    shutil.copyfile(ROOT / ".gitignore", repo / ".gitignore")
    git(repo, "add", ".gitignore")
    git(repo, "commit", "-q", "-m", "the project's .gitignore")
    return repo.resolve()


def untracked_in_source_tree() -> set[str]:
    """What ``git status`` lists in this source tree (it may be dirty while one works)."""
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        return set()
    return set(git(ROOT, "status", "--porcelain", "--untracked-files=all").splitlines())


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
@pytest.mark.skipif(any(shutil.which(c) is None for c in ("gcc-11", "gcc-12", "clang-16")),
                    reason="the demo needs gcc-11, gcc-12 and clang-16")
def test_demo_end_to_end(tmp_path, capsys, monkeypatch, chromium):
    repo = checkout(tmp_path)
    monkeypatch.chdir(repo)
    monkeypatch.delenv("WARNSCOPE_DB", raising=False)   # the default: ./warnscope.db
    source_before = untracked_in_source_tree()

    def cli(*args: str) -> tuple[int, str, str]:
        capsys.readouterr()
        code = main(list(args))
        out, err = capsys.readouterr()
        return code, out, err

    code, out, err = cli("demo")
    assert code == 0, err
    assert (repo / "warnscope.db").is_file()
    assert "gcc-11: added" in out and "gcc-12: added" in out
    assert out.count(" 0 unexplained") == 2                       # both GCCs verified
    assert "+ -Wuse-after-free " in out and "+ -Wdangling-pointer " in out
    assert "What -Wall turns on in gcc-12 for C (" in out and "-Wformat=1" in out
    assert "What -Wall turns on in gcc-12 for C++ (" in out and "-Wreorder" in out
    # The UB part: the whole corpus on gcc-12 and clang-16, the classic case in detail.
    assert "signed-integer-overflow/loop  (C17 6.5p5)  DIVERGES" in out
    assert "-O0 expected; -O2 hang" in out
    assert "control/unsigned-loop" in out
    # The target as an axis: gcc-12 for x86-64 and, under qemu-aarch64, for aarch64.
    assert "The target as an axis: gcc-12 for x86-64 and for aarch64" in out
    assert ("from the target: gcc-12 -O0 -O2: '-2147483648' on aarch64-linux-gnu; "
            "'SIGFPE' on x86_64 (host)") in out
    # Its headline counts the cases that diverge by target, each marked in its matrix,
    # though every cell of theirs is expected on its own target.
    target_part = out[out.index("== The target as an axis"):out.index("== WebAssembly as a target")]
    (cases, diverging, by_target), = re.findall(
        r"^UB corpus the bundled corpus \(content [0-9a-f]{12}\): (\d+) cases, 4 "
        r"configurations, (\d+) diverge, (\d+) of them by target$", target_part, re.M)
    marked = re.findall(r"^(\S+) +\*@ ", target_part, re.M)
    assert "int-min-division/divide" in marked
    assert int(by_target) == len(marked) == target_part.count("\n  from the target: gcc-12 ")
    assert int(diverging) >= int(by_target) > 0 and int(cases) > int(diverging)
    assert re.search(r"^int-min-division/divide +\*@ \. \. +\. \. *$", target_part, re.M)
    assert "\n  @ by target: " in target_part
    # WebAssembly as a target: clang-16 for x86-64 and, under Wasmtime, for wasm32; or, where
    # a piece of it is missing, one line naming its package, and on.
    wasm_part = out[out.index("== WebAssembly as a target"):out.index("== Building the report site")]
    try:
        wasm.require()
    except NotInstalled as exc:
        assert wasm_part.splitlines()[1] == f"skipped: {exc}"
    else:
        assert ("from the target: clang-16 -O0 -O2: 'trap: integer-overflow' on wasm32-wasi; "
                "'SIGFPE' on x86_64 (host)") in wasm_part
        assert re.search(r"^int-min-division/divide +\*@ \. \. +\. \. *$", wasm_part, re.M)
        assert re.search(r"^null-dereference/check-after-use +\*@ \. U +\. U *$", wasm_part, re.M)
        assert re.search(r"configurations, \d+ diverge, [1-9]\d* of them by target$", wasm_part, re.M)
    # The corpus shipped with warnscope is named as such, not by where it is installed.
    assert "UB corpus the bundled corpus (content " in out
    assert str(bundled_corpus()) not in out
    # The site, beside the database, and where to open it.
    site = repo / "warnscope-site"
    index = site / "index.html"
    assert f"open {index.as_uri()}" in out
    assert (site / "compilers/gcc-12.html").is_file() and (site / "flags/wshadow.html").is_file()
    assert (site / "diffs/gcc-11--gcc-12.html").is_file()
    assert len(list((site / "ub").glob("*/*.html"))) > 20        # a page per corpus case
    assert (site / "ub/corpus/control--strings.html").is_file()  # the target run kept the rest
    # The site's matrix marks the divergences by target too; its front page counts them and
    # names the bundled corpus as such.
    assert re.search(r'int-min-division/divide</a> <span title="diverges">✱</span> '
                     r'<span class="tag by-target"', (site / "ub/corpus.html").read_text())
    front = (site / "index.html").read_text()
    assert re.search(r"<strong>\d+</strong> diverge, <strong>[1-9]\d*</strong> of them by "
                     r"target\.", front)
    assert "The bundled corpus (content <code>" in front and str(bundled_corpus()) not in front
    big = {p.relative_to(site).as_posix(): p.stat().st_size for p in site.rglob("*.html")
           if p.stat().st_size >= 1_000_000}
    assert big == {}, big                                          # no page of 1 MB or more
    before = _site_files(site)
    # A second run finds everything stored: nothing is ingested or run again, no page rewritten.
    code, out, err = cli("demo")
    assert code == 0, err
    assert "gcc-12: unchanged" in out and "(0 run now)" in out
    assert "(0 files written," in out and f"open {index.as_uri()}" in out
    assert _site_files(site) == before
    # Everything the demo wrote (the database and its journal, the site) is ignored, and
    # nothing was written into the source tree the code runs from.
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""
    assert git(repo, "check-ignore", "warnscope.db", "warnscope-site/index.html").split() == [
        "warnscope.db", "warnscope-site/index.html"]
    assert untracked_in_source_tree() == source_before
    _loads_in_chromium(chromium, site)


def _loads_in_chromium(chromium, site: Path) -> None:
    """The demo's site in Debian's Chromium from file://: the index, a flag page and the
    UB matrix load with no console error and no request outside the site."""
    matrix = next(p for p in sorted((site / "ub").glob("*.html")) if p.name != "index.html")
    pages = chromium.site(site)
    for rel, heading in (("index.html", "warnscope report"), ("flags/wshadow.html", "-Wshadow"),
                         (matrix.relative_to(site).as_posix(), "UB matrix")):
        page = pages.open(rel)
        assert page.locator("h1").first.inner_text() == heading
        if heading == "UB matrix":
            assert page.locator("#matrix tbody tr").count() > 20
        page.close()
    # the charts of the data the demo holds: flags over time, what the optimiser changes
    for rel, figure in (("index.html", "#over-time-chart"), ("ub/index.html", "#levels-chart-corpus")):
        page = pages.open(rel)
        assert page.locator(f"{figure} img").evaluate("i => i.complete && i.naturalWidth") > 300, rel
        page.close()
    assert pages.errors == [] and pages.outside == []
