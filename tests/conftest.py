"""Fixtures shared by the unit and the system tests (see tests/README.md).

Tests never import each other or this file: whatever they share is a fixture here.
The database fixtures are real: ``gcc_db`` ingests gcc-11 and gcc-12 from Debian's
gcc-N-source packages (about 80 MB each, downloaded once into the cache), and the clang
loaders read the real libclang-N-dev packages. Nothing here is mocked.
"""
from __future__ import annotations

import contextlib
import fcntl
import io
import json
import os
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
import time
from functools import lru_cache
from pathlib import Path
from typing import Callable
from urllib.parse import unquote, urlsplit

import pytest

from analyzer.cli import main
from flagdb import store
from flagdb.clang_inc import Tables, parse_dir
from flagdb.clang_ingest import fetch_package, load_clang
from warnscope.database import connect
from flagdb.ingest import ingest
from flagdb.model import CompilerData

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
FIXTURES = TESTS / "fixtures"
ERROR = "warnscope: error: "
#: the clang versions whose libclang-N-dev packages the clang tests read
CLANG_VERSIONS = (13, 14, 15, 16, 19, 22)


# ------------------------------------------------------------------ suites and parameters

def pytest_collection_modifyitems(config, items) -> None:
    """``unit`` for tests under tests/unit, ``system`` for every other test: a file not
    yet sorted into a directory is treated as the slow kind."""
    unit = TESTS / "unit"
    for item in items:
        path = Path(str(item.fspath)).resolve()
        item.add_marker(pytest.mark.unit if unit in path.parents else pytest.mark.system)


def pytest_generate_tests(metafunc) -> None:
    """A test taking ``clang_major`` runs once per clang version of CLANG_VERSIONS, from
    the version of its ``@pytest.mark.clang_since(N)`` marker on, if it has one."""
    if "clang_major" in metafunc.fixturenames:
        marker = metafunc.definition.get_closest_marker("clang_since")
        since = marker.args[0] if marker else 0
        metafunc.parametrize("clang_major", [v for v in CLANG_VERSIONS if v >= since])


# ------------------------------------------------------------------ running the CLI

class Cli:
    """Runs ``warnscope --db DB`` in-process, as the console script does."""

    def __init__(self, db: Path, capsys):
        self.db = db
        self.capsys = capsys

    def __call__(self, *args: str) -> tuple[int, str, str]:
        self.capsys.readouterr()
        code = main(["--db", str(self.db), *args])
        out, err = self.capsys.readouterr()
        return code, out, err


@pytest.fixture
def cli_at(capsys) -> Callable[[Path], Cli]:
    """``cli_at(db)``: a :class:`Cli` on any database file, returning (code, out, err)."""
    return lambda db: Cli(db, capsys)


@pytest.fixture
def cli(gcc_db, cli_at) -> Cli:
    """The CLI on the shared real gcc-11/gcc-12 database (for queries only: it is shared)."""
    return cli_at(gcc_db)


def _child(*args: str | bytes, env: dict | None = None, prefix: tuple = (),
           timeout: float = 900) -> subprocess.CompletedProcess:
    cmd = [*prefix, sys.executable, "-c", "import sys; from analyzer.cli import main; sys.exit(main())",
           *args]
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run(cmd, cwd=ROOT, env=full_env, capture_output=True, timeout=timeout)


def _on_terminal(*args: str, env: dict | None = None, keyboard: bool = False,
                 timeout: float = 120) -> tuple[int, bytes]:
    """Run the CLI with stdout and stderr (and with ``keyboard`` stdin too) on a new
    pseudo-terminal; return its exit status and every byte the terminal received."""
    import pty
    import select
    import time

    leader, follower = pty.openpty()
    cmd = [sys.executable, "-c", "import sys; from analyzer.cli import main; sys.exit(main())", *args]
    proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
                            stdin=follower if keyboard else subprocess.DEVNULL,
                            stdout=follower, stderr=follower)
    os.close(follower)
    received = bytearray()
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 1.0)
            if not ready:
                if proc.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the last writer closed the terminal
                break
            if not chunk:
                break
            received += chunk
    finally:
        os.close(leader)
    return proc.wait(timeout=30), bytes(received)


@pytest.fixture(scope="session")
def on_terminal():
    """``on_terminal(*args, env=, keyboard=, timeout=)``: the CLI in a child on a
    pseudo-terminal (stdin too with ``keyboard``); returns (exit status, every byte the
    terminal received)."""
    return _on_terminal


@pytest.fixture(scope="session")
def warnscope():
    """``warnscope(*args, env=, prefix=, timeout=)``: the CLI in a child process (arguments
    may be bytes: argv is not always UTF-8); returns the CompletedProcess."""
    return _child


@pytest.fixture
def fails_on(cli_at):
    """``fails_on(db, *args)``: run a command on ``db`` that must fail with one
    ``warnscope: error:`` line and leave the file byte for byte as it was (or absent);
    return the line."""

    def run(db: Path, *args: str) -> str:
        before = db.read_bytes() if db.exists() else None
        code, out, err = cli_at(db)(*args)
        assert code != 0, out
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(ERROR), err
        assert (db.read_bytes() if db.exists() else None) == before
        return lines[0]

    return run


def _one_error(proc: subprocess.CompletedProcess) -> str:
    err = proc.stderr.decode("utf-8", "backslashreplace")
    assert proc.returncode != 0, proc.stdout
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(ERROR), err
    return lines[0]


@pytest.fixture(scope="session")
def one_error():
    """``one_error(proc)``: assert a child failed with exactly one ``warnscope: error:``
    line on stderr, and return that line."""
    return _one_error


@pytest.fixture(scope="session")
def in_namespace():
    """``in_namespace(setup, *args, env=)``: the CLI in a child process, after the shell
    commands ``setup`` (mounts) ran in a private mount namespace. Skips the test where no
    such namespace can be made."""
    if shutil.which("unshare") is None or subprocess.run(
            ["unshare", "-m", "true"], capture_output=True).returncode != 0:
        pytest.skip("cannot make a private mount namespace here")

    def run(setup: str, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
        code = "import sys; from analyzer.cli import main; sys.exit(main())"
        script = f"{setup} && exec {shlex.quote(sys.executable)} -c {shlex.quote(code)} " + " ".join(
            shlex.quote(a) for a in args)
        full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
        return subprocess.run(["unshare", "-m", "sh", "-c", script], cwd=ROOT, env=full_env,
                              capture_output=True, timeout=900)

    return run


def _dump(path: Path) -> list[str]:
    if not path.exists():
        return []
    conn = sqlite3.connect(path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


@pytest.fixture(scope="session")
def dump():
    """``dump(path)``: the whole database as SQL text ([] if there is no file), to prove a
    failed command changed nothing."""
    return _dump


@pytest.fixture(scope="session")
def require():
    """``require(binary)``: its path, or skip the test when it is not installed."""

    def need(binary: str) -> str:
        path = shutil.which(binary)
        if path is None:
            pytest.skip(f"{binary} is not installed")
        return path

    return need


@pytest.fixture(scope="session")
def wasm_target():
    """Skip, naming what is missing, without clang-16 or a piece of the wasm32-wasi target
    (:func:`analyzer.sandbox.wasm.require`: the package that brings it); a module of the
    target's tests says ``pytestmark = pytest.mark.usefixtures("wasm_target")``."""
    from analyzer.runtime import toolchain
    from analyzer.sandbox import wasm
    from warnscope.errors import NotInstalled
    try:
        toolchain.resolve("clang-16")
        wasm.require()
    except NotInstalled as exc:
        pytest.skip(str(exc))


# ------------------------------------------------------------------ hand-written GCC sources

@pytest.fixture(scope="session")
def common_opt() -> str:
    """fixtures/gcc/common.opt: a small common.opt using every construct the reader knows."""
    return (FIXTURES / "gcc" / "common.opt").read_text()


@pytest.fixture(scope="session")
def c_opt() -> str:
    """fixtures/gcc/c.opt: every GCC tree has a C front end; ingest refuses one without."""
    return (FIXTURES / "gcc" / "c.opt").read_text()


@pytest.fixture(scope="session")
def gcc_tree(c_opt):
    """``gcc_tree(root, {name: text})``: a GCC 99.1.0 source tree under ``root`` holding
    gcc/BASE-VER, gcc/c-family/c.opt and the given files under gcc/; returns ``root``."""

    def make(root: Path, files: dict[str, str]) -> Path:
        (root / "gcc").mkdir(parents=True, exist_ok=True)
        (root / "gcc" / "BASE-VER").write_text("99.1.0\n")
        for name, text in {"c-family/c.opt": c_opt, **files}.items():
            p = root / "gcc" / name
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text)
        return root

    return make


# ------------------------------------------------------------------ made once per run

def made_once(tmp_path_factory, name: str, make: Callable[[Path], None]) -> Path:
    """The directory ``name``, filled by ``make(directory)`` once for the whole test run
    however many pytest-xdist workers run it (the first to ask makes it, the others wait
    for it), and copied into this worker's own temporary directory, so that no two
    workers ever open one database. A ``make`` that fails or skips leaves nothing: the
    next to ask tries again."""
    base = tmp_path_factory.getbasetemp()
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "made-once"
    shared.mkdir(exist_ok=True)
    made, done = shared / name, shared / f"{name}.done"
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():   # made where it stays: what it stores may name its paths
            shutil.rmtree(made, ignore_errors=True)
            made.mkdir()
            make(made)
            done.touch()
    mine = tmp_path_factory.mktemp(name) / name
    shutil.copytree(made, mine)
    return mine


# ------------------------------------------------------------------ real GCC databases

def _ingested(path: Path, compilers: tuple[str, ...], start: Path | None = None) -> None:
    if start is not None:
        shutil.copy(start, path)
    conn = connect(path)
    for compiler in compilers:
        ingest(conn, compiler)
    conn.close()


@pytest.fixture(scope="session")
def gcc_db(tmp_path_factory) -> Path:
    """A database holding the real gcc-11 and gcc-12 option data."""
    return made_once(tmp_path_factory, "gcc", lambda d: _ingested(d / "gcc.db", ("gcc-11", "gcc-12"))) / "gcc.db"


@pytest.fixture(scope="session")
def gcc_clang_db(gcc_db, tmp_path_factory) -> Path:
    """``gcc_db`` with clang-16 from its tables too (read it, or copy it to write)."""
    return made_once(tmp_path_factory, "gcc-clang",
                     lambda d: _ingested(d / "gcc-clang.db", ("clang-16",), gcc_db)) / "gcc-clang.db"


@pytest.fixture
def gcc_db_copy(gcc_db, tmp_path) -> Path:
    """A private copy for tests that write."""
    path = tmp_path / "copy.db"
    shutil.copy(gcc_db, path)
    return path


@pytest.fixture(scope="session")
def gcc12(gcc_db):
    return store.load(connect(gcc_db), "gcc-12")


@pytest.fixture(scope="session")
def gcc11(gcc_db):
    return store.load(connect(gcc_db), "gcc-11")


@pytest.fixture
def must_fail(gcc_db_copy, cli_at, dump):
    """``must_fail(*args)``: run a command on a private copy of ``gcc_db`` that must fail
    with one ``warnscope: error:`` line and leave the database as it was; return the line."""
    cli = cli_at(gcc_db_copy)

    def fail(*args: str) -> str:
        before = dump(gcc_db_copy)
        code, out, err = cli(*args)
        assert code != 0, out
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        assert lines[0].startswith(ERROR)
        assert dump(gcc_db_copy) == before
        return lines[0]

    return fail


# ------------------------------------------------------------------ real clang tables

@lru_cache(maxsize=None)
def _real_data(major: int) -> CompilerData:
    return load_clang(f"clang-{major}")


@lru_cache(maxsize=None)
def _real_tables(major: int) -> Tables:
    directory, _ = fetch_package(major)
    return parse_dir(directory)


@pytest.fixture(scope="session")
def real_data():
    """``real_data(major)``: clang-N's entry from libclang-N-dev (downloaded once into the
    cache, parsed once per test process)."""
    return _real_data


@pytest.fixture(scope="session")
def real_tables():
    """``real_tables(major)``: the parsed tables of libclang-N-dev, memoised likewise."""
    return _real_tables


@pytest.fixture(scope="session")
def clang_versions() -> tuple[int, ...]:
    """Every clang version the tests read (the values ``clang_major`` takes)."""
    return CLANG_VERSIONS


def _seeded_cache(path: Path) -> Path:
    """A new cache directory at ``path`` holding (hard links to) the shared cache's Debian
    package lists, so a test with a private cache does not download them again."""
    from warnscope import apt

    shared = apt.archive()
    shared.update()
    shutil.copytree(shared.root / "lists", path / "debian" / "lists", copy_function=os.link,
                    ignore=shutil.ignore_patterns("lock", "partial"))
    shutil.copy(shared.root / "sources.list", path / "debian" / "sources.list")
    return path


@pytest.fixture(scope="session")
def seeded_cache() -> Callable[[Path], Path]:
    """``seeded_cache(path)``: make ``path`` a cache (for ``WARNSCOPE_CACHE``) that starts
    with the shared cache's Debian package lists and nothing else."""
    return _seeded_cache


def _cell_count(db: Path) -> int:
    try:
        conn = sqlite3.connect(db, timeout=0.2)
        try:
            return conn.execute("SELECT count(*) FROM ub_cell").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.OperationalError:
        return 0


@pytest.fixture(scope="session")
def cell_count() -> Callable[[Path], int]:
    """``cell_count(db)``: UB cells stored so far, read while a run may be writing
    (0 while the database does not exist yet)."""
    return _cell_count


def _test_user():
    import pwd
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam("warnscope-test")
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell",
                        "/usr/sbin/nologin", "warnscope-test"], check=True, timeout=60)
    return pwd.getpwnam("warnscope-test")


@pytest.fixture
def test_user():
    """A throw-away normal user (created as root) that runs warnscope in the tests of
    containment as a normal user, or None when the tests are not run as root (they then
    run as the current user)."""
    return _test_user()


@pytest.fixture(scope="session")
def normal_user():
    """``test_user`` for the fixtures of a module or the session (the installed wheel's)."""
    return _test_user()


@pytest.fixture
def exercised_as_user(test_user, reachable_as):
    """``exercised_as_user("tests.system.test_x")``: that module's ``exercise()`` run in a
    child Python by a normal user (the test user as root, else the current user), with a
    home and cache of its own; what it returned (JSON). How containment is tested
    without privileges: the user namespace instead of the uid pool."""
    import json
    import tempfile
    homes: list[Path] = []

    def run(module: str) -> dict:
        home = Path(tempfile.mkdtemp(prefix="warnscope-test-user-", dir="/var/tmp"))
        homes.append(home)
        cmd = [sys.executable, "-c",
               f"import json, {module} as t; print(json.dumps(t.exercise()))"]
        env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "WARNSCOPE_CACHE": str(home / "cache"),
               "PYTHONPATH": str(ROOT), "LC_ALL": "C"}
        if test_user is not None:
            reachable_as(test_user.pw_uid, test_user.pw_gid)
            os.chown(home, test_user.pw_uid, test_user.pw_gid)
            cmd = ["setpriv", f"--reuid={test_user.pw_uid}", f"--regid={test_user.pw_gid}",
                   "--clear-groups", "--reset-env", "--", "env",
                   *[f"{k}={v}" for k, v in env.items()], *cmd]
        proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=600)
        assert proc.returncode == 0, proc.stderr[-3000:]
        seen = json.loads(proc.stdout.splitlines()[-1])
        assert seen["euid"] != 0
        return seen

    yield run
    for home in homes:
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture
def page_links():
    """``page_links(page)``: what an HTML file of a built site links to (``.refs``: every
    href and src) and the anchors it holds (``.ids``), parsed once per page per test."""
    from html.parser import HTMLParser

    class Links(HTMLParser):
        def __init__(self):
            super().__init__()
            self.refs: list[str] = []
            self.ids: set[str] = set()

        def handle_starttag(self, tag, attrs):
            for key, value in attrs:
                if key in ("href", "src") and value is not None:
                    self.refs.append(value)
                if key == "id" and value:
                    self.ids.add(value)

    parsed: dict[Path, Links] = {}

    def links(page: Path) -> Links:
        if page not in parsed:
            parsed[page] = Links()
            parsed[page].feed(page.read_text())
        return parsed[page]

    return links


@pytest.fixture(scope="session")
def reachable_as():
    """``reachable_as(uid, gid)``: skip the test when that unprivileged user cannot read
    this checkout or run this Python (a clone inside a private 0700 directory): the
    test's subject is warnscope as that user, not the checkout's permissions."""

    def check(uid: int, gid: int) -> None:
        probe = subprocess.run(
            ["setpriv", f"--reuid={uid}", f"--regid={gid}", "--clear-groups", sys.executable,
             "-c", f"open({str(ROOT / 'pyproject.toml')!r}).close()"],
            capture_output=True, timeout=60)
        if probe.returncode != 0:
            pytest.skip(f"uid {uid} cannot read this checkout ({ROOT}) or run {sys.executable}: "
                        "clone it where other users can read it to run this test")

    return check


# ------------------------------------------------------------------ a real overhead study

#: the compilers of the shared zlib studies
STUDY_COMPILERS = "gcc-12,clang-16"


@pytest.fixture(scope="session")
def zlib_studies(gcc_db, tmp_path_factory) -> Path:
    """A copy of ``gcc_db`` holding two small real overhead studies of zlib (Debian's
    source package) with gcc-12 and clang-16, levels off and all, 2 runs at -O0: study 1
    the whole build, study 2 each TU alone. Made once per run (a minute or two each)
    and shared by the overhead and the site tests, which only read it or rerun the same
    studies (a resume, which stores nothing). Skips where a compiler is missing."""
    if not (shutil.which("gcc-12") and shutil.which("clang-16")):
        pytest.skip("the zlib studies need gcc-12 and clang-16")

    def make(directory: Path) -> None:
        path = directory / "studies.db"
        shutil.copy(gcc_db, path)
        for mode in ("build", "tu"):
            code = main(["--db", str(path), "overhead", "run", "--project", "zlib", "--compilers",
                         STUDY_COMPILERS, "--levels", "off,all", "--runs", "2", "--opt", "-O0",
                         "--mode", mode, "--quiet"])
            assert code == 0, f"the zlib {mode} study failed"
    return made_once(tmp_path_factory, "studies", make) / "studies.db"


# ------------------------------------------------------------------ processes left behind

class Sleeps:
    """``sleep`` processes with a duration unique to a test, to find exactly its own
    processes afterwards: ``unique()`` names one, ``running(s)`` lists the pids of
    ``sleep s``, ``gone(s)`` waits a moment for them to be torn down (SIGKILL is sent
    at once; an orphaned grandchild may take a moment) and says whether none is left."""

    @staticmethod
    def unique() -> str:
        return f"31.{os.getpid()}{time.monotonic_ns() // 1_000_000 % 100000}"

    @staticmethod
    def running(seconds: str) -> list[int]:
        want = f"sleep\0{seconds}\0".encode()
        found = []
        for entry in os.scandir("/proc"):
            try:
                if entry.name.isdigit() and Path(entry.path, "cmdline").read_bytes() == want:
                    found.append(int(entry.name))
            except OSError:
                continue
        return found

    def gone(self, seconds: str, within: float = 5.0) -> bool:
        deadline = time.monotonic() + within
        while self.running(seconds) and time.monotonic() < deadline:
            time.sleep(0.05)
        return self.running(seconds) == []


@pytest.fixture(scope="session")
def sleeps() -> Sleeps:
    """The ``sleep`` processes of a test: see :class:`Sleeps`."""
    return Sleeps()


# ------------------------------------------------------------------ the advice's evidence

#: the compilers of the advice's tests: Debian 12's five
ADVISE_COMPILERS = "gcc-11,gcc-12,clang-14,clang-16,clang-19"
#: the corpus categories the advice's UB run takes (its controls among them)
ADVISE_UB = ("control", "restrict-violation", "incompatible-function-pointer", "null-dereference",
             "format-mismatch", "misaligned-access")


@pytest.fixture(scope="session")
def advise_db(gcc_db, tmp_path_factory) -> Path:
    """``gcc_db`` with clang-14, clang-16 and clang-19 ingested and a small real UB run
    (six categories of the corpus, the five compilers at -O2, warnings only), and no
    warnings build yet: the first ``advise`` on it runs zlib's builds at ``all`` itself.
    Read it, or copy it to write. Skips where a compiler is missing."""
    if not all(shutil.which(c) for c in ADVISE_COMPILERS.split(",")):
        pytest.skip(f"the advice's tests need {ADVISE_COMPILERS}")

    def make(root: Path) -> None:
        path = root / "advise.db"
        _ingested(path, ("clang-14", "clang-16", "clang-19"), gcc_db)
        corpus = root / "corpus"
        for category in ADVISE_UB:
            shutil.copytree(ROOT / "corpus" / category, corpus / category)
        code = main(["--db", str(path), "ub", "run", "--corpus", str(corpus), "--compilers",
                     ADVISE_COMPILERS, "--levels", "O2", "--no-sanitizers", "--no-code", "--runs", "1"])
        assert code == 0, "the advice's UB run failed"
    return made_once(tmp_path_factory, "advise", make) / "advise.db"


@pytest.fixture(scope="session")
def zlib_advice(advise_db, tmp_path_factory) -> tuple[Path, dict]:
    """A copy of ``advise_db`` on which the first ``advise --project zlib --compilers
    <the five> --json`` ran zlib's builds at ``all`` itself: (the database, that advice
    as JSON). Shared by the advice's tests and the proof of its set on a real CMake build
    (``test_advise_export.py``); read it, or copy it to write."""

    def make(root: Path) -> None:
        shutil.copy(advise_db, root / "zlib.db")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(["--db", str(root / "zlib.db"), "advise", "--project", "zlib", "--compilers",
                         ADVISE_COMPILERS, "--json", "--quiet"])
        assert code == 0, "the zlib advice failed"
        (root / "advice.json").write_text(out.getvalue())
    made = made_once(tmp_path_factory, "zlib-advice", make)
    return made / "zlib.db", json.loads((made / "advice.json").read_text())


#: the real option sources of old compilers (../shared/sources, see its README)
SHARED_SOURCES = ROOT.parent / "shared" / "sources"


@pytest.fixture(scope="session")
def shared_sources() -> Path:
    """``../shared/sources``: real .td and .opt files of old clang, Apple's clang and
    GCC 4.4.6, laid out as in their release tarballs (skips where it is missing)."""
    if not SHARED_SOURCES.is_dir():
        pytest.skip(f"{SHARED_SOURCES} is not there")
    return SHARED_SOURCES


def _llvm_orig(major: int):
    """Debian's llvm-toolchain-N orig tarball (URL and SHA-256 from the Sources index),
    of the version whose libclang-N-dev the table route reads."""
    from flagdb import clang_sources
    from warnscope.errors import NetworkUnreachable

    try:
        return clang_sources.debian_orig(major)
    except NetworkUnreachable as exc:
        pytest.skip(f"llvm-toolchain-{major} source: {exc}")


@pytest.fixture(scope="session")
def llvm_orig():
    """``llvm_orig(major)``: Debian's llvm-toolchain-N orig tarball (``.url``,
    ``.sha256``): the .td files of the clang whose tables libclang-N-dev carries,
    streamed once into the cache by the ingest (70–200 MB; clang-22's took 118 s
    on a loaded 2-core machine);
    skips where Debian's archive cannot be reached."""
    return _llvm_orig


#: what a page of the site must not do to a reader, checked in Chromium (``readable``)
_UNREADABLE = """() => {
  const out = [];
  for (const box of document.querySelectorAll('.scroll')) {
    const hint = box.previousElementSibling;
    if (box.scrollWidth > box.clientWidth + 1 && !(hint && hint.className === 'scroll-hint'))
      out.push('a table wider than its wrapper without the scroll note');
  }
  for (const td of document.querySelectorAll('td:not(.linenos)')) {
    const text = document.createRange();
    text.selectNodeContents(td);
    const r = text.getBoundingClientRect(), line = parseFloat(getComputedStyle(td).lineHeight) || 20;
    if (r.width > 0 && r.width < 80 && r.height > 3.5 * line && td.innerText.trim().length > 16)
      out.push('a cell wrapped a few letters a line: ' + td.innerText.slice(0, 40));
  }
  for (const table of document.querySelectorAll('table')) {
    const heads = table.tHead ? table.tHead.rows : [];
    const body = table.tBodies[0];
    if (heads.length !== 1 || !body || !body.rows.length) continue;
    const ths = heads[0].cells;
    if (Array.from(ths).some(th => th.colSpan > 1)) continue;
    for (const td of body.rows[0].cells) {
      if (td.classList.contains('num') && td.colSpan === 1 && ths[td.cellIndex] &&
          getComputedStyle(ths[td.cellIndex]).textAlign !== 'right')
        out.push('a number under a left-aligned header: ' + ths[td.cellIndex].innerText);
    }
  }
  if (/\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d/.test(document.body.innerText))
    out.push('a raw ISO time in the text');
  return out;
}"""


@pytest.fixture(scope="session")
def readable():
    """``readable(page, width)``: the open Playwright page of the site reads at ``width``
    px: nothing wider than the screen, a wide table's wrapper saying it scrolls, no cell
    wrapped a few letters a line, numbers under right-aligned headers, times as people
    write them. Returns the page's problems (empty when it reads well)."""

    def check(page, width: int) -> list[str]:
        wide = page.evaluate("document.documentElement.scrollWidth")
        problems = [f"the page is {wide} px wide at {width}"] if wide > width else []
        return problems + page.evaluate(_UNREADABLE)

    return check



#: Debian's chromium: the browser tests' only browser
CHROMIUM = Path("/usr/bin/chromium")


class Chromium:
    """Debian's chromium under Playwright (never a downloaded browser), launched at the
    first page a test opens (where chromium or playwright is missing, that test is
    skipped there) and offline: a request that is not for a file is refused before it
    leaves. Every console error and page error lands in ``errors``, every URL a page
    asked for in ``requests``."""

    def __init__(self):
        self.errors: list[str] = []
        self.requests: list[str] = []
        self._stack = contextlib.ExitStack()
        self._browser = None

    def open(self, path: Path, width: int = 1200, height: int = 900):
        """A new page (its own context) at ``width`` showing the file ``path``, loaded."""
        page = self._launched().new_page(viewport={"width": width, "height": height})
        page.route(re.compile(r"^(?!file://).*"), lambda route: route.abort())
        page.on("request", lambda request: self.requests.append(request.url))
        page.on("console", lambda m: self.errors.append(f"{path.name}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"{path.name}: {e}"))
        page.goto(path.resolve().as_uri())
        page.wait_for_load_state("load")
        return page

    def site(self, root: Path) -> "SitePages":
        return SitePages(self, root.resolve())

    def _launched(self):
        if self._browser is None:
            if not CHROMIUM.exists():
                pytest.skip(f"Debian's chromium is not installed ({CHROMIUM}): apt-get install chromium")
            sync_api = pytest.importorskip("playwright.sync_api",
                                           reason="playwright for Python is not installed")
            driver = self._stack.enter_context(sync_api.sync_playwright())
            self._browser = driver.chromium.launch(executable_path=str(CHROMIUM))
            self._stack.callback(self._browser.close)
        return self._browser

    def close(self) -> None:
        self._stack.close()


class SitePages:
    """The pages of one built site in :class:`Chromium`: ``open(rel, width=)``, and the
    requests that left the site (``data:`` URLs aside)."""

    def __init__(self, chromium: Chromium, root: Path):
        self.chromium, self.root = chromium, root

    def open(self, rel: str, width: int = 1200):
        return self.chromium.open(self.root / rel, width=width)

    @property
    def errors(self) -> list[str]:
        return self.chromium.errors

    @property
    def outside(self) -> list[str]:
        return [url for url in self.chromium.requests if not url.startswith("data:") and (
            not url.startswith("file://")
            or self.root not in Path(unquote(urlsplit(url).path)).resolve().parents)]


@pytest.fixture(scope="module")
def chromium():
    """A module's :class:`Chromium` (the sync API allows one Playwright driver at a time,
    and a module's browser tests share one browser)."""
    browser = Chromium()
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def take_screenshots():
    """``take_screenshots(open_page, kinds, wanted, shots)``: the site's screenshots kept
    in docs/screenshots (test_site.py, test_site_warnings.py)."""
    return _take_screenshots


def _take_screenshots(open_page, kinds: dict[str, str], wanted, shots: Path) -> list[str]:
    """The screenshots of ``wanted`` (file, page kind, width) whose kind the site has, as
    palette PNGs (Pillow, which matplotlib brings) under 300 KB each; their names."""
    from PIL import Image

    taken = []
    for name, kind, width in wanted:
        if kind not in kinds:
            continue
        page = open_page(kinds[kind], width=width)
        page.set_viewport_size({"width": width, "height": 844 if width < 600 else 900})
        path = shots / name
        page.screenshot(path=str(path))
        page.close()
        Image.open(path).convert("RGB").quantize(colors=128).save(path, optimize=True)
        assert path.stat().st_size < 300_000, name
        taken.append(name)
    return taken
