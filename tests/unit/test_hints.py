"""Every command an error, a note or a help text tells the user to run names a command
that exists, with options that command has: the hints are collected from the source
(any text naming ``warnscope <command> …``), so a renamed command or option cannot leave
a hint behind that fails. The hints printed with real values are also run as printed, on
real data, in ``system/test_cli_hints.py``."""
from __future__ import annotations

import re
from pathlib import Path

import click

from analyzer.cli import cli

ROOT = Path(__file__).resolve().parents[2]
#: ``warnscope`` and the words of a command line, where a text shows one: in backquotes
#: or quotes, or after "run:" / "with:" / "see:" (prose saying "warnscope reads …" is not one)
HINT = re.compile(r"(?:[`']|run:? |with: |see: )warnscope ((?:[a-z][a-z0-9|-]*)(?: [^\"'`\n;)]*)?)")


def hints() -> list[tuple[str, str]]:
    """(file:line, the command line after ``warnscope``) of every hint in the source."""
    out = []
    for package in ("analyzer", "flagdb", "warnscope"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                for match in HINT.finditer(line):
                    out.append((f"{path.relative_to(ROOT)}:{number}", match.group(1)))
    return out


def problem(words: list[str]) -> str | None:
    """What is wrong with ``warnscope WORDS…`` as a command line (None: nothing)."""
    ctx = click.Context(cli)
    command: click.Command = cli
    i = 0
    while isinstance(command, click.Group) and i < len(words):
        if words[i] in ("…", "..."):               # "warnscope flags …": any of them
            return None
        names = words[i].split("|")              # overhead projects|run|report: each
        found = [command.get_command(ctx, n) for n in names]
        if not all(found):
            return f"no command {words[i]!r}"
        if len(found) > 1:
            return None
        command, i = found[0], i + 1
    options = {o for p in command.params for o in (*p.opts, *p.secondary_opts)}
    for word in words[i:]:
        if word == "--":
            break
        if word.startswith("-") and not word.startswith("-W") and word.split("=")[0] not in options:
            return f"{command.name} has no option {word}"
    return None


def test_every_hint_names_a_command_and_its_options():
    found = hints()
    assert len(found) > 40
    wrong = []
    for where, line in found:
        words = [w for w in re.split(r"\s+", line.strip()) if w]
        if any(w in ("pytest",) for w in words):
            continue
        why = problem(words)
        if why:
            wrong.append(f"{where}: warnscope {line.strip()}: {why}")
    assert wrong == []


def test_the_check_finds_a_wrong_hint():
    assert problem(["flag", "list"]) == "no command 'flag'"
    assert problem(["warnings", "run", "--level", "all"]) is None      # the singular alias
    assert problem(["warnings", "run", "--levls", "all"]) == "run has no option --levls"
    assert problem(["flags", "ingest", "gcc-12", "--source", "x"]) is None
