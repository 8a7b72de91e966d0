"""All SQL of the overhead family: projects; studies, their cells and runs; attributions,
their probes, runs and phase timings. Readers return :mod:`analyzer.overhead.results`.

A cell is written in one transaction once all its runs are done, and so is an
attribution's probe: an interrupted study or attribution holds only finished cells
and probes, and rerunning the same parameters skips them.

Other families read these tables only through this module: the site its studies and
attributions, the advice what a flag costs (:func:`finished_attributions`, at the end,
with the dataclasses it returns).
"""
from __future__ import annotations

import json
import sqlite3
import statistics
from dataclasses import dataclass

from warnscope.database import transaction, utc_now
from warnscope.dbvalues import json_column
from warnscope.errors import CorruptDatabase, NoData
from warnscope.measure import TreeRun

from analyzer.overhead.results import (BuildRun, Cell, Figures, Probe, ProcessFigures, Study, StudyCell,
                                       TuFigures, TuRun)
from analyzer.projects.cell import BuildStatus


def has_schema(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'oh_cell'").fetchone() is not None


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
    conn.execute("INSERT INTO oh_study (key, project_id, mode, opt, runs, warmups, jobs, nice, sched,"
                 " noise, host, machine, started_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                 (key, project, params["mode"], params["opt"], params["runs"], params.get("warmups", 1),
                  params["jobs"], params["nice"], params["sched"], params["noise"], machine["host"],
                  json.dumps(machine, sort_keys=True), utc_now()))
    return conn.execute("SELECT id FROM oh_study WHERE key = ?", (key,)).fetchone()[0]


def finished(conn: sqlite3.Connection, study: int) -> set[tuple[str, str, str, str, str]]:
    """:attr:`StudyCell.key` (compiler, identity, level, flags JSON, inject) of the
    study's stored ``ok`` cells."""
    rows = conn.execute("SELECT compiler, compiler_identity, level, flags, inject FROM oh_cell"
                        " WHERE study_id = ? AND status = 'ok'", (study,)).fetchall()
    return {tuple(r) for r in rows}


def save_cell(conn: sqlite3.Connection, study: int, cell: StudyCell, noise: float,
              busy_load: float) -> None:
    """Store one finished cell and its runs in one transaction (a failed cell of the
    same key from an earlier attempt is replaced)."""
    cpu = [r.cpu_s for r in cell.runs]
    spread = (max(cpu) - min(cpu)) / statistics.median(cpu) if cpu and statistics.median(cpu) > 0 else None
    max_load = max((r.tree.load1 for r in cell.runs), default=None)
    noisy = bool((spread is not None and spread > noise) or (max_load is not None and max_load > busy_load))
    warnings = cell.runs[-1].warnings if cell.runs else None
    with transaction(conn):
        conn.execute("DELETE FROM oh_cell WHERE study_id = ? AND compiler = ? AND compiler_identity = ?"
                     " AND level = ? AND flags = ? AND inject = ?",
                     (study, cell.compiler, cell.compiler_identity, cell.level, cell.flags_json,
                      cell.inject))
        cur = conn.execute(
            "INSERT INTO oh_cell (study_id, compiler, compiler_version, compiler_identity, level, flags,"
            " inject, status, error, log_tail, warnings, noisy, spread, max_load, finished_at, findings)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (study, cell.compiler, cell.compiler_version, cell.compiler_identity, cell.level,
             cell.flags_json, cell.inject, cell.status, cell.error, cell.log_tail, warnings, int(noisy),
             spread, max_load, utc_now(), cell.findings if cell.status == BuildStatus.OK else None))
        cid = cur.lastrowid
        conn.executemany(
            "INSERT INTO oh_run (cell_id, seq, user_s, sys_s, wall_s, maxrss_kb, compiler_cpu_s, compilers,"
            " warnings, load1, host, started_at, by_process, residual_s)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [(cid, r.seq, r.tree.user, r.tree.sys, r.tree.wall, r.tree.maxrss_kb, r.compiler_cpu_s,
              r.compilers, r.warnings, r.tree.load1, r.host, r.started_at, *_processes_columns(r))
             for r in cell.runs])
        conn.executemany(
            "INSERT INTO oh_tu_run (cell_id, tu, seq, user_s, sys_s, wall_s, maxrss_kb, warnings, exit)"
            " VALUES (?,?,?,?,?,?,?,?,?)",
            [(cid, t.tu, t.seq, t.tree.user, t.tree.sys, t.tree.wall, t.tree.maxrss_kb, t.warnings,
              t.tree.exit) for t in cell.tu_runs])


def _processes_columns(run: BuildRun) -> tuple[str | None, float | None]:
    """``by_process`` (JSON {name: [cpu_s, processes]}) and ``residual_s`` of a run."""
    table = run.processes
    if table is None:
        return None, None
    return (json.dumps({c.name: [round(c.cpu_s, 6), c.processes] for c in table.by_name}),
            round(table.residual_s, 6))


def _by_process(runs: list, cell: str) -> dict[str, ProcessFigures] | None:
    """A cell's ``by_process`` over its runs: None unless every run has one (a program
    absent from a run counts 0 there), largest median CPU first."""
    tables = []
    for r in runs:
        if r["by_process"] is None:
            return None
        try:
            tables.append({name: (float(v[0]), int(v[1])) for name, v in json.loads(r["by_process"]).items()})
        except (ValueError, TypeError, IndexError, AttributeError):
            raise CorruptDatabase(f"oh_run.by_process of {cell} run {r['seq']} is not valid: "
                                  "the database is damaged") from None
    if not tables:
        return None
    names = {n for t in tables for n in t}
    out = {n: ProcessFigures(cpu_s=Figures.of([t.get(n, (0.0, 0))[0] for t in tables]),
                             processes=Figures.of([t.get(n, (0.0, 0))[1] for t in tables], 1))
           for n in names}
    return dict(sorted(out.items(), key=lambda kv: (-kv[1].cpu_s.median, kv[0])))


# ------------------------------------------------------------------ reading studies

def latest_study(conn: sqlite3.Connection, project: str | None = None) -> int | None:
    sql = ("SELECT s.id FROM oh_study s JOIN oh_project p ON p.id = s.project_id"
           + (" WHERE p.name = ?" if project else "") + " ORDER BY s.id DESC LIMIT 1")
    row = conn.execute(sql, (project,) if project else ()).fetchone()
    return row[0] if row else None


def studies(conn: sqlite3.Connection) -> list[int]:
    """Every study's id, newest first (the report site lists them all)."""
    return [r[0] for r in conn.execute("SELECT id FROM oh_study ORDER BY id DESC")]


def tu_studies(conn: sqlite3.Connection, project: str, opt: str, study: int | None = None) -> list[int]:
    """The tu-mode studies of ``project`` at ``opt``, newest first (``study``: that one
    only), where an attribution may take its workload from."""
    sql = ("SELECT s.id FROM oh_study s JOIN oh_project p ON p.id = s.project_id WHERE p.name = ? AND"
           " s.mode = 'tu' AND s.opt = ?" + (" AND s.id = ?" if study is not None else "")
           + " ORDER BY s.id DESC")
    return [r[0] for r in conn.execute(sql, (project, opt, *(() if study is None else (study,))))]


def study_info(conn: sqlite3.Connection, study: int) -> Study:
    row = conn.execute("SELECT s.*, p.name AS project, p.origin FROM oh_study s"
                       " JOIN oh_project p ON p.id = s.project_id WHERE s.id = ?", (study,)).fetchone()
    if row is None:
        raise NoData(f"no overhead study {study} in the database")
    return Study(id=row["id"], project=row["project"], origin=row["origin"], mode=row["mode"],
                 opt=row["opt"], runs=row["runs"], warmups=row["warmups"], jobs=row["jobs"],
                 nice=row["nice"], sched=row["sched"],
                 noise=row["noise"], host=row["host"], machine=json.loads(row["machine"]),
                 started_at=row["started_at"])


def cells(conn: sqlite3.Connection, study: int, with_tus: bool = False) -> list[Cell]:
    """The study's cells (``overhead run --json``); ``with_tus``: each with its TUs' figures."""
    info = study_info(conn, study)
    out = []
    for c in conn.execute("SELECT * FROM oh_cell WHERE study_id = ? ORDER BY compiler, id",
                          (study,)).fetchall():
        runs = conn.execute("SELECT * FROM oh_run WHERE cell_id = ? ORDER BY seq", (c["id"],)).fetchall()
        flags = json.loads(c["flags"])
        cpu = [r["user_s"] + r["sys_s"] for r in runs]
        comp = [r["compiler_cpu_s"] for r in runs]
        failed = c["status"] != BuildStatus.OK
        out.append(Cell(
            study=study, project=info.project, mode=info.mode, opt=info.opt,
            compiler=c["compiler"], compiler_version=c["compiler_version"], level=c["level"],
            inject=c["inject"],
            flags=sorted({f for fl in flags.values() for f in fl}, key=lambda f: (f != "-w", f)),
            flags_by_language=flags, status=BuildStatus(c["status"]), runs=len(runs),
            cpu_s=Figures.of(cpu), user_s=Figures.of([r["user_s"] for r in runs]),
            sys_s=Figures.of([r["sys_s"] for r in runs]), wall_s=Figures.of([r["wall_s"] for r in runs]),
            compiler_cpu_s=Figures.of(comp), other_cpu_s=Figures.of([a - b for a, b in zip(cpu, comp)]),
            by_process=_by_process(runs, f"{c['compiler']} {c['level']}"),
            compilers=runs[-1]["compilers"] if runs else 0,
            maxrss_kb=max((r["maxrss_kb"] for r in runs), default=None),
            warnings=c["warnings"], findings=c["findings"] if not failed else None, noisy=bool(c["noisy"]),
            spread=None if c["spread"] is None else round(c["spread"], 4),
            max_load=c["max_load"], host=_host(runs, info.host),
            error=c["error"] if failed else None, log_tail=c["log_tail"] if failed else None,
            tus=tu_table(conn, c["id"]) if with_tus else None,
            residual_s=Figures.of([r["residual_s"] for r in runs], 4)
            if runs and all(r["residual_s"] is not None for r in runs) else None))
    return out


def _host(runs: list, default: str) -> str:
    """The host a cell's runs ran on ('a,b' if they were split, which a report refuses to compare)."""
    hosts = sorted({r["host"] for r in runs})
    return ",".join(hosts) if hosts else default


def tu_table(conn: sqlite3.Connection, cell_id: int) -> dict[str, TuFigures]:
    """tu -> its CPU over the runs, and the warnings and exit of the last run."""
    by_tu: dict[str, list] = {}
    for r in conn.execute("SELECT * FROM oh_tu_run WHERE cell_id = ? ORDER BY tu, seq", (cell_id,)):
        by_tu.setdefault(r["tu"], []).append(r)
    return {tu: TuFigures(cpu_s=Figures.of([r["user_s"] + r["sys_s"] for r in rows], 4),
                          warnings=rows[-1]["warnings"], exit=rows[-1]["exit"])
            for tu, rows in by_tu.items()}


# ------------------------------------------------------------------ attributions

def attribution_id(conn: sqlite3.Connection, key: str, project: int, tc_name: str, version: str,
                   identity: str, opt: str, params: dict, flags: dict, host: str, machine: dict) -> int:
    found = find_attribution(conn, key)
    if found is not None:
        return found
    conn.execute("INSERT INTO oh_attr (key, project_id, compiler, compiler_version, compiler_identity, opt,"
                 " params, flags, host, machine, started_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                 (key, project, tc_name, version, identity, opt, json.dumps(params, sort_keys=True),
                  json.dumps(flags, sort_keys=True), host, json.dumps(machine, sort_keys=True), utc_now()))
    return conn.execute("SELECT id FROM oh_attr WHERE key = ?", (key,)).fetchone()[0]


def find_attribution(conn: sqlite3.Connection, key: str) -> int | None:
    row = conn.execute("SELECT id FROM oh_attr WHERE key = ?", (key,)).fetchone()
    return None if row is None else row[0]


def discard_empty_attribution(conn: sqlite3.Connection, attr: int) -> None:
    """Delete an attribution that holds no probe, and its project if nothing else refers to it."""
    with transaction(conn):
        if conn.execute("SELECT 1 FROM oh_attr_probe WHERE attr_id = ?", (attr,)).fetchone():
            return
        row = conn.execute("SELECT project_id FROM oh_attr WHERE id = ?", (attr,)).fetchone()
        conn.execute("DELETE FROM oh_attr WHERE id = ?", (attr,))
        if row is not None:
            conn.execute("DELETE FROM oh_project WHERE id = ? AND NOT EXISTS (SELECT 1 FROM oh_study"
                         " WHERE project_id = ?) AND NOT EXISTS (SELECT 1 FROM oh_attr WHERE project_id = ?)",
                         (row[0], row[0], row[0]))


def attribution_info(conn: sqlite3.Connection, attr: int) -> dict:
    row = conn.execute("SELECT a.*, p.name AS project, p.origin FROM oh_attr a"
                       " JOIN oh_project p ON p.id = a.project_id WHERE a.id = ?", (attr,)).fetchone()
    out = dict(row)
    for k in ("params", "flags", "machine", "tus"):
        out[k] = json.loads(out[k]) if out[k] is not None else None
    return out


def set_attribution_tus(conn: sqlite3.Connection, attr: int, tus: dict) -> None:
    with transaction(conn):
        conn.execute("UPDATE oh_attr SET tus = ? WHERE id = ?", (json.dumps(tus), attr))


def finish_attribution(conn: sqlite3.Connection, attr: int, result: str) -> None:
    """Mark the attribution finished and keep its result (JSON), once: a rerun of a
    finished attribution recomputes the same result and writes nothing."""
    with transaction(conn):
        conn.execute("UPDATE oh_attr SET finished_at = ? WHERE id = ? AND finished_at IS NULL",
                     (utc_now(), attr))
        conn.execute("INSERT OR IGNORE INTO oh_attr_result (attr_id, result) VALUES (?, ?)",
                     (attr, result))


def attribution_results(conn: sqlite3.Connection) -> list[dict]:
    """Every finished attribution's result, oldest first, as stored when it finished: the
    JSON document of its :class:`~analyzer.overhead.results.Attribution`, kept as the
    record it is (results stored by earlier versions of the type keep their own keys)."""
    return [json.loads(r[0]) for r in conn.execute(
        "SELECT r.result FROM oh_attr_result r JOIN oh_attr a ON a.id = r.attr_id"
        " WHERE a.finished_at IS NOT NULL ORDER BY a.id")]


def load_probes(conn: sqlite3.Connection, attr: int) -> dict[tuple[str, str, str], Probe]:
    out = {}
    for p in conn.execute("SELECT * FROM oh_attr_probe WHERE attr_id = ?", (attr,)).fetchall():
        probe = Probe(p["role"], tuple(json.loads(p["flags"])), p["instrument"])
        probe.runs = [TuRun(tu=r["tu"], seq=r["seq"],
                            tree=TreeRun(user=r["user_s"], sys=r["sys_s"], wall=r["wall_s"],
                                         maxrss_kb=r["maxrss_kb"], load1=r["load1"]),
                            warnings=r["warnings"], host=r["host"], instructions=r["instructions"])
                      for r in conn.execute("SELECT * FROM oh_attr_run WHERE probe_id = ? ORDER BY seq, tu",
                                            (p["id"],))]
        for r in conn.execute("SELECT * FROM oh_attr_phase WHERE probe_id = ?", (p["id"],)):
            probe.phases.setdefault(r["tu"], {})[r["phase"]] = (r["cpu_s"], r["wall_s"])
        out[probe.key] = probe
    return out


def save_probe(conn: sqlite3.Connection, attr: int, probe: Probe) -> None:
    """Store a finished probe with its runs and phases in one transaction."""
    role, flags, instrument = probe.key
    with transaction(conn):
        cur = conn.execute("INSERT INTO oh_attr_probe (attr_id, role, flags, instrument, runs, finished_at)"
                           " VALUES (?,?,?,?,?,?)", (attr, role, flags, instrument,
                                                     len({r.seq for r in probe.runs}), utc_now()))
        pid = cur.lastrowid
        conn.executemany(
            "INSERT INTO oh_attr_run (probe_id, tu, seq, user_s, sys_s, wall_s, maxrss_kb, instructions,"
            " warnings, load1, host) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            [(pid, r.tu, r.seq, r.tree.user, r.tree.sys, r.tree.wall, r.tree.maxrss_kb, r.instructions,
              r.warnings, r.tree.load1, r.host) for r in probe.runs])
        conn.executemany("INSERT INTO oh_attr_phase (probe_id, tu, phase, cpu_s, wall_s) VALUES (?,?,?,?,?)",
                         [(pid, tu, name, cpu, wall) for tu, phases in probe.phases.items()
                          for name, (cpu, wall) in phases.items()])


# ------------------------------------------------------------------ what other families read

@dataclass(frozen=True)
class SuspectCost:
    """A suspect of an attribution: the flags measured as one, and their median cost
    alone (None: not a number in the stored result)."""

    flags: list[str]
    alone: float | None


@dataclass(frozen=True)
class StoredAttribution:
    """A finished ``overhead attribute`` of a project with one compiler, as another family
    reads it: its result document as stored when it finished (the
    :class:`~analyzer.overhead.results.Attribution` as JSON; an earlier version's keeps
    its own keys), read through the properties below."""

    id: int
    compiler: str
    result: dict

    @property
    def metric(self) -> str | None:
        return self.result.get("metric")

    @property
    def unit(self) -> str | None:
        return self.result.get("unit")

    @property
    def off_median(self) -> float | None:
        """The median of the compiles with every warning off (None: none measured)."""
        off = sorted(x for x in self.result.get("off", []) if isinstance(x, (int, float)))
        return off[len(off) // 2] if off else None

    @property
    def flags_searched(self) -> int:
        return self.result.get("flags_searched", 0)

    def suspect(self, flag: str) -> SuspectCost | None:
        """The first suspect the search separated (not diffuse) that holds ``flag``."""
        for s in self.result.get("suspects", []):
            if flag in s.get("flags", []) and not s.get("diffuse"):
                alone = (s.get("alone") or {}).get("median")
                return SuspectCost(list(s["flags"]), alone if isinstance(alone, (int, float)) else None)
        return None


def finished_attributions(conn: sqlite3.Connection, project: str, compilers: list[str]
                          ) -> dict[str, StoredAttribution]:
    """The newest finished attribution of the project per compiler (compiler -> it); a
    result that is not a JSON object is one :class:`CorruptDatabase` line."""
    if not compilers or not has_schema(conn):
        return {}
    out: dict[str, StoredAttribution] = {}
    for r in conn.execute(
            "SELECT a.id, a.compiler, r.result FROM oh_attr a JOIN oh_project p ON p.id = a.project_id "
            "JOIN oh_attr_result r ON r.attr_id = a.id WHERE p.name = ? AND a.finished_at IS NOT NULL "
            f"AND a.compiler IN ({','.join('?' * len(compilers))}) ORDER BY a.id",
            (project, *compilers)):
        out[r["compiler"]] = StoredAttribution(r["id"], r["compiler"],
                                               json_column(r["result"], dict, f"oh_attr_result.result of {r['id']}"))
    return out
