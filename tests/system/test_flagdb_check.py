"""``flags check`` answers as the GCC binary does, for negative forms and for typos."""
from __future__ import annotations

import json
import subprocess


def _gcc_accepts(flag: str) -> bool:
    proc = subprocess.run(["gcc-12", flag, "-x", "c", "-fsyntax-only", "-"], input="int x;\n",
                          capture_output=True, text=True)
    return proc.returncode == 0


def test_negating_a_reject_negative_option_is_unknown(cli, require):
    """``Werror-implicit-function-declaration`` is RejectNegative: its -Wno- form is an error."""
    require("gcc-12")
    typed = "-Wno-error-implicit-function-declaration"
    assert not _gcc_accepts(typed) and _gcc_accepts("-Werror-implicit-function-declaration")
    code, out, _ = cli("flags", "check", "-c", "gcc-12", "--json", "--", typed, "-Wno-shadow")
    assert code == 0
    got = {r["flag"]: r for r in json.loads(out)}
    assert got[typed]["status"] == "unknown"
    assert "cannot be negated" in got[typed]["reason"] and got[typed]["suggestion"] is None
    assert got["-Wno-shadow"]["status"] == "known"


def test_suggestion_is_a_name_the_compiler_has(cli):
    """A suggestion is spelled as stored: gcc-12 has ``-Wframe-larger-than=`` but no
    ``-Wframe-larger-than``; ``-Wnormalized`` and ``-Wnormalized=`` both exist."""
    code, out, _ = cli("flags", "check", "-c", "gcc-12", "--json", "--",
                       "-Wframe-larger-then=100", "-Wnormalised")
    suggestions = [r["suggestion"] for r in json.loads(out)]
    assert suggestions == ["-Wframe-larger-than=", "-Wnormalized"]


def test_warning_switches_without_the_warning_property(cli, gcc12, require):
    """``Waligned-new`` (an alias of ``Waligned-new=``), ``Wimport`` (Ignore) and
    ``Wmudflap`` (WarnRemoved) lack the Warning property, so ``--help=warnings`` does not
    list them, but GCC accepts each of them as a warning switch."""
    require("gcc-12")
    code, out, _ = cli("flags", "check", "-c", "gcc-11,gcc-12", "--json", "--",
                       "-Waligned-new", "-Wno-aligned-new", "-Wimport", "-Wmudflap")
    got = {(r["flag"], r["compiler"]): r for r in json.loads(out)}
    for compiler in ("gcc-11", "gcc-12"):
        assert got[("-Waligned-new", compiler)]["alias_of"] == "-Waligned-new=global"
        assert got[("-Wno-aligned-new", compiler)]["alias_of"] == "-Waligned-new=none"
        assert got[("-Waligned-new", compiler)]["status"] == "alias"
        assert got[("-Wimport", compiler)]["status"] == "no-op"
        assert got[("-Wmudflap", compiler)]["status"] == "removed"
    proc = subprocess.run(["g++-12", "-Waligned-new", "-Wno-aligned-new", "-Wimport", "-Wmudflap",
                           "-x", "c++", "-fsyntax-only", "-"], input="int x;\n",
                          capture_output=True, text=True)
    assert proc.returncode == 0 and "no longer supported" in proc.stderr
    assert gcc12.flag("-Waligned-new").gcc.unlisted is True
    assert "-Waligned-new" not in query_names("gcc-12")


def query_names(gcc: str) -> set[str]:
    from analyzer.verify.gcc_q import query

    return set(query(gcc, "C++", []))


def test_diagnostic_controls(cli, require):
    """-Werror, -Wfatal-errors and -Werror=X are not warning options but every compiler
    takes them; -Werror=X needs X to be one (gcc-12: "-Werror=shadwo: no option -Wshadwo")."""
    require("gcc-12")
    flags = ["-Werror", "-Wno-error", "-Wfatal-errors", "-Werror=shadow", "-Wno-error=shadow",
             "-Werror=format=2", "-w", "-pedantic", "-pedantic-errors",
             "-Werror=shadwo", "-Werror=no-shadow"]
    code, out, _ = cli("flags", "check", "-c", "gcc-12", "--json", "--", *flags)
    got = {r["flag"]: r for r in json.loads(out)}
    for flag in flags[:9]:
        # -pedantic is in the data, as the alias of -Wpedantic GCC's option files make it
        status = "alias" if flag == "-pedantic" else "known"
        assert _gcc_accepts(flag) and got[flag]["status"] == status, flag
    for flag in flags[9:]:
        assert not _gcc_accepts(flag) and got[flag]["status"] == "unknown", flag
    assert got["-Werror=shadwo"]["suggestion"] == "-Werror=shadow"


def _gcc_unrecognized(flag: str) -> bool:
    """GCC's own word on a flag: an unknown -Wno-… is only named once a warning is issued."""
    proc = subprocess.run(["gcc-12", "-Wall", flag, "-x", "c", "-c", "-o", "/dev/null", "-"],
                          input="int f(void) { int x; return x; }\n", capture_output=True, text=True)
    return "unrecognized command-line option" in proc.stderr


def test_negative_of_a_joined_option(cli, require):
    """``Walloca-larger-than=`` is Joined without RejectNegative: GCC takes
    ``-Wno-alloca-larger-than=100``; ``Wformat=`` is RejectNegative: ``-Wno-format=2`` is not."""
    require("gcc-12")
    assert not _gcc_unrecognized("-Wno-alloca-larger-than=100")
    assert _gcc_unrecognized("-Wno-format=2") and _gcc_unrecognized("-Wno-bogus")
    code, out, _ = cli("flags", "check", "-c", "gcc-12", "--json", "--",
                       "-Wno-alloca-larger-than=100", "-Wno-format=2")
    got = {r["flag"]: r["status"] for r in json.loads(out)}
    assert got == {"-Wno-alloca-larger-than=100": "known", "-Wno-format=2": "unknown"}


def test_pedantic_spellings_are_aliases_of_wpedantic(cli, require):
    """GCC documents ``-pedantic`` (and takes ``--pedantic``) as spellings of
    ``-Wpedantic``: its option files make both ``Alias(Wpedantic)``, and the binary
    files what they report under ``[-Wpedantic]``. ``flags show``/``check`` say so."""
    require("gcc-12")
    for typed in ("-pedantic", "--pedantic"):
        proc = subprocess.run(["gcc-12", typed, "-std=c11", "-x", "c", "-fsyntax-only", "-"],
                              input="", capture_output=True, text=True)
        assert proc.returncode == 0 and "[-Wpedantic]" in proc.stderr, (typed, proc.stderr)
    code, out, _ = cli("flags", "check", "-c", "gcc-11,gcc-12", "--json", "-pedantic", "--pedantic")
    assert code == 0
    got = [(r["flag"], r["compiler"], r["status"], r["alias_of"]) for r in json.loads(out)]
    assert got == [(typed, compiler, "alias", "-Wpedantic")
                   for typed in ("-pedantic", "--pedantic") for compiler in ("gcc-11", "gcc-12")]
    code, out, _ = cli("flags", "show", "-c", "gcc-12", "--json", "-Wpedantic")
    target = json.loads(out)
    for typed in ("-pedantic", "--pedantic"):
        code, out, err = cli("flags", "show", typed, "-c", "gcc-12", "--json")
        assert code == 0, err
        shown = json.loads(out)
        assert shown["name"] == typed and shown["alias_of"] == "-Wpedantic"
        assert shown["turns_on"] == target["turns_on"] and len(target["turns_on"]) > 3
        assert shown["description"] == target["description"]


#: flags of every kind: known, an alias, typos, unknown negatives, a bad level, an
#: unknown -Werror=, a removed switch, a no-op, a RejectNegative negation, a control
EFFECT_FLAGS = ("-Wshadow", "-Wformat", "-Wshadwo", "-Wno-bogus", "-Wformat=3", "-Werror=bogus",
                "-Wno-error=bogus", "-Wchkp", "-Wmudflap", "-Wimport", "-Wunreachable-code",
                "-Wno-error-implicit-function-declaration", "-Wno-shadow=local", "-Werror",
                "-Wlifetime", "-Wno-lifetime")


def test_the_build_column_is_what_each_compiler_does(gcc_clang_db, cli_at, require):
    """Each flag's build effect, as ``flags check`` predicts it for gcc-12 and clang-16,
    is what compiling a file with the flag does: an error stops the compile, a warning
    is printed and the compile goes on, the rest compile without a word."""
    cli = cli_at(gcc_clang_db)
    code, out, err = cli("flags", "check", "-c", "gcc-12,clang-16", "--json", "--", *EFFECT_FLAGS)
    assert code == 0, err
    results = json.loads(out)
    assert {r["build"] for r in results} == {"applies", "no effect", "ignored silently",
                                             "warns, goes on", "error, stops"}
    for r in results:
        proc = subprocess.run([require(r["compiler"]), r["flag"], "-x", "c", "-fsyntax-only", "-"],
                              input="int x;\n", capture_output=True, text=True, timeout=60)
        seen = ("error, stops" if proc.returncode else "warns, goes on" if proc.stderr.strip()
                else "quiet")
        expected = r["build"] if r["build"] in ("error, stops", "warns, goes on") else "quiet"
        assert seen == expected, (r["compiler"], r["flag"], r["build"], proc.stderr)
    text = cli("flags", "check", "-c", "gcc-12,clang-16", "--", "-Wshadwo")[1]
    assert text.splitlines()[0].split() == ["flag", "gcc-12", "build", "clang-16", "build"]
