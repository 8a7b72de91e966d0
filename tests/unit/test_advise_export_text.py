"""The exporters of the advice on hand-made targets: the guard rule (version ranges only
where a listed version lacks a flag), the order of each target's flags kept, and the
text of each format (what a build file holds for which compiler and language)."""
from __future__ import annotations

import random

import pytest

from analyzer.advise.export import FORMATS, write
from analyzer.advise.export.plan import Guard, Range, flags_for, merged, plan, ranges
from analyzer.advise.targets import LANGUAGES, Target
from warnscope.errors import BadInput


def target(compiler: str, c: list[str], cxx: list[str] | None = None) -> Target:
    family, major = compiler.split("-")
    return Target(compiler, family, int(major), {"c": c, "c++": cxx if cxx is not None else []})


#: a mix: common flags, one family only, one new in gcc-12 and in clang-16, a C-only and
#: a C++-only flag, -Wno- and level forms, a name with # (clang's -W#warnings)
MIX = [
    target("gcc-11", ["-Wall", "-Wextra", "-Wduplicated-cond", "-Wstrict-prototypes", "-Wformat=2",
                      "-Wno-unused-parameter"],
           ["-Wall", "-Wextra", "-Wduplicated-cond", "-Wnon-virtual-dtor", "-Wformat=2",
            "-Wno-unused-parameter"]),
    target("gcc-12", ["-Wall", "-Wextra", "-Wduplicated-cond", "-Wuse-after-free=2",
                      "-Wstrict-prototypes", "-Wformat=2", "-Wno-unused-parameter"],
           ["-Wall", "-Wextra", "-Wduplicated-cond", "-Wnon-virtual-dtor", "-Wformat=2",
            "-Wno-unused-parameter"]),
    target("clang-14", ["-Wall", "-Wextra", "-Wshadow-all", "-Wstrict-prototypes", "-Wformat=2",
                        "-Wno-unused-parameter", "-W#warnings"],
           ["-Wall", "-Wextra", "-Wshadow-all", "-Wnon-virtual-dtor", "-Wformat=2",
            "-Wno-unused-parameter"]),
    target("clang-16", ["-Wall", "-Wextra", "-Wshadow-all", "-Wstrict-prototypes",
                        "-Wunsafe-buffer-usage", "-Wformat=2", "-Wno-unused-parameter",
                        "-W#warnings"],
           ["-Wall", "-Wextra", "-Wshadow-all", "-Wnon-virtual-dtor", "-Wunsafe-buffer-usage",
            "-Wformat=2", "-Wno-unused-parameter"]),
    target("clang-19", ["-Wall", "-Wextra", "-Wshadow-all", "-Wstrict-prototypes",
                        "-Wunsafe-buffer-usage", "-Wformat=2", "-Wno-unused-parameter",
                        "-W#warnings"],
           ["-Wall", "-Wextra", "-Wshadow-all", "-Wnon-virtual-dtor", "-Wunsafe-buffer-usage",
            "-Wformat=2", "-Wno-unused-parameter"]),
]


# ------------------------------------------------------------------ the guard rule

@pytest.mark.parametrize("listed, having, expected", [
    ([11, 12], {11, 12}, (Range(),)),                    # every listed version: id only
    ([12], {12}, (Range(),)),                            # one version listed: id only
    ([11, 12], {12}, (Range(12, None),)),                # new in 12: >= 12
    ([11, 12], {11}, (Range(None, 12),)),                # gone in 12: < 12
    ([14, 16, 19], {16, 19}, (Range(16, None),)),        # clang-14 lacks it: >= 16
    ([14, 16, 19], {19}, (Range(19, None),)),            # 17, 18 unlisted: not given it
    ([14, 16, 19], {16}, (Range(16, 17),)),              # only 16: 16.x alone
    ([14, 16, 19], {14, 19}, (Range(None, 15), Range(19, None))),
    ([14, 16, 19], {14, 16}, (Range(None, 17),)),        # 15 between two that have it: in
    ([9, 11, 12, 14], {11, 12}, (Range(11, 13),)),
])
def test_ranges_hold_exactly_the_listed_majors_that_get_the_flag(listed, having, expected):
    got = ranges(listed, having)
    assert got == expected
    inside = {m for m in listed if any((r.lo is None or m >= r.lo) and (r.hi is None or m < r.hi)
                                       for r in got)}
    assert inside == having


def test_guards_per_family_and_language():
    p = plan(MIX)
    guards = {flag: block.guards for lang in LANGUAGES for block in p.blocks[lang]
              for flag in block.flags if lang == "c"}
    assert guards["-Wall"] == (Guard("gcc"), Guard("clang"))
    assert guards["-Wduplicated-cond"] == (Guard("gcc"),)
    assert guards["-Wshadow-all"] == (Guard("clang"),)
    assert guards["-Wuse-after-free=2"] == (Guard("gcc", (Range(12, None),)),)
    assert guards["-Wunsafe-buffer-usage"] == (Guard("clang", (Range(16, None),)),)
    assert guards["-W#warnings"] == (Guard("clang"),)
    cxx = {flag for block in p.blocks["c++"] for flag in block.flags}
    assert "-Wstrict-prototypes" not in cxx and "-Wnon-virtual-dtor" in cxx
    c = {flag for block in p.blocks["c"] for flag in block.flags}
    assert "-Wnon-virtual-dtor" not in c


def test_each_compiler_gets_exactly_its_list_in_its_order():
    p = plan(MIX)
    for t in MIX:
        for lang in LANGUAGES:
            assert flags_for(p, lang, t.family, t.major) == t.for_language(lang)
    # an unlisted version takes the flags of the range it falls in
    assert "-Wuse-after-free=2" in flags_for(p, "c", "gcc", 13)
    assert "-Wunsafe-buffer-usage" not in flags_for(p, "c", "clang", 15)
    assert flags_for(p, "c", "gcc", 10) == MIX[0].for_language("c")


def test_orders_that_disagree_give_a_flag_twice_under_disjoint_guards():
    a = target("clang-14", ["-Wno-unused-parameter", "-Wextra"])
    b = target("clang-16", ["-Wextra", "-Wno-unused-parameter"])
    p = plan([a, b])
    for t in (a, b):
        assert flags_for(p, "c", t.family, t.major) == t.for_language("c")
    flat = [f for block in p.blocks["c"] for f in block.flags]
    assert len(flat) == 3 and set(flat) == {"-Wno-unused-parameter", "-Wextra"}


def test_random_targets_round_trip():
    rng = random.Random(35)
    pool = [f"-W{name}" for name in "abcdefghijklmnop"]
    for _ in range(300):
        targets = []
        for family, majors in (("gcc", (9, 11, 12, 14)), ("clang", (13, 14, 16, 19))):
            for m in rng.sample(majors, rng.randint(0, len(majors))):
                targets.append(Target(f"{family}-{m}", family, m,
                                      {lang: rng.sample(pool, rng.randint(0, 8)) for lang in LANGUAGES}))
        if not targets:
            continue
        p = plan(targets)
        for t in targets:
            for lang in LANGUAGES:
                assert flags_for(p, lang, t.family, t.major) == t.for_language(lang), (targets, t, lang)


def test_merged_takes_a_shared_head_once():
    assert merged([["-Wa", "-Wb"], ["-Wa", "-Wc"]]) == [("-Wa", {0, 1}), ("-Wb", {0}), ("-Wc", {1})]


# ------------------------------------------------------------------ the formats' text

@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_is_deterministic_and_says_where_it_comes_from(fmt):
    text = write(MIX, fmt)
    shuffled = list(reversed(MIX))
    assert write(shuffled, fmt) == text
    first = text.splitlines()[0]
    assert first.startswith("# Generated by `warnscope advise` for "
                            "gcc-11, gcc-12, clang-14, clang-16, clang-19")
    assert text.endswith("\n")


def test_cmake_text():
    text = write(MIX, "cmake")
    assert "add_library(warnscope::warnings INTERFACE IMPORTED)" in text
    assert "if(NOT TARGET warnscope::warnings)" in text
    lines = text.splitlines()

    def line_of(flag: str, lang: str) -> str:
        found = [ln for ln in lines if f"$<COMPILE_LANGUAGE:{lang}>" in ln and
                 any(part.rstrip('>"') == flag for part in ln.split(":")[-1].split(";"))]
        assert len(found) == 1, (flag, lang, found)
        return found[0]

    assert line_of("-Wuse-after-free=2", "C") == (
        '    "$<$<AND:$<COMPILE_LANGUAGE:C>,$<AND:$<C_COMPILER_ID:GNU>,'
        '$<VERSION_GREATER_EQUAL:$<C_COMPILER_VERSION>,12>>>:-Wuse-after-free=2>"')
    assert "$<CXX_COMPILER_ID:Clang>,$<VERSION_GREATER_EQUAL:$<CXX_COMPILER_VERSION>,16>" in \
        line_of("-Wunsafe-buffer-usage", "CXX")
    assert "VERSION" not in line_of("-Wduplicated-cond", "C")
    assert "$<C_COMPILER_ID:GNU>" in line_of("-Wstrict-prototypes", "C")
    assert "-Wnon-virtual-dtor" not in "\n".join(ln for ln in lines if "COMPILE_LANGUAGE:C>" in ln)
    assert "-Wstrict-prototypes" not in "\n".join(ln for ln in lines if "COMPILE_LANGUAGE:CXX>" in ln)
    # nothing but the target: no set(), no global options
    assert not any(ln.lstrip().startswith(("set(", "add_compile_options", "string(", "list("))
                   for ln in lines)


def test_meson_text():
    text = write(MIX, "meson")
    assert "warnscope_c_args = []" in text and "warnscope_cpp_args = []" in text
    assert ("  if (meson.get_compiler('c').get_id() == 'gcc' and "
            "meson.get_compiler('c').version().version_compare('>=12'))\n"
            "    warnscope_c_args += ['-Wuse-after-free=2']\n") in text
    assert "if 'cpp' in get_variable('warnscope_languages', ['c', 'cpp'])" in text
    c_part, cpp_part = text.split("if 'cpp' in")
    assert "-Wnon-virtual-dtor" not in c_part and "-Wstrict-prototypes" not in cpp_part
    assert "'-W#warnings'" in c_part


def test_meson_reads_only_the_languages_with_flags():
    text = write([target("gcc-12", ["-Wall"])], "meson")
    assert "get_compiler('cpp')" not in text
    assert "if 'c' in get_variable('warnscope_languages', ['c'])" in text


def test_make_text():
    text = write(MIX, "make")
    assert "WARNSCOPE_CFLAGS :=\nWARNSCOPE_CXXFLAGS :=\n" in text
    assert "$(CC) -dumpfullversion -dumpversion" in text and "$(CXX) -dM -E -x c++" in text
    assert ('ifneq ($(and $(filter gcc,$(warnscope_cc_id)),$(shell [ "$(warnscope_cc_major)" '
            '-ge 12 ] 2>/dev/null && echo y)),)\nWARNSCOPE_CFLAGS += -Wuse-after-free=2\nendif') in text
    assert "-W\\#warnings" in text          # '#' would start a comment
    assert text.rstrip().splitlines()[-1] == "undefine warnscope_cxx_major"


def test_flags_text():
    lines = write(MIX, "flags").splitlines()
    body = [ln for ln in lines if not ln.startswith("#")]
    assert body[0] == ("gcc-11 c: -Wall -Wextra -Wduplicated-cond -Wstrict-prototypes -Wformat=2 "
                       "-Wno-unused-parameter")
    assert body[3] == ("gcc-12 c++: -Wall -Wextra -Wduplicated-cond -Wnon-virtual-dtor -Wformat=2 "
                       "-Wno-unused-parameter")
    assert len(body) == 10


def test_a_language_without_flags_is_left_out():
    text = write([target("gcc-12", ["-Wall"]), target("clang-16", ["-Wall"])], "cmake")
    assert "CXX" not in text
    assert '"$<$<AND:$<COMPILE_LANGUAGE:C>,$<OR:$<C_COMPILER_ID:GNU>,$<C_COMPILER_ID:Clang>>>:-Wall>"' in text


# ------------------------------------------------------------------ refused input

@pytest.mark.parametrize("targets, fmt, says", [
    ([], "cmake", "no compiler"),
    (MIX, "bazel", "unknown export format 'bazel'"),
    ([Target("icc-19", "icc", 19, {"c": ["-Wall"]})], "make", "family 'icc'"),
    ([Target("gcc-12", "gcc", 12, {"fortran": ["-Wall"]})], "make", "language 'fortran'"),
    ([target("gcc-12", ["-Wall", "$(shell rm -rf /)"])], "make", "not an option a build file"),
    ([target("gcc-12", ["-Wall;-Wextra"])], "cmake", "not an option a build file"),
    ([target("gcc-12", ["-Wall", "-Wall"])], "flags", "-Wall is listed twice"),
    ([target("gcc-12", ["-Wall"]), Target("gcc-12-root", "gcc", 12, {"c": ["-Wextra"]})],
     "cmake", "both gcc 12"),
])
def test_refused(targets, fmt, says):
    with pytest.raises(BadInput) as err:
        write(targets, fmt)
    assert says in str(err.value)


def test_the_same_version_twice_with_the_same_flags_is_one():
    a = target("gcc-12", ["-Wall"])
    b = Target("gcc-12-root", "gcc", 12, {"c": ["-Wall"]})
    assert "gcc-12-root" not in write([a, b], "flags")
