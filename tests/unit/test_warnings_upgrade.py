"""The upgrade report's reasoning on hand-made builds: which errors are new and what the
old compiler did there, which escape hatch fits, which configure checks flip (a
compiler's own name or wrapper path is no flip), which default standards changed, and that the warnings' diff counts no error."""
from __future__ import annotations

from types import SimpleNamespace

from analyzer.warnings import queries
from analyzer.warnings.results import Build, Check, Diagnostic, TuOutcome
from analyzer.warnings.upgrade import (configure_flips, escape_hatch, new_errors,
                                       std_defaults, warnings_only)


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


def test_gcc_14_permerrors_take_fpermissive():
    tc = SimpleNamespace(family="gcc", major=14)
    words, why = escape_hatch(tc, OLD, NEW, new_errors(OLD, NEW))
    assert words == ["c:-fpermissive"] and "GCC 14" in why


def test_other_options_take_wno_error_and_clang_has_no_fpermissive():
    tc = SimpleNamespace(family="clang", major=16)
    words, _ = escape_hatch(tc, OLD, NEW, new_errors(OLD, NEW))
    assert words == ["-Wno-error=implicit-int", "-Wno-error=int-conversion"]


def test_a_changed_c_default_is_kept_where_the_project_pins_none():
    old = _build("gcc-14", std={"c": "201710L"})
    new = _build("gcc-15", [(None, "error", "legacy.c", 3, 13, "'bool' cannot be defined")],
                 std={"c": "202311L"}, status="failed")
    tc = SimpleNamespace(family="gcc", major=15)
    words, why = escape_hatch(tc, old, new, new_errors(old, new))
    assert words == ["c:-std=gnu17"] and "202311L" in why
    pinned = _build("gcc-15", new.diagnostics and [(None, "error", "legacy.c", 3, 13, "x")],
                    std={"c": "202311L"}, options=["-std=c99"])
    assert escape_hatch(tc, old, pinned, new_errors(old, pinned))[0] == []
    (d,) = std_defaults(old, new)
    assert (d.language, d.old, d.new, d.pinned) == ("c", "201710L", "202311L", [])


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
