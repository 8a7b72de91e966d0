"""Android's GCC is a vendor family of its own (``android-gcc-4.4``), read as GCC, named
by its minor like the GCC before 5 it is built on, listed after upstream's GCC; a tree of
it is told from upstream's by the options only Google's patches add."""
from __future__ import annotations

import pytest

from flagdb import upstream
from flagdb.gcc_ingest import load_gcc
from warnscope.compilers import CompilerId, sort_key
from warnscope.errors import BadInput


def test_the_id():
    cid = CompilerId.parse("android-gcc-4.4")
    assert (cid.family, cid.major, cid.minor, cid.data_family) == ("android-gcc", 4, 4, "gcc")
    assert str(cid) == "android-gcc-4.4" and cid.host == cid
    assert str(CompilerId.parse("android-gcc-4.9@arm-linux-androideabi")) == \
        "android-gcc-4.9@arm-linux-androideabi"
    with pytest.raises(BadInput, match=r"android-gcc 4 is named with its minor \(android-gcc-4.N\)"):
        CompilerId.of("android-gcc-4")
    assert str(CompilerId.guess("Android-GCC 4.4")) == "android-gcc-4.4"


def test_its_place_in_listings():
    ids = ["clang-16", "android-gcc-4.4", "gcc-12", "apple-clang-10.0", "gcc-4.4", "android-gcc-4.9"]
    assert sorted(ids, key=sort_key) == ["gcc-4.4", "gcc-12", "android-gcc-4.4", "android-gcc-4.9",
                                         "clang-16", "apple-clang-10.0"]


def test_where_it_comes_from():
    assert "--source <Android's GCC tree" in upstream.ingest_command("android-gcc-4.4")
    assert not [r for r in upstream.releases() if r.compiler.startswith("android-")]


GOOGLE = ("Wthread-safety\nCommon Var(warn_thread_safety) Warning\nThread safety.\n\n"
          "fripa\nCommon Report Var(flag_dyn_ipa)\nLIPO.\n")


def test_a_vendors_tree_is_refused_as_upstream(tmp_path, gcc_tree, common_opt):
    root = gcc_tree(tmp_path, {"common.opt": common_opt + "\n" + GOOGLE, "BASE-VER": "4.4.6\n"})
    with pytest.raises(BadInput) as exc:
        load_gcc("gcc-4.4", str(root))
    line = str(exc.value)
    assert "\n" not in line and "this is Android's GCC 4.4.6" in line
    assert "-fripa, -Wthread-safety" in line and line.endswith("(ingest it as android-gcc-4.4)")
    data = load_gcc("android-gcc-4.4", str(root))
    assert data.compiler == "android-gcc-4.4" and data.family == "gcc"
    assert "-Wthread-safety" in {f.name for f in data.flags}


def test_an_upstream_tree_is_upstream(tmp_path, gcc_tree, common_opt):
    root = gcc_tree(tmp_path, {"common.opt": common_opt, "BASE-VER": "4.4.6\n"})
    assert load_gcc("gcc-4.4", str(root)).compiler == "gcc-4.4"
    with pytest.raises(BadInput) as exc:
        load_gcc("android-gcc-4.4")                     # no Debian package: its own tree
    assert "--source" in str(exc.value)
