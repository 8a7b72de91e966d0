"""What a build was built from (:func:`analyzer.projects.digest.tree_digest`): a tree's
files and the commands, not its path or its files' times; a link is hashed by its text,
never followed, and a FIFO refuses the tree without being opened."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from analyzer.projects import digest, recipes
from warnscope.errors import UnsafeInput


def _tree(top: Path) -> Path:
    tree = top / "twin"
    (tree / "src").mkdir(parents=True)
    (tree / "src" / "main.c").write_text("int main(void) { return 0; }\n")
    (tree / "Makefile").write_text("all:\n\tcc -c src/main.c\n")
    return tree


def _recipe(tree: Path, build: str = "make") -> recipes.Recipe:
    return recipes.local(str(tree), "", build, "make clean", ("c",))


def test_twins_of_one_content_are_one_digest_edits_are_another(tmp_path):
    a, b = _tree(tmp_path / "A"), _tree(tmp_path / "B")
    first = digest.tree_digest(a, _recipe(a))
    assert digest.tree_digest(b, _recipe(b)) == first            # the path is the origin's part
    st = (b / "src" / "main.c").stat()
    (b / "src" / "main.c").write_text("int main(void) { return 1; }\n")   # same size, times back
    os.utime(b / "src" / "main.c", ns=(st.st_atime_ns, st.st_mtime_ns))
    assert digest.tree_digest(b, _recipe(b)) != first
    os.utime(a / "Makefile", (1, 1))                              # times alone: the same tree
    assert digest.tree_digest(a, _recipe(a)) == first
    assert digest.tree_digest(a, _recipe(a, "make -j{jobs}")) != first   # another command
    (a / "new.h").write_text("")                                  # a new empty file
    assert digest.tree_digest(a, _recipe(a)) != first


def test_a_link_is_its_text_never_followed(tmp_path):
    tree = _tree(tmp_path)
    outside = tmp_path / "outside"
    outside.write_text("one")
    (tree / "secret.h").symlink_to(outside)
    (tree / "loop").symlink_to("loop")
    first = digest.tree_digest(tree, _recipe(tree))
    outside.write_text("two")
    assert digest.tree_digest(tree, _recipe(tree)) == first


def test_a_fifo_refuses_the_tree(tmp_path):
    tree = _tree(tmp_path)
    os.mkfifo(tree / "src" / "pipe.c")
    with pytest.raises(UnsafeInput) as err:       # a read would block: it is never opened
        digest.tree_digest(tree, _recipe(tree))
    assert "pipe.c" in str(err.value) and "not a regular file" in str(err.value)
    os.unlink(tree / "src" / "pipe.c")
    shutil.rmtree(tree)
