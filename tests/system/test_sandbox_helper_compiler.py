"""The sandbox's helper (the zygote) is built with whatever C compiler PATH has, a
versioned one too (Debian's clang-16 alone installs no ``clang``); with none at all, a run
is one line of error, never a silent run outside the namespaces."""
from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _corpus(tmp_path: Path) -> Path:
    corpus = tmp_path / "corpus" / "int-min-division"
    corpus.mkdir(parents=True)
    for f in (ROOT / "corpus" / "int-min-division").glob("divide.*"):
        shutil.copy(f, corpus / f.name)
    return corpus.parent


def _env(tmp_path: Path, path: str) -> dict:
    return {"PATH": path, "WARNSCOPE_CACHE": str(tmp_path / "cache")}


def test_no_c_compiler_on_path_is_one_line(tmp_path, warnscope, one_error, require):
    gcc12 = require("gcc-12")
    empty = tmp_path / "bin"
    empty.mkdir()
    proc = warnscope("--db", str(tmp_path / "w.db"), "ub", "run", "--corpus", str(_corpus(tmp_path)),
                     "--compilers", gcc12, "--levels", "O0", "--no-sanitizers", "--no-warnings",
                     env=_env(tmp_path, str(empty)))
    line = one_error(proc)
    assert "no C compiler" in line and "WARNSCOPE_SANDBOX=plain" in line


def test_a_versioned_compiler_alone_builds_it(tmp_path, warnscope, require):
    gcc12, clang16 = require("gcc-12"), require("clang-16")
    only = tmp_path / "bin"
    only.mkdir()
    (only / "clang-16").symlink_to(clang16)
    (only / "ld").symlink_to(shutil.which("ld"))      # binutils, which clang links with
    proc = warnscope("--db", str(tmp_path / "w.db"), "ub", "run", "--corpus", str(_corpus(tmp_path)),
                     "--compilers", gcc12, "--levels", "O0", "--no-sanitizers", "--no-warnings",
                     env=_env(tmp_path, str(only)))
    assert proc.returncode == 0, proc.stderr
    assert list((tmp_path / "cache" / "sandbox").rglob("warnscope-zygote")), "the zygote was built"
