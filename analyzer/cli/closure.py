"""``warnscope flags closure``: a thin shell over :mod:`analyzer.gccplugin.closure`."""
from __future__ import annotations

import click

from warnscope.errors import BadInput

from analyzer.cli import common, complete
from analyzer.cli.flags import FlagArgsCommand
from analyzer.gccplugin import renderers
from analyzer.gccplugin.closure import closure_entries
from analyzer.gccplugin.closure_text import Closure


@click.command("closure", cls=FlagArgsCommand)
@click.argument("compiler", shell_complete=complete.compilers)
@click.argument("flags", nargs=-1, required=True)
@click.option("--lang", type=click.Choice(["c", "c++"]), default="c", show_default=True,
              help="The language whose front end decides.")
@click.option("--std", default=None,
              help="Language standard for the plugin (c89, c++20 …): post-option code depends on it.")
@click.option("--no-plugin", is_flag=True, help="Use the database's edges even if a plugin is available.")
@common.json_option("Print JSON: a list of {name, value}.")
@click.pass_context
def closure(ctx: click.Context, compiler: str, flags: tuple[str, ...], lang: str,
            std: str | None, no_plugin: bool, as_json: bool) -> None:
    """What FLAGS turn on in COMPILER, transitively, with values (e.g. gcc-12 -Wall).
    COMPILER may be named as you have it (gcc, aarch64-linux-gnu-gcc-12) or by its id."""
    import re

    from analyzer.runtime.toolchain import canonical

    db = ctx.find_root().obj["db"]
    if std and no_plugin:
        raise BadInput("--std needs the plugin: the database's edges do not depend on it")
    compiler = canonical(compiler)
    # the plugin is built for a host GCC (gcc-N); any other compiler answers from its edges
    host_gcc = re.fullmatch(r"gcc-[0-9]+", compiler) is not None
    if std and not host_gcc:
        raise BadInput(f"--std needs the GCC plugin, which is built for a host GCC (gcc-N), "
                       f"not {compiler}")
    entries, note = closure_entries(db, compiler, list(flags), lang,
                                    not no_plugin and host_gcc, std)
    if not host_gcc and not no_plugin and compiler.startswith("gcc-"):
        note += f"; the plugin is built for a host GCC only, not {compiler}"
    where = f"{lang}, -std={std}" if std else lang
    report = Closure(compiler, list(flags), where, entries, note)
    common.show(renderers.CLOSURE["json" if as_json else "text"].render(report))
