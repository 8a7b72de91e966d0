"""A user's ``--build`` and ``--configure`` text reaches the shell as typed: only the
placeholders (``{jobs}``, ``{flags}``, ``{cflags}``, ``{cxxflags}``) are filled in, every
other brace is the shell's (``${st:-0}``, ``{ …; }``, ``{a,b}``). A real build with gcc-12
whose script says what its shell saw through ``#warning`` lines.
"""
from __future__ import annotations

import json
import shutil

import pytest

pytestmark = pytest.mark.skipif(shutil.which("gcc-12") is None, reason="needs gcc-12")

#: a configure and a build command in the shell's own brace syntax
CONFIGURE = 'st=${st:-0}; { printf "%s\\n" "configured $st" "braces {a,b} ${x:+x}{}"; } > said.txt'
BUILD = ("while read -r line; do printf '#warning \"%s\"\\n' \"$line\"; done < said.txt > b.c; "
         "{ echo 'jobs {jobs}' | sed 's/^/#warning /'; } >> b.c; "
         "${CC:-cc} $CFLAGS -c b.c -o b.o")


def test_braces_in_a_users_commands_reach_the_shell_as_typed(gcc_db_copy, cli_at, tmp_path):
    tree = tmp_path / "proj"
    tree.mkdir()
    (tree / "README").write_text("a tree built by its commands alone\n")
    code, out, err = cli_at(gcc_db_copy)("warnings", "run", "--source", str(tree), "--configure", CONFIGURE,
                                         "--build", BUILD, "--compilers", "gcc-12", "--level", "default",
                                         "--jobs", "3", "--json", "--quiet")
    assert code == 0, err
    (build,) = json.loads(out)["builds"]
    assert build["status"] == "ok", build
    said = sorted(d["message"] for d in build["diagnostics"])
    assert said == ['#warning "braces {a,b} {}"', '#warning "configured 0"', "#warning jobs 3"], said


def test_a_failed_configure_shows_its_command_as_it_ran(gcc_db_copy, cli_at, tmp_path):
    """A configure that fails is said with its command as the shell ran it: the
    placeholders filled, on one line, its control characters made visible."""
    tree = tmp_path / "proj"
    tree.mkdir()
    (tree / "README").write_text("a tree whose configure fails\n")
    configure = 'CFLAGS="{cflags}" CXXFLAGS="{cxxflags}" false # \x1b[2J'
    code, out, err = cli_at(gcc_db_copy)("warnings", "run", "--source", str(tree), "--configure", configure,
                                         "--build", "true", "--compilers", "gcc-12", "--level", "default",
                                         "--opt", "-O1", "--json", "--quiet")
    (build,) = json.loads(out)["builds"]
    assert build["status"] == "failed", build
    assert build["error"].startswith('configure failed (exit 1): CFLAGS="-O1" CXXFLAGS="-O1" false # \\x1b[2J'), \
        build["error"]
    assert "{cflags}" not in out + err and "\x1b" not in out + err


def test_a_source_compiled_twice_to_one_object_is_two_tus(gcc_db_copy, cli_at, tmp_path):
    # as gmp's build does: the same compile twice; each is a TU of its own, stored
    tree = tmp_path / "twice"
    tree.mkdir()
    (tree / "gen.c").write_text("int main(void) { int unused; return 0; }\n")
    code, out, err = cli_at(gcc_db_copy)("warnings", "run", "--source", str(tree), "--build",
                                         "${CC:-cc} $CFLAGS -c gen.c -o gen.o && ${CC:-cc} $CFLAGS -c gen.c -o gen.o",
                                         "--compilers", "gcc-12", "--level", "wall", "--json", "--quiet")
    assert code == 0, err
    (build,) = json.loads(out)["builds"]
    assert build["status"] == "ok", build
    assert [t["tu"] for t in build["tus"]] == ["gen.c -> gen.o", "gen.c -> gen.o #2"]
    (unused,) = build["diagnostics"]
    assert unused["option"] == "-Wunused-variable" and unused["printed"] == 2


def test_a_configure_that_gives_up_is_said_by_its_own_line(gcc_db_copy, cli_at, tmp_path):
    # as gmp's Debian build under gcc-15 (its rules run configure): configure's test
    # compiles fail as it expects, their output in config.log, and configure's own line,
    # not a conftest's error, says why the build stopped
    tree = tmp_path / "gives-up"
    tree.mkdir()
    (tree / "a.c").write_text("int a(void) { return 0; }\n")
    (tree / "broken.h").write_text("typedef int size_t size_t;\n")   # a header a test breaks
    build = ("printf '#include \"broken.h\"\\nint main(void) { return missing; }\\n' > conftest.c; "
             "${CC:-cc} $CFLAGS conftest.c -o conftest 2>config.log "
             "|| { echo 'configure: error: could not find a working compiler'; exit 1; }; "
             "${CC:-cc} $CFLAGS -c a.c -o a.o")
    code, out, err = cli_at(gcc_db_copy)("warnings", "run", "--source", str(tree), "--build", build,
                                         "--compilers", "gcc-12", "--level", "default", "--json", "--quiet")
    (built,) = json.loads(out)["builds"]
    assert built["status"] == "failed", built
    assert built["error"].endswith(": configure: error: could not find a working compiler"), built["error"]
    # the conftest's errors are still read, as diagnostics of its compile
    assert {"conftest.c", "broken.h"} <= {d["file"] for d in built["diagnostics"]}
