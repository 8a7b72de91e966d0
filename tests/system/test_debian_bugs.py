"""What breaks across a distribution, checked against Debian's own bug reports: real
source packages of Debian built as Debian builds them (:mod:`analyzer.projects.debian`) by
``warnscope upgrade`` with two compilers of one root, each report held to the text of the
package's GCC 14 or GCC 15 bug (the error, its option, the function and file), and
packages that build with both compilers reported as such (no false breakage).

The sid root's gcc-14 -> gcc-15 is GCC 15's move to C23 (``()`` meaning ``(void)``,
``bool`` a keyword); its implicit declarations are errors for both compilers already,
since dpkg 1.22.6's ``dpkg-buildflags`` makes them so for every compiler. The trixie
root's gcc-13 -> gcc-14 takes bookworm's sources, from before their GCC 14 fixes: GCC 14's
new errors show where a package compiles without Debian's flags, or past them.

* digitemp 3.7.2-2 (trixie), Debian #1096525 (GCC 15 FTBFS; its build log
  digitemp_3.7.2-2_unstable_gccexp), the error as upstream's "Fix conflicting prototype"
  quotes it: ``void free_coupler();`` in ``src/digitemp.h`` against ``void free_coupler(
  int free_only )`` in ``src/digitemp.c``;
* scalpel 1.60+git20240110.6960eb2-1 (trixie), Debian #1097850 (GCC 15 FTBFS), the
  function upstream's "Fix build with GCC-15" mends: ``void setttywidth();``, the handler
  ``scalpel.c`` gives to ``signal``;
* digitemp's stored report names the sid root's gcc-14, the one that built it, though
  trixie's root holds a gcc-14 too;
* kbd 2.5.1-1 (bookworm), Debian #1075109 (GCC 14 FTBFS), the three implicit
  declarations of ``contrib/splitfont.c`` upstream's "contrib/splitfont: Fix build with
  gcc 14" quotes;
* ncompress 4.2.4.6-6 (bookworm), Debian #1097438 (GCC 15 FTBFS), the handler
  ``abort_compress`` Debian's gcc-15.patch gives its argument;
* procmail 3.22-27 (bookworm), Debian #1075398 (GCC 14 FTBFS), the probes Debian's
  "Fix build with gcc-14" mends, in a build that already fails under dpkg's flags;
* opendkim 2.11.0~beta2-8+deb12u1 (bookworm), Debian #1075339 (GCC 14 FTBFS), the
  ``struct state *`` typo of librbl's ``rbl_res_close``.

Each is a few minutes of builds, so the whole module is opt-in, as the suite's budget
asks (the suite's own tests of Debian packages, on the smallest ones that show each
behaviour, are ``test_debian_packages.py`` and ``test_rebuild.py``): ``WARNSCOPE_DEBIAN_BUGS=1``
runs these, the packages that build with both (sl 5.02-1 and figlet 2.2.5-3 of trixie)
and the longer ones (bookworm's freeipmi 1.6.10-1, Debian #1096654, whose bug's error
stops gcc-14 too in the sid root; gmp) (tests/README.md).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from analyzer.projects import debian

ROOT = Path(__file__).resolve().parents[2]

opt_in = pytest.mark.skipif(os.environ.get("WARNSCOPE_DEBIAN_BUGS") != "1",
                            reason="a further Debian package's two builds (minutes each): "
                                   "WARNSCOPE_DEBIAN_BUGS=1 runs them")
#: every package's builds take minutes: the module runs with WARNSCOPE_DEBIAN_BUGS=1
pytestmark = opt_in


def _warnscope(db: Path, *args: str) -> str:
    """The CLI in a child (a module's fixture outlives a test's capture): its stdout."""
    proc = subprocess.run([sys.executable, "-m", "analyzer", "--db", str(db), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=3600)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _upgrade(db: Path, spec: str, old: str, new: str, *more: str) -> dict:
    """``warnscope upgrade`` of one Debian package from ``old`` to ``new`` of one root:
    its one pair, as JSON."""
    out = _warnscope(db, "upgrade", "--project", spec, "--from", old, "--to", new, "--same-root",
                     "--quiet", "--json", *more)
    (pair,) = json.loads(out)["pairs"]
    return pair


def _errors(pair: dict, file: str, words: str) -> list[dict]:
    """The new errors in ``file`` (a path ending so) whose message says ``words``."""
    return [e for e in pair["new_errors"]
            if e["file"].endswith(file) and words in e["message"]]


def _only_error(pair: dict) -> dict:
    """The move's one new error, with its place and option as a tuple under ``"at"``:
    (file, line, option, what the old compiler did there)."""
    (error,) = pair["new_errors"]
    return {**error, "at": (error["file"], error["line"], error["option"], error["was"])}


def _source_lines(package: str, suite: str, path: str) -> list[str]:
    """The lines of ``path`` in the package's fetched source tree (the one warnscope built)."""
    return (debian.fetch(package, suite).tree / path).read_text(errors="replace").splitlines()


@pytest.fixture(scope="module")
def digitemp_db(sid_root, zoo_root, tmp_path_factory):
    """digitemp's upgrade stored, with trixie's root (its gcc-14 too) beside sid's."""
    db = tmp_path_factory.mktemp("digitemp") / "d.db"
    return db, _upgrade(db, "debian:digitemp/trixie", "gcc-14", "gcc-15")


@pytest.fixture(scope="module")
def digitemp(digitemp_db):
    return digitemp_db[1]


def test_debian_1096525_digitemp_free_coupler_conflicting_types(digitemp):
    pair = digitemp
    assert (pair["old_status"], pair["new_status"]) == ("ok", "failed")
    # the bug's error, as upstream's fix quotes it: "src/digitemp.c:171:6: error:
    # conflicting types for 'free_coupler'; have 'void(int)'" (digitemp.h: "previous
    # declaration of 'free_coupler' with type 'void(void)'")
    (conflicting,) = _errors(pair, "src/digitemp.c", "conflicting types for 'free_coupler'")
    assert "have 'void(int)'" in conflicting["message"] and conflicting["was"] == "nothing"
    # no option of GCC's turns it into a warning: C23's own, so the way back is C17
    assert conflicting["option"] is None
    assert pair["defaults"] == [{"language": "c", "old": "201710L", "new": "202311L", "pinned": []}]
    assert pair["hatch"]["flags"] == ["c:-std=gnu17"] and pair["hatch"]["status"] == "ok"


@pytest.fixture(scope="module")
def scalpel(sid_root, tmp_path_factory):
    return _upgrade(tmp_path_factory.mktemp("scalpel") / "s.db", "debian:scalpel/trixie",
                    "gcc-14", "gcc-15")


def test_debian_1097850_scalpel_setttywidth_signal_handler(scalpel):
    pair = scalpel
    assert (pair["old_status"], pair["new_status"]) == ("ok", "failed")
    # the bug's function: "void setttywidth();" (scalpel.h), in C23 a function of no
    # argument, given to signal(SIGWINCH, setttywidth) in scalpel.c, which wants a
    # void (*)(int); the fix made it setttywidth(int sig)
    (handler,) = _errors(pair, "scalpel.c", "passing argument 2 of 'signal'")
    assert handler["option"] == "-Wincompatible-pointer-types" and handler["was"] == "nothing"
    line = _source_lines("scalpel", "trixie", handler["file"])[handler["line"] - 1]
    assert "signal(SIGWINCH, setttywidth)" in line
    # the smallest way back: that option's error a warning again (C17 builds too)
    assert pair["hatch"]["flags"] == ["-Wno-error=incompatible-pointer-types"]
    assert {"flags": ["c:-std=gnu17"], "status": "ok", "errors_left": 0} in pair["hatch"]["alone"]


def test_a_stored_report_names_the_root_whose_compiler_built_it(digitemp_db):
    # trixie's root holds a gcc-14 (14.2) beside the sid root's (14.4), which built it
    db, _ = digitemp_db
    stored = _upgrade(db, "debian:digitemp/trixie", "gcc-14", "gcc-15", "--stored")
    assert stored["environment"]["old"].startswith("sid root (14.")
    assert stored["environment"]["new"].startswith("sid root (15.")
    assert stored["environment"]["differs"] == []


@opt_in
def test_sl_builds_with_gcc_14_and_gcc_15(sid_root, tmp_path):
    pair = _upgrade(tmp_path / "sl.db", "debian:sl/trixie", "gcc-14", "gcc-15")
    assert (pair["old_status"], pair["new_status"]) == ("ok", "ok")
    assert pair["new_errors"] == [] and pair["hatch"] is None and pair["flips"] == []


@opt_in
def test_figlet_builds_with_gcc_14_and_gcc_15(sid_root, tmp_path):
    pair = _upgrade(tmp_path / "f.db", "debian:figlet/trixie", "gcc-14", "gcc-15")
    assert (pair["old_status"], pair["new_status"]) == ("ok", "ok")
    assert pair["new_errors"] == [] and pair["hatch"] is None and pair["flips"] == []
    # C23 makes its K&R definitions warnings of their own
    options = {o["option"] for o in pair["warnings"]["by_option"]}
    assert "-Wold-style-definition" in options


@opt_in
def test_debian_1096654_freeipmi_bool_already_fails_in_the_sid_root(sid_root, tmp_path):
    # bookworm's freeipmi 1.6.10-1 built in the sid root: Debian's rules run autoreconf,
    # and the sid root's autoconf asks gcc-14 for -std=gnu23, so the bug's C23 error
    # stops gcc-14 too: "already fails", not GCC 15's doing alone
    pair = _upgrade(tmp_path / "i.db", "debian:freeipmi/bookworm", "gcc-14", "gcc-15")
    assert (pair["old_status"], pair["new_status"]) == ("failed", "failed")
    # the bug: "tool-config-file-common.c:81:8: error: expected identifier or '(' before
    # 'bool'" (its `int *bool;` in _config_file_bool); a configure test's error is not it
    assert "tool-config-file-common.c:81:8: error: expected identifier or '(' before 'bool'" \
        in pair["old_error"], pair["old_error"]
    assert "conftest" not in pair["old_error"] and "conftest" not in pair["new_error"]
    assert pair["new_errors"] == []


@opt_in
def test_debian_1096730_gmp_configure_under_c23(sid_root, tmp_path):
    # gmp's configure tries "long long reliability test 1" with a `g()` called with six
    # arguments: under C23 no compiler passes, and configure gives up. Debian's own
    # rebootstrap builds gmp with -std=gnu17 for #1096730; warnscope's hatch, built, says so
    pair = _upgrade(tmp_path / "g.db", "debian:gmp/trixie", "gcc-14", "gcc-15")
    assert (pair["old_status"], pair["new_status"]) == ("ok", "failed")
    (g,) = _errors(pair, "conftest.c", "too many arguments to function 'g'; expected 0")
    assert g["option"] is None and g["was"] == "nothing"
    assert "configure: error: could not find a working compiler" in pair["new_error"]
    assert pair["hatch"]["flags"] == ["c:-std=gnu17"] and pair["hatch"]["status"] == "ok"


def test_debian_1075109_kbd_splitfont_implicit_declarations_under_gcc_14(zoo_root, tmp_path):
    # bookworm's kbd 2.5.1-1 rebuilt for trixie, gcc-13 -> gcc-14 of the trixie root. Its
    # rules build contrib/ with CFLAGS="-O2 -g" alone, without dpkg-buildflags' CFLAGS, so
    # Debian's -Werror=implicit-function-declaration does not reach splitfont.c and gcc-13
    # only warns; GCC 14 makes it an error. Upstream's "contrib/splitfont: Fix build with
    # gcc 14" quotes the bug's log: "splitfont.c:19:17: error: implicit declaration of
    # function 'exit' [-Wimplicit-function-declaration]", then 'strlen' (21:13) and
    # 'strtoul' (79:29), and adds <stdlib.h> and <string.h>
    pair = _upgrade(tmp_path / "k.db", "debian:kbd/bookworm", "gcc-13", "gcc-14")
    assert (pair["old_status"], pair["new_status"]) == ("ok", "failed")
    assert pair["environment"]["old"].startswith("trixie root (13.")
    found = {(e["line"], e["column"], e["message"]) for e in pair["new_errors"]
             if e["file"] == "contrib/splitfont.c"}
    assert found == {(19, 17, "implicit declaration of function 'exit'"),
                     (21, 13, "implicit declaration of function 'strlen'"),
                     (79, 29, "implicit declaration of function 'strtoul'")}
    assert all(e["option"] == "-Wimplicit-function-declaration" and e["was"] == "warning"
               for e in pair["new_errors"])
    assert "contrib/splitfont.c:19:17: error: implicit declaration of function 'exit'" \
        in pair["new_error"]
    # the option's error a warning again builds, as -fpermissive does; configure's failed
    # probes print errors with both compilers and are none of the move's
    assert pair["hatch"]["flags"] == ["-Wno-error=implicit-function-declaration"]
    assert pair["hatch"]["status"] == "ok" and pair["hatch"]["errors_left"] == 0
    assert {"flags": ["c:-fpermissive"], "status": "ok", "errors_left": 0} in pair["hatch"]["alone"]


def test_debian_1097438_ncompress_abort_compress_handler_under_c23(sid_root, tmp_path):
    # bookworm's ncompress 4.2.4.6-6 (compress42.c, before upstream's 5.0 renamed it
    # compress.c) in the sid root, gcc-14 -> gcc-15. Debian's fix for #1097438 (trixie's
    # 5.0-3, gcc-15.patch): "GCC 15 now defaults to the C23/C++23 standards, which exposed
    # an FTBFS due to the definition of abort_compress()"; it gives the handler its sig
    # argument and drops the (SIG_TYPE) casts of signal(SIGINT/SIGTERM/SIGHUP, ...).
    # SIG_TYPE is void (*)(), in C23 void (*)(void): no longer a signal handler's type
    pair = _upgrade(tmp_path / "n.db", "debian:ncompress/bookworm", "gcc-14", "gcc-15")
    assert (pair["old_status"], pair["new_status"]) == ("ok", "failed")
    errors = _errors(pair, "compress42.c", "passing argument 2 of 'signal' from incompatible "
                                           "pointer type")
    assert len(errors) == len(pair["new_errors"]) == 3
    lines = _source_lines("ncompress", "bookworm", "compress42.c")
    for e in errors:
        assert e["option"] == "-Wincompatible-pointer-types" and e["was"] == "nothing"
        assert "(SIG_TYPE)abort_compress" in lines[e["line"] - 1]
    assert {lines[e["line"] - 1].split("(")[1].split(",")[0] for e in errors} == \
        {"SIGINT", "SIGTERM", "SIGHUP"}
    assert pair["defaults"] == [{"language": "c", "old": "201710L", "new": "202311L", "pinned": []}]
    # the option's error a warning again is the smallest way back; C17 builds too
    assert pair["hatch"]["flags"] == ["-Wno-error=incompatible-pointer-types"]
    assert {"flags": ["c:-std=gnu17"], "status": "ok", "errors_left": 0} in pair["hatch"]["alone"]


def test_debian_1075398_procmail_autoconf_probes_already_fail_under_dpkgs_flags(zoo_root, tmp_path):
    # bookworm's procmail 3.22-27 in the trixie root, gcc-13 -> gcc-14. Debian's fix for
    # #1075398 (3.24+really3.22-3, debian/patches/33.patch "Fix build with gcc-14") turns
    # initmake's probe "main()" into "int main()" and gives src/autoconf's locking probe
    # "#include <stdlib.h>" and declarations of killchildren, fdlock, sfdlock and fdunlock.
    # Those probes are compiled without Debian's CFLAGS, so gcc-13 only warned; its build
    # stops later, where dpkg-buildflags' -Werror=implicit-function-declaration reaches
    # foldinfo.c ('ultoan', which 3.24+really3.22-2 mended): "already fails"
    pair = _upgrade(tmp_path / "p.db", "debian:procmail/bookworm", "gcc-13", "gcc-14")
    assert (pair["old_status"], pair["new_status"]) == ("failed", "failed")
    main = _only_error(pair)
    assert main["at"] == ("src/_autotst.c", 1, "-Wimplicit-int", "warning")
    assert main["message"] == "return type defaults to 'int'"
    assert "src/_autotst.c:1:1: error: return type defaults to 'int' [-Wimplicit-int]" \
        in pair["new_error"]
    # implicit int a warning again, the next probe stops at the functions the patch declares
    (wno,) = [t for t in pair["hatch"]["alone"] if t["flags"] == ["-Wno-error=implicit-int"]]
    assert wno["status"] == "failed" and wno["errors_left"] == 5
    assert "implicit declaration of function 'killchildren'" in wno["error"]
    # -fpermissive leaves none of the move's errors: it fails as gcc-13 does
    (permissive,) = [t for t in pair["hatch"]["alone"] if t["flags"] == ["c:-fpermissive"]]
    assert (permissive["status"], permissive["errors_left"]) == ("failed", 0)
    assert pair["hatch"]["status"] == "failed"


def test_debian_1075339_opendkim_res_state_typo_under_gcc_14(zoo_root, tmp_path):
    # bookworm's opendkim 2.11.0~beta2-8+deb12u1 in the trixie root, gcc-13 -> gcc-14: the
    # typo upstream's report of the GCC 14 failure names, "struct state *res;" in librbl's
    # rbl_res_close where "struct __res_state *" was meant, given to res_nclose. Its
    # configure's "checking for library containing getaddrinfo" is no reach for the network
    pair = _upgrade(tmp_path / "o.db", "debian:opendkim/bookworm", "gcc-13", "gcc-14")
    assert (pair["old_status"], pair["new_status"]) == ("ok", "failed")
    res = _only_error(pair)
    assert res["at"] == ("librbl/rbl.c", 336, "-Wincompatible-pointer-types", "warning")
    assert res["message"] == "passing argument 1 of '__res_nclose' from incompatible pointer type"
    lines = _source_lines("opendkim", "bookworm", "librbl/rbl.c")
    assert "res_nclose(res)" in lines[335] and "struct state *res;" in lines[331]
    assert "librbl/rbl.c:336:20: error:" in pair["new_error"]
    # the documentation built as Debian's build daemons build it (no nodoc: under it,
    # override_dh_installdocs moves a README never installed), gcc-13 builds, and so does
    # the smallest stop-gap, proven by its build
    assert pair["hatch"]["flags"] == ["-Wno-error=incompatible-pointer-types"]
    assert pair["hatch"]["status"] == "ok" and pair["hatch"]["errors_left"] == 0
    assert all(t["status"] == "ok" for t in pair["hatch"]["alone"])
