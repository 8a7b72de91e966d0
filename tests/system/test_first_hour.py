"""A new user's first hour: the README's answers, run as written.

Every ``$ warnscope …`` line of the README's "What it answers" blocks runs in a shell
exactly as printed there (its pipes too), on a database holding what the answer needs,
and prints what the README shows:

* ``flags check`` and ``flags tree``: the real gcc-11/gcc-12 database (``gcc_db``);
* ``ub report --case signed-integer-overflow/loop``: that case run as the default
  ``ub run`` runs it (the five host compilers, -O0 … -Og, warnings and sanitizers);
* ``flags history`` and ``flags diff android-gcc-4.4 gcc-12``: ``gcc_db`` with the old
  compilers of ``../shared/sources`` ingested from their trees (its GCC 4.4.6 is Android's);
* ``ub detectors --case``: that case and its twin, every tool of gcc-12 and clang-16;
* ``advise``: zlib built by the five compilers (``zlib_advice``). Its UB catches come
  from a run of six of the corpus's categories (the fixture's), not of the whole
  corpus, so on a line saying which UB cases a flag catches only the case list may
  differ; every other line is compared as printed.

The README is the user's first page: an answer that drifts from what the tool prints
fails here."""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.system.test_clang_td import TREES as CLANG_TREES

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
#: a line naming the UB cases a flag catches: the part that depends on the corpus run
CATCHES = re.compile(r"catches \d+ UB cases? \(.*")


def answers() -> list[tuple[str, list[str]]]:
    """(command, the lines the README shows it printing) of every ``$ warnscope`` line
    in the README's ``text`` blocks."""
    text = README.read_text(encoding="utf-8")
    out: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```text\n(.*?)```", text, re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                out.append((line[2:], []))
            elif out:
                out[-1][1].append(line)
    return [(command, [l for l in lines if l.strip()]) for command, lines in out]


def test_the_readme_has_its_answers():
    commands = [c.split()[:3] for c, _ in answers()]
    assert ["warnscope", "flags", "check"] in commands and ["warnscope", "advise", "--project"] in commands
    assert all(lines for _, lines in answers())
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 250


def _shell(command: str, db: Path, tmp_path: Path) -> list[str]:
    """``command`` run by bash as the README prints it, ``warnscope`` being this
    checkout's CLI on ``db``."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    shim = bin_dir / "warnscope"
    shim.write_text(f"#!/bin/sh\nexec {sys.executable} -c 'import sys; from analyzer.cli import main; "
                    f"sys.exit(main())' \"$@\"\n")
    shim.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "PYTHONPATH": str(ROOT),
           "WARNSCOPE_DB": str(db), "COLUMNS": "200"}
    proc = subprocess.run(["bash", "-o", "pipefail", "-c", command], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, (command, proc.stderr)
    return [l for l in proc.stdout.splitlines() if l.strip()]


def _answer(prefix: str) -> tuple[str, list[str]]:
    [found] = [(c, lines) for c, lines in answers() if c.startswith(prefix)]
    return found


@pytest.mark.parametrize("prefix", ["warnscope flags check", "warnscope flags tree"])
def test_flag_answers(prefix, gcc_db, tmp_path):
    command, shown = _answer(prefix)
    assert _shell(command, gcc_db, tmp_path) == shown


#: the old compilers of the long-history answer: (name, tree under ../shared/sources)
OLD_TREES = (("android-gcc-4.4", "gcc-4.4.6"), *CLANG_TREES.items())


def test_long_history_answers(gcc_db, shared_sources, tmp_path):
    db = tmp_path / "history.db"
    shutil.copy(gcc_db, db)
    for name, tree in OLD_TREES:
        _shell(f"warnscope flags ingest {name} --source {shlex.quote(str(shared_sources / tree))}",
               db, tmp_path)
    for prefix in ("warnscope flags history", "warnscope flags diff android-gcc-4.4"):
        command, shown = _answer(prefix)
        assert _shell(command, db, tmp_path) == shown


def test_the_overflowing_loop(tmp_path, require):
    for compiler in ("gcc-11", "gcc-12", "clang-14", "clang-16", "clang-19"):
        require(compiler)
    corpus = tmp_path / "corpus" / "signed-integer-overflow"
    corpus.mkdir(parents=True)
    for f in (ROOT / "corpus" / "signed-integer-overflow").glob("loop.*"):
        if ".fixed." not in f.name:
            shutil.copy(f, corpus)
    db = tmp_path / "ub.db"
    _shell(f"warnscope ub run --corpus {corpus.parent}", db, tmp_path)
    command, shown = _answer("warnscope ub report --case signed-integer-overflow/loop")
    assert _shell(command, db, tmp_path) == shown


def in_order(shown: list[str], printed: list[str]) -> str | None:
    """Where ``printed`` departs from ``shown`` (None if it does not): each shown line
    printed in order, one after the other, except that a line ``...`` stands for lines
    left out and the output may go on after the last shown line."""
    at, gap = 0, False
    for want in shown:
        if want.strip() == "...":
            gap = True
            continue
        while at < len(printed) and CATCHES.sub("catches …", printed[at]) != CATCHES.sub("catches …", want):
            if not gap:
                return f"README shows {want!r} where the command printed {printed[at]!r}"
            at += 1
        if at == len(printed):
            return f"README shows {want!r}, which the command did not print"
        at, gap = at + 1, False
    return None


def test_in_order_finds_what_departs():
    assert in_order(["a", "...", "c", "d"], ["a", "b", "c", "d", "e"]) is None
    assert in_order(["a", "c"], ["a", "b", "c"]) is not None
    assert in_order(["a", "...", "x"], ["a", "b"]) is not None
    assert in_order(["  catches 2 UB cases (p, q) with gcc-12"], ["  catches 1 UB case (p) with gcc-12"]) is None


def test_the_detectors(tmp_path, require):
    """``ub detectors --case``: every tool of two compilers on one case and its twin of
    the bundled corpus, into a new database."""
    for binary in ("gcc-12", "clang-16", "cppcheck", "clang-tidy-16"):   # every tool the answer shows
        require(binary)
    command, shown = _answer("warnscope ub detectors")
    assert _shell(command, tmp_path / "detectors.db", tmp_path) == shown


def test_the_target(tmp_path, require):
    """``ub run`` with the plain ``gcc`` and Debian's aarch64 cross gcc-12 on one case of
    the bundled corpus, then its report: the divergence that comes from the target."""
    for binary in ("gcc", "aarch64-linux-gnu-gcc-12", "qemu-aarch64"):
        require(binary)
    command, shown = _answer("warnscope ub run --compilers gcc,aarch64")
    assert _shell(command, tmp_path / "target.db", tmp_path) == shown


def test_the_upgrade(tmp_path, require):
    """``upgrade`` of the fixture autotools project from clang-14 to clang-16, run where
    the README runs it: at the top of a clone (its ``tests/`` beside the shell)."""
    for binary in ("clang-14", "clang-16", "make"):
        require(binary)
    (tmp_path / "tests").symlink_to(ROOT / "tests")
    command, shown = _answer("warnscope upgrade --source")
    # the report names the tree by its path: the README's clone is ~/warnscope
    said = [line.replace(str(ROOT), "~/warnscope") for line in _shell(command, tmp_path / "upgrade.db", tmp_path)]
    assert said == shown


def test_the_advice(zlib_advice, tmp_path):
    db, _ = zlib_advice
    command, shown = _answer("warnscope advise --project zlib")
    assert in_order(shown, _shell(command, db, tmp_path)) is None
