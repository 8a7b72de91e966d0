"""Which Debian suite a compiler comes from, and how a root is entered (no root built)."""
from __future__ import annotations

import pytest

from analyzer.runtime import roots
from analyzer.runtime.toolchain import Toolchain
from warnscope import apt
from warnscope.errors import WarnscopeError
from warnscope.compilers import CompilerId


@pytest.mark.parametrize("name, suite", [
    ("gcc-9", "bullseye"), ("gcc-10", "bullseye"), ("gcc-12", "bookworm"),
    ("gcc-13", "trixie"), ("gcc-14", "trixie"),          # in sid too: the release wins
    ("gcc-15", "sid"), ("gcc-16", "sid"),                 # no release has them
    ("clang-13", "bookworm"), ("clang-19", "bookworm"),  # the host's suite first
    ("clang-11", "bullseye"), ("clang-22", "trixie"), ("clang-23", "sid"),
])
def test_host_suite_else_newest_release_that_packages_it(name, suite, monkeypatch):
    monkeypatch.setattr(apt, "HOST_SUITE", "bookworm")
    assert roots.choose_suite(CompilerId.parse(name)) == suite


def test_without_a_debian_host_the_newest_release(monkeypatch):
    monkeypatch.setattr(apt, "HOST_SUITE", None)
    assert roots.choose_suite(CompilerId.parse("clang-19")) == "trixie"
    assert roots.choose_suite(CompilerId.parse("clang-13")) == "bookworm"


@pytest.mark.parametrize("name, suite, words", [
    ("gcc-8", None, ["does not package gcc-8", "bullseye gcc-9/10"]),
    ("clang-10", None, ["clang-10", "sid"]),
    ("gcc-14", "bullseye", ["bullseye does not package gcc-14", "trixie, sid"]),
    ("gcc-14", "potato", ["unknown suite"]),
])
def test_what_debian_does_not_have_is_one_message(name, suite, words):
    with pytest.raises(WarnscopeError) as err:
        roots.choose_suite(CompilerId.parse(name), suite)
    assert "\n" not in str(err.value)
    for w in words:
        assert w in str(err.value)


def test_packages_bring_runtime_sanitizers_plugin_headers_and_tools():
    assert set(roots.packages_for(CompilerId("gcc", 14))) >= {
        "gcc-14", "g++-14", "gcc-14-plugin-dev", "libc6-dev"}
    assert set(roots.packages_for(CompilerId("clang", 18))) >= {
        "clang-18", "clang-tools-18", "libclang-rt-18-dev", "libc6-dev"}


def test_wrap_runs_host_tools_as_they_are_and_root_tools_in_bubblewrap(tmp_path):
    (tmp_path / "usr").mkdir()
    (tmp_path / "bin").symlink_to("usr/bin")
    host = Toolchain("gcc-12", "gcc", 12, "/usr/bin/gcc-12", "/usr/bin/g++-12", "v", "x")
    assert host.wrap(["gcc-12", "-v"]) == ["gcc-12", "-v"]
    zoo = Toolchain("gcc-14", "gcc", 14, "/usr/bin/gcc-14", "/usr/bin/g++-14", "v", "y",
                    root=str(tmp_path), suite="trixie", package="14.2.0-19")
    try:
        argv = zoo.wrap(["/usr/bin/gcc-14", "-v"], binds=("/srv/out",), cwd="/srv/out")
    except WarnscopeError:
        pytest.skip("bubblewrap is not installed")
    assert argv[-3:] == ["--", "/usr/bin/gcc-14", "-v"]
    assert ["--ro-bind", f"{tmp_path}/usr", "/usr"] == argv[argv.index(f"{tmp_path}/usr") - 1:][:3]
    assert ["--symlink", "usr/bin", "/bin"] == argv[argv.index("usr/bin") - 1:][:3]
    assert ["--bind", "/srv/out", "/srv/out"] == argv[argv.index("--bind"):][:3]
    assert zoo.where == "trixie root (14.2.0-19)" and host.where == "host"


def test_a_path_resolved_inside_a_root_follows_its_links_there(tmp_path):
    """The loader a root's executable names, found as the root sees it: Debian's
    /lib64/ld-linux-x86-64.so.2 links relatively (sid) or absolutely (older roots), and
    an absolute target is the root's own, never the host's."""
    from analyzer.runtime.roots import resolve_inside
    libs = tmp_path / "usr" / "lib" / "x86_64-linux-gnu"
    libs.mkdir(parents=True)
    (libs / "ld-2.31.so").touch()
    (tmp_path / "lib").symlink_to("usr/lib")
    (tmp_path / "lib64").mkdir()
    (tmp_path / "lib64" / "ld-linux-x86-64.so.2").symlink_to("/lib/x86_64-linux-gnu/ld-2.31.so")
    assert resolve_inside(tmp_path, "/lib64/ld-linux-x86-64.so.2") == libs / "ld-2.31.so"
    (tmp_path / "lib64" / "rel").symlink_to("../lib/x86_64-linux-gnu/ld-2.31.so")
    assert resolve_inside(tmp_path, "/lib64/rel") == libs / "ld-2.31.so"
    (tmp_path / "loop").symlink_to("/loop")
    with pytest.raises(OSError):
        resolve_inside(tmp_path, "/loop")
