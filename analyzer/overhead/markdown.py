"""The overhead report as Markdown (``overhead report --format markdown``): the text
report's table and sections (:mod:`analyzer.overhead.text`) as Markdown tables and a list."""
from __future__ import annotations

from analyzer.overhead.results import OverheadReport
from analyzer.overhead.text import (HEADERS, TU_NOTE, article_table, cells, label, machine, modes_table, title,
                                    two_modes_of)


def render(rep: OverheadReport) -> str:
    """``overhead report --format markdown``: the text report's table and sections as
    Markdown tables and a list."""
    info, table, tus = rep.study, rep.rows, rep.top_tus
    where, both, two_modes = rep.added, rep.modes, two_modes_of(table)
    body = [cells(r) for r in table]
    lines = [f"**{title(info)}**", "", f"Machine: {machine(info)}", "", *([TU_NOTE, ""] if info.mode == "tu" else []),
             "| " + " | ".join(h or "note" for h in HEADERS) + " |",
             "|" + "---|" * len(HEADERS)]
    lines += ["| " + " | ".join(c) + " |" for c in body]
    article = article_table(table)
    if article:
        head, *arows = article
        lines += ["", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(c) + " |" for c in arows]
    if both:
        head, *mrows = modes_table(both)
        lines += ["", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(c) + " |" for c in mrows]
    if where:
        lines += [""] + [f"- **{label(a, two_modes)}**: {a.finding}" for a in where]
    if tus:
        lines += ["", "| compiler | level | TU | off CPU s | CPU s | added s | ratio | warnings |",
                  "|---|---|---|---|---|---|---|---|"]
        lines += [f"| {t.compiler} | {t.level} | {t.tu} | {t.off_cpu_s:.3f} | {t.cpu_s:.3f} "
                  f"| {t.added_s:+.3f} | {t.ratio} | {t.warnings} |" for t in tus]
    return "\n".join(lines)
