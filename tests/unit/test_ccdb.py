"""The compile database's allow-list on hand-written entries (analyzer/projects/ccdb.py):
what a real database carries passes, joined into one word per option; the edges of
the option shapes are refused with the entry's index. The hostile suite
(tests/system/test_hostile_ccdb.py) runs the attacks through the CLI."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from analyzer.projects import ccdb
from warnscope.errors import BadInput, ParseError, UnsafeInput


@pytest.fixture
def tree(tmp_path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "inc").mkdir()
    (tmp_path / "a.c").write_text("int a;\n")
    (tmp_path / "src" / "b.cpp").write_text("int b;\n")
    (tmp_path / "inc" / "config.h").write_text("\n")
    return tmp_path


def read(tree: Path, *entries: dict) -> ccdb.CompileDatabase:
    path = tree / "compile_commands.json"
    path.write_text(json.dumps(list(entries)))
    return ccdb.read(str(path))


def args(tree: Path, *arguments: str, directory: str | None = None) -> tuple[str, ...]:
    entry = {"directory": directory or str(tree), "file": "a.c", "arguments": ["cc", *arguments]}
    return read(tree, entry).entries[0].arguments


def refused(tree: Path, *arguments: str, error: type[BadInput] = UnsafeInput) -> str:
    good = {"directory": str(tree), "file": "a.c", "arguments": ["cc", "-c", "a.c"]}
    bad = {"directory": str(tree), "file": "a.c", "arguments": ["cc", *arguments, "-c", "a.c"]}
    with pytest.raises(error) as exc:
        read(tree, good, bad)
    text = str(exc.value)
    assert ": entry 1: " in text and "\n" not in text
    return text


def test_a_real_entry_passes_with_two_word_options_joined(tree):
    got = args(tree, "-I", "inc", "-isystem", "/usr/include", "-iquote", "inc", "-idirafter", "inc",
               "-include", "inc/config.h", "-imacros", "inc/config.h", "-D", "A=\"x y\"", "-U", "B",
               "-DF(x)=x", "-x", "c", "-MD", "-MF", "a.d", "-MT", "a.o", "-MQ", "$(x)", "-MP",
               "--param", "ssp-buffer-size=4", "--param=max-inline-insns-single=10",
               "-O2", "-Ofast", "-g3", "-gdwarf-4", "-gz=zlib", "-std=iso9899:1999", "-stdlib=libc++",
               "-Wall", "-Wno-error=unused-variable", "-Wformat=2", "-W", "-w", "-pedantic-errors",
               "-ansi", "-pipe", "-pthread", "-m64", "-march=x86-64-v2", "-fPIC", "-fno-strict-aliasing",
               "-fvisibility=hidden", "-fsanitize=address,undefined", "-ffile-prefix-map=/build/x=.",
               "-fno-builtin-memcpy", "-c", "a.c", "-o", "a.o")
    assert got[:6] == ("cc", "-Iinc", "-isystem/usr/include", "-iquoteinc", "-idirafterinc",
                       "-includeinc/config.h")
    assert "-DA=\"x y\"" in got and "-UB" in got and "-xc" in got and "-MD" in got
    assert not any(a.startswith("-MF") for a in got)  # the replay's goes beside its object
    assert "--param=ssp-buffer-size=4" in got and "--param=max-inline-insns-single=10" in got
    assert got[-2:] == ("a.c", "-oa.o")
    # every word not starting with '-' is an input file: the source alone here
    assert [a for a in got[1:] if not a.startswith("-")] == ["a.c"]


def test_paths_are_relative_to_the_database_then_to_the_directory(tree):
    db = read(tree, {"directory": "src", "file": "b.cpp", "command": "c++ -I../inc -c b.cpp"})
    (entry,) = db.entries
    assert entry.directory == str(tree / "src") and entry.compiles
    assert db.tree == tree.resolve() and db.path == (tree / "compile_commands.json").resolve()


def test_a_link_inside_the_tree_is_followed(tree):
    (tree / "alias").symlink_to("inc")
    (tree / "s.c").symlink_to("a.c")
    assert args(tree, "-Ialias", "-c", "s.c")[-1] == "s.c"


@pytest.mark.parametrize("option", [
    "-include-pch", "-I-", "-Wl,-z,now", "-Wa,-adhln=/tmp/x", "-Wp,-MD,/tmp/x", "-fplugin=x.so",
    "-fpass-plugin=x.so", "-fdump-rtl-all", "-fopt-info-all=/tmp/x", "-fmodules",
    "-fmodule-map-file=x", "-fmodules-cache-path=/tmp", "-fcrash-diagnostics-dir=/tmp",
    "-fcompare-debug=-fplugin=x", "-fprofile-generate=/tmp", "-fsanitize-ignorelist=/etc/shadow",
    "-fdiagnostics-format=sarif-file", "-fvisibility=../x", "-gmodules", "-gcc-toolchain",
    "-gen-reproducer", "-mllvm", "-save-temps=obj", "-dumpdir", "-isysroot", "-iprefix", "-iwithprefix",
    "-nostdlib", "-v", "-###", "-E", "-S", "-M", "-MM", "--driver-mode=cl", "-working-directory",
    "-resource-dir", "-target", "-static", "-l", "-l../x", "-l:x.a", "-Xlinker", "-Xassembler", "-Xarch_x86_64",
    "-D", "-D-x", "-U1", "-Ufoo=1", "-xjava", "-x", "--param=foo", "-MT-x", "-o-", "-",
])
def test_options_of_no_allowed_kind_are_refused(tree, option):
    text = refused(tree, option)
    assert "entry 1" in text


def test_an_option_missing_its_value_is_refused(tree):
    path = tree / "compile_commands.json"
    path.write_text(json.dumps([{"directory": str(tree), "file": "a.c", "arguments": ["cc", "-c", "a.c", "-I"]}]))
    with pytest.raises(UnsafeInput, match="entry 0: -I needs a value"):
        ccdb.read(str(path))


def test_a_directory_as_an_input_or_a_tree_file_is_refused(tree):
    assert "input file 'inc' is not a regular file" in refused(tree, "inc")
    assert "-MF 'inc': not a regular file" in refused(tree, "-MF", "inc")


def test_long_and_control_values_stay_one_short_line(tree):
    text = refused(tree, "-wrapper\x1b]52;c;AAAA\x07" + "x" * 5000)
    assert "\x1b" not in text and "\\x1b" in text and len(text) < 600


def test_entries_that_compile_nothing_are_counted(tree):
    db = read(tree, {"directory": str(tree), "file": "a.c", "arguments": ["cc", "-c", "a.c"]},
              {"directory": str(tree), "file": "a.c", "arguments": ["cc", "a.c", "-o", "a"]},
              {"directory": str(tree), "file": "a.c", "arguments": ["cc", "-o", "a", "inc/config.h"]})
    assert [e.compiles for e in db.entries] == [True, True, False]
    with pytest.raises(ParseError, match="no entry compiles a source: nothing to replay"):
        read(tree, {"directory": str(tree), "file": "a.c", "arguments": ["cc", "-c", "inc/config.h"]})


def test_an_entry_that_compiles_and_links_keeps_its_sources_and_drops_its_libraries(tree):
    """``cc -o prog a.c src/b.cpp -lm -l pthread``: a compile of each source to replay;
    its libraries are dropped when read (the replay never links)."""
    assert args(tree, "-O2", "-o", "prog", "a.c", "src/b.cpp", "-lm", "-l", "pthread", "-lstdc++") == \
        ("cc", "-O2", "-oprog", "a.c", "src/b.cpp")


def test_too_many_values_is_refused_before_parsing(tree, monkeypatch):
    monkeypatch.setattr(ccdb, "MAX_VALUES", 10)
    path = tree / "compile_commands.json"
    path.write_text("[" + ",".join(["[]"] * 20) + "]")
    with pytest.raises(ParseError, match="more than 10 JSON values"):
        ccdb.read(str(path))
