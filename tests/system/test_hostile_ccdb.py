"""Compile databases from someone else that try to make warnscope run their code, read
root-only files or write outside the tree when it replays them as root: driver options
(``-wrapper``, ``-fplugin=``, ``-B``, ``-specs=``, ``-Xclang -load``, ``-Wp,``), a response
file, ``-include``/``-imacros`` of a root-only file, a ``directory`` or an input outside
the tree or behind a link leading out, ``-MF`` outside the tree; and malformed files
(nested 100,000 deep, no entry to replay, not UTF-8, not a list, a NUL, a number too
long).

Real files on disk beside a tiny real C tree, the real CLI (``overhead run
--compile-commands``) with gcc-12. Each must end in one ``warnscope: error:`` line that
names the entry, with the database byte for byte as it was, nothing written anywhere
in the test's directory or at the marker outside it, and no secret in the line; a good
database beside them still replays.
"""
from __future__ import annotations

import json
import os
import shutil
import stat
import tempfile
import uuid
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("gcc-12") is None, reason="gcc-12 not installed")

#: In the root-only files: seen in an error line, warnscope read one.
SECRET = "warnscope_secret_ccdb_5e21"
GOOD_C = "#include \"inc/h.h\"\nint f(int x) { return x + H; }\n"
RUN = ("--compilers", "gcc-12", "--levels", "off", "--runs", "1")


@pytest.fixture
def marker():
    """A path outside the test's directory that an attack would create."""
    path = Path(tempfile.gettempdir()) / f"warnscope-ccdb-{uuid.uuid4().hex}"
    yield path
    if path.exists() or path.is_symlink():
        path.unlink()


@pytest.fixture
def tree(tmp_path) -> Path:
    """tmp_path/proj: a tiny C tree (a.c, inc/h.h); tmp_path/outside: root-only files
    beside it (a header, a response file, a source), out of the tree."""
    proj = tmp_path / "proj"
    (proj / "inc").mkdir(parents=True)
    (proj / "a.c").write_text(GOOD_C)
    (proj / "inc" / "h.h").write_text("#define H 1\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    for name, text in {"secret.h": f"{SECRET}\n", "x.rsp": f"-D{SECRET}\n",
                       "secret.c": f"int {SECRET};\n"}.items():
        (outside / name).write_text(text)
        (outside / name).chmod(0o600)
    outside.chmod(0o700)
    return proj


def _good(proj: Path) -> dict:
    return {"directory": str(proj), "file": "a.c", "arguments": ["cc", "-c", "a.c", "-o", "a.o"]}


def _snapshot(root: Path) -> dict[str, bytes | str]:
    found: dict[str, bytes | str] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            st = os.lstat(path)
            found[str(path)] = (path.read_bytes() if stat.S_ISREG(st.st_mode)
                                else os.readlink(path) if stat.S_ISLNK(st.st_mode) else "dir")
    return found


@pytest.fixture
def refused(gcc_db_copy, fails_on, tmp_path, marker):
    """``refused(text_or_bytes)``: write it as proj/compile_commands.json and replay it:
    one error line (returned), the database as it was, nothing written in tmp_path (but
    the database file) nor at the marker, no secret in the line."""

    def run(content: str | bytes) -> str:
        ccdb = tmp_path / "proj" / "compile_commands.json"
        if isinstance(content, str):
            ccdb.write_text(content)
        else:
            ccdb.write_bytes(content)
        before = _snapshot(tmp_path)
        line = fails_on(gcc_db_copy, "overhead", "run", "--compile-commands", str(ccdb), *RUN)
        assert _snapshot(tmp_path) == before
        assert not marker.exists() and not marker.is_symlink()
        assert SECRET not in line
        assert str(ccdb) in line
        return line

    return run


def _entry(proj: Path, *args: str, **fields: str) -> dict:
    return {"directory": str(proj), "file": "a.c", "arguments": ["cc", *args], **fields}


#: (what the entry adds before "-c a.c", what the error line must say); {out} is the
#: directory of root-only files beside the tree, {marker} a path outside the test's.
ATTACKS = {
    "wrapper": (["-wrapper", "/bin/sh,-c,touch {marker}"], "'-wrapper' is not allowed"),
    "fplugin": (["-fplugin={out}/evil.so"], "'-fplugin="),
    "plugin-arg": (["-fplugin-arg-evil-x=1"], "is not allowed"),
    "B": (["-B", "{out}/"], "'-B' is not allowed"),
    "B-joined": (["-B{out}/"], "is not allowed"),
    "specs": (["-specs={out}/evil.specs"], "is not allowed"),
    "include-shadow": (["-include", "/etc/shadow"], "-include '/etc/shadow' lies outside the tree"),
    "include-root-only": (["-include{out}/secret.h"], "lies outside the tree"),
    "imacros": (["-imacros", "{out}/secret.h"], "lies outside the tree"),
    "response-file": (["@{out}/x.rsp"], "response file"),
    "MF-outside": (["-MD", "-MF", "{marker}"], "-MF"),
    "Wp-MD": (["-Wp,-MD,{marker}"], "is not allowed"),
    "Wl": (["-Wl,-rpath,/x"], "is not allowed"),
    "Xclang-load": (["-Xclang", "-load", "-Xclang", "{out}/evil.so"], "'-Xclang' is not allowed"),
    "Xpreprocessor": (["-Xpreprocessor", "-include"], "is not allowed"),
    "sysroot": (["--sysroot=/"], "is not allowed"),
    "L": (["-L/usr/lib"], "is not allowed"),
    "I-outside": (["-I", "{out}"], "lies outside the tree"),
    "I-etc": (["-I/etc"], "lies outside the tree"),
    "input-outside": (["-x", "c", "{out}/secret.c"], "input file"),
    "input-shadow": (["-x", "c", "/etc/shadow"], "input file '/etc/shadow' lies outside"),
    "profile-path": (["-fprofile-use={out}/p"], "is not allowed"),
    "dump": (["-fdump-tree-all"], "is not allowed"),
    "mllvm": (["-mllvm", "-debug-pass=Arguments"], "'-mllvm' is not allowed"),
    "save-temps": (["-save-temps"], "is not allowed"),
    "o-outside": (["-o", "{marker}"], "-o"),
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_an_option_that_runs_reads_or_writes_is_refused_with_its_entry(attack, tree, refused, marker):
    extra, said = ATTACKS[attack]
    out = str(tree.parent / "outside")
    args = [a.format(out=out, marker=marker) for a in extra]
    line = refused(json.dumps([_good(tree), _entry(tree, *args, "-c", "a.c")]))
    assert ": entry 1: " in line, line
    assert said.format(out=out, marker=marker) in line, line


def test_the_command_form_is_checked_the_same(tree, refused, marker):
    command = f"cc -wrapper '/bin/sh,-c,touch {marker}' -c a.c"
    line = refused(json.dumps([_good(tree), {"directory": str(tree), "file": "a.c", "command": command}]))
    assert ": entry 1: '-wrapper' is not allowed" in line


@pytest.mark.parametrize("directory", ["/root", "/etc", "..", "../outside"])
def test_a_directory_outside_the_tree_is_refused(directory, tree, refused):
    line = refused(json.dumps([_good(tree), {**_good(tree), "directory": directory}]))
    assert f": entry 1: directory '{directory}' lies outside the tree" in line


def test_a_file_outside_the_tree_is_refused(tree, refused):
    line = refused(json.dumps([_good(tree), {**_good(tree), "file": "/etc/shadow"}]))
    assert ": entry 1: file '/etc/shadow' lies outside the tree" in line


def test_links_leading_out_of_the_tree_are_refused(tree, refused):
    """A directory, an include directory and a source that are links out of the tree;
    a relative ``directory`` is relative to the database's own."""
    out = tree.parent / "outside"
    (tree / "sub").symlink_to(out)
    (tree / "secret.c").symlink_to(out / "secret.c")
    line = refused(json.dumps([_good(tree), {**_good(tree), "directory": "sub"}]))
    assert ": entry 1: directory 'sub' leads out of the tree" in line
    line = refused(json.dumps([_good(tree), _entry(tree, "-Isub", "-c", "a.c")]))
    assert ": entry 1: -I 'sub' leads out of the tree" in line
    line = refused(json.dumps([_good(tree), _entry(tree, "-c", "secret.c")]))
    assert ": entry 1: input file 'secret.c' leads out of the tree" in line


def test_nested_100000_deep_is_one_line(tree, refused):
    line = refused("[" * 100_000 + "]" * 100_000)
    assert "JSON nested too deep" in line
    line = refused("[" * 100_000)
    assert "JSON nested too deep" in line


def test_no_entry_to_replay_is_one_line(tree, refused):
    """Entries that compile no source (a header, with or without -c): said before
    anything is written, never ``max() arg is an empty sequence``."""
    line = refused(json.dumps([_entry(tree, "-o", "a", "inc/h.h"), _entry(tree, "-c", "inc/h.h")]))
    assert "no entry compiles a source: nothing to replay" in line


@pytest.mark.parametrize("content, said", [
    (b'[{"directory": "\xff", "file": "a.c", "arguments": ["cc"]}]', "not UTF-8 text"),
    ("{}", "expected a non-empty JSON list"),
    ("[]", "expected a non-empty JSON list"),
    ('"compile"', "expected a non-empty JSON list"),
    ("[1" + "0" * 5000 + "]", "a number of more digits"),
    ('[\n{"directory": "."\n', "not JSON"),
])
def test_a_malformed_file_is_one_line(content, said, tree, refused):
    assert said in refused(content)


@pytest.mark.parametrize("entry, said", [
    ("[]", "not a JSON object"),
    ('{"directory": 1, "file": "a.c", "arguments": ["cc"]}', "needs string 'directory' and 'file'"),
    ('{"directory": ".", "file": "a.c", "arguments": ["cc", 1]}', "needs 'arguments'"),
    ('{"directory": ".", "file": "a.c", "arguments": []}', "needs 'arguments'"),
    ('{"directory": ".", "file": "a.c", "command": "cc -c \'a.c"}', "command: No closing quotation"),
    ('{"directory": ".", "file": "a.c", "arguments": ["cc", "-c", "a.c\\u0000"]}', "holds a NUL"),
    ('{"directory": ".", "file": "a.c", "arguments": ["cc", "-c", "a.c\\ud800"]}', "lone surrogate"),
    ('{"directory": ".", "file": "a.c", "arguments": ["-wrapper", "-c", "a.c"]}', "is not a compiler"),
])
def test_a_malformed_entry_is_one_line_with_its_index(entry, said, tree, refused):
    line = refused(f"[{json.dumps(_good(tree))}, {entry}]")
    assert ": entry 1: " in line and said in line, line


def test_an_entry_that_compiles_and_links_is_replayed_per_source(gcc_db_copy, cli_at):
    """``cc -o prog a.c src/b.c -lm -l pthread`` (no -c): each source replayed as its own
    compile, the libraries dropped; no program is linked, nothing written in the tree."""
    base = Path(tempfile.mkdtemp(prefix="warnscope-ccdb-link-"))
    try:
        proj = base / "proj"
        (proj / "inc").mkdir(parents=True)
        (proj / "src").mkdir()
        (proj / "a.c").write_text(GOOD_C)
        (proj / "inc" / "h.h").write_text("#define H 1\n")
        (proj / "src" / "b.c").write_text("#include \"h.h\"\nint f(int x);\nint main(void) { return f(H); }\n")
        ccdb = proj / "compile_commands.json"
        ccdb.write_text(json.dumps([{"directory": str(proj), "file": "a.c",
                                     "arguments": ["cc", "-Iinc", "-O2", "-o", "prog", "a.c", "src/b.c",
                                                   "-lm", "-l", "pthread"]}]))
        for p in [base, *base.rglob("*")]:
            p.chmod(0o755 if p.is_dir() else 0o644)
        code, out, err = cli_at(gcc_db_copy)("overhead", "run", "--compile-commands", str(ccdb), *RUN,
                                             "--json")
        assert code == 0, err
        (cell,) = json.loads(out)["cells"]
        assert cell["status"] != "failed" and cell["compilers"] == 2, cell
        assert not (proj / "prog").exists()
    finally:
        shutil.rmtree(base)


def test_a_good_database_still_replays(gcc_db_copy, cli_at):
    """Include directories of the tree and of /usr, macros, dependency files inside the
    tree, the command form and a relative directory: replayed, both entries compiled.
    The tree lies where the build sandbox's pool uid can read it (as a real project's
    does), not in pytest's private base directory."""
    base = Path(tempfile.mkdtemp(prefix="warnscope-ccdb-good-"))
    try:
        base.chmod(0o755)
        proj = base / "proj"
        (proj / "inc").mkdir(parents=True)
        (proj / "src").mkdir()
        (proj / "a.c").write_text(GOOD_C)
        (proj / "inc" / "h.h").write_text("#define H 1\n")
        (proj / "src" / "b.c").write_text("#include <stdio.h>\n#include \"h.h\"\nint g(void) { return H; }\n")
        ccdb = proj / "compile_commands.json"
        ccdb.write_text(json.dumps([
            {"directory": str(proj), "file": "a.c",
             "arguments": ["cc", "-I", ".", "-isystem", "/usr/include", "-DX=\"1\"", "-O2", "-g",
                           "-std=gnu11", "-fPIC", "-Wall", "-MD", "-MF", "a.d", "-c", "a.c", "-o", "a.o"]},
            {"directory": "src", "file": "b.c",
             "command": "/usr/bin/cc -I../inc --param=ssp-buffer-size=4 -fstack-protector-strong "
                        "-ffile-prefix-map=/build/x=. -c b.c -o b.o"},
        ]))
        for p in [base, *base.rglob("*")]:
            p.chmod(0o755 if p.is_dir() else 0o644)
        code, out, err = cli_at(gcc_db_copy)("overhead", "run", "--compile-commands", str(ccdb), *RUN,
                                             "--json")
        assert code == 0, err
        (cell,) = json.loads(out)["cells"]
        assert cell["status"] != "failed" and cell["compilers"] == 2, cell
        # the tree is read-only to the replay: object and dependency file go to its box
        assert not (proj / "a.o").exists() and not (proj / "a.d").exists()
    finally:
        shutil.rmtree(base)
