"""Edge cases of the .opt reader on small hand-written files, following GCC's awk."""
from __future__ import annotations

import pytest

from warnscope.errors import ParseError
from flagdb.gcc_ingest import build_from_tree
from flagdb.gcc_opt import opt_args, parse_file


def test_records_and_help():
    f = parse_file(
        "; comment\n"
        "Wfoo\n"
        "C C++ Var(warn_foo) Warning\n"
        "Warn about\n"
        "foo things.\n"
        "  indented lines are dropped, as by opt-gather.awk\n"
        "\n"
        "Wbar=\n"
        "C Joined Warning Var(warn_bar) Enum(bar) Init(1)\n"
        "-Wbar=[x|y]\tWarn about bar.\n"
        "; a comment line ends the record\n"
        "Enum\n"
        "Name(bar) Type(int)\n"
        "\n"
        "EnumValue\n"
        "Enum(bar) String(x) Value(0)\n"
        "\n"
        "EnumValue\n"
        "Enum(bar) String(y) Value(1)\n",
        "c.opt",
    )
    names = [r.name for r in f.options]
    assert names == ["Wfoo", "Wbar="]
    assert f.options[0].help == "Warn about foo things."
    assert f.options[1].help == "-Wbar=[x|y]\tWarn about bar."
    assert f.enum_values["bar"] == [("0", "x"), ("1", "y")]


def test_opt_args_semantics():
    assert opt_args("Init", "Var(x) Init(1)") == "1"
    assert opt_args("Init", "Var(x) Init (1)") is None        # awk needs "Init("
    assert opt_args("Var", "Var(a) Var(b)") == "b"             # greedy: last one wins
    assert opt_args("Alias", "Alias(Wformat=, 1, 0)") == "Wformat=, 1, 0"
    assert opt_args("Warn", "Warn({-Wfoo) is gone})") == "-Wfoo) is gone"


def test_semantics_on_a_small_tree(tmp_path, gcc_tree, common_opt):
    c_opt = "Wlevel=\nC C++ LangEnabledBy(C C++,Wall, 1, 0)\n; in common.opt\n"
    data = build_from_tree(gcc_tree(tmp_path, {"common.opt": common_opt, "c-family/c.opt": c_opt}),
                           "gcc-99", "source-tree", str(tmp_path))
    assert data.version == "99.1.0"
    f = {x.name: x for x in data.flags}
    assert f["-Wspace"].default == "off"          # "Init (1)" ignored
    assert f["-Wdeflt"].default == "on"
    assert f["-Wcode"].default == "code"
    assert f["-Wlevel"].alias_of == "-Wlevel=2"
    assert f["-Wlevel="].argument == "<0,3>" and f["-Wlevel="].takes_argument
    assert f["-Wnop"].ignored
    # WarnRemoved without Warning: --help=warnings leaves it out, GCC still takes it
    # as a warning switch (g++-12 -Wmudflap: "switch '-Wmudflap' is no longer supported").
    assert f["-Wgone"].removed and f["-Wgone"].gcc.unlisted
    assert not f["-Wnop"].gcc.unlisted
    # Records merged across files: c.opt's LangEnabledBy joins common.opt's record.
    assert f["-Wlevel="].origin == "c-family/c.opt common.opt"
    edges = {(e.parent, e.child, e.value, e.parent_min, tuple(e.requires)) for e in data.edges}
    assert ("-Wall", "-Wlevel=", "1", None, ()) in edges
    assert ("-Wlevel=", "-Wcond", "1", 2, ()) in edges
    assert ("-Wunused", "-Wparam", "1", None, ("-Wextra",)) in edges
    assert ("-Wextra", "-Wparam", "1", None, ("-Wunused",)) in edges
    assert ("-Wunused", "-Wboth", "1", None, ()) in edges and ("-Wextra", "-Wboth", "1", None, ()) in edges


def test_content_hash_is_stable(tmp_path, gcc_tree, common_opt):
    root = gcc_tree(tmp_path, {"common.opt": common_opt})
    a = build_from_tree(root, "gcc-99", "source-tree", "x")
    b = build_from_tree(root, "gcc-99", "source-tree", "x")
    assert a.content_hash() == b.content_hash()
    (root / "gcc" / "common.opt").write_text(common_opt.replace("Extra warnings.", "More warnings."))
    c = build_from_tree(root, "gcc-99", "source-tree", "x")
    assert c.content_hash() != a.content_hash()


def test_unbalanced_parenthesis_names_file_and_line(tmp_path, gcc_tree, common_opt):
    bad = common_opt.replace("Common Var(warn_cond) Warning LangEnabledBy(C C++,Wlevel=, warn_level >= 2, 0)",
                         "Common Var(warn_cond Warning")
    root = gcc_tree(tmp_path, {"common.opt": bad})
    with pytest.raises(ParseError) as exc:
        build_from_tree(root, "gcc-99", "source-tree", "x")
    line = bad.splitlines().index("Common Var(warn_cond Warning") + 1
    assert str(exc.value).startswith(f"common.opt:{line}:")


def test_lang_enabled_by_corners_and_var_with_value(tmp_path, gcc_tree, common_opt):
    """As opt-functions.awk's lang_enabled_by: no option named, no edge; ``||`` gives one
    edge per parent, each limited to the languages; ``Var(v, val)`` keeps its value."""
    c_opt = ("Wlangs\nC C++ Var(warn_langs) Warning LangEnabledBy(C)\nNo option named.\n\n"
             "Weither\nC C++ Var(warn_either) Warning LangEnabledBy(C,Wall || Wextra)\nEither, in C.\n\n"
             "Wstrict\nC C++ Var(warn_level, 3) Warning\nSets warn_level to 3.\n\n"
             "Wno-level\nCommon Warning Alias(Wlevel=,0,3)\nA -Wno- record of its own.\n")
    data = build_from_tree(gcc_tree(tmp_path, {"common.opt": common_opt, "c-family/c.opt": c_opt}),
                           "gcc-99", "source-tree", str(tmp_path))
    f = {x.name: x for x in data.flags}
    edges = {(e.parent, e.child, tuple(e.languages)) for e in data.edges}
    assert not any(child == "-Wlangs" for _, child, _ in edges)
    assert {(p, c, l) for p, c, l in edges if c == "-Weither"} == {
        ("-Wall", "-Weither", ("C",)), ("-Wextra", "-Weither", ("C",))}
    assert f["-Wstrict"].gcc.var == "warn_level" and f["-Wstrict"].gcc.var_value == "3"
    assert f["-Wno-level"].alias_of == "-Wlevel=0"
    assert f["-Wno-level"].gcc.alias_negative == "-Wlevel=3"
    assert f["-Wlevel"].gcc.alias_negative == "-Wlevel=0"


def test_help_text_escapes_are_cs():
    """optc-gen.awk puts the help between quotes in options.cc: C's escapes apply."""
    from flagdb.gcc_opt import parse_file

    text = ('Wq\nCommon Var(warn_q) Warning\nWarn if \\"defined\\" is used; (\\\\u and \\\\U)\n'
            'as \\x41 stays.\n')
    [rec] = parse_file(text, "common.opt").options
    assert rec.help == 'Warn if "defined" is used; (\\u and \\U) as \\x41 stays.'


@pytest.mark.parametrize("record", [
    "fplugin=evil.so\nCommon Warning\n",                      # a driver option, not a warning
    "B/evil/\nCommon Warning\n",
    "Wp,-include,/root/secret.h\nCommon Warning\n",           # -Wp, hands text to cpp
    "Wl,-rpath\nCommon Warning\n",
    "Wzz;touch${IFS}F;\nCommon Warning\n",                    # shell text
    "Wzz;touch$${IFS}F;\nCommon Warning\n",                   # make text
    "Wsneaky\nCommon Warning Alias(fplugin=, evil.so)\n",     # a warning aliasing a driver option
    "fplugin=\nCommon Alias(Wall)\n",                         # an alias of a warning is one too
])
def test_names_that_are_no_warning_options_refuse_the_tree(tmp_path, gcc_tree, common_opt, record):
    """A record filed as a warning must be named -W… of the characters option names
    use (or one of GCC's own other spellings): anything else would reach a compiler's
    command line in a level-``all`` build. The ingest stops at the record."""
    text = common_opt + "\n" + record
    root = gcc_tree(tmp_path, {"common.opt": text})
    with pytest.raises(ParseError) as exc:
        build_from_tree(root, "gcc-99", "source-tree", "x")
    line = text.splitlines().index(record.splitlines()[0]) + 1
    assert str(exc.value).startswith(f"common.opt:{line}: ") and "refusing the tree" in str(exc.value)
    assert "\n" not in str(exc.value)


def test_real_spellings_of_warning_names_pass(tmp_path, gcc_tree, common_opt):
    """What GCC's files really hold: -W names with + = , . _, and the few other
    spellings it files as warnings (``pedantic``, ``-all-warnings``, Go's, a target's)."""
    extra = ("Wc++11-compat\nC++ Var(warn_cxx11_compat) Warning\nC++11.\n\n"
             "Wnormalized=\nC Joined Warning Var(warn_norm)\nNormalized.\n\n"
             "Wabi=\nC++ Joined Warning Var(warn_abi)\nABI.\n\n"
             "Wpedantic\nCommon Var(pedantic) Warning\nPedantic.\n\n"
             "pedantic\nCommon Alias(Wpedantic)\n\n"
             "-pedantic\nCommon Alias(Wpedantic)\n\n"
             "-all-warnings\nCommon Warning Alias(Wall)\n\n"
             "frequire-return-statement\nGo Var(go_rrs) Init(1) Warning\nGo.\n\n"
             "Werror-implicit\nC Warning Alias(Werror=, implicit)\nAn alias with a value.\n")
    data = build_from_tree(gcc_tree(tmp_path, {"common.opt": common_opt + "\n" + extra}),
                           "gcc-99", "source-tree", "x")
    got = {f.name for f in data.flags}
    assert {"-Wc++11-compat", "-Wnormalized=", "-Wabi=", "-pedantic", "--pedantic",
            "--all-warnings", "-frequire-return-statement", "-Werror-implicit"} <= got
