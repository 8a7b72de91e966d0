"""All SQL of the advice. It stores nothing of its own: it reads the other families'
tables, read-only, with its own queries (a family never imports another's package):
the warnings builds at ``all`` (``wn_build``, ``wn_diag``), the UB corpus's cases
(``ub_case``) and warning checks (``ub_warning``, ``ub_cell``) and the finished overhead
attributions (``oh_attr``, ``oh_project``, ``oh_attr_result``). The flag data is read
through :mod:`flagdb.store`, the flag family's own library.

Every query returns dataclasses; a JSON column that does not decode is one
:class:`~warnscope.errors.CorruptDatabase` line naming table and column.
"""
from __future__ import annotations

import json
import posixpath
import sqlite3
from dataclasses import dataclass, field

from warnscope.errors import CorruptDatabase

#: the level whose builds the advice reads
LEVEL = "all"


@dataclass
class StoredDiagnostic:
    option: str | None
    severity: str
    file: str | None
    printed: int
    message: str


@dataclass
class StoredBuild:
    """A warnings build of the project at ``all`` with its diagnostics."""

    id: int
    compiler: str
    compiler_version: str
    origin: str
    opt: str
    status: str
    error: str | None
    finished_at: str
    tus: int
    diagnostics: list[StoredDiagnostic] = field(default_factory=list)
    #: language -> the warning flags the build passed (the level ``all``)
    flags: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class UbCase:
    id: str
    category: str
    language: str
    #: True: the program has UB; False: a program without (a control, or a fixed twin);
    #: None: no metadata
    ub: bool | None
    #: the id of this case's fixed twin ('' when it has none)
    twin: str = ""
    #: for a fixed twin, the id of the case it fixes ('' otherwise)
    fixes: str = ""


@dataclass
class UbFired:
    """The options that fired on one case with one compiler (all its levels and flag sets)."""

    case_id: str
    compiler: str
    options: list[str]


@dataclass
class UbStored:
    corpus: str | None
    cases: list[UbCase] = field(default_factory=list)
    fired: list[UbFired] = field(default_factory=list)
    #: the compilers with warning checks in this corpus
    compilers: list[str] = field(default_factory=list)


@dataclass
class StoredAttribution:
    """A finished ``overhead attribute`` of the project with one compiler: its stored
    result document (the :class:`~analyzer.overhead.results.Attribution` as JSON)."""

    id: int
    compiler: str
    result: dict


def _tables(conn: sqlite3.Connection, *names: str) -> bool:
    found = {r[0] for r in conn.execute(
        f"SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ({','.join('?' * len(names))})",
        names)}
    return found == set(names)


def _flags(text: str, where: str) -> dict[str, list[str]]:
    """A build's flags: language -> the options it passed."""
    value = _json(text, dict, where)
    if not all(isinstance(v, list) and all(isinstance(f, str) for f in v) for v in value.values()):
        raise CorruptDatabase(f"{where}: not a list of options per language")
    return value


def _json(text: str, kind: type, where: str):
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        raise CorruptDatabase(f"{where}: not JSON") from None
    if not isinstance(value, kind):
        raise CorruptDatabase(f"{where}: not a JSON {kind.__name__}")
    return value


def builds(conn: sqlite3.Connection, project: str, compilers: list[str]) -> dict[str, StoredBuild]:
    """The project's builds at ``all`` by the given compilers (compiler -> build), with
    their diagnostics; a compiler without one is absent."""
    if not compilers or not _tables(conn, "wn_build", "wn_diag", "wn_tu"):
        return {}
    marks = ",".join("?" * len(compilers))
    out = {}
    for r in conn.execute(
            "SELECT b.id, b.compiler, b.compiler_version, b.origin, b.opt, b.status, b.error, b.finished_at, "
            "b.flags, (SELECT COUNT(*) FROM wn_tu t WHERE t.build_id = b.id) AS tus FROM wn_build b "
            f"WHERE b.project = ? AND b.level = ? AND b.compiler IN ({marks})",
            (project, LEVEL, *compilers)):
        out[r["compiler"]] = StoredBuild(r["id"], r["compiler"], r["compiler_version"], r["origin"], r["opt"],
                                         r["status"], r["error"], r["finished_at"], r["tus"],
                                         flags=_flags(r["flags"], f"wn_build {r['id']} flags"))
    by_id = {b.id: b for b in out.values()}
    if by_id:
        for r in conn.execute(
                "SELECT build_id, option, severity, file, printed, message FROM wn_diag "
                f"WHERE build_id IN ({','.join('?' * len(by_id))}) ORDER BY id", list(by_id)):
            by_id[r["build_id"]].diagnostics.append(
                StoredDiagnostic(r["option"], r["severity"], r["file"], r["printed"], r["message"]))
    return out


def ub_results(conn: sqlite3.Connection, compilers: list[str]) -> UbStored:
    """The warning checks of the corpus run most recently, for the given compilers:
    every case (with whether it has UB) and the options that fired on each."""
    if not _tables(conn, "ub_cell", "ub_case", "ub_warning"):
        return UbStored(None)
    latest = conn.execute("SELECT corpus FROM ub_cell GROUP BY corpus ORDER BY max(finished_at) DESC "
                          "LIMIT 1").fetchone()
    if latest is None:
        return UbStored(None)
    corpus = latest["corpus"]
    out = UbStored(corpus, ub_cases(conn, corpus))
    fired: dict[tuple[str, str], set[str]] = {}
    if compilers:
        for r in conn.execute(
                "SELECT case_id, compiler, level, flags, options FROM ub_warning WHERE corpus = ? "
                f"AND compiler IN ({','.join('?' * len(compilers))}) ORDER BY case_id, compiler",
                (corpus, *compilers)):
            where = f"ub_warning.options of {r['case_id']} {r['compiler']} {r['level']} {r['flags']}".rstrip()
            options = _json(r["options"], list, where)
            if not all(isinstance(o, str) for o in options):
                raise CorruptDatabase(f"{where}: not a list of option names")
            fired.setdefault((r["case_id"], r["compiler"]), set()).update(options)
    out.fired = [UbFired(case, compiler, sorted(options)) for (case, compiler), options in sorted(fired.items())]
    out.compilers = sorted({compiler for _, compiler in fired})
    return out


def ub_cases(conn: sqlite3.Connection, corpus: str) -> list[UbCase]:
    """The cases of a UB corpus as stored, with whether each has UB and its twin."""
    out = []
    for r in conn.execute("SELECT id, category, language, ub, meta FROM ub_case WHERE corpus = ? ORDER BY id",
                          (corpus,)):
        meta = _json(r["meta"], dict, f"ub_case.meta of {r['id']}")
        out.append(UbCase(r["id"], r["category"], r["language"], None if r["ub"] is None else bool(r["ub"]),
                          _sibling(r["id"], meta.get("twin")), _sibling(r["id"], meta.get("fixes"))))
    return out


def _sibling(case_id: str, name: object) -> str:
    """The case id a ``twin:`` or ``fixes:`` line names: a program's file name in the same
    folder (``store-reload.fixed.c`` of ``restrict-violation/store-reload``), as the corpus
    reads it; '' when absent or not a plain file name."""
    if not isinstance(name, str) or not name or "/" in name or name.startswith("."):
        return ""
    return posixpath.join(posixpath.dirname(case_id), posixpath.splitext(name)[0])


def attributions(conn: sqlite3.Connection, project: str, compilers: list[str]) -> dict[str, StoredAttribution]:
    """The newest finished attribution of the project per compiler (compiler -> it)."""
    if not compilers or not _tables(conn, "oh_attr", "oh_project", "oh_attr_result"):
        return {}
    out: dict[str, StoredAttribution] = {}
    for r in conn.execute(
            "SELECT a.id, a.compiler, r.result FROM oh_attr a JOIN oh_project p ON p.id = a.project_id "
            "JOIN oh_attr_result r ON r.attr_id = a.id WHERE p.name = ? AND a.finished_at IS NOT NULL "
            f"AND a.compiler IN ({','.join('?' * len(compilers))}) ORDER BY a.id",
            (project, *compilers)):
        out[r["compiler"]] = StoredAttribution(r["id"], r["compiler"],
                                               _json(r["result"], dict, f"oh_attr_result.result of {r['id']}"))
    return out
