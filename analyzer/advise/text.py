"""The advice as text: the same objects ``--json`` prints (:mod:`analyzer.advise.results`).

Sections in the rules' order; each row with its reasons. Rows already on and rows
without evidence are counted, not listed (``--limit`` rows per section; JSON has all).
"""
from __future__ import annotations

from analyzer.advise.results import Advice, CostStatus, Row, UbSource, Verdict
from analyzer.projects.cell import BuildStatus

TITLES = {
    Verdict.BREAKS_BUILD: "Breaks the build (a build at all failed on it: not turned on)",
    Verdict.TURN_ON: "Turn on now (silent here, catches UB: a free guard)",
    Verdict.FIX_FIRST: "Fix first (fires here and catches UB; by UB cases per diagnostic)",
    Verdict.COSTLY: "Costly (would be turned on: its measured cost)",
    Verdict.NOT_PORTABLE: "Not portable (would be turned on: not every compiler of the list knows it)",
    Verdict.REVIEW: "Review (fires a few times, catches no UB)",
    Verdict.STYLE: "Style, your call (fires often for what it catches)",
}
#: sections counted, not listed
COUNTED = (Verdict.NO_EVIDENCE, Verdict.ALREADY_ON)


def render_advice(advice: Advice, limit: int = 10, explain_flag: str | None = None, **_options) -> str:
    """``advise``'s text: the rows (``limit`` per verdict), or one row's evidence
    (``explain_flag``)."""
    return explain(advice, explain_flag) if explain_flag is not None else render(advice, limit)


def render(advice: Advice, limit: int = 10) -> str:
    out = [f"{advice.project} ({advice.origin}): {', '.join(advice.languages)}; "
           f"{', '.join(advice.compilers)}; base {advice.base}"]
    for b in advice.builds:
        state = "ok" if b.status == BuildStatus.OK else f"FAILED: {b.error}"
        out.append(f"  {b.compiler} ({b.compiler_version}) at all {b.opt}: {b.diagnostics} diagnostics in "
                   f"{b.tus} compiles, {state}" + (" (built now)" if b.ran_now else ""))
    if advice.ub.corpus:
        source = "warnings scored by ub detectors" if advice.ub.source is UbSource.DETECTORS else "warning checks"
        out.append(f"  UB corpus {advice.ub.shown}: {advice.ub.cases} cases with UB ({advice.ub.twins} with a "
                   f"fixed twin), {advice.ub.controls} control programs; {source} of "
                   f"{', '.join(advice.ub.compilers) or 'none of the list'}")
    for note in advice.notes:
        out.append(f"  note: {note}")
    for verdict, title in TITLES.items():
        rows = advice.by_verdict(verdict)
        if not rows:
            continue
        out += ["", f"{title}: {len(rows)}"]
        for row in rows[:limit]:
            out += _row(row)
        if len(rows) > limit:
            out.append(f"  ... {len(rows) - limit} more (--limit, or --json)")
    counted = [f"{len(advice.by_verdict(v))} {v.value}" for v in COUNTED]
    out += ["", f"Not listed: {', '.join(counted)} (--json lists every row; --explain FLAG shows one)"]
    out += ["", f"The set to build with (base {advice.base}, turn-on rows, --add):"]
    for t in advice.targets:
        for lang, flags in t.flags.items():
            out.append(f"  {t.compiler} {lang}: {' '.join(flags)}")
    return "\n".join(out)


def _row(row: Row) -> list[str]:
    known = [p.compiler for p in row.compilers if p.known]
    since = ", ".join(f"{s.family} since {s.first}" + (f" (gone after {s.last})" if s.last else "")
                      for s in row.known_since)
    head = f"  {row.flag}" + (f"  [{row.group}]" if row.group else "") + f"  known by {_span(known, row)}"
    if since:
        head += f"; {since}"
    lines = [head]
    lines += [f"      {reason}" for reason in row.reasons]
    lines += [f"      trouble: {t}" for t in row.trouble]
    for p in row.compilers:
        lines += [f"      trouble: {t}" for t in p.trouble]
    return lines


def _span(known: list[str], row: Row) -> str:
    if len(known) == len(row.compilers):
        return "all"
    return ", ".join(known) or "none"


def explain(advice: Advice, flag: str) -> str:
    """One row with all its evidence, per compiler."""
    row = advice.row(flag)
    if row is None:
        return f"{flag}: not a candidate of this advice (no compiler of the list knows it for " \
               f"{', '.join(advice.languages)})"
    out = [f"{row.flag}: {row.verdict.value}" + (f" (rank {row.rank:.3g})" if row.rank else "")
           + (f", under {row.group}" if row.group else "")]
    since = ", ".join(f"{s.family} since {s.first}" + (f" (gone after {s.last})" if s.last else "")
                      for s in row.known_since)
    if since:
        out.append(f"  known in the ingested versions: {since}")
    out += [f"  {r}" for r in row.reasons]
    out += [f"  trouble: {t}" for t in row.trouble]
    for p in row.compilers:
        if not p.known:
            out.append(f"  {p.compiler}: does not know it")
            continue
        facts = [f"as {p.resolves_to}" if p.resolves_to != row.flag else "",
                 "no-op" if p.noop else "",
                 f"on at {p.on.value}" if p.on else "off by default, at -Wall and at -Wextra"]
        out.append(f"  {p.compiler}: " + ", ".join(f for f in facts if f))
        if p.prints is not None:
            files = ", ".join(f"{f.file} {f.diagnostics}" for f in p.prints.top_files)
            out.append(f"    prints {p.prints.own} in the project's files ({p.prints.own_printed} as printed), "
                       f"{p.prints.outside} outside" + (f"; {files}" if files else "")
                       + (f"; as {', '.join(p.prints.options)}" if p.prints.options else ""))
        if p.ub is not None:
            if not p.ub.tried:
                out.append("    UB corpus: not on in its checks")
            else:
                parts = [(len(p.ub.cases), "UB cases", p.ub.cases),
                         (len(p.ub.alike), "UB cases alike with their fixed twin", p.ub.alike),
                         (len(p.ub.twins), "fixed twins", p.ub.twins),
                         (len(p.ub.controls), "controls", p.ub.controls)]
                out.append("    UB corpus: fires on " + ", ".join(
                    f"{n} {what}" + (f" ({', '.join(ids)})" if ids else "") for n, what, ids in parts))
        c = p.cost
        if c.status is CostStatus.MEASURED:
            out.append(f"    cost: {c.alone:.3g} {c.unit} alone"
                       + (f", {c.share_of_off:.1%} of the off compile" if c.share_of_off is not None else "")
                       + f" (attribution {c.attribution})")
        elif c.status is CostStatus.NONE:
            out.append("    cost: not measured" + (f" ({c.command})" if c.command else ""))
        else:
            out.append(f"    cost: {c.status.value} (attribution {c.attribution})")
        out += [f"    trouble: {t}" for t in p.trouble]
    return "\n".join(out)
