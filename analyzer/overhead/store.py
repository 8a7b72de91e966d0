"""All SQL of build-overhead studies: projects, studies, cells with their runs.

A cell is written in one transaction once all its runs are done, so an interrupted
study holds only finished cells, and rerunning the same parameters skips them.
"""
from __future__ import annotations

import json
import sqlite3
import statistics
from dataclasses import dataclass, field

from warnscope.database import transaction, utc_now
from warnscope.errors import WarnscopeError



def has_schema(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'oh_cell'").fetchone() is not None


@dataclass
class RunRow:
    seq: int
    user_s: float
    sys_s: float
    wall_s: float
    maxrss_kb: int
    compiler_cpu_s: float
    compilers: int
    warnings: int
    load1: float
    host: str
    started_at: str

    @property
    def cpu_s(self) -> float:
        return self.user_s + self.sys_s


@dataclass
class TuRow:
    tu: str
    seq: int
    user_s: float
    sys_s: float
    wall_s: float
    maxrss_kb: int
    warnings: int
    exit: int


@dataclass
class CellResult:
    """A finished cell, ready to store."""

    compiler: str
    compiler_version: str
    compiler_identity: str
    level: str
    flags: dict[str, list[str]]
    status: str = "ok"
    error: str | None = None
    log_tail: str | None = None
    runs: list[RunRow] = field(default_factory=list)
    tu_runs: list[TuRow] = field(default_factory=list)
    #: the level's flags for languages the project is not declared in (a C file in a C++
    #: project gets the C set); not part of the cell's key, so resuming is unaffected
    other_flags: dict[str, list[str]] = field(default_factory=dict)

    @property
    def flags_json(self) -> str:
        return json.dumps(self.flags, sort_keys=True)


def project_id(conn: sqlite3.Connection, name: str, kind: str, origin: str, build_system: str,
               languages: list[str]) -> int:
    conn.execute("INSERT OR IGNORE INTO oh_project (name, kind, origin, build_system, languages)"
                 " VALUES (?, ?, ?, ?, ?)", (name, kind, origin, build_system, json.dumps(languages)))
    return conn.execute("SELECT id FROM oh_project WHERE name = ? AND origin = ?",
                        (name, origin)).fetchone()[0]


def study_id(conn: sqlite3.Connection, key: str, project: int, params: dict, machine: dict) -> int:
    """The study with these parameters, created on first use (resume: the same id)."""
    row = conn.execute("SELECT id FROM oh_study WHERE key = ?", (key,)).fetchone()
    if row:
        return row[0]
    conn.execute("INSERT INTO oh_study (key, project_id, mode, opt, runs, jobs, nice, sched, noise,"
                 " host, machine, started_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                 (key, project, params["mode"], params["opt"], params["runs"], params["jobs"],
                  params["nice"], params["sched"], params["noise"], machine["host"],
                  json.dumps(machine, sort_keys=True), utc_now()))
    return conn.execute("SELECT id FROM oh_study WHERE key = ?", (key,)).fetchone()[0]


def finished(conn: sqlite3.Connection, study: int) -> set[tuple[str, str, str, str]]:
    """(compiler, identity, level, flags JSON) of the study's stored ``ok`` cells."""
    rows = conn.execute("SELECT compiler, compiler_identity, level, flags FROM oh_cell"
                        " WHERE study_id = ? AND status = 'ok'", (study,)).fetchall()
    return {tuple(r) for r in rows}


def save_cell(conn: sqlite3.Connection, study: int, cell: CellResult, noise: float,
              busy_load: float) -> None:
    """Store one finished cell and its runs in one transaction (a failed cell of the
    same key from an earlier attempt is replaced)."""
    cpu = [r.cpu_s for r in cell.runs]
    spread = (max(cpu) - min(cpu)) / statistics.median(cpu) if cpu and statistics.median(cpu) > 0 else None
    max_load = max((r.load1 for r in cell.runs), default=None)
    noisy = bool((spread is not None and spread > noise) or (max_load is not None and max_load > busy_load))
    warnings = cell.runs[-1].warnings if cell.runs else None
    with transaction(conn):
        conn.execute("DELETE FROM oh_cell WHERE study_id = ? AND compiler = ? AND compiler_identity = ?"
                     " AND level = ? AND flags = ?", (study, cell.compiler, cell.compiler_identity,
                                                       cell.level, cell.flags_json))
        cur = conn.execute(
            "INSERT INTO oh_cell (study_id, compiler, compiler_version, compiler_identity, level, flags,"
            " status, error, log_tail, warnings, noisy, spread, max_load, finished_at)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (study, cell.compiler, cell.compiler_version, cell.compiler_identity, cell.level,
             cell.flags_json, cell.status, cell.error, cell.log_tail, warnings, int(noisy), spread,
             max_load, utc_now()))
        cid = cur.lastrowid
        conn.executemany(
            "INSERT INTO oh_run (cell_id, seq, user_s, sys_s, wall_s, maxrss_kb, compiler_cpu_s, compilers,"
            " warnings, load1, host, started_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            [(cid, r.seq, r.user_s, r.sys_s, r.wall_s, r.maxrss_kb, r.compiler_cpu_s, r.compilers,
              r.warnings, r.load1, r.host, r.started_at) for r in cell.runs])
        conn.executemany(
            "INSERT INTO oh_tu_run (cell_id, tu, seq, user_s, sys_s, wall_s, maxrss_kb, warnings, exit)"
            " VALUES (?,?,?,?,?,?,?,?,?)",
            [(cid, t.tu, t.seq, t.user_s, t.sys_s, t.wall_s, t.maxrss_kb, t.warnings, t.exit)
             for t in cell.tu_runs])


# ------------------------------------------------------------------ reading

def _mmm(values: list[float], digits: int = 3) -> dict | None:
    if not values:
        return None
    return {"min": round(min(values), digits), "median": round(statistics.median(values), digits),
            "max": round(max(values), digits)}


def latest_study(conn: sqlite3.Connection, project: str | None = None) -> int | None:
    sql = ("SELECT s.id FROM oh_study s JOIN oh_project p ON p.id = s.project_id"
           + (" WHERE p.name = ?" if project else "") + " ORDER BY s.id DESC LIMIT 1")
    row = conn.execute(sql, (project,) if project else ()).fetchone()
    return row[0] if row else None


def studies(conn: sqlite3.Connection) -> list[int]:
    """Every study's id, newest first (the report site lists them all)."""
    return [r[0] for r in conn.execute("SELECT id FROM oh_study ORDER BY id DESC")]


def study_info(conn: sqlite3.Connection, study: int) -> dict:
    row = conn.execute("SELECT s.*, p.name AS project, p.origin FROM oh_study s"
                       " JOIN oh_project p ON p.id = s.project_id WHERE s.id = ?", (study,)).fetchone()
    if row is None:
        raise WarnscopeError(f"no overhead study {study} in the database")
    info = dict(row)
    info["machine"] = json.loads(info["machine"])
    return info


def cells(conn: sqlite3.Connection, study: int, with_tus: bool = False) -> list[dict]:
    """The study's cells in the JSON shape of ``overhead run --json``."""
    info = study_info(conn, study)
    out = []
    for c in conn.execute("SELECT * FROM oh_cell WHERE study_id = ? ORDER BY compiler, id",
                          (study,)).fetchall():
        runs = conn.execute("SELECT * FROM oh_run WHERE cell_id = ? ORDER BY seq", (c["id"],)).fetchall()
        flags = json.loads(c["flags"])
        cpu = [r["user_s"] + r["sys_s"] for r in runs]
        comp = [r["compiler_cpu_s"] for r in runs]
        cell = {
            "study": study, "project": info["project"], "mode": info["mode"], "opt": info["opt"],
            "compiler": c["compiler"], "compiler_version": c["compiler_version"], "level": c["level"],
            "flags": sorted({f for fl in flags.values() for f in fl}, key=lambda f: (f != "-w", f)),
            "flags_by_language": flags, "status": c["status"], "runs": len(runs),
            "cpu_s": _mmm(cpu), "user_s": _mmm([r["user_s"] for r in runs]),
            "sys_s": _mmm([r["sys_s"] for r in runs]), "wall_s": _mmm([r["wall_s"] for r in runs]),
            "compiler_cpu_s": _mmm(comp), "other_cpu_s": _mmm([a - b for a, b in zip(cpu, comp)]),
            "compilers": runs[-1]["compilers"] if runs else 0,
            "maxrss_kb": max((r["maxrss_kb"] for r in runs), default=None),
            "warnings": c["warnings"], "noisy": bool(c["noisy"]),
            "spread": None if c["spread"] is None else round(c["spread"], 4),
            "max_load": c["max_load"], "host": _host(runs, info["host"]),
        }
        if c["status"] != "ok":
            cell.update(error=c["error"], log_tail=c["log_tail"])
        if with_tus:
            cell["tus"] = tu_table(conn, c["id"])
        out.append(cell)
    return out


def _host(runs: list, default: str) -> str:
    """The host a cell's runs ran on ('a,b' if they were split, which a report refuses to compare)."""
    hosts = sorted({r["host"] for r in runs})
    return ",".join(hosts) if hosts else default


def tu_table(conn: sqlite3.Connection, cell_id: int) -> dict[str, dict]:
    """tu -> {cpu_s: {min, median, max}, warnings}."""
    by_tu: dict[str, list] = {}
    for r in conn.execute("SELECT * FROM oh_tu_run WHERE cell_id = ? ORDER BY tu, seq", (cell_id,)):
        by_tu.setdefault(r["tu"], []).append(r)
    return {tu: {"cpu_s": _mmm([r["user_s"] + r["sys_s"] for r in rows], 4),
                 "warnings": rows[-1]["warnings"], "exit": rows[-1]["exit"]}
            for tu, rows in by_tu.items()}
