"""The advice's exported flags on real builds: the CMake fragment on zlib (C) and jsoncpp
(C++), the Meson fragment on fribidi (C) and jsoncpp (C++), all Debian bookworm source
packages, each configured with every host compiler and one object of each of its flag sets built
(the whole build for the advice's own set on zlib). From the compile commands:
every compile carries exactly the flags its compiler's Target lists for its language, in
that order, and nothing else changed (the same tree configured without the fragment);
from the build log: no compiler reports an unknown option or a flag of the other language.

The Targets come from the real flag database (gcc-11, gcc-12, clang-14, clang-16,
clang-19): a wanted list per language, each compiler keeping what it knows for that
language. The mix holds flags one family knows (``-Wduplicated-cond``, ``-Wshadow=local``;
``-Wshadow-all``), flags a listed version lacks (``-Wuse-after-free=2`` and
``-Winfinite-recursion`` new in gcc-12, ``-Wcast-function-type-strict`` new in clang-16,
``-Wcast-function-type-mismatch`` in clang-19), C-only and C++-only flags, a ``-Wno-``
form and level forms. Also: the fragments' own behaviour (included twice, nothing
leaked, the make fragment with each compiler), and the advice's own set for zlib
(``zlib_advice``) on zlib's CMake build with each compiler: its flags exactly, no unknown
option, and what the build prints is what the advice predicted per flag
(:func:`test_the_advices_set_on_zlibs_cmake_build`). About 8 minutes on 2 cores.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from analyzer.advise.advice import load_compiler
from analyzer.advise.export import write
from analyzer.advise.results import OnAt
from analyzer.advise.rules import BASE_FLAGS, BASES
from analyzer.advise.targets import LANGUAGES, Target
from warnscope.diagnostics.parse_text import parse
from flagdb import store
from flagdb.check import check_flag
from flagdb.closure import Index, lang_name
from flagdb.ingest import ingest
from flagdb.results import CheckStatus
from warnscope.apt import AptState
from warnscope.database import connect
from warnscope.paths import cache_dir

#: host compilers: C driver -> C++ driver
COMPILERS = {"gcc-11": "g++-11", "gcc-12": "g++-12", "clang-14": "clang++-14",
             "clang-16": "clang++-16", "clang-19": "clang++-19"}
#: what a project would ask for, per language, in order (the Targets keep what each
#: compiler knows of it for that language)
COMMON = ["-Wall", "-Wextra", "-Wformat=2", "-Wshadow=local", "-Wshadow-all",
          "-Wduplicated-cond", "-Winfinite-recursion", "-Wuse-after-free=2",
          "-Wcast-function-type-strict", "-Wcast-function-type-mismatch"]
WANTED = {"c": [*COMMON, "-Wstrict-prototypes", "-Wmissing-prototypes", "-Wno-unused-parameter"],
          "c++": [*COMMON, "-Wnon-virtual-dtor", "-Wmismatched-tags", "-Wno-unused-parameter"]}
#: what a compiler says of an option it does not take (or one of the other language)
UNKNOWN = re.compile(r"unrecognized command-line option|unknown warning option|"
                     r"is valid for \S+ but not for|unknown argument")
MESON = str(Path(sys.executable).with_name("meson"))
#: the Ninja both generators write for (the virtualenv's, beside meson)
NINJA = str(Path(sys.executable).with_name("ninja"))
EXTENSIONS = {".c": "c", ".cpp": "c++", ".cc": "c++", ".cxx": "c++"}


# ------------------------------------------------------------------ the Targets

def targets_from_db(conn, compilers: list[str]) -> list[Target]:
    """Per compiler, the wanted flags of each language that it knows for that language
    (a stand-in for the advice, which will produce the Targets)."""
    out = []
    for compiler in compilers:
        index = Index(store.load(conn, compiler, with_messages=False))
        flags = {}
        for lang in LANGUAGES:
            flags[lang] = [f for f in WANTED[lang] if knows(index, f, lang)]
        family, major = compiler.split("-")
        out.append(Target(compiler, family, int(major), flags))
    return out


def knows(index: Index, flag: str, lang: str) -> bool:
    if check_flag(index, flag).status not in (CheckStatus.KNOWN, CheckStatus.ALIAS):
        return False
    hit = index.resolve(flag)
    return hit is not None and index.applies(hit[0], lang_name(lang))


@pytest.fixture(scope="module")
def flag_db(gcc_db, tmp_path_factory) -> Path:
    """``gcc_db`` with clang-14, clang-16 and clang-19 from their tables."""
    path = tmp_path_factory.mktemp("advise-export") / "five.db"
    shutil.copy(gcc_db, path)
    conn = connect(path)
    for compiler in ("clang-14", "clang-16", "clang-19"):
        ingest(conn, compiler)
    conn.close()
    return path


@pytest.fixture(scope="module")
def targets(flag_db) -> list[Target]:
    conn = connect(flag_db)
    try:
        return targets_from_db(conn, list(COMPILERS))
    finally:
        conn.close()


def by_compiler(targets: list[Target]) -> dict[str, Target]:
    return {t.compiler: t for t in targets}


def test_the_targets_hold_a_real_mix_each_known_to_its_compiler(targets, flag_db):
    t = by_compiler(targets)
    conn = connect(flag_db)
    try:
        for target in targets:
            index = Index(store.load(conn, target.compiler, with_messages=False))
            for lang in LANGUAGES:
                for flag in target.for_language(lang):
                    assert knows(index, flag, lang), (target.compiler, lang, flag)
        gcc12 = Index(store.load(conn, "gcc-12", with_messages=False))
    finally:
        conn.close()
    # GCC's data drops the other language's flags by itself
    assert not gcc12.applies(gcc12.resolve("-Wstrict-prototypes")[0], "C++")
    assert not gcc12.applies(gcc12.resolve("-Wnon-virtual-dtor")[0], "C")

    def having(flag: str, lang: str = "c") -> set[str]:
        return {c for c, target in t.items() if flag in target.for_language(lang)}

    gccs, clangs = {"gcc-11", "gcc-12"}, {"clang-14", "clang-16", "clang-19"}
    assert having("-Wduplicated-cond") == having("-Wshadow=local") == gccs
    assert having("-Wshadow-all") == clangs
    assert having("-Wuse-after-free=2") == {"gcc-12"}
    assert having("-Winfinite-recursion") == {"gcc-12"} | clangs
    assert having("-Wcast-function-type-strict") == {"clang-16", "clang-19"}
    assert having("-Wcast-function-type-mismatch") == {"clang-19"}
    for flag in ("-Wall", "-Wextra", "-Wformat=2", "-Wno-unused-parameter", "-Wstrict-prototypes",
                 "-Wmissing-prototypes"):
        assert having(flag) == gccs | clangs, flag
    for flag in ("-Wnon-virtual-dtor", "-Wmismatched-tags"):
        assert having(flag, "c++") == gccs | clangs and having(flag, "c") == set()
    assert having("-Wstrict-prototypes", "c++") == set()
    text = write(targets, "cmake")
    for guard in ("$<VERSION_GREATER_EQUAL:$<C_COMPILER_VERSION>,12>",
                  "$<VERSION_GREATER_EQUAL:$<C_COMPILER_VERSION>,16>",
                  "$<VERSION_GREATER_EQUAL:$<C_COMPILER_VERSION>,19>",
                  "$<VERSION_GREATER_EQUAL:$<CXX_COMPILER_VERSION>,12>"):
        assert guard in text


# ------------------------------------------------------------------ real projects

def source(package: str) -> Path:
    """The pristine tree of a Debian bookworm source package (in the cache: copy it)."""
    return AptState(cache_dir("apt"), ("bookworm",)).source(package)


def copy_tree(package: str, into: Path) -> Path:
    tree = into / "src"
    shutil.copytree(source(package), tree, symlinks=True)
    return tree


def after_call(text: str, name: str) -> int:
    """The offset just past the end of the line closing the first ``name(...)`` call of a
    CMake or Meson file (comments and quoted strings skipped)."""
    m = re.search(rf"^\s*{name}\s*\(", text, re.M | re.I)
    assert m, name
    depth, i, quote = 0, m.end() - 1, None
    while True:
        ch = text[i]
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#":
            i = text.index("\n", i) - 1
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return text.index("\n", i) + 1
        i += 1


def insert_after_project(path: Path, lines: str) -> None:
    text = path.read_text()
    at = after_call(text, "project")
    path.write_text(text[:at] + lines + text[at:])


def run(cmd: list[str], cwd: Path, env: dict | None = None, timeout: float = 900) -> str:
    proc = subprocess.run(cmd, cwd=cwd, env={**os.environ, "LC_ALL": "C", **(env or {})},
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=timeout)
    assert proc.returncode == 0, f"{shlex.join(cmd)} failed:\n{proc.stdout[-6000:]}"
    return proc.stdout


def compile_commands(build: Path) -> dict[tuple[str, str], tuple[str, list[str]]]:
    """(file, output) -> (language, argv) of every compile of a build directory."""
    out = {}
    for entry in json.loads((build / "compile_commands.json").read_text()):
        argv = entry.get("arguments") or shlex.split(entry["command"])
        file = str(Path(entry["directory"], entry["file"]))
        lang = EXTENSIONS.get(Path(file).suffix)
        if lang is not None:
            out[(file, entry.get("output", ""))] = (lang, argv)
    return out


def assert_exactly_the_targets_flags(plain: dict, with_fragment: dict, target: Target,
                                     driver: dict[str, str], dedup: bool) -> Counter:
    """Every compile with the fragment is the plain one plus the target's flags of its
    language, in the target's order: all of them (Meson), or those the project does not
    pass already (CMake, which de-duplicates a target's compile options)."""
    assert with_fragment.keys() == plain.keys() and plain, "not the same compiles"
    seen: Counter = Counter()
    for key, (lang, argv) in with_fragment.items():
        _, before = plain[key]
        wanted = target.for_language(lang)
        assert Path(argv[0]).name == driver[lang], (key, argv[0])
        added = [a for a in wanted if a not in before] if dedup else wanted
        rest = list(argv)
        for arg in before:
            assert arg in rest, (key, arg, argv)
            rest.remove(arg)
        assert rest == added, (key, argv, before, wanted)
        assert set(wanted) <= set(argv), (key, argv, wanted)
        seen[lang] += 1
    return seen


def assert_no_unknown_option(log: str, compiler: str) -> None:
    bad = [line for line in log.splitlines() if UNKNOWN.search(line)]
    assert bad == [], f"{compiler}: {bad[:5]}"


def drivers(compiler: str) -> dict[str, str]:
    return {"c": compiler, "c++": COMPILERS[compiler]}


def need(compiler: str) -> None:
    for binary in (compiler, COMPILERS[compiler]):
        if shutil.which(binary) is None:
            pytest.skip(f"{binary} is not installed")


#: project -> (Debian source package, configure options, languages it compiles)
CMAKE_PROJECTS = {
    "zlib": ("zlib", [], {"c"}),
    "jsoncpp": ("libjsoncpp", ["-DCMAKE_BUILD_TYPE=Debug", "-DJSONCPP_WITH_TESTS=OFF",
                               "-DJSONCPP_WITH_POST_BUILD_UNITTEST=OFF", "-DBUILD_STATIC_LIBS=OFF",
                               "-DBUILD_OBJECT_LIBS=OFF", "-DJSONCPP_WITH_PKGCONFIG_SUPPORT=OFF",
                               "-DJSONCPP_WITH_CMAKE_PACKAGE=OFF"], {"c++"}),
}
#: project -> (Debian source package, setup options, Meson's languages of the project)
MESON_PROJECTS = {
    "fribidi": ("fribidi", ["-Ddocs=false", "-Dbuildtype=debug"], ["c"]),
    "jsoncpp": ("libjsoncpp", ["-Dtests=false", "-Dbuildtype=debug"], ["cpp"]),
}


def build_with_cmake_fragment(project: str, compiler: str, targets: list[Target], tmp_path: Path,
                              options: tuple[str, ...] = (), whole: bool = False
                              ) -> tuple[Path, dict, dict, str]:
    """The project configured without the fragment, then with ``targets`` exported as
    CMake and linked into every target after ``project()``, and built with ``compiler``
    (``whole``: the whole build, else one object of each flag set): (its tree, the
    compiles without, the compiles with, the build's log)."""
    package, project_options, _ = CMAKE_PROJECTS[project]
    tree = copy_tree(package, tmp_path)
    if project == "zlib":
        # Debian's DFSG tree drops win32/, and zlib's CMakeLists.txt lists win32/zlib1.rc
        # as a source of the shared library (never compiled off Windows): it only has to exist
        (tree / "win32").mkdir()
        (tree / "win32" / "zlib1.rc").write_text("")
    build = tmp_path / "build"
    env = {"CC": compiler, "CXX": COMPILERS[compiler]}
    configure = ["cmake", "-S", str(tree), "-B", str(build), "-G", "Ninja",
                 "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", *project_options, *options]
    run(configure, tmp_path, env)
    plain = compile_commands(build)
    shutil.rmtree(build)

    (tree / "warnscope").mkdir()
    (tree / "warnscope" / "warnings.cmake").write_text(write(targets, "cmake"))
    insert_after_project(tree / "CMakeLists.txt",
                         "include(${CMAKE_CURRENT_SOURCE_DIR}/warnscope/warnings.cmake)\n"
                         "link_libraries(warnscope::warnings)\n")
    run(configure, tmp_path, env)
    with_fragment = compile_commands(build)
    if whole:
        return tree, plain, with_fragment, run(["cmake", "--build", str(build), "-j", "2"], tmp_path, env)
    return tree, plain, with_fragment, compile_each_flag_set(build, with_fragment, tmp_path, env)


def compile_each_flag_set(build: Path, compiles: dict, cwd: Path, env: dict) -> str:
    """Build one object of each distinct set of warning flags among ``compiles`` (by its
    Ninja output), and return the log: every flag set the build passes reaches its
    compiler once, which is what the log is read for (an option the compiler does not
    take is said at every compile that passes it; the other compiles add nothing)."""
    first: dict[tuple, str] = {}
    for (_file, _output), (lang, argv) in compiles.items():
        output = argv[argv.index("-o") + 1]   # as Ninja names it: relative to the build directory
        first.setdefault((lang, tuple(a for a in argv if a.startswith("-W"))), output)
    assert first, "no compiles"
    return run([NINJA, "-C", str(build), *sorted(set(first.values()))], cwd, env)


@pytest.mark.parametrize("compiler", list(COMPILERS))
@pytest.mark.parametrize("project", list(CMAKE_PROJECTS))
def test_cmake_fragment_on_a_real_project(project, compiler, targets, tmp_path):
    need(compiler)
    _, plain, with_fragment, log = build_with_cmake_fragment(project, compiler, targets, tmp_path)
    target = by_compiler(targets)[compiler]
    seen = assert_exactly_the_targets_flags(plain, with_fragment, target, drivers(compiler),
                                             dedup=True)
    assert set(seen) == CMAKE_PROJECTS[project][2]
    assert_no_unknown_option(log, compiler)


@pytest.mark.parametrize("compiler", list(COMPILERS))
@pytest.mark.parametrize("project", list(MESON_PROJECTS))
def test_meson_fragment_on_a_real_project(project, compiler, targets, tmp_path):
    need(compiler)
    package, options, languages = MESON_PROJECTS[project]
    tree = copy_tree(package, tmp_path)
    build = tmp_path / "build"
    env = {"CC": compiler, "CXX": COMPILERS[compiler]}
    setup = [MESON, "setup", str(build), str(tree), *options]
    run(setup, tmp_path, env)
    plain = compile_commands(build)
    shutil.rmtree(build)

    (tree / "warnscope").mkdir()
    (tree / "warnscope" / "meson.build").write_text(write(targets, "meson"))
    # for the build machine too (fribidi's table generators are native: true): in a
    # native build it is the same compiler
    use = "".join(f"add_project_arguments(warnscope_{lang}_args, language: '{lang}', native: {n})\n"
                  for lang in languages for n in ("false", "true"))
    insert_after_project(tree / "meson.build",
                         f"warnscope_languages = {languages!r}\nsubdir('warnscope')\n{use}")
    run(setup, tmp_path, env)
    with_fragment = compile_commands(build)
    log = compile_each_flag_set(build, with_fragment, tmp_path, env)

    target = by_compiler(targets)[compiler]
    seen = assert_exactly_the_targets_flags(plain, with_fragment, target, drivers(compiler),
                                             dedup=False)
    assert set(seen) == {"c" if lang == "c" else "c++" for lang in languages}
    assert_no_unknown_option(log, compiler)


# ------------------------------------------------------------------ the fragments themselves

def test_cmake_fragment_defines_the_target_and_nothing_else(targets, tmp_path):
    """Included twice into a project without languages (no compiler run): the target
    exists once, no variable is left, no global option set."""
    (tmp_path / "warnings.cmake").write_text(write(targets, "cmake"))
    (tmp_path / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.13)\nproject(p NONE)\n"
        "get_directory_property(ws_options COMPILE_OPTIONS)\n"
        "get_cmake_property(ws_before VARIABLES)\n"
        "include(warnings.cmake)\ninclude(warnings.cmake)\n"
        "get_cmake_property(ws_after VARIABLES)\n"
        "list(REMOVE_ITEM ws_after ws_before ${ws_before})\n"
        "get_directory_property(ws_options_after COMPILE_OPTIONS)\n"
        "get_target_property(ws_imported warnscope::warnings IMPORTED)\n"
        "get_target_property(ws_type warnscope::warnings TYPE)\n"
        'message(STATUS "new variables: [${ws_after}]")\n'
        'message(STATUS "options: [${ws_options}] [${ws_options_after}]")\n'
        'message(STATUS "target: ${ws_type} imported=${ws_imported}")\n')
    out = run(["cmake", "-S", str(tmp_path), "-B", str(tmp_path / "b")], tmp_path)
    assert "-- new variables: []" in out
    assert "-- options: [] []" in out
    assert "-- target: INTERFACE_LIBRARY imported=TRUE" in out


def test_meson_fragment_sets_its_two_lists(targets, tmp_path):
    """A C-only project without warnscope_languages for a C-only export, and with it for
    an export holding C++ flags too: each list is the compiler's Target's."""
    gcc12 = by_compiler(targets)["gcc-12"]
    c_only = [Target(t.compiler, t.family, t.major, {"c": t.for_language("c")}) for t in targets]
    for name, exported, prefix in (("c-only", c_only, ""),
                                   ("both", targets, "warnscope_languages = ['c']\n")):
        project = tmp_path / name
        (project / "warnscope").mkdir(parents=True)
        (project / "warnscope" / "meson.build").write_text(write(exported, "meson"))
        (project / "meson.build").write_text(
            f"project('p', 'c')\n{prefix}subdir('warnscope')\n"
            "message('C=' + ' '.join(warnscope_c_args) + '|CPP=' + ' '.join(warnscope_cpp_args) + '|')\n")
        out = run([MESON, "setup", str(project / "b"), str(project)], project, {"CC": "gcc-12"})
        assert f"C={' '.join(gcc12.for_language('c'))}|CPP=|" in out, out


@pytest.mark.parametrize("compiler", list(COMPILERS))
def test_make_fragment_with_each_compiler(compiler, targets, tmp_path):
    need(compiler)
    (tmp_path / "warnscope.mk").write_text(write(targets, "make"))
    (tmp_path / "Makefile").write_text(
        "include warnscope.mk\nshow:\n"
        "\t@echo 'C=$(WARNSCOPE_CFLAGS)|CXX=$(WARNSCOPE_CXXFLAGS)|LEFT=$(filter warnscope_%,$(.VARIABLES))|'\n")
    out = run(["make", "-s", "show", f"CC={compiler}", f"CXX={COMPILERS[compiler]}"], tmp_path)
    target = by_compiler(targets)[compiler]
    assert out.strip() == (f"C={' '.join(target.for_language('c'))}|"
                           f"CXX={' '.join(target.for_language('c++'))}|LEFT=|")


# ------------------------------------------------------------------ the advice's own set

#: the options each compiler prints on zlib built with the advice's set (every other
#: compiler prints nothing): clang 16 and 19's default-on -Wdeprecated-non-prototype on
#: zlib's K&R-style declarations
PRINTED_WITH_THE_SET = {"clang-16": {"-Wdeprecated-non-prototype"}, "clang-19": {"-Wdeprecated-non-prototype"}}
#: what the advice counts under an option a build with its set has on but does not print,
#: per compiler, option and file: a diagnostic is counted under the option it is printed
#: with, and clang 19 prints -Wformat-signedness's (off at the base, on at all) as
#: [-Wformat], which it has on by default: the two signedness mismatches of
#: test/example.c (lines 365 and 563) count under -Wformat, and without
#: -Wformat-signedness they are not printed
PRINTED_UNDER_ANOTHER_OPTION = {"clang-19": {"-Wformat": {"test/example.c": 2}}}


def in_tree(file: str | None, tree: Path, build: Path) -> str | None:
    """A diagnostic's file as the warnings builds store it, relative to the tree (the
    zconf.h CMake generates into its build directory stands for the tree's); None:
    outside the tree or no file."""
    if not file:
        return None
    path = Path(file)
    for root in (tree, build):
        if path.is_relative_to(root):
            return str(path.relative_to(root))
    return None


@pytest.mark.parametrize("compiler", list(COMPILERS))
def test_the_advices_set_on_zlibs_cmake_build(compiler, zlib_advice, tmp_path):
    """The Targets the advice produces for zlib with the five host compilers (from its
    builds at ``all``: zlib's own configure and Makefile), exported as CMake and applied
    to Debian's zlib CMake build with each compiler: (1) every compile carries exactly the
    flags the advice lists for that compiler (C: zlib has no C++), and nothing else
    changed; (2) no compiler reports an unknown option; (3) what the build prints is what
    the advice predicted per flag: every "turn on now" flag prints nothing; every option
    printed is on with the set (a flag of the Target's closure, or on by default as the
    flag data says) and shown printing by the advice's rows for that compiler, each row
    of the set (a Target's flag, or a flag on at the base with that compiler) counting
    exactly the diagnostics the build prints under its options, but for
    ``PRINTED_UNDER_ANOTHER_OPTION``.

    Both builds at the advice's -O (the CMake build is configured with ``CMAKE_C_FLAGS``
    set to it, without and with the fragment alike: GCC's flow-based warnings such as
    ``-Wnull-dereference`` depend on the optimizer). The CMake build compiles the same 17
    sources as the Makefile build (the library, test/example.c and test/minigzip.c; each
    twice), which the test checks; a diagnostic in a source only one of them compiled
    would be left out, and diagnostics outside the tree are not counted by the advice nor
    here (none is printed without -Wsystem-headers).
    """
    need(compiler)
    db, advice = zlib_advice
    targets = [Target(t["compiler"], t["family"], t["major"], t["flags"]) for t in advice["targets"]]
    target = by_compiler(targets)[compiler]
    made = next(b for b in advice["builds"] if b["compiler"] == compiler)
    assert made["status"] == "ok" and made["opt"]
    tree, plain, with_fragment, log = build_with_cmake_fragment(
        "zlib", compiler, targets, tmp_path, (f"-DCMAKE_C_FLAGS={made['opt']}",), whole=True)

    # (1) and (2)
    seen = assert_exactly_the_targets_flags(plain, with_fragment, target, drivers(compiler), dedup=True)
    assert set(seen) == {"c"} and target.for_language("c")[:2] == ["-Wall", "-Wextra"]
    assert all(made["opt"] in argv for _, argv in with_fragment.values())
    assert_no_unknown_option(log, compiler)

    # the sources both builds compile
    conn = connect(db, write=False)
    try:
        stored = {r[0].split(" -> ")[0] for r in conn.execute(
            "SELECT t.tu FROM wn_tu t JOIN wn_build b ON b.id = t.build_id WHERE b.project = 'zlib' "
            "AND b.level = 'all' AND b.compiler = ?", (compiler,))}
        c = load_compiler(conn, compiler, ["c"])
    finally:
        conn.close()
    compiled = {str(Path(file).relative_to(tree)) for file, _ in with_fragment}
    both = stored & compiled
    assert both == stored == compiled and len(both) == 17, (stored ^ compiled)

    # (3) what it prints: option -> its diagnostics in the tree (each once)
    build = tmp_path / "build"
    printed: dict[str, set] = {}
    for d in parse(log).diagnostics:
        assert d.severity == "warning" and d.option is not None, d   # no row predicts an option-less one
        file = in_tree(d.file, tree, build)
        if file is None or (file.endswith(".c") and file not in both):
            continue
        printed.setdefault(d.option, set()).add((file, d.line, d.column, d.message))
    assert set(printed) == PRINTED_WITH_THE_SET.get(compiler, set()), sorted(printed)

    base = advice["base"]
    entry = {r["flag"]: next(p for p in r["compilers"] if p["compiler"] == compiler) for r in advice["rows"]}
    verdict = {r["flag"]: r["verdict"] for r in advice["rows"]}
    on_with_the_set = {n for n, _ in c.on_at("c", OnAt.DEFAULT)}.union(
        *(c.names(flag, "c") for flag in target.for_language("c")))
    base_names = c.base_names("c", base)
    for flag in target.for_language("c"):
        if flag in BASE_FLAGS[base]:
            continue
        # a "turn on now" flag: predicted silent, and nothing it adds to the base prints
        assert verdict[flag] == "turn-on" and entry[flag]["prints"]["own"] == 0, flag
        adds = c.names(flag, "c") - base_names
        assert adds and not {o for o in printed if c.target(o) in adds}, (flag, sorted(printed))
    for option in printed:
        assert c.target(option) in on_with_the_set, option
        assert any(option in p["prints"]["options"] and p["prints"]["own"] for p in entry.values()
                   if p["prints"]), f"{option}: printed, and no row of the advice shows it printing"
    # each row of the set counts exactly what the build prints under its options
    missed = PRINTED_UNDER_ANOTHER_OPTION.get(compiler, {})
    in_the_set = [flag for flag, p in entry.items() if p["known"] and p["prints"] and (
        flag in target.for_language("c") or p["on"] in {level.value for level in BASES[base]})]
    assert len(in_the_set) > 100
    for flag in in_the_set:
        p = entry[flag]["prints"]
        assert p["complete"]
        expected = sum(len(printed.get(o, ())) + sum(missed.get(o, {}).values()) for o in p["options"])
        assert p["own"] == expected, (flag, p, {o: len(printed.get(o, ())) for o in p["options"]})
    for option, files in missed.items():
        assert option not in printed
        assert any(option in entry[f]["prints"]["options"] and
                   {t["file"]: t["diagnostics"] for t in entry[f]["prints"]["top_files"]} == files
                   for f in in_the_set), option
    if compiler in PRINTED_WITH_THE_SET:
        assert entry["-Wdeprecated-non-prototype"]["prints"]["own"] == len(printed["-Wdeprecated-non-prototype"]) > 100
