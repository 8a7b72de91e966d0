"""GCC before 9 from its source: the real option files of GCC 4.4.6 (../shared/sources),
as a tree and as release tarballs, with what such an old tree can and cannot say. That
tree is Android's GCC 4.4.6 (upstream's with Google's patches), so it is ingested as the
vendor's ``android-gcc-4.4``, and refused as upstream's ``gcc-4.4``."""
from __future__ import annotations

import hashlib
import tarfile

import pytest

from flagdb import store
from flagdb.gcc_ingest import load_gcc
from warnscope.database import connect


def test_gcc_4_4_tree_ingests(shared_sources, cli_at, tmp_path):
    db = tmp_path / "w.db"
    code, out, err = cli_at(db)("flags", "ingest", "android-gcc-4.4", "--source",
                                str(shared_sources / "gcc-4.4.6"))
    assert code == 0, err
    assert out.startswith("android-gcc-4.4: added (4.4.6, ")
    data = store.load(connect(db, write=False), "android-gcc-4.4")
    names = {f.name: f for f in data.flags}
    # the C family's options of c.opt (before c-family/ existed) are in, as C-family ones
    assert names["-Wshadow"].c_family and names["-Wformat="].origin == "c.opt"
    assert names["-Wformat="].takes_argument
    assert "C++" in names["-Wctor-dtor-privacy"].languages
    assert names["-Wattributes"].default == "on" and names["-Wshadow"].default == "off"
    assert names["-Wshadow"].description.startswith("Warn when one local variable shadows")
    assert names["-Wcomments"].alias_of == "-Wcomment"        # "Synonym for -Wcomment"
    assert "-pedantic" in names                                # no -Wpedantic before 4.8
    # no EnabledBy yet: -Wall's members were decided in C code; said, not guessed
    assert data.edges == []
    assert data.members_in_code("-Wall") and not data.members_in_code("-Wshadow")
    code, out, err = cli_at(db)("flags", "tree", "android-gcc-4.4", "-Wall")
    assert code == 0 and "decided in the compiler's C code" in out


@pytest.mark.parametrize("mode", ["gz", "bz2", "xz"])
def test_gcc_4_4_tarballs_give_what_the_tree_gives(mode, shared_sources, tmp_path):
    tarball = tmp_path / f"gcc-4.4.6.tar.{mode}"
    with tarfile.open(tarball, f"w:{mode}") as tar:
        tar.add(shared_sources / "gcc-4.4.6" / "gcc", "gcc-4.4.6/gcc")
    tree = load_gcc("android-gcc-4.4", str(shared_sources / "gcc-4.4.6"))
    digest = hashlib.sha256(tarball.read_bytes()).hexdigest()
    packed = load_gcc("android-gcc-4.4", str(tarball), sha256=digest)
    assert packed.source_kind == "tarball"
    assert [vars(f) for f in packed.flags] == [vars(f) for f in tree.flags]


def test_wrong_version_or_checksum_is_one_line(shared_sources, tmp_path, fails_on):
    db = tmp_path / "w.db"
    line = fails_on(db, "flags", "ingest", "android-gcc-4.5", "--source",
                    str(shared_sources / "gcc-4.4.6"))
    assert "this is Android's GCC 4.4.6, not android-gcc-4.5 (ingest it as android-gcc-4.4)" in line
    line = fails_on(db, "flags", "ingest", "gcc-4", "--source", str(shared_sources / "gcc-4.4.6"))
    assert "gcc 4 is named with its minor (gcc-4.N)" in line
    line = fails_on(db, "flags", "ingest", "gcc-8")
    assert "--source" in line and "flags versions --available" in line


def test_androids_tree_is_not_upstream(shared_sources, gcc_db_copy, fails_on, cli_at):
    """Google's patches add options no upstream GCC had: ingested as upstream's gcc-4.4,
    history would say GCC 4.4 had -Wthread-safety. One line names the vendor's id, and
    as that id it is a line of its own beside gcc-11 and gcc-12."""
    db, tree = gcc_db_copy, str(shared_sources / "gcc-4.4.6")
    for compiler in ("gcc-4.4", "gcc-4.5"):
        line = fails_on(db, "flags", "ingest", compiler, "--source", tree)
        assert "this is Android's GCC 4.4.6 (its option files have -fripa, " in line
        assert f"which upstream GCC never had), not {compiler} (ingest it as android-gcc-4.4)" in line
    cli = cli_at(db)
    assert cli("flags", "ingest", "android-gcc-4.4", "--source", tree)[0] == 0
    code, out, _ = cli("flags", "history", "-Wthread-safety")
    assert code == 0 and "gcc: in no ingested version" in out
    assert "android-gcc: present in android-gcc-4.4, the only ingested version" in out
    code, out, _ = cli("flags", "history", "-Wshadow")
    assert "gcc: present in every ingested version (gcc-11 … gcc-12)" in out
    code, out, _ = cli("flags", "since", "android-gcc-4.4")
    assert "the oldest android-gcc version ingested" in out
    code, out, _ = cli("flags", "since", "gcc-11")           # not compared with Android's 4.4
    assert "the oldest gcc version ingested" in out
