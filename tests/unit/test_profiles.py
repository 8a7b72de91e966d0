"""The profiles (:mod:`warnscope.profiles`): what every family asks of a compiler, declared
once, so the variants (Apple's clang, Android's GCC) and the targets are answered alike
everywhere. Before, ``levels.flags`` asked ``family == "clang"`` and ``levels.needs_data``
asked ``family != "gcc"``: for Apple's clang the one went to GCC's flag data and the other
said no data was needed; for Android's GCC the reverse."""
from __future__ import annotations

import sqlite3

import pytest

from warnscope.errors import NotInstalled

from analyzer.projects import levels
from analyzer.runtime.toolchain import Toolchain
from analyzer.warnings import formats
from warnscope import profiles
from warnscope.compilers import FAMILIES, CompilerId
from warnscope.profiles import Diagnostics, RunOn


def _tc(name: str) -> Toolchain:
    cid = CompilerId.parse(name)
    return Toolchain(name=name, family=cid.family, major=cid.major, c_driver="", cxx_driver="",
                     version="", identity="", target=cid.target)


@pytest.mark.parametrize("name", ["clang-16", "apple-clang-15.0"])
def test_a_clang_of_any_vendor_takes_weverything_and_no_flag_data(name):
    tc = _tc(name)
    assert not levels.needs_data(tc, "all", {})
    conn = sqlite3.connect(":memory:")   # empty: a read of flag data would fail
    assert levels.flags(conn, tc, "all", ("c", "c++"), {}) == {"c": ["-Weverything"],
                                                                "c++": ["-Weverything"]}


@pytest.mark.parametrize("name", ["gcc-12", "android-gcc-4.9", "gcc-12@aarch64-linux-gnu"])
def test_a_gcc_of_any_vendor_or_target_reads_its_all_level_from_flag_data(name):
    assert levels.needs_data(_tc(name), "all", {})
    assert not levels.needs_data(_tc(name), "default", {})


def test_every_family_has_one_profile_and_its_variants_vary_a_base():
    assert tuple(profiles.PROFILES) == FAMILIES
    for family, p in profiles.PROFILES.items():
        assert p.family == family and CompilerId.parse(f"{family}-10.0" if p.minor_before == 0
                                                       else f"{family}-12").profile is p
        if p.is_variant:
            base = profiles.profile(p.variant_of)
            assert not base.is_variant and base.frontend is p.frontend and p.vendor
    assert profiles.APPLE_CLANG.cmake_id == "AppleClang" and profiles.CLANG.cmake_id == "Clang"


@pytest.mark.parametrize("name, fmt", [("gcc-12", Diagnostics.GCC_JSON),
                                       ("gcc-15", Diagnostics.GCC_JSON),
                                       ("gcc-16", Diagnostics.SARIF),
                                       ("android-gcc-4.9", Diagnostics.GCC_JSON),
                                       ("clang-16", Diagnostics.CLANG_TEXT)])
def test_the_diagnostics_format_is_the_profiles_for_every_family(name, fmt):
    tc = _tc(name)
    assert tc.profile.diagnostics(tc.major) is fmt
    assert formats.for_toolchain(tc).name == fmt.value
    assert list(formats.for_toolchain(tc).flags[:1]) == list(tc.profile.diagnostics_option(tc.major)) \
        or fmt is Diagnostics.CLANG_TEXT


@pytest.mark.parametrize("triple, how", [("", RunOn.NATIVE),
                                         ("aarch64-linux-gnu", RunOn.QEMU_USER),
                                         ("riscv64-linux-gnu", RunOn.QEMU_USER),
                                         ("wasm32-wasi", RunOn.WASM_RUNTIME),
                                         ("wasm32-unknown-wasi", RunOn.WASM_RUNTIME)])
def test_a_target_runs_as_its_profile_says(triple, how):
    assert profiles.target(triple).run_on is how
    name = "clang-16" + (f"@{triple}" if triple else "")
    assert _tc(name).target_profile.run_on is how
    assert CompilerId.parse(name).target_profile.host == (how is RunOn.NATIVE)


def test_a_wasm_target_is_not_sent_to_qemu_and_says_what_runs_it():
    """Its programs run under Wasmtime in the sandbox, never under qemu: no emulator, and
    a reason only where a piece it needs is missing, naming its package; a Linux target
    runs under qemu-user (or says what is missing); the host's natively."""
    from analyzer.runtime.toolchain import _runs_under
    from analyzer.sandbox import wasm
    emulator, why = _runs_under(CompilerId.parse("clang-16@wasm32-unknown-wasi"))
    try:
        wasm.require()
        missing = ""
    except NotInstalled as exc:
        missing = str(exc)
    assert emulator == () and why == missing
    assert _runs_under(CompilerId.parse("gcc-12")) == ((), "")
    emulator, why = _runs_under(CompilerId.parse("gcc-12@aarch64-linux-gnu"))
    assert (emulator and "qemu-aarch64" in emulator[0] and not why) or "qemu" in why
