"""The ``warnscope`` command: a thin shell over the library.

Each capability registers its own click group (``flags``, ``ub`` …); this module
only assembles them and turns :class:`~flagdb.errors.WarnscopeError`, and click's
usage errors, into one line on stderr with exit status 1.

Subcommands are named here as ``module:attribute`` and imported only when run, so
``warnscope flags diff`` does not pay for the modules of every other capability.
"""
from __future__ import annotations

import sys

import click

from flagdb.errors import WarnscopeError
from analyzer.cli.lazy import LazyGroup

#: command name -> "module:attribute" of its click command, imported on first use
LAZY_COMMANDS = {
    "flags": "analyzer.cli.flags:flags",
    "demo": "analyzer.cli.demo:demo",
    "ub": "analyzer.cli.ub:ub",
    "overhead": "analyzer.cli.overhead:overhead",
}


@click.group(cls=LazyGroup, lazy=LAZY_COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--db", envvar="WARNSCOPE_DB", default="warnscope.db", show_default=True,
              help="SQLite database file (also WARNSCOPE_DB).")
@click.pass_context
def cli(ctx: click.Context, db: str) -> None:
    """warnscope: what C and C++ compilers warn about, and what they do with UB."""
    ctx.obj = {"db": db}


#: click 8.2+ raises this for a group given no command (it shows the help); 8.1 exits
NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())


def main(argv: list[str] | None = None) -> int:
    try:
        cli.main(args=argv, prog_name="warnscope", standalone_mode=False)
    except WarnscopeError as exc:
        click.echo(f"warnscope: error: {exc}", err=True)
        return 1
    except click.exceptions.Abort:
        click.echo("warnscope: interrupted", err=True)
        return 130
    except NO_ARGS_IS_HELP as exc:  # a bare `warnscope` or `warnscope flags`: the help
        exc.show()
        return exc.exit_code
    except click.UsageError as exc:
        # Bad input like any other: one line, exit 1 (click's own form is four lines, exit 2).
        hint = f" (see: {exc.ctx.command_path} --help)" if exc.ctx is not None else ""
        click.echo(f"warnscope: error: {exc.format_message()}{hint}", err=True)
        return 1
    except click.ClickException as exc:
        click.echo(f"warnscope: error: {exc.format_message()}", err=True)
        return 1
    except click.exceptions.Exit as exc:
        return exc.exit_code
    return 0


if __name__ == "__main__":
    sys.exit(main())
