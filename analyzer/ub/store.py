"""All SQL of the UB tables (schema in warnscope/schema.py, section ``UB``).

Every write is a transaction: the results a run has received are committed
together (:func:`save_results`), so an interrupted run keeps each finished cell
it had received and nothing half-written. Reads return the types of
:mod:`analyzer.ub.results`, never rows or dicts: the report, ``--json`` and the site
all read those. Other families read the UB tables only through this module: the site
its results, the advice what the warning options caught (the functions at the end, with
the dataclasses they return).
"""
from __future__ import annotations

import hashlib
import json
import posixpath
import sqlite3
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from warnscope.database import transaction, utc_now
from warnscope.dbvalues import json_column
from warnscope.errors import CorruptDatabase, NoData
from warnscope.extract import shown
from warnscope.serial import plain

from analyzer.ub.corpus import Case
from analyzer.ub.results import (CaseInfo, Cause, CellRecord, CellRun, Finding, Kind, Outcome,
                                 RunStatus, SanitizerRecord, StoredResults, Tool, ToolRun,
                                 WarningRecord, cause_from_plain, corpus_name)
from analyzer.ub.warnflags import checks_flags

if TYPE_CHECKING:
    from analyzer.ub.jobs import CellResult, ClangWarningsResult, SanitizerResult


def save_cases(conn: sqlite3.Connection, corpus: str, cases: list[Case]) -> None:
    """Insert or refresh the corpus's cases, in one transaction; cases gone from the
    corpus are dropped with their results, and stored code no cell refers to with them."""
    with transaction(conn):
        known = {r[0] for r in conn.execute("SELECT id FROM ub_case WHERE corpus = ?", (corpus,))}
        for gone in known - {c.id for c in cases}:
            conn.execute("DELETE FROM ub_case WHERE corpus = ? AND id = ?", (corpus, gone))
        # code no cell refers to any more (its cells were replaced or dropped)
        conn.execute("DELETE FROM ub_code WHERE hash NOT IN "
                     "(SELECT code FROM ub_cell WHERE code IS NOT NULL)")
        for c in cases:
            conn.execute(
                """INSERT INTO ub_case (corpus, id, category, language, std, standard, summary,
                       ub, expected_exit, expectations, source_hash, meta)
                   VALUES (?,?,?,?,?,?,?,?,?,?,?,?)
                   ON CONFLICT (corpus, id) DO UPDATE SET category = excluded.category,
                       language = excluded.language, std = excluded.std,
                       standard = excluded.standard, summary = excluded.summary,
                       ub = excluded.ub, expected_exit = excluded.expected_exit,
                       expectations = excluded.expectations,
                       source_hash = excluded.source_hash, meta = excluded.meta""",
                (corpus, c.id, c.category, c.language, c.std, c.standard, c.summary,
                 None if c.ub is None else int(c.ub), c.exit, len(c.expected), c.source_hash,
                 json.dumps(c.meta, sort_keys=True)))


def case_ids(conn: sqlite3.Connection, prefix: str = "") -> list[str]:
    """The ids of the stored cases (of every corpus) that start with ``prefix``."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'ub_case'").fetchone() is None:
        return []
    return [r[0] for r in conn.execute("SELECT DISTINCT id FROM ub_case WHERE substr(id, 1, ?) = ? ORDER BY id",
                                       (len(prefix), prefix))]


def existing_keys(conn: sqlite3.Connection, corpus: str) -> dict[str, set[str]]:
    """Keys of finished work, per table, so a rerun skips it."""
    return {
        table: {r[0] for r in conn.execute(f"SELECT key FROM {table} WHERE corpus = ?", (corpus,))}
        for table in ("ub_cell", "ub_warning", "ub_sanitizer")
    }


def hung_cases(conn: sqlite3.Connection, corpus: str) -> set[str]:
    """Cases with a stored cell or sanitizer run that hung: a run schedules their
    missing cells first (a hang is the longest job there is)."""
    return {r[0] for r in conn.execute(
        """SELECT case_id FROM ub_cell WHERE corpus = ? AND outcome = 'hang'
           UNION SELECT case_id FROM ub_sanitizer WHERE corpus = ? AND status = 'timeout'""",
        (corpus, corpus))}


def save_results(conn: sqlite3.Connection, corpus: str, cells: list[CellResult] = (),
                 warnings: list[ClangWarningsResult] = (),
                 sanitizers: list[SanitizerResult] = ()) -> None:
    """Store finished jobs' results together, in one transaction: a run commits
    whatever has finished when it looks, one cell or a few, so that a busy run does
    not pay a commit (and its fsyncs) per cell, and a stopped run keeps every
    result it had received."""
    with transaction(conn):
        for r in cells:
            _save_cell(conn, corpus, r)
        for r in warnings:
            _save_clang_warnings(conn, corpus, r)
        for r in sanitizers:
            _save_sanitizer(conn, corpus, r)


def _save_cell(conn: sqlite3.Connection, corpus: str, r: CellResult) -> None:
    j = r.job
    flags = " ".join(j.flags)
    code_hash = _save_code(conn, r.code) if r.code is not None else None
    conn.execute(
        """INSERT OR REPLACE INTO ub_cell (corpus, case_id, compiler, level, flags, key,
               outcome, exploited, behaviour, exit, signal, stdout, stderr, compile_log,
               compiler_version, runs, host, finished_at, code, code_note)
           VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)""",
        (corpus, j.case.id, j.compiler.name, j.level, flags, j.key, r.verdict.outcome,
         None if r.verdict.exploited is None else int(r.verdict.exploited),
         r.verdict.behaviour, r.exit, r.signal, r.stdout, r.stderr, r.compile_log[-8192:],
         j.compiler.version, json.dumps(plain(r.runs)), r.host, utc_now(), code_hash,
         "" if code_hash else (r.code_note or "no code")))
    if r.warnings is not None:
        _save_warning(conn, corpus, j.case.id, j.compiler.name, j.level, flags, j.key,
                      "gcc-json", r.warnings)


def _save_code(conn: sqlite3.Connection, code: str) -> str:
    """Store a program's code once per content; its hash, which the cell keeps."""
    data = code.encode()
    digest = hashlib.sha256(data).hexdigest()
    conn.execute("INSERT OR IGNORE INTO ub_code (hash, size, code) VALUES (?,?,?)",
                 (digest, len(data), zlib.compress(data, 6)))
    return digest


def _save_clang_warnings(conn: sqlite3.Connection, corpus: str, r: ClangWarningsResult) -> None:
    for u in r.job.units:
        if u.key in r.failed:
            continue  # no answer is not "no warnings": asked again by the next run
        _save_warning(conn, corpus, u.case.id, r.job.compiler.name, u.level,
                      " ".join(u.flags), u.key, "libclang", r.options.get(u.key, []))


def _save_sanitizer(conn: sqlite3.Connection, corpus: str, r: SanitizerResult) -> None:
    j = r.job
    conn.execute(
        """INSERT OR REPLACE INTO ub_sanitizer (corpus, case_id, compiler, sanitizer, key,
               detected, status, report) VALUES (?,?,?,?,?,?,?,?)""",
        (corpus, j.case.id, j.compiler.name, j.sanitizer, j.key,
         None if r.detected is None else int(r.detected), r.status, r.report))


def _save_warning(conn, corpus, case_id, compiler, level, flags, key, tool, options) -> None:
    conn.execute(
        """INSERT OR REPLACE INTO ub_warning (corpus, case_id, compiler, level, flags, key,
               tool, options) VALUES (?,?,?,?,?,?,?,?)""",
        (corpus, case_id, compiler, level, flags, key, tool, json.dumps(options)))


def save_causes(conn: sqlite3.Connection, corpus: str, found: list[tuple[str, Cause]]) -> None:
    """Store causes (``ub run --why``), each with the key of the cell it explains, in one
    transaction."""
    with transaction(conn):
        for key, c in found:
            conn.execute(
                """INSERT OR REPLACE INTO ub_why (corpus, case_id, compiler, level, flags, key,
                       status, summary, cause) VALUES (?,?,?,?,?,?,?,?,?)""",
                (corpus, c.case, c.compiler, c.level, c.cell_flags, key, c.status.value,
                 c.summary, json.dumps(plain(c))))


def explained_keys(conn: sqlite3.Connection, corpus: str) -> set[str]:
    """The keys of the cells whose cause is stored (a rerun does not search again)."""
    return {r[0] for r in conn.execute("SELECT key FROM ub_why WHERE corpus = ?", (corpus,))}


def causes(conn: sqlite3.Connection, corpus: str, cells: list[CellRecord]
           ) -> dict[tuple[str, str, str, str], Cause]:
    """The stored causes of ``cells`` as they are now: a cause stored for an earlier
    result of a cell (another key) is not its cause."""
    keys = {(c.case_id, c.compiler, c.level, c.flags): c.key for c in cells}
    out = {}
    for r in conn.execute("SELECT case_id, compiler, level, flags, key, cause FROM ub_why "
                          "WHERE corpus = ?", (corpus,)):
        where = (r["case_id"], r["compiler"], r["level"], r["flags"])
        if keys.get(where) != r["key"]:
            continue
        value = _decode(conn, r["cause"], dict, f"ub_why.cause of {' '.join(where).rstrip()}")
        try:
            out[where] = cause_from_plain(value)
        except (TypeError, KeyError, ValueError):
            raise _corrupt(conn, f"ub_why.cause of {' '.join(where).rstrip()}",
                           "not a cause") from None
    return out


def save_detector_runs(conn: sqlite3.Connection, corpus: str, done: list[tuple[str, ToolRun]]) -> None:
    """Store detector runs (``ub detectors``), each with its key, in one transaction: a run
    stores what has arrived as it goes, so an interrupted one keeps every finished run."""
    with transaction(conn):
        for key, r in done:
            conn.execute(
                """INSERT OR REPLACE INTO ub_detector_run (corpus, case_id, tool, version, level,
                       key, status, note, findings, finished_at) VALUES (?,?,?,?,?,?,?,?,?,?)""",
                (corpus, r.case_id, r.tool.value, r.version, r.level, key, r.status.value, r.note,
                 json.dumps([{"detector": f.detector, "kind": f.kind.value, "line": f.line,
                              "message": f.message} for f in r.findings]), utc_now()))


#: where a detector run is: (case id, tool, version, level)
DetectorPlace = tuple[str, str, str, str]


def detector_runs(conn: sqlite3.Connection, corpus: str) -> dict[DetectorPlace, tuple[str, ToolRun]]:
    """The stored detector runs of ``corpus``, each with its key, by where it ran; a row
    that does not decode is :class:`CorruptDatabase`."""
    out = {}
    for r in conn.execute(
            "SELECT case_id, tool, version, level, key, status, note, findings FROM ub_detector_run "
            "WHERE corpus = ? ORDER BY case_id, tool, version, level", (corpus,)):
        place = (r["case_id"], r["tool"], r["version"], r["level"])
        where = f"ub_detector_run of {' '.join(place).rstrip()}"
        found = _decode(conn, r["findings"], list, where + " (findings)")
        try:
            findings = tuple(Finding(str(f["detector"]), Kind(f["kind"]), f["line"], str(f["message"]))
                             for f in found)
            run = ToolRun(r["case_id"], Tool(r["tool"]), r["version"], RunStatus(r["status"]),
                          findings, r["note"], r["level"])
        except (TypeError, KeyError, ValueError):
            raise _corrupt(conn, where, "not a detector's run") from None
        if not all(f.line is None or isinstance(f.line, int) for f in findings):
            raise _corrupt(conn, where, "not a detector's run (a line is not a number)")
        out[place] = (r["key"], run)
    return out


# ------------------------------------------------------------------ reading

def corpora(conn: sqlite3.Connection) -> list[str]:
    """Corpora with results, most recently run first."""
    return [r[0] for r in conn.execute(
        "SELECT corpus FROM ub_cell GROUP BY corpus ORDER BY max(finished_at) DESC")]


def load(conn: sqlite3.Connection, corpus: str | None = None, with_code: bool = True
         ) -> StoredResults:
    """Everything stored for ``corpus`` (default: the corpus run most recently); with
    ``with_code`` the cells' code texts too (what their labels are read from).

    No results at all, or none for that corpus, is :class:`NoData`; a JSON column
    that does not decode is :class:`CorruptDatabase` (one line, never a traceback)."""
    if corpus is None:
        known = corpora(conn)
        if not known:
            raise NoData("no UB results in this database: run 'warnscope ub run' first")
        corpus = known[0]
    cells = [_cell(conn, r) for r in conn.execute(
        f"SELECT {_CELL_COLUMNS} FROM ub_cell WHERE corpus = ? "
        "ORDER BY case_id, compiler, level, flags", (corpus,))]
    if not cells:
        name = corpus_name(corpus)
        raise NoData(f"no UB results for {'corpus ' + corpus if name == corpus else name}")
    cases = case_infos(conn, corpus)
    warnings = [WarningRecord(case_id=r["case_id"], compiler=r["compiler"], level=r["level"],
                              flags=r["flags"], key=r["key"], tool=r["tool"],
                              options=_options(conn, r))
                for r in conn.execute(
                    "SELECT case_id, compiler, level, flags, key, tool, options FROM ub_warning "
                    "WHERE corpus = ? ORDER BY case_id, compiler, level, flags", (corpus,))]
    sanitizers = [SanitizerRecord(case_id=r["case_id"], compiler=r["compiler"],
                                  sanitizer=r["sanitizer"], key=r["key"],
                                  detected=_bool(r["detected"]), status=r["status"],
                                  report=r["report"])
                  for r in conn.execute(
                      "SELECT case_id, compiler, sanitizer, key, detected, status, report "
                      "FROM ub_sanitizer WHERE corpus = ? ORDER BY case_id, compiler, sanitizer",
                      (corpus,))]
    return StoredResults(corpus=corpus, cases=cases, cells=cells, warnings=warnings,
                         sanitizers=sanitizers,
                         codes=codes(conn, {c.code for c in cells if c.code}) if with_code else {},
                         causes=causes(conn, corpus, cells),
                         detector_runs=[run for _, run in detector_runs(conn, corpus).values()])


def case_infos(conn: sqlite3.Connection, corpus: str) -> list[CaseInfo]:
    """The stored cases of ``corpus``, by id."""
    return [CaseInfo(id=r["id"], category=r["category"], language=r["language"], std=r["std"],
                     standard=r["standard"], summary=r["summary"], ub=_bool(r["ub"]),
                     expected_exit=r["expected_exit"], expectations=r["expectations"],
                     source_hash=r["source_hash"],
                     meta=_decode(conn, r["meta"], dict, f"ub_case.meta of {r['id']}"))
            for r in conn.execute(
                "SELECT id, category, language, std, standard, summary, ub, expected_exit, "
                "expectations, source_hash, meta FROM ub_case WHERE corpus = ? ORDER BY id",
                (corpus,))]


def detector_corpora(conn: sqlite3.Connection) -> list[str]:
    """Corpora with detector runs, most recently run first."""
    return [r[0] for r in conn.execute(
        "SELECT corpus FROM ub_detector_run GROUP BY corpus ORDER BY max(finished_at) DESC")]


_CELL_COLUMNS = ("case_id, compiler, level, flags, key, outcome, exploited, behaviour, exit, "
                 "signal, stdout, stderr, compile_log, compiler_version, runs, host, finished_at, "
                 "code, code_note")


def _cell(conn: sqlite3.Connection, r: sqlite3.Row) -> CellRecord:
    where = f"ub_cell.runs of {r['case_id']} {r['compiler']} {r['level']} {r['flags']}".rstrip()
    runs = _decode(conn, r["runs"], list, where)
    try:
        decoded = [CellRun(**run) for run in runs]
    except TypeError:  # not an object, or not the keys of a run
        raise _corrupt(conn, where, "not a list of runs") from None
    return CellRecord(case_id=r["case_id"], compiler=r["compiler"], level=r["level"],
                      flags=r["flags"], key=r["key"], outcome=Outcome(r["outcome"]),
                      exploited=_bool(r["exploited"]), behaviour=r["behaviour"], exit=r["exit"],
                      signal=r["signal"], stdout=r["stdout"], stderr=r["stderr"],
                      compile_log=r["compile_log"], compiler_version=r["compiler_version"],
                      runs=decoded, host=r["host"], finished_at=r["finished_at"],
                      code=r["code"],
                      code_note="stored before code was kept" if r["code_note"] is None
                      else r["code_note"])


#: The largest code text inflated from the database: a program's normalised code is
#: at most MAX_FUNCTIONS x MAX_INSNS short lines (a few MB in practice); a blob that
#: inflates past this, or past the size stored beside it, is refused, not inflated.
MAX_CODE = 64 << 20


def codes(conn: sqlite3.Connection, hashes: set[str]) -> dict[str, str]:
    """The stored code texts of ``hashes`` (hash -> text); one that does not decompress
    to the size stored with it (within :data:`MAX_CODE`) is :class:`CorruptDatabase`."""
    found: dict[str, str] = {}
    wanted = sorted(hashes)
    for i in range(0, len(wanted), 500):
        part = wanted[i:i + 500]
        for h, size, blob in conn.execute(
                f"SELECT hash, size, code FROM ub_code WHERE hash IN ({','.join('?' * len(part))})", part):
            found[h] = _inflate(conn, h, size, blob)
    return found


def _inflate(conn: sqlite3.Connection, h: str, size: int, blob: bytes) -> str:
    """``blob`` inflated to exactly ``size`` bytes of UTF-8, never more than that is
    produced (``max_length``): a compression bomb costs its own size, not what it
    would inflate to."""
    where = f"ub_code {h[:12]}"
    if not 0 <= size <= MAX_CODE:
        raise _corrupt(conn, where, f"code of {size} bytes (at most {MAX_CODE >> 20} MB is read)")
    inflater = zlib.decompressobj()
    try:
        data = inflater.decompress(blob, size + 1)  # one byte more than it may hold: too long shows
        done = inflater.eof
    except zlib.error:
        raise _corrupt(conn, where, "not compressed code") from None
    if len(data) > size or not done and inflater.unconsumed_tail:
        raise _corrupt(conn, where, f"code that inflates past its stored size ({size} bytes)")
    if len(data) != size or not done:
        raise _corrupt(conn, where, "not compressed code (cut short)")
    try:
        return data.decode()
    except UnicodeDecodeError:
        raise _corrupt(conn, where, "not compressed code (not UTF-8)") from None


def _options(conn: sqlite3.Connection, r: sqlite3.Row) -> list[str]:
    where = f"ub_warning.options of {r['case_id']} {r['compiler']} {r['level']} {r['flags']}".rstrip()
    options = _decode(conn, r["options"], list, where)
    if not all(isinstance(o, str) for o in options):
        raise _corrupt(conn, where, "not a list of option names")
    return options


def _decode(conn: sqlite3.Connection, text: str, kind: type, where: str) -> Any:
    """A stored JSON column, which must hold a ``kind`` (list or dict)."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        raise _corrupt(conn, where, "not valid JSON") from None
    if not isinstance(value, kind):
        raise _corrupt(conn, where, f"not a JSON {'object' if kind is dict else 'list'}")
    return value


def _corrupt(conn: sqlite3.Connection, where: str, what: str) -> CorruptDatabase:
    path = getattr(conn, "path", None)
    prefix = f"{shown(str(path))}: " if path is not None else ""
    return CorruptDatabase(f"{prefix}{where} is {what}: the database is damaged")


def _bool(value: int | None) -> bool | None:
    return None if value is None else bool(value)


# ------------------------------------------------------------------ what other families read

@dataclass
class CorpusCase:
    """A case of the corpus as another family reads it."""

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
class OptionsFired:
    """The options that fired on one case with one compiler (all its levels and flag sets)."""

    case_id: str
    compiler: str
    options: list[str]


@dataclass
class WarningChecks:
    """The warning checks ``ub run`` stored for one corpus (None: no results at all)."""

    corpus: str | None
    cases: list[CorpusCase] = field(default_factory=list)
    fired: list[OptionsFired] = field(default_factory=list)
    #: the compilers with warning checks in this corpus
    compilers: list[str] = field(default_factory=list)
    #: per family ('gcc', 'clang'), the warning flags the checks pass: a flag outside
    #: what they turn on was not tried
    flags: dict[str, list[str]] = field(default_factory=dict)


def warning_checks(conn: sqlite3.Connection, compilers: list[str]) -> WarningChecks:
    """The warning checks of the corpus run most recently, for the given compilers:
    every case (with whether it has UB) and the options that fired on each (none in a
    database without the UB tables yet: its schema comes with its first write)."""
    has_tables = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'ub_cell'").fetchone()
    latest = corpora(conn) if has_tables else []
    if not latest:
        return WarningChecks(None, flags=checks_flags())
    corpus = latest[0]
    fired: dict[tuple[str, str], set[str]] = {}
    if compilers:
        for r in conn.execute(
                "SELECT case_id, compiler, level, flags, options FROM ub_warning WHERE corpus = ? "
                f"AND compiler IN ({','.join('?' * len(compilers))}) ORDER BY case_id, compiler",
                (corpus, *compilers)):
            where = f"ub_warning.options of {r['case_id']} {r['compiler']} {r['level']} {r['flags']}".rstrip()
            options = json_column(r["options"], list, where)
            if not all(isinstance(o, str) for o in options):
                raise CorruptDatabase(f"{where}: not a list of option names")
            fired.setdefault((r["case_id"], r["compiler"]), set()).update(options)
    return WarningChecks(corpus, corpus_cases(conn, corpus),
                         [OptionsFired(case, compiler, sorted(options))
                          for (case, compiler), options in sorted(fired.items())],
                         sorted({compiler for _, compiler in fired}), checks_flags())


def corpus_cases(conn: sqlite3.Connection, corpus: str) -> list[CorpusCase]:
    """The cases of a corpus as stored, with whether each has UB and its twin."""
    out = []
    for r in conn.execute("SELECT id, category, language, ub, meta FROM ub_case WHERE corpus = ? ORDER BY id",
                          (corpus,)):
        meta = json_column(r["meta"], dict, f"ub_case.meta of {r['id']}")
        out.append(CorpusCase(r["id"], r["category"], r["language"], _bool(r["ub"]),
                              _sibling(r["id"], meta.get("twin")), _sibling(r["id"], meta.get("fixes"))))
    return out


def _sibling(case_id: str, name: object) -> str:
    """The case id a ``twin:`` or ``fixes:`` line names: a program's file name in the same
    folder (``store-reload.fixed.c`` of ``restrict-violation/store-reload``), as the corpus
    reads it; '' when absent or not a plain file name."""
    if not isinstance(name, str) or not name or "/" in name or name.startswith("."):
        return ""
    return posixpath.join(posixpath.dirname(case_id), posixpath.splitext(name)[0])
