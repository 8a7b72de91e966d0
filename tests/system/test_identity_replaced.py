"""A binary's identity is not fooled by a copied modification time: a compiler named by
path or by id, replaced by another executable of the same size whose mtime is put back
(``touch -d``), is probed again and is another compiler (its version, its Toolchain
identity, which keys the UB compile cache and the upgrade's stored builds)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from analyzer.runtime import identify, toolchain

#: a compiler as identify asks it: macros, target, banner (VERSION and MARK of equal length)
SCRIPT = """#!/bin/sh
case "$1" in
  -dM) printf '#define __GNUC__ 7\\n#define __GNUC_MINOR__ {minor}\\n#define __GNUC_PATCHLEVEL__ 0\\n#define MARK {mark}\\n';;
  -dumpmachine) echo {target};;
  --version) echo "gcc (Fake) 7.{minor}.0";;
esac
"""


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    """A cache of the test's own: the compiler registered under gcc-7 stays in it."""
    monkeypatch.setenv("WARNSCOPE_CACHE", str(tmp_path / "cache"))
    toolchain._resolve.cache_clear()
    yield
    toolchain._resolve.cache_clear()


def _write(path: Path, minor: int, mark: str) -> None:
    path.write_text(SCRIPT.format(minor=minor, mark=mark, target=f"{os.uname().machine}-linux-gnu"))
    path.chmod(0o755)


def _replace_keeping_mtime(path: Path, minor: int, mark: str, in_place: bool) -> None:
    """``path`` replaced by another script of the same size, its times put back as they were
    (moved over it, as an install does; or written in place, as ``cp`` does)."""
    st = path.stat()
    if in_place:
        _write(path, minor, mark)
    else:
        other = path.with_name(path.name + ".new")
        _write(other, minor, mark)
        os.replace(other, path)
    assert path.stat().st_size == st.st_size
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_mtime_ns == st.st_mtime_ns


@pytest.mark.parametrize("in_place", [False, True], ids=["moved-over", "written-in-place"])
def test_a_replaced_binary_with_its_mtime_restored_is_probed_again(tmp_path, own_cache, in_place):
    cc = tmp_path / "bin" / "fakecc"
    cc.parent.mkdir()
    _write(cc, 1, "aaaa")
    first = identify.identify(str(cc))
    assert first.version == "7.1.0"
    assert identify.identify(str(cc)) == first            # cached: the same answer
    _replace_keeping_mtime(cc, 2, "aaaa", in_place)
    assert identify.identify(str(cc)).version == "7.2.0"


@pytest.mark.parametrize("in_place", [False, True], ids=["moved-over", "written-in-place"])
def test_a_replaced_binary_under_the_same_banner_is_another_toolchain(tmp_path, own_cache, in_place):
    """The same version and banner, another binary (its macros differ): the Toolchain
    identity, which the UB compile cache is keyed by, changes."""
    cc = tmp_path / "bin" / "fakecc"
    cc.parent.mkdir()
    _write(cc, 1, "aaaa")
    before = toolchain.resolve(str(cc))
    assert (before.name, before.version) == ("gcc-7", "gcc (Fake) 7.1.0")
    toolchain._resolve.cache_clear()
    assert toolchain.resolve(str(cc)).identity == before.identity    # nothing changed: the same
    _replace_keeping_mtime(cc, 1, "bbbb", in_place)
    toolchain._resolve.cache_clear()
    after = toolchain.resolve(str(cc))
    assert after.version == before.version and after.identity != before.identity


@pytest.mark.parametrize("in_place", [False, True], ids=["moved-over", "written-in-place"])
def test_a_compiler_named_by_id_replaced_under_the_same_banner_is_another_toolchain(
        tmp_path, own_cache, monkeypatch, in_place):
    """A compiler named by its id (``gcc-77``, found on PATH by Debian's names) is keyed by
    its drivers' files too, not only by their paths and ``--version`` text."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    cc, cxx = bin_dir / "gcc-77", bin_dir / "g++-77"
    _write(cc, 1, "aaaa")
    _write(cxx, 1, "aaaa")
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    before = toolchain.resolve("gcc-77")
    assert (before.c_driver, before.version) == (str(cc), "gcc (Fake) 7.1.0")
    toolchain._resolve.cache_clear()
    assert toolchain.resolve("gcc-77").identity == before.identity    # nothing changed: the same
    _replace_keeping_mtime(cc, 1, "bbbb", in_place)
    toolchain._resolve.cache_clear()
    after = toolchain.resolve("gcc-77")
    assert after.version == before.version and after.identity != before.identity
