"""The overhead report as CSV (``overhead report --format csv``): a row per level of
each compiler, every field of :class:`~analyzer.overhead.results.Row`, CPU and wall flattened."""
from __future__ import annotations

import csv
import dataclasses
import io

from analyzer.overhead.results import OverheadReport


#: the CSV columns: every row's fields (``error`` empty where there is none), CPU and wall flattened
CSV_FIELDS = ["project", "mode", "opt", "compiler", "level", "inject", "status", "runs", "flags", "warnings",
              "noisy", "ratio", "ratio_min", "ratio_max", "added_compiler_pct", "added_other_pct", "host",
              "error", "cpu_min", "cpu_median", "cpu_max", "wall_median", "findings"]


def render(rep: OverheadReport) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=CSV_FIELDS, extrasaction="ignore")
    w.writeheader()
    for r in rep.rows:
        cpu, wall = r.cpu_s, r.wall_s
        w.writerow({**{f.name: getattr(r, f.name) for f in dataclasses.fields(r)},
                    "cpu_min": cpu and cpu.min, "cpu_median": cpu and cpu.median,
                    "cpu_max": cpu and cpu.max, "wall_median": wall and wall.median})
    return buf.getvalue().rstrip("\n")
