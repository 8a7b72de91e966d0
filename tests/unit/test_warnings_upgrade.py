"""The upgrade report's reasoning on hand-made builds: which errors are new and what the
old compiler did there, which switches may restore the old behaviour and in which order,
which set of them is the smallest that builds, which configure checks flip (a compiler's
own name or wrapper path is no flip), which default standards changed, and that the
warnings' diff counts no error."""
from __future__ import annotations

from types import SimpleNamespace

from warnscope import profiles
from analyzer.projects.cell import BuildStatus
from analyzer.warnings import queries
from analyzer.warnings.results import Build, Check, Diagnostic, TuOutcome
from analyzer.warnings.upgrade import (configure_flips, hatch_level, new_errors, smallest,
                                       std_defaults, switches, warnings_only)


def _build(compiler: str, diags=(), checks=(), macros=None, std=None, tus=("c",), status="ok",
           options=()) -> Build:
    b = Build(project="p", origin="o", compiler=compiler, compiler_version=f"{compiler} 1.2.3",
              level="default", opt="-O2", flags={"c": []}, format="gcc-json", status=status)
    b.diagnostics = [Diagnostic(*d) for d in diags]
    b.checks = list(checks)
    b.macros = macros or {}
    b.std_defaults = std or {}
    b.tus = [TuOutcome(f"x.{lang}", lang, 0, 0) for lang in tus]
    b.project_options = list(options)
    return b


OLD = _build("gcc-13", [("-Wimplicit-int", "warning", "a.c", 4, 8, "type defaults to 'int'"),
                        (None, "error", "b.c", 1, 1, "already broken")])
NEW = _build("gcc-14", [("-Wimplicit-int", "error", "a.c", 4, 8, "type defaults to 'int'"),
                        (None, "error", "b.c", 1, 1, "already broken"),
                        ("-Wint-conversion", "error", "c.c", 9, 3, "makes pointer from integer")],
             status="failed")


def test_new_errors_and_what_the_old_compiler_did():
    errors = new_errors(OLD, NEW)
    assert [(e.file, e.option, e.was) for e in errors] == [
        ("a.c", "-Wimplicit-int", "warning"), ("c.c", "-Wint-conversion", "nothing")]


def _words(tc, old, new) -> list[str]:
    return [s.word for s in switches(tc, old, new, new_errors(old, new))]


def test_gcc_14_permerrors_take_wno_error_each_then_fpermissive():
    """Each option's -Wno-error= first (that option alone, as the old compiler printed
    it), -fpermissive last (every permerror, and more)."""
    tc = SimpleNamespace(family="gcc", profile=profiles.GCC, major=14)
    found = switches(tc, OLD, NEW, new_errors(OLD, NEW))
    assert [s.word for s in found] == ["-Wno-error=implicit-int", "-Wno-error=int-conversion",
                                       "c:-fpermissive"]
    assert "GCC 14" in found[-1].why and "-Wno-error=" in found[0].why


def test_clang_has_no_fpermissive():
    tc = SimpleNamespace(family="clang", profile=profiles.CLANG, major=16)
    assert _words(tc, OLD, NEW) == ["-Wno-error=implicit-int", "-Wno-error=int-conversion"]


def test_a_changed_c_default_is_kept_where_the_project_pins_none():
    old = _build("gcc-14", std={"c": "201710L"})
    new = _build("gcc-15", [(None, "error", "legacy.c", 3, 13, "'bool' cannot be defined"),
                            ("-Wincompatible-pointer-types", "error", "legacy.c", 30, 9, "incompatible")],
                 std={"c": "202311L"}, status="failed")
    tc = SimpleNamespace(family="gcc", profile=profiles.GCC, major=15)
    found = switches(tc, old, new, new_errors(old, new))
    # the order of how exactly each restores gcc-14's behaviour
    assert [s.word for s in found] == ["-Wno-error=incompatible-pointer-types", "c:-std=gnu17",
                                       "c:-fpermissive"]
    assert "202311L" in found[1].why
    pinned = _build("gcc-15", [(None, "error", "legacy.c", 3, 13, "x")],
                    std={"c": "202311L"}, options=["-std=c99"])
    assert _words(tc, old, pinned) == []
    (d,) = std_defaults(old, new)
    assert (d.language, d.old, d.new, d.pinned) == ("c", "201710L", "202311L", [])


def test_werror_without_an_option_takes_wno_error_not_a_made_up_option():
    """GCC names -Werror as the option of a warning no option controls that -Werror made
    an error: no ``-Wno-error=error`` (GCC refuses it), but ``-Wno-error``, after each
    option's own."""
    old = _build("gcc-14", std={"c": "201710L"})
    new = _build("gcc-15", [("-Werror", "error", "legacy.c", 3, 1, "useless type name"),
                            UNTERMINATED], std={"c": "201710L"}, status="failed")
    assert _words(SimpleNamespace(family="gcc", profile=profiles.GCC, major=15), old, new) == [
        "-Wno-error=unterminated-string-initialization", "-Wno-error"]


def _trials(outcomes: dict[tuple[str, ...], list[tuple]]):
    """A ``built`` over hand-made hatch builds: a set of switches -> the errors its build
    prints (none: it builds); every set asked for is recorded."""
    asked: list[tuple[str, ...]] = []

    def built(sets):
        out = []
        for words in sets:
            asked.append(tuple(words))
            errors = outcomes[tuple(words)]
            b = _build("gcc-15", [(o, "error", f, line, 1, "e") for f, line, o in errors],
                       status="failed" if errors else "ok")
            b.level = hatch_level(words)
            b.flags = {"c": [w.removeprefix("c:") for w in words]}
            out.append(b)
        return out
    return built, asked


C23 = (None, "error", "legacy.c", 3, 13, "'bool' cannot be defined")
IPT = ("-Wincompatible-pointer-types", "error", "legacy.c", 30, 9, "incompatible")
UNTERMINATED = ("-Wunterminated-string-initialization", "error", "legacy.c", 40, 9, "too long")


def _gcc_15(*errors):
    old = _build("gcc-14", std={"c": "201710L"})
    new = _build("gcc-15", list(errors), std={"c": "202311L"}, status="failed")
    errs = new_errors(old, new)
    return switches(SimpleNamespace(family="gcc", profile=profiles.GCC, major=15), old, new, errs), errs


def test_the_smallest_set_is_one_switch_alone_and_each_alone_is_said():
    """-std=gnu17 alone builds: it is the hatch, -fpermissive is not added, and every
    switch was built alone (and nothing else)."""
    candidates, errors = _gcc_15(C23, IPT)
    built, asked = _trials({
        ("-Wno-error=incompatible-pointer-types",): [("legacy.c", 3, None)],
        ("c:-std=gnu17",): [],
        ("c:-fpermissive",): [("legacy.c", 3, None)]})
    hatch = smallest(candidates, errors, built)
    assert hatch.flags == ["c:-std=gnu17"] and hatch.status == BuildStatus.OK
    assert "202311L" in hatch.why and "GCC 14" not in hatch.why
    assert [(t.flags, t.status, t.errors_left) for t in hatch.alone] == [
        (["c:-Wno-error=incompatible-pointer-types"], BuildStatus.FAILED, 1),
        (["c:-std=gnu17"], BuildStatus.OK, 0),
        (["c:-fpermissive"], BuildStatus.FAILED, 1)]
    assert hatch.combined == [] and len(asked) == 3


def test_a_combination_only_where_no_switch_alone_builds():
    """-std=gnu17 leaves a -Werror warning, -Wno-error= leaves the C23 errors: the
    smallest set that covers both is built, not all three."""
    candidates, errors = _gcc_15(C23, UNTERMINATED)
    assert [s.word for s in candidates] == ["-Wno-error=unterminated-string-initialization", "c:-std=gnu17"]
    both = ("-Wno-error=unterminated-string-initialization", "c:-std=gnu17")
    built, asked = _trials({both[:1]: [("legacy.c", 3, None)], both[1:]: [("legacy.c", 40, UNTERMINATED[0])],
                            both: []})
    hatch = smallest(candidates, errors, built)
    assert hatch.flags == ["c:-Wno-error=unterminated-string-initialization", "c:-std=gnu17"]
    assert hatch.status == BuildStatus.OK and [t.errors_left for t in hatch.alone] == [1, 1]
    assert [t.flags for t in hatch.combined] == [hatch.flags] and asked[-1] == both
    assert "-Wno-error=" in hatch.why and "202311L" in hatch.why


def test_the_cover_before_every_switch_and_every_switch_when_it_fails():
    candidates, errors = _gcc_15(C23, IPT, UNTERMINATED)
    words = [s.word for s in candidates]
    assert words == ["-Wno-error=incompatible-pointer-types",
                     "-Wno-error=unterminated-string-initialization", "c:-std=gnu17", "c:-fpermissive"]
    left = {"c23": ("legacy.c", 3, None), "ipt": ("legacy.c", 30, IPT[0]),
            "un": ("legacy.c", 40, UNTERMINATED[0])}
    outcomes = {(words[0],): [left["c23"], left["un"]], (words[1],): [left["c23"], left["ipt"]],
                (words[2],): [left["un"]], (words[3],): [left["c23"], left["un"]],
                (words[1], words[2]): [("other.c", 1, None)], tuple(words): [("other.c", 1, None)]}
    built, asked = _trials(outcomes)
    hatch = smallest(candidates, errors, built)
    # -std=gnu17 removes the C23 error and the pointer types, -Wno-error= the rest: tried
    # first; it fails, so all four together, which fail too: said
    assert asked[4:] == [(words[1], words[2]), tuple(words)]
    assert hatch.status == BuildStatus.FAILED and hatch.errors_left == 1
    assert [t.flags for t in hatch.combined] == [[f"c:{w.removeprefix('c:')}" for w in ws]
                                                 for ws in asked[4:]]


def test_errors_left_leave_out_those_the_old_compiler_printed_too():
    """A configure's failed probes (``conftest.c``, the driver's ``ld returned 1 exit
    status``) print errors with both compilers: a trial that builds has none of the move's
    errors left, though its log holds those (as kbd 2.5.1's builds do)."""
    probes = [(None, "fatal", "conftest.c", 49, 10, "vfork.h: No such file or directory"),
              (None, "error", None, None, None, "ld returned 1 exit status")]
    ifd = ("-Wimplicit-function-declaration", "error", "contrib/splitfont.c", 19, 17,
           "implicit declaration of function 'exit'")
    old = _build("gcc-13", probes)
    new = _build("gcc-14", [*probes, ifd], status="failed")
    errors = new_errors(old, new)
    assert [(e.file, e.line) for e in errors] == [("contrib/splitfont.c", 19)]
    candidates = switches(SimpleNamespace(family="gcc", profile=profiles.GCC, major=14),
                          old, new, errors)

    def built(sets):
        out = []
        for words in sets:
            b = _build("gcc-14", probes)
            b.level, b.flags = hatch_level(words), {"c": [w.removeprefix("c:") for w in words]}
            out.append(b)
        return out
    hatch = smallest(candidates, errors, built, {(d[2], d[3], d[0]) for d in probes})
    assert hatch.status == BuildStatus.OK and hatch.errors_left == 0
    assert [t.errors_left for t in hatch.alone] == [0] * len(candidates)
    # without the old compiler's errors every error of the log is counted
    assert smallest(candidates, errors, built).errors_left == 2


def test_nothing_stored_answers_no_hatch():
    candidates, errors = _gcc_15(C23)
    assert smallest(candidates, errors, lambda sets: None) is None
    assert smallest([], errors, lambda sets: []) is None


def test_the_warnings_diff_counts_no_error():
    """An error is counted once, under the new errors: neither a new error nor the old
    warning it was is a warning that appears or goes."""
    errors = new_errors(OLD, NEW)
    diff = queries.diff_of(*warnings_only(OLD, NEW, errors))
    assert (diff.added, diff.removed, diff.changed, diff.unchanged) == (0, 0, 0, 0)
    warned = _build("gcc-14", [*[(d.option, d.severity, d.file, d.line, d.column, d.message)
                                 for d in NEW.diagnostics],
                               ("-Wshadow", "warning", "d.c", 2, 1, "shadows")])
    diff = queries.diff_of(*warnings_only(OLD, warned, new_errors(OLD, warned)))
    assert (diff.added, diff.removed) == (1, 0) and diff.by_option[0].option == "-Wshadow"


def test_a_compilers_own_name_and_wrapper_path_are_no_flip():
    old = _build("gcc-13", checks=[
        Check("autoconf", "for gcc", "/c/overhead/wrappers/1a63/gcc-13"),
        Check("autoconf", "whether gcc-13 accepts -g", "yes"),
        Check("autoconf", "if libc defines __progname", "yes")],
        macros={"config.h": {"HAVE___PROGNAME": "1", "VERSION": '"1.0"',
                             "FFTW_CC": '"/c/overhead/wrappers/1a63/gcc-13 -O2"'}})
    new = _build("gcc-14", checks=[
        Check("autoconf", "for gcc", "/c/overhead/wrappers/72f0/gcc-14"),
        Check("autoconf", "whether gcc-14 accepts -g", "yes"),
        Check("autoconf", "if libc defines __progname", "no", "conftest.c:25: error: x")],
        macros={"config.h": {"HAVE___PROGNAME": None, "VERSION": '"1.0"',
                             "FFTW_CC": '"/c/overhead/wrappers/72f0/gcc-14 -O2"'}})
    flips, macros = configure_flips(old, new)
    assert [(f.name, f.old, f.new, f.error) for f in flips] == [
        ("if libc defines __progname", "yes", "no", "conftest.c:25: error: x")]
    assert [(m.file, m.name, m.old, m.new) for m in macros] == [("config.h", "HAVE___PROGNAME", "1", None)]


def test_a_question_asked_twice_is_two_checks():
    """mawk's configure asks ``checking for ctags`` twice (the program's name, then
    whether to use it): each asking is matched with the same asking of the other build."""
    def asked(compiler):
        return _build(compiler, checks=[Check("autoconf", "for ctags", "ctags"),
                                        Check("autoconf", "for ctags", "yes")])
    assert configure_flips(asked("gcc-13"), asked("gcc-14")) == ([], [])
    new = _build("gcc-14", checks=[Check("autoconf", "for ctags", "ctags"),
                                   Check("autoconf", "for ctags", "no")])
    (flip,), _ = configure_flips(asked("gcc-13"), new)
    assert (flip.old, flip.new) == ("yes", "no")
