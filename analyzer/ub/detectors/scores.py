"""Scores per detector and compiler version: what it catches, what it falsely claims.

:func:`score` reads the :class:`~analyzer.ub.detectors.detectors.ToolRun`s of a corpus (each tool
on each UB case and on each case's fixed twin) and says, per detector and version:

* **caught**: UB cases it reports at their ``ub-line`` (a sanitizer: at run time);
* **elsewhere**: UB cases it reports, but on other lines (neither a catch nor a false alarm);
* **false alarms**: programs without UB it claims UB on, as the Juliet test suite and the
  Toyota ITC benchmark count them: fixed twins it reports at their ``fixed-line`` or with
  a report of their case's UB category anywhere (:func:`~analyzer.ub.detectors.detectors.judge`),
  and controls (``ub: no`` and fixing nothing) it reports with a report of any known UB
  class; any sanitizer report on either (it says the run had UB);
* **unrelated**: programs without UB it reports only otherwise on (a dead store, an
  unused variable, a style check: true or not, no claim of the UB);

out of the cases, twins and controls its tool ran on (a run that failed counts in none), and
the same per UB category. A case without a twin (a foreign corpus) counts for catches only; a
case without ``ub-line`` is caught by any report; a twin without ``fixed-line`` is falsely
claimed by its case's category alone (a note says how many). Runs that did not work are
listed as problems, one line each, never scored as "caught nothing". :func:`render` is the
text, :func:`as_json` the ``--json`` shape (the dataclasses as they are).

Scoring happens when runs are read: the stored runs are scored anew by every reader, so a
change here needs no tool to run again.

The cases are the corpus's (:class:`~analyzer.ub.corpus.Case`) when the tools have just
run, or :class:`CaseFacts` read back from the database (:func:`stored_facts`) when the
runs are the stored ones (``ub report``, ``ub explain``, the site).
What ``warnscope advise`` reads of them is the detectors' store API's
(:func:`analyzer.ub.detectors.store.warning_scores`): the warning options' scores on the
corpus whose detectors ran most recently, scored here.
"""
from __future__ import annotations

import enum
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Sequence

from analyzer.ub.corpus import Case, stored_lines, stored_marks
from analyzer.ub.detectors.detectors import judge, judge_control
from analyzer.ub.results import RunStatus, ToolRun

if TYPE_CHECKING:
    from analyzer.ub.detectors.detect import Report
    from analyzer.ub.results import CaseInfo, StoredResults


class Catch(enum.StrEnum):
    """What one detector's reports on one case mean, stored and printed as its word (JSON
    holds the word)."""

    CAUGHT = "caught"
    ELSEWHERE = "elsewhere"
    FALSE_ALARM = "false-alarm"
    UNRELATED = "unrelated"


@dataclass
class CategoryScore:
    category: str
    caught: int
    cases: int
    false_alarms: int
    twins: int
    unrelated: int = 0       # the category's twins it reported only unrelated findings on


@dataclass
class DetectorScore:
    detector: str            # '-Wanalyzer-null-dereference', 'ubsan:signed-integer-overflow'
    kind: str                # 'warning' | 'sanitizer' | 'analyzer'
    tool: str                # 'warnings', 'gcc-analyzer', ...
    version: str             # 'gcc-12'; 'cppcheck-2.10'
    caught: list[str]        # case ids
    elsewhere: list[str]
    false_alarms: list[str]  # twin ids: the twins it claims its case's UB on
    cases: int               # UB cases its tool ran on
    twins: int               # twins its tool ran on
    categories: list[CategoryScore] = field(default_factory=list)
    control_alarms: list[str] = field(default_factory=list)  # control ids it claims UB on
    controls: int = 0        # controls its tool ran on
    #: twin and control ids it reported only unrelated findings on (no false alarm)
    unrelated: list[str] = field(default_factory=list)

    @property
    def clean(self) -> int:
        """The programs without UB its tool ran on (twins and controls)."""
        return self.twins + self.controls

    @property
    def alarms(self) -> int:
        """Its false alarms on twins and controls."""
        return len(self.false_alarms) + len(self.control_alarms)


@dataclass
class Detection:
    """One detector's verdict on one case (or its twin)."""

    version: str
    detector: str
    kind: str
    verdict: Catch
    lines: list[int]         # where it reported (on the case; on the twin or control for a
                             # false alarm or an unrelated report)


@dataclass
class CaseDetections:
    case_id: str
    category: str
    ub_lines: list[int]
    twin: str
    detections: list[Detection]
    #: the versions whose tools ran on the case (a version absent here did not run, or
    #: failed: it neither caught the case nor missed it)
    versions: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class CaseFacts:
    """What scoring needs of a case, as stored (``ub_case``): a stand-in for the
    corpus's :class:`~analyzer.ub.corpus.Case` when the runs are read back."""

    id: str
    category: str
    ub: bool | None
    ub_lines: tuple[int, ...]
    twin: str
    #: a twin: the case it fixes (the file its ``fixes:`` names when no stored case names
    #: it as its twin); '' otherwise
    fixes: str = ""
    fixed_lines: tuple[int, ...] = ()     # a twin: its ``fixed-line``s


def stored_facts(cases: Sequence["CaseInfo"]) -> list[CaseFacts]:
    """The facts of stored cases: ``ub-line``, ``twin``, ``fixes`` and ``fixed-line`` read
    back from their metadata; a twin that is not stored, or has UB itself, is no twin (as
    when the corpus loads), and a program a case names as its twin fixes that case."""
    by_id = {c.id: c for c in cases}
    marks = {}
    for c in cases:
        lines, twin = stored_marks(c.id, c.meta)
        if twin and (twin not in by_id or by_id[twin].ub is not False):
            twin = ""
        marks[c.id] = lines, twin
    fixed_by = {twin: cid for cid, (_, twin) in marks.items() if twin}
    return [CaseFacts(c.id, c.category, c.ub, marks[c.id][0], marks[c.id][1],
                      fixes=fixed_by.get(c.id) or str(c.meta.get("fixes", "")),
                      fixed_lines=stored_lines(c.meta, "fixed-line"))
            for c in cases]


@dataclass
class ToolProblem:
    """Runs of one tool and version that did not work, with one of their reasons."""

    version: str
    tool: str
    status: str              # RunStatus value
    runs: int
    why: str                 # the first run's line


@dataclass
class Scores:
    versions: list[str]
    cases: int               # UB cases scored
    twins: int               # their twins present
    detectors: list[DetectorScore]
    per_case: list[CaseDetections]
    problems: list[ToolProblem]
    notes: list[str] = field(default_factory=list)
    controls: int = 0        # controls present (``ub: no``, fixing no case)
    #: per control, the detectors that falsely claimed UB on it or reported it unrelatedly
    per_control: list[CaseDetections] = field(default_factory=list)

    def detector(self, name: str, version: str) -> DetectorScore | None:
        return next((d for d in self.detectors if d.detector == name and d.version == version), None)

    def case(self, case_id: str) -> CaseDetections | None:
        return next((c for c in self.per_case if c.case_id == case_id), None)


def of_stored(data: "StoredResults") -> Scores | None:
    """The scores of a corpus's stored runs (None: no detector ran on it)."""
    if not data.detector_runs:
        return None
    return score(stored_facts(data.cases), data.detector_runs)


@dataclass
class WarningScores:
    """The warning options' scores on one corpus (``warnscope advise``'s catches, read
    through :func:`analyzer.ub.detectors.store.warning_scores`)."""

    corpus: str
    #: the compiler versions whose warnings ran on the corpus
    versions: list[str]
    #: the scores of the detectors of kind warning
    detectors: list[DetectorScore]
    #: per family ('gcc', 'clang'), the warning flags the warnings runs passed
    flags: dict[str, list[str]]


def stored_case(data: "StoredResults", case_id: str, scores: Scores | None = None
                ) -> CaseDetections | None:
    """One case's detections from the stored runs (None: none of its tools ran on it)."""
    scores = scores if scores is not None else of_stored(data)
    found = scores.case(case_id) if scores is not None else None
    return found if found is not None and found.versions else None


def controls_of(cases: Sequence[Case | CaseFacts]) -> list[Case | CaseFacts]:
    """The controls among ``cases``: programs marked ``ub: no`` that fix no case (the
    corpus's ``control/``, a user's own clean programs)."""
    twins = {c.twin for c in cases if c.ub and c.twin}
    return [c for c in cases if c.ub is False and not c.fixes and c.id not in twins]


def _fixed_lines(twin: Case | CaseFacts | None) -> tuple[int, ...]:
    """A twin's ``fixed-line``s (none when the twin is not among the cases scored)."""
    return twin.fixed_lines if twin is not None else ()


def score(cases: Sequence[Case | CaseFacts], runs: list[ToolRun], notes: list[str] = ()) -> Scores:
    """The scores of ``runs`` over ``cases`` (see the module)."""
    by_id = {c.id: c for c in cases}
    ub_cases = [c for c in cases if c.ub]
    controls = controls_of(cases)
    # (version, tool) -> case id -> findings of the runs that worked (warnings: all levels)
    ok: dict[tuple[str, str], dict[str, list]] = defaultdict(dict)
    failed: dict[tuple[str, str, str], list[ToolRun]] = defaultdict(list)
    for r in runs:
        key = (r.version, r.tool.value)
        if r.status is RunStatus.OK:
            ok[key].setdefault(r.case_id, []).extend(r.findings)
        else:
            failed[(r.version, r.tool.value, r.status.value)].append(r)
    # a case is scored for a tool only if every level of it worked
    for (version, tool, _), bad in failed.items():
        for r in bad:
            ok[(version, tool)].pop(r.case_id, None)
    detectors: list[DetectorScore] = []
    per_case: dict[str, list[Detection]] = defaultdict(list)
    for (version, tool), found in sorted(ok.items()):
        names = sorted({(f.detector, f.kind) for fs in found.values() for f in fs},
                       key=lambda nk: nk[0])
        ran_cases = [c for c in ub_cases if c.id in found]
        ran_twins = [c for c in ran_cases if c.twin and c.twin in found]
        ran_controls = [c for c in controls if c.id in found]
        for name, kind in names:
            s = DetectorScore(name, kind.value, tool, version, [], [], [],
                              cases=len(ran_cases), twins=len(ran_twins),
                              controls=len(ran_controls))
            per_cat: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
            for case in ran_cases:
                on_case = [f for f in found[case.id] if f.detector == name]
                twin_ran = bool(case.twin) and case.twin in found
                on_twin = [f for f in found[case.twin] if f.detector == name] if twin_ran else None
                v = judge(kind, case.ub_lines or tuple(f.line for f in on_case), on_case, on_twin,
                          _fixed_lines(by_id.get(case.twin)) if twin_ran else (), case.category)
                cat = per_cat[case.category]
                cat[1] += 1
                cat[3] += twin_ran
                if v.caught:
                    s.caught.append(case.id)
                    cat[0] += 1
                    per_case[case.id].append(Detection(version, name, kind.value, Catch.CAUGHT, v.lines))
                elif v.elsewhere:
                    s.elsewhere.append(case.id)
                    per_case[case.id].append(Detection(version, name, kind.value, Catch.ELSEWHERE, v.lines))
                if v.false_alarm:
                    s.false_alarms.append(case.twin)
                    cat[2] += 1
                    per_case[case.id].append(Detection(version, name, kind.value, Catch.FALSE_ALARM,
                                                       v.twin_lines))
                elif v.unrelated:
                    s.unrelated.append(case.twin)
                    cat[4] += 1
                    per_case[case.id].append(Detection(version, name, kind.value, Catch.UNRELATED,
                                                       v.twin_lines))
            for control in ran_controls:
                on_control = [f for f in found[control.id] if f.detector == name]
                alarm, unrelated = judge_control(on_control)
                lines = sorted({f.line for f in on_control if f.line is not None})
                if alarm:
                    s.control_alarms.append(control.id)
                    per_case[control.id].append(Detection(version, name, kind.value,
                                                          Catch.FALSE_ALARM, lines))
                elif unrelated:
                    s.unrelated.append(control.id)
                    per_case[control.id].append(Detection(version, name, kind.value,
                                                          Catch.UNRELATED, lines))
            s.categories = [CategoryScore(c, *n) for c, n in sorted(per_cat.items())
                            if n[0] or n[2] or n[4]]
            detectors.append(s)
    detectors.sort(key=lambda d: (version_key(d.version), -len(d.caught), d.alarms, d.detector))
    problems = [ToolProblem(v, t, st, len(rs), rs[0].why()) for (v, t, st), rs in sorted(failed.items())]
    versions = sorted({r.version for r in runs}, key=version_key)
    notes = list(notes)
    unmarked = [c.twin for c in ub_cases if c.twin and c.twin in by_id and not _fixed_lines(by_id[c.twin])]
    if unmarked:
        notes.append(f"{len(unmarked)} fixed twin{'s' * (len(unmarked) != 1)} without fixed-line "
                     f"({', '.join(unmarked[:3])}{' …' if len(unmarked) > 3 else ''}): a false alarm "
                     "there is a report of its case's UB category only")

    def detections(c) -> CaseDetections:
        return CaseDetections(c.id, c.category, list(c.ub_lines), c.twin, per_case.get(c.id, []),
                              sorted({v for (v, _tool), found in ok.items() if c.id in found},
                                     key=version_key))
    return Scores(versions=versions, cases=len(ub_cases),
                  twins=sum(1 for c in ub_cases if c.twin and c.twin in by_id),
                  detectors=detectors, per_case=[detections(c) for c in ub_cases],
                  problems=problems, notes=notes, controls=len(controls),
                  per_control=[detections(c) for c in controls])


def version_key(version: str) -> tuple:
    family, _, major = version.rpartition("-")
    return (family, int(major) if major.isdigit() else 0, major)


# --- text and JSON ------------------------------------------------------------------------

def _programs(scores: Scores) -> str:
    """'110 cases with UB, 110 fixed twins and 5 controls'."""
    def n(count: int, word: str) -> str:
        return f"{count} {word}{'s' * (count != 1)}"
    parts = [n(scores.cases, "case") + " with UB", n(scores.twins, "fixed twin")]
    if scores.controls:
        parts.append(n(scores.controls, "control"))
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def render(scores: Scores, categories: bool = False) -> str:
    """The scores as text: per version, each detector that reported anything, its catches
    out of the cases its tool ran on, its false alarms out of the twins and controls, and
    the twins and controls it reported only unrelated findings on; then the tools that did
    not run and why. ``categories``: each detector's categories too."""
    out = [f"Detectors on {_programs(scores)} ({', '.join(scores.versions) or 'no compiler'})"]
    if not scores.detectors:
        out.append("  no detector reported anything")
    width = max([len(d.detector) for d in scores.detectors] + [8])
    for version in scores.versions:
        rows = [d for d in scores.detectors if d.version == version]
        if not rows:
            continue
        out += ["", version,
                f"  {'detector':<{width}}  {'kind':<9}  {'caught':>7}  {'elsewhere':>9}  "
                f"{'false alarms':>12}  {'unrelated':>9}"]
        for d in rows:
            out.append(f"  {d.detector:<{width}}  {d.kind:<9}  {len(d.caught):>3}/{d.cases:<3}  "
                       f"{len(d.elsewhere):>9}  {d.alarms:>6}/{d.clean:<5}  {len(d.unrelated):>9}")
            if categories and d.categories:
                out.append("      " + ", ".join(
                    f"{c.category} {c.caught}/{c.cases}" + (f" ({c.false_alarms} false)" if c.false_alarms else "")
                    for c in d.categories if c.caught or c.false_alarms))
    if scores.problems:
        out += ["", "Tools that did not run on every program:"]
        out += [f"  {p.version} {p.tool}: {p.status} on {p.runs} program{'s' if p.runs != 1 else ''}"
                f" -- {p.why}" for p in scores.problems]
    out += [f"note: {n}" for n in scores.notes]
    return "\n".join(out)


def render_case(case: CaseDetections) -> str:
    """One case's detections, for ``ub report``: who caught it, who reported elsewhere,
    who raised a false alarm on its twin, who reported only unrelated findings there."""
    out = [f"{case.case_id} (ub-line {', '.join(map(str, case.ub_lines)) or 'not marked'}; "
           f"twin {case.twin or 'none'})"]
    if not case.detections:
        out.append("  no detector reported it")
    for verdict, label in ((Catch.CAUGHT, "caught by"), (Catch.ELSEWHERE, "reported elsewhere by"),
                           (Catch.FALSE_ALARM, "false alarm on the twin by"),
                           (Catch.UNRELATED, "unrelated on the twin (not a false alarm) by")):
        hits = [d for d in case.detections if d.verdict == verdict]
        if hits:
            out.append(f"  {label}: " + ", ".join(
                f"{d.detector} ({d.version}" + (f", line {', '.join(map(str, d.lines))}" if d.lines else "")
                + ")" for d in hits))
    return "\n".join(out)


#: a case's verdicts as ``ub report`` and ``ub explain`` say them, in this order
CASE_LABELS = ((Catch.CAUGHT, "caught at its ub-line"), (Catch.ELSEWHERE, "fired elsewhere"),
               (Catch.FALSE_ALARM, "false alarm on its twin"),
               (Catch.UNRELATED, "unrelated on its twin"))


def render_versions(case: CaseDetections) -> list[str]:
    """One case's detectors per version, for ``ub report`` and ``ub explain``: a head
    line, then per version that ran the detectors that caught the case at its ub-line,
    fired elsewhere in it, falsely claimed on its twin, or reported only unrelated findings
    there (each with its lines)."""
    out = [f"detectors (ub-line {', '.join(map(str, case.ub_lines)) or 'not marked'}; "
           f"twin {case.twin or 'none'}):"]
    if not case.versions:
        out.append("  no detector ran on it: warnscope ub detectors --case " + case.case_id)
    width = max([len(v) for v in case.versions] + [8])
    for version in case.versions:
        mine = [d for d in case.detections if d.version == version]
        parts = []
        for verdict, label in CASE_LABELS:
            hits = [d for d in mine if d.verdict == verdict]
            if hits:
                parts.append(f"{label}: " + ", ".join(
                    d.detector + (f" ({', '.join(map(str, d.lines))})" if d.lines else "")
                    for d in hits))
        out.append(f"  {version:<{width}}  " + ("; ".join(parts) or "nothing reported"))
    return out


def as_json(scores: Scores) -> dict:
    """The ``--json`` shape: the dataclasses as they are."""
    return asdict(scores)


def render_report(report: "Report", categories: bool = False, **_options) -> str:
    """``ub detectors``' text: the scores, each asked case's detail, the runs' count."""
    scores = report.detected.scores
    parts = [render(scores, categories=categories)]
    for case_id in report.case_ids:
        detail = scores.case(case_id)
        if detail is not None:
            parts.append("\n" + render_case(detail))
    parts.append(f"\n{report.detected.ran + report.detected.stored} tool runs: {report.detected.ran} run "
                 f"now, {report.detected.stored} read from the database")
    return "\n".join(parts)


def render_json(report: "Report", **_options) -> str:
    """``ub detectors --json``: the scores' JSON shape (:func:`as_json`)."""
    from warnscope.serial import to_json
    return to_json(as_json(report.detected.scores))
