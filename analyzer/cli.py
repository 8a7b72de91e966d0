"""The ``warnscope`` command: a thin shell over the library.

Each capability registers its own click group (``flags``, ``ub`` …); this module
only assembles them and turns :class:`~flagdb.errors.WarnscopeError` into one line
on stderr with exit status 1.
"""
from __future__ import annotations

import sys

import click

from analyzer.demo import demo
from analyzer.plugin_cli import closure
from analyzer.ub_cli import ub
from flagdb.cli import flags
from flagdb.errors import WarnscopeError


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--db", envvar="WARNSCOPE_DB", default="warnscope.db", show_default=True,
              help="SQLite database file (also WARNSCOPE_DB).")
@click.pass_context
def cli(ctx: click.Context, db: str) -> None:
    """warnscope: what C and C++ compilers warn about, and what they do with UB."""
    ctx.obj = {"db": db}


flags.add_command(closure)
cli.add_command(flags)
cli.add_command(demo)
cli.add_command(ub)


def main(argv: list[str] | None = None) -> int:
    try:
        cli.main(args=argv, prog_name="warnscope", standalone_mode=False)
    except WarnscopeError as exc:
        click.echo(f"warnscope: error: {exc}", err=True)
        return 1
    except click.exceptions.Abort:
        click.echo("warnscope: interrupted", err=True)
        return 130
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except click.exceptions.Exit as exc:
        return exc.exit_code
    return 0


if __name__ == "__main__":
    sys.exit(main())
