"""What a compiler binary lists of its warning options, read without the binary: GCC's
``-Q --help=warnings`` and ``--help=warnings``, clang's ``--print-diagnostic-options`` and
diagtool, as hand-written text (the real binaries' are read in
tests/system/test_flags_targets.py); and a cross compiler's scope of option files, its
history and its diff, on a hand-written GCC tree."""
from __future__ import annotations

import pytest

from flagdb import compare, listing, store
from flagdb import text as flag_text
from flagdb.clang_ingest import build as clang_build
from flagdb.gcc_ingest import build_from_tree, target_scope
from flagdb.results import HistoryEntry
from warnscope.database import connect
from warnscope.errors import BadInput, ToolFailed

HEAD = "The following options control compiler warning messages:\n"


# ------------------------------------------------------------------ GCC's -Q listing

def test_q_lines_with_argument_forms_and_states():
    text = (HEAD + "  --all-warnings              \t\t-Wall\n"
            "  -Wabi=                      \t\t\n"
            "  -Waligned-new=[none|global|all] \t[available in C++, ObjC++]\n"
            "  -Walloc-size-larger-than=<bytes> \t9223372036854775807 bytes\n"
            "  -Wformat-overflow<0,2>      \t\t-Wformat-overflow=1\n"
            "  -Wformat=<0,2>              \t\t0\n"
            "  -Wnormalized=[none|id|nfc|nfkc] \tnfc\n"
            "  -Wshift-overflow=<0,2>      \t\t-1\n"
            "  -Wunreachable-code          \t\t[ignored]\n"
            "  -Wunused                    \t\t[enabled]\n")
    lines = listing.parse_gcc_q(text, "gcc")
    assert lines["--all-warnings"] == listing.QLine("--all-warnings", None, "-Wall")
    assert lines["-Waligned-new="].argument == "[none|global|all]"
    assert lines["-Wformat-overflow"] == listing.QLine("-Wformat-overflow", "<0,2>", "-Wformat-overflow=1")
    assert lines["-Wabi="].state == "" and lines["-Wshift-overflow="].state == "-1"
    assert listing.available_in(lines["-Waligned-new="].state) == ["C++", "ObjC++"]
    assert [listing.value_of(lines[n].state) for n in ("-Wunused", "-Wformat=", "-Walloc-size-larger-than=",
                                                        "-Wnormalized=", "-Wformat", "-Wabi=")
            if n in lines] == ["1", "0", "9223372036854775807", "nfc", None]
    assert listing.db_default("", False, True) == "code" and listing.db_default("", False, False) == "off"
    assert listing.db_default("-1", True, True) == "code" and listing.db_default("2", True, True) == "2"


@pytest.mark.parametrize("line,why", [
    ("  -fplugin=/tmp/evil.so  \t\t[enabled]", "not a warning option name"),
    ("  -Wp,-include,/etc/passwd  \t\t[enabled]", "a driver option"),
    ("  -Wshadow  \t\t$(touch /tmp/x)", "not a state GCC prints"),
    ("  -Wshadow  \t\t-Wl,-rpath", "not a state GCC prints"),
    ("  -Wshadow<$(x)>  \t\t0", "not one GCC prints"),
])
def test_q_output_that_is_not_a_listing_is_refused(line, why):
    with pytest.raises(BadInput) as err:
        listing.parse_gcc_q(HEAD + "  -Wall  \t\t\n" + line + "\n", "fake-gcc -Q --help=warnings")
    assert why in str(err.value) and "fake-gcc" in str(err.value) and "\n" not in str(err.value)


def test_q_output_with_no_option_is_refused():
    with pytest.raises(BadInput, match="listed no warning option"):
        listing.parse_gcc_q("hello\n", "x")


def test_help_texts_are_joined_across_wrapped_lines():
    text = (HEAD + "  -Wabi                       Warn about things that will change when compiling\n"
            "                              with an ABI-compliant compiler.\n"
            "  -Wabi=                      Warn about things that change between the current\n"
            "                              -fabi-version and the specified version.\n"
            "  -Waggressive-loop-optimizations Warn if a loop with constant number of\n"
            "                              iterations triggers undefined behavior.\n"
            "  -Wall                       Enable most warning messages.\n")
    helps = listing.parse_gcc_help(text)
    assert helps["-Wabi"] == ("Warn about things that will change when compiling with an "
                              "ABI-compliant compiler.")
    assert helps["-Wabi="].endswith("-fabi-version and the specified version.")
    assert helps["-Waggressive-loop-optimizations"].startswith("Warn if a loop")
    assert helps["-Wall"] == "Enable most warning messages."


# ------------------------------------------------------------------ a GCC that lists

#: A tiny GCC: its options, argument forms, what each turns on (per language), the
#: languages of the options of one language only. Its listing is made from this.
OPTIONS = {"--all-warnings": None, "-Wall": None, "-Wextra": None, "-Wunused": None,
           "-Wunused-variable": None, "-Wunused-parameter": None, "-Wformat": None,
           "-Wformat=": "<0,2>", "-Wformat-security": None, "-Wnonnull": None,
           "-Warray-bounds": None, "-Warray-bounds=": "<0,2>", "-Wmain": None,
           "-Wreorder": None, "-Waliasing": None, "-Wlarger-than-": None, "-Wquirk": None}
ALIASES = {"--all-warnings": "-Wall", "-Wformat": "-Wformat=1"}
RULES = {"-Wall": ["-Wunused", "-Wformat=1", "-Warray-bounds=1", "-Wmain"],
         "-Wunused": ["-Wunused-variable"], "-Wformat=1": ["-Wnonnull"],
         "-Wformat=2": ["-Wnonnull", "-Wformat-security"], "-Warray-bounds": ["-Warray-bounds=1"]}
CXX_ONLY = {"-Wreorder"}


class TinyGcc:
    """``ask(lang, flags)`` of :func:`flagdb.listing.gcc_data`, counting its runs."""

    def __init__(self):
        self.runs = 0

    def states(self, lang: str, flags: list[str]) -> dict[str, str]:
        values: dict[str, str] = {}

        def give(typed: str) -> None:
            base, eq, level = typed.partition("=")
            if typed == "-Wlarger-than-":
                raise ToolFailed("gcc: error: missing argument to '-Wlarger-than-'")
            if eq:
                values[base + "="] = level
            else:
                values[typed] = "1"
            for child in RULES.get(typed, []) + (["-Wreorder"] if lang == "C++" and typed == "-Wall" else []):
                give(child)

        for typed in flags:
            give(ALIASES.get(typed, typed))
        if values.get("-Wextra") == "1" and values.get("-Wunused") == "1":
            values["-Wunused-parameter"] = "1"
        if values.get("-Warray-bounds=", "0") != "0":
            values["-Warray-bounds"] = "1"
        out = {}
        for name, arg in OPTIONS.items():
            if name in ALIASES:
                out[name] = ALIASES[name]
            elif name in CXX_ONLY and lang == "C":
                out[name] = "[available in C++, ObjC++]"
            elif name == "-Waliasing":
                out[name] = "[available in Fortran]"
            elif name == "-Wquirk":
                out[name] = "[available in Modula-2]"
            elif name in ("-Wall", "-Wlarger-than-"):
                out[name] = ""
            elif arg:
                out[name] = values.get(name, "0")
            elif name == "-Wmain" and name not in values:
                out[name] = ""      # Init(-1), as GCC 12 prints it
            else:
                out[name] = "[enabled]" if values.get(name) == "1" else "[disabled]"
        return out

    def ask(self, lang: str, flags: list[str]) -> str:
        self.runs += 1
        states = self.states(lang, flags)
        return HEAD + "".join(f"  {n}{OPTIONS[n] or ''}  \t\t{s}\n" for n, s in states.items())


def probe(lang: str, flags: list[str]) -> str:
    """The tiny GCC compiling an empty file with ``flags``: what it refuses for ``lang``."""
    out = []
    for f in flags:
        valid = {"-Wreorder": "C++/ObjC++", "-Waliasing": "Fortran"}.get(f)
        if valid and not (f == "-Wreorder" and lang == "C++"):
            out.append(f"cc1: warning: command-line option '{f}' is valid for {valid} but not for {lang}")
    return "\n".join(out)


@pytest.fixture(scope="module")
def tiny():
    gcc = TinyGcc()
    data = listing.gcc_data("gcc-77", "77.1.0", "tiny -Q --help=warnings", gcc.ask,
                            HEAD + "  -Wunused  Warn about unused things.\n", "tiny", probe)
    return data, gcc


def edges(data) -> set[tuple]:
    return {(e.parent, e.child, e.value, e.parent_min, tuple(e.requires), tuple(e.languages))
            for e in data.edges}


def test_tiny_gcc_flags(tiny):
    data, _ = tiny
    assert data.source_kind == listing.SOURCE_KIND and data.version == "77.1.0"
    f = data.flag
    assert f("--all-warnings").alias_of == "-Wall" and f("-Wformat").alias_of == "-Wformat=1"
    assert f("-Wformat=").takes_argument and f("-Wformat=").argument == "<0,2>"
    assert f("-Wformat=").gcc.range == (0, 2) and f("-Wformat=").default == "0"
    assert f("-Wlarger-than-").takes_argument           # GCC refused it alone
    assert f("-Wmain").default == "code"                 # blank, but -Wall sets it
    assert f("-Wall").default == "off"                   # blank, and nothing sets it
    assert f("-Wreorder").languages == ["C++", "ObjC++"] and f("-Wreorder").gcc.defaults == {"C++": "off"}
    assert f("-Waliasing").languages == ["Fortran"] and not f("-Waliasing").c_family
    assert f("-Wquirk").languages == ["C", "C++"] and f("-Wquirk").default == "unknown"
    assert f("-Wunused").description == "Warn about unused things."
    assert f("-Wunused").origin == listing.GCC_ORIGIN
    assert f("-Wunused").gcc.states == {"C": {"listed": "[disabled]"}, "C++": {"listed": "[disabled]"}}


def test_tiny_gcc_edges_are_the_direct_ones(tiny):
    data, _ = tiny
    both = ("C", "C++")
    assert edges(data) == {
        ("-Wall", "-Wunused", "1", None, (), both),
        ("-Wall", "-Wformat=", "1", None, (), both),
        ("-Wall", "-Warray-bounds=", "1", None, (), both),   # one state: named by the level
        ("-Wall", "-Wmain", "1", None, (), both),
        ("-Wall", "-Wreorder", "1", None, (), ("C++",)),
        ("-Wunused", "-Wunused-variable", "1", None, (), both),
        ("-Wformat=", "-Wnonnull", "1", 1, (), both),         # from level 1, not again at 2
        ("-Wformat=", "-Wformat-security", "1", 2, (), both),
        # -Wall -Wextra turns it on through -Wall's -Wunused: the most direct pair
        ("-Wunused", "-Wunused-parameter", "1", None, ("-Wextra",), both),
        ("-Wextra", "-Wunused-parameter", "1", None, ("-Wunused",), both),
    }


def test_tiny_gcc_is_asked_once_per_listing(tiny):
    _, gcc = tiny
    # per language: the default, each switch, each level (1, 2) of each level option,
    # the root pairs and the pairs of -Wall's and -Wextra's members with the other
    assert gcc.runs < 2 * 40


# ------------------------------------------------------------------ clang

TREE = ("\x1b[0;32mGREEN\x1b[0m = enabled by default\n\n"
        "\x1b[0;33m-Wall\n\x1b[0m  \x1b[0;33m-Wmost\n\x1b[0m    \x1b[0;32m-Wcomment\n"
        "\x1b[0m  \x1b[0;31m-Wabi\n\x1b[0m\x1b[0;33m-Wpass\n\x1b[0m\x1b[0;33m-Wshadow\n\x1b[0m")
LIST_WARNINGS = ("Warnings with flags (4):\n  escaped_newline_block_comment_end [-Wcomment]\n"
                 "  warn_decl_shadow [-Wshadow]\n  remark_fe_backend_optimization_remark [-Wpass]\n"
                 "  warn_most_thing [-Wmost]\n\nWarnings without flags (1):\n  ext_lonely\n\n"
                 "STATISTICS:\n  Number of unique flags: 4\n")
ENABLED = "W  escaped_newline_block_comment_end [-Wcomment]\nW  ext_lonely\n"
EVERYTHING = (ENABLED + "W  warn_decl_shadow [-Wshadow]\nW  warn_most_thing [-Wmost]\n"
              "R  remark_fe_backend_optimization_remark [-Wpass]\n")


def test_clang_listings_build_the_tables_clang_ingest_reads():
    colours, tree_edges = listing.parse_tree(TREE)
    groups = listing.parse_print_options("  -W\n  -Wno-\n\n  -Wall\n  -Wno-all\n  -Wmost\n  -Wcomment\n"
                                         "  -Wabi\n  -Wpass\n  -Wshadow\n", "clang")
    diag_groups = listing.parse_list_warnings(LIST_WARNINGS, "diagtool list-warnings")
    assert diag_groups["ext_lonely"] is None and diag_groups["warn_decl_shadow"] == "shadow"
    tables = listing.clang_tables("16.0.6", sorted(set(colours) | set(groups)), tree_edges, diag_groups,
                                  listing.parse_show_enabled(ENABLED, "x"),
                                  listing.parse_show_enabled(EVERYTHING, "x"))
    data = clang_build("clang-16", tables, listing.SOURCE_KIND, "diagtool", origin=listing.CLANG_ORIGIN)
    f = data.flag
    assert f("-Rpass").kind == "remark" and f("-Wpass") is None
    assert f("-Wcomment").default == "on" and f("-Wshadow").default == "off"
    assert f("-Wall").default == "partial" and f("-Wall").alias_of is None
    assert f("-Wabi").ignored
    assert {(e.parent, e.child) for e in data.edges} >= {("-Wall", "-Wmost"), ("-Wmost", "-Wcomment")}
    assert f("-Weverything").clang.ungrouped == ["ext_lonely"]


@pytest.mark.parametrize("parse,text", [
    (listing.parse_list_warnings, "Warnings with flags (1):\n  warn_x [-Wl,-rpath,/tmp]\n"),
    (listing.parse_list_warnings, "Warnings with flags (1):\n  warn x y\n"),
    (listing.parse_show_enabled, "W  warn_x [-Wshadow]\nZ  $(rm)\n"),
    (listing.parse_print_options, "  -Wshadow\n  -fplugin=/x.so\n"),
])
def test_clang_output_that_is_not_a_listing_is_refused(parse, text):
    with pytest.raises(BadInput, match="nothing stored"):
        parse(text, "fake-diagtool")


def test_clang_names_only_without_diagtool():
    data = listing.clang_names_only("clang-16", "16.0.6", "clang-16 --print-diagnostic-options",
                                    ["shadow", "pass"], {"pass"})
    assert [(f.name, f.kind, f.default) for f in data.flags] == [
        ("-Rpass", "remark", "unknown"), ("-Wshadow", "warning", "unknown")]


# ------------------------------------------------------------------ a cross compiler's files

PATHS = ["common.opt", "c-family/c.opt", "config/aarch64/aarch64.opt", "config/linux.opt",
         "config/gnu-user.opt", "config/linux-android.opt", "config/darwin.opt",
         "config/i386/i386.opt", "config/i386/mingw.opt", "config/i386/cygming.opt",
         "config/riscv/riscv.opt", "config/avr/avr.opt", "config/arm/arm.opt",
         "config/arm/vxworks.opt"]


@pytest.mark.parametrize("target,scope", [
    ("aarch64-linux-gnu", ["config/aarch64/aarch64.opt", "config/gnu-user.opt",
                           "config/linux-android.opt", "config/linux.opt"]),
    ("riscv64-linux-gnu", ["config/gnu-user.opt", "config/linux.opt", "config/riscv/riscv.opt"]),
    ("x86_64-w64-mingw32", ["config/i386/cygming.opt", "config/i386/i386.opt", "config/i386/mingw.opt"]),
    ("i686-linux-gnu", ["config/gnu-user.opt", "config/i386/i386.opt", "config/linux-android.opt",
                        "config/linux.opt"]),
    ("arm-none-eabi", ["config/arm/arm.opt"]),
    ("avr", ["config/avr/avr.opt"]),
])
def test_target_scope(target, scope):
    assert target_scope(target, PATHS) == scope


def test_a_target_this_gcc_does_not_build_for():
    with pytest.raises(BadInput, match="no gcc/config/loongarch"):
        target_scope("loongarch64-linux-gnu", PATHS)


TARGET_OPT = """Wtarget-thing
Target Var(warn_target_thing) Warning
Warn about a thing of this target.
"""
MINGW_OPT = """Wms-thing
C Var(warn_ms_thing) Warning
Warn about a thing of Windows.
"""


@pytest.fixture
def cross_pair(tmp_path, gcc_tree, common_opt):
    root = gcc_tree(tmp_path / "src", {"common.opt": common_opt,
                                       "config/aarch64/aarch64.opt": TARGET_OPT,
                                       "config/i386/mingw.opt": MINGW_OPT})
    host = build_from_tree(root, "gcc-99", "source-tree", "tree")
    cross = build_from_tree(root, "gcc-99@aarch64-linux-gnu", "source-tree", "tree")
    return host, cross


def test_a_target_warning_is_in_scope_for_its_cross_compiler_only(cross_pair):
    host, cross = cross_pair
    assert not host.flag("-Wtarget-thing").c_family and cross.flag("-Wtarget-thing").c_family
    assert not cross.flag("-Wms-thing").c_family     # another operating system's
    assert cross.source == ("tree, for aarch64-linux-gnu (its option files config/aarch64/aarch64.opt: "
                            "1 warning options, -Wtarget-thing)")
    result = compare.diff(host, cross)
    assert [f.name for f in result.added] == ["-Wtarget-thing"] and not result.removed
    assert flag_text.diff(result).splitlines()[0] == "gcc-99 -> gcc-99@aarch64-linux-gnu: 1 added, 0 removed, 0 changed"
    same = compare.diff(host, host)
    assert flag_text.diff(same).startswith("gcc-99 and gcc-99: no difference: the same ")


def test_since_and_history_keep_a_cross_compiler_apart(cross_pair, tmp_path):
    host, cross = cross_pair
    conn = connect(tmp_path / "w.db")
    store.save(conn, cross)
    (alone,) = compare.since(conn)
    assert (alone.compiler, alone.previous, alone.target) == ("gcc-99@aarch64-linux-gnu", None, "aarch64-linux-gnu")
    assert flag_text.since([alone]).endswith("gcc-99 is not ingested, so there is nothing to compare it "
                                             "with (flags ingest gcc-99)")
    store.save(conn, host)
    results = compare.since(conn)
    assert [(r.compiler, r.previous, r.target) for r in results] == [
        ("gcc-99", None, ""), ("gcc-99@aarch64-linux-gnu", "gcc-99", "aarch64-linux-gnu")]
    assert [i.name for i in results[1].introduced] == ["-Wtarget-thing"]
    text = flag_text.since(results).splitlines()
    assert text[1] == ("gcc-99@aarch64-linux-gnu (99.1.0): gcc-99 built for aarch64-linux-gnu, not a "
                       "release of its own; beside gcc-99: 1 introduced, 0 removed, 0 joined -Wall, "
                       "0 joined -Wextra, 0 defaults changed")
    history = compare.history(conn, "-Wtarget-thing")
    assert [e.compiler for e in history] == ["gcc-99", "gcc-99@aarch64-linux-gnu"]


def entry(compiler: str, present: bool, default: str = "off") -> HistoryEntry:
    return HistoryEntry(compiler=compiler, version="12.2.0", present=present,
                        default=default if present else None)


def test_history_text_lists_other_targets_apart():
    rows = [entry("gcc-11", True), entry("gcc-12", True), entry("gcc-12@aarch64-linux-gnu", True),
            entry("gcc-12@riscv64-linux-gnu", True, "on"), entry("gcc-13@arm-linux-gnueabihf", True)]
    lines = flag_text.history(rows).splitlines()
    assert lines[:3] == ["gcc-11     12.2.0     default off", "gcc-12     12.2.0     default off",
                         "gcc: present in every ingested version (gcc-11 … gcc-12)"]
    assert lines[3].startswith("other targets")
    assert lines[4].endswith("(as in gcc-12)") and lines[4].startswith("  gcc-12@aarch64-linux-gnu  ")
    assert lines[5].endswith("default on  (unlike gcc-12: default off)")
    assert lines[6].endswith("(gcc-13 is not ingested)")
    assert compare.spans(rows)[0].newest == "gcc-12"
