"""``warnscope demo``: the main job end to end on the default setup.

Ingests the default compilers' warning data, verifies it against the installed
binaries, and prints what a newcomer wants first: what the newer GCC added and
what ``-Wall`` turns on; runs the UB corpus; ends with the report site built
(``warnscope-site/`` beside the database unless ``-o/--output`` says where) and the
``file://`` address to open it at. Run again, it finds everything stored and
rewrites no page.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import click

from analyzer.cli import common, options
from analyzer.cli.output import echo
from analyzer.cli.site import SITE_DIR
from analyzer.runtime.progress import for_cli
from flagdb import compare, store
from flagdb.closure import Index, enabled_by_group, typed_on
from flagdb.describe import describe_change
from warnscope.errors import RunFailed, Unverified
from flagdb.ingest import ingest
from analyzer.verify import run as verify

GCCS = ("gcc-11", "gcc-12")
#: the UB part runs the whole corpus on these (those installed), at two levels
UB_COMPILERS = ("gcc-12", "clang-16")
UB_LEVELS = ("O0", "O2")
LOOP_CASE = "signed-integer-overflow/loop"
#: the other targets of the demo's matrix, each beside its host compiler: Debian's cross
#: gcc-12 (its programs under qemu-aarch64) and clang-16 for WebAssembly (under Wasmtime)
TARGETS = (("gcc-12", "gcc-12@aarch64-linux-gnu", "The target as an axis: gcc-12 for x86-64 "
            "and for aarch64 (under qemu-aarch64)"),
           ("clang-16", "clang-16@wasm32-wasi", "WebAssembly as a target: clang-16 for x86-64 "
            "and for wasm32 (under Wasmtime)"))


def _section(title: str) -> None:
    echo("")
    echo(f"== {title}", bold=True)


@click.command()
@click.option("-o", "--output", "site_dir", type=click.Path(file_okay=False),
              help=f"Where to build the report site, as site build -o [default: {SITE_DIR}/ "
                   "beside the database].")
@options.alias("site_dir", "--site", type=click.Path(file_okay=False))   # its name before -o/--output
@click.pass_context
def demo(ctx: click.Context, site_dir: str | None) -> None:
    """Ingest gcc-11 and gcc-12, verify them, show what changed and what -Wall does,
    run the UB corpus on gcc-12 and clang-16 at -O0 and -O2, and build the report site."""
    path = common.db_of(ctx)
    conn = common.open_write(ctx)
    _section(f"Ingesting warning options into {path}")
    for compiler in GCCS:
        data, status = ingest(conn, compiler)
        echo(f"{compiler}: {status} — {data.version}, {len(data.flags)} flags from {data.source}")

    _section("Verifying against the compiler binaries")
    for compiler in GCCS:
        if shutil.which(compiler) is None:
            echo(f"{compiler}: not installed, skipped")
            continue
        report = verify(store.load(conn, compiler))
        explained = sum(1 for f in report.findings if f.reason)
        echo(f"{compiler}: {sum(report.compared.values())} comparisons, "
             f"{explained} explained differences, {len(report.unexplained)} unexplained")
        if not report.ok:
            raise Unverified(f"{compiler}: verification found unexplained differences "
                                 f"(run: warnscope flags verify {compiler})")

    old, new = (store.load(conn, c) for c in GCCS)
    result = compare.diff(old, new)
    _section(f"What {new.compiler} ({new.version}) added over {old.compiler} ({old.version})")
    for f in result.added:
        echo(f"  + {f.name:40} {f.description[:70]}")
    for c in result.changed:
        echo(f"  ~ {c.name:40} "
             + "; ".join(describe_change(ch) for ch in c.changes)[:100])

    index = Index(new)
    for lang in ("C", "C++"):
        on = enabled_by_group(index, "-Wall", lang)
        _section(f"What -Wall turns on in {new.compiler} for {lang} ({len(on)} flags)")
        names = [typed_on(index, n, v) for n, v in sorted(on.items())]
        line = " "
        for name in names:
            if len(line) + len(name) > 100:
                echo(line)
                line = " "
            line += " " + name
        echo(line)
    _ub(conn)
    out = Path(site_dir) if site_dir else path.parent / SITE_DIR
    _site(conn, out)
    _section("Explore further")
    for example in ("flags tree gcc-12 -Wall", "flags show -Wformat=2 -c gcc-12",
                    "flags check --compilers gcc-11,gcc-12 -- -Wall -Wshadow=local -Wfoo",
                    "ub report --case signed-integer-overflow/loop",
                    "ub run --levels O0,O1,O2,O3,Os,Og", f"site serve -o {out}"):
        echo(f"  warnscope --db {path} {example}")


def _ub(conn) -> None:
    """The UB corpus on the installed default compilers: matrix, then the classic case."""
    from analyzer.ub import renderers
    from analyzer.ub.report_text import failure_lines
    from analyzer.runtime.toolchain import installed, resolve_list
    from analyzer.ub import report as ub_report
    from analyzer.ub import run as ub_run
    from analyzer.ub.corpus import bundled_corpus

    compilers = installed(list(UB_COMPILERS))
    _section(f"Running the UB corpus: {', '.join(compilers) or 'no compiler'} x "
             f"{', '.join(UB_LEVELS)} (sandboxed; warnings and sanitizers recorded)")
    if not compilers:
        echo("none of " + ", ".join(UB_COMPILERS) + " is installed: skipped")
        return
    progress = for_cli(False, "ub run")
    try:
        summary = ub_run.run(conn, bundled_corpus(), resolve_list(compilers), list(UB_LEVELS),
                             progress=progress)
    finally:
        progress.close()
    echo(f"{summary.cells} cells ({summary.cells_run} run now), {summary.warnings_run} "
         f"warning checks, {summary.sanitizers_run} sanitizer runs in {summary.seconds:.1f} s")
    if summary.failures:
        raise RunFailed(f"{len(summary.failures)} UB jobs failed: "
                             f"{failure_lines(summary.failures)[0]}")
    # the matrix of this run's compilers alone (the database may hold others')
    report = ub_report.of_run(conn, summary.corpus, set(compilers))
    common.show(renderers.REPORT["text"].render(report, detail=False))
    _section(f"The classic: {LOOP_CASE}")
    common.show(renderers.REPORT["text"].render(report.only(LOOP_CASE), matrix=False))
    for host, other, title in TARGETS:
        _targets(conn, compilers, host, other, title)


def _targets(conn, compilers: list[str], host: str, other: str, title: str) -> None:
    """The target as an axis: the cases whose plain behaviour differs by target (those
    with a target's own expected output), built by ``host`` and by
    ``other``; which divergences come from the target, which from the optimiser. Without
    the other target's compiler or what runs its programs: one line, and on."""
    from analyzer.runtime.toolchain import resolve
    from analyzer.ub import report as ub_report
    from analyzer.ub import renderers, report_text
    from analyzer.ub import run as ub_run
    from analyzer.ub.corpus import bundled_corpus, load
    from warnscope.errors import NotInstalled

    _section(title)
    try:
        cross = resolve(other)
    except NotInstalled as exc:
        echo(f"skipped: {exc}")
        return
    if cross.cannot_run or host not in compilers:
        echo(f"skipped: {cross.cannot_run or host + ' is not installed'}")
        return
    corpus = load(bundled_corpus())
    ids = [c.id for c in corpus.cases if c.expected_by_arch and not c.is_twin]
    if not ids:
        echo("skipped: no case of the corpus has a target's own expected output")
        return
    progress = for_cli(False, "ub run")
    try:
        pair = [resolve(host), cross]
        summary = ub_run.run(conn, bundled_corpus(), pair, list(UB_LEVELS), progress=progress,
                             case_ids=ids, validated=(corpus, pair, [f"-{l}" for l in UB_LEVELS]))
    finally:
        progress.close()
    if summary.failures:
        raise RunFailed(f"{len(summary.failures)} UB jobs failed: "
                        f"{report_text.failure_lines(summary.failures)[0]}")
    # the report of these cases on these two compilers alone: its headline counts the
    # cases that diverge here, by target or by level
    wanted = set(ids) | {c.twin for c in corpus.cases if c.id in ids}
    report = ub_report.of_run(conn, summary.corpus, {host, cross.name}, wanted)
    common.show(renderers.REPORT["text"].render(report, detail=False))
    common.show(renderers.BY_TARGET["text"].render(ub_report.by_target(report)))


def _site(conn, out: Path) -> None:
    """The report site of everything above; unchanged pages are left as they are."""
    from analyzer.cli.site import warn_skipped
    from analyzer.site.builder import build

    _section(f"Building the report site in {out}")
    result = build(conn, out)
    warn_skipped(result.stats.skipped)
    echo(f"{result.pages} pages in {result.seconds:.1f} s "
         f"({len(result.stats.written)} files written, {result.stats.unchanged} unchanged)")
    echo(f"open {(out.resolve() / 'index.html').as_uri()}")
