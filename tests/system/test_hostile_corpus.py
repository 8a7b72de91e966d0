"""Corpora and source trees from someone else that try to make warnscope read, as root,
what their author could not: links to root-only files and to /proc/self, FIFOs where a
program or its expected output should be, a directory linked out of the tree, includes
of root-only files and of /dev/zero in the libclang step; and a command blocked on a
busy database that must still end at once on SIGTERM.

Real gcc-12 and clang-16, real files on disk (symbolic links, FIFOs), the CLI in a
child process; the root-only-file runs are made as root and as an unprivileged user.
"""
from __future__ import annotations

import os
import pwd
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
#: In the root-only file: seen anywhere in a database or an output, warnscope read it.
SECRET = "warnscope_secret_7f3a"
#: In warnscope's own environment: seen anywhere, something read /proc/self/environ.
ENV_MARKER = "warnscope_environ_c41d"

pytestmark = pytest.mark.skipif(shutil.which("gcc-12") is None, reason="gcc-12 not installed")

OK_CASE = """/* ub-case
 * category: cat
 * standard: none
 * summary: prints three
 * ub: no
 */
#include <stdio.h>
int main(void) { printf("3\\n"); return 0; }
"""


@pytest.fixture
def shared_dir():
    """A directory in /var/tmp that the test user can reach (pytest's tmp_path is root's)."""
    path = Path(tempfile.mkdtemp(prefix="warnscope-test-hostile-", dir="/var/tmp"))
    os.chmod(path, 0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def secret_file():
    """A file only root can read, holding :data:`SECRET` as C that would compile and warn."""
    folder = Path(tempfile.mkdtemp(prefix="warnscope-test-secret-", dir="/var/tmp"))
    path = folder / "secret.h"
    path.write_text(f"int {SECRET};\n")
    os.chmod(path, 0o600)
    yield path
    shutil.rmtree(folder, ignore_errors=True)


def make_corpus(root: Path, secret: Path) -> Path:
    """A corpus of one good program beside every kind of file that must be refused."""
    corpus = root / "corpus"
    for folder in ("cat", "sym", "fifo"):
        (corpus / folder).mkdir(parents=True)
    (corpus / "cat" / "ok.c").write_text(OK_CASE)
    (corpus / "cat" / "ok.output").write_text("3\n")
    (corpus / "sym" / "shadow.c").symlink_to("/etc/shadow")
    (corpus / "sym" / "secret.c").symlink_to(secret)
    (corpus / "sym" / "environ.c").symlink_to("/proc/self/environ")
    (corpus / "cat" / "plain.c").write_text("int main(void) { return 0; }\n")
    (corpus / "sym" / "inside.c").symlink_to("../cat/plain.c")     # inside the corpus: fine
    (corpus / "fifo" / "a.c").write_text(OK_CASE.replace("cat", "fifo"))
    os.mkfifo(corpus / "fifo" / "a.output")
    os.mkfifo(corpus / "fifo" / "b.c")
    (corpus / "outside").symlink_to(secret.parent, target_is_directory=True)
    for path in corpus.rglob("*"):
        if not path.is_symlink():
            os.chmod(path, 0o755 if path.is_dir() else 0o644)
    os.chmod(corpus, 0o755)
    return corpus


EXPECTED_REFUSALS = {
    "fifo/a.c": "its expected output",
    "fifo/a.output": "not a regular file (a FIFO)",
    "fifo/b.c": "not a regular file (a FIFO)",
    "outside": "a symbolic link to a directory (not followed)",
    "sym/environ.c": "a symbolic link leading out of the corpus",
    "sym/secret.c": "a symbolic link leading out of the corpus",
    "sym/shadow.c": "a symbolic link leading out of the corpus",
}


def run_cli(args: list[str], user: pwd.struct_passwd | None, home: Path,
            timeout: float = 300) -> subprocess.CompletedProcess:
    """``warnscope ARGS`` in a child, as root or as ``user``, with :data:`ENV_MARKER` in
    its environment."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "WARNSCOPE_CACHE": str(home / "cache"),
           "PYTHONPATH": str(REPO), "LC_ALL": "C.UTF-8", "MARKER": ENV_MARKER}
    cmd = [sys.executable, "-c", "import sys; from analyzer.cli import main; sys.exit(main())",
           *args]
    if user is not None:
        cmd = ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups",
               "--reset-env", "--", "env", *[f"{k}={v}" for k, v in env.items()], *cmd]
    return subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True,
                          errors="replace", timeout=timeout)


def everything_in(db: Path) -> str:
    """Every value of every table, as one text."""
    conn = sqlite3.connect(db)
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    return "\n".join(repr(row) for t in tables for row in conn.execute(f"SELECT * FROM {t}"))


def check_run(proc: subprocess.CompletedProcess, corpus: Path, db: Path,
              **reasons: str) -> None:
    """What must hold of a run over :func:`make_corpus`, whoever runs it (``reasons``:
    what a refusal says instead for this user, by file name)."""
    assert proc.returncode == 1, proc.stderr
    lines = proc.stderr.strip().splitlines()
    refused = {l for l in lines if l.startswith("warnscope: error: refused ")}
    for rel, why in EXPECTED_REFUSALS.items():
        why = reasons.get(Path(rel).stem, why)
        mine = [l for l in refused if l.startswith(f"warnscope: error: refused {corpus / rel}: ")]
        assert len(mine) == 1 and why in mine[0], (rel, lines)
    assert len(refused) == len(EXPECTED_REFUSALS), lines
    stored = everything_in(db)
    assert "'cat/ok'" in stored and "'sym/inside'" in stored     # the rest of the corpus ran
    for never in (SECRET, ENV_MARKER, "root:"):
        assert never not in stored and never not in proc.stdout + proc.stderr
    assert "'sym/shadow'" not in stored and "'fifo/a'" not in stored


@pytest.mark.skipif(os.geteuid() != 0, reason="the root half; the user half runs below")
def test_links_and_fifos_in_a_corpus_as_root(shared_dir, secret_file):
    corpus = make_corpus(shared_dir, secret_file)
    db = shared_dir / "ub.db"
    args = ["--db", str(db), "ub", "run", "--corpus", str(corpus), "--compilers", "gcc-12",
            "--levels", "O0", "--no-warnings", "--no-sanitizers"]
    started = time.monotonic()
    proc = run_cli(args, None, shared_dir)
    assert time.monotonic() - started < 120      # no FIFO held it
    check_run(proc, corpus, db)


def test_links_and_fifos_in_a_corpus_as_a_normal_user(shared_dir, secret_file, test_user,
                                                     reachable_as):
    """The same corpus, the same assertions, run by a user without privileges."""
    corpus = make_corpus(shared_dir, secret_file)
    home = shared_dir / "home"
    home.mkdir()
    if test_user is not None:
        reachable_as(test_user.pw_uid, test_user.pw_gid)
        os.chown(home, test_user.pw_uid, test_user.pw_gid)
    db = home / "ub.db"
    args = ["--db", str(db), "ub", "run", "--corpus", str(corpus), "--compilers", "gcc-12",
            "--levels", "O0", "--no-warnings", "--no-sanitizers"]
    proc = run_cli(args, test_user, home)
    # the user cannot even look into root's private directory to see where it leads
    check_run(proc, corpus, db, secret="permission denied" if test_user else
              "a symbolic link leading out of the corpus")


def test_a_program_named_with_a_bidi_control_is_refused_by_name_and_the_others_run(tmp_path, cli_at):
    """``ub run`` over a corpus where one program's name holds U+202E: that file is said
    in one line, its name made visible; the other case runs and is stored."""
    corpus = tmp_path / "corpus"
    (corpus / "cat").mkdir(parents=True)
    (corpus / "cat" / "good.c").write_text(OK_CASE)
    (corpus / "cat" / "ev\u202eil.c").write_text(OK_CASE)
    code, out, err = cli_at(tmp_path / "ub.db")("ub", "run", "--corpus", str(corpus), "--compilers", "gcc-12",
                                                "--levels", "O0", "--no-sanitizers")
    assert code == 1, err
    assert "\u202e" not in out + err, err
    refused = [line for line in err.splitlines() if "refused" in line and "ev" in line]
    assert refused == [f"warnscope: error: refused {corpus}/cat/ev\\u202eil.c: not run: not a plain source "
                       "file name (a compile names it on its command line: letters, digits and _ . + - only)"], err
    assert "1 cells (1 run now, " in out + err and "not a plain source file name" not in out, (out, err)
    assert err.splitlines()[-1] == ("warnscope: error: 1 files of the corpus refused (not read, not run); "
                                    "the rest of it ran"), err


@pytest.mark.skipif(shutil.which("clang-16") is None, reason="clang-16 not installed")
def test_the_libclang_step_reads_includes_inside_the_sandbox(shared_dir, secret_file):
    """libclang reads a program's includes from the file system. Run as root it read a
    root-only header (its ``int SECRET;`` fired ``-Wmissing-variable-declarations``) and
    would read /dev/zero until the machine ran out of memory; in the sandbox the header
    cannot be opened and /dev/zero stops at the worker's memory cap, costing that
    program's answer only."""
    corpus = shared_dir / "corpus"
    (corpus / "inc").mkdir(parents=True)
    (corpus / "inc" / "plain.c").write_text("int main(void) { int x; return x; }\n")
    (corpus / "inc" / "secret.c").write_text(f'#include "{secret_file}"\nint main(void) {{ return 0; }}\n')
    (corpus / "inc" / "zero.c").write_text('#include "/dev/zero"\nint main(void) { return 0; }\n')
    os.chmod(corpus, 0o755)
    db = shared_dir / "ub.db"
    args = ["--db", str(db), "ub", "run", "--corpus", str(corpus), "--compilers", "clang-16",
            "--levels", "O0", "--no-sanitizers", "--runs", "1"]
    proc = run_cli(args, None, shared_dir)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert any("inc/zero" in l and "memory limit" in l for l in lines), lines
    conn = sqlite3.connect(db)
    fired = dict(conn.execute("SELECT case_id, options FROM ub_warning WHERE tool = 'libclang'"))
    assert "-Wuninitialized" in fired["inc/plain"]
    assert "missing-variable-declarations" not in fired["inc/secret"]
    assert "inc/zero" not in fired                  # no answer is not "no warnings"
    assert SECRET not in everything_in(db)


def test_a_gcc_source_tree_with_an_option_file_linked_out(tmp_path, gcc_tree, common_opt,
                                                         secret_file, warnscope, one_error):
    root = gcc_tree(tmp_path / "src", {"common.opt": common_opt})
    (root / "gcc" / "c-family" / "c.opt").unlink()
    (root / "gcc" / "c-family" / "c.opt").symlink_to(secret_file)
    db = tmp_path / "flags.db"
    line = one_error(warnscope("--db", str(db), "flags", "ingest", "gcc-99", "--source", str(root)))
    assert f"{root}/gcc/c-family/c.opt: a symbolic link leading out of the GCC source tree" in line
    assert SECRET not in line and not db.exists()


def test_clang_tables_linked_out_of_their_directory(tmp_path, secret_file, warnscope, one_error):
    tables = tmp_path / "tables"
    tables.mkdir()
    (tables / "DiagnosticGroups.inc").symlink_to(secret_file)
    (tables / "DiagnosticCommonKinds.inc").write_text("")
    (tables / "Version.inc").write_text('#define CLANG_VERSION_STRING "16.0.6"\n')
    db = tmp_path / "flags.db"
    line = one_error(warnscope("--db", str(db), "flags", "ingest", "clang-16", "--source", str(tables)))
    assert "DiagnosticGroups.inc: a symbolic link leading out of the directory of clang tables" in line
    assert SECRET not in line and not db.exists()


def test_a_directory_as_database_is_one_line(tmp_path, warnscope, one_error):
    line = one_error(warnscope("--db", str(tmp_path), "flags", "list", "gcc-12"))
    assert "is a directory, not a database file" in line


def test_sigterm_ends_a_command_waiting_on_a_busy_database(tmp_path, gcc_tree, common_opt):
    """SQLite waits for a lock inside C, where no signal handler runs: warnscope gives it a
    tenth of a second at a time, so SIGTERM ends the wait at once (exit 143, nothing
    written), however long WARNSCOPE_DB_TIMEOUT would have let it wait."""
    db = tmp_path / "busy.db"
    root = gcc_tree(tmp_path / "src", {"common.opt": common_opt})
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("CREATE TABLE other (x)")
    env = {**os.environ, "PYTHONPATH": str(REPO), "WARNSCOPE_DB_TIMEOUT": "600"}
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from analyzer.cli import main; sys.exit(main())",
         "--db", str(db), "flags", "ingest", "gcc-99", "--source", str(root)],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(3)                        # parsed the tree, now waiting for the lock
        assert proc.poll() is None, proc.communicate()
        sent = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=10)
        took = time.monotonic() - sent
    finally:
        proc.kill()
        holder.execute("ROLLBACK")
        holder.close()
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert took < 1.0, took
    assert err.strip().splitlines()[-1] == "warnscope: terminated"


def test_a_fifo_as_compile_database_is_one_line_not_a_hang(tmp_path, warnscope, one_error):
    fifo = tmp_path / "compile_commands.json"
    os.mkfifo(fifo)
    started = time.monotonic()
    line = one_error(warnscope("--db", str(tmp_path / "o.db"), "overhead", "run",
                               "--compile-commands", str(fifo), "--compilers", "gcc-12",
                               "--mode", "tu", timeout=60))
    assert time.monotonic() - started < 30
    assert "compile_commands.json: not a regular file (a FIFO)" in line
