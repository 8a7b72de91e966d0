"""All SQL of per-flag attribution (``overhead attribute``): the attribution, its probes
(one configuration measured over the chosen TUs, stored with its runs in one
transaction) and the compiler's phase timings.

An interrupted attribution keeps its finished probes; rerunning the same parameters
reads them back instead of measuring them again.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field

from warnscope.database import transaction, utc_now


@dataclass(frozen=True)
class ProbeRun:
    """One TU compiled once under a probe's configuration."""

    tu: str
    seq: int
    user_s: float
    sys_s: float
    wall_s: float
    maxrss_kb: int
    warnings: int
    load1: float
    host: str
    instructions: int | None = None

    @property
    def cpu_s(self) -> float:
        return self.user_s + self.sys_s


@dataclass
class Probe:
    """A configuration and what it measured. ``phases``: tu -> {phase: (cpu, wall)}."""

    role: str
    flags: tuple[str, ...]
    instrument: str = "cpu"
    runs: list[ProbeRun] = field(default_factory=list)
    phases: dict[str, dict[str, tuple[float, float]]] = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str, str]:
        return self.role, json.dumps(list(self.flags)), self.instrument

    def totals(self) -> list[float]:
        """CPU seconds summed over the TUs, one figure per run (seq)."""
        by: dict[int, float] = {}
        for r in self.runs:
            by[r.seq] = by.get(r.seq, 0.0) + r.cpu_s
        return [by[s] for s in sorted(by)]

    def values(self) -> list[float]:
        """The probe's figure per run in its own unit: CPU seconds summed over the TUs
        (``cpu``), or the instructions counted over them (``instructions``: exact, so one
        run, kept as an int)."""
        if self.instrument == "instructions":
            n = self.instructions()
            return [] if n is None else [n]
        return self.totals()

    def instructions(self) -> int | None:
        values = [r.instructions for r in self.runs if r.seq == 1]
        return None if not values or None in values else sum(values)  # type: ignore[arg-type]

    def warnings(self) -> int:
        last = max((r.seq for r in self.runs), default=0)
        return sum(r.warnings for r in self.runs if r.seq == last)


def attribution_id(conn: sqlite3.Connection, key: str, project: int, tc_name: str, version: str,
                   identity: str, opt: str, params: dict, flags: dict, host: str, machine: dict) -> int:
    found = find(conn, key)
    if found is not None:
        return found
    conn.execute("INSERT INTO oh_attr (key, project_id, compiler, compiler_version, compiler_identity, opt,"
                 " params, flags, host, machine, started_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                 (key, project, tc_name, version, identity, opt, json.dumps(params, sort_keys=True),
                  json.dumps(flags, sort_keys=True), host, json.dumps(machine, sort_keys=True), utc_now()))
    return conn.execute("SELECT id FROM oh_attr WHERE key = ?", (key,)).fetchone()[0]


def find(conn: sqlite3.Connection, key: str) -> int | None:
    row = conn.execute("SELECT id FROM oh_attr WHERE key = ?", (key,)).fetchone()
    return None if row is None else row[0]


def discard_if_empty(conn: sqlite3.Connection, attr: int) -> None:
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


def info(conn: sqlite3.Connection, attr: int) -> dict:
    row = conn.execute("SELECT a.*, p.name AS project, p.origin FROM oh_attr a"
                       " JOIN oh_project p ON p.id = a.project_id WHERE a.id = ?", (attr,)).fetchone()
    out = dict(row)
    for k in ("params", "flags", "machine", "tus"):
        out[k] = json.loads(out[k]) if out[k] is not None else None
    return out


def set_tus(conn: sqlite3.Connection, attr: int, tus: dict) -> None:
    with transaction(conn):
        conn.execute("UPDATE oh_attr SET tus = ? WHERE id = ?", (json.dumps(tus), attr))


def set_finished(conn: sqlite3.Connection, attr: int, result: str) -> None:
    """Mark the attribution finished and keep its result (JSON), once: a rerun of a
    finished attribution recomputes the same result and writes nothing."""
    with transaction(conn):
        conn.execute("UPDATE oh_attr SET finished_at = ? WHERE id = ? AND finished_at IS NULL",
                     (utc_now(), attr))
        conn.execute("INSERT OR IGNORE INTO oh_attr_result (attr_id, result) VALUES (?, ?)",
                     (attr, result))


def results(conn: sqlite3.Connection) -> list[dict]:
    """Every finished attribution's result, as ``overhead attribute --json`` printed it,
    oldest first."""
    return [json.loads(r[0]) for r in conn.execute(
        "SELECT r.result FROM oh_attr_result r JOIN oh_attr a ON a.id = r.attr_id"
        " WHERE a.finished_at IS NOT NULL ORDER BY a.id")]


def load_probes(conn: sqlite3.Connection, attr: int) -> dict[tuple[str, str, str], Probe]:
    out = {}
    for p in conn.execute("SELECT * FROM oh_attr_probe WHERE attr_id = ?", (attr,)).fetchall():
        probe = Probe(p["role"], tuple(json.loads(p["flags"])), p["instrument"])
        probe.runs = [ProbeRun(tu=r["tu"], seq=r["seq"], user_s=r["user_s"], sys_s=r["sys_s"],
                               wall_s=r["wall_s"], maxrss_kb=r["maxrss_kb"], warnings=r["warnings"],
                               load1=r["load1"], host=r["host"], instructions=r["instructions"])
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
            [(pid, r.tu, r.seq, r.user_s, r.sys_s, r.wall_s, r.maxrss_kb, r.instructions, r.warnings,
              r.load1, r.host) for r in probe.runs])
        conn.executemany("INSERT INTO oh_attr_phase (probe_id, tu, phase, cpu_s, wall_s) VALUES (?,?,?,?,?)",
                         [(pid, tu, name, cpu, wall) for tu, phases in probe.phases.items()
                          for name, (cpu, wall) in phases.items()])
