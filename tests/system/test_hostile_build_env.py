"""A build sees none of the caller's secrets: its environment is composed by warnscope
(PATH, HOME, TMPDIR, the C locale, the build's own CC/CFLAGS and the wrapper's variables),
never the caller's, and ``--env NAME`` passes exactly that one variable.

A real local tree whose configure writes ``$SECRET_TOKEN`` and its whole environment into
``config.h`` (one macro per variable it sees), ``config.log`` and its output; built by
``upgrade`` clang-14 -> clang-16 (clang 16 fails it: its logs are kept in the cache), with
SARIF output, by ``warnings run`` and rendered by ``site build``. The token reaches no
output, no page, no SARIF log, no row of the database, no kept log.
"""
from __future__ import annotations

import json
import os
import sqlite3
import uuid
from pathlib import Path

import pytest

from warnscope.paths import cache_dir

#: configure: the token and every variable the build sees, into config.h, config.log and
#: its own output (configure.log, kept in the cache when the build fails)
CONFIGURE = r"""#!/bin/sh
echo "token: $SECRET_TOKEN"
env
{ echo "token: $SECRET_TOKEN"; env; } > config.log
{
  echo "#define LEAK \"a $SECRET_TOKEN\""
  env | sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)=.*/#define ENV_\1 1/p'
} > config.h
"""
#: clang 16 makes the implicit declaration an error: the build fails, its logs are kept
MAIN = '#include "config.h"\nint main(void) { return puts(LEAK) < 0; }\n'
#: what a build's environment may hold: warnscope's own and what the shell adds itself
ALLOWED = {"PATH", "HOME", "TMPDIR", "LC_ALL", "LANG", "CCACHE_DISABLE", "CC", "CXX", "CFLAGS",
           "CXXFLAGS", "PWD", "OLDPWD", "SHLVL", "_"}


@pytest.fixture
def leaky(tmp_path, monkeypatch):
    """The tree, the token planted in this (the caller's) environment, and a variable that
    may be passed by name."""
    tree = tmp_path / f"leaky-{uuid.uuid4().hex[:8]}"
    tree.mkdir()
    (tree / "configure").write_text(CONFIGURE)
    (tree / "configure").chmod(0o755)
    (tree / "main.c").write_text(MAIN)
    (tree / "Makefile").write_text("all:\n\t$(CC) $(CFLAGS) -c main.c -o main.o\n")
    secret = f"hunter2-{uuid.uuid4().hex}"
    monkeypatch.setenv("SECRET_TOKEN", secret)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", secret)
    monkeypatch.setenv("PASSME", "passed-value")
    return tree, secret


def _macros(db: Path) -> dict[str, dict[str, str]]:
    """compiler -> the macros of its build's config.h."""
    conn = sqlite3.connect(db)
    out: dict[str, dict[str, str]] = {}
    for compiler, name, value in conn.execute(
            "SELECT b.compiler, m.name, m.value FROM wn_macro m JOIN wn_build b ON b.id = m.build_id "
            "WHERE b.level = 'default'"):
        out.setdefault(compiler, {})[name] = value
    return out


def _everywhere(paths: list[Path], secret: str) -> list[str]:
    """Every file under ``paths`` that holds ``secret``."""
    found = []
    for top in paths:
        files = [top] if top.is_file() else [p for p in top.rglob("*") if p.is_file()]
        found += [str(p) for p in files if secret.encode() in p.read_bytes()]
    return found


def test_a_planted_token_reaches_no_build_log_row_page_or_sarif(leaky, tmp_path, cli_at, dump, require):
    require("clang-14")
    require("clang-16")
    tree, secret = leaky
    db = tmp_path / "leak.db"
    cli = cli_at(db)
    code, sarif, err = cli("upgrade", "--source", str(tree), "--build", "make", "--quiet",
                           "--from", "clang-14", "--to", "clang-16", "--format", "sarif")
    assert code == 0, err
    code, text, err2 = cli("upgrade", "--source", str(tree), "--build", "make", "--quiet",
                           "--from", "clang-14", "--to", "clang-16", "--stored")
    assert code == 0, err2
    code, run_out, err3 = cli("warnings", "run", "--source", str(tree), "--build", "make", "--quiet",
                              "--compilers", "clang-14", "--levels", "default", "--json")
    assert code == 0, err3
    site = tmp_path / "site"
    code, site_out, err4 = cli("site", "build", "-o", str(site))
    assert code == 0, err4
    # the builds ran: configure wrote what it saw, the failed build's logs are kept
    macros = _macros(db)
    assert set(macros) == {"clang-14", "clang-16"}
    for seen in macros.values():
        assert seen["LEAK"] == '"a "'                       # $SECRET_TOKEN was empty
        names = {n[len("ENV_"):] for n in seen if n.startswith("ENV_")}
        assert "SECRET_TOKEN" not in names and "AWS_SECRET_ACCESS_KEY" not in names
        assert "PASSME" not in names                        # not passed: not there
        assert {"PATH", "CC", "CFLAGS", "LC_ALL"} <= names
        assert names - ALLOWED <= {n for n in names if n.startswith("WARNSCOPE_BUILD_")}, names
    (kept,) = [p for p in (cache_dir("warnings", "logs")).glob(f"local_{tree.name}*")]
    assert any(kept.rglob("configure.log"))
    assert "PASSME" not in text and "token: " not in text
    outputs = [sarif, text, run_out, site_out, err, err2, err3, err4, "\n".join(dump(db))]
    assert [o for o in outputs if secret in o] == []
    assert _everywhere([site, kept], secret) == []


def test_env_passes_exactly_the_one_named(leaky, tmp_path, cli_at):
    tree, secret = leaky
    db = tmp_path / "passed.db"
    code, out, err = cli_at(db)("warnings", "run", "--source", str(tree), "--build", "make", "--quiet",
                                "--compilers", "gcc-12", "--levels", "default", "--env", "PASSME",
                                "--json")
    assert code == 0, err
    (build,) = json.loads(out)["builds"]
    assert build["passed_env"] == ["PASSME"]
    names = {n[len("ENV_"):] for n in build["macros"]["config.h"] if n.startswith("ENV_")}
    assert "PASSME" in names and "SECRET_TOKEN" not in names
    assert names - ALLOWED - {"PASSME"} <= {n for n in names if n.startswith("WARNSCOPE_BUILD_")}
    assert secret not in out
    code, text, err = cli_at(db)("warnings", "run", "--source", str(tree), "--build", "make", "--quiet",
                                 "--compilers", "gcc-12", "--levels", "default", "--env", "PASSME")
    assert code == 0, err
    assert "passed from your environment (--env): PASSME" in text
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT passed_env FROM wn_build").fetchall() == [('["PASSME"]',)]


#: every command that builds a project, with what it needs besides the tree
BUILDING = {"warnings run": ("warnings", "run", "--compilers", "gcc-12"),
            "upgrade": ("upgrade", "--from", "gcc-11", "--to", "gcc-12"),
            "advise": ("advise", "--compilers", "gcc-12"),
            "overhead run": ("overhead", "run", "--compilers", "gcc-12")}


@pytest.mark.parametrize("command", BUILDING)
@pytest.mark.parametrize("name, why", [
    ("NOT_SET_ANYWHERE", "not set in this environment"),
    ("CC", "warnscope sets or keeps out CC"),
    ("PATH", "warnscope sets or keeps out PATH"),
    ("A=B", "not a variable's name"),
])
def test_env_refuses_in_one_line(leaky, tmp_path, fails_on, command, name, why):
    tree, _secret = leaky
    os.environ.pop("NOT_SET_ANYWHERE", None)
    err = fails_on(tmp_path / "refused.db", *BUILDING[command], "--source", str(tree), "--build", "make",
                   "--quiet", "--env", name)
    assert why in err


def test_overhead_run_passes_the_one_named(tmp_path, cli_at, monkeypatch):
    """A study's build gets the variable ``--env`` names, and only with it: a tree whose
    build needs ``$PASSME`` fails without it and is measured with it."""
    tree = tmp_path / "needs"
    tree.mkdir()
    (tree / "main.c").write_text("int main(void) { return 0; }\n")
    (tree / "Makefile").write_text('all:\n\ttest "$$PASSME" = passed-value\n\t$(CC) $(CFLAGS) -c main.c\n'
                                   "clean:\n\trm -f main.o\n")
    monkeypatch.setenv("PASSME", "passed-value")
    args = ("overhead", "run", "--source", str(tree), "--build", "make", "--compilers", "gcc-12",
            "--levels", "off", "--runs", "1", "--warmups", "0", "--no-accounting", "--quiet", "--json")
    code, out, err = cli_at(tmp_path / "without.db")(*args)
    assert code != 0 and "1 of 1 cells failed" in err and "clean failed" not in err, err
    code, out, err = cli_at(tmp_path / "with.db")(*args, "--env", "PASSME")
    assert code == 0, err
    (cell,) = json.loads(out)["cells"]
    assert cell["status"] == "ok"
