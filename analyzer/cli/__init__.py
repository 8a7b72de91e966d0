"""The ``warnscope`` command: a thin shell over the library.

Each capability registers its own click group (``flags``, ``ub`` …); this module
only assembles them and holds the one error policy (:func:`main`): every
:class:`~warnscope.errors.WarnscopeError` -- whichever subclass names its cause --
and click's usage errors become one line on stderr and exit status 1. Nothing else
is caught broadly, and no command catches ``WarnscopeError`` to print it itself.

Subcommands are named here as ``module:attribute`` and imported only when run, so
``warnscope flags diff`` does not pay for the modules of every other capability.
"""
from __future__ import annotations

import errno
import signal
import sys
import threading

import click

from warnscope.errors import WarnscopeError
from warnscope.extract import shown
from warnscope.text import one_line
from analyzer.cli.lazy import LazyGroup
from analyzer.cli.output import echo, notices

#: command name -> "module:attribute" of its click command, imported on first use
LAZY_COMMANDS = {
    "flags": "analyzer.cli.flags:flags",
    "demo": "analyzer.cli.demo:demo",
    "ub": "analyzer.cli.ub:ub",
    "site": "analyzer.cli.site:site",
    "overhead": "analyzer.cli.overhead:overhead",
    "toolchain": "analyzer.cli.toolchain:toolchain",
    "warnings": "analyzer.cli.warnings:warnings",
    "advise": "analyzer.cli.advise:advise",
    "upgrade": "analyzer.cli.upgrade:upgrade",
    "rebuild": "analyzer.cli.rebuild:rebuild",
    "docs": "analyzer.cli.docs:docs",
}


def _show_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from importlib.metadata import PackageNotFoundError, version
    from warnscope.schema import SCHEMA_VERSION

    try:
        release = version("warnscope")
    except PackageNotFoundError:  # run from a checkout that was never installed
        release = "(not installed)"
    echo(f"warnscope {release}, database schema {SCHEMA_VERSION}")
    ctx.exit()


@click.group(cls=LazyGroup, lazy=LAZY_COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_show_version,
              help="Show the version and the database schema this version reads and writes.")
@click.option("--db", envvar="WARNSCOPE_DB", default="warnscope.db", show_default=True,
              help="SQLite database file (also WARNSCOPE_DB).")
@click.pass_context
def cli(ctx: click.Context, db: str) -> None:
    """warnscope: what C and C++ compilers warn about, and what they do with UB."""
    ctx.obj = {"db": db}


#: click 8.2+ raises this for a group given no command (it shows the help); 8.1 exits
NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())


#: OS failures a user's input or machine causes: one line, not a traceback.
ANTICIPATED_ERRNOS = {errno.E2BIG, errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES,
                      errno.EPERM, errno.ENAMETOOLONG, errno.EFBIG}


def _error(message: str) -> int:
    """Print one error line (names that are not UTF-8 shown as ``\\xff``, control
    characters and newlines as ``\\x1b``, ``\\x0a``: it stays one line, and a name
    cannot drive the terminal); exit 1."""
    echo(one_line(shown(message)), err=True, prefix="error")
    return 1


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the program is, so that it stops as on Ctrl-C: finished
    results kept, work directories and child processes cleaned up by the code that
    made them (the default action would end the process on the spot)."""


def _on_sigterm(_signum: int, _frame: object) -> None:
    raise _Terminated()


def main(argv: list[str] | None = None) -> int:
    """Run the command and turn how it ended into an exit status, in one place:

    * a :class:`WarnscopeError` (bad input, not ingested, database busy, tool
      failed …: any subclass of :mod:`warnscope.errors`): its one line, status 1;
    * an :class:`OSError` the machine causes whatever the code does
      (:data:`ANTICIPATED_ERRNOS`: disk full, read-only, E2BIG …): one line, status 1;
      any other ``OSError`` is a bug and keeps its traceback;
    * a name that cannot be printed (not UTF-8): one line, status 1;
    * click's usage errors: one line with where to find the help, status 1;
    * Ctrl-C: status 130; SIGTERM: 128 + 15, after the code that made them has
      cleaned up its work directories and child processes.

    Anything else is a bug and is not caught: its traceback is what to report."""
    if (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL):
        signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        # Without standalone mode click returns a command's exit code (as
        # ``flags verify`` raising Exit(1)) instead of exiting: pass it on.
        with notices():  # what a long step is doing, on a terminal
            code = cli.main(args=argv, prog_name="warnscope", standalone_mode=False)
    except WarnscopeError as exc:  # every subclass alike: its text is the line to show
        return _error(str(exc))
    except OSError as exc:
        if exc.errno not in ANTICIPATED_ERRNOS:
            raise
        where = f"{exc.filename}: " if exc.filename else ""
        return _error(f"{where}{exc.strerror or exc}")
    except UnicodeEncodeError as exc:  # a name from argv or disk that is not UTF-8, printed
        snippet = exc.object[max(0, exc.start - 20):exc.end + 20]
        return _error(f"cannot print a name that is not valid UTF-8: "
                      f"'{shown(str(snippet))}'")
    except click.exceptions.Abort as exc:
        if isinstance(exc.__context__, _Terminated):
            echo("warnscope: terminated", err=True)
            return 128 + signal.SIGTERM
        echo("warnscope: interrupted", err=True)
        return 130
    except _Terminated:  # outside click's own handling
        echo("warnscope: terminated", err=True)
        return 128 + signal.SIGTERM
    except NO_ARGS_IS_HELP as exc:  # a bare `warnscope` or `warnscope flags`: the help
        exc.show()
        return exc.exit_code
    except click.UsageError as exc:
        # Bad input like any other: one line, exit 1 (click's own form is four lines, exit 2).
        hint = f" (see: {exc.ctx.command_path} --help)" if exc.ctx is not None else ""
        return _error(f"{exc.format_message()}{hint}")
    except click.ClickException as exc:
        return _error(exc.format_message())
    except click.exceptions.Exit as exc:
        return exc.exit_code
    return code if isinstance(code, int) else 0


if __name__ == "__main__":
    sys.exit(main())
