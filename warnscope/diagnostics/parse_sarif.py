"""SARIF 2.1.0 logs: GCC 16's only structured format (GCC 13-15 have it beside JSON)
and clang's ``-fdiagnostics-format=sarif`` (16 and later).

Each ``runs[].results[]`` is a diagnostic: ``level`` ('warning', 'error', 'note', ...),
``message.text``, the first location's ``physicalLocation`` (``artifactLocation.uri``,
a ``file://`` URI or a path, and ``region.startLine``/``startColumn``). The option is
GCC's ``ruleId`` (``-Wunused-variable``). clang's SARIF (16, 19: measured) names none:
its ``ruleId`` is an internal diagnostic number and the rule's ``name`` is empty, so a
clang SARIF diagnostic has no option; that is why the runner reads clang's text instead.
Text around the log (clang's own ``-Wsarif-format-unstable`` warning, ``N warnings
generated.``) is read as text.
"""
from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urlparse

from warnscope.diagnostics import Parsed, RawDiagnostic, parse_text

LEVELS = {"warning": "warning", "error": "error", "note": None, "none": None}


def _path(uri: str) -> str:
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme == "file" else uri


def _option(result: dict, rules: list) -> str | None:
    rule = result.get("ruleId")
    if isinstance(rule, str) and rule.startswith(("-W", "-R")):
        return rule
    index = result.get("ruleIndex")
    if isinstance(index, int) and 0 <= index < len(rules) and isinstance(rules[index], dict):
        name = rules[index].get("name")
        if isinstance(name, str) and name.startswith(("-W", "-R")):
            return name
    return None


def _result(result: Any, rules: list) -> RawDiagnostic | None:
    if not isinstance(result, dict):
        raise ValueError("a result that is not an object")
    level = result.get("level", "warning")
    if not isinstance(level, str):
        raise ValueError("a result whose level is not a string")
    severity = LEVELS.get(level, level)
    if severity is None:
        return None
    message = (result.get("message") or {}).get("text")
    if not isinstance(message, str):
        raise ValueError("a result without message.text")
    file = line = column = None
    locations = result.get("locations") or []
    if locations:
        physical = locations[0].get("physicalLocation") or {}
        uri = (physical.get("artifactLocation") or {}).get("uri")
        region = physical.get("region") or {}
        file = _path(uri) if isinstance(uri, str) else None
        line, column = region.get("startLine"), region.get("startColumn")
    option = _option(result, rules)
    if option and option.startswith("-Werror="):
        option = "-W" + option[len("-Werror="):]
    return RawDiagnostic(option=option, severity=severity, file=file,
                         line=line if isinstance(line, int) else None,
                         column=column if isinstance(column, int) else None,
                         message=parse_text.unleaked(message))


def _log(value: Any) -> list[RawDiagnostic]:
    if not isinstance(value, dict) or not isinstance(value.get("runs"), list):
        raise ValueError("no 'runs' list")
    found = []
    for run in value["runs"]:
        if not isinstance(run, dict):
            raise ValueError("a run that is not an object")
        rules = ((run.get("tool") or {}).get("driver") or {}).get("rules") or []
        for result in run.get("results") or []:
            d = _result(result, rules)
            if d is not None:
                found.append(d)
    return found


def parse(text: str) -> Parsed:
    return parse_text.parse_around(text, "{", "SARIF", _log)


def as_gcc_json(log: dict) -> list[dict]:
    """GCC's SARIF results as its JSON diagnostics: level, message text, the warning
    option (``ruleId``; GCC names a rule by its option) and the first location as GCC's
    JSON ``caret`` (file, line, column), which the UB detectors place a finding by."""
    found = []
    for run in log["runs"]:
        for r in (run.get("results") or []) if isinstance(run, dict) else []:
            if not isinstance(r, dict):
                continue
            d = {"kind": r.get("level", "warning"),
                 "message": (r.get("message") or {}).get("text", "")}
            if str(r.get("ruleId", "")).startswith("-W"):
                d["option"] = r["ruleId"]
            try:
                read = _result(r, [])
            except (ValueError, TypeError, AttributeError):
                read = None
            if read is not None and read.file is not None:
                d["locations"] = [{"caret": {"file": read.file, "line": read.line,
                                             "column": read.column}}]
            found.append(d)
    return found
