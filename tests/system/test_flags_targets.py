"""Flag data for every compiler a user has: a cross compiler's (gcc-12@aarch64-linux-gnu,
from gcc-12-source with the target's option files), a compiler named as the user has it
(``gcc``, ``aarch64-linux-gnu-gcc-12``), and an entry from nothing but the binary
(``--from-binary``: ``-Q --help=warnings``; diagtool). Real binaries, the real gcc-12
source of the shared ``gcc_db`` (its download is not repeated), and bad binaries
written here: one error line, the database unchanged.
"""
from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from analyzer.runtime import identify
from analyzer.verify.gcc_q import lister
from flagdb import listing, store
from flagdb.ingest import ingest
from warnscope.database import connect

CROSS = "gcc-12@aarch64-linux-gnu"
DRIVER = "aarch64-linux-gnu-gcc-12"
SCENARIOS = ([], ["-Wall"], ["-Wextra"])


@pytest.fixture(scope="module")
def cross_db(gcc_db, tmp_path_factory) -> Path:
    """``gcc_db`` (gcc-11, gcc-12) with gcc-12@aarch64-linux-gnu ingested beside them."""
    if shutil.which(DRIVER) is None:
        pytest.skip(f"{DRIVER} is not installed (setup.sh installs Debian's cross compilers)")
    path = tmp_path_factory.mktemp("targets") / "cross.db"
    shutil.copy(gcc_db, path)
    conn = connect(path)
    ingest(conn, CROSS)
    conn.close()
    return path


def listings(driver: str) -> dict[tuple[str, str], dict[str, str]]:
    """What the binary's ``-Q --help=warnings`` prints, per language and scenario:
    {option: state}."""
    out = {}
    with lister(driver) as ask:
        for lang in listing.LANGS:
            for flags in SCENARIOS:
                lines = listing.parse_gcc_q(ask(lang, flags), driver)
                out[(lang, " ".join(flags))] = {n: l.state for n, l in lines.items()}
    return out


# ------------------------------------------------------------------ a cross compiler

def test_cross_entry_is_the_release_read_for_its_target(cross_db, gcc12):
    data = store.load(connect(cross_db), CROSS)
    assert data.compiler == CROSS and data.version == gcc12.version
    assert data.package == gcc12.package and data.debian_version == gcc12.debian_version
    assert "for aarch64-linux-gnu" in data.source and "config/aarch64/aarch64.opt" in data.source
    # GCC 12's aarch64 and Linux option files hold no warning option: the provenance says
    # so, and nothing of them is in the data
    assert "no warning option" in data.source
    assert not any("config/aarch64" in f.origin for f in data.flags)


def test_diff_host_and_cross_is_what_the_two_binaries_list(cross_db, cli_at, require):
    require("gcc-12")
    host, cross = listings("gcc-12"), listings(DRIVER)
    names_only = {n for k in host for n in set(host[k]) ^ set(cross[k])}
    states = {(k, n) for k in host for n in set(host[k]) & set(cross[k]) if host[k][n] != cross[k][n]}
    code, out, _ = cli_at(cross_db)("flags", "diff", "gcc-12", CROSS, "--json")
    result = json.loads(out)
    assert code == 0
    assert {f["name"] for f in result["added"]} == {n for n in names_only if n in cross[("C", "")]}
    assert {f["name"] for f in result["removed"]} == {n for n in names_only if n in host[("C", "")]}
    assert bool(result["changed"]) == bool(states)
    code, out, _ = cli_at(cross_db)("flags", "diff", "gcc-12", CROSS)
    if not names_only and not states:   # what Debian's gcc-12 and its aarch64 cross list
        assert out.strip().splitlines() == [
            f"gcc-12 and {CROSS}: no difference (one release, two targets): the same "
            f"{len(result['in_both'])} flags, alike in every attribute compared (default, "
            "-Wall, -Wextra, languages, aliases, arguments, help)"]


#: every flags command that names a compiler, with {c} where it does
NAMED = (("list", "{c}"), ("show", "-Wall", "-c", "{c}"), ("tree", "{c}", "-Wall"),
         ("diff", "gcc-12", "{c}"), ("diff", "{c}", "gcc-12"), ("check", "--compilers", "gcc-11,{c}", "--", "-Wall"),
         ("everything", "{c}"), ("export", "{c}", "--format", "json"),
         ("messages", "-Wall", "-c", "{c}"), ("since", "{c}"))


@pytest.mark.parametrize("command", NAMED, ids=lambda c: c[0])
def test_every_flags_command_takes_the_cross_driver_as_ub_run_does(cross_db, cli_at, command):
    """A compiler named as the user has it (``aarch64-linux-gnu-gcc-12``) is resolved
    once at the edge, in every flags command as in ``ub run``: the same answer as its id
    (before, every one but ingest and verify said "unknown compiler id")."""
    cli = cli_at(cross_db)
    as_json = () if "json" in command else ("--json",)
    by_id = cli("flags", *(w.format(c=CROSS) for w in command), *as_json)
    by_driver = cli("flags", *(w.format(c=DRIVER) for w in command), *as_json)
    assert by_id[0] == 0, by_id
    assert by_driver == by_id


def test_a_flags_command_names_an_unknown_compiler_in_one_line(must_fail):
    line = must_fail("flags", "diff", "gcc-12", "no-such-cc-12")
    assert line.startswith("warnscope: error: unknown compiler id 'no-such-cc-12'")


@pytest.mark.parametrize("name", [DRIVER, CROSS])
def test_verify_the_cross_binary(cross_db, cli_at, name):
    code, out, err = cli_at(cross_db)("flags", "verify", name)
    assert code == 0, out + err
    lines = out.splitlines()
    assert lines[0].startswith(f"{CROSS} ({shutil.which(DRIVER)}): compared version 1, names ")
    assert lines[1].endswith(" 0 unexplained")
    code, out, _ = cli_at(cross_db)("flags", "verify", name, "--json")
    report = json.loads(out)
    assert report["ok"] and report["compiler"] == CROSS
    # the Debian package of the cross compiler is found (gcc-12-aarch64-linux-gnu, built
    # from the same gcc-12-source): compared, and explained as another revision if it is one
    assert report["compared"]["package"] == 1
    assert all(f["reason"] for f in report["findings"])


def test_verify_a_plain_name_on_path(cli, require):
    require("gcc")
    name = identify.identify("gcc").cid
    code, out, err = cli("flags", "verify", "gcc")
    assert code == 0, out + err
    assert out.startswith(f"{name} (") and " 0 unexplained" in out


def test_history_and_since_keep_the_cross_compiler_apart(cross_db, cli_at):
    cli = cli_at(cross_db)
    code, out, _ = cli("flags", "history", "-Wshadow")
    lines = out.splitlines()
    assert code == 0
    assert "gcc: present in every ingested version (gcc-11 … gcc-12)" in lines
    at = lines.index("other targets (a release built for another target, not a release of its own):")
    assert lines[at + 1].startswith(f"  {CROSS} 12.2") and lines[at + 1].endswith("(as in gcc-12)")
    assert not any(l.startswith(CROSS) for l in lines[:at])
    code, out, _ = cli("flags", "since")
    assert code == 0
    assert "gcc-12 (12.2.0) since gcc-11 (" in out      # not since the cross compiler
    assert f"{CROSS} (12.2.0): gcc-12 built for aarch64-linux-gnu, not a release of its own" in out
    code, out, _ = cli("flags", "since", CROSS, "--json")
    assert json.loads(out)[0]["target"] == "aarch64-linux-gnu"
    assert json.loads(out)[0]["previous"] == "gcc-12"
    code, out, _ = cli("flags", "versions")
    row = next(l for l in out.splitlines() if l.startswith(CROSS))
    assert "for aarch64-linux-gnu" in row


def test_ingest_by_driver_name_is_the_cross_id(gcc_db_copy, cli_at, require):
    require(DRIVER)
    code, out, err = cli_at(gcc_db_copy)("flags", "ingest", DRIVER)
    assert code == 0, err
    assert out.startswith(f"{CROSS}: added (12.")
    assert CROSS in {r.name for r in store.compilers(connect(gcc_db_copy))}


# ------------------------------------------------------------------ from the binary alone

@pytest.fixture(scope="module")
def listed12(tmp_path_factory):
    """gcc-12 from its listings alone, in a database of its own."""
    if shutil.which("gcc-12") is None:
        pytest.skip("gcc-12 is not installed")
    path = tmp_path_factory.mktemp("listed") / "listed.db"
    from analyzer.cli import main

    assert main(["--db", str(path), "flags", "ingest", "gcc-12", "--from-binary", "--no-plugin"]) == 0
    return path


def test_from_binary_gcc_has_every_name_the_binary_lists(listed12, gcc12):
    data = store.load(connect(listed12), "gcc-12")
    assert data.source_kind == listing.SOURCE_KIND and data.source.startswith(shutil.which("gcc-12"))
    listed = listings("gcc-12")
    names = {f.name for f in data.flags}
    for states in listed.values():
        assert set(states) <= names
    # and every one of them is an option of the source's data too
    assert names <= {f.name for f in gcc12.flags}
    # the facts -Q shows agree with the option files
    assert data.flag("-Wformat").alias_of == "-Wformat=1"
    assert data.flag("-Wformat=").argument == "<0,2>" and data.flag("-Wformat=").gcc.range == (0, 2)
    assert data.flag("-Wshadow").description.startswith("Warn when")
    assert data.flag("-Wreorder").languages == ["C++", "ObjC++"]
    # a Common option -Q calls "[available in Modula-2]" (Debian's extra front end) is
    # still C's and C++'s: the compiler takes it for both
    assert data.flag("-Wunused-parameter").languages == ["C", "C++"]
    # what -Wall turns on, by the entry's edges, is what the source's data says, where
    # -Q can show it (an option on by default shows no change)
    from flagdb.closure import Index, closure

    for lang, label in (("C", ""), ("C++", "")):
        mine = closure(Index(data), ["-Wall"], lang)
        theirs = closure(Index(gcc12), ["-Wall"], lang)
        default_on = {n for n, s in listed[(lang, label)].items()
                      if listing.is_on(listing.value_of(s))}
        assert set(mine) - set(theirs) <= {"-Wstrict-aliasing=", "-Wstrict-overflow="}
        assert {n for n in set(theirs) - set(mine) if n in listed[(lang, label)]} <= default_on | {
            "-Warray-bounds", "-Wuse-after-free", "-Wunused-parameter"}


def test_from_binary_is_said_so(listed12, cli_at):
    cli = cli_at(listed12)
    code, out, _ = cli("flags", "versions")
    assert code == 0 and f"binary-listing: {shutil.which('gcc-12')} -Q --help=warnings" in out
    code, out, _ = cli("flags", "show", "-Wshadow", "-c", "gcc-12")
    assert "origin      binary listing (-Q --help=warnings)" in out
    code, out, err = cli("flags", "verify", "gcc-12")
    assert code == 0, out + err
    assert " 0 unexplained" in out


def test_from_binary_clang_16_is_its_tables(gcc_clang_db, tmp_path, cli_at, require):
    require("clang-16")
    require("diagtool-16")
    db = tmp_path / "clang.db"
    cli = cli_at(db)
    code, out, err = cli("flags", "ingest", "clang-16", "--from-binary", "--no-plugin")
    assert code == 0, err
    data = store.load(connect(db), "clang-16")
    assert data.source_kind == listing.SOURCE_KIND
    printed = listing.parse_print_options(
        __import__("subprocess").run(["clang-16", "--print-diagnostic-options"], capture_output=True,
                                     text=True, check=True).stdout, "clang-16")
    names = {f.name[2:] for f in data.flags}
    assert set(printed) <= names
    tables = store.load(connect(gcc_clang_db), "clang-16")
    from flagdb.compare import diff

    result = diff(tables, data)
    assert not result.added and not result.removed
    # the binary has no documentation texts: only descriptions may differ
    assert {c.attribute for fc in result.changed for c in fc.changes} <= {"description"}
    code, out, err = cli("flags", "verify", "clang-16")
    assert code == 0 and " 0 unexplained" in out, out + err


# ------------------------------------------------------------------ bad binaries

def script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return str(path)


def test_not_a_compiler(must_fail, tmp_path):
    for args in (("flags", "ingest", "/bin/true"), ("flags", "verify", "/bin/true"),
                 ("flags", "ingest", "/bin/true", "--from-binary")):
        assert "is not GCC nor clang" in must_fail(*args)
    nonsense = script(tmp_path, "nonsense-cc", "echo 'hello there'; echo '#define X 1'\n")
    assert "is not GCC nor clang" in must_fail("flags", "ingest", nonsense)
    assert "no such file" in must_fail("flags", "ingest", "./no-such-cc-anywhere")
    assert "unknown compiler id 'no-such-cc-anywhere'" in must_fail(
        "flags", "ingest", "no-such-cc-anywhere")


def test_a_compiler_that_lies_about_its_version(must_fail, tmp_path, require):
    gcc = require("gcc-12")
    liar = script(tmp_path, "liar-gcc", f"""case "$1" in
  --version) echo 'gcc (Liar) 14.1.0'; exit 0;;
esac
exec {gcc} "$@"
""")
    line = must_fail("flags", "ingest", liar, "--from-binary")
    assert "not trusted" in line and "14.1.0" in line
    assert "not trusted" in must_fail("flags", "verify", liar)


def test_a_compiler_that_hangs_is_stopped_soon(must_fail, tmp_path, monkeypatch, require):
    gcc = require("gcc-12")
    monkeypatch.delenv("WARNSCOPE_TOOL_TIMEOUT", raising=False)
    monkeypatch.setattr(identify, "PROBE_TIMEOUT", 2)
    hangs = script(tmp_path, "hangs-gcc", f"""case "$1" in
  --version) sleep 300;;
esac
exec {gcc} "$@"
""")
    start = time.monotonic()
    line = must_fail("flags", "ingest", hangs, "--from-binary")
    assert "did not answer within 2 s" in line
    assert time.monotonic() - start < 15


def test_from_binary_output_that_is_not_a_listing(tmp_path, fails_on):
    """A "GCC" whose -Q --help=warnings prints a driver option as a warning is refused
    whole: the names become compiler arguments. (A GCC 77: an id no test uses, taken
    out of the named compilers' registry again.)"""
    fake = script(tmp_path, "fake-gcc", r"""case " $* " in
  *" -dM "*) printf '#define __GNUC__ 77\n#define __GNUC_MINOR__ 1\n#define __GNUC_PATCHLEVEL__ 0\n';;
  *" -dumpmachine "*) uname -m | sed 's/$/-linux-gnu/';;
  *" --version "*) echo 'gcc (Fake) 77.1.0';;
  *" -dumpfullversion "*) echo 77.1.0;;
  *" -Q "*) printf 'The following options control compiler warning messages:\n'
            printf '  -Wshadow  \t\t[disabled]\n  -fplugin=/tmp/evil.so  \t\t[enabled]\n';;
  *) printf 'The following options control compiler warning messages:\n  -Wshadow  Warn.\n';;
esac
""")
    from analyzer.runtime import named

    db = tmp_path / "fake.db"
    try:
        line = fails_on(db, "flags", "ingest", fake, "--from-binary")
    finally:
        named.remove("gcc-77")
    assert "'-fplugin=/tmp/evil.so'" in line and "nothing stored" in line
