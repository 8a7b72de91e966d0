"""A narrower level answered from a wider build (hand-written flag data; the real check
against real wall and wextra builds is in tests/system/test_warnings_real.py)."""
from __future__ import annotations

from flagdb.closure import Index
from flagdb.model import CompilerData, Edge, Flag

from analyzer.warnings.derive import as_level
from analyzer.warnings.results import Build, Diagnostic, TuOutcome

DATA = CompilerData(
    compiler="gcc-99", family="gcc", version="99.1", source_kind="binary", source="hand-written",
    flags=[Flag("-Wall"), Flag("-Wextra"), Flag("-Wunused-variable"), Flag("-Wpadded"),
           Flag("-Wformat=", takes_argument=True), Flag("-Wlong-long", default="code"),
           Flag("-Wreturn-type", default="on"), Flag("-Wsystem-headers")],
    edges=[Edge("-Wall", "-Wunused-variable"), Edge("-Wall", "-Wformat=", value="1")])
ALL = ["-Wall", "-Wextra", "-Wunused-variable", "-Wpadded", "-Wformat=2", "-Wlong-long", "-Wsystem-headers"]


def _d(option: str | None, file: str = "a.c", severity: str = "warning") -> Diagnostic:
    return Diagnostic(option, severity, file, 1, 1, f"about {option}", tus=["a.c"], printed=1)


def _build(*diagnostics: Diagnostic) -> Build:
    return Build(project="p", origin="o", compiler="gcc-99", compiler_version="99.1", level="all", opt="-O2",
                 flags={"c": ALL}, format="gcc-json", diagnostics=list(diagnostics),
                 tus=[TuOutcome("a.c", "c", 0, len(diagnostics))])


def test_in_out_and_unsure_with_the_reason():
    build = _build(_d("-Wunused-variable"), _d("-Wreturn-type"), _d("-Wpadded"), _d("-Wformat="),
                   _d("-Wlong-long"), _d(None), _d("-Wnot-a-flag"), _d("-Wunused-variable", "/usr/include/x.h"),
                   _d(None, severity="error"))
    wall, unsure = as_level(build, "wall", Index(DATA))
    assert wall.level == "wall" and wall.flags == {"c": ["-Wall"]}
    # -Wall's own and a default-on warning are in; an error is always printed; -Wpadded
    # and the system header's warning (no -Wsystem-headers at wall) are out
    assert [(d.option, d.severity) for d in wall.diagnostics] == [
        ("-Wunused-variable", "warning"), ("-Wreturn-type", "warning"), (None, "error")]
    why = {u.option: u.why for u in unsure}
    assert why == {"-Wformat=": "-Wformat= is 2 at the build's level and 1 here",
                   "-Wlong-long": "-Wlong-long's default is decided in the compiler's code",
                   None: "no option controls it, so no flag says whether it is printed",
                   "-Wnot-a-flag": "not in the flag database"}


def test_the_compilers_own_answer_settles_a_default_decided_in_code():
    build = _build(_d("-Wlong-long"))
    asked = []

    def decided(flags, language):
        asked.append((flags, language))
        return {"-Wlong-long": "0"}
    wall, unsure = as_level(build, "wall", Index(DATA), decided)
    assert wall.diagnostics == [] and unsure == [] and asked == [(ALL, "c"), (["-Wall"], "c")]
    wall, unsure = as_level(build, "wall", Index(DATA), lambda f, lang: {"-Wlong-long": "1"})
    assert [d.option for d in wall.diagnostics] == ["-Wlong-long"] and unsure == []
    # still -1 after GCC's post-option code: left to the diagnostic, so unsure
    wall, unsure = as_level(build, "wall", Index(DATA), lambda f, lang: {"-Wlong-long": "-1"})
    assert wall.diagnostics == [] and [u.option for u in unsure] == ["-Wlong-long"]


def test_the_compilers_states_replace_the_option_files_for_both_levels():
    """GCC 16's C++20 turns -Wdeprecated-enum-enum-conversion on in code: its option
    file says off, the compiler says on, and the compiler is right (lua5.4's C++ build)."""
    build = _build(_d("-Wpadded"))

    def decided(flags, language):
        return {"-Wpadded": "1"} if flags == ["-Wall"] or "-Wpadded" in flags else {}
    wall, unsure = as_level(build, "wall", Index(DATA), decided)
    assert [d.option for d in wall.diagnostics] == ["-Wpadded"] and unsure == []
    # a compiler that cannot be asked: the option files answer
    wall, unsure = as_level(build, "wall", Index(DATA), lambda f, lang: None)
    assert wall.diagnostics == [] and unsure == []
