"""``ub explain`` as text: one renderer over :class:`~analyzer.ub.results.Explanation`.

Per configuration a head line, the outcome and the labels ('gcc-12 -O2: hang — loop in
main at loop.c:14 kept, its exit test removed'), then the code of each function with its
source line where the line changes (as objdump -l shows it). The aligned view marks each
row: ' ' the same code, '!' different, '<' only on the left, '>' only on the right.
"""
from __future__ import annotations

from analyzer.ub.disasm import Function
from analyzer.ub.results import CellCode, CodeDiff, Explanation, corpus_name
from analyzer.ub.detectors.scores import render_versions

#: Width of the left column of the aligned view.
LEFT = 44


def render(ex: Explanation, *, code: bool = True) -> str:
    """The text of an explanation; ``code`` False leaves the instructions out."""
    lines = [f"{ex.case}  ({corpus_name(ex.corpus)})", ""]
    for c in ex.configurations:
        lines.append(head(c))
        if c.why:
            lines.append(f"  why: {c.why}")
        if c.functions is None:
            lines.append(f"  code unavailable: {c.code_note}")
        elif code:
            for f in c.functions:
                lines += _function(f)
        lines.append("")
    if ex.diff is not None:
        lines += _diff(ex.diff)
    if ex.detectors is not None:
        lines += [*render_versions(ex.detectors), ""]
    return "\n".join(lines).rstrip() + "\n"


def head(c: CellCode) -> str:
    """'gcc-12 -O2: hang — loop in main at loop.c:14 kept, ...'."""
    name = " ".join(p for p in (c.compiler, c.level, c.flags) if p)
    said = c.said
    if c.labels:
        said += " — " + "; ".join(l.text for l in c.labels)
    return f"{name}: {said}"


def _function(f: Function) -> list[str]:
    if not f.insns:
        return [f"  {f.name}: empty, runs into {f.next or 'what follows'}"]
    out = [f"  {f.name}:  ({f.size} bytes)"]
    last = None
    for i in f.insns:
        where = i.line if i.line != last else ""
        last = i.line
        out.append(f"    {where:<22} {i.offset:>5x}  {i.text}")
    if f.cut:
        out.append(f"    ... cut: {f.cut} more instructions")
    return out


def _diff(d: CodeDiff) -> list[str]:
    left = " ".join(p for p in d.left if p)
    right = " ".join(p for p in d.right if p)
    out = [f"{left}  vs  {right}   (' ' same, '!' differs, '<' left only, '>' right only)"]
    for f in d.functions:
        notes = "".join(f"  [{side}: {n}]" for side, n in (("left", f.left_note),
                                                         ("right", f.right_note)) if n)
        out.append(f"  {f.name}{notes}")
        for r in f.rows:
            mark = " " if r.same else "<" if r.right is None else ">" if r.left is None else "!"
            l = f"{r.left_line:<14} {r.left}" if r.left is not None else ""
            rt = f"{r.right_line:<14} {r.right}" if r.right is not None else ""
            out.append(f"  {mark} {l[:LEFT]:<{LEFT}} | {rt}")
    return out
