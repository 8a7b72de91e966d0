"""Verification of a database entry against its compiler binary, one oracle per module:
``gcc_q`` (``gcc -Q --help=warnings``), ``plugin`` (the warnscope GCC plugin), ``clang``
(diagtool, ``--print-diagnostic-options``, an acceptance probe). The findings are the
plain data of :mod:`analyzer.verify.report`.

Every check compares the database with what the binary says. A difference that a
known rule explains (a lossy corner of ``-Q --help=warnings``, a flag decided in
code) carries its reason; one without a reason is a real disagreement and makes
``warnscope flags verify`` exit non-zero.
"""
from __future__ import annotations

from analyzer.verify.report import Finding, VerifyReport


def run(data) -> VerifyReport:
    """Verify one compiler's entry with every oracle available for its family.

    GCC: ``-Q --help=warnings`` always, plus the warnscope GCC plugin's exact view
    where the plugin is built. clang: diagtool, ``--print-diagnostic-options`` and
    the acceptance probe.
    """
    if data.family == "gcc":
        from analyzer.verify.gcc_q import verify_gcc

        report = verify_gcc(data)
        from analyzer.gccplugin.binary import plugin_available
        from analyzer.verify.plugin import verify_with_plugin

        if plugin_available(data.compiler):
            counts: dict[str, int] = {}
            findings = verify_with_plugin(data, counts)
            # One total: the defaults of every option with a state, and the members of
            # every closure, both languages.
            report.compared["plugin"] = sum(counts.values())
            report.findings.extend(findings)
        return report
    from analyzer.verify.clang import verify_clang

    return verify_clang(data)
