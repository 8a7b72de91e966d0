"""``warnscope upgrade``: what breaks when a project moves to the next compiler (a thin
shell over :mod:`analyzer.warnings.upgrade`)."""
from __future__ import annotations

import os

import click

from warnscope.errors import BadInput

from analyzer.cli import common, complete, projects
from analyzer.warnings import renderers
from analyzer.runtime import toolchain


@click.command("upgrade")
@projects.project_options
@click.option("--from", "old", required=True, shell_complete=complete.compilers,
              help="The compiler the project builds with today (an id, a name, a path).")
@click.option("--to", "new", required=True, shell_complete=complete.compilers,
              help="Comma-separated: the compilers it moves to (gcc-14,gcc-15; clang-19 to switch).")
@click.option("--same-root", is_flag=True,
              help="Insist that both compilers come from one system (one Debian root), so the "
                   "compiler is the one thing that changed.")
@click.option("--stored", is_flag=True, help="Answer from stored builds only; build nothing.")
@projects.build_options
@common.json_option("Print the report as JSON (the same as --format json).")
@common.format_option(renderers.UPGRADE.names,
                      "text, json (the same as --json), or sarif: SARIF 2.1.0 for GitHub code "
                      "scanning, a run per compiler, each diagnostic's baseline state against the "
                      "--from build.")
@click.option("--quiet", is_flag=True, help="No progress on stderr.")
@click.pass_context
def upgrade(ctx, project, source, configure_cmd, build_cmd, clean_cmd, language, ccdb, old, new,
            same_root, stored, opt, jobs, workers, timeout, scheduler, env_names, as_json, fmt, quiet) -> None:
    """What breaks when a project moves from one compiler to another: configure checks
    that flip silently, every new error with the switch that restores the old behaviour
    proven, the defaults and options that changed, and the warnings' diff."""
    from analyzer.projects import recipes, steps
    from analyzer.projects.options import BuildOptions
    from analyzer.warnings import upgrade as up

    out = renderers.UPGRADE[common.format_of(fmt, as_json)]
    recipe = projects.recipe_of(project, source, configure_cmd, build_cmd, clean_cmd, language, ccdb)
    old_id = toolchain.canonical(old)
    new_ids = projects.compiler_ids(new)
    if old_id in new_ids:
        raise BadInput(f"--from {old_id} is among --to: an upgrade compares two compilers")
    if stored:
        conn = common.open_read(ctx)
        if recipe.source is not None:   # a local tree: its own builds, not another's of its name
            from analyzer.warnings import plan
            plan.check_stored(conn, recipe, steps.source_tree(recipe), [old_id, *new_ids], up.LEVEL)
        report = up.from_store(conn, recipe.name, old_id, new_ids, systems=True)
        shown = out.load(_itself, conn, report)
    else:
        old_tc, new_tcs = _toolchains(old_id, new_ids, same_root)
        for tc in (old_tc, *new_tcs):
            if tc.emulated:
                raise BadInput(f"{tc.name}: upgrade compares builds for the host's target")
            recipes.check_target(recipe, tc.target, tc.name)
        opts = BuildOptions(opt=opt, jobs=(os.cpu_count() or 1) if jobs is None else jobs,
                            timeout=timeout, env=projects.passed(env_names))
        opts.validate()
        source_tree = steps.source_tree(recipe)   # cannot fetch: one line, nothing written
        with common.running(ctx, f"{recipe.name} upgrade", quiet, scheduler) as run:
            report = up.run(run.conn, recipe, source_tree, old_tc, new_tcs, opts, run.progress,
                            run.executor, workers)
            shown = out.load(_itself, run.conn, report)   # SARIF reads the builds: before it closes
    common.show(out.render(shown))


def _itself(_conn, report):
    """What the text and JSON read: the report itself (a SARIF log reads its builds too)."""
    return report


def _toolchains(old: str, new: list[str], same_root: bool):
    """The compilers, each from one system where ``--same-root`` asks for it: the root
    that holds them all, else one line naming what to add."""
    from analyzer.runtime import roots
    if not same_root:
        return toolchain.resolve(old), [toolchain.resolve(n) for n in new]
    names = [old, *new]
    for root in roots.all_roots():
        if all(n in root.compilers for n in names):
            return (toolchain.resolve_in_root(old, root.suite),
                    [toolchain.resolve_in_root(n, root.suite) for n in new])
    tcs = [toolchain.resolve(n) for n in names]
    if len({tc.root for tc in tcs}) == 1:
        return tcs[0], tcs[1:]
    where = ", ".join(f"{tc.name} {tc.where}" for tc in tcs)
    raise BadInput(f"--same-root: no one system holds {', '.join(names)} ({where}); "
                   f"warnscope toolchain add {' '.join(names)} --suite SUITE prepares them in one "
                   "root (trixie has gcc-13 and gcc-14, sid gcc-13 to 16)")
