"""Whether a stored warnings build answers for the tree asked about
(:func:`analyzer.warnings.plan.answers`, ``unanswered``, ``check_stored``), over builds
stored as the runner stores them: two twin trees of one folder name, one tree edited, a
build stored before its digest was kept; and the passed variables' names stored and read
back, a damaged list one line."""
from __future__ import annotations

from pathlib import Path

import pytest

from analyzer.projects import digest, recipes
from analyzer.warnings import plan, store
from analyzer.warnings.results import Build
from warnscope.database import connect, transaction
from warnscope.errors import CorruptDatabase, NotIngested


def _tree(top: Path, text: str) -> tuple[recipes.Recipe, tuple[Path, str]]:
    tree = top / "twin"
    tree.mkdir(parents=True)
    (tree / "main.c").write_text(text)
    recipe = recipes.local(str(tree), "", "make", "make clean", ("c",))
    return recipe, (tree.resolve(), str(tree.resolve()))


def _save(conn, recipe, source, compiler: str, built_from: str, passed=()) -> None:
    with transaction(conn):
        store.save_build(conn, Build(project=recipe.name, origin=source[1], compiler=compiler,
                                     compiler_version="v", level="default", opt="-O2", flags={},
                                     format="gcc-json", finished_at="t", tree_digest=built_from,
                                     passed_env=list(passed)))


@pytest.fixture
def twins(tmp_path):
    conn = connect(tmp_path / "w.db")
    a, b = _tree(tmp_path / "A", "int a;\n"), _tree(tmp_path / "B", "int b;\n")
    assert a[0].name == b[0].name == "local:twin"
    yield conn, a, b
    conn.close()


def test_a_build_answers_for_its_own_tree_only(twins):
    conn, (recipe, a), (_, b) = twins
    _save(conn, recipe, a, "gcc-12", digest.tree_digest(a[0], recipe), ["PASSME"])
    assert plan.unanswered(conn, recipe, a, ["gcc-12", "clang-16"], "default") == ["clang-16"]
    assert plan.unanswered(conn, recipe, b, ["gcc-12"], "default") == ["gcc-12"]
    with pytest.raises(NotIngested) as err:
        plan.check_stored(conn, recipe, b, ["gcc-12"], "default")
    assert f"is of {a[1]}, not of {b[1]}" in str(err.value)
    plan.check_stored(conn, recipe, a, ["gcc-12", "clang-16"], "default")   # its own: no error
    (stored,) = store.builds(conn, recipe.name)
    assert stored.passed_env == ["PASSME"]


def test_an_edited_tree_and_a_build_without_digest_answer_nothing(twins):
    conn, (recipe, a), _b = twins
    _save(conn, recipe, a, "gcc-12", digest.tree_digest(a[0], recipe))
    _save(conn, recipe, a, "gcc-11", "")                       # stored before schema 15
    (a[0] / "main.c").write_text("int c;\n")
    assert plan.unanswered(conn, recipe, a, ["gcc-11", "gcc-12"], "default") == ["gcc-11", "gcc-12"]
    with pytest.raises(NotIngested) as err:
        plan.check_stored(conn, recipe, a, ["gcc-12"], "default")
    assert "of this tree as it was before an edit" in str(err.value)


def test_a_damaged_list_of_names_is_one_line(twins):
    conn, (recipe, a), _b = twins
    _save(conn, recipe, a, "gcc-12", "")
    with transaction(conn):
        conn.execute("UPDATE wn_build SET passed_env = '[1]'")
    with pytest.raises(CorruptDatabase) as err:
        store.builds(conn, recipe.name)
    assert "passed_env" in str(err.value)
