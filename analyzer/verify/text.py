"""``flags verify`` as text: the :class:`~analyzer.verify.report.VerifyReport` of a
verification laid out as lines (``--json`` prints the same report)."""
from __future__ import annotations

from analyzer.verify.report import VerifyReport


def render(report: VerifyReport, all_findings: bool = False, **_options) -> str:
    """``flags verify``: what was compared, the unexplained differences (all of them
    with ``all_findings``), the explained ones counted by reason."""
    asked = f" ({report.binary})" if report.binary else ""
    lines = [f"{report.compiler}{asked}: compared "
             + ", ".join(f"{k} {v}" for k, v in report.compared.items())]
    explained = [f for f in report.findings if f.reason]
    lines.append(f"{len(explained)} differences explained by rule, "
                 f"{len(report.unexplained)} unexplained")
    for f in report.findings if all_findings else report.unexplained:
        lines.append(f"  [{f.check}] {f.flag}: database {f.expected}, binary {f.actual}"
                     + (f" — {f.reason}" if f.reason else "  UNEXPLAINED"))
    if not all_findings and explained:
        by_reason: dict[str, int] = {}
        for f in explained:
            by_reason[f.reason] = by_reason.get(f.reason, 0) + 1
        for reason, n in sorted(by_reason.items(), key=lambda kv: -kv[1]):
            lines.append(f"  {n:4} × {reason}")
    return "\n".join(lines).rstrip("\n")
