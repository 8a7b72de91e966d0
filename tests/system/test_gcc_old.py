"""GCC before 9 from its source: the real option files of GCC 4.4.6 (../shared/sources),
as a tree and as release tarballs, with what such an old tree can and cannot say."""
from __future__ import annotations

import hashlib
import tarfile

import pytest

from flagdb import store
from flagdb.gcc_ingest import load_gcc
from warnscope.database import connect


def test_gcc_4_4_tree_ingests(shared_sources, cli_at, tmp_path):
    db = tmp_path / "w.db"
    code, out, err = cli_at(db)("flags", "ingest", "gcc-4.4", "--source",
                                str(shared_sources / "gcc-4.4.6"))
    assert code == 0, err
    assert out.startswith("gcc-4.4: added (4.4.6, ")
    data = store.load(connect(db, write=False), "gcc-4.4")
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
    code, out, err = cli_at(db)("flags", "tree", "gcc-4.4", "-Wall")
    assert code == 0 and "decided in the compiler's C code" in out


@pytest.mark.parametrize("mode", ["gz", "bz2", "xz"])
def test_gcc_4_4_tarballs_give_what_the_tree_gives(mode, shared_sources, tmp_path):
    tarball = tmp_path / f"gcc-4.4.6.tar.{mode}"
    with tarfile.open(tarball, f"w:{mode}") as tar:
        tar.add(shared_sources / "gcc-4.4.6" / "gcc", "gcc-4.4.6/gcc")
    tree = load_gcc("gcc-4.4", str(shared_sources / "gcc-4.4.6"))
    digest = hashlib.sha256(tarball.read_bytes()).hexdigest()
    packed = load_gcc("gcc-4.4", str(tarball), sha256=digest)
    assert packed.source_kind == "tarball"
    assert [vars(f) for f in packed.flags] == [vars(f) for f in tree.flags]


def test_wrong_version_or_checksum_is_one_line(shared_sources, tmp_path, fails_on):
    db = tmp_path / "w.db"
    line = fails_on(db, "flags", "ingest", "gcc-4.5", "--source", str(shared_sources / "gcc-4.4.6"))
    assert "this is GCC 4.4.6, not gcc-4.5 (ingest it as gcc-4.4)" in line
    line = fails_on(db, "flags", "ingest", "gcc-4", "--source", str(shared_sources / "gcc-4.4.6"))
    assert "gcc 4 is named with its minor (gcc-4.N)" in line
    line = fails_on(db, "flags", "ingest", "gcc-8")
    assert "--source" in line and "flags versions --available" in line
