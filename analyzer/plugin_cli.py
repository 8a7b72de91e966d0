"""``warnscope flags closure`` and the binary route of ``warnscope flags ingest``.

``closure`` asks the GCC binary itself (through the warnscope plugin) what flags
turn on; where no plugin can be had (not a GCC, no plugin headers, compiler not
installed) it answers from the database's edges and says so.
"""
from __future__ import annotations

import json

import click

from flagdb import queries, store
from flagdb.db import connect
from flagdb.errors import WarnscopeError
from flagdb.model import CompilerData
from flagdb.paths import db_path

from . import gcc_binary, gcc_plugin
from .gcc_binary import ClosureEntry


def ingest_from_binary(compiler: str) -> CompilerData:
    """A complete database entry for ``compiler`` read from its binary alone."""
    return gcc_binary.ingest(compiler)


def closure_from_plugin(compiler: str, flags: list[str], lang: str, std: str | None = None
                        ) -> tuple[list[ClosureEntry], str]:
    """GCC's own closure; the second value says where it came from."""
    plugin = gcc_plugin.locate(compiler)
    entries = gcc_binary.closure(plugin, flags, lang, std)
    note = f"from the GCC plugin ({plugin.compiler} {plugin.version}, plugin {plugin.origin})"
    return entries, note


def closure_from_database(db: str, compiler: str, flags: list[str], lang: str
                          ) -> tuple[list[ClosureEntry], str]:
    """The closure following the database's edges (for any compiler, no binary needed)."""
    data = store.load(connect(db_path(db)), compiler)
    index = queries.Index(data)
    unknown = [f for f in flags if index.resolve(f) is None]
    if unknown:
        raise WarnscopeError(f"{compiler}: unknown flag {unknown[0]} (see: warnscope flags list {compiler})")
    given = {index.resolve(f)[0].name for f in flags}
    on = queries.closure(index, flags, queries.lang_name(lang))
    entries = [ClosureEntry(name, value, "database edges")
               for name, value in sorted(on.items()) if name not in given and value != "0"]
    return entries, f"from the database's edges ({data.source_kind}: {data.source})"


def closure_entries(db: str, compiler: str, flags: list[str], lang: str,
                    use_plugin: bool = True, std: str | None = None
                    ) -> tuple[list[ClosureEntry], str]:
    """The plugin's closure where a plugin can be had, else the database's."""
    gcc_binary.check_lang(lang)
    if use_plugin and compiler.startswith("gcc-"):
        try:
            return closure_from_plugin(compiler, flags, lang, std)
        except gcc_plugin.PluginUnavailable as exc:
            entries, note = closure_from_database(db, compiler, flags, lang)
            return entries, f"{note}; no plugin: {exc}"
    return closure_from_database(db, compiler, flags, lang)


class _FlagArgs(click.Command):
    """Arguments such as ``-Wall`` are flags to close over, not options of the command."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if "--" not in args:
            flagish = [a for a in args if a[:2] in ("-W", "-R") or a == "-pedantic"]
            if flagish:
                args = [a for a in args if a not in flagish] + ["--", *flagish]
        return super().parse_args(ctx, args)


@click.command("closure", cls=_FlagArgs)
@click.argument("compiler")
@click.argument("flags", nargs=-1, required=True)
@click.option("--lang", type=click.Choice(["c", "c++"]), default="c", show_default=True,
              help="The language whose front end decides.")
@click.option("--std", default=None,
              help="Language standard for the plugin (c89, c++20 …): post-option code depends on it.")
@click.option("--no-plugin", is_flag=True, help="Use the database's edges even if a plugin is available.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: a list of {name, value}.")
@click.pass_context
def closure(ctx: click.Context, compiler: str, flags: tuple[str, ...], lang: str,
            std: str | None, no_plugin: bool, as_json: bool) -> None:
    """What FLAGS turn on in COMPILER, transitively, with values (e.g. gcc-12 -Wall)."""
    db = ctx.find_root().obj["db"]
    if std and no_plugin:
        raise WarnscopeError("--std needs the plugin: the database's edges do not depend on it")
    entries, note = closure_entries(db, compiler, list(flags), lang, not no_plugin, std)
    if as_json:
        click.echo(json.dumps([{"name": e.name, "value": e.value, "via": e.via} for e in entries],
                              indent=2))
        click.echo(f"closure {note}", err=True)
        return
    where = f"{lang}, -std={std}" if std else lang
    click.echo(f"{' '.join(flags)} in {compiler} ({where}) turns on {len(entries)} flags, {note}:")
    for e in entries:
        via = f"   [{e.via}]" if e.via == gcc_binary.VIA_POST else ""
        click.echo(f"  {e.as_typed()}{via}")
