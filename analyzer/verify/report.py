"""What a verification against a compiler binary finds.

Every check compares the database with what the binary says. A difference that a
known rule explains (a lossy corner of ``-Q --help=warnings``, a flag decided in
code) carries its reason; one without a reason is a real disagreement and makes
``warnscope flags verify`` exit non-zero.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Finding:
    """One difference between the database and the binary."""

    check: str            # 'names-c', 'default-c++', 'wall-c', 'probe', 'tree' …
    flag: str
    expected: str         # what the database predicts
    actual: str           # what the binary says
    reason: str | None    # the rule that explains it; None = unexplained


@dataclass
class VerifyReport:
    compiler: str
    #: check name -> number of flags compared by it
    compared: dict[str, int] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    #: the binary asked (``/usr/bin/aarch64-linux-gnu-gcc-12``), which the text names;
    #: '' where none was (``--json`` keeps its contract: the text says it)
    binary: str = ""

    @property
    def unexplained(self) -> list[Finding]:
        return [f for f in self.findings if f.reason is None]

    @property
    def ok(self) -> bool:
        return not self.unexplained

    def result(self) -> VerifyResult:
        """``flags verify --json``: the report with whether it is clean."""
        return VerifyResult(self.compiler, self.ok, self.compared, self.findings)


@dataclass
class VerifyResult:
    """``flags verify --json``: what was compared, every finding, and ``ok`` (no
    finding without a reason: the command exits 0)."""

    compiler: str
    ok: bool
    compared: dict[str, int]
    findings: list[Finding]


def result_of(report: VerifyReport) -> VerifyResult:
    """What ``flags verify --json`` prints of a report (:meth:`VerifyReport.result`)."""
    return report.result()
