"""Host compilers stay host compilers when roots exist; a compiler in neither says how
to add it. Needs no root and no network (it only resolves ids)."""
from __future__ import annotations

import shutil

import pytest

from analyzer.runtime import roots, toolchain
from warnscope.compilers import CompilerId


@pytest.mark.skipif(shutil.which("gcc-12") is None, reason="needs gcc-12")
def test_host_compilers_stay_host_compilers_and_a_missing_one_says_how_to_add_it(
        monkeypatch, tmp_path):
    """The host's compiler wins over a root's; one in neither names ``toolchain add``
    (asked with an empty roots directory: the shared cache may hold gcc-9)."""
    host = toolchain.resolve("gcc-12")
    assert host.root is None and host.suite is None and host.where == "host"
    assert host.wrap([host.c_driver, "--version"]) == [host.c_driver, "--version"]
    if shutil.which("gcc-9"):
        pytest.skip("gcc-9 is installed on this host")
    monkeypatch.setenv("WARNSCOPE_ROOTS", str(tmp_path))
    toolchain._resolve.cache_clear()  # a gcc-9 resolved earlier from the shared cache
    assert roots.find(CompilerId("gcc", 9)) is None
    with pytest.raises(toolchain.NotInstalled, match="toolchain add gcc-9"):
        toolchain.resolve("gcc-9")
