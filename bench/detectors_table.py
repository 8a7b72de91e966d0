"""The detectors tables of bench/README from one ``warnscope ub detectors --json`` run.

Reads the JSON (a file, or stdin) and prints Markdown: per compiler version, the UB cases
caught and the programs without UB falsely claimed (twins and controls, as ``ub detectors``
counts a false alarm) by each tool (the union of its detectors); per UB category and version,
the cases caught by any detector; the detectors that catch the most, and those with the most
false alarms, across versions.

  warnscope ub detectors --compilers gcc-11,gcc-12,clang-14,clang-16,clang-19 --json > s.json
  .venv/bin/python -m bench.detectors_table s.json
"""
from __future__ import annotations

import json
import sys
from collections import defaultdict

#: the tools, as ``ub detectors --tools`` names them
TOOLS = ("warnings", "sanitizers", "gcc-analyzer", "clang-analyzer", "clang-tidy", "cppcheck")
#: the column order: GCC, then clang, then the tools of no compiler (cppcheck)
FAMILIES = ("gcc", "clang")


def versions(data: dict) -> list[str]:
    """The run's versions, GCC's first, then clang's, then cppcheck (each by version)."""
    def key(v: str) -> tuple:
        family, _, major = v.rpartition("-")
        rank = FAMILIES.index(family) if family in FAMILIES else len(FAMILIES)
        return (rank, int(major) if major.isdigit() else 0, v)
    return sorted(data["versions"], key=key)


def alarms(d: dict) -> list[str]:
    """A detector's false alarms: on twins, and on controls (JSON of before controls
    were scored has none)."""
    return d["false_alarms"] + d.get("control_alarms", [])


def per_version(data: dict) -> list[str]:
    """Per version: cases caught and twins claimed, by tool (the union of its detectors)
    and by any detector of the version."""
    out = ["| version | " + " | ".join(TOOLS) + " | any | detectors that catch |",
           "|---|" + "---|" * (len(TOOLS) + 2)]
    for version in versions(data):
        mine = [d for d in data["detectors"] if d["version"] == version]
        cells = []
        for tool in (*TOOLS, None):
            ds = [d for d in mine if tool is None or d["tool"] == tool]
            if not ds:
                cells.append("·")
                continue
            caught = set().union(*(d["caught"] for d in ds))
            claimed = set().union(*(alarms(d) for d in ds))
            cells.append(f"{len(caught)} / {len(claimed)}")
        catching = sum(1 for d in mine if d["caught"])
        out.append(f"| {version} | " + " | ".join(cells) + f" | {catching} |")
    return out


def per_category(data: dict) -> list[str]:
    """Per UB category and version: cases caught by any detector of the version."""
    cases_in: dict[str, set] = defaultdict(set)
    for c in data["per_case"]:
        cases_in[c["category"]].add(c["case_id"])
    caught: dict[tuple[str, str], set] = defaultdict(set)
    category_of = {c["case_id"]: c["category"] for c in data["per_case"]}
    for d in data["detectors"]:
        for case in d["caught"]:
            caught[(category_of[case], d["version"])].add(case)
    columns = versions(data)
    out = ["| category | cases | " + " | ".join(columns) + " |",
           "|---|---|" + "---|" * len(columns)]
    for category in sorted(cases_in):
        out.append(f"| {category} | {len(cases_in[category])} | "
                   + " | ".join(str(len(caught[(category, v)])) for v in columns) + " |")
    return out


def top(data: dict, n: int, key: str) -> list[str]:
    """The ``n`` detectors with the most ``key`` (caught, false_alarms: with the controls')
    in any version: per version its caught / false alarms, '·' where it reported nothing."""
    by_name: dict[str, dict[str, dict]] = defaultdict(dict)
    for d in data["detectors"]:
        by_name[d["detector"]][d["version"]] = d

    def count(d: dict) -> int:
        return len(alarms(d)) if key == "false_alarms" else len(d[key])
    ranked = sorted(by_name, key=lambda name: (-max(count(d) for d in by_name[name].values()), name))
    ranked = [name for name in ranked if max(count(d) for d in by_name[name].values())][:n]
    columns = versions(data)
    out = ["| detector | kind | " + " | ".join(columns) + " |", "|---|---|" + "---|" * len(columns)]
    for name in ranked:
        row = by_name[name]
        kind = next(iter(row.values()))["kind"]
        out.append(f"| `{name}` | {kind} | " + " | ".join(
            f"{len(row[v]['caught'])} / {len(alarms(row[v]))}" if v in row else "·"
            for v in columns) + " |")
    return out


def render(data: dict, n: int = 25) -> str:
    parts = [f"{data['cases']} UB cases, {data['twins']} fixed twins, {data.get('controls', 0)} controls; "
             f"versions: {', '.join(versions(data))}",
             "", "Per version, UB cases caught / twins and controls falsely claimed, by tool (the union of "
             "its detectors):", "",
             *per_version(data), "", "Per category, cases caught by any detector of the version:", "",
             *per_category(data), "", f"The {n} detectors that catch the most (caught / false alarms):", "",
             *top(data, n, "caught"), "", "The detectors with the most false alarms (caught / false alarms):", "",
             *top(data, 12, "false_alarms")]
    if data["problems"]:
        parts += ["", "Tools that did not run on every program:", ""]
        parts += [f"- {p['version']} {p['tool']}: {p['status']} on {p['runs']} -- {p['why']}"
                  for p in data["problems"]]
    return "\n".join(parts)


def main(argv: list[str]) -> int:
    text = open(argv[1]).read() if len(argv) > 1 else sys.stdin.read()
    print(render(json.loads(text)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
