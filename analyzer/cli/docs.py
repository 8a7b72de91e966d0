"""``warnscope docs``: the user's manual, built offline, opened as a file or served."""
from __future__ import annotations

import click

from analyzer.cli import options
from analyzer.cli.output import echo


@click.command("docs")
@click.option("--serve", is_flag=True, help="Serve it on 127.0.0.1 instead (Ctrl-C stops).")
@click.option("--port", default=8001, show_default=True, type=options.PORT,
              help="With --serve: port on 127.0.0.1 (0: any free port, printed).")
def docs(serve: bool, port: int) -> None:
    """The manual (the docs/ pages: a guide per use, the JSON shapes, the threat model),
    built offline into the cache; prints the address of its first page."""
    from analyzer.site import manual

    built = manual.build()
    if not serve:
        echo(f"open {(built / 'index.html').as_uri()}")
        return
    from analyzer.site.serve import open_server

    with open_server(built, port) as server:
        echo(f"serving the manual at http://127.0.0.1:{server.server_port}/ (Ctrl-C stops)")
        server.serve_forever()
