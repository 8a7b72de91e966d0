"""One name per thing across commands.

Every option of every command (the click tree from ``analyzer.cli``'s root group, its
lazy groups loaded) is given a meaning, from its parameter's name (:data:`BY_PARAM`, or
:data:`BY_COMMAND` where one command's parameter means something else), and each meaning
has one name (:data:`MEANINGS`): a user who typed ``site build -o DIR`` types ``site serve
-o DIR`` too. Options of no meaning in the table are held to the same rule among
themselves: one parameter name, one set of spellings on every command.

A spelling kept for old scripts is a hidden option (``flags check -c``, ``site serve -d``:
docs/flags.md, docs/site.md; the others through :func:`analyzer.cli.options.alias`) and
does not count: ``--help`` shows one name. There are no exceptions: a second name found
is a failure, fixed by making it such a hidden spelling.
"""
from __future__ import annotations

import click

from analyzer.cli import cli, options as cli_options

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
    # a named level of the warnings runs: in --levels by its NAME, in place of a level
    "a custom level NAME=FLAGS": ("--flag-set", None),
    # ub's cells: flags added to every level's (ub run; ub why's cell), unnamed
    "flags added to every UB cell": ("--extra-flags", None),
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
    "flag_sets": "a custom level NAME=FLAGS",
    "extra_flags": "flags added to every UB cell",
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
BY_COMMAND: dict[tuple[str, str], str] = {}

def options(root: click.Group = cli) -> list[tuple[str, click.Option]]:
    """(command path, option) of every command, the lazy groups loaded."""
    out: list[tuple[str, click.Option]] = []
    ctx = click.Context(root)

    def walk(cmd: click.Command, path: str) -> None:
        out.extend((path, p) for p in cmd.params if isinstance(p, click.Option))
        if isinstance(cmd, click.Group):
            for name in cmd.list_commands(ctx):
                walk(cmd.get_command(ctx, name), f"{path} {name}")

    walk(root, "warnscope")
    return out


def shown_names(option: click.Option) -> tuple[set[str], set[str]]:
    """The long and the short names ``--help`` shows for ``option`` (none if hidden)."""
    if option.hidden:
        return set(), set()
    names = set(option.opts) | set(option.secondary_opts)
    return {n for n in names if n.startswith("--")}, {n for n in names if not n.startswith("--")}


def meaning_of(command: str, option: click.Option) -> str | None:
    return BY_COMMAND.get((command, option.name)) or BY_PARAM.get(option.name)


def findings(root: click.Group = cli) -> dict[tuple[str, str], str]:
    """(command, parameter) -> what is wrong with its names."""
    found: dict[tuple[str, str], str] = {}
    canonical = {long: meaning for meaning, (long, _) in MEANINGS.items()}
    unclassified: dict[str, dict[str, set[str]]] = {}
    for command, option in options(root):
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
    assert not found, "two names for one meaning:\n" + "\n".join(
        f"  {command} ({param}): {why}" for (command, param), why in sorted(found.items()))


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


def _tree(*commands: click.Command) -> click.Group:
    group = click.Group("warnscope")
    for command in commands:
        group.add_command(command)
    return group


def test_a_planted_second_name_is_found():
    """The rule holds the real tree to one name because it fails on a second one: a level
    shown as --levels beside --level, workers as -j/--jobs, one unclassified parameter
    spelled two ways; the same names with the old ones hidden pass."""
    planted = _tree(
        click.Command("show", params=[click.Option(["--levels", "--level", "level"])]),
        click.Command("run", params=[click.Option(["-j", "--jobs", "workers"], type=int),
                                     click.Option(["--colour", "colour"])]),
        click.Command("paint", params=[click.Option(["--color", "colour"])]))
    found = findings(planted)
    assert set(found) == {("warnscope show", "level"), ("warnscope run", "workers"),
                          ("warnscope run", "colour"), ("warnscope paint", "colour")}
    assert "'one level' is --level everywhere, here --level/--levels" in found[("warnscope show", "level")]

    @click.command("show")
    @click.option("--level", "level")
    @cli_options.alias("level", "--levels")
    @click.option("--workers", "workers", type=int)
    @cli_options.alias("workers", "-j", "--jobs", type=int)
    def show(level, workers):
        """Holds the new names, the old ones hidden."""

    assert findings(_tree(show)) == {}


def _command(path: str) -> click.Command:
    command: click.Command = cli
    for name in path.split():
        command = command.get_command(click.Context(command), name)
    return command


#: (command, its arguments in an old spelling, the parameter, the value it has)
OLD_SPELLINGS = [
    ("demo", ["--site", "out"], "site_dir", "out"),
    ("advise", ["--language", "c++"], "language", "c++"),
    ("overhead run", ["--language", "c++"], "language", "c++"),
    ("warnings run", ["--language", "c++"], "language", "c++"),
    ("upgrade", ["--from", "gcc-12", "--to", "gcc-14", "--language", "c++"], "language", "c++"),
    ("overhead report", ["--top", "3"], "limit", 3),
    ("ub run", ["-j", "3"], "workers", 3),
    ("ub run", ["--jobs", "3"], "workers", 3),
    ("ub detectors", ["-j", "2"], "workers", 2),
    ("ub why", ["a/case", "--level", "O2", "--jobs", "2"], "workers", 2),
    ("ub run", ["--flags", "-fwrapv", "--extra-flags", "-ftrapv"], "extra_flags", ("-ftrapv", "-fwrapv")),
    ("ub why", ["a/case", "--level", "O2", "--flags", "-fwrapv"], "extra_flags", "-fwrapv"),
    ("ub explain", ["a/case", "--levels", "O2"], "level", "O2"),
    ("ub why", ["a/case", "--levels", "O2"], "level", "O2"),
    ("warnings run", ["--level", "wall,all"], "levels", "wall,all"),
    ("warnings diff", ["gcc-11", "gcc-12", "--project", "zlib", "--levels", "wall"], "level", "wall"),
    ("warnings report", ["--project", "zlib", "--levels", "wall", "--top", "3"], "level", "wall"),
    ("warnings report", ["--project", "zlib", "--top", "3"], "limit", 3),
    ("warnings show", ["--levels", "wall"], "level", "wall"),
    ("warnings top", ["--levels", "wall"], "level", "wall"),
]


def test_an_old_spelling_is_the_option_of_the_one_name():
    for path, args, param, value in OLD_SPELLINGS:
        command = _command(path)
        assert command.make_context(path, list(args)).params[param] == value, (path, args)
        hidden = {o for p in command.params if isinstance(p, click.Option) and p.hidden
                  for o in p.opts}
        assert hidden & set(args), (path, args)    # the old spelling is hidden


def test_two_spellings_with_two_values_are_one_line_of_error():
    for path, args in [("ub run", ["-j", "2", "--workers", "3"]),
                       ("demo", ["--site", "a", "-o", "b"]),
                       ("warnings top", ["--level", "wall", "--levels", "all"]),
                       ("advise", ["--lang", "c", "--language", "c++"])]:
        try:
            _command(path).make_context(path, list(args))
        except click.UsageError as exc:
            assert "give one" in exc.format_message() and "\n" not in exc.format_message()
        else:
            raise AssertionError(f"{path} {args}: no error")
    # the same value twice is no conflict
    assert _command("ub run").make_context("run", ["-j", "2", "--workers", "2"]).params["workers"] == 2
