"""Every compiler a user has: by plain name, by path, cross compilers whose programs run
under user-mode emulation, each identified from the binary itself.

Real drivers throughout (the host's gcc-12 and clang-16, Debian's aarch64/armhf cross
gcc-12 and qemu-user, as setup.sh installs them); the bad inputs are small shell scripts
that stand where a compiler should be: one that is none, one that lies about its version,
one that hangs, one that claims a target whose C library is not here.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from analyzer.runtime import identify, named, toolchain
from warnscope.compilers import CompilerId
from warnscope.errors import BadInput, NotInstalled, ToolFailed

ROOT = Path(__file__).resolve().parents[2]
CROSS = "aarch64-linux-gnu-gcc-12"


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """Identities and the registry in a cache of the test's own, and no resolution
    remembered from another test."""
    monkeypatch.setenv("WARNSCOPE_CACHE", str(tmp_path / "cache"))
    toolchain._resolve.cache_clear()
    yield
    toolchain._resolve.cache_clear()


def _asked(driver: str, *args: str) -> str:
    return subprocess.run([driver, *args], capture_output=True, text=True, check=True).stdout.strip()


def test_plain_name_is_the_binary_it_finds(require):
    gcc = require("gcc")
    major = _asked(gcc, "-dumpversion").split(".")[0]
    tc = toolchain.resolve("gcc")
    assert tc.name == f"gcc-{major}" and tc.target == "" and tc.emulator == ()
    assert os.path.realpath(tc.c_driver) == os.path.realpath(shutil.which(f"gcc-{major}"))
    assert toolchain.canonical("cc") == tc.name or shutil.which("cc") is None


def test_a_path_is_identified_by_its_macros(require):
    clang = require("clang-16")
    ident = identify.identify(clang)
    assert ident.family == "clang" and ident.version.startswith("16.")
    assert ident.cxx_driver.endswith("clang++-16")
    assert str(ident.cid) == "clang-16"
    assert toolchain.canonical(clang) == "clang-16"


def test_a_cross_driver_carries_its_target_and_emulator(require):
    driver = require(CROSS)
    require("qemu-aarch64")
    tc = toolchain.resolve(CROSS)
    target = _asked(driver, "-dumpmachine")
    assert tc.name == f"gcc-12@{target}" and tc.target == target
    assert tc.cid == CompilerId("gcc", 12, None, target) and tc.cid.host == CompilerId("gcc", 12)
    assert tc.cxx_driver.endswith("aarch64-linux-gnu-g++-12")
    assert tc.emulator[0].endswith("qemu-aarch64") and tc.emulator[1:] == ("-L", f"/usr/{target}")
    assert tc.objdump().endswith("aarch64-linux-gnu-objdump")
    # the id alone finds the same driver, and a host gcc-12 stays another compiler
    again = toolchain.resolve(f"gcc-12@{target}")
    assert again.identity == tc.identity
    assert toolchain.resolve("gcc-12").identity != tc.identity


def test_identity_is_cached_per_binary(require, tmp_path):
    driver = require(CROSS)
    first = identify.identify(driver)
    cached = list((tmp_path / "cache" / "compilers" / "identity").glob("*.json"))
    assert len(cached) == 1
    assert identify.identify(driver) == first


def test_a_name_registered_where_its_id_has_no_usual_driver(require, tmp_path, monkeypatch):
    """gcc-11 named by its real file while PATH has no gcc-11: the id gcc-11 means that
    binary from then on, until toolchain remove."""
    real = os.path.realpath(require("gcc-11"))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("sh", "as", "ld", "objdump"):
        (bin_dir / tool).symlink_to(shutil.which(tool))
    monkeypatch.setenv("PATH", str(bin_dir))
    tc = toolchain.resolve(real)
    assert tc.name == "gcc-11" and tc.c_driver == real
    assert [e.compiler for e in named.entries()] == ["gcc-11"]
    toolchain._resolve.cache_clear()
    assert toolchain.resolve("gcc-11").c_driver == real
    assert any(e.status == "named" and e.path == real for e in toolchain.listing())
    assert named.remove("gcc-11") and named.entries() == []


# ------------------------------------------------------------------ bad input


def _script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return str(path)


def test_not_a_compiler(tmp_path, fails_on):
    fake = _script(tmp_path, "notcc", "exit 0\n")
    line = fails_on(tmp_path / "w.db", "ub", "run", "--compilers", fake)
    assert "is not GCC nor clang" in line and "notcc" in line


def test_a_script_that_lies_about_its_version(tmp_path, fails_on, require):
    gcc12 = require("gcc-12")
    liar = _script(tmp_path, "gcc", f'case "$1" in --version) echo "gcc (GCC) 14.1.0";; '
                                     f'*) exec {gcc12} "$@";; esac\n')
    line = fails_on(tmp_path / "w.db", "ub", "run", "--compilers", liar)
    assert "14.1.0" in line and "gcc 12." in line and "not trusted" in line


def test_a_compiler_of_version_0_has_an_id_warnscope_reads_back(tmp_path, require):
    """Version macros of 0 make the id gcc-0.0 (GCC before 5 is named with its minor):
    the id printed is one every command takes, naming the same binary."""
    gcc12 = require("gcc-12")
    zero = _script(tmp_path, "gcc", 'case "$*" in\n'
                   "  *-dM*) printf '#define __GNUC__ 0\\n#define __GNUC_MINOR__ 0\\n"
                   "#define __GNUC_PATCHLEVEL__ 0\\n';;\n"
                   '  --version) echo "gcc (GCC) 0.0.0";;\n'
                   f'  *) exec {gcc12} "$@";;\nesac\n')
    tc = toolchain.resolve(zero)
    assert tc.name == "gcc-0.0" and str(CompilerId.parse(tc.name)) == tc.name
    toolchain._resolve.cache_clear()
    assert toolchain.resolve(tc.name).c_driver == zero
    assert any(e.compiler == "gcc-0.0" for e in named.entries())


def test_a_compiler_that_hangs(tmp_path, monkeypatch):
    monkeypatch.setattr(identify, "PROBE_TIMEOUT", 1)
    slow = _script(tmp_path, "slowcc", "sleep 60\n")
    with pytest.raises(ToolFailed) as err:
        identify.identify(slow)
    assert "slowcc" in str(err.value) and "\n" not in str(err.value)


def test_a_name_that_is_nothing(tmp_path, fails_on):
    line = fails_on(tmp_path / "w.db", "ub", "run", "--compilers", str(tmp_path / "nothing" / "gcc"))
    assert "no such file" in line
    line = fails_on(tmp_path / "w.db", "ub", "run", "--compilers", "gcc13")
    assert "unknown compiler id 'gcc13'" in line


def test_two_names_for_one_binary(tmp_path, fails_on, require):
    require("gcc-12")
    line = fails_on(tmp_path / "w.db", "ub", "run", "--compilers", "gcc-12,/usr/bin/gcc-12")
    assert "name one compiler (gcc-12)" in line


def test_a_target_without_its_c_library(tmp_path, fails_on, require):
    """A driver whose target is one qemu-user emulates but whose libraries are not here."""
    gcc12 = require("gcc-12")
    require("qemu-mips64el")
    cross = _script(tmp_path, "mips64el-linux-gnuabi64-gcc-12",
                    f'[ "$1" = -dumpmachine ] && {{ echo mips64el-linux-gnuabi64; exit 0; }}\n'
                    f'exec {gcc12} "$@"\n')
    line = fails_on(tmp_path / "w.db", "ub", "run", "--compilers", cross)
    assert "gcc-12@mips64el-linux-gnuabi64" in line and "no C library" in line


def test_a_cross_compiler_without_qemu(tmp_path, monkeypatch, require):
    require(CROSS)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / CROSS).symlink_to(shutil.which(CROSS))
    monkeypatch.setenv("PATH", str(bin_dir))
    tc = toolchain.resolve(CROSS)
    assert tc.emulator == () and "qemu-aarch64, which is not installed" in tc.cannot_run
    with pytest.raises(NotInstalled):
        identify.emulation(tc.target)


# ------------------------------------------------------------------ the target as a UB axis


def test_int_min_division_diverges_by_target_at_O0(tmp_path, cli_at, require):
    """gcc-12 at -O0: INT_MIN / -1 traps on x86-64 (the handler prints SIGFPE) and prints
    -2147483648 on aarch64: a divergence the report puts on the target, not the optimiser."""
    require("gcc-12")
    require(CROSS)
    require("qemu-aarch64")
    corpus = tmp_path / "corpus" / "int-min-division"
    corpus.mkdir(parents=True)
    for f in (ROOT / "corpus" / "int-min-division").glob("divide.*"):
        shutil.copy(f, corpus / f.name)
    db = tmp_path / "ub.db"
    code, out, err = cli_at(db)("ub", "run", "--corpus", str(corpus.parent), "--compilers",
                                f"gcc,{CROSS}", "--levels", "O0", "--no-sanitizers",
                                "--no-warnings")
    assert code == 0, err
    code, out, err = cli_at(db)("ub", "report", "--case", "int-min-division/divide", "--json")
    assert code == 0, err
    (case,) = json.loads(out)["cases"]
    target = _asked(shutil.which(CROSS), "-dumpmachine")
    (split,) = case["by_target"]
    assert split["compiler"] == "gcc-12" and split["level"] == "-O0"
    assert split["observed"][target]["stdout"] == "-2147483648\n"
    host = next(v for k, v in split["observed"].items() if k != target)
    assert host["stdout"] == "SIGFPE\n"
    assert case["by_level"] == []
    code, out, err = cli_at(db)("ub", "report", "--case", "int-min-division/divide")
    assert f"from the target: gcc-12 -O0: '-2147483648' on {target}" in out
    assert "from the optimiser: nothing" in out
