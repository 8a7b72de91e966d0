"""Any Debian source package as a project (``debian:NAME[/SUITE]``,
:mod:`analyzer.projects.debian`), built by its own ``debian/rules`` in a copy-on-write
root of the trixie root with its build dependencies, on real packages:

* sl 5.02 (trixie; one C file, debhelper): gcc-13 and gcc-14 build it, its one compile
  captured through the wrapper although debian/rules calls plain ``gcc``, with the
  flags Debian's dpkg-buildflags gives (``-Werror=implicit-function-declaration``,
  which dpkg 1.22.6 turned on for every compiler);
* daemontools 0.76-8.1 (bookworm's; trixie has 1:0.76-14) moved from trixie's gcc-13
  to gcc-14: the errors the upstream report names (``execve`` in ``pathexec_run.c``
  from an incompatible pointer type) are new errors, "a warning before";
* the package's build sandbox: no network, an unprivileged uid, none of the caller's
  environment, its root read-only, the suite's root left as it was;
* bad input, one line each: a package the suite does not have, a host compiler, build
  dependencies the suite cannot meet ("cannot tell"), a step past its timeout (named);
* the other families take a package as they take a recipe: ``overhead run`` times sl's
  whole ``dpkg-buildpackage`` per level, ``advise`` builds it at ``all`` and advises.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from warnscope.errors import Unsatisfiable

from analyzer.projects import debian, process
from analyzer.projects.workdir import WorkDir
from analyzer.runtime import toolchain

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "debian"


def _warnscope(db: Path, *args: str) -> str:
    """The CLI in a child (a module's fixture outlives a test's capture): its stdout."""
    proc = subprocess.run([sys.executable, "-m", "analyzer", "--db", str(db), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=3600)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.fixture(scope="module")
def sl_builds(zoo_root, tmp_path_factory):
    out = _warnscope(tmp_path_factory.mktemp("sl") / "sl.db", "warnings", "run", "--project",
                     "debian:sl/trixie", "--compilers", "gcc-13,gcc-14", "--levels", "wall", "--quiet",
                     "--json")
    return {b["compiler"]: b for b in json.loads(out)["builds"]}


def test_a_debian_package_builds_with_every_compile_captured(sl_builds):
    for compiler in ("gcc-13", "gcc-14"):
        b = sl_builds[compiler]
        assert (b["project"], b["status"]) == ("debian:sl/trixie", "ok")
        assert [t["tu"] for t in b["tus"]] == ["sl.c"]          # debian/rules' `gcc ... sl.c`
        # Debian's build flags reached it through debian/rules (dpkg-buildflags)
        assert {"-Werror=implicit-function-declaration", "-Wformat",
                "-Werror=format-security"} <= set(b["project_options"])
        # -Wall (the level, added by the wrapper) found what the package's flags do not
        assert {d["option"] for d in b["diagnostics"]} == {"-Wunused-variable"}
        assert b["diagnostics"][0]["file"] == "sl.c"


@pytest.fixture(scope="module")
def daemontools(zoo_root, tmp_path_factory):
    out = _warnscope(tmp_path_factory.mktemp("daemontools") / "d.db", "upgrade", "--project",
                     "debian:daemontools/bookworm", "--from", "gcc-13", "--to", "gcc-14", "--same-root",
                     "--quiet", "--json")
    (pair,) = json.loads(out)["pairs"]
    return pair


def test_gcc_14_breaks_daemontools_as_its_bug_report_says(daemontools):
    pair = daemontools
    assert pair["new_status"] == "failed"
    # upstream's report: "pathexec_run.c: In function 'pathexec_run': error: passing
    # argument 2 of 'execve' from incompatible pointer type [-Wincompatible-pointer-types]"
    execve = [e for e in pair["new_errors"] if e["file"].endswith("/pathexec_run.c")
              and "argument 2 of 'execve'" in e["message"]]
    assert execve and all(e["option"] == "-Wincompatible-pointer-types" and e["was"] == "warning"
                          for e in execve), pair["new_errors"]
    assert "from incompatible pointer type" in execve[0]["message"]
    # and implicit int, new errors of GCC 14 that dpkg-buildflags does not turn on
    assert any(e["option"] == "-Wimplicit-int" for e in pair["new_errors"])
    # gcc-13 already fails in trixie: dpkg-buildflags makes implicit declarations errors
    # for every compiler since dpkg 1.22.6, so GCC 14's own change adds none of these
    assert pair["old_status"] == "failed"
    assert "implicit declaration of function 'setgroups'" in pair["old_error"]
    assert "[-Wimplicit-function-declaration]" in pair["old_error"]


def test_the_build_has_no_network_no_privilege_and_none_of_the_callers_environment(zoo_root, monkeypatch):
    monkeypatch.setenv("WARNSCOPE_TEST_SECRET", "leaked")
    src = debian.fetch("sl", "trixie")
    tc = toolchain.resolve_in_root("gcc-14", "trixie")
    status = zoo_root.path / "var/lib/dpkg/status"
    before = status.stat().st_mtime_ns
    with WorkDir("debian-test-") as work:
        root = debian.prepare_root(src, "trixie", work / "root", 900)
        with debian.package_sandbox(work, root) as box:
            env = debian.build_env(tc, box, 1)
            out = work / "out.log"
            script = ("id -u; env; getent hosts deb.debian.org || echo no-network; "
                      "touch /usr/x 2>/dev/null || echo read-only; "
                      "for n in gcc cc c++ x86_64-linux-gnu-gcc-14; do command -v $n; done; "
                      "dpkg -s debhelper | grep Status")
            t = process.run(script, box.box, env, out, timeout=120, box=box)
            text = out.read_text()
    assert t.exit == 0, text
    lines = text.splitlines()
    assert int(lines[0]) == box.uid and box.uid != 0
    assert "WARNSCOPE_TEST_SECRET" not in text and "DEB_BUILD_PROFILES=nocheck\n" in text
    assert "no-network" in lines and "read-only" in lines
    assert sum(l.startswith(f"{box.box}/bin/") for l in lines) == 4   # every name: the wrappers
    assert "Status: install ok installed" in text       # the build dependencies, in its own root
    assert status.stat().st_mtime_ns == before          # the suite's root untouched


def test_the_builds_of_a_move_share_one_installation_of_the_build_dependencies(zoo_root):
    """Within :func:`debian.shared_roots` (a rebuild's project, whose builds by two
    compilers of one suite need the same build dependencies) sl's root is prepared once:
    each build gets its own empty upper layer over the installed build dependencies,
    sees them installed, and leaves the shared layer as it was."""
    src = debian.fetch("sl", "trixie")
    with debian.shared_roots(), WorkDir("debian-test-") as work:
        roots = [debian.package_root(src, "trixie", work / f"root{i}", 900) for i in (1, 2)]
        assert roots[0].middle == roots[1].middle and len(roots[0].middle) == 1
        (shared,) = roots[0].middle
        assert (shared / "usr/bin/dh").exists()                  # debhelper, installed once
        status = shared / "var/lib/dpkg/status"
        before = status.stat().st_mtime_ns
        for root in roots:
            assert not any(root.upper.iterdir())                  # nothing installed twice
            with WorkDir("debian-test-box-") as box_work, debian.package_sandbox(box_work, root) as box:
                out = box_work / "out.log"
                t = process.run("dpkg -s debhelper | grep Status; touch /usr/x 2>/dev/null || echo read-only",
                                box.box, {"PATH": "/usr/bin:/bin"}, out, timeout=120, box=box)
                text = out.read_text()
            assert t.exit == 0 and "Status: install ok installed" in text and "read-only" in text, text
        assert status.stat().st_mtime_ns == before


def test_build_dependencies_install_as_root_of_an_unprivileged_host_range(zoo_root, tmp_path, monkeypatch):
    """The build dependencies' maintainer scripts run as root of a user namespace whose
    ids are a host range (:func:`debian.install_ids`): a planted package's postinst (a
    real .deb, made here with dpkg-deb, installed beside sl's build dependencies) is
    uid 0 inside, the host's mapped uid outside; every file the install wrote in the
    upper layer is owned by the range, none by host root; and the build over it, as the
    pool's uid with the root read-only, still sees what was installed."""
    base, count = debian.install_ids()
    assert base > 0 and count == 65536
    pkg = tmp_path / "probe"
    (pkg / "DEBIAN").mkdir(parents=True)
    (pkg / "DEBIAN" / "control").write_text(
        "Package: warnscope-probe\nVersion: 1\nArchitecture: all\nMaintainer: warnscope <nobody@invalid>\n"
        "Description: writes what its postinst is\n")
    postinst = pkg / "DEBIAN" / "postinst"
    postinst.write_text("#!/bin/sh\nset -e\nmkdir -p /var/lib/warnscope-probe\n"
                        "id -u > /var/lib/warnscope-probe/uid\n"
                        "cat /proc/self/uid_map > /var/lib/warnscope-probe/uid_map\n"
                        "touch /warnscope-probe-top 2>/dev/null && echo yes > /var/lib/warnscope-probe/top || true\n")
    postinst.chmod(0o755)
    archives = debian.roots.debs_dir("trixie", "apt")
    deb = archives / "warnscope-probe_1_all.deb"
    subprocess.run(["dpkg-deb", "--root-owner-group", "-b", str(pkg), str(deb)], check=True,
                   capture_output=True)
    monkeypatch.setattr(debian, "EXTRA_PACKAGES", (*debian.EXTRA_PACKAGES, f"/var/cache/apt/archives/{deb.name}"))
    src = debian.fetch("sl", "trixie")
    try:
        with WorkDir("debian-test-") as work:
            root = debian.prepare_root(src, "trixie", work / "root", 900)
            probe = root.upper / "var/lib/warnscope-probe"
            assert (probe / "uid").read_text() == "0\n"                  # root inside ...
            assert (probe / "uid").stat().st_uid == base                 # ... the range's first id outside
            assert (probe / "uid_map").read_text().split() == ["0", str(base), str(count)]
            assert (probe / "top").read_text() == "yes\n"                 # / is the namespace root's too
            owners = {os.lstat(os.path.join(d, n)).st_uid for d, dirs, files in os.walk(root.upper)
                      for n in dirs + files}
            assert owners and all(base <= u < base + count for u in owners), sorted(owners)[:5]
            # what dpkg's own scripts did: fakeroot's postinst made its alternative
            assert (root.upper / "etc/alternatives/fakeroot").is_symlink()
            assert (root.upper / "etc/alternatives/fakeroot").lstat().st_uid == base
            with debian.package_sandbox(work, root) as box:
                out = work / "out.log"
                t = process.run("id -u; dpkg -s warnscope-probe debhelper | grep Status; "
                                "touch /usr/x 2>/dev/null || echo read-only", box.box,
                                {"PATH": "/usr/bin:/bin"}, out, timeout=120, box=box)
                text = out.read_text()
            assert t.exit == 0, text
            assert text.splitlines()[0] == str(box.uid) and text.count("Status: install ok installed") == 2
            assert "read-only" in text
    finally:
        deb.unlink()


def test_one_package_by_one_compiler_is_one_stored_unit_of_work(zoo_root, tmp_path):
    from warnscope.database import connect
    from analyzer.warnings import runner, store
    db = tmp_path / "one.db"
    conn = connect(db)
    try:
        built = runner.package_build(conn, "sl", "trixie", "gcc-13")
        (stored,) = store.builds(conn, "debian:sl/trixie", ["gcc-13"], "default")
    finally:
        conn.close()
    assert (built.project, built.compiler, built.status) == ("debian:sl/trixie", "gcc-13", "ok")
    assert stored.status == "ok" and [t.tu for t in stored.tus] == ["sl.c"]


def test_a_package_the_suite_does_not_have_is_one_line(zoo_root, tmp_path, fails_on):
    line = fails_on(tmp_path / "w.db", "warnings", "run", "--project", "debian:warnscope-no-such-package/trixie",
                    "--compilers", "gcc-14", "--quiet")
    assert "Debian trixie has no source package warnscope-no-such-package" in line


def test_a_host_compiler_is_refused_before_anything_is_built(zoo_root, tmp_path, fails_on, require):
    require("gcc-12")
    line = fails_on(tmp_path / "w.db", "warnings", "run", "--project", "debian:sl/trixie",
                    "--compilers", "gcc-12", "--quiet")
    assert "builds in a Debian root of the compiler's suite, and gcc-12 is the host's" in line


def test_overhead_run_times_a_package_as_it_times_a_recipe(zoo_root, tmp_path, fails_on):
    """``overhead run`` on a Debian package: each cell is a whole ``dpkg-buildpackage`` in
    the package's own root (its build dependencies installed once, not timed), the
    level's flags added by the compiler wrapper and proven to reach sl's one compile;
    what it cannot time is one line, nothing written."""
    out = _warnscope(tmp_path / "o.db", "overhead", "run", "--project", "debian:sl/trixie",
                     "--compilers", "gcc-14", "--levels", "off,wall", "--runs", "1", "--warmups", "0",
                     "--no-accounting", "--quiet", "--json")
    cells = {c["level"]: c for c in json.loads(out)["cells"]}
    assert set(cells) == {"off", "wall"}
    for level, cell in cells.items():
        assert (cell["project"], cell["compiler"], cell["status"], cell["inject"]) == (
            "debian:sl/trixie", "gcc-14", "ok", "wrapper"), cell
        assert cell["runs"] == 1 and cell["compilers"] >= 1           # sl.c's compile reached the wrapper
        assert cell["cpu_s"]["median"] > cell["compiler_cpu_s"]["median"] > 0   # dpkg-buildpackage's own too
    # the log's warning lines: dpkg's and debhelper's at both levels, -Wall's on top
    assert cells["wall"]["warnings"] > cells["off"]["warnings"]
    for args, said in ((["--inject", "build"], "a Debian package's flags are Debian's"),
                       (["--mode", "tu"], "a Debian package is timed as a whole build"),
                       (["--compilers", "gcc-12"], "gcc-12 is the host's")):
        line = fails_on(tmp_path / "refused.db", "overhead", "run", "--project", "debian:sl/trixie",
                        "--compilers", "gcc-14", "--levels", "off,wall", "--quiet", *args)
        assert said in line, line


def test_advise_takes_a_package_as_it_takes_a_recipe(zoo_root, tmp_path):
    """``advise`` on a Debian package builds it at ``all`` through the warnings build
    (the package's root, every compile through the wrapper) and advises from that build:
    -Wall's -Wunused-variable fires in sl.c, and the advice says so."""
    db = tmp_path / "a.db"
    _warnscope(db, "flags", "ingest", "gcc-14", "--from-binary", "--no-plugin")
    advice = json.loads(_warnscope(db, "advise", "--project", "debian:sl/trixie", "--compilers", "gcc-14",
                                   "--quiet", "--json"))
    assert advice["project"] == "debian:sl/trixie"
    (build,) = advice["builds"]
    assert (build["compiler"], build["status"], build["tus"], build["ran_now"]) == ("gcc-14", "ok", 1, True)
    (unused,) = [r for r in advice["rows"] if r["flag"] == "-Wunused-variable"]
    (gcc14,) = unused["compilers"]
    assert gcc14["prints"]["own"] >= 1, unused                   # sl.c's unused variable
    again = json.loads(_warnscope(db, "advise", "--project", "debian:sl/trixie", "--compilers", "gcc-14",
                                  "--quiet", "--json"))
    assert again["rows"] == advice["rows"]           # answered from the stored build of the same .dsc
    assert [b["ran_now"] for b in again["builds"]] == [False]


def test_unsatisfiable_build_dependencies_cannot_tell(zoo_root, tmp_path):
    dsc = FIXTURES / "unsatisfiable_1.0.dsc"
    src = debian.SourcePackage("unsatisfiable", "1.0", "trixie", dsc, tmp_path)
    with pytest.raises(Unsatisfiable, match=r"^debian:unsatisfiable/trixie: its build dependencies "
                       r"cannot be installed in trixie: .*libwarnscope-no-such-package-dev"):
        debian.prepare_root(src, "trixie", tmp_path / "root", 300)


def test_a_step_past_its_timeout_is_named(zoo_root, tmp_path, cli_at):
    code, out, err = cli_at(tmp_path / "w.db")("warnings", "run", "--project", "debian:sl/trixie",
                                               "--compilers", "gcc-14", "--levels", "default",
                                               "--timeout", "2", "--quiet")
    assert code != 0
    assert re.search(r"debian:sl/trixie: (resolving and downloading|installing) the build "
                     r"dependencies timed out after 2 s", err), err
