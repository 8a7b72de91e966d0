"""``ub detectors --format sarif``: the detectors' findings on the corpus as SARIF 2.1.0,
built with the shared pieces of :mod:`warnscope.sarif` from the :class:`~.scores.Scores`
the text renderer reads.

One run per compiler version and tool (``gcc-12`` ``sanitizers``, ``cppcheck-2.10``
``cppcheck``), each with its category ``warnscope/ub-detectors/VERSION/TOOL/`` (a tool that
ran and reported nothing is an empty run: it ran clean), and per detection one result:
``ruleId`` the detector (``-Wdiv-by-zero``, ``ubsan:signed-integer-overflow``,
``core.DivideZero``), located in the program it reported on, its file relative to the
corpus (``SRCROOT``), at the first line it reported (the others as related locations). The
verdict is the scores' (see :mod:`analyzer.ub.detectors.scores`), in ``properties.verdict`` and in
SARIF's own words:

* ``caught``: the UB case reported at its ``ub-line``: ``kind: fail``, level warning;
* ``elsewhere``: the UB case reported on other lines: ``kind: review`` (level none);
* ``false-alarm``: a claim of the UB on the case's fixed twin, or on a control:
  ``kind: fail``, level note, located in the twin or control;
* ``unrelated``: a finding on a twin or control that claims no UB of its case:
  ``kind: informational`` (level none).

A tool that did not run on every program says so as a warning notification of its run's
invocation, one line as the text says it; each detector's counts (caught of the cases its
tool ran on, false alarms of the programs without UB) are in the run's ``properties``.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Sequence

from warnscope import sarif
from warnscope.render import Rendered, sarif_log

from analyzer.ub.corpus import Case
from analyzer.ub.detectors.scores import CaseDetections, Catch, Detection, Scores

if TYPE_CHECKING:
    from analyzer.ub.detectors.detect import Report

#: a verdict as SARIF's kind and level
SHAPES = {Catch.CAUGHT: ("fail", "warning"), Catch.ELSEWHERE: ("review", "none"),
          Catch.FALSE_ALARM: ("fail", "note"), Catch.UNRELATED: ("informational", "none")}
KIND_WORDS = {"warning": "warning option", "sanitizer": "sanitizer check", "analyzer": "analyzer checker"}


def files_of(cases: Sequence[Case], root: str | Path) -> dict[str, str]:
    """Each program's file relative to the corpus ``root`` (as the corpus was given, or
    its real path), by case id."""
    bases = [Path(root), Path(os.path.realpath(root))]
    out = {}
    for c in cases:
        for base in bases:
            try:
                out[c.id] = c.path.relative_to(base).as_posix()
                break
            except ValueError:
                continue
        else:
            out[c.id] = c.id + c.path.suffix
    return out


def _lines(lines: Sequence[int]) -> str:
    return ", ".join(map(str, lines))


def _message(d: Detection, c: CaseDetections, control: bool) -> str:
    who = f"{d.detector} ({d.version})"
    at = f" at line {_lines(d.lines)}" if d.lines else ""
    if control:
        if d.verdict == Catch.FALSE_ALARM:
            return f"{who} claims undefined behaviour in {c.case_id}, a control without it{at}: a false alarm"
        return f"{who} reports {c.case_id}, a control without undefined behaviour{at}: no claim of it (unrelated)"
    ub = f"ub-line {_lines(c.ub_lines)}" if c.ub_lines else "no ub-line marked"
    if d.verdict == Catch.CAUGHT:
        return f"{who} reports the {c.category} undefined behaviour of {c.case_id}{at} ({ub}): caught"
    if d.verdict == Catch.ELSEWHERE:
        return f"{who} reports {c.case_id}{at}, not at its {ub}: elsewhere"
    if d.verdict == Catch.FALSE_ALARM:
        return (f"{who} claims {c.category} undefined behaviour in {c.twin}, the fixed twin of "
                f"{c.case_id} that has none{at}: a false alarm")
    return (f"{who} reports {c.twin}, the fixed twin of {c.case_id}{at}, with no claim of "
            f"{c.category} undefined behaviour: unrelated")


def detection_result(d: Detection, c: CaseDetections, files: dict[str, str], tool: str,
                     control: bool = False) -> dict:
    """One detection as a result, in the program it was reported on: the case (caught,
    elsewhere), its twin (false alarm, unrelated), or the control."""
    on = c.case_id if control or d.verdict in (Catch.CAUGHT, Catch.ELSEWHERE) else c.twin
    kind, level = SHAPES[d.verdict]
    path = files.get(on)
    locations, related = [], []
    if path is not None:
        lines = d.lines or [None]
        locations = [sarif.location(path, lines[0])]
        related = [sarif.location(path, n, message=f"{d.detector} here too") for n in lines[1:]]
    props = {"verdict": d.verdict, "detector": d.detector, "detectorKind": d.kind,
             "version": d.version, "tool": tool, "program": on, "case": c.case_id,
             "category": c.category}
    if not control:
        props["ubLines"] = c.ub_lines
        if c.twin:
            props["twin"] = c.twin
    return sarif.result(d.detector, level, _message(d, c, control), locations, kind=kind,
                        related=related, properties=props)


def detectors_log(scores: Scores, files: dict[str, str], corpus: str | None = None,
                  ran: Iterable[tuple[str, str]] = ()) -> dict:
    """The SARIF log of ``scores``: a run per (version, tool) that reported, failed, or is
    in ``ran`` (the pairs the command ran: one that reported nothing is an empty run);
    ``files`` each program's file relative to ``corpus`` (:func:`files_of`)."""
    tools = {(s.version, s.detector): s.tool for s in scores.detectors}
    pairs = {*ran, *((s.version, s.tool) for s in scores.detectors),
             *((p.version, p.tool) for p in scores.problems)}
    results: dict[tuple[str, str], list[dict]] = {pair: [] for pair in pairs}
    for group, control in ((scores.per_case, False), (scores.per_control, True)):
        for c in group:
            for d in c.detections:
                tool = tools.get((d.version, d.detector), "")
                results.setdefault((d.version, tool), []).append(
                    detection_result(d, c, files, tool, control))
    order = {v: i for i, v in enumerate(scores.versions)}   # the scores' order of versions
    runs = []
    for version, tool in sorted(results, key=lambda p: (order.get(p[0], len(order)), p[0], p[1])):
        mine = [s for s in scores.detectors if (s.version, s.tool) == (version, tool)]
        rules = {s.detector: f"{KIND_WORDS.get(s.kind, s.kind)} {s.detector} ({version}, {tool})"
                 for s in mine}
        notes = [sarif.notification(f"{p.tool} {p.status} on {p.runs} program{'s' * (p.runs != 1)}: "
                                    f"{p.why}", "warning")
                 for p in scores.problems if (p.version, p.tool) == (version, tool)]
        notes += [sarif.notification(n) for n in scores.notes]
        props = {"version": version, "tool": tool, "cases": scores.cases, "twins": scores.twins,
                 "controls": scores.controls,
                 "detectors": {s.detector: {"kind": s.kind, "caught": len(s.caught), "cases": s.cases,
                                            "elsewhere": len(s.elsewhere), "falseAlarms": s.alarms,
                                            "clean": s.clean, "unrelated": len(s.unrelated)}
                               for s in mine}}
        runs.append(sarif.run(f"warnscope/ub-detectors/{version}/{tool}/", results[(version, tool)],
                              rules, src_root=corpus, src_description="the UB corpus",
                              properties=props, notes=notes))
    return sarif.log(runs)


def render_report(report: "Report", **_options) -> Rendered:
    """``ub detectors --format sarif``: :func:`detectors_log` of the run."""
    return sarif_log(detectors_log(report.detected.scores, report.files, report.corpus, report.asked))
