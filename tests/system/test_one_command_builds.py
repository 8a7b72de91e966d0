"""Builds that compile and link in one command, the way most small projects build:
tests/fixtures/one-command/two (``$(CC) $(CFLAGS) -o prog a.c b.c``, beside a ``-MM``
dependency run and a link of objects) and /plain (``$CC $CFLAGS a.c``), with gcc-12 and
clang-16. ``warnings run`` succeeds with the flags proven to arrive, each source is a TU
whose diagnostics are those of the same source compiled alone by the same compiler with
the same flags, a header's warning once per source; ``upgrade`` finds the old compiler
building; ``advise`` uses a complete build; the overhead study measures it whole and per
source (well under a minute on 2 cores); gcc-14 of the trixie root (pretty-printed JSON) and
gcc-16 (SARIF, where a root has it) split per source too; a one-command build that drops
the flags fails saying so.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from analyzer.warnings import formats

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "one-command"
TWO, PLAIN = FIXTURES / "two", FIXTURES / "plain"
LEVEL = ("--flag-set", "one=wextra", "--level", "one")
FORMAT = {"gcc-12": formats.GCC_JSON, "clang-16": formats.CLANG_TEXT}

pytestmark = pytest.mark.skipif(not all(shutil.which(c) for c in FORMAT), reason="needs gcc-12 and clang-16")


def _ok(result: tuple[int, str, str]) -> str:
    code, out, err = result
    assert code == 0, err
    return out


def _builds(cli, tree: Path, build: str) -> dict[str, dict]:
    out = _ok(cli("warnings", "run", "--source", str(tree), "--build", build, "--clean", "true",
                  "--compilers", ",".join(FORMAT), *LEVEL, "--json", "--quiet"))
    return {b["compiler"]: b for b in json.loads(out)["builds"]}


def _alone(compiler: str, flags: list[str], tree: Path, source: str) -> list[tuple]:
    """What ``source`` compiled alone (-c) by ``compiler`` with ``flags`` prints."""
    fmt = FORMAT[compiler]
    err = subprocess.run([compiler, "-O2", *flags, *fmt.flags, "-c", source, "-o", "/dev/null"], cwd=tree,
                         capture_output=True, text=True, timeout=60, check=True).stderr
    return sorted((d.option, d.file and os.path.normpath(d.file), d.line) for d in fmt.parse(err).diagnostics)


def _per_tu(build: dict) -> dict[str, list[tuple]]:
    got: dict[str, list[tuple]] = {}
    for d in build["diagnostics"]:
        for tu in d["tus"]:
            got.setdefault(tu, []).append((d["option"], d["file"], d["line"]))
    return {tu: sorted(v) for tu, v in got.items()}


@pytest.fixture(scope="module")
def db(gcc_db, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("one-command") / "one.db"
    shutil.copy(gcc_db, path)
    return path


def test_a_compile_and_link_of_two_sources_is_two_tus_with_the_flags_proven(db, cli_at):
    builds = _builds(cli_at(db), TWO, "make")
    assert set(builds) == set(FORMAT)
    for compiler, b in builds.items():
        # the -MM run and the link of c.o are no compiles: they lack the marker and would fail it
        assert (b["status"], b.get("error")) == ("ok", None), compiler
        assert [(t["tu"], t["exit"]) for t in b["tus"]] == [("a.c", 0), ("b.c", 0), ("c.c", 0)], compiler
        per_tu = _per_tu(b)
        for tu in ("a.c", "b.c", "c.c"):
            alone = _alone(compiler, b["flags"]["c"], TWO, tu)
            assert per_tu.get(tu, []) == alone, (compiler, tu)
            assert next(t for t in b["tus"] if t["tu"] == tu)["diagnostics"] == len(alone)
        (header,) = [d for d in b["diagnostics"] if d["file"] == "shared.h"]
        assert (header["option"], header["printed"], header["tus"]) == ("-Wunused-variable", 2, ["a.c", "b.c"])
        assert {("-Wsign-compare", "a.c"), ("-Wunused-variable", "b.c")} <= \
            {(d["option"], d["file"]) for d in b["diagnostics"]}


def test_cc_of_one_source_is_its_tu(db, cli_at):
    builds = _builds(cli_at(db), PLAIN, "$CC $CFLAGS a.c")
    for compiler, b in builds.items():
        assert (b["status"], b.get("error")) == ("ok", None), compiler
        assert [t["tu"] for t in b["tus"]] == ["a.c"]
        alone = _alone(compiler, b["flags"]["c"], PLAIN, "a.c")
        assert _per_tu(b)["a.c"] == alone and len(alone) >= 2, compiler


def test_upgrade_of_a_one_command_build_finds_the_old_compiler_building(db, tmp_path, cli_at):
    path = tmp_path / "upgrade.db"
    shutil.copy(db, path)
    cli = cli_at(path)
    # `make prog`: the program compiled and linked in one command is the build's one compile
    report = json.loads(_ok(cli("upgrade", "--source", str(TWO), "--build", "make prog", "--from", "gcc-12",
                                "--to", "clang-16", "--json", "--quiet")))
    (pair,) = report["pairs"]
    assert (pair["old_status"], pair["new_status"]) == ("ok", "ok")
    text = _ok(cli("upgrade", "--source", str(TWO), "--build", "make prog", "--from", "gcc-12", "--to",
                   "clang-16", "--stored"))
    assert "already fails" not in text and "no compile went through" not in text


def test_advise_on_a_one_command_build_uses_a_complete_build(db, tmp_path, cli_at):
    path = tmp_path / "advise.db"
    shutil.copy(db, path)
    advice = json.loads(_ok(cli_at(path)("advise", "--source", str(TWO), "--build", "make prog", "--compilers",
                                         "gcc-12", "--json", "--quiet")))
    (b,) = advice["builds"]
    assert (b["status"], b["ran_now"], b["tus"]) == ("ok", True, 2)
    gcc = [next(c for c in r["compilers"] if c["compiler"] == "gcc-12") for r in advice["rows"]]
    assert not [t for c in gcc for t in c["trouble"] if "failed" in t]
    # what the flags print here is read from a complete build
    prints = [c["prints"] for c in gcc if c["prints"]]
    assert prints and all(p["complete"] for p in prints)


def test_overhead_studies_a_one_command_build_whole_and_per_source(db, tmp_path, cli_at):
    """The study's proof that the flags arrived holds for the compile-and-link; per TU,
    each source is replayed as its compile alone; both count the warnings the warnings
    run reads from the same build."""
    path = tmp_path / "overhead.db"
    shutil.copy(db, path)
    cli = cli_at(path)
    base = ("--source", str(TWO), "--build", "make prog", "--compilers", "gcc-12", "--levels", "wextra",
            "--runs", "1", "--no-accounting", "--json", "--quiet")
    (warned,) = json.loads(_ok(cli("warnings", "run", *base[:6], "--level", "wextra", "--json", "--quiet")))["builds"]
    printed = sum(d["printed"] for d in warned["diagnostics"] if d["severity"] == "warning")
    assert warned["status"] == "ok" and printed >= 4
    # compiler processes: the -MM run and the compile-and-link; per TU, the two sources
    for mode, compiles in (("build", 2), ("tu", 2)):
        (cell,) = json.loads(_ok(cli("overhead", "run", *base, "--mode", mode)))["cells"]
        assert (cell["status"], cell["compilers"], cell["warnings"]) == ("ok", compiles, printed), mode


@pytest.mark.parametrize("compiler", ["gcc-14", "gcc-16"])
def test_a_root_compilers_documents_split_per_source(compiler, db, tmp_path, cli_at, root_toolchain):
    """GCC 14 pretty-prints its JSON over many lines, GCC 16 writes SARIF: one document per
    source either way, read apart."""
    tc = root_toolchain(compiler)
    if tc.root is None:
        pytest.skip(f"{compiler} is a host compiler here")
    path = tmp_path / "root.db"
    shutil.copy(db, path)
    out = _ok(cli_at(path)("warnings", "run", "--source", str(TWO), "--build", "make", "--clean", "true",
                           "--compilers", compiler, *LEVEL, "--json", "--quiet"))
    (b,) = json.loads(out)["builds"]
    assert (b["status"], b.get("error")) == ("ok", None)
    assert [(t["tu"], t["diagnostics"] > 0) for t in b["tus"]] == [("a.c", True), ("b.c", True), ("c.c", False)]
    (header,) = [d for d in b["diagnostics"] if d["file"] == "shared.h"]
    assert (header["printed"], header["tus"]) == (2, ["a.c", "b.c"])
    assert ("a.c", "-Wsign-compare") in {(d["file"], d["option"]) for d in b["diagnostics"]}


def test_a_one_command_build_that_drops_the_flags_fails_saying_so(db, tmp_path, cli_at):
    path = tmp_path / "deaf.db"
    shutil.copy(db, path)
    code, out, err = cli_at(path)("warnings", "run", "--source", str(PLAIN), "--build", "$CC -O2 a.c",
                                  "--clean", "true", "--compilers", "gcc-12", *LEVEL, "--json", "--quiet")
    assert code == 1 and len(err.strip().splitlines()) == 1 and "1 of 1 builds failed" in err
    (b,) = json.loads(out)["builds"]
    assert b["status"] == "failed"
    assert b["error"] == ("1 of 1 compiles lacked the level's flags, each compiled and linked in one command "
                          "(the build system did not pass them as given)")
    assert [t["tu"] for t in b["tus"]] == ["a.c"]
