"""``ub why`` as text: one renderer over :class:`~analyzer.ub.results.Cause`, one over
:class:`~analyzer.ub.why.why_table.WhyTable` (``--compilers``)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from analyzer.ub.results import Cause, WhyStatus, pass_place

if TYPE_CHECKING:
    from analyzer.ub.why.why_table import WhyTable


def render(c: Cause) -> str:
    cell = " ".join(p for p in (c.compiler, c.level, c.cell_flags) if p)
    lines = [f"{c.case}  {cell}  ({c.compiler_version})"]
    if c.baseline is not None:
        lines.append(f"  -O0: {c.baseline.said}")
    if c.observed is not None:
        lines.append(f"  {c.level}: {c.observed.said}")
    if c.status is WhyStatus.UNSTABLE:
        lines.append(f"  unstable: {c.reason} (not explained)")
    elif c.status is WhyStatus.SAME:
        lines.append(f"  nothing to explain: {c.reason}")
    elif c.status is WhyStatus.UNKNOWN:
        lines.append(f"  cause unknown: {c.reason}")
    else:
        lines.append(f"  cause ({_method(c)}):")
        if c.flags:
            lines.append(f"    flags: {' '.join(c.flags)} restore -O0's behaviour")
        for p in c.passes:
            if p.switch:
                lines.append(f"    pass {p.name}: {p.switch} restores -O0's behaviour")
            else:
                lines.append(f"    pass {p.index} {p.name}{pass_place(p)}: {p.before} -> {p.after}"
                             f"   (-mllvm -opt-bisect-limit={p.index - 1}: {p.before})")
    if c.guards:
        lines.append("  UB guards:")
        width = max(len(g.flag) for g in c.guards)
        for g in c.guards:
            word = "refused" if g.restores is None else ("restores" if g.restores else "no")
            lines.append(f"    {g.flag:<{width}}  {word:<8}  {g.said}")
    for note in c.notes:
        lines.append(f"  note: {note}")
    lines.append(f"  {c.probes} compiles and runs (bound {c.bound})")
    return "\n".join(lines) + "\n"


def _method(c: Cause) -> str:
    if c.method == "opt-bisect":
        return f"opt-bisect over {c.passes_total} passes"
    if c.method == "flags":
        return f"delta debugging over the {c.flags_total} flags {c.level} adds"
    if c.method == "flags+passes":
        return (f"no flag set of the {c.flags_total} flags {c.level} adds; delta debugging "
                f"over {c.passes_total} passes")
    return c.method


def render_table(t: "WhyTable") -> str:
    """``ub why --compilers``: a row per compiler (a Markdown table, legible as text),
    its last column saying where the cause changes from the version before."""
    head = ["compiler", "version", "-O0", t.level, "cause", "UB guards restoring -O0",
            "probes (bound)", "against the version before"]
    rows = [[r.compiler, r.cause.compiler_version,
             r.cause.baseline.said if r.cause.baseline else "",
             r.cause.observed.said if r.cause.observed else "", r.what, r.guards,
             f"{r.cause.probes} ({r.cause.bound})", r.change] for r in t.rows]
    lines = [f"{t.case} at {t.level}: the cause per compiler version", ""]
    lines.append(_row(head))
    lines.append(_row(["---"] * len(head)))
    lines += [_row(r) for r in rows]
    return "\n".join(lines) + "\n"


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"
