"""Scores per detector and compiler version: what it catches, what it falsely claims.

:func:`score` reads the :class:`~analyzer.ub.detectors.ToolRun`s of a corpus (each tool
on each UB case and on each case's fixed twin) and says, per detector and version:

* **caught**: UB cases it reports at their ``ub-line`` (a sanitizer: at run time);
* **elsewhere**: UB cases it reports, but on other lines (neither a catch nor a false alarm);
* **false alarms**: fixed twins it reports anything on;

out of the cases and twins its tool ran on (a run that failed counts in neither), and the
same per UB category. A case without a twin (a foreign corpus) counts for catches only; a
case without ``ub-line`` is caught by any report. Runs that did not work are listed as
problems, one line each, never scored as "caught nothing". :func:`render` is the text,
:func:`as_json` the ``--json`` shape (the dataclasses as they are).

The cases are the corpus's (:class:`~analyzer.ub.corpus.Case`) when the tools have just
run, or :class:`CaseFacts` read back from the database (:func:`stored_facts`) when the
runs are the stored ones (``ub report``, ``ub explain``, the site).
:func:`latest_warnings` is what ``warnscope advise`` reads of them: the warning options'
scores on the corpus whose detectors ran most recently.
"""
from __future__ import annotations

import sqlite3
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Sequence

from analyzer.ub.corpus import Case, stored_marks
from analyzer.ub.detectors import Kind, RunStatus, ToolRun, judge

if TYPE_CHECKING:
    from analyzer.ub.results import CaseInfo, StoredResults


class Verdict:
    """What one detector's reports on one case mean (strings: they go to JSON as they are)."""

    CAUGHT = "caught"
    ELSEWHERE = "elsewhere"
    FALSE_ALARM = "false-alarm"


@dataclass
class CategoryScore:
    category: str
    caught: int
    cases: int
    false_alarms: int
    twins: int


@dataclass
class DetectorScore:
    detector: str            # '-Wanalyzer-null-dereference', 'ubsan:signed-integer-overflow'
    kind: str                # 'warning' | 'sanitizer' | 'analyzer'
    tool: str                # 'warnings', 'gcc-analyzer', ...
    version: str             # 'gcc-12'; 'cppcheck-2.10'
    caught: list[str]        # case ids
    elsewhere: list[str]
    false_alarms: list[str]  # twin ids
    cases: int               # UB cases its tool ran on
    twins: int               # twins its tool ran on
    categories: list[CategoryScore] = field(default_factory=list)


@dataclass
class Detection:
    """One detector's verdict on one case (or its twin)."""

    version: str
    detector: str
    kind: str
    verdict: str             # Verdict.*
    lines: list[int]         # where it reported (on the case, or on the twin for a false alarm)


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


def stored_facts(cases: Sequence["CaseInfo"]) -> list[CaseFacts]:
    """The facts of stored cases: ``ub-line`` and ``twin`` read back from their metadata;
    a twin that is not stored, or has UB itself, is no twin (as when the corpus loads)."""
    by_id = {c.id: c for c in cases}
    out = []
    for c in cases:
        lines, twin = stored_marks(c.id, c.meta)
        if twin and (twin not in by_id or by_id[twin].ub is not False):
            twin = ""
        out.append(CaseFacts(c.id, c.category, c.ub, lines, twin))
    return out


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
    """The warning options' scores on one corpus (``warnscope advise``'s catches: its
    caller hands them in, a family imports no other)."""

    corpus: str
    #: the compiler versions whose warnings ran on the corpus
    versions: list[str]
    #: the scores of the detectors of kind warning
    detectors: list[DetectorScore]
    #: per family ('gcc', 'clang'), the warning flags the warnings runs passed
    flags: dict[str, list[str]]


def latest_warnings(conn: sqlite3.Connection) -> WarningScores | None:
    """The warning options' scores on the corpus whose detectors ran most recently, from
    the stored runs (None: no detector ran in this database)."""
    from analyzer.ub import store as ub_store
    from analyzer.ub.analyzers import warning_flags
    from analyzer.ub.detectors import Tool

    corpora = ub_store.detector_corpora(conn)
    if not corpora:
        return None
    runs = [run for _, run in ub_store.detector_runs(conn, corpora[0]).values()]
    scores = score(stored_facts(ub_store.case_infos(conn, corpora[0])), runs)
    return WarningScores(corpora[0],
                         sorted({r.version for r in runs if r.tool is Tool.WARNINGS and r.ok},
                                key=_version_key),
                         [d for d in scores.detectors if d.kind == Kind.WARNING.value],
                         warning_flags())


def stored_case(data: "StoredResults", case_id: str, scores: Scores | None = None
                ) -> CaseDetections | None:
    """One case's detections from the stored runs (None: none of its tools ran on it)."""
    scores = scores if scores is not None else of_stored(data)
    found = scores.case(case_id) if scores is not None else None
    return found if found is not None and found.versions else None


def score(cases: Sequence[Case | CaseFacts], runs: list[ToolRun], notes: list[str] = ()) -> Scores:
    """The scores of ``runs`` over ``cases`` (see the module)."""
    by_id = {c.id: c for c in cases}
    ub_cases = [c for c in cases if c.ub]
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
        for name, kind in names:
            s = DetectorScore(name, kind.value, tool, version, [], [], [],
                              cases=len(ran_cases), twins=len(ran_twins))
            per_cat: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
            for case in ran_cases:
                on_case = [f for f in found[case.id] if f.detector == name]
                twin_ran = bool(case.twin) and case.twin in found
                on_twin = [f for f in found[case.twin] if f.detector == name] if twin_ran else None
                v = judge(kind, case.ub_lines or tuple(f.line for f in on_case), on_case, on_twin)
                cat = per_cat[case.category]
                cat[1] += 1
                cat[3] += twin_ran
                if v.caught:
                    s.caught.append(case.id)
                    cat[0] += 1
                    per_case[case.id].append(Detection(version, name, kind.value, Verdict.CAUGHT, v.lines))
                elif v.elsewhere:
                    s.elsewhere.append(case.id)
                    per_case[case.id].append(Detection(version, name, kind.value, Verdict.ELSEWHERE, v.lines))
                if v.false_alarm:
                    s.false_alarms.append(case.twin)
                    cat[2] += 1
                    per_case[case.id].append(Detection(
                        version, name, kind.value, Verdict.FALSE_ALARM,
                        sorted({f.line for f in on_twin or [] if f.line is not None})))
            s.categories = [CategoryScore(c, *n) for c, n in sorted(per_cat.items()) if n[0] or n[2]]
            detectors.append(s)
    detectors.sort(key=lambda d: (_version_key(d.version), -len(d.caught), len(d.false_alarms), d.detector))
    problems = [ToolProblem(v, t, st, len(rs), rs[0].why()) for (v, t, st), rs in sorted(failed.items())]
    versions = sorted({r.version for r in runs}, key=_version_key)
    return Scores(versions=versions, cases=len(ub_cases),
                  twins=sum(1 for c in ub_cases if c.twin and c.twin in by_id),
                  detectors=detectors,
                  per_case=[CaseDetections(c.id, c.category, list(c.ub_lines), c.twin,
                                           per_case.get(c.id, []),
                                           sorted({v for (v, _tool), found in ok.items() if c.id in found},
                                                  key=_version_key))
                            for c in ub_cases],
                  problems=problems, notes=list(notes))


def _version_key(version: str) -> tuple:
    family, _, major = version.rpartition("-")
    return (family, int(major) if major.isdigit() else 0, major)


# --- text and JSON ------------------------------------------------------------------------

def render(scores: Scores, categories: bool = False) -> str:
    """The scores as text: per version, each detector that reported anything, its catches
    out of the cases its tool ran on and its false alarms out of the twins; then the
    tools that did not run and why. ``categories``: each detector's categories too."""
    out = [f"Detectors on {scores.cases} case{'s' * (scores.cases != 1)} with UB and {scores.twins} "
           f"fixed twin{'s' * (scores.twins != 1)} ({', '.join(scores.versions) or 'no compiler'})"]
    if not scores.detectors:
        out.append("  no detector reported anything")
    width = max([len(d.detector) for d in scores.detectors] + [8])
    for version in scores.versions:
        rows = [d for d in scores.detectors if d.version == version]
        if not rows:
            continue
        out += ["", version,
                f"  {'detector':<{width}}  {'kind':<9}  {'caught':>7}  {'elsewhere':>9}  "
                f"{'false alarms':>12}"]
        for d in rows:
            out.append(f"  {d.detector:<{width}}  {d.kind:<9}  {len(d.caught):>3}/{d.cases:<3}  "
                       f"{len(d.elsewhere):>9}  {len(d.false_alarms):>6}/{d.twins}")
            if categories and d.categories:
                out.append("      " + ", ".join(
                    f"{c.category} {c.caught}/{c.cases}" + (f" ({c.false_alarms} false)" if c.false_alarms else "")
                    for c in d.categories))
    if scores.problems:
        out += ["", "Tools that did not run on every program:"]
        out += [f"  {p.version} {p.tool}: {p.status} on {p.runs} program{'s' if p.runs != 1 else ''}"
                f" -- {p.why}" for p in scores.problems]
    out += [f"note: {n}" for n in scores.notes]
    return "\n".join(out)


def render_case(case: CaseDetections) -> str:
    """One case's detections, for ``ub report``: who caught it, who reported elsewhere,
    who raised a false alarm on its twin."""
    out = [f"{case.case_id} (ub-line {', '.join(map(str, case.ub_lines)) or 'not marked'}; "
           f"twin {case.twin or 'none'})"]
    if not case.detections:
        out.append("  no detector reported it")
    for verdict, label in ((Verdict.CAUGHT, "caught by"), (Verdict.ELSEWHERE, "reported elsewhere by"),
                           (Verdict.FALSE_ALARM, "false alarm on the twin by")):
        hits = [d for d in case.detections if d.verdict == verdict]
        if hits:
            out.append(f"  {label}: " + ", ".join(
                f"{d.detector} ({d.version}" + (f", line {', '.join(map(str, d.lines))}" if d.lines else "")
                + ")" for d in hits))
    return "\n".join(out)


#: a case's verdicts as ``ub report`` and ``ub explain`` say them, in this order
CASE_LABELS = ((Verdict.CAUGHT, "caught at its ub-line"), (Verdict.ELSEWHERE, "fired elsewhere"),
               (Verdict.FALSE_ALARM, "false alarm on its twin"))


def render_versions(case: CaseDetections) -> list[str]:
    """One case's detectors per version, for ``ub report`` and ``ub explain``: a head
    line, then per version that ran the detectors that caught the case at its ub-line,
    fired elsewhere in it, or falsely claimed on its twin (each with its lines)."""
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
