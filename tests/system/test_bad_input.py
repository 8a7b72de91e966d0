"""Bad input: one clear line, a non-zero exit, and a database left exactly as it was."""
from __future__ import annotations

import io
import tarfile

import pytest



@pytest.fixture
def bad_tree(tmp_path, gcc_tree, common_opt):
    """``bad_tree(old, new)``: the hand-written tree with ``old`` replaced by ``new`` in
    its common.opt; returns the tree's path."""

    def make(old: str, new: str) -> str:
        assert old in common_opt
        return str(gcc_tree(tmp_path, {"common.opt": common_opt.replace(old, new)}))

    return make


def test_unclosed_parenthesis(must_fail, tmp_path, bad_tree):
    src = bad_tree("Var(warn_deflt) Init(1)", "Var(warn_deflt Init(1)")
    assert "common.opt:" in must_fail("flags", "ingest", "gcc-12", "--source", src)


def test_unknown_enabledby_option(must_fail, tmp_path, bad_tree):
    src = bad_tree("EnabledBy(Wunused || Wextra)", "EnabledBy(Wunused || Wnosuch)")
    msg = must_fail("flags", "ingest", "gcc-12", "--source", src)
    assert "common.opt:" in msg and "Wnosuch" in msg


def test_unreadable_level_condition(must_fail, tmp_path, bad_tree):
    src = bad_tree("warn_level >= 2", "warn_other ~ 2")
    assert "cannot read the condition" in must_fail("flags", "ingest", "gcc-12", "--source", src)


def test_three_way_and(must_fail, tmp_path, bad_tree):
    src = bad_tree("EnabledBy(Wunused && Wextra)", "EnabledBy(Wunused && Wextra && Wall)")
    assert "only 'A && B'" in must_fail("flags", "ingest", "gcc-12", "--source", src)


def test_not_utf8(must_fail, tmp_path, gcc_tree, common_opt):
    root = gcc_tree(tmp_path, {"common.opt": common_opt})
    (root / "gcc" / "c-family" / "c.opt").write_bytes(b"Wx\nC Warning\n\xff\xfe bad\n")
    msg = must_fail("flags", "ingest", "gcc-12", "--source", str(root))
    assert "c-family/c.opt:3: not valid UTF-8" in msg


def test_binary_garbage(must_fail, tmp_path, gcc_tree, common_opt):
    root = gcc_tree(tmp_path, {"common.opt": common_opt})
    (root / "gcc" / "common.opt").write_bytes(common_opt.encode() + b"\x00\x01\x02")
    assert "NUL byte" in must_fail("flags", "ingest", "gcc-12", "--source", str(root))


def test_conflicting_help_texts(must_fail, tmp_path, gcc_tree, common_opt):
    c_opt = "Wunused\nC C++ Warning\nA different help text.\n"
    root = gcc_tree(tmp_path, {"common.opt": common_opt, "c-family/c.opt": c_opt})
    assert "different help text" in must_fail("flags", "ingest", "gcc-12", "--source", str(root))


def test_bad_base_ver(must_fail, tmp_path, gcc_tree, common_opt):
    root = gcc_tree(tmp_path, {"common.opt": common_opt})
    (root / "gcc" / "BASE-VER").write_text("twelve\n")
    assert "BASE-VER:1: not a GCC version" in must_fail("flags", "ingest", "gcc-12", "--source", str(root))


def test_not_a_source_tree(must_fail, tmp_path):
    assert "not a GCC source tree" in must_fail("flags", "ingest", "gcc-12", "--source", str(tmp_path))


def test_missing_source_path(must_fail, tmp_path):
    assert "no such file" in must_fail("flags", "ingest", "gcc-12", "--source", str(tmp_path / "nope"))


def _tarball(common_opt: str, c_opt: str) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:xz") as tar:
        for name, text in {"gcc-99.1.0/gcc/BASE-VER": "99.1.0\n",
                           "gcc-99.1.0/gcc/common.opt": common_opt,
                           "gcc-99.1.0/gcc/c-family/c.opt": c_opt}.items():
            info = tarfile.TarInfo(name)
            info.size = len(text.encode())
            tar.addfile(info, io.BytesIO(text.encode()))
    return buf.getvalue()


def test_tarball_source_works_and_truncated_one_fails(must_fail, tmp_path, gcc_db_copy, common_opt, c_opt, cli_at):
    good = tmp_path / "gcc-99.1.0.tar.xz"
    good.write_bytes(_tarball(common_opt, c_opt))
    code, out, _ = cli_at(gcc_db_copy)("flags", "ingest", "gcc-99", "--source", str(good))
    assert code == 0 and "99.1.0" in out
    truncated = tmp_path / "gcc-98.tar.xz"
    truncated.write_bytes(good.read_bytes()[: len(good.read_bytes()) // 2])
    assert "corrupt or truncated" in must_fail("flags", "ingest", "gcc-98", "--source", str(truncated))


def test_unknown_compiler_id(must_fail):
    assert "unknown compiler id 'icc-2024'" in must_fail("flags", "ingest", "icc-2024")


def test_missing_package(must_fail):
    assert "gcc-99-source" in must_fail("flags", "ingest", "gcc-99")


def test_query_of_compiler_not_ingested(must_fail):
    assert "not in the database" in must_fail("flags", "list", "gcc-10")


def test_unknown_flag(must_fail):
    assert "did you mean -Wshadow" in must_fail("flags", "show", "-Wshadwo", "--compiler", "gcc-12")


def test_source_of_another_major_version(must_fail, tmp_path, gcc_tree, common_opt):
    """A GCC 99 tree ingested as gcc-12 would put GCC 99's options under gcc-12's name."""
    root = gcc_tree(tmp_path, {"common.opt": common_opt})
    assert "is GCC 99.1.0, not gcc-12" in must_fail("flags", "ingest", "gcc-12", "--source", str(root))


def test_one_source_for_several_compilers(must_fail, tmp_path, gcc_tree, common_opt):
    root = gcc_tree(tmp_path, {"common.opt": common_opt})
    assert "--source" in must_fail("flags", "ingest", "gcc-99", "gcc-98", "--source", str(root))


@pytest.mark.parametrize("args", [
    ("flags", "show"),                                   # FLAG missing
    ("flags", "everything", "gcc-12", "--lang", "fortran"),
    ("flags", "nosuch"),
    ("flags", "check", "-c", ",", "--", "-Wall"),          # no compiler named
])
def test_usage_errors_are_one_line(must_fail, args):
    must_fail(*args)


def test_lang_enabled_by_with_posarg_only(must_fail, tmp_path, bad_tree):
    """opt-functions.awk: "both or none of posarg and negarg must be specified"."""
    src = bad_tree("Wlevel=, warn_level >= 2, 0)", "Wlevel=, warn_level >= 2)")
    assert "both or none" in must_fail("flags", "ingest", "gcc-99", "--source", src)
