"""Page names are one-to-one: ids that meet once spelled as a file name (``/`` as
``--``, upper case folded, a name cut at 100 characters) get distinct pages, and a name
that does not collide keeps the page name it always had."""
from __future__ import annotations

from analyzer.site.ub import corpus_stems
from analyzer.site.slugs import path_slug, slug_map


def test_case_ids_that_meet_as_file_names_get_distinct_slugs():
    ids = ["a/b--c", "a--b/c", "A/B--C", "x/" + "y" * 200, "x/" + "y" * 199 + "z", "signed/loop"]
    slugs = slug_map(ids, base=path_slug)
    assert len(set(slugs.values())) == len(ids)
    assert slugs["signed/loop"] == "signed--loop"          # no collision: the name it always had
    assert slugs["A/B--C"] == "a--b--c"                    # the first in sorted order keeps it


def test_reserved_slugs_are_never_given():
    slugs = slug_map(["-index", "-Wall"], reserved={"index"})
    assert slugs["-Wall"] == "wall" and slugs["-index"].startswith("index~")


def test_corpus_stems_are_unique_and_never_index():
    corpora = ["/home/u/corpus", "/srv/index", "/tmp/corpus", "/corpus", "/a/b--c", "/a--b/c"]
    stems = corpus_stems(corpora)
    assert len(set(stems.values())) == len(corpora)
    assert stems["/home/u/corpus"] == "corpus"             # the most recent keeps its short name
    assert "index" not in stems.values()
