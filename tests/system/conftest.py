"""Fixtures of the system tests alone (those both suites share are in tests/conftest.py).

The toolchain roots. A compiler the host cannot install runs from a Debian root
(:mod:`analyzer.runtime.roots`), and a test of a root compiler needs one prepared. The
suite prepares what it needs itself, as a user would (``warnscope toolchain add``), the
first time a test asks, and reuses it after: on a fresh machine the root tests run too,
so a regression in roots cannot reach main unseen.

* ``zoo_root``: the trixie root with gcc-13, gcc-14 and clang-18: two GCCs of one system
  (the upgrade report's GCC 14 pair) and one clang (about 5 minutes and 1.6 GB from an
  empty cache);
* ``bullseye_root``: the bullseye root with gcc-10 and clang-11 (``test_zoo_verify.py``
  verifies their flag data against them);
* ``sid_root``: the sid root with gcc-14 and gcc-15 (the upgrade report's C23 pair);
* ``root_toolchain(name)``: a compiler, on the host or in a root; one of the roots above
  prepares its root first, any other runs from a cached root that holds it; where none
  does, preparing its root is the slow opt-in ``WARNSCOPE_ZOO_ALL=1`` (the whole zoo: four
  suites, about 20 minutes and 6 GB from nothing), and without it the test is skipped,
  saying so;
* ``clang_tool(major, name)``: the command of clang ``major``'s program ``name``
  (``clang-15``, ``diagtool-15``), on the host or in its root, as ``root_toolchain`` finds it.

Preparing a root needs root, debootstrap, bubblewrap and Debian's mirror: without one of
them the tests that need it are skipped, saying which. A preparation that fails otherwise
fails those tests (it is what the tests are for).
"""
from __future__ import annotations

import contextlib
import os
import shutil
import sys
import time
from typing import Callable

import pytest

from analyzer.runtime import roots, toolchain
from warnscope.compilers import CompilerId
from warnscope.errors import NetworkUnreachable, WarnscopeError

#: the roots the suite prepares itself: suite -> its compilers
SUITE_ROOTS = {"trixie": ("gcc-13", "gcc-14", "clang-18"), "bullseye": ("gcc-10", "clang-11"),
               "sid": ("gcc-14", "gcc-15")}
#: the fixture of each suite's root
ROOT_FIXTURES = {"trixie": "zoo_root", "bullseye": "bullseye_root", "sid": "sid_root"}


def _prepare(config, suite: str, compilers: tuple[str, ...]) -> roots.Root:
    """The ``suite`` root holding ``compilers``: the cached one, else prepared now as
    ``warnscope toolchain add --suite SUITE COMPILERS`` prepares it, said on the terminal
    with the time it took."""
    root = roots.load(suite)
    missing = [c for c in compilers if root is None or c not in root.compilers]
    if not missing:
        return root
    if os.geteuid() != 0:
        pytest.skip(f"the {suite} root ({' '.join(missing)}) is not prepared, and preparing "
                    "a Debian root needs root")
    if shutil.which("debootstrap") is None or shutil.which("bwrap") is None:
        pytest.skip(f"the {suite} root ({' '.join(missing)}) is not prepared, and preparing "
                    "it needs debootstrap and bubblewrap (setup.sh installs them)")
    say = _terminal(config)
    say(f"preparing the {suite} root in {roots.roots_dir()}: toolchain add --suite {suite} "
        f"{' '.join(missing)} (from nothing about 5 minutes and 1.5 GB, once)")
    start = time.monotonic()
    try:
        for name in missing:
            root = roots.add(CompilerId.of(name), suite, progress=lambda m: say(f"  {m}"))
    except NetworkUnreachable as exc:
        pytest.skip(f"the {suite} root cannot be prepared: {exc}")
    except WarnscopeError as exc:
        pytest.fail(f"preparing the {suite} root ({' '.join(missing)}) failed after "
                    f"{time.monotonic() - start:.0f} s: {exc}", pytrace=False)
    say(f"the {suite} root is prepared ({' '.join(missing)}): {time.monotonic() - start:.0f} s "
        f"wall, {root.size_bytes / 2**30:.1f} GB")
    return root


def _terminal(config) -> Callable[[str], None]:
    """A line on the terminal, past pytest's capture (a wait of minutes says why)."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    capture = config.pluginmanager.get_plugin("capturemanager")

    def say(line: str) -> None:
        with capture.global_and_fixture_disabled() if capture else contextlib.nullcontext():
            if reporter is None:
                print(f"[roots] {line}", file=sys.stderr, flush=True)
            else:
                reporter.write_line(f"[roots] {line}")
    return say


@pytest.fixture(scope="session")
def zoo_root(pytestconfig) -> roots.Root:
    """The trixie root with gcc-13, gcc-14 and clang-18 (prepared now if the cache lacks one)."""
    return _prepare(pytestconfig, "trixie", SUITE_ROOTS["trixie"])


@pytest.fixture(scope="session")
def bullseye_root(pytestconfig) -> roots.Root:
    """The bullseye root with gcc-10 and clang-11 (prepared now if the cache has not both)."""
    return _prepare(pytestconfig, "bullseye", SUITE_ROOTS["bullseye"])


@pytest.fixture(scope="session")
def sid_root(pytestconfig) -> roots.Root:
    """The sid root with gcc-14 and gcc-15: GCC 15's C23 default against GCC 14, one
    system (prepared now if the cache lacks one)."""
    return _prepare(pytestconfig, "sid", SUITE_ROOTS["sid"])


@pytest.fixture
def root_toolchain(request) -> Callable[[str], toolchain.Toolchain]:
    """``root_toolchain(name)``: the compiler on the host or in a root. For a compiler of
    :data:`SUITE_ROOTS` the host does not have, its root is prepared first (a failure
    fails the test); any other compiler no root holds skips the test."""
    def get(name: str) -> toolchain.Toolchain:
        suite = next((s for s, names in SUITE_ROOTS.items() if name in names), None)
        if suite is not None and shutil.which(name) is None:
            request.getfixturevalue(ROOT_FIXTURES[suite])
        try:
            return toolchain.resolve(name)
        except WarnscopeError as exc:
            if os.environ.get("WARNSCOPE_ZOO_ALL") != "1":
                pytest.skip(f"{name}: {exc} (the suite prepares "
                            f"{', '.join(n for names in SUITE_ROOTS.values() for n in names)}; "
                            "any other root is the slow opt-in WARNSCOPE_ZOO_ALL=1)")
        cid = CompilerId.of(name)
        _prepare(request.config, roots.choose_suite(cid), (name,))
        return toolchain.resolve(name)
    return get


@pytest.fixture
def clang_tool(root_toolchain) -> Callable[[int, str], list[str]]:
    """``clang_tool(major, name)``: the command that runs ``name`` (``clang-15``,
    ``diagtool-15``) of clang ``major``: from PATH, or inside the root holding it (see
    ``root_toolchain``); skips the test when that clang has no such program."""
    def get(major: int, name: str) -> list[str]:
        tc = root_toolchain(f"clang-{major}")
        path = tc.tool(name)
        if path is None:
            pytest.skip(f"{name} is not installed beside {tc.name}")
        return tc.wrap([path])
    return get
