"""The rebuild summary as text: the lines of the list not taken first (each one line),
then the counts by outcome with their projects, the causes ranked, and one line per
project (its outcome and why). Each project's full report is ``upgrade``'s
(:mod:`analyzer.warnings.upgrade_text`), written with ``--out``."""
from __future__ import annotations

from warnscope.text import one_line

from analyzer.warnings.rebuild import Summary

#: projects named after a count (all are in --json)
SHOWN_PROJECTS = 12


def render(s: Summary, **_options) -> str:
    lines: list[str] = [f"rebuild: {s.old} -> {s.new}, {len(s.projects)} project(s)"]
    for r in s.refused:
        lines.append(f"  not taken: {r.where}: {r.text}: {r.why}")
    lines.append("  by outcome:")
    for c in s.outcomes:
        lines.append(f"    {c.name:17} {len(c.projects):5}" + _named(c.projects))
    if s.causes:
        lines.append("  by cause (most projects first):")
        for c in s.causes:
            lines.append(f"    {len(c.projects):5}  {c.name}" + _named(c.projects))
    lines.append("  projects:")
    for p in s.projects:
        source = "" if p.report is None else (" (built now)" if p.built else " (stored)")
        lines.append(f"    {p.project}: {p.outcome}{source}: {p.why}")
        for f in p.expected:
            lines.append(f"      expected on Linux, not counted: {f.system}: {f.name}: {f.old} -> {f.new}")
    lines += [f"  note: {n}" for n in s.notes]
    return "\n".join(one_line(x) for x in lines) + "\n"


def _named(projects: list[str]) -> str:
    if not projects:
        return ""
    more = len(projects) - SHOWN_PROJECTS
    return ": " + ", ".join(projects[:SHOWN_PROJECTS]) + (f" and {more} more" if more > 0 else "")
