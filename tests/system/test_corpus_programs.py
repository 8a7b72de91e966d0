"""The UB corpus: every program behaves as its metadata says at -O0 (programs without UB --
controls and the cases' fixed twins -- at -O2 too; twins also clean under ASan and UBSan).
On the other targets (Debian's cross gcc-12, programs run under qemu-user) every program
with a per-target output (``NAME.ARCH.output``) prints it at -O0, and every fixed twin
prints its one output on every target.

These tests compile and run every corpus program with real compilers (gcc-12 and clang-16),
directly and not through the runner or its sandbox, so they test the corpus alone: a
program that misbehaves here is a wrong program, not a runner bug. Compilers are found
through analyzer.runtime.toolchain like everywhere else; programs and their metadata are read by
analyzer.ub.corpus (tests/unit/test_corpus_metadata.py checks the metadata is complete).
Binaries go to a temporary directory. Missing compilers skip the tests, never fail them.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from analyzer.runtime import toolchain
from analyzer.ub.corpus import (SOURCE_SUFFIXES, Case, bundled_corpus, discover, load_case,
                                target_arch)

CORPUS = bundled_corpus()
RUN_TIMEOUT = 5
COMPILERS = {"gcc": "gcc-12", "clang": "clang-16"}


def programs() -> list[Path]:
    """The corpus's source files, each one test (a bad program fails only its own)."""
    return sorted(p for p in CORPUS.rglob("*") if p.suffix in SOURCE_SUFFIXES and p.is_file())


def case_id(path: Path) -> str:
    return path.relative_to(CORPUS).with_suffix("").as_posix()


def compiler_for(family: str, case: Case) -> str:
    return toolchain.resolve(COMPILERS[family]).driver(case.language)


class CompileError(Exception):
    pass


#: what the programs see: no sanitizer options or malloc perturbation inherited from the
#: test runner (meson sets abort-on-error sanitizer options for the tests it runs)
PROGRAM_ENV = {k: v for k, v in os.environ.items()
               if not k.endswith("SAN_OPTIONS") and k != "MALLOC_PERTURB_"}


def compile_and_run(case: Case, family: str, opt: str, outdir, extra=(), timeout=RUN_TIMEOUT):
    """Compile one program; return (returncode, stdout, stderr) of its run, or None on timeout.

    A failed compile returns a CompileError instead, so one bad program fails only its own test.
    """
    compiler = compiler_for(family, case)
    exe = Path(outdir) / f"{case.id.replace('/', '__')}-{family}-{opt}{'-'.join(extra)}"
    cmd = [compiler, f"-std={case.std}", opt, "-w", *extra, str(case.path), "-o", str(exe), *case.link]
    built = subprocess.run(cmd, capture_output=True, text=True)
    if built.returncode != 0:
        return CompileError(f"{' '.join(cmd)} failed:\n{built.stderr}")
    try:
        run = subprocess.run([str(exe), *case.args], capture_output=True,
                             timeout=timeout, cwd=outdir, stdin=subprocess.DEVNULL,
                             env=PROGRAM_ENV)
    except subprocess.TimeoutExpired:
        return None
    return run.returncode, run.stdout, run.stderr


def have(*names):
    return toolchain.installed(list(names)) == list(names)


needs_compilers = pytest.mark.skipif(not have(*COMPILERS.values()),
                                     reason="needs gcc-12 and clang-16")


# --- behaviour at -O0 (and -O2 for controls) ------------------------------------------------

@pytest.fixture(scope="module")
def runs():
    """Build and run every program once per compiler at -O0, controls also at -O2."""
    outdir = tempfile.mkdtemp(prefix="warnscope-corpus-")
    jobs = []
    for case in discover(CORPUS):
        opts = ["-O0", "-O2"] if case.ub is False else ["-O0"]
        jobs += [(case, family, opt) for family in COMPILERS for opt in opts]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda job: compile_and_run(*job, outdir), jobs))
    yield {(case.id, family, opt): r for (case, family, opt), r in zip(jobs, results)}
    shutil.rmtree(outdir, ignore_errors=True)


@needs_compilers
@pytest.mark.parametrize("path", programs(), ids=case_id)
def test_runs_as_expected_without_optimisation(path, runs):
    case = load_case(CORPUS, path)
    for family in COMPILERS:
        result = runs[(case.id, family, "-O0")]
        assert not isinstance(result, CompileError), str(result)
    if case.o0_exploited:   # the metadata's claim, held: some compiler exploits it at -O0
        assert any(_exploited(runs[(case.id, family, "-O0")], case) for family in COMPILERS), \
            f"metadata says even -O0 exploits this UB, but no -O0 build does: {case.note}"
        return
    opts = ["-O0", "-O2"] if case.ub is False else ["-O0"]
    for family in COMPILERS:
        for opt in opts:
            result = runs[(case.id, family, opt)]
            where = f"{compiler_for(family, case)} {opt}"
            assert not isinstance(result, CompileError), str(result)
            assert result is not None, f"{where}: timed out"
            code, out, err = result
            assert out in case.expected, f"{where}: unexpected stdout {out!r} (stderr {err[-300:]!r})"
            assert code == case.exit, f"{where}: exit status {code}"


def _exploited(result, case) -> bool:
    """A run that is not the unexploited behaviour ``case`` expects: a hang, another output
    or another exit status."""
    return result is None or result[1] not in case.expected or result[0] != case.exit


# --- other targets: per-target outputs hold, twins print the same everywhere -----------------

CROSS = ("gcc-12@aarch64-linux-gnu", "gcc-12@arm-linux-gnueabihf", "gcc-12@riscv64-linux-gnu")
needs_cross = pytest.mark.skipif(not have(*CROSS),
                                 reason="needs Debian's cross gcc-12 for aarch64, armhf, riscv64 "
                                        "and qemu-user")
#: runs on a target whose stdout no expected output can hold (corpus/README.md, "What differs
#: by target"): not held to one, but still built and run
UNSTABLE = {("format-mismatch/swapped-arguments", "arm"): "%d prints the format string's address"}


def target_dependent() -> list[Path]:
    """The programs whose plain output depends on the target (they have a
    ``NAME.ARCH.output``), and every fixed twin (which must not depend on it)."""
    cases = {c.path: c for c in discover(CORPUS)}
    return [p for p in programs() if cases[p].expected_by_arch or cases[p].is_twin]


def cross_compile_and_run(case: Case, compiler: str, outdir):
    """Build with a cross compiler at -O0 and run under its emulator, as compile_and_run
    does on the host: (returncode, stdout, stderr), None on timeout, or a CompileError."""
    tc = toolchain.resolve(compiler)
    exe = Path(outdir) / f"{case.id.replace('/', '__')}-{tc.target}"
    cmd = [tc.driver(case.language), f"-std={case.std}", "-O0", "-w", str(case.path),
           "-o", str(exe), *case.link]
    built = subprocess.run(cmd, capture_output=True, text=True)
    if built.returncode != 0:
        return CompileError(f"{' '.join(cmd)} failed:\n{built.stderr}")
    try:
        run = subprocess.run([*tc.emulator, str(exe), *case.args], capture_output=True,
                             timeout=RUN_TIMEOUT * 2, cwd=outdir, stdin=subprocess.DEVNULL,
                             env=PROGRAM_ENV)
    except subprocess.TimeoutExpired:
        return None
    return run.returncode, run.stdout, run.stderr


@pytest.fixture(scope="module")
def cross_runs():
    """Every target-dependent program and twin built by each cross gcc-12 at -O0, and run."""
    outdir = tempfile.mkdtemp(prefix="warnscope-cross-")
    jobs = [(load_case(CORPUS, path), compiler) for path in target_dependent() for compiler in CROSS]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda job: cross_compile_and_run(*job, outdir), jobs))
    yield {(case.id, compiler): r for (case, compiler), r in zip(jobs, results)}
    shutil.rmtree(outdir, ignore_errors=True)


@needs_cross
@pytest.mark.parametrize("path", target_dependent(), ids=case_id)
def test_runs_as_expected_on_other_targets(path, cross_runs):
    """A plain -O0 run on each target prints that target's expected output
    (``Case.expected_on``): its ``NAME.ARCH.output`` where it has one, else the plain one."""
    case = load_case(CORPUS, path)
    for compiler in CROSS:
        result = cross_runs[(case.id, compiler)]
        target = toolchain.resolve(compiler).target
        assert not isinstance(result, CompileError), str(result)
        assert result is not None, f"{compiler} -O0: timed out"
        code, out, err = result
        if (case.id, target_arch(target)) in UNSTABLE:
            continue
        assert out in case.expected_on(target), \
            f"{compiler} -O0: unexpected stdout {out!r} (stderr {err[-300:]!r})"
        assert code == case.exit, f"{compiler} -O0: exit status {code}"


# --- fixed twins: clean under ASan and UBSan -------------------------------------------------

SANITIZE = ("-fsanitize=address,undefined", "-fno-sanitize-recover=all")


def twins() -> list[Path]:
    return [p for p in programs() if ".fixed." in p.name]


@pytest.fixture(scope="module")
def sanitized_runs():
    """Every fixed twin built at -O0 with ASan and UBSan by each compiler, and run."""
    outdir = tempfile.mkdtemp(prefix="warnscope-twins-")
    jobs = [(load_case(CORPUS, path), family) for path in twins() for family in COMPILERS]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda job: compile_and_run(job[0], job[1], "-O0", outdir,
                                                            extra=SANITIZE), jobs))
    yield {(case.id, family): r for (case, family), r in zip(jobs, results)}
    shutil.rmtree(outdir, ignore_errors=True)


@needs_compilers
@pytest.mark.parametrize("path", twins(), ids=case_id)
def test_twin_is_clean_under_sanitizers(path, sanitized_runs):
    """A twin is the case without its UB: ASan and UBSan say nothing and it exits as its
    metadata says (its stdout at -O0 and -O2 is held to its expected output above; under
    ASan a freed block is not reused at once, so an address comparison may differ)."""
    case = load_case(CORPUS, path)
    for family in COMPILERS:
        result = sanitized_runs[(case.id, family)]
        where = f"{compiler_for(family, case)} -O0 {' '.join(SANITIZE)}"
        assert not isinstance(result, CompileError), str(result)
        assert result is not None, f"{where}: timed out"
        code, out, err = result
        assert b"runtime error" not in err and b"Sanitizer" not in err, f"{where}: {err[-600:]!r}"
        assert code == case.exit, f"{where}: exit status {code}"


# --- the classic loop case -------------------------------------------------------------------

@pytest.fixture(scope="module")
def loop() -> Case:
    return load_case(CORPUS, CORPUS / "signed-integer-overflow" / "loop.c")


@pytest.mark.skipif(not have("gcc-12"), reason="needs gcc-12")
def test_loop_hangs_with_gcc_O2(tmp_path, loop):
    assert compile_and_run(loop, "gcc", "-O2", tmp_path, timeout=3) is None


@pytest.mark.skipif(not have("clang-16"), reason="needs clang-16")
def test_loop_prints_nothing_with_clang_O2(tmp_path, loop):
    result = compile_and_run(loop, "clang", "-O2", tmp_path, timeout=3)
    assert result is not None and not isinstance(result, CompileError)
    assert b"3" not in result[1]


@pytest.mark.skipif(not have("gcc-12"), reason="needs gcc-12")
def test_loop_is_caught_by_ubsan(tmp_path, loop):
    result = compile_and_run(loop, "gcc", "-O0", tmp_path,
                             extra=("-fsanitize=undefined",))
    assert result is not None and not isinstance(result, CompileError)
    assert b"signed integer overflow" in result[2]
    assert result[1] == b"3\n"
