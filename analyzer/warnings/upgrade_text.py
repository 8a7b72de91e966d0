"""The upgrade report as text: per move, the configure checks that flip and what they
cost first (nothing fails there, so nothing else would tell), then the build's fate, every
new error and the escape hatch (the smallest set of switches that builds, and what each
did alone), then the defaults and options that changed, then the warnings; last what else
differs between the two systems."""
from __future__ import annotations

from analyzer.projects.cell import BuildStatus
from analyzer.warnings.results import HatchTrial, NewError, Upgrade, UpgradePair, std_name

#: new errors listed per move (all are in --json)
SHOWN_ERRORS = 30


def render(report: Upgrade) -> str:
    lines: list[str] = []
    for pair in report.pairs:
        lines += _pair(report, pair)
        lines.append("")
    if report.passed_env:
        lines.append(f"passed from your environment (--env): {', '.join(report.passed_env)}")
    return "\n".join(lines).rstrip() + "\n"


def _where(e: NewError) -> str:
    return ":".join(str(x) for x in (e.file, e.line, e.column) if x is not None) or "(no place)"


def _pair(report: Upgrade, p: UpgradePair) -> list[str]:
    verb = "switching compilers" if p.switching else "upgrade"
    lines = [f"{report.project} ({report.origin}): {p.old} -> {p.new} ({verb}; builds at the "
             f"{report.level} level)"]
    lines.append(f"  silently changed configure checks: {len(p.flips)}")
    for f in p.flips:
        lines.append(f"    {f.system}: {f.name}: {f.old} -> {f.new}")
        if f.error:
            lines.append(f"      because: {f.error}")
    for m in p.macros:
        lines.append(f"    {m.file}: {m.name} " + _macro(m.old) + " -> " + _macro(m.new))
    fate = {BuildStatus.OK: "builds", BuildStatus.FAILED: "fails"}
    lines.append(f"  build: {p.old} {fate.get(p.old_status, p.old_status)}, "
                 f"{p.new} {fate.get(p.new_status, p.new_status)}"
                 + (f" ({p.new_error})" if p.new_status != BuildStatus.OK and p.new_error else ""))
    if p.old_status != BuildStatus.OK and p.old_error:
        lines.append(f"    {p.old} already fails: {p.old_error}")
    for name, log in ((p.old, p.old_log), (p.new, p.new_log)):
        if log:
            lines.append(f"    {name}'s whole logs: {log}")
    lines.append(f"  new errors: {len(p.new_errors)}")
    for e in p.new_errors[:SHOWN_ERRORS]:
        was = "a warning before" if e.was == "warning" else "not printed before"
        lines.append(f"    {_where(e)}: {e.message}" + (f" [{e.option}]" if e.option else "")
                     + f" ({was})")
    if len(p.new_errors) > SHOWN_ERRORS:
        lines.append(f"    ... and {len(p.new_errors) - SHOWN_ERRORS} more (--json lists all)")
    if p.hatch is not None:
        h = p.hatch
        result = ("the build succeeds" if h.status == BuildStatus.OK
                  else f"the build still fails, {_errors(h.errors_left)} left"
                  + (f" ({h.error})" if h.error else ""))
        tried = len(h.alone) > 1 or bool(h.combined)
        smallest = " (the smallest set that does)" if h.status == BuildStatus.OK and tried else ""
        lines.append(f"  escape hatch: {_words(h.flags)}: {result}{smallest}")
        if h.why:
            lines.append(f"    why: {h.why}")
        if tried:
            lines += [f"    alone: {_words(t.flags)}: {_did(t)}" for t in h.alone]
            lines += [f"    together: {_words(t.flags)}: {_did(t)}" for t in h.combined]
    elif p.new_errors:
        lines.append("  escape hatch: none known for these errors")
    for d in p.defaults:
        names = {"c": "C", "c++": "C++"}[d.language]
        pinned = (f"the project pins {', '.join(d.pinned)}" if d.pinned
                  else "the project pins no -std: it gets the new default")
        lines.append(f"  default {names} standard: {std_name(d.old)} -> {std_name(d.new)} ({pinned})")
    for o in p.options:
        lines.append(f"  the project's {o.option}: {o.old} -> {o.new}" + (f" ({o.detail})" if o.detail else ""))
    w = p.warnings
    lines.append(f"  warnings: {w.added} new, {w.removed} gone, {w.changed} reworded, "
                 f"{w.unchanged} unchanged (printed as warnings; errors are counted above)")
    for o in sorted(w.by_option, key=lambda o: -(o.added + o.removed + o.changed))[:10]:
        lines.append(f"    {o.option or '(no option)'}: +{o.added} -{o.removed} ~{o.changed}")
    env = p.environment
    if env.differs:
        lines.append(f"  not only the compiler changed: {p.old} on {env.old}, {p.new} on {env.new}: "
                     + "; ".join(env.differs))
    for note in p.notes:
        lines.append(f"  note: {note}")
    return lines


def _macro(value: str | None) -> str:
    return "#undef" if value is None else (f"#define {value}" if value else "#define")


def _did(t: HatchTrial) -> str:
    """What a build with some of the switches did."""
    if t.status == BuildStatus.OK:
        return "builds"
    return f"still fails with {_errors(t.errors_left)}"


def _errors(n: int) -> str:
    return f"{n} error{'s' if n != 1 else ''}"


def _words(words: list[str]) -> str:
    return " ".join(_word(w) for w in words)


def _word(word: str) -> str:
    """A hatch word as a user reads it: ``c:-fpermissive`` is ``-fpermissive (C)``."""
    for lang, name in (("c++:", "C++"), ("c:", "C")):
        if word.startswith(lang):
            return f"{word[len(lang):]} ({name})"
    return word
