"""Text for the warnings family's results: one renderer per result type, over the same
dataclasses ``--json`` prints (nothing here is parsed back); and ``flags show`` and
``flags history`` with where the flag fired in the stored builds, the flag family's
text (:mod:`flagdb.text`) followed by this family's section."""
from __future__ import annotations

import shlex

from flagdb import text as flag_text
from flagdb.results import HistoryEntry, ShowResult

from analyzer.projects.cell import BuildStatus
from analyzer.warnings.results import Build, Diff, Fired, Run, Show, Top, WarningsReport


def _opt(option: str | None) -> str:
    return option or "(no option)"


def _where(file: str | None, line: int | None, column: int | None = None) -> str:
    return ":".join(str(x) for x in (file, line, column) if x is not None) or "(no location)"


def render_run(run: Run) -> str:
    lines = []
    for b in run.builds:
        shared = sum(1 for d in b.diagnostics if len({tu.split(" -> ")[0] for tu in d.tus}) > 1)
        unread = sum(1 for t in b.tus if t.problem)
        line = (f"{b.project} {b.compiler} {b.level}: {b.status}, {len(b.diagnostics)} diagnostics "
                f"({shared} of them printed by several sources: headers) from {len(b.tus)} compiles, format {b.format}")
        if unread:
            line += f", {unread} compiles unread"
        lines.append(line)
        if b.error:
            lines.append(f"  {b.error}")
        if b.passed_env:
            lines.append(f"  passed from your environment (--env): {', '.join(b.passed_env)}")
        lines += [f"  unread: {t.tu}: {t.problem}" for t in b.tus if t.problem]
    return "\n".join(lines)


def render_report(r: WarningsReport, limit: int = 15) -> str:
    lines = [f"{r.project} ({r.origin})"]
    for b in r.builds:
        lines.append("")
        source = f" (answered from its {b.derived_from} build)" if b.derived_from else ""
        lines.append(f"{b.compiler} at {b.level}{source} {b.opt}: {b.diagnostics} diagnostics "
                     f"({b.printed} as printed in the build's log) in {b.tus} compiles, "
                     f"{len(b.by_option)} options" + ("" if b.status == BuildStatus.OK else f"  FAILED: {b.error}"))
        width = max([len(_opt(c.option)) for c in b.by_option[:limit]] + [6])
        for c in b.by_option[:limit]:
            note = "" if c.known is not False else "  (not in the flag database)"
            lines.append(f"  {_opt(c.option):{width}}  {c.count:6}  in {len(c.files):3} files  "
                         f"({c.printed} printed){note}")
        if len(b.by_option) > limit:
            rest = b.by_option[limit:]
            lines.append(f"  ... {len(rest)} more options, {sum(c.count for c in rest)} diagnostics")
        unknown = [c.option for c in b.by_option if c.known is False]
        if unknown:
            lines.append(f"  not in the flag database: {', '.join(map(_opt, unknown))}")
        if b.silent is None:
            lines.append(f"  silent options: unknown ({b.compiler} is not in the flag database: "
                         f"warnscope flags ingest {b.compiler})")
        else:
            lines.append(f"  {len(b.silent)} options of the level never fired")
        if b.flag_data:
            lines.append(f"  flag data: {b.flag_data}'s ({b.compiler} is not in the flag database: "
                         f"warnscope flags ingest {b.compiler} gives its own)")
        for t in b.unread:
            lines.append(f"  unread: {t.tu}: {t.problem}")
        if b.uncertain:
            lines.append(f"  not exact: {sum(u.count for u in b.uncertain)} more diagnostics "
                         f"may or may not be printed at {b.level}:")
            lines += [f"    {_opt(u.option)}  {u.count}  ({u.why})" for u in b.uncertain[:limit]]
            if len(b.uncertain) > limit:
                lines.append(f"    ... {len(b.uncertain) - limit} more options")
        elif b.derived_from:
            lines.append(f"  exact: the flag database places every diagnostic of the {b.derived_from} build")
    return "\n".join(lines)


def render_diff(d: Diff, limit: int = 10) -> str:
    lines = [f"{d.project} at {d.level}: {d.old} -> {d.new}: {d.added} added, {d.removed} removed, "
             f"{d.changed} reworded, {d.unchanged} unchanged"]
    for o in d.by_option:
        lines.append(f"{_opt(o.option)}: +{o.added} -{o.removed} ~{o.changed}")
        for e in o.entries[:limit]:
            mark = {"added": "+", "removed": "-", "changed": "~"}[e.change]
            lines.append(f"  {mark} {_where(e.file, e.line)}: {e.message}")
            if e.old_message is not None:
                lines.append(f"      was: {e.old_message}")
        if len(o.entries) > limit:
            lines.append(f"  ... {len(o.entries) - limit} more")
    return "\n".join(lines)


def render_top(t: Top) -> str:
    lines = [f"noisiest options at {t.level} over {', '.join(t.projects)}:"]
    width = max([len(_opt(o.option)) for o in t.noisiest] + [6])
    for o in t.noisiest:
        lines.append(f"  {_opt(o.option):{width}}  {o.diagnostics:6}  {', '.join(o.projects)}  "
                     f"({', '.join(o.compilers)})")
    lines.append(f"silent in every build ({len(t.silent)}): " + (", ".join(t.silent[:40]) or "none known")
                 + (" ..." if len(t.silent) > 40 else ""))
    return "\n".join(lines)


def render_show(s: Show) -> str:
    shown = ("" if len(s.examples) == s.total
             else f"; {len(s.examples)} listed (a place and message once, whichever compiler printed it)")
    lines = [f"{s.option or 'every option'}: {s.total} diagnostics stored{shown}"
             + ("".join(f"; not in {c}'s flag data" for c, k in s.known.items() if not k))]
    for e in s.examples:
        option = f" [{e.option}]" if s.option is None and e.option else ""
        lines.append(f"{e.project} {e.compiler} {_where(e.file, e.line, e.column)}: {e.severity}: {e.message}"
                     f"{option}  ({len(e.tus)} TUs)")
        if e.source_line is not None:
            lines.append(f"    {e.source_line.strip()}")
    return "\n".join(lines)


def fired_line(f: Fired) -> str:
    """One build in which a flag fired: ``zlib at all: 32 diagnostics in 7 files (100
    printed) as -Wconversion; examples: warnscope warnings show -Wconversion --project zlib``."""
    how = " (matched by name: the compiler is not in the flag database)" if f.by_spelling else ""
    failed = "" if f.status == BuildStatus.OK else " (the build failed: up to the failure)"
    examples = f"warnscope warnings show {shlex.quote(f.options[0])} --project {shlex.quote(f.project)}"
    return (f"{f.project} at {f.level}: {f.diagnostics} diagnostics in {f.files} files "
            f"({f.printed} printed) as {', '.join(f.options)}{failed}{how}; examples: {examples}")


def render_fired_show(rows: list[Fired] | None, compiler: str) -> list[str]:
    """``flags show``'s section: the builds of its compiler where the flag fired."""
    if rows is None:
        return []
    if not rows:
        return [f"  fires on real code: in none of the stored warnings builds of {compiler}"]
    return ([f"  fires on real code ({compiler}'s stored warnings builds):"]
            + [f"    {fired_line(f)}" for f in rows])


def render_fired_history(entries: list) -> list[str]:
    """``flags history``'s section: per version with builds, where the flag fired."""
    with_builds = [e for e in entries if e.real_code is not None]
    if not with_builds:
        return []
    lines = ["fires on real code (stored warnings builds):"]
    for e in with_builds:
        if not e.real_code:
            lines.append(f"  {e.compiler:10} in none of its builds")
        for f in e.real_code:
            lines.append(f"  {e.compiler:10} {fired_line(f)}")
    return lines


def flag_show(info: ShowResult) -> str:
    """``flags show``: the flag, then the builds of its compiler where it fired."""
    return "\n".join([flag_text.show(info), *render_fired_show(info.real_code, info.compiler)])


def render_flag_show(shown: ShowResult | list[ShowResult], **_options) -> str:
    """``flags show``'s renderer: one version's flag (``--compiler``), or every version's,
    each as :func:`flag_show`, a blank line between them."""
    infos = shown if isinstance(shown, list) else [shown]
    return "\n\n".join(flag_show(i) for i in infos).rstrip("\n")


def render_flag_history(rows: list[HistoryEntry], **_options) -> str:
    """``flags history``'s renderer (:func:`flag_history`)."""
    return flag_history(rows).rstrip("\n")


def flag_history(rows: list[HistoryEntry]) -> str:
    """``flags history``: the flag across versions, then where it fired per version."""
    return "\n".join([flag_text.history(rows), *render_fired_history(rows)])
