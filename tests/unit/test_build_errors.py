"""Which line of a failed build's log says what failed (logs of real builds: abridged
here, whole in tests/fixtures/failures)."""
from __future__ import annotations

from pathlib import Path

from analyzer.projects.failure import first_error

# gcc-12 under the `all` set on cppcheck 2.10: warnings that mention errors, then the ICE
CPPCHECK_GCC12 = """\
/tmp/t/externals/tinyxml2/tinyxml2.h:1871:25: warning: padding struct to align 'tinyxml2::XMLDocument::_errorID' [-Wpadded]
 1871 |     XMLError            _errorID;
/tmp/t/lib/errortypes.h:40:17: note: 'InternalError::errorMessage' declared here
/tmp/t/lib/analyzerinfo.cpp: At global scope:
/tmp/t/lib/analyzerinfo.cpp:162:1: internal compiler error: in diag_mismatched_tags, at cp/parser.cc:33670
  162 | }
make[1]: *** [lib/CMakeFiles/cppcheck-core.dir/build.make:388: lib/CMakeFiles/cppcheck-core.dir/build/mc_analyzerinfo.cpp.o] Error 1
"""


def test_the_compilers_error_line_not_a_warning_about_errors():
    assert first_error(CPPCHECK_GCC12.splitlines()) == (
        "/tmp/t/lib/analyzerinfo.cpp:162:1: internal compiler error: in diag_mismatched_tags, "
        "at cp/parser.cc:33670")


def test_plain_and_fatal_errors_and_none():
    assert first_error(["a.c:1:27: error: expected ';' before '}' token"]).startswith("a.c:1:27: error:")
    assert first_error(["cc1: fatal error: x.c: No such file or directory"]).startswith("cc1: fatal error:")
    assert first_error(["x.c:3:1: warning: unused error code [-Wunused]"]) is None


def test_without_a_compiler_error_the_line_before_the_build_tool_gave_up():
    # sqlite3 built by a root's gcc-15: its lemon needs a newer libc than the host's
    log = ["./lemon -DSQLITE_ENABLE_MATH_FUNCTIONS  -S parse.y",
           "./lemon: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.38' not found (required by ./lemon)",
           "make: *** [Makefile:1102: parse.c] Error 1",
           "make: *** Waiting for unfinished jobs....",
           "./lemon: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.38' not found (required by ./lemon)"]
    assert first_error(log) == log[1]
    # a warning just before it says nothing of the failure: the build tool's own line then
    assert first_error(["x.c:3:1: warning: unused error code [-Wunused]",
                        "make: *** [all] Error 2"]) == "make: *** [all] Error 2"
    assert first_error(["FAILED: lib/a.o"]) == "FAILED: lib/a.o"


# ------------------------------------------------- the logs of real failed builds
#: tests/fixtures/failures: each log written by a real failed build (its README says how)
FAILURES = Path(__file__).resolve().parents[1] / "fixtures" / "failures"


def _first_error_of(name: str) -> str | None:
    with open(FAILURES / name, errors="replace") as fh:    # as failure.fail reads a log
        return first_error(fh)


def test_automake_rebuild_without_automake_says_the_command_not_found_never_the_url():
    """An automake tree whose m4 file is newer than aclocal.m4, built where automake is
    not installed: ``missing`` ends its advice with a URL, the line before make's failure."""
    log = (FAILURES / "automake-aclocal-missing.log").read_text().splitlines()
    assert log[-2].strip() == "<http://www.perl.org/>" and log[-1].startswith("make: *** ")
    line = _first_error_of("automake-aclocal-missing.log")
    assert line.endswith("/build-aux/missing: line 81: aclocal-1.14: command not found"), line


def test_a_compiler_error_under_make_and_ninja():
    assert _first_error_of("make-compile-error.log") == "parse.c:3:19: error: expected ';' at end of declaration"
    assert _first_error_of("ninja-compile-error.log") == \
        "../parse.c:3:19: error: expected ';' at end of declaration"


def test_gccs_json_diagnostics_are_not_a_message_makes_line_then():
    """gcc -fdiagnostics-format=json prints its error as a JSON line just before make's
    failure (the warnings runner reads it as a diagnostic first): never that line."""
    assert _first_error_of("make-compile-error-gcc-json.log") == "make: *** [Makefile:9: parse.o] Error 1"


def test_the_linkers_undefined_reference_before_collect2():
    assert _first_error_of("make-link-error.log") == "main.c:(.text.startup+0x19): undefined reference to `twice'"


def test_a_recipes_program_the_shell_cannot_find():
    assert _first_error_of("make-shell-not-found.log") == "/bin/sh: 1: ./scripts/make-version: not found"


def test_cmake_and_meson_configure_errors():
    assert _first_error_of("cmake-find-package.log") == (
        'CMake Error at CMakeLists.txt:3 (find_package): By not providing "FindZSTD.cmake" in '
        'CMAKE_MODULE_PATH this project has asked CMake to find a package configuration file provided '
        'by "ZSTD", but CMake did not find one.')
    assert _first_error_of("meson-dependency.log") == (
        'meson.build:2:7: ERROR: Dependency "libzstd-missing" not found (tried pkg-config and cmake)')


def test_no_failure_no_line_and_never_help_text():
    assert first_error(["checking for gcc... gcc", "configure: creating ./config.status"]) is None
    # make's failure after indented help text or a bare URL: make's own line
    assert first_error(["         <https://www.gnu.org/software/automake>", "make: *** [x] Error 1"]) \
        == "make: *** [x] Error 1"
    assert first_error(["https://example.org/help", "make: *** [x] Error 1"]) == "make: *** [x] Error 1"
