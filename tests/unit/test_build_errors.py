"""Which line of a failed build's log says what failed (logs of real builds, abridged)."""
from __future__ import annotations

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
