"""The warnings family as SARIF 2.1.0 for code scanning (``--format sarif`` of
``warnscope upgrade``, ``warnings report`` and ``warnings diff``), built with the shared
pieces of :mod:`warnscope.sarif`.

It reads the result objects the text renderers read (:class:`~.results.Upgrade`,
:class:`~.results.WarningsReport`, :class:`~.results.Diff`) and, for what SARIF needs beyond
them (every diagnostic's place, column and severity), the stored builds they were made
from (:class:`~.results.Build`). Which diagnostic is new, reworded or gone is the Diff's
word, never decided again here, so a SARIF log and ``warnings diff`` always agree:

* one result per diagnostic of a build: ``ruleId`` its option as the compiler printed it
  (``-Wimplicit-int``; :data:`NO_OPTION` where none controls it), ``level`` error (an
  error, a fatal error, an internal compiler error), warning, or note, the compiler's
  message, the place (a file of the tree relative to it on ``SRCROOT``; a system header as
  a ``file://`` URI; a compiler's own header on ``COMPILER``; a diagnostic without a
  place at the TU that printed it);
* compared with an older build (``diff``, ``upgrade``): ``baselineState`` ``new`` (the
  Diff's added), ``updated`` (reworded at the same place and option, or printed as an
  error where the old compiler printed the same words as a warning), ``unchanged``, and
  ``absent`` for what the old compiler printed and the new one does not: kept for the
  record at the old place, with ``kind: pass``, level ``none`` and an accepted external
  suppression, so no reader counts it as an open problem;
* ``upgrade``: a configure check that flips (:data:`FLIPPED`) and a generated macro that
  changes (:data:`MACRO`) are results of the new compiler's run too, located at the
  line of the build system's input that asks for the check (``configure.ac``,
  ``CMakeLists.txt``, ``meson.build``) or of the header template that holds the macro
  (``config.h.in``), where the tree is at hand and says it; every diagnostic of the
  build is a result, its baseline state from the diff of the two whole builds, while the
  run's ``warnings`` counts what was printed as a warning (errors: ``newErrors``); the
  escape hatch (the smallest set of switches that builds, ``alone`` what each did built
  alone, ``combined`` the combinations built), the default standards, the project's
  options that changed and the environment are in the run's ``properties``.

Categories (``automationDetails.id``), one per run: ``warnscope/upgrade/COMPILER/`` (each
compiler of an upgrade, the from-compiler's run its baseline, without baseline states),
``warnscope/warnings/COMPILER/LEVEL/`` (``report``) and
``warnscope/warnings-diff/OLD-to-NEW/LEVEL/`` (``diff``).
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict, deque

from warnscope import sarif
from warnscope.render import Rendered, sarif_log
from warnscope.errors import WarnscopeError
from warnscope.extract import Tree

from analyzer.warnings.trees import source_root
from analyzer.warnings.results import (Build, CheckFlip, Diagnostic, Diff, DiffBuilds, EscapeHatch, HatchTrial,
                                       ReportBuilds, UpgradeBuilds,
                                       MacroChange, NewError, Upgrade, UpgradePair, WarningsReport)

#: the rule of a diagnostic no option controls
NO_OPTION = "warnscope/no-option"
#: the rule of a configure check whose outcome differs between two compilers
FLIPPED = "warnscope/configure-check-flipped"
#: the rule of a generated configuration header's macro that differs
MACRO = "warnscope/configure-macro-changed"
#: a compiler's severities that are errors (the build's failing ones) and notes
ERRORS = ("error", "fatal", "ice")
NOTES = ("note", "remark")
#: TUs named per result (a header's diagnostic printed by every TU of a project)
MAX_TUS = 10
#: characters of a flag's help text kept as its rule's description
MAX_DESCRIPTION = 500
#: the rules warnscope adds, described
OWN_RULES = {
    NO_OPTION: "A diagnostic that no warning option controls (the compiler names none).",
    FLIPPED: "A configure check whose outcome differs with the new compiler: a feature the "
             "build turns on or off silently.",
    MACRO: "A macro of a generated configuration header that differs with the new compiler.",
}
#: the files where a build system's checks are asked for, by the system that logged them
CHECK_INPUTS = {"autoconf": ("configure.ac", "configure.in", "configure"),
                "cmake": ("CMakeLists.txt",),
                "meson": ("meson.build",)}


def level_of(severity: str) -> str:
    """A compiler's severity as a SARIF level."""
    if severity in ERRORS:
        return "error"
    return "note" if severity in NOTES else "warning"


def rule_of(option: str | None) -> str:
    return option or NO_OPTION


def _tu_file(tu: str) -> str:
    """``adler32.c -> objs/adler32.o`` is ``adler32.c``."""
    return tu.split(" -> ", 1)[0]


def diagnostic_result(d: Diagnostic, baseline: str | None = None, *,
                      properties: dict | None = None, absent: str | None = None) -> dict:
    """One diagnostic as a result. ``absent``: the justification of a diagnostic the new
    compiler no longer prints (kept as a passed, suppressed result)."""
    if d.file:
        locations = [sarif.location(d.file, d.line, d.column)]
    elif d.tus:   # no place in a file (a command-line warning): the compile that printed it
        locations = [sarif.location(_tu_file(d.tus[0]), message="printed by this file's compile, "
                                                                 "at no place in a file")]
    else:
        locations = []
    props = {"severity": d.severity}
    if d.printed:
        props["printed"] = d.printed
    if d.tus:
        props["tus"] = d.tus[:MAX_TUS]
        if len(d.tus) > MAX_TUS:
            props["tusTotal"] = len(d.tus)
    props.update(properties or {})
    return sarif.result(rule_of(d.option), level_of(d.severity), d.message, locations,
                        baseline=baseline, properties=props,
                        kind="pass" if absent else None, suppressed=absent)


def build_results(build: Build) -> list[dict]:
    """Every diagnostic of one build, without a baseline."""
    return [diagnostic_result(d) for d in build.diagnostics]


def _key(option, file, line, message) -> tuple:
    return (option, file, line, message)


def compared_results(diff: Diff, before: Build, after: Build,
                     new_errors: list[NewError] = ()) -> list[dict]:
    """The diagnostics of ``after`` with their baseline states, as ``diff`` (of
    ``before`` and ``after``) decided them, then those of ``before`` that ``after`` no
    longer prints (``absent``). Among the diagnostics one key (option, file, line,
    message) names, the first are the unchanged ones and the rest reworded, then new, as
    :func:`queries.diff_of` pairs them; ``new_errors`` (an upgrade's) are marked, and one
    whose words the old compiler printed as a warning is ``updated``."""
    changed: dict[tuple, list[str | None]] = defaultdict(list)
    added: Counter = Counter()
    removed: Counter = Counter()
    for group in diff.by_option:
        for e in group.entries:
            key = _key(e.option, e.file, e.line, e.message)
            if e.change == "changed":
                changed[key].append(e.old_message)
            elif e.change == "added":
                added[key] += 1
            else:
                removed[key] += 1
    total = Counter(_key(d.option, d.file, d.line, d.message) for d in after.diagnostics)
    unchanged = {k: n - len(changed.get(k, ())) - added[k] for k, n in total.items()}
    errors = {(e.file, e.line, e.column, e.option, e.message): e for e in new_errors}
    seen: Counter = Counter()
    out = []
    for d in after.diagnostics:
        key = _key(d.option, d.file, d.line, d.message)
        seen[key] += 1
        props: dict = {}
        if seen[key] <= unchanged[key]:
            state = "unchanged"
        elif changed.get(key):
            state = "updated"
            old = changed[key].pop(0)
            if old is not None:
                props["oldMessage"] = old
        else:
            state = "new"
        e = errors.get((d.file, d.line, d.column, d.option, d.message)) if d.severity in ERRORS else None
        if e is not None:
            props["newError"] = True
            props["was"] = e.was
            if e.old_message and "oldMessage" not in props:
                props["oldMessage"] = e.old_message
            if state == "unchanged":   # the same words, an error now: a change that matters
                state = "updated"
        out.append(diagnostic_result(d, state, properties=props))
    gone = f"not printed by {after.compiler}, printed by {before.compiler}"
    for d in before.diagnostics:
        key = _key(d.option, d.file, d.line, d.message)
        if removed[key] > 0:
            removed[key] -= 1
            out.append(diagnostic_result(d, "absent", absent=gone))
    return out


# ------------------------------------------------------------------ places in the tree

class TreeLines:
    """The lines of a build's pristine tree (where it still is: :func:`~analyzer.warnings.trees.source_root`),
    each file read once, through :class:`~warnscope.extract.Tree` (regular files inside
    the tree only): the tree is untrusted input."""

    def __init__(self, build: Build):
        root = source_root(build)
        self.root = root
        self._tree = Tree(root, "project") if root is not None else None
        self._files: dict[str, list[str] | None] = {}

    def lines(self, rel: str) -> list[str] | None:
        if self._tree is None:
            return None
        if rel not in self._files:
            try:
                self._files[rel] = self._tree.read(rel).decode("utf-8", errors="replace").splitlines()
            except WarnscopeError:
                self._files[rel] = None
        return self._files[rel]

    def find(self, asks: list[tuple[tuple[str, ...], list[str]]]) -> list[tuple[str, int | None] | None]:
        """For each ask (files, words): the first of ``files`` the tree holds, and the first
        line holding the first of ``words`` found there as a whole word; None where the
        tree holds none of the files. Each file is read once and scanned once for the
        words of every ask (:class:`WordLines`): the time is linear in the files and the
        words, however many asks there are."""
        chosen = [next((rel for rel in files if self.lines(rel) is not None), None)
                  for files, _ in asks]
        words_of: dict[str, list[str]] = defaultdict(list)
        for rel, (_, words) in zip(chosen, asks):
            if rel is not None:
                words_of[rel] += words
        first = {rel: WordLines(words).first_lines(self.lines(rel) or [])
                 for rel, words in words_of.items()}
        out: list[tuple[str, int | None] | None] = []
        for rel, (_, words) in zip(chosen, asks):
            if rel is None:
                out.append(None)
                continue
            out.append((rel, next((first[rel][w] for w in words if w in first[rel]), None)))
        return out


#: a line's tokens: a run of word characters, or one other character
_TOKEN = re.compile(r"\w+|[^\w]")


class WordLines:
    """Where each of many words first stands in a file, as whole words, in one pass over
    its lines: an Aho-Corasick automaton over tokens (a run of word characters, or one
    other character), so a word matches a line's tokens exactly (``if libc defines
    __progname`` in ``AC_MSG_CHECKING([if libc defines __progname])``, never ``libcx``).
    A word found once is not looked for again (its node is passed over, and the links
    that led to it are shortened), so however many words share their ends, each line
    costs its tokens and each word its first finding. A word without a word character
    is never found (every line has punctuation)."""

    def __init__(self, words: list[str]):
        self.words = [w for w in dict.fromkeys(words) if re.search(r"\w", w)]
        self.goto: list[dict[str, int]] = [{}]
        self.word: list[int] = [-1]      # the word ending at a node (-1: none)
        for i, w in enumerate(self.words):
            node = 0
            for token in _TOKEN.findall(w):
                nxt = self.goto[node].get(token)
                if nxt is None:
                    nxt = len(self.goto)
                    self.goto[node][token] = nxt
                    self.goto.append({})
                    self.word.append(-1)
                node = nxt
            self.word[node] = i
        # fail: the longest proper suffix that is a node; out: the nearest such suffix
        # that ends a word (0: none), shortened as words are found
        self.fail = [0] * len(self.goto)
        self.out = [0] * len(self.goto)
        queue = deque(self.goto[0].values())
        while queue:
            node = queue.popleft()
            for token, child in self.goto[node].items():
                f = self.fail[node]
                while f and token not in self.goto[f]:
                    f = self.fail[f]
                target = self.goto[f].get(token, 0) if node else 0
                self.fail[child] = target
                self.out[child] = target if self.word[target] >= 0 else self.out[target]
                queue.append(child)

    def first_lines(self, lines: list[str]) -> dict[str, int]:
        """word -> the number of the first line that holds it (only the words found)."""
        goto, fail, word, out = self.goto, self.fail, self.word, self.out
        found: dict[str, int] = {}
        done = [False] * len(self.words)

        def pending(node: int) -> int:
            """The nearest node of ``node``'s suffixes, itself included, that ends a word
            not yet found (0: none); the links passed over are pointed past them."""
            passed = []
            while node and (word[node] < 0 or done[word[node]]):
                passed.append(node)
                node = out[node]
            for p in passed:
                out[p] = node
            return node

        for n, text in enumerate(lines, 1):
            if len(found) == len(self.words):
                break
            state = 0
            for token in _TOKEN.findall(text):
                while state and token not in goto[state]:
                    state = fail[state]
                state = goto[state].get(token, 0)
                hit = pending(state) if state else 0
                while hit:
                    done[word[hit]] = True
                    found[self.words[word[hit]]] = n
                    hit = pending(out[hit])
        return found


def _check_words(name: str) -> list[str]:
    """What a build system's input holds of a check's name: the name itself (autoconf's
    ``AC_MSG_CHECKING([if libc defines __progname])``, CMake's ``HAVE_X``), a quoted
    name (Meson's ``Checking for function "strlcpy"``), what an autoconf ``for X`` checks,
    and the name's identifiers (``__progname``, ``stdint.h``)."""
    words = [name, *re.findall(r'"([^"]+)"', name)]
    if name.startswith("for "):
        words.append(name[4:].strip())
    words += sorted((w for w in re.findall(r"[A-Za-z_][\w.]*", name)
                     if "_" in w or w.endswith(".h")), key=len, reverse=True)
    return [w for w in dict.fromkeys(words) if w.strip()]


def flip_place(flip: CheckFlip) -> tuple[tuple[str, ...], list[str]]:
    """Where a flipped check is looked for (:meth:`TreeLines.find`): the files its build
    system asks for checks in, and the words of its name."""
    return CHECK_INPUTS.get(flip.system, ()), _check_words(flip.name)


def flip_result(flip: CheckFlip, old: str, new: str, found: tuple[str, int | None] | None) -> dict:
    """A flipped check as a result, at ``found`` (its :func:`flip_place` in the tree)."""
    text = f"configure check '{flip.name}' ({flip.system}): {flip.old} with {old}, {flip.new} with {new}"
    if flip.error:
        text += f"; {new}: {flip.error}"
    locations = [sarif.location(found[0], found[1])] if found else []
    props = {"system": flip.system, "check": flip.name, "old": flip.old, "new": flip.new}
    if flip.error:
        props["error"] = flip.error
    if flip.old_error:
        props["oldError"] = flip.old_error
    return sarif.result(FLIPPED, "warning", text, locations, baseline="new", properties=props)


def _macro_word(value: str | None) -> str:
    return "#undef" if value is None else (f"#define {value}" if value else "#define")


def macro_place(m: MacroChange) -> tuple[tuple[str, ...], list[str]]:
    """Where a changed macro is looked for: its header's templates, and its name."""
    return (f"{m.file}.in", f"{m.file}.cmake", f"{m.file}.meson", m.file), [m.name]


def macro_result(m: MacroChange, old: str, new: str, found: tuple[str, int | None] | None) -> dict:
    """A changed macro as a result, at ``found`` (its :func:`macro_place` in the tree)."""
    text = (f"{m.name} in {m.file}: {_macro_word(m.old)} with {old}, "
            f"{_macro_word(m.new)} with {new}")
    locations = [sarif.location(found[0], found[1])] if found else []
    return sarif.result(MACRO, "warning", text, locations, baseline="new",
                        properties={"file": m.file, "macro": m.name, "old": m.old, "new": m.new})


def _src_root(build: Build) -> str | None:
    root = source_root(build)
    return str(root) if root is not None else None


def _build_run(category: str, build: Build, results: list[dict], words: dict[str, str],
               properties: dict, notes: list) -> dict:
    compiler_words = (f"{build.compiler}'s own directory: <gcc> or <clang> in warnscope's "
                      "words (GCC's lib/gcc/TARGET/N, clang's lib/clang/N)")
    return sarif.run(category, results, {**OWN_RULES, **words}, src_root=_src_root(build),
                     src_description=f"the tree of {build.project} ({build.origin})",
                     compiler_description=compiler_words, properties=properties, notes=notes)


def _build_facts(build: Build) -> dict:
    return {"project": build.project, "origin": build.origin, "compiler": build.compiler,
            "compilerVersion": build.compiler_version, "level": build.level, "opt": build.opt,
            "status": build.status, **({"error": build.error} if build.error else {})}


def _unread(build: Build) -> list[dict]:
    return [sarif.notification(f"{t.tu}: output not read: {t.problem}", "warning")
            for t in build.tus if t.problem]


# ------------------------------------------------------------------ the three logs

def report_log(report: WarningsReport, builds: list[Build],
               words: dict[str, dict[str, str]] | None = None) -> dict:
    """``warnings report --format sarif``: one run per build of the report (``builds``,
    as the report was made from them: derived where it answers ``--as``)."""
    runs = []
    for r, b in zip(report.builds, builds):
        if (r.compiler, r.level) != (b.compiler, b.level):
            raise ValueError(f"the report's build {r.compiler} {r.level} is not {b.compiler} {b.level}")
        facts = {**_build_facts(b), "diagnostics": r.diagnostics, "printed": r.printed, "tus": r.tus}
        if r.derived_from:
            facts["derivedFrom"] = r.derived_from
        if r.silent is not None:
            facts["silentOptions"] = r.silent
        if r.flag_data:
            facts["flagData"] = r.flag_data
        notes = _unread(b)
        for u in r.uncertain or ():
            notes.append(sarif.notification(
                f"{u.option or '(no option)'}: {u.count} diagnostics of the {r.derived_from} build "
                f"may or may not be printed at {r.level}: {u.why}"))
        runs.append(_build_run(f"warnscope/warnings/{b.compiler}/{b.level}/", b, build_results(b),
                               (words or {}).get(b.compiler, {}), facts, notes))
    return sarif.log(runs)


def diff_log(diff: Diff, before: Build, after: Build,
             words: dict[str, dict[str, str]] | None = None) -> dict:
    """``warnings diff --format sarif``: the new compiler's run, every result with its
    baseline state against the old compiler's build."""
    facts = {**_build_facts(after), "baseline": before.compiler,
             "baselineVersion": before.compiler_version, "unchanged": diff.unchanged,
             "added": diff.added, "removed": diff.removed, "changed": diff.changed}
    return sarif.log([_build_run(f"warnscope/warnings-diff/{before.compiler}-to-{after.compiler}/{diff.level}/",
                                 after, compared_results(diff, before, after),
                                 (words or {}).get(after.compiler, {}), facts, _unread(after))])


def _pair_facts(p: UpgradePair) -> dict:
    facts: dict = {"baseline": p.old, "baselineStatus": p.old_status, "switching": p.switching,
                   "newErrors": len(p.new_errors), "flips": len(p.flips), "macros": len(p.macros),
                   "warnings": {"added": p.warnings.added, "removed": p.warnings.removed,
                                "changed": p.warnings.changed, "unchanged": p.warnings.unchanged}}
    if p.hatch is not None:
        facts["escapeHatch"] = {**_trial_facts(p.hatch), "why": p.hatch.why,
                                "alone": [_trial_facts(t) for t in p.hatch.alone],
                                "combined": [_trial_facts(t) for t in p.hatch.combined]}
    if p.defaults:
        facts["defaultStandards"] = [{"language": d.language, "old": d.old, "new": d.new,
                                      "pinned": d.pinned} for d in p.defaults]
    if p.options:
        facts["projectOptions"] = [{"option": o.option, "old": o.old, "new": o.new,
                                    "detail": o.detail} for o in p.options]
    if p.environment.differs:
        facts["environment"] = {"old": p.environment.old, "new": p.environment.new,
                                "differs": p.environment.differs}
    return facts


def _trial_facts(t: HatchTrial | EscapeHatch) -> dict:
    """A build with some of the escape hatch's switches: the switches, and what it did."""
    return {"flags": t.flags, "status": t.status, "errorsLeft": t.errors_left,
            **({"error": t.error} if t.error else {})}


def upgrade_log(report: Upgrade, builds: dict[str, Build], diffs: dict[tuple[str, str], Diff],
                words: dict[str, dict[str, str]] | None = None) -> dict:
    """``warnscope upgrade --format sarif``: the from-compiler's run (its build as it is:
    the baseline) and one run per to-compiler, its diagnostics with their baseline states,
    its configure checks that flip and macros that change (see the module); ``diffs``: the
    diff of each pair's two whole builds (:func:`analyzer.warnings.queries.diff_of`)."""
    words = words or {}
    if not report.pairs:
        return sarif.log([])
    old = builds[report.pairs[0].old]
    runs = [_build_run(f"warnscope/upgrade/{old.compiler}/", old, build_results(old),
                       words.get(old.compiler, {}), {**_build_facts(old), "role": "baseline"},
                       _unread(old))]
    for p in report.pairs:
        before, after = builds[p.old], builds[p.new]
        found = TreeLines(after).find([*map(flip_place, p.flips), *map(macro_place, p.macros)])
        results = [*(flip_result(f, p.old, p.new, at) for f, at in zip(p.flips, found)),
                   *(macro_result(m, p.old, p.new, at) for m, at in zip(p.macros, found[len(p.flips):])),
                   *compared_results(diffs[(p.old, p.new)], before, after, p.new_errors)]
        notes = [*_unread(after), *(sarif.notification(n) for n in p.notes)]
        runs.append(_build_run(f"warnscope/upgrade/{after.compiler}/", after, results,
                               words.get(after.compiler, {}), {**_build_facts(after), **_pair_facts(p)},
                               notes))
    return sarif.log(runs)


# ------------------------------------------------------------------ the renderers

def render_report(data: ReportBuilds, **_options) -> Rendered:
    """``warnings report --format sarif``."""
    return sarif_log(report_log(data.report, data.builds, data.words))


def render_diff(data: DiffBuilds, **_options) -> Rendered:
    """``warnings diff --format sarif``."""
    return sarif_log(diff_log(data.diff, data.before, data.after, data.words))


def render_upgrade(data: UpgradeBuilds, **_options) -> Rendered:
    """``warnscope upgrade --format sarif``."""
    return sarif_log(upgrade_log(data.report, data.builds, data.diffs, data.words))
