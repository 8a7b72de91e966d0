"""``warnscope site build`` and ``warnscope site serve``: thin shells over analyzer.site."""
from __future__ import annotations

from pathlib import Path

import click

from warnscope.text import one_line

from analyzer.cli import common, options
from analyzer.cli.output import echo


@click.group()
def site() -> None:
    """The static report site: flags, histories, diffs, projects' warnings, UB and overhead results as HTML."""


#: where a site goes unless told: beside the database, as ``warnscope demo`` writes it
SITE_DIR = "warnscope-site"


def default_site(ctx: click.Context) -> Path:
    """``warnscope-site/`` beside the database the command names."""
    return common.db_of(ctx).resolve().parent / SITE_DIR


@site.command()
@click.option("-o", "--output", "out_dir", default=None, type=click.Path(file_okay=False),
              help=f"Directory to write the site into (created if missing; default: {SITE_DIR}/ "
                   "beside the database).")
@click.pass_context
def build(ctx, out_dir: str | None) -> None:
    """Render the database into a static site in OUTPUT (only changed files are written)."""
    from analyzer.site.builder import build as build_site

    out_dir = out_dir or str(default_site(ctx))

    result = build_site(common.open_read(ctx), out_dir)  # a site reads, never writes
    s = result.stats
    warn_skipped(s.skipped)
    echo(f"{result.pages} pages in {result.seconds:.1f} s: {len(s.written)} files written, "
         f"{s.unchanged} unchanged, {len(s.removed)} removed; "
         f"largest {s.largest[1]} ({s.largest[0] // 1024} KB)")
    echo(f"open {(Path(out_dir).resolve() / 'index.html').as_uri()}")


def warn_skipped(skipped: list[str]) -> None:
    """A warning line on stderr per manifest entry the build left alone (not removed
    because removing it was not safe): the build went on, but someone put it there."""
    for line in skipped:
        echo(one_line(line), err=True, prefix="warning")


@site.command()
@click.option("-o", "--output", "out_dir", default=None, type=click.Path(file_okay=False),
              help=f"The site's directory, as site build -o wrote it (default: {SITE_DIR}/ "
                   "beside the database).")
# the spelling before -o/--output: kept for scripts, not shown
@click.option("-d", "--directory", "out_dir_as_before", default=None, hidden=True,
              type=click.Path(file_okay=False))
@click.option("--port", default=8000, show_default=True, type=options.PORT,
              help="Port on 127.0.0.1 (0: any free port, printed).")
@click.pass_context
def serve(ctx, out_dir: str | None, out_dir_as_before: str | None, port: int) -> None:
    """Serve a built site (OUTPUT) on 127.0.0.1 for a local preview: its regular files
    only, never through a symbolic link (Ctrl-C stops it)."""
    from analyzer.site.serve import open_server

    if out_dir and out_dir_as_before and out_dir != out_dir_as_before:
        raise click.UsageError("-o and -d name two directories: give one (-o)", ctx)
    out_dir = out_dir or out_dir_as_before or str(default_site(ctx))

    with open_server(out_dir, port) as server:  # no index.html, port taken: one line
        echo(f"serving {out_dir} at http://127.0.0.1:{server.server_port}/ (Ctrl-C stops)")
        server.serve_forever()  # Ctrl-C, SIGTERM: raised here, exit 130 / 143 (analyzer.cli.main)
