"""Where the compilers Debian lacks are published (a static table, no network), the
command a missing version names, and the compiler ids of old and Apple's releases."""
from __future__ import annotations

import pytest

from flagdb import text as flag_text
from flagdb import compare, upstream
from warnscope.compilers import CompilerId, sort_key
from warnscope.errors import BadInput


def test_the_table_reaches_back_to_gcc_3_4_and_clang_3_2_and_follows_xcode():
    names = [r.compiler for r in upstream.releases()]
    assert names[0] == "gcc-3.4" and "gcc-8" in names and "gcc-9" not in names
    assert "clang-3.2" in names and "clang-8" in names and "clang-10" in names
    assert "clang-16" not in names                        # Debian serves it
    apple = [r for r in upstream.releases() if r.compiler.startswith("apple-clang")]
    assert apple[0].release == "Xcode 10.0" and all(r.url.startswith("https://github.com/apple/")
                                                    for r in apple)
    for r in upstream.releases():
        assert r.url.startswith("https://") and CompilerId.parse(r.compiler)
        if not r.compiler.startswith("apple"):
            assert r.url.endswith((".tar.gz", ".tar.xz", ".tar.bz2")) and r.release in r.url


def test_ids_order_and_naming():
    ids = ["clang-16", "apple-clang-10.0", "gcc-12", "clang-3.2", "gcc-4.4", "gcc-9", "clang-3.10"]
    assert sorted(ids, key=sort_key) == ["gcc-4.4", "gcc-9", "gcc-12", "clang-3.2", "clang-3.10",
                                        "clang-16", "apple-clang-10.0"]
    assert str(CompilerId.of("gcc-4.4")) == "gcc-4.4" and CompilerId.of("gcc-4.4").minor == 4
    assert CompilerId.of("apple-clang-10.0").data_family == "clang"
    for bad, words in (("clang-5.0", r"named by its major alone \(clang-5\)"),
                       ("gcc-4", "named with its minor"), ("apple-clang-10", "with its minor")):
        with pytest.raises(BadInput, match=words):
            CompilerId.of(bad)


def test_missing_versions_name_the_command():
    assert upstream.ingest_command("clang-16") == "warnscope flags ingest clang-16"
    assert upstream.ingest_command("gcc-4.8") == (
        "warnscope flags ingest gcc-4.8 --source gcc-4.8.5.tar.gz "
        "(download it from https://ftp.gnu.org/gnu/gcc/gcc-4.8.5/gcc-4.8.5.tar.gz)")
    assert "--source swift-5.0-branch.tar.gz" in upstream.ingest_command("apple-clang-10.0")
    assert "--source <its source tree" in upstream.ingest_command("gcc-3.3")


def test_versions_available_lists_upstream_beside_debian():
    rows = compare.versions([], {}, upstream=upstream.releases())
    by = {r.name: r for r in rows}
    assert by["gcc-4.4"].upstream[0].release == "4.4.7" and not by["gcc-4.4"].ingested
    text = flag_text.versions(rows).splitlines()
    assert text[0].startswith("gcc-3.4") and "upstream 3.4.6 https://ftp.gnu.org/" in text[0]
    assert any(l.startswith("apple-clang-10.0") and "Xcode 10.2" in l for l in text)
