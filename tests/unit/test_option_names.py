"""Which option names warnscope accepts (flagdb.names), and how flags become build text."""
from __future__ import annotations

import shlex
import subprocess

import pytest

from analyzer.projects import levels
from flagdb import names
from warnscope.errors import BadInput, CorruptDatabase

GOOD = ["-W", "-Wall", "-Wformat=", "-Wformat=2", "-Wnormalized=nfc", "-Wc++11-compat", "-Wabi=",
        "-Wno-unused", "-W#pragma-messages", "-Rpass", "-Wlarger-than-", "-Werror=implicit-function-declaration",
        "-pedantic", "--pedantic", "--all-warnings", "--extra-warnings"]
BAD = ["-fplugin=evil.so", "-B/evil/", "-Wp,-include,/root/secret.h", "-Wa,-x", "-Wl,-rpath,/x",
       "-Wzz;touch${IFS}F;", "-Wzz;touch$${IFS}F;", "-W'x", '-W"x', "-Wa b", "-W\nx", "-W-x",
       "Wall", "", "-Wx/y", "-W`id`", "-W$(id)", "-W*", "-Wx\\", "--all-warnings-x", "-pedantic=1"]


@pytest.mark.parametrize("name", GOOD)
def test_real_names_are_accepted(name):
    assert names.problem(name) is None


@pytest.mark.parametrize("name", BAD)
def test_others_are_refused(name):
    assert names.problem(name) is not None


def test_driver_forms_say_so():
    assert "driver option" in names.problem("-Wp,-include,/etc/shadow")


def test_stored_names_refuse_the_database():
    names.require_stored("gcc-12", ["-Wall", None, "-Wformat=2"])
    with pytest.raises(CorruptDatabase, match="gcc-12 .*'-fplugin=/x.so'"):
        names.require_stored("gcc-12", ["-Wall", "-fplugin=/x.so"])


def test_long_names_are_cut_in_messages():
    assert len(names.shown("-W" + "x" * 10000)) < 90


def test_flag_text_is_the_same_words_in_every_quoting_context(tmp_path):
    """The text of accepted names needs no quotes: bare, in '…' and in "…" a shell reads
    the same words, and make's recipe shell too."""
    text = names.flag_text(["-O2", "--warnscope-level=all", *GOOD[1:]])
    words = text.split()
    for template in ("printf '%s\\n' {}", "printf '%s\\n' '{}'", 'printf "%s\\n" "{}"'):
        out = subprocess.run(["sh", "-c", template.format(text)], capture_output=True, text=True,
                             check=True).stdout.split()
        assert out == words
    (tmp_path / "Makefile").write_text("all:\n\t@printf '%s\\n' $(CFLAGS)\n")
    out = subprocess.run(["make", "-s", "-C", str(tmp_path), f"CFLAGS={shlex.quote(text)}"],
                         capture_output=True, text=True, check=True).stdout.split()
    assert out == words


@pytest.mark.parametrize("word", ["-Wzz;touch${IFS}F;", "-Wzz;touch$${IFS}F;", "-I/usr/include",
                                  "-Wx'", "-D'A=1'", "-Wa b"])
def test_flag_text_refuses_other_words(word):
    with pytest.raises(BadInput, match="refusing the flag"):
        names.flag_text(["-O2", word])


@pytest.mark.parametrize("spec", ["x=-Wzz;touch${IFS}F;", "x=all -Wzz;touch$${IFS}F;",
                                  "x=-fplugin=/tmp/x.so", "x=-Wx'y"])
def test_flag_sets_are_held_to_the_same_characters(spec):
    with pytest.raises(BadInput, match="--flag-set x: .* is not an option"):
        levels.parse_custom((spec,))


def test_flag_sets_may_hold_other_options():
    """A user's own set need not be warnings; it is only held to the characters."""
    assert levels.parse_custom(("x=all -fno-strict-aliasing -DNDEBUG=1",)) == {
        "x": ["all", "-fno-strict-aliasing", "-DNDEBUG=1"]}


def _cell(flags: list[str]):
    from analyzer.projects.cell import BuildCell

    return BuildCell("gcc-12", "12.2.0", "x", "all", {"c": flags, "c++": flags}, inject="build")


@pytest.mark.parametrize("template,lines", [("printf '%s\\n' {cflags}", 6),
                                            ("printf '%s\\n' '{cflags}'", 1),
                                            ('printf "%s\\n" "{flags}"', 1)])
def test_placeholders_hold_the_words_in_the_templates_quotes(template, lines):
    """A build fills ``{cflags}`` with the words joined, so a user's quotes around it keep
    them together (one line printed) and nothing ends the quotes early (shlex.join's
    quotes would); bare, they are the words themselves."""
    from analyzer.projects import steps
    from analyzer.projects.options import BuildOptions

    level = ["-Wall", "-Wformat=2", "-Wc++11-compat", "-Wnormalized=nfc"]
    cmd = steps.commands(template, _cell(level), BuildOptions(), "build")
    out = subprocess.run(["sh", "-c", cmd], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["-O2", "--warnscope-level=all", *level]
    assert out.count("\n") == lines


def test_placeholders_refuse_a_hostile_word():
    from analyzer.projects import steps
    from analyzer.projects.options import BuildOptions

    with pytest.raises(BadInput, match="refusing the flag"):
        steps.commands("make CFLAGS='{cflags}'", _cell(["-Wzz';touch${IFS}F;'"]), BuildOptions(), "build")
