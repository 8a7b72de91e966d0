"""Debian's git-updates.diff filtered to the option files, and the package rule of verify."""
from __future__ import annotations

import io
import shutil

import pytest

from warnscope.errors import WarnscopeError
from flagdb.gcc_ingest import apply_patch, wanted_sections
from analyzer.verify.gcc_q import _as_int32
from analyzer.verify.package import upstream

DIFF = b"""# DP: updates from the gcc-10 branch
--- a/src/gcc/BASE-VER
+++ b/src/gcc/BASE-VER
@@ -1 +1 @@
-10.2.0
+10.2.1
--- a/src/gcc/ChangeLog
+++ b/src/gcc/ChangeLog
@@ -1,2 +1,1 @@
--- a removed line that looks like a header
 context
--- a/src/gcc/common.opt
+++ b/src/gcc/common.opt
@@ -1,3 +1,3 @@
 Wfoo
-Common Var(warn_foo)
+Common Var(warn_foo) Init(1)
 
--- /dev/null
+++ b/src/gcc/../../etc/evil.opt
@@ -0,0 +1 @@
+x
"""


def test_only_wanted_files_and_hunks_by_count():
    out = wanted_sections(io.BytesIO(DIFF), "t")
    heads = [l for l in out.splitlines() if l.startswith(b"+++")]
    assert heads == [b"+++ b/src/gcc/BASE-VER", b"+++ b/src/gcc/common.opt"]
    assert b"ChangeLog" not in out and b"looks like a header" not in out and b"evil" not in out


@pytest.mark.skipif(shutil.which("patch") is None, reason="needs patch(1)")
def test_applied_to_a_tree(tmp_path):
    (tmp_path / "gcc").mkdir()
    (tmp_path / "gcc" / "BASE-VER").write_text("10.2.0\n")
    (tmp_path / "gcc" / "common.opt").write_text("Wfoo\nCommon Var(warn_foo)\n\n")
    apply_patch(wanted_sections(io.BytesIO(DIFF), "t"), tmp_path, "t")
    assert (tmp_path / "gcc" / "BASE-VER").read_text() == "10.2.1\n"
    assert "Init(1)" in (tmp_path / "gcc" / "common.opt").read_text()
    with pytest.raises(WarnscopeError, match="does not apply"):
        apply_patch(wanted_sections(io.BytesIO(DIFF), "t"), tmp_path, "t")


def test_truncated_hunk_is_an_error():
    with pytest.raises(WarnscopeError, match="truncated hunk"):
        wanted_sections(io.BytesIO(DIFF[:DIFF.index(b" context")]), "t")


def test_upstream_and_gcc9_int_printing():
    assert upstream("1:13.0.1-6~deb11u1") == "13.0.1" == upstream("1:13.0.1-11+b2")
    assert upstream("10.2.1-6") == "10.2.1" and upstream("12.2.0") == "12.2.0"
    assert _as_int32("9223372036854775807") == "-1" and _as_int32("16384") == "16384"
