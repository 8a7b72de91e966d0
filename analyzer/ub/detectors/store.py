"""The detectors' store API: what another family reads of ``ub detectors``' stored runs
(the advice: what each warning option caught on the corpus).

The runs are stored and read by the UB store (:mod:`analyzer.ub.store`, the family's
SQL); their scores are the detectors' (:mod:`analyzer.ub.detectors.scores`). This module
runs no SQL of its own, and importing it loads neither the runner nor the sandbox
(tests/unit/test_import_cycles.py).
"""
from __future__ import annotations

import sqlite3

from analyzer.ub import store as ub_store
from analyzer.ub.detectors.scores import WarningScores, score, stored_facts, version_key
from analyzer.ub.results import Kind, Tool
from analyzer.ub.warnflags import warning_flags

__all__ = ["WarningScores", "warning_scores"]


def warning_scores(conn: sqlite3.Connection) -> WarningScores | None:
    """The scores ``ub detectors`` gives the warning options on the corpus whose detectors
    ran most recently, from the stored runs (None: no detector ran in this database)."""
    corpora = ub_store.detector_corpora(conn)
    if not corpora:
        return None
    runs = [run for _, run in ub_store.detector_runs(conn, corpora[0]).values()]
    scores = score(stored_facts(ub_store.case_infos(conn, corpora[0])), runs)
    return WarningScores(corpora[0],
                         sorted({r.version for r in runs if r.tool is Tool.WARNINGS and r.ok},
                                key=version_key),
                         [d for d in scores.detectors if d.kind == Kind.WARNING.value],
                         warning_flags())
