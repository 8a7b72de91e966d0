"""``warnscope rebuild``: many projects moved to the next compiler in one command, on the
local pool or a Dask cluster (a thin shell over :mod:`analyzer.warnings.rebuild`)."""
from __future__ import annotations

import os
from pathlib import Path

import click

from warnscope.errors import BadInput
from warnscope.serial import to_json

from analyzer.cli import common, complete, projects
from analyzer.runtime import toolchain


@click.command("rebuild")
@click.argument("names", nargs=-1)
@click.option("--packages", "lists", multiple=True, type=click.Path(),
              help="A file of projects, one a line: debian:NAME[/SUITE], a Debian source package's "
                   "NAME, or a local tree (a path with a /); each may add skip=FUNC,FUNC (configure "
                   "checks expected to fail on Linux). Blank lines and # comments are skipped.")
@click.option("--suite", default="trixie", show_default=True,
              help="The suite of a package named without one.")
@click.option("--from", "old", required=True, shell_complete=complete.compilers,
              help="The compiler the projects build with today.")
@click.option("--to", "new", required=True, shell_complete=complete.compilers,
              help="The compiler they move to.")
@click.option("--configure", "configure_cmd", default="", help="Local trees: configure command.")
@click.option("--build", "build_cmd", default="make", show_default=True,
              help="Local trees: build command ({jobs} = -j).")
@click.option("--clean", "clean_cmd", default="make clean", show_default=True,
              help="Local trees: clean command.")
@click.option("--lang", "language", default="c", type=click.Choice(["c", "c++"]),
              help="Local trees: their language.")
@click.option("--stored", is_flag=True, help="Answer from stored builds only; build nothing.")
@click.option("--out", type=click.Path(), default=None,
              help="A folder for each project's report: PROJECT.json (as upgrade --json) and "
                   "PROJECT.sarif, beside summary.json.")
@projects.build_options
@common.json_option("Print the summary as JSON.")
@click.option("--quiet", is_flag=True, help="No progress on stderr.")
@click.pass_context
def rebuild(ctx, names, lists, suite, old, new, configure_cmd, build_cmd, clean_cmd, language,
            stored, out, opt, jobs, workers, timeout, scheduler, env_names, as_json, quiet) -> None:
    """What breaks when many projects move from one compiler to another: each project's
    upgrade report, and the counts across them by outcome (builds with both, new
    failure, already fails, flips only, cannot tell) and by cause, ranked. Each
    project's builds are stored as it finishes: a rerun builds only what is missing.
    With --scheduler the builds are tasks of a Dask cluster, one per worker slot
    (workers started --resources build=1)."""
    from analyzer.projects.options import BuildOptions
    from analyzer.warnings import rebuild as rb

    lines = [(f"argument {i}", n) for i, n in enumerate(names, 1)]
    for path in lists:
        lines += rb.read_list(path)
    if not lines:
        raise BadInput("no projects: name them, or give --packages FILE")
    entries, refused = rb.entries(lines, suite)
    commands = rb.LocalCommands(configure_cmd, build_cmd, clean_cmd, language)
    old_id, new_id = toolchain.canonical(old), toolchain.canonical(new)
    if old_id == new_id:
        raise BadInput(f"--from {old_id} is --to: a rebuild compares two compilers")
    if stored:
        conn = common.open_read(ctx)
        summary = rb.from_store(conn, entries, old_id, new_id, refused, commands)
        _write(conn, summary, out)
    else:
        old_tc, new_tc = toolchain.resolve(old_id), toolchain.resolve(new_id)
        for tc in (old_tc, new_tc):
            if tc.emulated:
                raise BadInput(f"{tc.name}: rebuild compares builds for the host's target")
        opts = BuildOptions(opt=opt, jobs=(os.cpu_count() or 1) if jobs is None else jobs, timeout=timeout,
                            env=projects.passed(env_names))
        opts.validate()
        if scheduler:   # a cluster that would hold every build forever: one line, nothing written
            from analyzer.runtime.executors import DaskExecutor
            with DaskExecutor(scheduler) as probe:
                rb.check_build_slots(probe)
        with common.running(ctx, f"rebuild {old_id} -> {new_id}", quiet, scheduler) as run:
            summary = rb.run(run.conn, entries, old_tc, new_tc, opts, run.progress, run.executor,
                             workers, commands, refused)
            _write(run.conn, summary, out)
    from analyzer.warnings import renderers
    common.show(renderers.REBUILD["json" if as_json else "text"].render(summary))
    if not summary.complete:
        raise click.exceptions.Exit(1)


def _write(conn, summary, out: str | None) -> None:
    """``--out``: each project's report as JSON and SARIF, and the summary."""
    if out is None:
        return
    from analyzer.site.slugs import slug_map
    from analyzer.warnings import renderers

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "summary.json").write_text(to_json(summary) + "\n", encoding="utf-8")
    stems = slug_map(p.project for p in summary.projects)
    for p in summary.projects:
        if p.report is None:
            continue
        stem = stems[p.project]
        (folder / f"{stem}.json").write_text(to_json(p.report) + "\n", encoding="utf-8")
        as_sarif = renderers.UPGRADE["sarif"]
        (folder / f"{stem}.sarif").write_text(as_sarif.render(as_sarif.load(None, conn, p.report)).text + "\n",
                                              encoding="utf-8")
