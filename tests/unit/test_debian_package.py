"""A Debian package as a project, the parts that need no download, root or build: its
name and suite, the compiler names its build may call, and which directories on the
way to the build's box its root hides or makes (``analyzer.projects.debian``). The
build itself is ``tests/system/test_debian_packages.py``."""
from __future__ import annotations

import os

import pytest

from warnscope.errors import BadInput

from analyzer.projects import debian, recipes


def test_a_package_is_named_with_its_suite_or_the_newest_release():
    assert debian.parse("debian:sl/trixie") == ("sl", "trixie")
    assert debian.parse("debian:libxml2") == ("libxml2", "trixie")
    assert debian.parse("debian:g++-14/sid") == ("g++-14", "sid")


@pytest.mark.parametrize("spec, said", [
    ("debian:../etc/passwd", "is not a Debian source package name"),
    ("debian:sl/jessie", "unknown suite 'jessie'"),
    ("debian:Sl", "is not a Debian source package name"),
    ("debian:sl;rm", "is not a Debian source package name"),
])
def test_a_bad_name_or_suite_is_one_line_before_any_download(spec, said):
    with pytest.raises(BadInput, match=said):
        recipes.get(spec)


def test_every_name_of_the_compiler_under_test_is_its_wrapper():
    names = debian.compiler_names("gcc", 14)
    assert {n for n, lang in names.items() if lang == "c"} == {
        "cc", "gcc", "x86_64-linux-gnu-gcc", "gcc-14", "x86_64-linux-gnu-gcc-14"}
    assert {n for n, lang in names.items() if lang == "c++"} == {
        "c++", "g++", "x86_64-linux-gnu-g++", "g++-14", "x86_64-linux-gnu-g++-14"}
    # clang under test: the names a build calls GCC by reach clang too
    clang = debian.compiler_names("clang", 18)
    assert clang["gcc"] == "c" and clang["clang-18"] == "c" and clang["g++"] == "c++"
    assert "gcc-14" not in clang


def test_the_way_to_the_box_is_made_traversable_in_the_root(tmp_path):
    lower = tmp_path / "root"
    (lower / "root").mkdir(parents=True, mode=0o700)   # root's home: the uid cannot enter
    os.chmod(lower / "root", 0o700)
    (lower / "usr" / "share").mkdir(parents=True)
    (lower / "var").symlink_to("usr")                    # followed inside the root
    seen: dict[str, bool] = {}
    words = debian._ancestors(lower, "/root/.cache/w/box", seen)
    assert words == ["--perms", "0755", "--tmpfs", "/root",
                     "--perms", "0755", "--dir", "/root/.cache",
                     "--perms", "0755", "--dir", "/root/.cache/w"]
    # a second bind below the same directories adds only what is new
    assert debian._ancestors(lower, "/root/.cache/w/init/x", seen) == [
        "--perms", "0755", "--dir", "/root/.cache/w/init"]
    # a directory the uid can enter stays as the root has it
    assert debian._ancestors(lower, "/var/share/wrappers", {}) == []


def test_a_build_that_reached_for_the_network_is_told_by_its_log():
    log = ("dh_auto_build\n"
           "curl: (6) Could not resolve host: example.org\n"
           "make: *** [Makefile:3: all] Error 6\n")
    assert debian.reached_network(log) == "curl: (6) Could not resolve host: example.org"
    assert debian.reached_network("sl.c:1:1: error: expected ';'\n") is None
    assert debian.reached_network("fetch.c:9: getaddrinfo failed: Name has no usable address\n") \
        == "fetch.c:9: getaddrinfo failed: Name has no usable address"


def test_a_function_of_the_network_named_in_a_failed_log_is_no_reach_for_it():
    # opendkim 2.11.0~beta2-8+deb12u1's configure, in a build that failed for its own reasons
    log = ("checking for library containing getaddrinfo... none required\n"
           "checking for getaddrinfo... yes\n"
           "rbl.c:336:20: error: passing argument 1 of '__res_nclose' from incompatible pointer type\n"
           "make: *** [Makefile:3: all] Error 2\n")
    assert debian.reached_network(log) is None
