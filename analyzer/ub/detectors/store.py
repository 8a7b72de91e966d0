"""The detectors' store API: what another family reads of ``ub detectors``' stored runs
(the advice: what each warning option caught on the corpus).

The runs are stored and read by the UB store (:mod:`analyzer.ub.store`, the family's
SQL); their scores are the detectors' (:mod:`analyzer.ub.detectors.scores`). This module
runs no SQL of its own, and importing it loads neither the runner nor the sandbox
(tests/unit/test_import_cycles.py).
"""
from __future__ import annotations

import sqlite3

from analyzer.ub.detectors.scores import WarningScores, latest_warnings

__all__ = ["WarningScores", "warning_scores"]


def warning_scores(conn: sqlite3.Connection) -> WarningScores | None:
    """The scores ``ub detectors`` gives the warning options on the corpus whose detectors
    ran most recently (None: no detector ran in this database)."""
    return latest_warnings(conn)
