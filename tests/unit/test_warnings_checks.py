"""The configure checks of autoconf, CMake and Meson, read from their real logs
(tests/fixtures/upgrade/logs, made as its README says), and from damaged ones."""
from __future__ import annotations

from pathlib import Path

from analyzer.warnings.checks import (Check, autoconf_checks, cmake_checks, config_macros,
                                      meson_checks)

LOGS = Path(__file__).resolve().parents[1] / "fixtures" / "upgrade" / "logs"


def _read(rel: str) -> str:
    return (LOGS / rel).read_text(encoding="utf-8", errors="replace")


def test_autoconf_the_progname_check_flips_with_its_error():
    old = {c.name: c for c in autoconf_checks(_read("autoconf-gcc-13/config.log"))}
    new = {c.name: c for c in autoconf_checks(_read("autoconf-gcc-14/config.log"))}
    assert old["if libc defines __progname"] == Check("autoconf", "if libc defines __progname", "yes")
    flipped = new["if libc defines __progname"]
    assert flipped.result == "no"
    assert flipped.error.startswith("conftest.c:") and "implicit declaration of function 'printf'" in flipped.error
    assert old["for strdup"].result == new["for strdup"].result == "yes"
    assert new["for stdint.h"].result == "yes" and new["for stdint.h"].error == ""


def test_autoconf_config_header_loses_the_macro():
    old, new = config_macros(_read("autoconf-gcc-13/config.h")), config_macros(_read("autoconf-gcc-14/config.h"))
    assert old["HAVE___PROGNAME"] == "1" and new["HAVE___PROGNAME"] is None
    assert old["HAVE_STRDUP"] == new["HAVE_STRDUP"] == "1"


def test_cmake_cache_and_error_log():
    ok = {c.name: c for c in cmake_checks(_read("cmake-ok/CMakeCache.txt"))}
    err = {c.name: c for c in cmake_checks(_read("cmake-err/CMakeCache.txt"),
                                          _read("cmake-err/CMakeError.log"))}
    assert ok["HAVE___PROGNAME"].result == "1" and err["HAVE___PROGNAME"].result == "(false)"
    assert err["HAVE___PROGNAME"].error.startswith("src.c:1:43: error: implicit declaration")
    assert err["HAVE_STDINT_H"] == Check("cmake", "HAVE_STDINT_H", "1")
    assert "CMAKE_C_COMPILER" not in ok          # a setting, not a check
    assert config_macros(_read("cmake-err/config.h"))["HAVE___PROGNAME"] is None


def test_meson_log():
    ok = {c.name: c for c in meson_checks(_read("meson-ok/meson-log.txt"))}
    err = {c.name: c for c in meson_checks(_read("meson-err/meson-log.txt"))}
    name = 'Checking if "libc defines __progname" links'
    assert ok[name].result == "YES" and err[name].result == "NO"
    assert err[name].error.startswith("testfile.c:1:43: error: implicit declaration")
    assert err['Has header "stdint.h"'].result == "YES"
    assert config_macros(_read("meson-err/config.h"))["HAVE___PROGNAME"] is None
    assert config_macros(_read("meson-ok/config.h"))["HAVE___PROGNAME"] == ""


def test_damaged_logs_give_fewer_checks_never_an_error():
    text = _read("autoconf-gcc-14/config.log")
    cut = text[: len(text) // 2]
    assert len(autoconf_checks(cut)) < len(autoconf_checks(text))
    hostile = "configure:1: checking for \x1b[31mred\x07\nconfigure:2: result: " + "y" * 10_000 + "\n"
    (check,) = autoconf_checks(hostile)
    assert "\x1b" not in check.name and "\x07" not in check.name and len(check.result) <= 300
    assert autoconf_checks("\0\0 not a log") == [] and cmake_checks("x" * 100_000) == []
    assert meson_checks("Checking for function : \n") == []
    assert config_macros("#define\n#undef 1X\n#define OK 2 /* c */") == {"OK": "2 /* c */"}


def test_autoconf_conftest_named_configure_and_cached_meson_results():
    """Thomas Dickey's autoconf writes ``#line N "configure"`` into its conftests, so the
    compiler names configure itself (mawk's config.log under GCC 14); configure's own
    lines have no column. Meson's cached answers are its answers."""
    log = ("configure:4153: checking for random-integer functions\n"
           "configure:4192: gcc-14 -o conftest -g -O2 conftest.c -lm >&5\n"
           "configure: In function 'main':\n"
           "configure:4185:16: error: implicit declaration of function 'arc4random_push' "
           "[-Wimplicit-function-declaration]\n"
           "configure:4195: $? = 1\n"
           "configure:4290: result: unknown\n")
    (check,) = autoconf_checks(log)
    assert check.result == "unknown"
    assert check.error.startswith("configure:4185:16: error: implicit declaration of function 'arc4random_push'")
    (cached,) = meson_checks('Has header "string.h" : YES (cached)\n')
    assert cached.result == "YES"
