"""The UB corpus: metadata is complete and every program behaves as its metadata says at -O0.

These tests compile and run every corpus program with real compilers (gcc-12 and clang-16),
directly and not through the runner or its sandbox, so they test the corpus alone: a
program that misbehaves here is a wrong program, not a runner bug. Compilers are found
through analyzer.toolchain like everywhere else. Binaries go to a temporary directory.
Missing compilers skip the tests, they never fail them.
"""

import os
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from analyzer import toolchain

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
REQUIRED = ("category", "standard", "summary", "ub")
OPTIONAL = ("std", "link", "args", "exit", "o0-exploited", "note")
STANDARD_RE = re.compile(r"^(C(99|11|17|23)|C\+\+(11|14|17|20|23)) (\d+(\.\d+)*(p\d+)?|\[[a-z.-]+\](/\d+)?)( .*)?$")
STDS = {"c17", "gnu17", "c++17", "c++20"}
RUN_TIMEOUT = 5
COMPILERS = {"gcc": "gcc-12", "clang": "clang-16"}


def programs():
    return sorted(p for p in CORPUS.rglob("*") if p.suffix in (".c", ".cpp"))


def case_id(path):
    return str(path.relative_to(CORPUS).with_suffix(""))


def parse_metadata(path):
    """Return the key/value metadata of the first comment, or None when it is not a ub-case."""
    match = re.search(r"/\*(.*?)\*/", path.read_text(), re.S)
    if not match:
        return None
    lines = [re.sub(r"^\s*\*?\s?", "", line).rstrip() for line in match.group(1).splitlines()]
    lines = [line for line in lines if line]
    if not lines or lines[0] != "ub-case":
        return None
    meta = {}
    for line in lines[1:]:
        key, sep, value = line.partition(":")
        assert sep, f"{path}: metadata line without ':': {line!r}"
        meta[key.strip()] = value.strip()
    return meta


def expected_outputs(path):
    outs = sorted(path.parent.glob(path.stem + ".output*"))
    outs = [p for p in outs if re.fullmatch(re.escape(path.stem) + r"\.output\d*", p.name)]
    return [p.read_bytes() for p in outs]


def compiler_for(family, path):
    return toolchain.resolve(COMPILERS[family]).driver("c++" if path.suffix == ".cpp" else "c")


class CompileError(Exception):
    pass


#: what the programs see: no sanitizer options or malloc perturbation inherited from the
#: test runner (meson sets abort-on-error sanitizer options for the tests it runs)
PROGRAM_ENV = {k: v for k, v in os.environ.items()
               if not k.endswith("SAN_OPTIONS") and k != "MALLOC_PERTURB_"}


def compile_and_run(path, meta, family, opt, outdir, extra=(), timeout=RUN_TIMEOUT):
    """Compile one program; return (returncode, stdout, stderr) of its run, or None on timeout.

    A failed compile returns a CompileError instead, so one bad program fails only its own test.
    """
    compiler = compiler_for(family, path)
    std = meta.get("std") or ("c++17" if path.suffix == ".cpp" else "c17")
    exe = Path(outdir) / f"{case_id(path).replace('/', '__')}-{family}-{opt}{'-'.join(extra)}"
    cmd = [compiler, f"-std={std}", opt, "-w", *extra, str(path), "-o", str(exe), *meta.get("link", "").split()]
    built = subprocess.run(cmd, capture_output=True, text=True)
    if built.returncode != 0:
        return CompileError(f"{' '.join(cmd)} failed:\n{built.stderr}")
    try:
        run = subprocess.run([str(exe), *meta.get("args", "").split()], capture_output=True,
                             timeout=timeout, cwd=outdir, stdin=subprocess.DEVNULL,
                             env=PROGRAM_ENV)
    except subprocess.TimeoutExpired:
        return None
    return run.returncode, run.stdout, run.stderr


def have(*names):
    return toolchain.installed(list(names)) == list(names)


needs_compilers = pytest.mark.skipif(not have(*COMPILERS.values()),
                                     reason="needs gcc-12 and clang-16")


# --- metadata -------------------------------------------------------------------------------

def test_corpus_has_enough_programs_and_categories():
    metas = {p: parse_metadata(p) for p in programs()}
    ub = [p for p, m in metas.items() if m and m.get("ub") == "yes"]
    categories = {metas[p]["category"] for p in ub}
    assert len(ub) >= 60, f"only {len(ub)} UB programs"
    assert len(categories) >= 25, f"only {len(categories)} categories"
    assert {p.suffix for p in ub} == {".c", ".cpp"}
    controls = [p for p, m in metas.items() if m and m.get("ub") == "no"]
    assert len(controls) >= 3
    assert all(p.parent.name == "control" for p in controls)


def test_case_ids_are_unique():
    """A .c and a .cpp with the same name would share their .output files."""
    ids = [case_id(p) for p in programs()]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)


@pytest.mark.parametrize("path", programs(), ids=case_id)
def test_metadata_is_complete(path):
    meta = parse_metadata(path)
    assert meta is not None, "first comment must start with a 'ub-case' line"
    for key in REQUIRED:
        assert meta.get(key), f"missing {key}"
    assert not set(meta) - set(REQUIRED) - set(OPTIONAL), f"unknown keys {set(meta) - set(REQUIRED) - set(OPTIONAL)}"
    assert meta["category"] == path.parent.name
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", meta["category"])
    assert STANDARD_RE.match(meta["standard"]), meta["standard"]
    assert meta["ub"] in ("yes", "no")
    assert (meta["ub"] == "no") == (path.parent.name == "control")
    assert meta.get("std", "c17" if path.suffix == ".c" else "c++17") in STDS
    assert re.fullmatch(r"-?\d+", meta.get("exit", "0"))
    assert meta.get("o0-exploited", "no") in ("yes", "no")
    if meta.get("o0-exploited") == "yes":
        assert meta.get("note"), "o0-exploited needs a note saying why"
    assert expected_outputs(path), "needs NAME.output or NAME.outputN"


# --- behaviour at -O0 (and -O2 for controls) ------------------------------------------------

@pytest.fixture(scope="module")
def runs():
    """Build and run every program once per compiler at -O0, controls also at -O2."""
    outdir = tempfile.mkdtemp(prefix="warnscope-corpus-")
    jobs = []
    for path in programs():
        meta = parse_metadata(path)
        opts = ["-O0", "-O2"] if meta["ub"] == "no" else ["-O0"]
        jobs += [(path, meta, family, opt) for family in COMPILERS for opt in opts]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda job: compile_and_run(*job, outdir), jobs))
    yield {(case_id(p), family, opt): r for (p, _, family, opt), r in zip(jobs, results)}
    shutil.rmtree(outdir, ignore_errors=True)


@needs_compilers
@pytest.mark.parametrize("path", programs(), ids=case_id)
def test_runs_as_expected_without_optimisation(path, runs):
    meta = parse_metadata(path)
    for family in COMPILERS:
        result = runs[(case_id(path), family, "-O0")]
        assert not isinstance(result, CompileError), str(result)
    if meta.get("o0-exploited") == "yes":
        pytest.skip("metadata says even -O0 exploits this UB: " + meta["note"])
    wanted = expected_outputs(path)
    opts = ["-O0", "-O2"] if meta["ub"] == "no" else ["-O0"]
    for family in COMPILERS:
        for opt in opts:
            result = runs[(case_id(path), family, opt)]
            where = f"{compiler_for(family, path)} {opt}"
            assert not isinstance(result, CompileError), str(result)
            assert result is not None, f"{where}: timed out"
            code, out, err = result
            assert out in wanted, f"{where}: unexpected stdout {out!r} (stderr {err[-300:]!r})"
            assert code == int(meta.get("exit", "0")), f"{where}: exit status {code}"


# --- the classic loop case -------------------------------------------------------------------

LOOP = CORPUS / "signed-integer-overflow" / "loop.c"


@pytest.mark.skipif(not have("gcc-12"), reason="needs gcc-12")
def test_loop_hangs_with_gcc_O2(tmp_path):
    assert compile_and_run(LOOP, parse_metadata(LOOP), "gcc", "-O2", tmp_path, timeout=3) is None


@pytest.mark.skipif(not have("clang-16"), reason="needs clang-16")
def test_loop_prints_nothing_with_clang_O2(tmp_path):
    result = compile_and_run(LOOP, parse_metadata(LOOP), "clang", "-O2", tmp_path, timeout=3)
    assert result is not None and not isinstance(result, CompileError)
    assert b"3" not in result[1]


@pytest.mark.skipif(not have("gcc-12"), reason="needs gcc-12")
def test_loop_is_caught_by_ubsan(tmp_path):
    result = compile_and_run(LOOP, parse_metadata(LOOP), "gcc", "-O0", tmp_path,
                             extra=("-fsanitize=undefined",))
    assert result is not None and not isinstance(result, CompileError)
    assert b"signed integer overflow" in result[2]
    assert result[1] == b"3\n"
