"""A stored answer is for the tree asked about: two real local trees of one folder name
(``A/twin``, ``B/twin``: one project name, ``local:twin``) and a tree edited with its
times put back, each asked ``upgrade`` clang-14 -> clang-16. A stored build answers only
for the tree it was built from (its path and the digest of its files and commands); the
report names the tree."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

#: builds with both compilers
GOOD = '#include <stdio.h>\nint main(void) { return puts("twin") < 0; }\n'
#: clang 16 makes the implicit declaration of puts an error
BAD = 'int main(void) { return puts("twin") < 0; }\n'


def _tree(top: Path, source: str) -> Path:
    tree = top / "twin"
    tree.mkdir(parents=True)
    (tree / "main.c").write_text(source)
    (tree / "Makefile").write_text("all:\n\t$(CC) $(CFLAGS) -c main.c -o main.o\n")
    return tree.resolve()


def _upgrade(cli, tree: Path, *args: str):
    return cli("upgrade", "--source", str(tree), "--build", "make", "--quiet",
               "--from", "clang-14", "--to", "clang-16", *args)


def test_a_twin_of_the_same_name_is_built_anew(tmp_path, cli_at, fails_on, require):
    require("clang-14")
    require("clang-16")
    a, b = _tree(tmp_path / "A", GOOD), _tree(tmp_path / "B", BAD)
    db = tmp_path / "twins.db"
    cli = cli_at(db)
    code, out, err = _upgrade(cli, a, "--json")
    assert code == 0, err
    report = json.loads(out)
    assert (report["project"], report["origin"]) == ("local:twin", str(a))
    (pair,) = report["pairs"]
    assert (pair["new_status"], pair["new_errors"]) == ("ok", [])

    # B/twin: not answered from A's builds; clang-16 fails it, and the text names B
    code, out, err = _upgrade(cli, b)
    assert code == 0, err
    assert out.splitlines()[0].startswith(f"local:twin ({b}): clang-14 -> clang-16")
    assert "new errors: 1" in out and "clang-16 fails" in out

    # A asked from the stored builds alone: they are B's now, said in one line
    line = fails_on(db, "upgrade", "--source", str(a), "--build", "make", "--quiet",
                    "--from", "clang-14", "--to", "clang-16", "--stored")
    assert f"is of {b}, not of {a}" in line


def test_the_same_tree_edited_is_built_anew(tmp_path, cli_at, fails_on, require):
    """An edit with the file's times put back (the digest is of the contents)."""
    require("clang-14")
    require("clang-16")
    tree = _tree(tmp_path, GOOD)
    db = tmp_path / "edited.db"
    cli = cli_at(db)
    code, out, err = _upgrade(cli, tree)
    assert code == 0, err
    assert "new errors: 0" in out
    main = tree / "main.c"
    st = main.stat()
    main.write_text(BAD.ljust(len(GOOD)))   # the same size too
    os.utime(main, ns=(st.st_atime_ns, st.st_mtime_ns))
    line = fails_on(db, "upgrade", "--source", str(tree), "--build", "make", "--quiet",
                    "--from", "clang-14", "--to", "clang-16", "--stored")
    assert "of this tree as it was before an edit" in line
    code, out, err = _upgrade(cli, tree)
    assert code == 0, err
    assert "new errors: 1" in out
