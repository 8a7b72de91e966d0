"""clang from its TableGen sources: every real tree of ../shared/sources ingests, and
for clang 9, 16 and 22 the .td route gives exactly what the generated tables give."""
from __future__ import annotations

import tarfile

import pytest

from flagdb import store
from flagdb.clang_ingest import load_clang
from warnscope.database import connect

TREES = {"clang-3.2": "clang-3.2", "clang-3.5": "clang-3.5", "clang-3.9": "clang-3.9",
         "clang-5": "clang-5.0", "clang-7": "clang-7.0",
         "apple-clang-10.0": "apple-clang-swift-5.0"}


def same(table, td) -> None:
    """Names, aliases, defaults, no-ops, counts, trees and messages are equal."""
    a = {f.name: f for f in table.flags}
    b = {f.name: f for f in td.flags}
    assert sorted(a) == sorted(b)
    for name, f in a.items():
        g = b[name]
        assert (f.kind, f.alias_of, f.default, f.ignored) == (g.kind, g.alias_of, g.default,
                                                              g.ignored), name
        fa, fb = vars(f.facts), vars(g.facts)
        if table.flag("-Wall").facts.docs or not fa["docs"]:   # the tables have docs from 15
            assert fa == fb, name
        else:
            assert {k: v for k, v in fa.items() if k != "docs"} == \
                   {k: v for k, v in fb.items() if k != "docs"}, name
    assert sorted((e.parent, e.child) for e in table.edges) == \
           sorted((e.parent, e.child) for e in td.edges)
    assert sorted(map(repr, table.messages)) == sorted(map(repr, td.messages))
    assert table.version == td.version


@pytest.mark.parametrize("major", [9, 16, 22])
def test_td_route_equals_table_route(major, llvm_orig, real_data):
    orig = llvm_orig(major)
    td = load_clang(f"clang-{major}", orig.url, sha256=orig.sha256)
    assert td.source_kind == "tarball"
    same(real_data(major), td)


@pytest.mark.parametrize("compiler", sorted(TREES))
def test_every_shared_tree_ingests(compiler, shared_sources, cli_at, tmp_path):
    db = tmp_path / "w.db"
    code, out, err = cli_at(db)("flags", "ingest", compiler, "--source",
                                str(shared_sources / TREES[compiler]))
    assert code == 0, err
    assert out.startswith(f"{compiler}: added (")
    data = store.load(connect(db, write=False), compiler)
    assert data.family == "clang" and data.source_kind == "source-tree"
    assert len(data.flags) > 300 and data.messages
    assert data.flag("-Wshadow") is not None and data.flag("-Wall").alias_of is None
    assert any(e.parent == "-Wall" for e in data.edges)


def test_tarball_of_a_tree_ingests_like_the_tree(shared_sources, tmp_path):
    """A cfe-X.src.tar.xz layout (top dir, include/clang/Basic) is streamed and gives
    what the tree gives; its version comes from its name."""
    tarball = tmp_path / "cfe-3.9.1.src.tar.xz"
    with tarfile.open(tarball, "w:xz") as tar:
        tar.add(shared_sources / "clang-3.9" / "include", "cfe-3.9.1.src/include")
    from_tree = load_clang("clang-3.9", str(shared_sources / "clang-3.9"))
    from_tar = load_clang("clang-3.9", str(tarball))
    assert from_tar.version == "3.9.1" and from_tar.source_kind == "tarball"
    assert [vars(f) for f in from_tar.flags] == [vars(f) for f in from_tree.flags]
    assert sorted(map(repr, from_tar.edges)) == sorted(map(repr, from_tree.edges))


def test_llvm_project_layout_and_sha256(shared_sources, tmp_path, fails_on):
    tarball = tmp_path / "llvm-project-7.0.1.src.tar.gz"
    with tarfile.open(tarball, "w:gz") as tar:
        tar.add(shared_sources / "clang-7.0" / "include", "llvm-project-7.0.1.src/clang/include")
    import hashlib

    digest = hashlib.sha256(tarball.read_bytes()).hexdigest()
    assert load_clang("clang-7", str(tarball), sha256=digest).version == "7.0.1"
    line = fails_on(tmp_path / "w.db", "flags", "ingest", "clang-7", "--source", str(tarball),
                    "--sha256", "0" * 64)
    assert "SHA-256 is " + digest in line
    line = fails_on(tmp_path / "w.db", "flags", "ingest", "clang-3.8", "--source", str(tarball))
    assert "this is clang 7.0.1, not clang-3.8" in line


def test_apple_clang_is_a_line_of_its_own(shared_sources, cli_at, tmp_path):
    """history, since and diff treat Apple's clang as one line of versions beside clang's,
    and the oldest ingested version of each line is never said to bring anything new."""
    cli = cli_at(tmp_path / "w.db")
    for compiler, tree in (("clang-3.2", "clang-3.2"), ("clang-7", "clang-7.0"),
                           ("apple-clang-10.0", "apple-clang-swift-5.0")):
        assert cli("flags", "ingest", compiler, "--source", str(shared_sources / tree))[0] == 0
    code, out, _ = cli("flags", "history", "-Wshadow")
    assert out.splitlines()[:3] == ["clang-3.2  3.2        default off",
                                    "clang-7    7.0        default partial",
                                    "apple-clang-10.0 10.0       default partial"]
    assert "clang: present in every ingested version (clang-3.2 … clang-7)" in out
    assert "apple-clang: present in apple-clang-10.0, the only ingested version" in out
    code, out, _ = cli("flags", "since")
    lines = out.splitlines()
    assert lines[0].startswith("clang-3.2 (3.2): the oldest clang version ingested")
    assert any(l.startswith("clang-7 (7.0) since clang-3.2 (3.2): ") for l in lines)
    assert any(l.startswith("apple-clang-10.0 (10.0): the oldest apple-clang version") for l in lines)
    code, out, _ = cli("flags", "diff", "clang-7", "apple-clang-10.0")
    assert code == 0 and out.startswith("clang-7 -> apple-clang-10.0: ")
    code, out, err = cli("flags", "show", "-c", "clang-3.8", "-Wshadow")
    assert code == 1 and "run: warnscope flags ingest clang-3.8 --source cfe-3.8.1.src.tar.xz" in err
