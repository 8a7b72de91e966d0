"""A database file from someone else, fed to the real commands.

One real database is made by the CLI (the real gcc-11/gcc-12 flag data, a `warnings
run` and an `overhead run` of tests/fixtures/warnings/upgrade with gcc-12, a `ub run` of
a one-program corpus at -O0), then each test tampers with a copy through sqlite3, as
its author would, and runs the commands on it:

* objects planted in the schema (an AFTER INSERT trigger that deletes rows, a view, a
  changed table definition, an index of its own) are refused before anything runs: one
  error line naming the object, the file byte for byte as it was, for a writer (`flags
  ingest`, `ub run`) and a reader (`warnings show`);
* a trigger whose RAISE(ABORT, …) message and name hold terminal escapes: one line, the
  escapes shown as text;
* a trigger running an endless recursive query: refused at once, not run; and a query
  that does run long still ends at SIGTERM (143) and Ctrl-C (130) at once;
* text ``nan``/``inf`` and text in numeric columns: `overhead report`, `site build` and
  `warnings show` end in one line naming the table and column, never a traceback;
* stored paths leading out (a warnings build's origin ``/``, ``../../..`` or a
  directory warnscope never ran on, a diagnostic in ``etc/shadow``; a UB corpus moved to
  such a directory): `warnings show` and `site build` show no source text from there,
  while the tree the run really built still shows its lines;
* compressed code that inflates far past its size: `ub explain` refuses it in one line
  without inflating it.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UPGRADE = ROOT / "tests" / "fixtures" / "warnings" / "upgrade"
ERROR = "warnscope: error: "
CASE = "overflow/add"
PROGRAM = "#include <limits.h>\nint main(int argc, char **argv) { int x = INT_MAX - 1 + argc; return x < 0; }\n"

pytestmark = pytest.mark.skipif(shutil.which("gcc-12") is None, reason="needs gcc-12")


@pytest.fixture(scope="module")
def made(gcc_db, tmp_path_factory) -> Path:
    """The database every test tampers a copy of, made by the real CLI."""
    from analyzer.cli import main

    tmp = tmp_path_factory.mktemp("hostile-db")
    db = tmp / "made.db"
    shutil.copy(gcc_db, db)
    corpus = tmp / "corpus"
    (corpus / "overflow").mkdir(parents=True)
    (corpus / f"{CASE}.c").write_text(PROGRAM)
    for args in (["warnings", "run", "--source", str(UPGRADE), "--build", "make", "--compilers", "gcc-12",
                  "--level", "wall", "--quiet"],
                 ["overhead", "run", "--source", str(UPGRADE), "--build", "make", "--clean", "make clean",
                  "--compilers", "gcc-12", "--levels", "off", "--runs", "1", "--no-accounting", "--quiet"],
                 ["ub", "run", "--corpus", str(corpus), "--compilers", "gcc-12", "--levels", "O0",
                  "--no-warnings", "--no-sanitizers", "--json"]):
        assert main(["--db", str(db), *args]) == 0, args
    raw = sqlite3.connect(db)
    counts = {t: raw.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
              for t in ("wn_diag", "oh_run", "ub_code", "flag")}
    raw.close()
    assert all(counts.values()), counts
    return db


@pytest.fixture
def copy(made, tmp_path) -> Path:
    path = tmp_path / "theirs.db"
    shutil.copy(made, path)
    return path


def _tamper(db: Path, *statements: str, params: tuple = ()) -> str:
    """Run the author's SQL on ``db``; the file's sha256 afterwards."""
    raw = sqlite3.connect(db)
    for sql in statements:
        raw.execute(sql, params if "?" in sql else ())
    raw.commit()
    raw.close()
    return _digest(db)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _refused(cli_at, db: Path, *args: str) -> str:
    """Run a command that must end in one error line, exit 1, the file unchanged."""
    before = _digest(db)
    code, out, err = cli_at(db)(*args)
    lines = err.strip().splitlines()
    assert code == 1, (out, err)
    assert len(lines) == 1 and lines[0].startswith(ERROR), err
    assert "Traceback" not in err and "\x1b" not in err
    assert _digest(db) == before
    return lines[0]


def _gcc_tree(root: Path, common_opt: str, c_opt: str) -> Path:
    (root / "gcc" / "c-family").mkdir(parents=True)
    (root / "gcc" / "BASE-VER").write_text("99.1.0\n")
    (root / "gcc" / "c-family" / "c.opt").write_text(c_opt)
    (root / "gcc" / "common.opt").write_text(common_opt)
    return root


# ------------------------------------------------------------------ planted objects

PLANTED = {
    "trigger": ("CREATE TRIGGER wipe AFTER INSERT ON flag BEGIN DELETE FROM flag; END", "trigger wipe"),
    "view": ("CREATE VIEW oh_summary AS SELECT * FROM oh_run", "view oh_summary"),
    "changed table": ("ALTER TABLE wn_diag ADD COLUMN note TEXT", "table wn_diag"),
    "index": ("CREATE INDEX by_host ON oh_run(host)", "index by_host"),
}


@pytest.mark.parametrize("kind", PLANTED)
def test_an_object_planted_in_the_schema_is_refused_before_anything_runs(kind, copy, cli_at, tmp_path,
                                                                         common_opt, c_opt):
    sql, named = PLANTED[kind]
    _tamper(copy, sql)
    tree = _gcc_tree(tmp_path / "gcc", common_opt, c_opt)
    for args in (("flags", "ingest", "gcc-99", "--source", str(tree)),         # a writer
                 ("warnings", "show", "-Wunused-variable")):                     # a reader
        line = _refused(cli_at, copy, *args)
        assert named in line and "the file is unchanged" in line, line
    raw = sqlite3.connect(copy)
    assert raw.execute("SELECT count(*) FROM compiler WHERE name = 'gcc-99'").fetchone()[0] == 0
    raw.close()


def test_a_trigger_that_deletes_what_ub_run_writes_is_refused(copy, cli_at, tmp_path):
    _tamper(copy, "CREATE TRIGGER gone AFTER INSERT ON ub_cell BEGIN DELETE FROM ub_cell; END")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "one.c").write_text(PROGRAM)
    line = _refused(cli_at, copy, "ub", "run", "--corpus", str(corpus), "--compilers", "gcc-12",
                    "--levels", "O0", "--no-warnings", "--no-sanitizers", "--json")
    assert "trigger gone" in line


def test_a_raise_with_terminal_escapes_stays_one_visible_line(copy, cli_at, tmp_path, common_opt, c_opt):
    name = "\x1b]52;c;cHduZWQ=\x07\x1b[2J"
    _tamper(copy, f"CREATE TRIGGER \"{name}\" BEFORE INSERT ON compiler BEGIN "
                  "SELECT RAISE(ABORT, '\x1b[2J\x1b]0;owned\x07'); END")
    tree = _gcc_tree(tmp_path / "gcc", common_opt, c_opt)
    line = _refused(cli_at, copy, "flags", "ingest", "gcc-99", "--source", str(tree))
    assert "trigger " in line and "\\x1b]52;c;cHduZWQ=\\x07\\x1b[2J" in line, line


# ------------------------------------------------------------------ endless queries

def test_a_trigger_with_an_endless_recursive_query_is_refused_at_once(copy, cli_at, tmp_path):
    _tamper(copy, "CREATE TRIGGER spin AFTER INSERT ON ub_case BEGIN SELECT count(*) FROM "
                  "(WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r); END")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "one.c").write_text(PROGRAM)
    started = time.monotonic()
    line = _refused(cli_at, copy, "ub", "run", "--corpus", str(corpus), "--compilers", "gcc-12",
                    "--levels", "O0", "--no-warnings", "--no-sanitizers", "--json")
    assert "trigger spin" in line and time.monotonic() - started < 30


LONG_QUERY = """
import signal, sys
from analyzer.cli import _on_sigterm
from warnscope.database import open_read
signal.signal(signal.SIGTERM, _on_sigterm)
conn = open_read(sys.argv[1])
print("querying", flush=True)
try:
    conn.execute("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r").fetchone()
except KeyboardInterrupt as exc:
    print(type(exc).__name__, flush=True)
    sys.exit(143 if type(exc).__name__ == "_Terminated" else 130)
sys.exit(0)
"""


@pytest.mark.parametrize("sig, status", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_long_query_ends_at_a_signal(sig, status, made, tmp_path):
    """SQLite runs a query in C, where no Python signal handler runs: the progress
    handler gives them their turn, and the query is interrupted with the signal's own
    exception."""
    db = tmp_path / "long.db"
    shutil.copy(made, db)
    before = _digest(db)
    proc = subprocess.Popen([sys.executable, "-c", LONG_QUERY, str(db)], cwd=ROOT, stdout=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(ROOT)},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stdout.readline() == b"querying\n"
        time.sleep(0.5)
        sent = time.monotonic()
        proc.send_signal(sig)
        assert proc.wait(timeout=10) == status
        assert time.monotonic() - sent < 2
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert _digest(db) == before


# ------------------------------------------------------------------ values

@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "fast"])
def test_text_in_a_number_column_is_one_line_naming_it(value, copy, cli_at, tmp_path):
    _tamper(copy, "UPDATE oh_run SET user_s = ?", params=(value,))
    for args in (("overhead", "report"), ("site", "build", "-o", str(tmp_path / "site"))):
        line = _refused(cli_at, copy, *args)
        assert "oh_run.user_s" in line and repr(value) in line, line


def test_a_real_infinity_in_a_number_column_is_refused(copy, cli_at):
    _tamper(copy, "UPDATE oh_run SET wall_s = 1e999")
    line = _refused(cli_at, copy, "overhead", "report")
    assert "oh_run.wall_s holds inf" in line


def test_text_in_a_diagnostics_line_is_one_line_naming_it(copy, cli_at):
    _tamper(copy, "UPDATE wn_diag SET line = 'ten', col = 'nan'")
    option = _any_option(copy)
    line = _refused(cli_at, copy, "warnings", "show", option)
    assert "wn_diag.line" in line or "wn_diag.col" in line, line


def _any_option(db: Path) -> str:
    raw = sqlite3.connect(db)
    try:
        return raw.execute("SELECT option FROM wn_diag WHERE option IS NOT NULL ORDER BY id").fetchone()[0]
    finally:
        raw.close()


# ------------------------------------------------------------------ stored paths

def test_stored_paths_leading_out_show_no_source_text(copy, cli_at, tmp_path):
    option = _any_option(copy)
    # the tree the run really built (this user's own) shows its line
    code, out, err = cli_at(copy)("warnings", "show", option, "--json")
    assert code == 0, err
    assert any(e["source_line"] for e in json.loads(out)["examples"])

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.c").write_text("SECRET-MARKER in a file the database's author named\n" * 3)
    (outside / "etc").mkdir()
    (outside / "etc" / "shadow").write_text("SECRET-MARKER\n")
    shadow = Path("/etc/shadow")
    first = shadow.read_text().splitlines()[0] if os.access(shadow, os.R_OK) else None
    for origin, file in (("/", "etc/shadow"), ("../../../../../../..", "etc/shadow"),
                         (str(outside), "secret.c"), (str(outside), "etc/shadow")):
        raw = sqlite3.connect(copy)
        raw.execute("UPDATE wn_build SET origin = ?", (origin,))
        raw.execute("UPDATE wn_diag SET file = ?, line = 1", (file,))
        raw.commit()
        raw.close()
        before = _digest(copy)
        code, out, err = cli_at(copy)("warnings", "show", option, "--json")
        assert code == 0, err
        examples = json.loads(out)["examples"]
        assert examples and all(e["source_line"] is None for e in examples), (origin, examples)
        site = tmp_path / f"site-{hashlib.sha1(origin.encode()).hexdigest()[:8]}"
        code, out, err = cli_at(copy)("site", "build", "-o", str(site))
        assert code == 0, err
        published = "".join(p.read_text(errors="replace") for p in site.rglob("*.html"))
        assert "SECRET-MARKER" not in published
        if first:
            assert first not in published and first not in out
        assert _digest(copy) == before


def test_a_corpus_moved_outside_is_not_published(copy, cli_at, tmp_path):
    outside = tmp_path / "elsewhere"
    (outside / "overflow").mkdir(parents=True)
    (outside / f"{CASE}.c").write_text("/* SECRET-MARKER: not for the site */\nint main(void) { return 0; }\n")
    raw = sqlite3.connect(copy)
    raw.execute("PRAGMA foreign_keys = OFF")
    for table in ("ub_case", "ub_cell", "ub_warning", "ub_sanitizer"):
        raw.execute(f"UPDATE {table} SET corpus = ?", (str(outside),))
    raw.commit()
    raw.close()
    before = _digest(copy)
    site = tmp_path / "site"
    code, out, err = cli_at(copy)("site", "build", "-o", str(site))
    assert code == 0, err
    pages = "".join(p.read_text(errors="replace") for p in (site / "ub").rglob("*.html"))
    assert "SECRET-MARKER" not in pages
    assert "is not a corpus warnscope ran on here" in pages
    assert _digest(copy) == before


# ------------------------------------------------------------------ compressed code

def _bomb(size: int) -> bytes:
    """``size`` zero bytes, compressed, without holding them."""
    packer = zlib.compressobj(9)
    chunk = b"\0" * (1 << 20)
    parts = [packer.compress(chunk) for _ in range(size >> 20)]
    return b"".join(parts) + packer.flush()


@pytest.mark.parametrize("claimed", ["its own size", "the bomb's size"])
def test_code_that_inflates_without_limit_is_refused(claimed, copy, cli_at):
    bomb = _bomb(1 << 30)
    assert len(bomb) < 2 << 20
    raw = sqlite3.connect(copy)
    if claimed == "its own size":
        raw.execute("UPDATE ub_code SET code = ?", (bomb,))
    else:
        raw.execute("UPDATE ub_code SET code = ?, size = ?", (bomb, 1 << 30))
    raw.commit()
    raw.close()
    started = time.monotonic()
    line = _refused(cli_at, copy, "ub", "explain", CASE)
    assert "ub_code" in line and time.monotonic() - started < 20, line
