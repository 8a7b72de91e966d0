"""SARIF 2.1.0 (OASIS) logs of warnscope's results, shaped as GitHub code scanning takes
them: the pieces every family's builder uses (``analyzer/warnings/sarif.py``,
``analyzer/ub/detectors/sarif.py``), written once.

* :func:`location`: a file of the analysed tree as a relative URI on the ``SRCROOT``
  base (percent-encoded: a ``:`` or a space in a name stays a path), an absolute path
  (``/usr/include/stdio.h``) as a ``file://`` URI, a compiler's own header
  (``<gcc>/include/stddef.h``, as the warnings family stores it) on the ``COMPILER`` base;
  a line and column where there is one (never a line 0).
* :func:`result`: ``ruleId``, ``level`` (error, warning, note, none), ``message.text``,
  its locations, and ``baselineState`` (new, unchanged, updated, absent), ``kind`` and
  ``suppressions`` where the family gives them.
* :func:`run`: one run of the tool ``warnscope`` with its version, the rules the kept
  results use (``ruleIndex`` set), a distinct ``automationDetails.id`` (GitHub refuses
  two runs of one tool and category in one file), and at most :data:`MAX_RESULTS`
  results: GitHub's limit per run. Which are kept when there are more is :func:`rank`'s
  order (errors, then new and reworded results first); how many were left out is said
  in the run's ``properties`` (``resultsLeftOut``) and as a notification of its
  invocation, never silently; so is a result without a location (GitHub takes none).
* :func:`log` and :func:`dumps`: the file.

Everything here is plain dicts and lists, ready for ``json.dumps``: a family builds its
results from its own result objects (the ones its text renderer reads) and imports this
module; this module imports no family.
"""
from __future__ import annotations

import json
import os
from typing import Any, Callable, Iterable, Sequence
from urllib.parse import quote

VERSION = "2.1.0"
SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
TOOL_NAME = "warnscope"
#: GitHub code scanning's limit of results per run (it refuses a run with more)
MAX_RESULTS = 25_000
#: GitHub code scanning's limit of runs per file
MAX_RUNS = 20
#: the base of the analysed tree's files (a project's tree, the UB corpus)
SRCROOT = "SRCROOT"
#: the base of a compiler's own files (``<gcc>/include/...``, ``<clang>/include/...``)
COMPILER = "COMPILER"
LEVELS = ("error", "warning", "note", "none")
BASELINE_STATES = ("new", "updated", "unchanged", "absent")
#: the notification and property that say results were left out of a run
CAPPED = "warnscope/results-capped"
#: the notification that says results have no location
PLACELESS = "warnscope/results-without-location"

#: what a relative path may keep unencoded (a ':' in the first segment would read as a
#: URI scheme, a space is no URI character)
_SAFE = "/-._~!$&'()*+,;=@"


def tool_version() -> str | None:
    """warnscope's version as installed (None: run from a checkout never installed)."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("warnscope")
    except PackageNotFoundError:
        return None


def artifact(path: str) -> dict:
    """The ``artifactLocation`` of a file as warnscope stores it: relative to the
    analysed tree (``SRCROOT``), absolute (a ``file://`` URI), or a compiler's own
    (``<gcc>/include/stddef.h``: ``include/stddef.h`` on ``COMPILER``)."""
    if path.startswith("<") and ">/" in path:
        return {"uri": quote(path.split(">/", 1)[1], safe=_SAFE), "uriBaseId": COMPILER}
    if os.path.isabs(path):
        return {"uri": "file://" + quote(path, safe=_SAFE)}
    while path.startswith("./"):
        path = path[2:]
    return {"uri": quote(path, safe=_SAFE), "uriBaseId": SRCROOT}


def region(line: int | None, column: int | None = None) -> dict | None:
    """``startLine`` (and ``startColumn``) where there is a line: both are 1-based, so
    a 0 (a compiler's "no line") is none."""
    if not isinstance(line, int) or line < 1:
        return None
    out = {"startLine": line}
    if isinstance(column, int) and column >= 1:
        out["startColumn"] = column
    return out


def location(path: str, line: int | None = None, column: int | None = None,
             message: str | None = None) -> dict:
    """A ``location`` of ``path`` (see :func:`artifact`), at ``line``/``column`` where
    given; ``message`` says what is there (a related location's words)."""
    physical: dict[str, Any] = {"artifactLocation": artifact(path)}
    where = region(line, column)
    if where is not None:
        physical["region"] = where
    out: dict[str, Any] = {"physicalLocation": physical}
    if message:
        out["message"] = {"text": message}
    return out


def result(rule: str, level: str, text: str, locations: Sequence[dict] = (), *,
           kind: str | None = None, baseline: str | None = None,
           properties: dict | None = None, related: Sequence[dict] = (),
           suppressed: str | None = None) -> dict:
    """One ``result``. ``kind`` other than ``fail`` takes level ``none`` (the
    specification's rule); ``suppressed`` is the justification of an external,
    accepted suppression (a result kept for the record that is no problem now)."""
    if level not in LEVELS:
        raise ValueError(f"SARIF level {level!r}: one of {', '.join(LEVELS)}")
    if baseline is not None and baseline not in BASELINE_STATES:
        raise ValueError(f"SARIF baselineState {baseline!r}: one of {', '.join(BASELINE_STATES)}")
    if kind not in (None, "fail"):
        level = "none"
    out: dict[str, Any] = {"ruleId": rule, "level": level, "message": {"text": text or rule}}
    if kind is not None:
        out["kind"] = kind
    if locations:
        out["locations"] = list(locations)
    if related:
        out["relatedLocations"] = [{"id": i, **loc} for i, loc in enumerate(related, 1)]
    if baseline is not None:
        out["baselineState"] = baseline
    if suppressed is not None:
        out["suppressions"] = [{"kind": "external", "status": "accepted", "justification": suppressed}]
    if properties:
        out["properties"] = properties
    return out


def rank(r: dict) -> tuple[int, int]:
    """The order in which results are kept under the cap: by level (errors first), then
    by baseline state (new, reworded, unchanged, absent)."""
    level = LEVELS.index(r.get("level", "warning")) if r.get("level", "warning") in LEVELS else 1
    state = r.get("baselineState")
    return level, BASELINE_STATES.index(state) if state in BASELINE_STATES else 0


def capped(results: Sequence[dict], limit: int = MAX_RESULTS,
           order: Callable[[dict], Any] = rank) -> tuple[list[dict], int]:
    """The results a run keeps (at most ``limit``, the first by ``order``, in their own
    order) and how many were left out."""
    if len(results) <= limit:
        return list(results), 0
    chosen = sorted(range(len(results)), key=lambda i: (order(results[i]), i))[:limit]
    return [results[i] for i in sorted(chosen)], len(results) - limit


def notification(text: str, level: str = "note", id: str | None = None) -> dict:
    """A ``notification`` of a run's invocation: something said about the run itself."""
    out: dict[str, Any] = {"level": level, "message": {"text": text}}
    if id is not None:
        out["descriptor"] = {"id": id}
    return out


def run(category: str, results: Sequence[dict], rules: dict[str, str] | None = None, *,
        src_root: str | None = None, src_description: str = "",
        compiler_description: str = "", properties: dict | None = None,
        notes: Iterable[dict | str] = (), limit: int = MAX_RESULTS) -> dict:
    """One run of warnscope: ``results`` capped at ``limit`` (:func:`capped`; the number
    left out in ``properties.resultsLeftOut`` and a warning notification), the rules the
    kept results use, in the order met, each described by ``rules[id]`` where given,
    ``category`` as ``automationDetails.id`` (ending in ``/``: all of it is the
    category), ``src_root`` the analysed tree's directory (``SRCROOT``'s absolute
    ``file://`` URI, where there is one: a reader resolves the relative paths with it;
    GitHub takes them relative to the repository). ``notes``: notifications, or lines."""
    kept, left_out = capped(results, limit)
    descriptions = rules or {}
    index: dict[str, int] = {}
    for r in kept:
        index.setdefault(r["ruleId"], len(index))
        r["ruleIndex"] = index[r["ruleId"]]
    driver: dict[str, Any] = {"name": TOOL_NAME}
    version = tool_version()
    if version:
        driver["version"] = version
    driver["rules"] = [_rule(rule, descriptions.get(rule, "")) for rule in index]
    said = [n if isinstance(n, dict) else notification(n) for n in notes]
    props = dict(properties or {})
    placeless = sum(1 for r in kept if not r.get("locations"))
    if placeless:   # GitHub code scanning refuses a file holding one: said, never hidden
        said.insert(0, notification(
            f"{placeless} result{'s' * (placeless != 1)} without a location (the file is not at hand): "
            "GitHub code scanning takes no result without one", "warning", PLACELESS))
        props["resultsWithoutLocation"] = placeless
    if left_out:
        said.insert(0, notification(
            f"{left_out} of {len(results)} results left out: a run holds at most {limit:,} "
            "(GitHub code scanning's limit); errors and new results were kept first",
            "warning", CAPPED))
        props.update(resultsTotal=len(results), resultsLeftOut=left_out)
    bases: dict[str, Any] = {}
    used = {b for r in kept for b in _bases(r)}
    if SRCROOT in used or src_root:
        bases[SRCROOT] = _base_location(src_root, src_description or "the analysed source tree")
    if COMPILER in used:
        bases[COMPILER] = {"description": {"text": compiler_description or
                                           "the compiler's own directory (its headers under include/)"}}
    out: dict[str, Any] = {"tool": {"driver": driver},
                           "automationDetails": {"id": category if category.endswith("/") else category + "/"},
                           "invocations": [{"executionSuccessful": True, **(
                               {"toolExecutionNotifications": said} if said else {})}]}
    if bases:
        out["originalUriBaseIds"] = bases
    out["results"] = kept
    if props:
        out["properties"] = props
    return out


def _rule(rule: str, description: str) -> dict:
    out: dict[str, Any] = {"id": rule}
    if description:
        out["shortDescription"] = {"text": description}
    return out


def _bases(r: dict) -> set[str]:
    """The URI bases a result's locations name."""
    return {base for loc in [*r.get("locations", ()), *r.get("relatedLocations", ())]
            if (base := loc.get("physicalLocation", {}).get("artifactLocation", {}).get("uriBaseId"))}


def _base_location(directory: str | None, description: str) -> dict:
    out: dict[str, Any] = {"description": {"text": description}}
    if directory and os.path.isabs(directory):
        out["uri"] = "file://" + quote(directory.rstrip("/") + "/", safe=_SAFE)
    return out


def log(runs: Sequence[dict]) -> dict:
    """The SARIF log of ``runs``; their categories must differ (GitHub refuses two runs
    of one tool and category in one file)."""
    seen: set[str] = set()
    for r in runs:
        category = r.get("automationDetails", {}).get("id", "")
        if category in seen:
            raise ValueError(f"two SARIF runs of one category {category!r}")
        seen.add(category)
    return {"$schema": SCHEMA_URI, "version": VERSION, "runs": list(runs)}


def beyond_limits(value: dict) -> list[str]:
    """What a log holds beyond what GitHub code scanning takes in one file, in words (the
    runs' own limits are kept by :func:`run`)."""
    runs = len(value.get("runs", ()))
    if runs > MAX_RUNS:
        return [f"{runs} SARIF runs in one log: GitHub code scanning takes at most {MAX_RUNS} per "
                "file (upload them in parts, or ask for fewer compilers, levels or tools)"]
    return []


def dumps(value: dict) -> str:
    """The log as the file's text (ASCII: every other character escaped)."""
    return json.dumps(value, indent=2)
