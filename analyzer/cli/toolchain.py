"""``warnscope toolchain``: compilers of other Debian suites, prepared in roots, and
compilers registered by the name or path a user has them under.

A thin shell over :mod:`analyzer.runtime.roots`: ``add`` builds (or extends) a suite's root,
``list`` shows host compilers, roots and what could be added, ``remove`` takes a
compiler out of its root. Every other command then finds the compiler by its id.
"""
from __future__ import annotations

import click

from warnscope.errors import BadInput

from analyzer.runtime import named, renderers, roots
from analyzer.cli import common
from analyzer.cli.output import echo
from analyzer.runtime.toolchain import listing, names_a_binary, resolve, resolve_in_root
from warnscope.compilers import CompilerId


@click.group("toolchain")
def toolchain() -> None:
    """Compilers the host cannot install, in minimal Debian roots (gcc-9..16, clang-9..23)."""


@toolchain.command("add")
@click.argument("compilers", nargs=-1, required=True)
@click.option("--suite", default=None, help="Debian suite to take it from (default: the newest "
              "release that packages it; sid only when no release does).")
def add(compilers: tuple[str, ...], suite: str | None) -> None:
    """Prepare COMPILERS (e.g. gcc-14 clang-18) in a Debian root of their suite; a
    compiler named by path or plain name (/opt/gcc-13/bin/gcc, arm-none-eabi-gcc) is
    identified and kept under its id instead."""
    import shutil
    ids = []
    for c in compilers:
        try:
            ids.append(CompilerId.parse(c))
        except ValueError:
            if suite is None and names_a_binary(c):
                tc = resolve(c)
                echo(f"{tc.name}: {tc.version} ({tc.c_driver}, {tc.where})")
                continue
            ids.append(CompilerId.of(c))
    for cid in ids:  # every id checked before anything is built
        roots.choose_suite(cid, suite)
        if suite is None and shutil.which(f"{cid.family}-{cid.major}"):
            raise BadInput(f"{cid} is installed on the host; give --suite to add "
                                 "it in a root as well")
    # Progress only for a person watching: a failure stays one line in logs and scripts.
    stderr = click.get_text_stream("stderr")
    say = (lambda m: echo(f"toolchain: {m}", err=True)) if stderr.isatty() else (lambda _: None)
    for cid in ids:
        root = roots.add(cid, suite, progress=say)
        tc = resolve_in_root(str(cid), root.suite)
        echo(f"{cid}: {tc.version} in {root.path}")


@toolchain.command("remove")
@click.argument("compilers", nargs=-1, required=True)
def remove(compilers: tuple[str, ...]) -> None:
    """Remove COMPILERS from their root (the root goes with its last compiler)."""
    for cid in map(CompilerId.of, compilers):
        if named.remove(str(cid)):
            echo(f"{cid}: no longer registered")
            continue
        root = roots.remove(cid)
        gone = "" if root.path.exists() else f"; {root.suite} root removed"
        echo(f"{cid}: removed from the {root.suite} root{gone}")


@toolchain.command("list")
@common.json_option("Print JSON: a list of {compiler, status, suite, suites, package, root, path}.")
def list_(as_json: bool) -> None:
    """Compilers on the host, in roots, those `toolchain add` could prepare, cross
    compilers on PATH and compilers registered by name."""
    common.show(renderers.LIST["json" if as_json else "text"].render(listing()))
