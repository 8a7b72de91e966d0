"""Bad input: one clear line, a non-zero exit, and a database left exactly as it was."""
from __future__ import annotations

import io
import lzma
import tarfile
from pathlib import Path

import pytest

from conftest import Cli, dump
from test_gcc_opt_parser import C_OPT, COMMON, _tree


@pytest.fixture
def run(gcc_db_copy, capsys):
    """Run a command that must fail; return its single stderr line."""
    cli = Cli(gcc_db_copy, capsys)

    def fail(*args: str) -> str:
        before = dump(gcc_db_copy)
        code, out, err = cli(*args)
        assert code != 0, out
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        assert lines[0].startswith("warnscope: error: ")
        assert dump(gcc_db_copy) == before
        return lines[0]

    return fail


def _bad_tree(tmp_path: Path, old: str, new: str) -> str:
    assert old in COMMON
    return str(_tree(tmp_path, {"common.opt": COMMON.replace(old, new)}))


def test_unclosed_parenthesis(run, tmp_path):
    src = _bad_tree(tmp_path, "Var(warn_deflt) Init(1)", "Var(warn_deflt Init(1)")
    assert "common.opt:" in run("flags", "ingest", "gcc-12", "--source", src)


def test_unknown_enabledby_option(run, tmp_path):
    src = _bad_tree(tmp_path, "EnabledBy(Wunused || Wextra)", "EnabledBy(Wunused || Wnosuch)")
    msg = run("flags", "ingest", "gcc-12", "--source", src)
    assert "common.opt:" in msg and "Wnosuch" in msg


def test_unreadable_level_condition(run, tmp_path):
    src = _bad_tree(tmp_path, "warn_level >= 2", "warn_other ~ 2")
    assert "cannot read the condition" in run("flags", "ingest", "gcc-12", "--source", src)


def test_three_way_and(run, tmp_path):
    src = _bad_tree(tmp_path, "EnabledBy(Wunused && Wextra)", "EnabledBy(Wunused && Wextra && Wall)")
    assert "only 'A && B'" in run("flags", "ingest", "gcc-12", "--source", src)


def test_not_utf8(run, tmp_path):
    root = _tree(tmp_path, {"common.opt": COMMON})
    (root / "gcc" / "c-family" / "c.opt").write_bytes(b"Wx\nC Warning\n\xff\xfe bad\n")
    msg = run("flags", "ingest", "gcc-12", "--source", str(root))
    assert "c-family/c.opt:3: not valid UTF-8" in msg


def test_binary_garbage(run, tmp_path):
    root = _tree(tmp_path, {"common.opt": COMMON})
    (root / "gcc" / "common.opt").write_bytes(COMMON.encode() + b"\x00\x01\x02")
    assert "NUL byte" in run("flags", "ingest", "gcc-12", "--source", str(root))


def test_conflicting_help_texts(run, tmp_path):
    c_opt = "Wunused\nC C++ Warning\nA different help text.\n"
    root = _tree(tmp_path, {"common.opt": COMMON, "c-family/c.opt": c_opt})
    assert "different help text" in run("flags", "ingest", "gcc-12", "--source", str(root))


def test_bad_base_ver(run, tmp_path):
    root = _tree(tmp_path, {"common.opt": COMMON})
    (root / "gcc" / "BASE-VER").write_text("twelve\n")
    assert "BASE-VER:1: not a GCC version" in run("flags", "ingest", "gcc-12", "--source", str(root))


def test_not_a_source_tree(run, tmp_path):
    assert "not a GCC source tree" in run("flags", "ingest", "gcc-12", "--source", str(tmp_path))


def test_missing_source_path(run, tmp_path):
    assert "no such file" in run("flags", "ingest", "gcc-12", "--source", str(tmp_path / "nope"))


def _tarball(tmp_path: Path) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:xz") as tar:
        for name, text in {"gcc-99.1.0/gcc/BASE-VER": "99.1.0\n",
                           "gcc-99.1.0/gcc/common.opt": COMMON,
                           "gcc-99.1.0/gcc/c-family/c.opt": C_OPT}.items():
            info = tarfile.TarInfo(name)
            info.size = len(text.encode())
            tar.addfile(info, io.BytesIO(text.encode()))
    return buf.getvalue()


def test_tarball_source_works_and_truncated_one_fails(run, tmp_path, gcc_db_copy, capsys):
    good = tmp_path / "gcc-99.1.0.tar.xz"
    good.write_bytes(_tarball(tmp_path))
    cli = Cli(gcc_db_copy, capsys)
    code, out, _ = cli("flags", "ingest", "gcc-99", "--source", str(good))
    assert code == 0 and "99.1.0" in out
    truncated = tmp_path / "gcc-98.tar.xz"
    truncated.write_bytes(good.read_bytes()[: len(good.read_bytes()) // 2])
    assert "corrupt or truncated" in run("flags", "ingest", "gcc-98", "--source", str(truncated))


def test_unknown_compiler_id(run):
    assert "unknown compiler id 'icc-2024'" in run("flags", "ingest", "icc-2024")


def test_missing_package(run):
    assert "gcc-99-source" in run("flags", "ingest", "gcc-99")


def test_query_of_compiler_not_ingested(run):
    assert "not in the database" in run("flags", "list", "gcc-10")


def test_unknown_flag(run):
    assert "did you mean -Wshadow" in run("flags", "show", "-Wshadwo", "--compiler", "gcc-12")


def test_corrupt_database(tmp_path, capsys):
    db = tmp_path / "corrupt.db"
    db.write_bytes(b"SQLite format 3\x00" + b"\x13" * 4000)
    before = db.read_bytes()
    cli = Cli(db, capsys)
    code, _, err = cli("flags", "versions")
    assert code == 1 and "not a warnscope database" in err and len(err.strip().splitlines()) == 1
    assert db.read_bytes() == before


def test_text_file_as_database(tmp_path, capsys):
    db = tmp_path / "notes.txt"
    db.write_text("just some notes\n" * 100)
    code, _, err = Cli(db, capsys)("flags", "versions")
    assert code == 1 and "not a warnscope database" in err
    assert db.read_text() == "just some notes\n" * 100


def test_source_of_another_major_version(run, tmp_path):
    """A GCC 99 tree ingested as gcc-12 would put GCC 99's options under gcc-12's name."""
    root = _tree(tmp_path, {"common.opt": COMMON})
    assert "is GCC 99.1.0, not gcc-12" in run("flags", "ingest", "gcc-12", "--source", str(root))


def test_one_source_for_several_compilers(run, tmp_path):
    root = _tree(tmp_path, {"common.opt": COMMON})
    assert "--source" in run("flags", "ingest", "gcc-99", "gcc-98", "--source", str(root))


@pytest.mark.parametrize("args", [
    ("flags", "show", "-Wshadow"),                       # --compiler missing
    ("flags", "everything", "gcc-12", "--lang", "fortran"),
    ("flags", "nosuch"),
    ("flags", "check", "-c", ",", "--", "-Wall"),          # no compiler named
])
def test_usage_errors_are_one_line(run, args):
    run(*args)


def test_lang_enabled_by_with_posarg_only(run, tmp_path):
    """opt-functions.awk: "both or none of posarg and negarg must be specified"."""
    src = _bad_tree(tmp_path, "Wlevel=, warn_level >= 2, 0)", "Wlevel=, warn_level >= 2)")
    assert "both or none" in run("flags", "ingest", "gcc-99", "--source", src)
