"""Is the database entry from the same Debian release of the compiler as the binary?

An entry records the package it was read from (``libclang-13-dev 1:13.0.1-11+b2``,
taken from bookworm); the binary verified may be another suite's build (the bullseye
root's ``clang-13 1:13.0.1-6~deb11u1``). ``gcc-N-source`` and ``gcc-N``, and
``libclang-N-dev`` and ``clang-N``, are built from one Debian source package, so
equal versions mean the same sources. The check says which is which:

- same Debian version: nothing to say;
- same upstream release, other Debian revision: explained (Debian revisions of one
  release repackage the same upstream option files and diagnostic tables; the other
  checks still compare them exactly and would show a patch that changed them);
- another upstream release: unexplained, since every other difference may be the
  release's, with the ``--suite`` that ingests the binary's own release.
"""
from __future__ import annotations

import os

from warnscope import tool
from warnscope.errors import NotInstalled
from flagdb.model import CompilerData
from analyzer.runtime.toolchain import Toolchain
from analyzer.verify.report import Finding, VerifyReport


def upstream(debian_version: str) -> str:
    """``13.0.1`` of ``1:13.0.1-6~deb11u1``: no epoch, no Debian revision."""
    no_epoch = debian_version.split(":", 1)[-1]
    return no_epoch.rpartition("-")[0] or no_epoch


def binary_package(tc: Toolchain) -> tuple[str | None, str]:
    """(Debian version of the binary's package, where it is installed). The package is
    the one that owns the driver (``gcc-12-aarch64-linux-gnu`` for
    ``aarch64-linux-gnu-gcc-12``; a binary no package owns has none), else the id's."""
    if tc.root is not None:
        return tc.package, f"the {tc.suite} root"
    try:
        package = owner(tc.c_driver) or (None if "@" in tc.name else tc.name)
        if package is None:
            return None, "the host"
        proc = tool.run(["dpkg-query", "-W", "-f", "${Version}", package], timeout=30,
                        check=False)
    except NotInstalled:
        return None, "the host (no dpkg-query)"
    return (proc.stdout.strip() or None) if proc.returncode == 0 else None, "the host"


def owner(path: str) -> str | None:
    """The Debian package that installed the file ``path`` (or what it links to), or None."""
    for candidate in dict.fromkeys((os.path.realpath(path), path)):
        proc = tool.run(["dpkg-query", "-S", candidate], timeout=30, check=False)
        for line in proc.stdout.splitlines() if proc.returncode == 0 else []:
            package, sep, where = line.partition(": ")
            if sep and where.strip() == candidate and not line.startswith("diversion"):
                return package.split(":")[0].split(",")[0].strip() or None
    return None


def check_package(report: VerifyReport, data: CompilerData, tc: Toolchain) -> None:
    """Compare the entry's Debian version with the binary's (see the module)."""
    if data.debian_version is None:
        return  # not from a Debian package: nothing to compare with
    theirs, where = binary_package(tc)
    ours = f"{data.package} {data.debian_version}" + (f" ({data.suite})" if data.suite else "")
    if theirs is None:
        report.findings.append(Finding(
            "package", data.compiler, ours, f"no Debian package for {tc.name} in {where}",
            "the binary is not from a Debian package: its release cannot be compared"))
        return
    report.compared["package"] = 1
    if theirs == data.debian_version:
        return
    actual = f"{tc.name} {theirs} in {where}"
    if tc.target:
        actual = f"{tc.name} ({os.path.basename(tc.c_driver)}) {theirs} in {where}"
    reason = None
    if upstream(theirs) == upstream(data.debian_version):
        reason = (f"another Debian revision of upstream {upstream(theirs)}: the same option "
                  "files and diagnostic tables, which the other checks compare exactly")
    elif tc.suite:
        actual += (f" (another release: flags ingest {data.compiler} --suite {tc.suite} "
                   "--force takes the binary's own)")
    report.findings.append(Finding("package", data.compiler, ours, actual, reason))
