"""The CLI's conventions a new user meets first: ``--version``, and errors that lead
somewhere. Every hint an error prints here is then run as printed and must succeed:
a suggestion that fails in turn is worse than none.

On the shared real gcc-11/gcc-12 database (``gcc_db``); what a hint would write runs
on a copy. The hints of the warnings and UB queries are tried beside the builds and
runs those questions need (``test_warnings_real.py``, ``test_ub_cli.py``)."""
from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from warnscope.schema import SCHEMA_VERSION

ROOT = Path(__file__).resolve().parents[2]

#: a hinted command as the errors print it: `warnscope …` in backquotes, or after "run: "
COMMAND = re.compile(r"`warnscope ([^`]+)`|run: warnscope (.+?)(?:;|$)")
#: the names an error offers: did you mean 'flags'? / did you mean gcc-12? / give one of a, b
MEANT = re.compile(r"(?:did you mean|give one of) (.+?)(?:\?|$)", re.IGNORECASE)


def hinted_command(error: str) -> list[str]:
    """The arguments of the one command ``error`` tells the user to run."""
    [found] = COMMAND.findall(error)
    return shlex.split(next(part for part in found if part))


def meant(error: str) -> list[str]:
    """The names ``error`` offers instead of what was typed."""
    match = MEANT.search(error.strip())
    assert match, error
    return [n.strip("'") for n in re.split(r", | or ", match.group(1))]


def test_version_names_the_release_and_the_schema(warnscope):
    proc = warnscope("--version")
    assert proc.returncode == 0, proc.stderr
    assert re.fullmatch(rf"warnscope \S+, database schema {SCHEMA_VERSION}\n", proc.stdout.decode())


@pytest.mark.parametrize("typed,expected", [("warnigs", "warnings"), ("flag", "flags"),
                                            ("toolchains", "toolchain"), ("advice", "advise")])
def test_a_mistyped_command_names_the_one_meant_and_it_runs(cli, typed, expected):
    code, _, err = cli(typed, "list")
    assert code == 1 and f"No such command '{typed}'" in err
    assert meant(err) == [expected]
    assert cli(expected, "--help")[0] == 0


@pytest.mark.parametrize("typed,expected", [("gcc12", "gcc-12"), ("GCC-12", "gcc-12"),
                                            ("gcc 11", "gcc-11"), ("gcc-12.2", "gcc-12"),
                                            ("g++12", "gcc-12")])
def test_a_loosely_written_compiler_id_names_the_id_and_it_runs(cli, typed, expected):
    code, _, err = cli("flags", "list", typed)
    assert code == 1 and f"unknown compiler id {typed!r}" in err
    assert meant(err) == [expected]
    code, out, err = cli("flags", "list", expected)
    assert code == 0 and "-Wshadow" in out, err


def test_a_family_name_names_its_ingested_versions_and_each_runs(cli, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))   # no binary called gcc: a family's name
    code, _, err = cli("flags", "show", "-Wall", "--compiler", "gcc")
    assert code == 1 and "names a compiler family" in err
    assert meant(err) == ["gcc-11", "gcc-12"]
    for version in meant(err):
        assert cli("flags", "show", "-Wall", "--compiler", version)[0] == 0


def test_a_plain_name_on_path_is_the_compiler_it_runs(cli, require):
    """``gcc`` where a binary has that name is that compiler, as ``ub run`` takes it:
    resolved once at the edge, in the flags commands too."""
    require("gcc")
    from analyzer.runtime import identify
    cid = str(identify.identify("gcc").cid)
    code, out, err = cli("flags", "show", "-Wall", "--compiler", "gcc", "--json")
    if cid in ("gcc-11", "gcc-12"):
        assert code == 0 and json.loads(out) == json.loads(
            cli("flags", "show", "-Wall", "--compiler", cid, "--json")[1])
    else:
        assert code == 1 and f"compiler '{cid}' is not in the database" in err
    require("g++-12")   # a C++ driver is its compiler
    assert cli("flags", "list", "g++-12", "--json") == cli("flags", "list", "gcc-12", "--json")


def test_a_flag_no_version_has_is_an_error_naming_the_flag_meant(cli):
    code, out, err = cli("flags", "history", "-Wshadw")
    assert (code, out) == (1, "") and "no ingested version has a warning flag -Wshadw" in err
    assert meant(err) == ["-Wshadow"]
    code, out, _ = cli("flags", "history", "-Wshadow")
    assert code == 0 and "present in every ingested version (gcc-11 … gcc-12)" in out
    code, _, err = cli("flags", "history", "-Wno-such-thing-at-all")
    assert code == 1 and "did you mean" not in err


def test_the_ingest_a_missing_compiler_error_prints_runs(gcc_db_copy, cli_at):
    """`flags list clang-16` on a database without it says how to ingest it; that
    command, run as printed, ingests it, and the list then answers."""
    cli = cli_at(gcc_db_copy)
    code, _, err = cli("flags", "list", "clang-16")
    assert code == 1 and "is not in the database" in err
    hint = hinted_command(err)
    assert hint == ["flags", "ingest", "clang-16"]
    code, _, err = cli(*hint)
    assert code == 0, err
    code, out, err = cli("flags", "list", "clang-16")
    assert code == 0 and "-Wshadow" in out, err


def test_tree_marks_the_members_of_some_languages_as_gcc_decides_them(gcc12, require):
    """``flags tree gcc-12 -Wall`` without ``--lang`` marks a member that -Wall turns
    on in C++ only (or C only); gcc-12 itself, asked with ``-Q --help=warnings -Wall``
    for C and for C++, turns each marked member on in those languages and not the others."""
    from analyzer.verify.gcc_q import query
    from flagdb.views import tree

    require("gcc-12")
    root = tree(gcc12, "-Wall")
    marked = {m.name: m.languages for m in root.children if m.languages}
    assert marked["-Wc++11-compat"] == ["C++", "ObjC++"] and "-Waddress" not in marked
    states = {lang: query("gcc-12", lang, ["-Wall"]) for lang in ("C", "C++")}
    for name, languages in marked.items():
        for lang in ("C", "C++"):
            state = states[lang].get(name, "")
            on = state not in ("", "[disabled]", "0", "none") and not state.startswith("[available")
            assert on == (lang in languages), (name, lang, state)


def test_show_without_a_compiler_answers_for_every_version_that_has_the_flag(cli):
    code, out, err = cli("flags", "show", "-Wdangling-pointer=2", "--json")
    assert code == 0, err
    assert [s["compiler"] for s in json.loads(out)] == ["gcc-12"]   # new in gcc-12
    code, out, _ = cli("flags", "show", "-Wshadow")
    assert code == 0 and "-Wshadow (gcc-11)" in out and "-Wshadow (gcc-12)" in out
    code, out, _ = cli("flags", "show", "-Wshadow", "-c", "gcc-12", "--json")
    assert code == 0 and json.loads(out)["compiler"] == "gcc-12"    # one version: one object
    code, _, err = cli("flags", "show", "-Wshadw")
    assert code == 1 and meant(err) == ["-Wshadow"]


def test_options_keep_one_name_and_sensible_defaults(gcc_db_copy, cli_at):
    """``site build`` without -o writes warnscope-site/ beside the database (where the
    demo writes it); --levels and --level: one shown, as the command takes one or several."""
    cli = cli_at(gcc_db_copy)
    code, out, err = cli("site", "build")
    site = gcc_db_copy.parent / "warnscope-site"
    assert code == 0, err
    assert out.splitlines()[-1] == f"open {(site / 'index.html').as_uri()}"
    # one name shown per option: the list where a command takes several, the level where
    # it takes one; the other spelling still runs, hidden (test_option_names_cli)
    for command, shown, hidden in ((["warnings", "top"], "--level", "--levels"),
                                   (["warnings", "report"], "--level", "--levels"),
                                   (["warnings", "run"], "--levels", "--level "),
                                   (["ub", "explain"], "--level", "--levels"),
                                   (["ub", "why"], "--level", "--levels")):
        code, out, _ = cli(*command, "--help")
        assert code == 0 and shown in out and hidden not in out, command


def _complete(warnscope, db, words: str) -> list[str]:
    """What bash completion offers for the last of ``words`` (click's bash protocol)."""
    proc = warnscope(env={"COMP_WORDS": words, "COMP_CWORD": str(len(words.split()) - 1),
                          "_WARNSCOPE_COMPLETE": "bash_complete", "WARNSCOPE_DB": str(db)}, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return [line.partition(",")[2] for line in proc.stdout.decode().splitlines() if line]


def test_completion_offers_compiler_ids_flags_cases_and_projects(warnscope, gcc_db, tmp_path):
    assert _complete(warnscope, gcc_db, "warnscope flags tree gc") == ["gcc-11", "gcc-12"]
    assert _complete(warnscope, gcc_db, "warnscope warnings run --compilers clang-16,gcc-1") == [
        "clang-16,gcc-11", "clang-16,gcc-12"]
    shadow = _complete(warnscope, gcc_db, "warnscope flags tree gcc-12 -- -Wshad")
    assert "-Wshadow" in shadow and all(f.startswith("-Wshad") for f in shadow)
    assert "zlib" in _complete(warnscope, gcc_db, "warnscope warnings report --project z")
    assert _complete(warnscope, gcc_db, "warnscope ub explain signed") == []   # no UB results stored
    assert _complete(warnscope, tmp_path / "none.db", "warnscope flags tree gc") == []


def test_a_terminal_gets_a_pager_and_colour_a_pipe_plain_text(warnscope, on_terminal, gcc_db, tmp_path):
    """Output longer than the terminal goes through $PAGER when stdout is a terminal;
    an error's prefix is coloured there; in a pipe, the same command prints plain text."""
    paged = tmp_path / "paged.txt"
    pager = tmp_path / "pager"
    pager.write_text(f"#!/bin/sh\ncat > {paged}\n")
    pager.chmod(0o755)
    env = {"WARNSCOPE_DB": str(gcc_db), "LINES": "20", "COLUMNS": "100", "PAGER": str(pager)}
    shown = on_terminal("flags", "list", "gcc-12", env=env, keyboard=True)[1]
    piped = warnscope("flags", "list", "gcc-12", env={"WARNSCOPE_DB": str(gcc_db)})
    assert paged.read_bytes() == piped.stdout and piped.stdout.count(b"\n") > 100
    assert b"-Wshadow" not in shown and b"\x1b" not in piped.stdout
    error = on_terminal("flags", "list", "gcc13", env=env, keyboard=True)[1]
    assert b"\x1b[31m" in error and b"unknown compiler id 'gcc13'" in error
    plain = warnscope("flags", "list", "gcc13", env={"WARNSCOPE_DB": str(gcc_db)})
    assert plain.stderr.startswith(b"warnscope: error: unknown compiler id")
    short = on_terminal("flags", "history", "-Wshadow", env={**env, "PAGER": "false"}, keyboard=True)[1]
    assert b"present in every ingested version" in short   # shorter than the terminal: no pager


def test_an_ingest_says_what_it_is_doing_on_a_terminal_only(warnscope, on_terminal, gcc_db_copy):
    """On a terminal, an ingest shows each step on one line that is erased before its
    result is printed; in a pipe, standard error stays empty."""
    env = {"WARNSCOPE_DB": str(gcc_db_copy), "COLUMNS": "100"}
    shown = on_terminal("flags", "ingest", "gcc-12", env=env, keyboard=True)[1].decode()
    assert "\r\x1b[Kgcc-12: reading the option files of gcc-12-source" in shown
    assert "\r\x1b[Kgcc-12: storing" in shown
    assert re.search(r"\r\x1b\[Kgcc-12: (unchanged|replaced)", shown), shown
    piped = warnscope("flags", "ingest", "gcc-12", env={"WARNSCOPE_DB": str(gcc_db_copy)})
    assert piped.returncode == 0 and piped.stderr == b""
