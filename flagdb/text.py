"""Text for people: the one renderer of :mod:`flagdb.results`.

``--json`` prints the same objects with :func:`warnscope.serial.to_json`; these
functions only lay them out as lines. They decide nothing the JSON would not show.
Where a flag fired in real builds (``real_code``, filled by :mod:`analyzer.warnings`)
is that family's text (:func:`analyzer.warnings.text.flag_show`, ``flag_history``).
"""
from __future__ import annotations

from flagdb.closure import Index
from flagdb.compare import is_host, spans
from flagdb.describe import describe_change
from flagdb.views import tree_of
from flagdb.model import CompilerData
from warnscope.compilers import CompilerId
from warnscope.profiles import profile
from warnscope.render import Rendered
from flagdb.results import (
    CheckResult, CheckStatus, DiffResult, EdgeRef, FlagInfo, HistoryEntry,
    MessageInfo, ShowResult, SinceResult, TreeNode, VersionInfo, as_typed,
)


def flag_line(r: FlagInfo) -> str:
    """``flags list``: ``-Wformat=<0,2>``, ``-Wformat = -Wformat=1``, markers, default."""
    return (f"{r.name}{r.argument or '' if r.takes_argument else ''}"
            + (f" = {r.alias_of}" if r.alias_of else "")
            + (" [no-op]" if r.ignored else "") + (" [removed]" if r.removed else "")
            + (f"  (default {r.default})" if r.default not in ("off", "0") else ""))


def flag_list(rows: list[FlagInfo]) -> str:
    return "\n".join(flag_line(r) for r in rows)


def enabled_by(flag: FlagInfo, ref: EdgeRef) -> str:
    """``-Wall (sets -Waligned-new=global)``, ``-Wunused && -Wextra``."""
    text = " && ".join([ref.typed, *ref.requires])
    if ref.value != "1" or flag.takes_argument:
        text += f" (sets {as_typed(flag.name, ref.value)})"
    return text


def enables(flag: FlagInfo, ref: EdgeRef) -> str:
    """``-Wunused-parameter (with -Wunused)``, ``-Wformat-security (from -Wformat=2)``."""
    text = ref.typed
    if ref.from_level is not None:
        text += f" (from {flag.name}{ref.from_level})"
    if ref.requires:
        text += " (with " + " && ".join(ref.requires) + ")"
    return text


def show(info: ShowResult) -> str:
    lines = [f"{info.typed} ({info.compiler})"]
    if info.description:
        lines.append(f"  {info.description}")
    for key in ("kind", "default", "languages", "argument", "alias_of", "ignored", "removed",
                "origin"):
        value = getattr(info, key)
        if value not in (None, [], False, ""):
            lines.append(f"  {key:11} {' '.join(value) if isinstance(value, list) else value}")
    if info.enabled_by:
        lines.append("  enabled by  " + ", ".join(dict.fromkeys(
            enabled_by(info, r) for r in info.enabled_by)))
    if info.turns_on:
        lines.append(f"  turns on    ({len(info.turns_on)}) "
                     + " ".join(t.typed for t in info.turns_on))
    for m in info.messages:
        lines.append(f"  {m.diag_class.lower():9} {m.severity:8} {m.text}")
    return "\n".join(lines)


def tree(node: TreeNode, depth: int = 0) -> list[str]:
    """``-Wextra`` / ``  -Wunused-parameter  (with -Wunused)`` …, two spaces a level."""
    extra = ""
    if node.requires:
        extra += "  (with " + " && ".join(node.requires) + ")"
    if node.languages:
        extra += "  [" + ", ".join(node.languages) + " only]"
    if node.ignored:
        extra += "  [no-op]"
    if node.cycle:
        extra += "  [cycle]"
    if node.members_unknown:
        extra += ("  [what it turns on is decided in the compiler's C code, not in its "
                  "option files: unknown here]")
    lines = ["  " * depth + node.typed + extra]
    for child in node.children:
        lines.extend(tree(child, depth + 1))
    return lines


def diff(result: DiffResult) -> str:
    old, new = result.old, result.new
    if not (result.added or result.removed or result.changed):
        return (f"{old} and {new}: no difference{_targets(old, new)}: the same "
                f"{len(result.in_both)} flags, alike in every attribute compared (default, "
                "-Wall, -Wextra, languages, aliases, arguments, help)")
    if result.cross_family:
        lines = [f"{old} vs {new}: {len(result.in_both)} names in both, {len(result.changed)} of "
                 f"them differ; {len(result.removed)} only in {old}, "
                 f"{len(result.added)} only in {new}"]
        lines += [f"< {f.name}" for f in result.removed]
        lines += [f"> {f.name}" for f in result.added]
    else:
        lines = [f"{old} -> {new}: {len(result.added)} added, {len(result.removed)} removed, "
                 f"{len(result.changed)} changed"]
        lines += [f"+ {f.name}  {f.description}" for f in result.added]
        lines += [f"- {f.name}" for f in result.removed]
    for c in result.changed:
        lines.append(f"~ {c.name}: " + "; ".join(describe_change(ch) for ch in c.changes))
    return "\n".join(lines)


def _targets(old: str, new: str) -> str:
    """`` (one release, two targets)`` where ``old`` and ``new`` are one release for two
    targets (``gcc-12``, ``gcc-12@aarch64-linux-gnu``), else ''."""
    try:
        a, b = CompilerId.parse(old), CompilerId.parse(new)
    except ValueError:
        return ""
    return " (one release, two targets)" if a.host == b.host and a.target != b.target else ""


def _history_row(r: HistoryEntry, width: int = 10) -> str:
    if not r.present:
        return f"{r.compiler:{width}} {r.version:10} absent"
    bits = [f"default {r.default}"]
    if r.in_wall:
        bits.append("in -Wall")
    if r.in_wextra:
        bits.append("in -Wextra")
    if r.alias_of:
        bits.append(f"alias of {r.alias_of}")
    if r.aliases:
        bits.append("aliases " + " ".join(r.aliases))
    if r.ignored:
        bits.append("no-op")
    return f"{r.compiler:{width}} {r.version:10} " + ", ".join(bits)


#: what a history row says of a flag, compared between a cross compiler and its release
_ROW_FACTS = ("present", "default", "in_wall", "in_wextra", "alias_of", "aliases", "ignored",
              "removed")


def history(rows: list[HistoryEntry]) -> str:
    """``flags history``: a row per release, then where the flag's history starts and
    ends per family; compilers for other targets after that, apart (each is its
    release built for another target, not a release of its own), each said to be as
    its release or not."""
    hosts = [r for r in rows if is_host(r.compiler)]
    others = [r for r in rows if not is_host(r.compiler)]
    lines = [_history_row(r) for r in hosts]
    if not rows:
        return "(no compiler ingested yet)"
    found = {s.family: s for s in spans(rows)}
    families = dict.fromkeys(CompilerId.parse(r.compiler).family for r in hosts)
    for family in families:
        s = found.get(family)
        lines.append(f"{family}: " + ("in no ingested version" if s is None else s.text))
    if others:
        lines.append("other targets (a release built for another target, not a release of "
                     "its own):")
        by_name = {r.compiler: r for r in hosts}
        width = max(len(r.compiler) for r in others)
        for r in others:
            host = str(CompilerId.parse(r.compiler).host)
            mine = by_name.get(host)
            if mine is None:
                note = f"{host} is not ingested"
            elif all(getattr(mine, k) == getattr(r, k) for k in _ROW_FACTS):
                note = f"as in {host}"
            else:
                note = f"unlike {host}: " + _history_row(mine).split(None, 2)[-1]
            lines.append(f"  {_history_row(r, width)}  ({note})")
    return "\n".join(lines)


def versions(rows: list[VersionInfo]) -> str:
    """``flags versions``: one line a compiler.

    From the database: ``gcc-12  12.2.0  410 flags  debian-package: gcc-12-source
    12.2.0-14+deb12u1 (bookworm); 373 of them C-family`` (every flag stored, other front
    ends' too; the C family's are what ``flags list`` and the site list). With the archive (``--available``): where Debian has
    it, then what is stored: ``gcc-14  sid 14.4.0-3 (also trixie 14.2.0-19)  not ingested``.
    """
    if not rows:
        return "(no compiler ingested yet)"
    width = max([10, *(len(r.name) for r in rows)])
    if all(r.available is None and not r.upstream for r in rows):
        return "\n".join(f"{r.name:{width}} {r.version:10} {r.flags:5} flags  {r.source_kind}: "
                         f"{r.source}" + (f" ({r.suite})" if r.suite else "")
                         + f"; {r.c_family_flags} of them C-family" for r in rows)
    table = []
    for r in rows:
        a = r.available
        archive = ("-" if not r.upstream else "upstream " + "; ".join(
            f"{u.release} {u.url}" for u in r.upstream)) if a is None else f"{a.suite} {a.debian_version}" + (
            " (also " + ", ".join(f"{s.suite} {s.debian_version}" for s in a.in_suites
                                  if s.suite != a.suite) + ")" if len(a.in_suites) > 1 else "")
        if not r.ingested:
            stored = "not ingested"
        else:
            stored = f"ingested {r.version}, {r.flags} flags ({r.c_family_flags} C-family)"
            if r.source_kind != "debian-package" or not is_host(r.name):
                stored += f", {r.source_kind}: {r.source}"
            elif r.current is False:
                stored += f", from {r.debian_version}" + (f" ({r.suite})" if r.suite else "")
        table.append([r.name, archive, stored])
    widths = [max(len(row[i]) for row in table) for i in range(2)]
    return "\n".join(f"{a:{widths[0]}}  {b:{widths[1]}}  {c}" for a, b, c in table)


def since(results: list[SinceResult]) -> str:
    """``flags since``: per version, a summary line, then ``+``/``-`` flags and the moves."""
    lines = []
    for r in results:
        if r.target:
            host = str(CompilerId.parse(r.compiler).host)
            head = f"{r.compiler} ({r.version}): {host} built for {r.target}, not a release of its own"
            if r.previous is None:
                lines.append(f"{head}; {host} is not ingested, so there is nothing to "
                             f"compare it with (flags ingest {host})")
                continue
            if not (r.introduced or r.removed or r.joined_wall or r.left_wall
                    or r.joined_wextra or r.left_wextra or r.default_changed):
                lines.append(f"{head}: the same flags as {host}, nothing introduced, removed, "
                             "moved or changed by default")
                continue
            lines.append(f"{head}; beside {host}: {len(r.introduced)} introduced, "
                         f"{len(r.removed)} removed, {len(r.joined_wall)} joined -Wall, "
                         f"{len(r.joined_wextra)} joined -Wextra, "
                         f"{len(r.default_changed)} defaults changed")
            lines += _since_details(r)
            continue
        if r.previous is None:
            lines.append(f"{r.compiler} ({r.version}): the oldest {r.compiler.rpartition('-')[0]} "
                         "version ingested; the history starts here, so nothing is called new "
                         "in it (ingest an older version to compare)")
            continue
        lines.append(f"{r.compiler} ({r.version}) since {r.previous} ({r.previous_version}): "
                     f"{len(r.introduced)} introduced, {len(r.removed)} removed, "
                     f"{len(r.joined_wall)} joined -Wall, {len(r.joined_wextra)} joined -Wextra, "
                     f"{len(r.default_changed)} defaults changed")
        lines += _since_details(r)
    return "\n".join(lines) or "(no compiler ingested yet)"


def _since_details(r: SinceResult) -> list[str]:
    """The ``+``/``-`` flags and the moves of one :class:`SinceResult`."""
    lines = []
    for f in r.introduced:
        marks = [m for m, on in (("in -Wall", f.in_wall), ("in -Wextra", f.in_wextra),
                                 (f"default {f.default}", f.default not in ("off", "0")))
                 if on]
        lines.append(f"  + {f.name}" + (f"  [{', '.join(marks)}]" if marks else "")
                     + (f"  {f.description}" if f.description else ""))
    lines += [f"  - {name}" for name in r.removed]
    for label, names in (("joined -Wall", r.joined_wall), ("left -Wall", r.left_wall),
                         ("joined -Wextra", r.joined_wextra), ("left -Wextra", r.left_wextra)):
        if names:
            lines.append(f"  {label}: {' '.join(names)}")
    lines += [f"  ~ {c.name}: default {c.old} -> {c.new}" for c in r.default_changed]
    return lines


def check_cell(r: CheckResult) -> str:
    """One cell of the check table: the status, an alias's target, a likely typo."""
    if r.status is CheckStatus.ALIAS:
        return f"alias of {r.alias_of}"
    if r.status is CheckStatus.UNKNOWN and r.suggestion and not r.note:
        return f"unknown (did you mean {r.suggestion}?)"
    return r.status.value


def check_note(r: CheckResult) -> str:
    """The ``note:`` line of a result with a note, with its suggestion or reason."""
    tail = f"did you mean {r.suggestion}?" if r.suggestion else r.reason
    return f"{r.note}; {tail}" if tail else r.note or ""


def check(results: list[CheckResult], flags: list[str], compilers: list[str]) -> str:
    """The flag × compiler table, then the notes once each."""
    table = [["flag", *(head for c in compilers for head in (c, "build"))]]
    for i, flag in enumerate(flags):
        row = results[i * len(compilers):(i + 1) * len(compilers)]
        table.append([flag, *(cell for r in row for cell in (check_cell(r), r.build.value))])
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in table]
    notes = {check_note(r) for r in results if r.note}
    lines += [f"note: {n}" for n in sorted(notes)]
    return "\n".join(lines)


def messages(rows: list[MessageInfo], compiler: str, flag: str, family: str) -> str:
    if not rows:
        return f"{compiler} records no diagnostic texts for {flag}" + (
            " (GCC's option files carry no messages)" if profile(family).gcc else "")
    return "\n".join(f"{r.flag:28} {r.severity:8} {r.text}" for r in rows)


def export_list(data: CompilerData) -> str:
    """The plain-text list people grep, diff and paste.

    One flag a line; what it turns on below it, indented under ``#``; ``= target``
    for aliases; ``# IGNORED switch`` for no-ops; the default state as a comment.
    """
    index = Index(data)
    lines = []
    for f in sorted(data.flags, key=lambda f: f.name.lower()):
        if not index.applies(f, None):
            continue
        head = f.name + (f.argument or "" if f.takes_argument else "")
        if f.alias_of:
            lines.append(f"{head} = {f.alias_of}")
            continue
        if f.ignored:
            lines.append(f"{head} # IGNORED switch")
            continue
        if f.removed:
            lines.append(f"{head} # REMOVED switch")
            continue
        note = {"on": " # Enabled by default.", "partial": " # Partially enabled by default."}
        lines.append(head + note.get(f.default, ""))
        for child in tree_of(index, f.name).children:
            lines.extend("# " + l for l in tree(child))
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ each command's renderer
# (flagdb/renderers.py registers them: the report, the command's options by name, the text
# printed without the trailing line end the lines above may carry)

def render_versions(rows: list[VersionInfo], **_options) -> str:
    """``flags versions``."""
    return versions(rows).rstrip("\n")


def render_since(results: list[SinceResult], **_options) -> str:
    """``flags since``."""
    return since(results).rstrip("\n")


def render_list(rows: list[FlagInfo], **_options) -> str:
    """``flags list``."""
    return flag_list(rows).rstrip("\n")


def render_tree(node: TreeNode, **_options) -> str:
    """``flags tree``."""
    return "\n".join(tree(node)).rstrip("\n")


def render_diff(result: DiffResult, **_options) -> str:
    """``flags diff``."""
    return diff(result).rstrip("\n")


def render_check(results: list[CheckResult], flags: list[str], compilers: list[str], **_options) -> str:
    """``flags check``: the table of what each compiler does with each flag."""
    return check(results, flags, compilers).rstrip("\n")


def render_words(words: list[str], **_options) -> str:
    """``flags check --portable`` and ``flags everything``: the flags on one line, to paste."""
    return " ".join(words).rstrip("\n")


def render_messages(rows: list[MessageInfo], compiler: str, flag: str, family: str, **_options) -> str:
    """``flags messages``."""
    return messages(rows, compiler, flag, family).rstrip("\n")


def render_export(data: CompilerData, **_options) -> Rendered:
    """``flags export``'s list, which ends its own lines."""
    return Rendered(export_list(data), newline=False)
