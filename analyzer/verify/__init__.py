"""Verification of a database entry against its compiler binary, one oracle per module:
``gcc_q`` (``gcc -Q --help=warnings``), ``plugin`` (the warnscope GCC plugin), ``clang``
(diagtool, ``--print-diagnostic-options``, an acceptance probe), and for both ``package``
(is the entry from the binary's own Debian release?). The findings are the
plain data of :mod:`analyzer.verify.report`.

Every check compares the database with what the binary says. A difference that a
known rule explains (a lossy corner of ``-Q --help=warnings``, a flag decided in
code) carries its reason; one without a reason is a real disagreement and makes
``warnscope flags verify`` exit non-zero.
"""
from __future__ import annotations

import re

from warnscope.errors import NotInstalled
from warnscope.profiles import profile
from analyzer.verify.report import VerifyReport


def run(data) -> VerifyReport:
    """Verify one compiler's entry with every oracle available for its family.

    GCC: ``-Q --help=warnings`` always, plus the warnscope GCC plugin's exact view
    where the plugin is built (a host GCC); an entry read from the binary's listings
    is compared with them again (:mod:`analyzer.verify.listing`). clang: diagtool, ``--print-diagnostic-options`` and
    the acceptance probe.
    """
    from analyzer.verify.package import check_package
    from flagdb import names

    # every oracle runs the compiler, clang's probe with -W<group> for every stored group:
    # a name the ingest would have refused (the database is someone else's) is one error
    names.require_stored(data.compiler, names.data_names(data))
    if profile(data.family).gcc:
        from analyzer.verify.gcc_q import binary_for, verify_gcc
        from analyzer.verify.listing import is_listing_entry, verify_gcc_listing

        tc = binary_for(data)
        if is_listing_entry(data):
            # read from the binary's listings: compared with them again (the plugin's
            # exact view would report every edge -Q cannot show)
            report = verify_gcc_listing(data, tc)
            report.binary = tc.c_driver
            return report
        report = verify_gcc(data)
        report.binary = tc.c_driver
        check_package(report, data, tc)
        from analyzer.gccplugin.binary import plugin_available
        from analyzer.verify.plugin import verify_with_plugin

        # the plugin is built for a host GCC named gcc-N (not a cross or an old one)
        if re.fullmatch(r"gcc-[0-9]+", data.compiler) and plugin_available(data.compiler):
            counts: dict[str, int] = {}
            findings = verify_with_plugin(data, counts)
            # One total: the defaults of every option with a state, and the members of
            # every closure, both languages.
            report.compared["plugin"] = sum(counts.values())
            report.findings.extend(findings)
        return report
    from analyzer.runtime.toolchain import resolve
    from analyzer.verify.clang import verify_clang

    report = verify_clang(data)
    try:
        tc = resolve(data.compiler)
    except NotInstalled:
        return report  # no binary: the tools' checks said so already
    report.binary = tc.c_driver
    check_package(report, data, tc)
    return report
