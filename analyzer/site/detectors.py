"""The detectors' pages of the site: per corpus, a category x detector matrix per compiler
version, and a page per detector with its catches, false alarms and unrelated reports
across versions.

Everything is read from the stored runs of ``ub detectors`` (``ub_detector_run``) and
scored as ``ub detectors --json`` scores them (:mod:`analyzer.ub.detectors.scores`), whose object
is written beside the matrix. No tool runs for a page.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from analyzer.site import charts
from analyzer.site.charts import Chart
from analyzer.site.slugs import path_slug, slug_map, unique_slug
from analyzer.ub.detectors import scores as ub_scores
from analyzer.ub import store as ub_store
from analyzer.ub.detectors.detectors import RunStatus
from analyzer.ub.detectors.scores import Catch, DetectorScore, Scores
from analyzer.ub.results import CorpusKind, corpus_content, corpus_kind

if TYPE_CHECKING:
    from analyzer.site.pages import SiteBuild


@dataclass
class VersionRow:
    """One version on a detector's page: its score (None: its tool ran there and the
    detector reported nothing), and the programs its tool ran on."""

    version: str
    score: DetectorScore | None
    cases: int
    twins: int
    controls: int = 0

    @property
    def clean(self) -> int:
        """The programs without UB its tool ran on (twins and controls)."""
        return self.twins + self.controls


@dataclass
class CaseRow:
    """One case (or control) on a detector's page: the verdict per version ('' where it
    ran and stayed silent; None where its tool did not run on the case)."""

    case: str
    verdicts: dict[str, str | None]


@dataclass
class DetectorPage:
    name: str
    kind: str
    rows: list[VersionRow]
    cases: list[CaseRow]


@dataclass
class DetectorsView:
    """One corpus's detector pages."""

    corpus: str
    stem: str
    scores: Scores
    categories: list[str]
    #: detector name -> page slug
    slugs: dict[str, str] = field(default_factory=dict)
    pages: list[DetectorPage] = field(default_factory=list)
    #: which corpus it is, as the UB pages name it (``corpus_named`` of _outcome.html)
    kind: CorpusKind = CorpusKind.USER
    content: str = ""


def load(conn, stems: dict[str, str]) -> list[DetectorsView]:
    """Every corpus with detector runs, most recently run first (``stems``: the page
    names of the UB corpora, which the detectors' pages share where they can)."""
    views = []
    taken = set(stems.values())
    for corpus in ub_store.detector_corpora(conn):
        stored = ub_store.detector_runs(conn, corpus)
        runs = [run for _, run in stored.values()]
        infos = ub_store.case_infos(conn, corpus)
        facts = ub_scores.stored_facts(infos)
        scores = ub_scores.score(facts, runs)
        stem = stems.get(corpus) or _stem(corpus, taken)
        view = DetectorsView(corpus, stem, scores,
                             categories=sorted({f.category for f in facts if f.ub}),
                             kind=corpus_kind(corpus), content=corpus_content(infos))
        view.slugs = slug_map({d.detector for d in scores.detectors}, reserved={"index"})
        # (version, tool) -> the case ids its runs worked on
        ran: dict[tuple[str, str], set[str]] = {}
        for r in runs:
            if r.status is RunStatus.OK:
                ran.setdefault((r.version, r.tool.value), set()).add(r.case_id)
        view.pages = [_page(name, scores, ran) for name in sorted(view.slugs)]
        views.append(view)
    return views


def _stem(corpus: str, taken: set[str]) -> str:
    """The page name of a corpus with detector runs and no UB cells."""
    return unique_slug(path_slug(corpus), corpus, taken)


def _page(name: str, scores: Scores, ran: dict[tuple[str, str], set[str]]) -> DetectorPage:
    mine = [d for d in scores.detectors if d.detector == name]
    tools = {d.tool for d in mine}
    versions = [v for v in scores.versions if any((v, t) in ran for t in tools)]
    by_version = {d.version: d for d in mine}
    rows = []
    for v in versions:
        d = by_version.get(v)
        programs = set().union(*(ran.get((v, t), set()) for t in tools))
        ub_cases = [c for c in scores.per_case if c.case_id in programs]
        rows.append(VersionRow(v, d, d.cases if d else len(ub_cases),
                               d.twins if d else sum(1 for c in ub_cases if c.twin in programs),
                               d.controls if d else sum(1 for c in scores.per_control
                                                        if c.case_id in programs)))
    cases = []
    for c in scores.per_case + scores.per_control:
        hits = [x for x in c.detections if x.detector == name]
        if not hits:
            continue
        verdicts: dict[str, str | None] = {}
        for v in versions:
            programs = set().union(*(ran.get((v, t), set()) for t in tools))
            said = [x.verdict for x in hits if x.version == v]
            verdicts[v] = ", ".join(said) if said else ("" if c.case_id in programs else None)
        cases.append(CaseRow(c.case_id, verdicts))
    return DetectorPage(name, mine[0].kind, rows, cases)


def detector_pages(b: SiteBuild, stems: dict[str, str]) -> list[DetectorsView]:
    """Per corpus with detector runs: the matrix page (with its JSON) and a page per
    detector; the views, for the UB index to link."""
    views = load(b.conn, stems)
    for view in views:
        base = f"ub/detectors/{view.stem}"
        cells = {(d.version, d.detector, c.category): c
                 for d in view.scores.detectors for c in d.categories}
        drawn = {}
        for i, version in enumerate(view.scores.versions):
            chart = catch_chart([d for d in view.scores.detectors if d.version == version])
            if chart is not None:
                drawn[version] = (f"{view.stem}.{i}.svg", chart)
                b.writer.write(f"ub/detectors/{view.stem}.{i}.svg", chart.svg)
        b.page(f"{base}.html", "ub_detectors.html", view=view, cells=cells, charts=drawn,
               verdicts=(Catch.CAUGHT, Catch.ELSEWHERE, Catch.FALSE_ALARM, Catch.UNRELATED))
        b.json(f"{base}.json", ub_scores.as_json(view.scores))
        for page in view.pages:
            b.page(f"{base}/{view.slugs[page.name]}.html", "ub_detector.html", view=view,
                   page=page)
    return views



def catch_chart(scores: list[DetectorScore]) -> Chart | None:
    """One version's detectors as points: the share of the UB cases each caught against
    the share of the programs without UB it falsely claimed UB on (the ITC and Juliet
    scores); a detector whose tool ran on no case or on no clean program is left out."""
    return charts.scatter([charts.Point(d.detector, d.alarms / d.clean if d.clean else float("nan"),
                                        len(d.caught) / d.cases if d.cases else float("nan"),
                                        len(d.caught)) for d in scores],
                          "false alarms, % of the programs without UB", "caught, % of the UB cases")
