"""One name per thing across commands.

Every option of every command (the click tree from ``analyzer.cli``'s root group, its
lazy groups loaded) is given a meaning, from its parameter's name (:data:`BY_PARAM`, or
:data:`BY_COMMAND` where one command's parameter means something else), and each meaning
has one name (:data:`MEANINGS`): a user who typed ``site build -o DIR`` types ``site serve
-o DIR`` too. Options of no meaning in the table are held to the same rule among
themselves: one parameter name, one set of spellings on every command.

A spelling kept for old scripts is a hidden option (``flags check -c``, ``site serve -d``:
docs/flags.md, docs/site.md) and does not count. What the test finds in the commands that
cannot be changed now is listed in :data:`KNOWN`, each with where it is; an entry no
longer found must leave the list.
"""
from __future__ import annotations

import click

from analyzer.cli import cli

#: meaning -> (its long name, the short name it may have besides)
MEANINGS = {
    "the database": ("--db", None),
    "JSON output": ("--json", None),
    "the output format": ("--format", None),
    "the report site's directory": ("--output", "-o"),
    "the compilers (a list)": ("--compilers", None),
    "one compiler": ("--compiler", "-c"),
    "a build's own parallelism (make -j)": ("--jobs", "-j"),
    "how many run at once": ("--workers", None),
    "levels (a list)": ("--levels", None),
    "one level": ("--level", None),
    "a language (c, c++)": ("--lang", None),
    "how many rows a text answer shows": ("--limit", None),
    "an extra flag set to build or run with": ("--flag-set", None),
    "the UB corpus": ("--corpus", None),
    "one project": ("--project", None),
    "projects (a list)": ("--projects", None),
    "seconds a step may take": ("--timeout", None),
    "a Dask scheduler": ("--scheduler", None),
    "no progress on stderr": ("--quiet", None),
    "the optimisation flag of a build": ("--opt", None),
    "a TCP port": ("--port", None),
    "a Debian suite": ("--suite", None),
    "runs of each cell": ("--runs", None),
    "a stored study": ("--study", None),
}

#: a parameter's name -> its meaning
BY_PARAM = {
    "db": "the database", "database": "the database",
    "as_json": "JSON output",
    "fmt": "the output format",
    "out_dir": "the report site's directory", "site_dir": "the report site's directory",
    "compilers": "the compilers (a list)",
    "compiler": "one compiler",
    "jobs": "a build's own parallelism (make -j)",
    "workers": "how many run at once",
    "levels": "levels (a list)",
    "level": "one level",
    "lang": "a language (c, c++)", "language": "a language (c, c++)",
    "limit": "how many rows a text answer shows",
    "flag_sets": "an extra flag set to build or run with",
    "cell_flags": "an extra flag set to build or run with",
    "corpus_dir": "the UB corpus",
    "project": "one project",
    "projects": "projects (a list)",
    "timeout": "seconds a step may take",
    "scheduler": "a Dask scheduler",
    "quiet": "no progress on stderr",
    "opt": "the optimisation flag of a build",
    "port": "a TCP port",
    "suite": "a Debian suite",
    "runs": "runs of each cell",
    "study_id": "a stored study",
}

#: (command, parameter) -> its meaning, where the parameter's name says another
BY_COMMAND = {
    # ub's -j is how many worker processes run cells (or searches) at once
    ("warnscope ub run", "jobs"): "how many run at once",
    ("warnscope ub detectors", "jobs"): "how many run at once",
    ("warnscope ub why", "jobs"): "how many run at once",
    # TUs listed per compiler and level
    ("warnscope overhead report", "top"): "how many rows a text answer shows",
}

#: what the test finds in commands that cannot change now (their files are being
#: edited, or belong to another part): (command, parameter) -> where, and the fix due
KNOWN = {
    ("warnscope demo", "site_dir"):
        "analyzer/cli/demo.py: --site DIR; -o/--output with --site hidden",
    # analyzer/cli/projects.py declares it once for these four
    ("warnscope advise", "language"): "analyzer/cli/projects.py: --language; --lang, --language hidden",
    ("warnscope overhead run", "language"): "analyzer/cli/projects.py: --language",
    ("warnscope warnings run", "language"): "analyzer/cli/projects.py: --language",
    ("warnscope upgrade", "language"): "analyzer/cli/projects.py: --language",
    ("warnscope overhead report", "top"): "analyzer/cli/overhead.py: --top; --limit, --top hidden",
    ("warnscope ub run", "jobs"): "analyzer/cli/ub.py: -j/--jobs is its workers; --workers",
    ("warnscope ub detectors", "jobs"): "analyzer/cli/ub.py: -j/--jobs is its workers",
    ("warnscope ub why", "jobs"): "analyzer/cli/ub.py: -j/--jobs is its searches at once",
    ("warnscope ub run", "flag_sets"):
        "analyzer/cli/ub.py: --flags (bare flags, where --flag-set takes NAME=FLAGS)",
    ("warnscope ub why", "cell_flags"): "analyzer/cli/ub.py: --flags",
    ("warnscope ub explain", "level"): "analyzer/cli/ub.py: --levels shown beside --level",
    ("warnscope ub why", "level"): "analyzer/cli/ub.py: --levels shown beside --level",
    ("warnscope warnings run", "levels"): "analyzer/cli/warnings.py: --level shown beside --levels",
    ("warnscope warnings diff", "level"): "analyzer/cli/warnings.py: --levels shown beside --level",
    ("warnscope warnings report", "level"): "analyzer/cli/warnings.py: --levels shown beside --level",
    ("warnscope warnings show", "level"): "analyzer/cli/warnings.py: --levels shown beside --level",
    ("warnscope warnings top", "level"): "analyzer/cli/warnings.py: --levels shown beside --level",
    ("warnscope warnings report", "limit"): "analyzer/cli/warnings.py: --top; --limit",
}


def options() -> list[tuple[str, click.Option]]:
    """(command path, option) of every command, the lazy groups loaded."""
    out: list[tuple[str, click.Option]] = []
    ctx = click.Context(cli)

    def walk(cmd: click.Command, path: str) -> None:
        out.extend((path, p) for p in cmd.params if isinstance(p, click.Option))
        if isinstance(cmd, click.Group):
            for name in cmd.list_commands(ctx):
                walk(cmd.get_command(ctx, name), f"{path} {name}")

    walk(cli, "warnscope")
    return out


def shown_names(option: click.Option) -> tuple[set[str], set[str]]:
    """The long and the short names ``--help`` shows for ``option`` (none if hidden)."""
    if option.hidden:
        return set(), set()
    names = set(option.opts) | set(option.secondary_opts)
    return {n for n in names if n.startswith("--")}, {n for n in names if not n.startswith("--")}


def meaning_of(command: str, option: click.Option) -> str | None:
    return BY_COMMAND.get((command, option.name)) or BY_PARAM.get(option.name)


def findings() -> dict[tuple[str, str], str]:
    """(command, parameter) -> what is wrong with its names."""
    found: dict[tuple[str, str], str] = {}
    canonical = {long: meaning for meaning, (long, _) in MEANINGS.items()}
    unclassified: dict[str, dict[str, set[str]]] = {}
    for command, option in options():
        longs, shorts = shown_names(option)
        if not longs and not shorts:
            continue
        meaning = meaning_of(command, option)
        if meaning is None:
            unclassified.setdefault(option.name, {})[command] = longs | shorts
            for name in longs & set(canonical):
                found[(command, option.name)] = (f"{name} is the name of {canonical[name]!r}, "
                                                 "not of this option")
            continue
        long, short = MEANINGS[meaning]
        extra = (longs - {long}) | (shorts - {short})
        if long not in longs or extra:
            found[(command, option.name)] = (
                f"{meaning!r} is {long}{f'/{short}' if short else ''} everywhere, here "
                f"{'/'.join(sorted(longs | shorts))}")
    for param, by_command in unclassified.items():
        spellings = {frozenset(s) for s in by_command.values()}
        if len(spellings) > 1:
            for command, names in by_command.items():
                found.setdefault((command, param), f"{param} is spelled {sorted(names)} here, "
                                                   "otherwise elsewhere")
    return found


def test_every_meaning_has_one_name():
    found = findings()
    new = {k: v for k, v in found.items() if k not in KNOWN}
    assert not new, "two names for one meaning:\n" + "\n".join(
        f"  {command} ({param}): {why}" for (command, param), why in sorted(new.items()))


def test_every_known_exception_is_still_found():
    stale = sorted(set(KNOWN) - set(findings()))
    assert not stale, f"fixed, so take them out of KNOWN: {stale}"


def test_the_walk_reaches_every_command():
    commands = {command for command, _ in options()}
    # lazy groups and the lazy command under flags are loaded
    assert {"warnscope flags check", "warnscope flags closure", "warnscope site serve",
            "warnscope site build", "warnscope ub run", "warnscope docs"} <= commands


def test_the_rule_finds_what_it_is_for():
    """The site's directory was -o on build and -d on serve: with serve's -d shown again,
    the test would say so."""
    serve = next(o for c, o in options() if c == "warnscope site serve" and o.name == "out_dir")
    longs, shorts = shown_names(serve)
    assert (longs, shorts) == ({"--output"}, {"-o"})
    hidden = click.Option(["-d", "--directory", "out_dir"])
    assert shown_names(hidden) == ({"--directory"}, {"-d"})
    long, short = MEANINGS[meaning_of("warnscope site serve", hidden)]
    assert ({"--directory"} | {"-d"}) - {long, short}
