"""What the advice reads, and from which family. It has no table and no SQL of its own:
every read is a function of the owner's store, which returns its own dataclasses
(named here as the advice knows them):

* the warnings builds at ``all``: :func:`analyzer.warnings.store.level_builds`;
* the UB corpus's warning checks (``ub run``): :mod:`analyzer.ub.store`; the scores ``ub
  detectors`` gave the warning options: :mod:`analyzer.ub.detectors.store`;
* the finished overhead attributions: :func:`analyzer.overhead.store.finished_attributions`.

The flag data is read through :mod:`flagdb.store`, the flag family's own library.
tests/unit/test_store_boundaries.py checks that no module names another family's table.
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from analyzer.overhead import store as overhead_store
from analyzer.overhead.store import StoredAttribution
from analyzer.ub import store as ub_store
from analyzer.ub.store import CorpusCase as UbCase, OptionsFired as UbFired, WarningChecks as UbStored
from analyzer.ub.store import corpus_name
from analyzer.ub.detectors import store as detectors_store
from analyzer.ub.detectors.store import WarningScores
from analyzer.warnings import store as warnings_store
from analyzer.warnings.store import StoredBuild, StoredDiagnostic

__all__ = ["LEVEL", "StoredAttribution", "StoredBuild", "StoredDiagnostic", "UbCase", "UbEvidence", "UbFired",
           "UbStored", "WarningScores", "attributions", "builds", "ub_cases", "ub_evidence", "ub_results"]

#: the level whose builds the advice reads
LEVEL = "all"


@dataclass(frozen=True)
class UbEvidence:
    """What the advice reads of the UB family the same for every project: the scores ``ub
    detectors`` gave the warning options on the corpus whose detectors ran most recently
    (None: no detector ran). A caller advising many projects (the site) reads it once."""

    scores: WarningScores | None


def builds(conn: sqlite3.Connection, project: str, compilers: list[str]) -> dict[str, StoredBuild]:
    """The project's builds at ``all`` by the given compilers (compiler -> build), with
    their diagnostics; a compiler without one is absent."""
    return warnings_store.level_builds(conn, project, LEVEL, compilers)


def ub_results(conn: sqlite3.Connection, compilers: list[str]) -> UbStored:
    """The warning checks of the corpus ``ub run`` ran most recently, for the given
    compilers: every case (with whether it has UB) and the options that fired on each."""
    return ub_store.warning_checks(conn, compilers)


def ub_cases(conn: sqlite3.Connection, corpus: str) -> list[UbCase]:
    """The cases of a UB corpus as stored, with whether each has UB and its twin."""
    return ub_store.corpus_cases(conn, corpus)


def ub_evidence(conn: sqlite3.Connection) -> UbEvidence:
    return UbEvidence(detectors_store.warning_scores(conn))


def attributions(conn: sqlite3.Connection, project: str, compilers: list[str]) -> dict[str, StoredAttribution]:
    """The newest finished attribution of the project per compiler (compiler -> it)."""
    return overhead_store.finished_attributions(conn, project, compilers)
