"""``warnscope flags …``: the flag database from the command line.

Each command opens the database, calls one library function and prints its result
as text or, with ``--json``, as JSON. No logic lives here that tests could miss.
"""
from __future__ import annotations

import click

from flagdb import compare, renderers, store, upstream, views
from flagdb.check import check_in_db, portable as portable_flags, portable_span
from flagdb.closure import Index, lang_name
from warnscope import apt
from warnscope.apt import SUITES
from warnscope.errors import BadInput
from flagdb.ingest import load as load_compiler, store_data
from analyzer.cli import common, complete
from analyzer.cli.lazy import LazyGroup
from analyzer.cli.output import echo


#: flags GCC takes as warning options, or ``check`` knows, that do not start with -W
OTHER_SPELLINGS = frozenset({"-pedantic", "--pedantic", "-pedantic-errors", "--all-warnings",
                             "--extra-warnings", "-w"})


def is_flag_arg(arg: str) -> bool:
    """Is a command-line argument a flag to ask about rather than an option of ours?"""
    return arg[:2] in ("-W", "-R") or arg in OTHER_SPELLINGS


class FlagArgsCommand(click.Command):
    """A command whose positional arguments may be warning flags (``-Wformat=2``).

    Click would read ``-Wshadow`` as a cluster of short options (``-h`` among them),
    so arguments that look like ``-W…``/``-R…`` (or are ``-pedantic`` and the like)
    are moved behind ``--`` first.
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if "--" not in args:
            flagish = [a for a in args if is_flag_arg(a)]
            if flagish:
                args = [a for a in args if not is_flag_arg(a)] + ["--", *flagish]
        return super().parse_args(ctx, args)


FLAG_ARGS = {"cls": FlagArgsCommand}
json_option = common.json_option()
lang_option = click.option("--lang", type=click.Choice(["c", "c++"]), default=None,
                           help="Only what applies to this language (default: the C family).")


def _conn(ctx: click.Context, write: bool = False):
    return common.open_write(ctx) if write else common.open_read(ctx)


def compiler_id(ctx: click.Context, name: str):
    """The one resolution of a compiler named any way ``ub run`` takes (an id, ``gcc``,
    a path, a cross driver such as ``aarch64-linux-gnu-gcc-12``) to its typed id
    (:func:`analyzer.runtime.toolchain.compiler_id`); a name that is neither an id nor a
    binary but a family's names the family's ingested versions."""
    from analyzer.runtime.toolchain import compiler_id as resolve_id, names_a_binary
    try:
        return resolve_id(name)
    except BadInput:
        if names_a_binary(name):    # a binary's own error: not a compiler, not trusted
            raise
        store.known_id(_conn(ctx), name)
        raise


def _show(formats, report, as_json: bool, **options) -> None:
    """``report`` (a query's result) in the command's format: its JSON with ``--json``,
    else its text, through the command's registry (:mod:`flagdb.renderers`)."""
    common.show(formats["json" if as_json else "text"].render(report, **options))


@click.group(cls=LazyGroup, lazy={"closure": "analyzer.cli.closure:closure"})
def flags() -> None:
    """The warning-flag database: ingest, query, verify."""


@flags.command()
@click.argument("compilers", nargs=-1, required=True)
@click.option("--source", help="A GCC source tree or tarball (.tar.gz/.bz2/.xz); a clang "
                                "source tree or tarball (cfe-X.src, llvm-project-X.src, a "
                                "checkout) or a dir of clang .inc files.")
@click.option("--sha256", help="The SHA-256 the --source tarball must have (checked first).")
@click.option("--from-binary", is_flag=True,
              help="Build the entry from the compiler binary itself: a GCC through the "
                   "warnscope plugin where it can be had, else from the binary's own "
                   "listings (-Q --help=warnings); clang with --no-plugin.")
@click.option("--no-plugin", is_flag=True,
              help="With --from-binary: read only the binary's listings (GCC's -Q "
                   "--help=warnings; clang's diagtool, --print-diagnostic-options), not the "
                   "GCC plugin.")
@click.option("--force", is_flag=True, help="Replace a stored entry even by one with far fewer flags.")
@click.option("--suite", type=click.Choice(SUITES),
              help="Take the Debian package from this suite (default: the host's suite if it "
                   "has one, else the newest version).")
@click.pass_context
def ingest(ctx, compilers, source, sha256, from_binary, no_plugin, force, suite) -> None:
    """Ingest COMPILERS (gcc-9 … gcc-16, clang-9 … clang-23) into the database, from
    Debian's gcc-N-source / libclang-N-dev in whichever suite has it; older ones
    (gcc-4.4, clang-3.8), Apple's clang (apple-clang-10.0) and Android's GCC
    (android-gcc-4.4) from --source.

    A compiler may be named as you have it: gcc, cc, a path, a cross driver
    (aarch64-linux-gnu-gcc-12, stored as gcc-12@aarch64-linux-gnu: its release's data
    read with that target's option files), or its id."""
    if suite and (source or from_binary):
        raise BadInput("--suite picks a Debian package: not with --source or --from-binary")
    if no_plugin and not from_binary:
        raise BadInput("--no-plugin chooses a route of --from-binary: give --from-binary too")
    if source and len(compilers) > 1:
        raise BadInput(f"--source holds one compiler's data: give one compiler with it, "
                             f"not {len(compilers)} ({' '.join(compilers)})")
    from analyzer.runtime import toolchain

    ids = toolchain.canonical_list(compilers)   # two names of one compiler: one error
    first: dict[str, str] = {}
    for name in compilers:
        first.setdefault(toolchain.canonical(name), name)
    named = [(first[cid], cid) for cid in ids]
    conn = None  # opened after the first parse: a failed parse never touches --db
    for name, compiler in named:
        if from_binary:
            data = _from_binary(name, compiler, no_plugin)
        else:
            data = load_compiler(compiler, source, suite, sha256)
        conn = conn or _conn(ctx, write=True)
        status = store_data(conn, data, force)
        echo(f"{compiler}: {status} ({data.version}, {len(data.flags)} flags, "
             f"{len(data.edges)} edges; from {data.source})")


def _from_binary(name: str, compiler: str, no_plugin: bool):
    """The entry of the binary ``name`` (id ``compiler``): through the GCC plugin where
    it can be had for a host GCC, else from the binary's listings."""
    import re

    from analyzer.runtime.toolchain import resolve
    from analyzer.verify import listing
    from warnscope.errors import NotInstalled

    try:
        tc = resolve(name)
    except NotInstalled as exc:
        raise NotInstalled(f"{compiler}: compiler not found, and --from-binary needs it: "
                           f"{exc}") from None
    if not tc.profile.gcc and not no_plugin:
        raise BadInput(f"{compiler}: the plugin route of --from-binary needs a GCC; "
                       "--from-binary --no-plugin reads clang's own listings (diagtool)")
    if tc.profile.gcc and not no_plugin and re.fullmatch(r"gcc-[0-9]+", compiler):
        from analyzer.gccplugin.binary import ingest as ingest_binary, plugin_available

        if plugin_available(compiler):
            return ingest_binary(compiler)
    return listing.ingest(tc)


@flags.command()
@click.option("--available", is_flag=True,
              help="Also every version Debian's archive has (bullseye … sid): the suite and "
                   "Debian version an ingest takes; and the upstream releases to give --source "
                   "(GCC from 3.4, clang from 3.2, Apple's clang by Xcode) with where they are "
                   "published. Asks the archive (package lists are refreshed when older than "
                   "a day); works without a database.")
@json_option
@click.pass_context
def versions(ctx, available, as_json) -> None:
    """The ingested compiler versions with their provenance (package, Debian version,
    suite); with --available, also what Debian packages and is not ingested yet."""
    path = common.db_of(ctx)
    rows = store.compilers(common.open_read(ctx)) if not available or path.exists() else []
    found = apt.available() if available else None
    releases = upstream.releases() if available else None
    result = compare.versions(rows, found, choose=apt.choose, upstream=releases)
    _show(renderers.VERSIONS, result, as_json)


@flags.command(**FLAG_ARGS)
@click.argument("compiler", required=False, shell_complete=complete.compilers)
@json_option
@click.pass_context
def since(ctx, compiler, as_json) -> None:
    """What COMPILER (gcc-14) introduced, removed, moved into or out of -Wall/-Wextra and
    whose default changed, relative to the previous ingested version of its family.
    Without COMPILER: every ingested version."""
    named = None if compiler is None else str(compiler_id(ctx, compiler))
    result = compare.since(_conn(ctx), named)
    _show(renderers.SINCE, result, as_json)


@flags.command("list")
@click.argument("compiler", shell_complete=complete.compilers)
@click.option("--all", "include_all", is_flag=True, help="Include other front ends' options.")
@lang_option
@json_option
@click.pass_context
def list_(ctx, compiler, include_all, lang, as_json) -> None:
    """Every warning flag of COMPILER."""
    data = store.load(_conn(ctx), compiler_id(ctx, compiler))
    rows = views.list_flags(data, include_all, lang_name(lang))
    _show(renderers.LIST, rows, as_json)


@flags.command(**FLAG_ARGS)
@click.argument("flag", shell_complete=complete.flags)
@click.option("--compiler", "-c", default=None,
              help="One version (default: every ingested version that has FLAG).",
              shell_complete=complete.compilers)
@lang_option
@json_option
@click.pass_context
def show(ctx, flag, compiler, lang, as_json) -> None:
    """One FLAG in detail (a level form such as -Wformat=2 shows that level), and where
    it fired in the stored warnings builds of COMPILER; without --compiler, in every
    ingested version that has it (JSON: a list)."""
    from analyzer.warnings import renderers as warnings_renderers
    from analyzer.warnings.queries import with_show

    conn = _conn(ctx)
    infos = []
    for data in (compare.versions_having(conn, flag) if compiler is None
                 else [store.load(conn, compiler_id(ctx, compiler))]):
        info = views.show(data, flag, lang_name(lang))
        with_show(conn, info, Index(data))
        infos.append(info)
    _show(warnings_renderers.FLAG_SHOW, infos[0] if compiler else infos, as_json)


@flags.command(**FLAG_ARGS)
@click.argument("compiler", shell_complete=complete.compilers)
@click.argument("flag", shell_complete=complete.flags)
@lang_option
@json_option
@click.pass_context
def tree(ctx, compiler, flag, lang, as_json) -> None:
    """What FLAG turns on in COMPILER, as a tree."""
    data = store.load(_conn(ctx), compiler_id(ctx, compiler))
    node = views.tree(data, flag, lang_name(lang))
    _show(renderers.TREE, node, as_json)


@flags.command()
@click.argument("old", shell_complete=complete.compilers)
@click.argument("new", shell_complete=complete.compilers)
@click.option("--all", "include_all", is_flag=True, help="Include other front ends' options.")
@json_option
@click.pass_context
def diff(ctx, old, new, include_all, as_json) -> None:
    """What changed from compiler OLD to NEW (versions of one compiler, or two compilers)."""
    old_id, new_id = compiler_id(ctx, old), compiler_id(ctx, new)
    conn = _conn(ctx)
    result = compare.diff(store.load(conn, old_id, with_messages=False),
                          store.load(conn, new_id, with_messages=False), include_all)
    _show(renderers.DIFF, result, as_json)


@flags.command(**FLAG_ARGS)
@click.argument("flag", shell_complete=complete.flags)
@json_option
@click.pass_context
def history(ctx, flag, as_json) -> None:
    """FLAG across every ingested version, and where it fired in each version's stored
    warnings builds."""
    from analyzer.warnings import renderers as warnings_renderers
    from analyzer.warnings.queries import with_history

    conn = _conn(ctx)
    rows = with_history(conn, flag, compare.history(conn, flag))
    _show(warnings_renderers.FLAG_HISTORY, rows, as_json)


@flags.command(**FLAG_ARGS)
@click.option("--compilers", "compilers", multiple=True,
              help="Compilers, comma-separated or repeated: gcc-11,gcc-12 --compilers clang-16.",
              shell_complete=complete.compilers)
# the spelling before --compilers (scripts, the README's first answer): kept, not shown
@click.option("--compiler", "-c", "compilers_as_before", multiple=True, hidden=True,
              shell_complete=complete.compilers)
@click.option("--portable", is_flag=True, help="Print only the flags every compiler knows.")
@json_option
@click.argument("flag_args", nargs=-1, type=click.UNPROCESSED, required=True, shell_complete=complete.flags)
@click.pass_context
def check(ctx, compilers, compilers_as_before, portable, as_json, flag_args) -> None:
    """What each compiler of --compilers does with FLAGS (put them after --)."""
    given = (*compilers, *compilers_as_before)
    if not given:
        raise click.UsageError("Missing option '--compilers'.", ctx)
    conn = _conn(ctx)
    names = [c.strip() for group in given for c in group.split(",") if c.strip()]
    if not names:
        raise BadInput("--compilers names no compiler (e.g. --compilers gcc-11,gcc-12)")
    from analyzer.runtime.toolchain import canonical_list
    names = canonical_list(names)   # any name of a compiler, as ub run takes it
    results = check_in_db(conn, names, list(flag_args))
    if portable:
        keep = portable_flags(results)
        _show(renderers.PORTABLE, keep, as_json)
        if not as_json:   # stdout stays a list to paste; what it covers goes to stderr
            echo("# " + portable_span(conn, names), err=True)
        return
    _show(renderers.CHECK, results, as_json, flags=list(flag_args), compilers=names)


@flags.command()
@click.argument("compiler", shell_complete=complete.compilers)
@click.option("--lang", type=click.Choice(["c", "c++"]), default="c", show_default=True)
@json_option
@click.pass_context
def everything(ctx, compiler, lang, as_json) -> None:
    """The "all warnings" flag set of COMPILER for a language."""
    data = store.load(_conn(ctx), compiler_id(ctx, compiler))
    result = views.everything(data, lang_name(lang))
    _show(renderers.EVERYTHING, result, as_json)


@flags.command(**FLAG_ARGS)
@click.argument("flag", shell_complete=complete.flags)
@click.option("--compiler", "-c", required=True, shell_complete=complete.compilers)
@json_option
@click.pass_context
def messages(ctx, flag, compiler, as_json) -> None:
    """The diagnostics FLAG controls, with their text (clang)."""
    data = store.load(_conn(ctx), compiler_id(ctx, compiler))
    rows = views.messages(data, flag)
    _show(renderers.MESSAGES, rows, as_json, compiler=data.compiler, flag=flag, family=data.family)


@flags.command()
@click.argument("compiler", shell_complete=complete.compilers)
@click.option("--format", "fmt", type=click.Choice(renderers.EXPORT.names), default="list",
              show_default=True)
@click.pass_context
def export(ctx, compiler, fmt) -> None:
    """COMPILER's flags as a plain-text list (or JSON) to grep, diff and paste."""
    data = store.load(_conn(ctx), compiler_id(ctx, compiler))
    chosen = renderers.EXPORT[fmt]
    common.show(chosen.render(chosen.load(lambda d: d, data)))


@flags.command()
@click.argument("compiler", shell_complete=complete.compilers)
@click.option("--all-findings", is_flag=True, help="Also list the explained differences.")
@json_option
@click.pass_context
def verify(ctx, compiler, all_findings, as_json) -> None:
    """Check the database entry of COMPILER against the compiler binary (exit 1 on
    anything unexplained). COMPILER may be named as you have it (gcc, a path, a cross
    driver such as aarch64-linux-gnu-gcc-12) or by its id."""
    from analyzer.verify import renderers as verify_renderers, run as run_verify

    data = store.load(_conn(ctx), compiler_id(ctx, compiler))
    report = run_verify(data)
    chosen = verify_renderers.VERIFY["json" if as_json else "text"]
    common.show(chosen.render(chosen.load(lambda r: r, report), all_findings=all_findings))
    if not report.ok:
        raise click.exceptions.Exit(1)
