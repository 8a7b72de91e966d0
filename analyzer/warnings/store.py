"""All SQL of the warnings family (tables ``wn_*``, schema 9; 14 added the configure
checks and macros): builds, their compiles, their diagnostics (each once) and the TUs that
printed each. Other families read these tables only through this module: the site its
builds, the advice :func:`level_builds` (at the end, with the dataclasses it returns)."""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field

from warnscope.dbvalues import json_column
from warnscope.errors import CorruptDatabase

from analyzer.projects.cell import BuildStatus
from analyzer.warnings.results import Build, Check, Diagnostic, TuOutcome


def save_build(conn: sqlite3.Connection, b: Build) -> int:
    """Store one build, replacing the same project, compiler and level (inside the
    caller's transaction)."""
    conn.execute("DELETE FROM wn_build WHERE project = ? AND compiler = ? AND level = ?",
                 (b.project, b.compiler, b.level))
    bid = conn.execute(
        "INSERT INTO wn_build (project, origin, compiler, compiler_version, level, opt, flags, format, "
        "status, error, finished_at, keep_going, std_defaults, project_options, tree_digest, passed_env) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (b.project, b.origin, b.compiler, b.compiler_version, b.level, b.opt, json.dumps(b.flags, sort_keys=True),
         b.format, b.status, b.error, b.finished_at, int(b.keep_going),
         json.dumps(b.std_defaults, sort_keys=True), json.dumps(b.project_options), b.tree_digest,
         json.dumps(sorted(b.passed_env)))).lastrowid
    conn.executemany("INSERT INTO wn_check (build_id, seq, system, name, result, error) "
                     "VALUES (?,?,?,?,?,?)",
                     [(bid, i, c.system, c.name, c.result, c.error) for i, c in enumerate(b.checks)])
    conn.executemany("INSERT OR REPLACE INTO wn_macro (build_id, file, name, value) VALUES (?,?,?,?)",
                     [(bid, f, n, v) for f, ms in b.macros.items() for n, v in ms.items()])
    conn.executemany("INSERT INTO wn_tu (build_id, tu, language, exit, diagnostics, problem) "
                     "VALUES (?,?,?,?,?,?)",
                     [(bid, t.tu, t.language, t.exit, t.diagnostics, t.problem) for t in b.tus])
    for d in b.diagnostics:
        did = conn.execute("INSERT INTO wn_diag (build_id, option, severity, file, line, col, message, printed) "
                           "VALUES (?,?,?,?,?,?,?,?)",
                           (bid, d.option, d.severity, d.file, d.line, d.column, d.message, d.printed)).lastrowid
        conn.executemany("INSERT INTO wn_diag_tu (diag_id, tu) VALUES (?, ?)", [(did, tu) for tu in d.tus])
    return bid


def _build(conn: sqlite3.Connection, row: sqlite3.Row | tuple, with_diagnostics: bool) -> Build:
    (bid, project, origin, compiler, version, level, opt, flags, fmt, status, error, finished,
     keep_going, std_defaults, project_options, tree_digest, passed_env) = row
    b = Build(project=project, origin=origin, compiler=compiler, compiler_version=version, level=level,
              opt=opt, flags=json.loads(flags), format=fmt, status=BuildStatus(status), error=error, finished_at=finished,
              keep_going=bool(keep_going), std_defaults=json.loads(std_defaults),
              project_options=json.loads(project_options), tree_digest=tree_digest,
              passed_env=_names(passed_env, f"wn_build {bid} passed_env"))
    b.checks = [Check(*r) for r in conn.execute(
        "SELECT system, name, result, error FROM wn_check WHERE build_id = ? ORDER BY seq", (bid,))]
    for file, name, value in conn.execute(
            "SELECT file, name, value FROM wn_macro WHERE build_id = ? ORDER BY file, name", (bid,)):
        b.macros.setdefault(file, {})[name] = value
    b.tus = [TuOutcome(*r) for r in conn.execute(
        "SELECT tu, language, exit, diagnostics, problem FROM wn_tu WHERE build_id = ? ORDER BY tu", (bid,))]
    if with_diagnostics:
        tus: dict[int, list[str]] = {}
        for did, tu in conn.execute("SELECT t.diag_id, t.tu FROM wn_diag_tu t JOIN wn_diag d ON d.id = t.diag_id "
                                    "WHERE d.build_id = ? ORDER BY t.tu", (bid,)):
            tus.setdefault(did, []).append(tu)
        b.diagnostics = [Diagnostic(option, sev, file, line, col, msg, tus.get(did, []), printed)
                         for did, option, sev, file, line, col, msg, printed in conn.execute(
                             "SELECT id, option, severity, file, line, col, message, printed FROM wn_diag "
                             "WHERE build_id = ? ORDER BY id", (bid,))]
    return b


_COLUMNS = ("id, project, origin, compiler, compiler_version, level, opt, flags, format, status, error, "
            "finished_at, keep_going, std_defaults, project_options, tree_digest, passed_env")


def builds(conn: sqlite3.Connection, project: str | None = None, compilers: list[str] | None = None,
           level: str | None = None, with_diagnostics: bool = True) -> list[Build]:
    """Stored builds, optionally of one project, some compilers, one level (none in a
    database that has no builds yet: its schema comes with its first write)."""
    if not has_builds(conn):
        return []
    where, args = [], []
    if project is not None:
        where.append("project = ?")
        args.append(project)
    if level is not None:
        where.append("level = ?")
        args.append(level)
    if compilers:
        where.append(f"compiler IN ({','.join('?' * len(compilers))})")
        args += compilers
    sql = f"SELECT {_COLUMNS} FROM wn_build" + (f" WHERE {' AND '.join(where)}" if where else "")
    return [_build(conn, row, with_diagnostics) for row in conn.execute(sql + " ORDER BY project, level, id", args)]



def answers(b: Build, origin: str, built_from: str) -> bool:
    """Whether the stored build ``b`` answers for the tree at ``origin`` (its path; a
    package's directory) whose digest is ``built_from``
    (:func:`analyzer.projects.digest.tree_digest`): built from that place with the same
    files and commands. A build stored before its digest was kept answers for nothing."""
    return b.origin == origin and b.tree_digest == built_from


def answering(conn: sqlite3.Connection, project: str, origin: str, built_from: str,
              compilers: list[str], level: str) -> dict[str, Build]:
    """The stored builds of ``project`` at ``level`` by ``compilers`` that answer for the
    tree at ``origin`` whose digest is ``built_from`` (:func:`answers`), by compiler,
    without their diagnostics."""
    return {b.compiler: b for b in builds(conn, project, compilers, level, with_diagnostics=False)
            if answers(b, origin, built_from)}

def projects(conn: sqlite3.Connection) -> list[str]:
    return [r[0] for r in conn.execute("SELECT DISTINCT project FROM wn_build ORDER BY project")]


def has_builds(conn: sqlite3.Connection) -> bool:
    """Whether the database holds the warnings tables and a build in them (a new or
    flags-only database has none: the questions over builds then answer nothing)."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'wn_build'").fetchone() is None:
        return False
    return conn.execute("SELECT 1 FROM wn_build LIMIT 1").fetchone() is not None


def option_counts(conn: sqlite3.Connection, compilers: list[str] | None = None) -> list[tuple]:
    """Per stored build (of ``compilers``, default all) and option: (project, compiler,
    compiler version, level, status, option, diagnostics, distinct files, printed), one row
    per option that fired; ordered by project, compiler, level. Empty without builds."""
    if not has_builds(conn):
        return []
    where, args = "", []
    if compilers is not None:
        where = f"WHERE b.compiler IN ({','.join('?' * len(compilers))})"
        args = list(compilers)
    return conn.execute(
        "SELECT b.project, b.compiler, b.compiler_version, b.level, b.status, d.option, COUNT(*), "
        "COUNT(DISTINCT d.file), SUM(d.printed) FROM wn_build b JOIN wn_diag d ON d.build_id = b.id "
        f"{where} GROUP BY b.id, d.option ORDER BY b.project, b.compiler, b.level, d.option", args).fetchall()


def compilers_built(conn: sqlite3.Connection) -> list[str]:
    """Every compiler with a stored build (sorted by name; callers order them)."""
    if not has_builds(conn):
        return []
    return [r[0] for r in conn.execute("SELECT DISTINCT compiler FROM wn_build ORDER BY compiler")]


def examples(conn: sqlite3.Connection, option: str | None, project: str | None = None,
             compilers: list[str] | None = None, level: str | None = None) -> list[tuple[Build, Diagnostic]]:
    """The diagnostics of ``option`` (None: of every option) in every stored build, or
    those of one project, some compilers, one level."""
    out = []
    for b in builds(conn, project, compilers, level, with_diagnostics=True):
        out += [(b, d) for d in b.diagnostics if option is None or d.option == option]
    return out


# ------------------------------------------------------------------ what other families read

@dataclass
class StoredDiagnostic:
    """A diagnostic of a build as another family reads it (not its TUs, line or column)."""

    option: str | None
    severity: str
    file: str | None
    printed: int
    message: str


@dataclass
class StoredBuild:
    """A build of a project at one level as another family reads it: what ran, how it
    ended, how many TUs it compiled, its diagnostics and flags."""

    id: int
    compiler: str
    compiler_version: str
    origin: str
    opt: str
    status: BuildStatus
    error: str | None
    finished_at: str
    tus: int
    diagnostics: list[StoredDiagnostic] = field(default_factory=list)
    #: language -> the warning flags the build passed
    flags: dict[str, list[str]] = field(default_factory=dict)


def level_builds(conn: sqlite3.Connection, project: str, level: str, compilers: list[str]
                 ) -> dict[str, StoredBuild]:
    """The project's builds at ``level`` by the given compilers (compiler -> build), with
    their diagnostics; a compiler without one is absent. Flags that are not a list of
    options per language are one :class:`~warnscope.errors.CorruptDatabase` line."""
    if not compilers or not has_builds(conn):
        return {}
    marks = ",".join("?" * len(compilers))
    out = {}
    for r in conn.execute(
            "SELECT b.id, b.compiler, b.compiler_version, b.origin, b.opt, b.status, b.error, b.finished_at, "
            "b.flags, (SELECT COUNT(*) FROM wn_tu t WHERE t.build_id = b.id) AS tus FROM wn_build b "
            f"WHERE b.project = ? AND b.level = ? AND b.compiler IN ({marks})",
            (project, level, *compilers)):
        out[r["compiler"]] = StoredBuild(r["id"], r["compiler"], r["compiler_version"], r["origin"], r["opt"],
                                         BuildStatus(r["status"]), r["error"], r["finished_at"], r["tus"],
                                         flags=_level_flags(r["flags"], f"wn_build {r['id']} flags"))
    by_id = {b.id: b for b in out.values()}
    if by_id:
        for r in conn.execute(
                "SELECT build_id, option, severity, file, printed, message FROM wn_diag "
                f"WHERE build_id IN ({','.join('?' * len(by_id))}) ORDER BY id", list(by_id)):
            by_id[r["build_id"]].diagnostics.append(
                StoredDiagnostic(r["option"], r["severity"], r["file"], r["printed"], r["message"]))
    return out


def _level_flags(text: str, where: str) -> dict[str, list[str]]:
    """A build's flags: language -> the options it passed."""
    value = json_column(text, dict, where)
    if not all(isinstance(v, list) and all(isinstance(f, str) for f in v) for v in value.values()):
        raise CorruptDatabase(f"{where}: not a list of options per language")
    return value


def _names(text: str, where: str) -> list[str]:
    """A build's passed variables: a list of names."""
    value = json_column(text, list, where)
    if not all(isinstance(v, str) for v in value):
        raise CorruptDatabase(f"{where}: not a list of names")
    return value
