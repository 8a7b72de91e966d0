"""``warnings run``: build a project with each compiler at each level and keep every
diagnostic, in structured form.

Built on the build base the overhead matrix stands on too (:mod:`analyzer.projects`): the
recipes and local trees (:mod:`analyzer.projects.recipes`), the private work directories,
configuring a copy of the tree and passing a level's flags where a user puts them
(:func:`analyzer.projects.steps.prepare` and :func:`analyzer.projects.steps.cell_setup`:
``make CFLAGS=…``, CMake's flags, ``$CFLAGS``), the compiler wrapper and its log, the
proof that the flags arrived (:mod:`analyzer.projects.arrival`); and the worker pool or
Dask cluster (:mod:`analyzer.runtime.executors`).

What this adds is one thing the wrapper does when asked (``STDERR_ENV``): each compiler
process's stderr goes to a file of its own, named in its log record, and is then copied
to the build's log. So every TU's diagnostics are read apart from every other TU's
whatever ``make -j`` interleaves, with the TU named from the same record; and the
diagnostics format flags (:mod:`analyzer.warnings.formats`) are appended by the wrapper
to every compile, so the build system never sees them (a configure test or a
``-Werror`` in the project is not disturbed by them).

These builds are not timing runs: each (compiler, level) is one job, and jobs run in
parallel, each in its own configured copy of the tree.
"""
from __future__ import annotations

import os
import re
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from warnscope import extract, trusted_roots
from warnscope.database import transaction, utc_now
from warnscope.diagnostics import Parsed, RawDiagnostic, parse_text
from warnscope.errors import BadInput, NotInstalled, PackageError, ToolFailed, Unsatisfiable

from analyzer.projects import arrival, debian, digest, levels as levels_mod, process, recipes, steps, tus
from analyzer.projects.cell import BuildCell, BuildStatus, flags_for
from analyzer.projects.failure import first_error
from analyzer.projects.options import BuildOptions
from analyzer.projects.recipes import Recipe, is_source, tu_language
from analyzer.projects.sandbox import BuildSandbox, build_sandbox, mirror_tree
from analyzer.projects.wrapper import FLAGS_ENV, LOG_ENV, MARKER, STDERR_ENV, Record, driver_for, read_log
from analyzer.projects.workdir import WorkDir
from analyzer.runtime.executors import running
from analyzer.runtime.progress import Progress, as_progress
from analyzer.runtime.toolchain import Toolchain, predefined_macros
from analyzer.warnings import formats, logs, store
from analyzer.warnings.checks import configure_results
from analyzer.warnings.results import Build, Diagnostic, TuOutcome

FAILING = ("error", "fatal", "ice")


@dataclass
class Job:
    """One build: a project, a compiler, a level (picklable: a worker or Dask runs it)."""

    recipe: Recipe
    origin: str
    tree: Path | None           # None: the worker fetches the source itself (its own cache)
    tc: Toolchain
    level: str
    flags: dict[str, list[str]]
    other_flags: dict[str, list[str]]
    opts: BuildOptions


def run(conn: sqlite3.Connection, recipe: Recipe, source: tuple[Path, str], toolchains: list[Toolchain],
        level_names: list[str], opts: BuildOptions,
        progress: Progress | Callable[[str], None] = lambda _m: None, executor: Any = None,
        workers: int | None = None) -> list[Build]:
    """Build every (compiler, level) and store each build as it finishes (one transaction
    each; a rerun replaces a build). ``source`` is :func:`steps.source_tree`'s answer."""
    progress = as_progress(progress)
    tree, origin = source
    built_from = digest.tree_digest(tree, recipe)   # what each build answers for
    if os.path.isabs(origin):
        trusted_roots.vouch(origin)  # `warnings show` may read this tree's lines (this user chose it)
    others = tuple(lang for lang in ("c", "c++") if lang not in recipe.languages)
    jobs = [Job(recipe, origin, tree if executor is None else None, tc, level,
                levels_mod.flags(conn, tc, level, recipe.languages, opts.custom),
                levels_mod.flags(conn, tc, level, others, opts.custom), opts)
            for tc in toolchains for level in level_names]
    progress.add_total(len(jobs))
    builds = []
    with running(executor, workers) as pool:    # Ctrl-C or a failed write: every worker stopped
        for done in pool.map(build, jobs):
            job = done.job
            result = done.result if done.error is None else _result(job, BuildStatus.FAILED, f"worker failed: {done.error}")
            result.tree_digest = built_from
            with transaction(conn):
                store.save_build(conn, result)
            builds.append(result)
            progress(f"{recipe.name} {job.tc.name} {job.level}: {result.status}, "
                     f"{len(result.diagnostics)} diagnostics in {len(result.tus)} compiles"
                     + (f" ({result.error})" if result.error else ""))
            progress.advance()
    return builds


def package_build(conn: sqlite3.Connection, name: str, suite: str, compiler: str,
                  level: str = "default", opts: BuildOptions | None = None) -> Build:
    """One Debian package (``name`` of ``suite``) built by one compiler of a Debian root at
    one level, and stored in a transaction of its own (a rerun replaces it): the unit a
    rebuild of many packages runs, each independent of every other. Returns the build,
    whose status says ``ok``, ``failed`` or ``cannot tell`` and why."""
    from analyzer.runtime.toolchain import resolve
    recipe = recipes.debian_package(f"{debian.PREFIX}{name}/{suite}")
    tc = resolve(compiler)
    recipes.check_target(recipe, tc.target, tc.name)
    (built,) = run(conn, recipe, steps.source_tree(recipe), [tc], [level], opts or BuildOptions(),
                   workers=1)
    return built


def _result(job: Job, status: BuildStatus = BuildStatus.OK, error: str | None = None) -> Build:
    """The job's build, without diagnostics yet."""
    return Build(project=job.recipe.name, origin=job.origin, compiler=job.tc.name,
                 compiler_version=job.tc.version, level=job.level, opt=job.opts.opt, flags=job.flags,
                 format=formats.for_toolchain(job.tc).name, status=status, error=error,
                 finished_at=utc_now(), keep_going=job.opts.keep_going,
                 std_defaults=std_defaults(job.tc), passed_env=sorted(job.opts.env))


#: the macro that names each language's standard
STD_MACROS = {"c": "__STDC_VERSION__", "c++": "__cplusplus"}


def std_defaults(tc: Toolchain) -> dict[str, str]:
    """The language standards ``tc`` compiles to without ``-std``, read from the compiler
    (``__STDC_VERSION__`` 201710L, ``__cplusplus`` 201703L), never from a table; a
    language it cannot say is left out."""
    out = {}
    for language, macro in STD_MACROS.items():
        try:
            text = predefined_macros(tc, language)
        except (ToolFailed, NotInstalled):
            continue
        found = re.search(rf"^#define {macro} (\S+)$", text, re.M)
        if found:
            out[language] = found[1]
    return out


def project_options(records: list[Record], cell: BuildCell, fmt: formats.Format) -> list[str]:
    """The warning (``-W…``, ``-pedantic``, ``-Werror``) and ``-std=`` options of the
    project's own compile commands, in the order first seen: what the build gives every
    compiler, not the level's flags nor the diagnostics format the wrapper adds."""
    added = {*flags_for(cell, "c"), *flags_for(cell, "c++"), *fmt.flags}
    seen: dict[str, None] = {}
    for r in records:
        if not r.args or not arrival.compiles_source(r.args[1:]):
            continue
        for a in r.args[1:]:
            if a in added or a.startswith(MARKER) or a.startswith(("-Wl,", "-Wa,", "-Wp,")):
                continue
            if a.startswith(("-W", "-std=")) or a in ("-pedantic", "-pedantic-errors"):
                seen.setdefault(a[:200], None)
    return list(seen)[:500]


def build(job: Job) -> Build:
    """Configure a private copy, build it once at the job's level, read every compile's
    diagnostics. A failed build keeps the diagnostics printed up to the failure."""
    fmt = formats.for_toolchain(job.tc)
    if job.recipe.build_system == "debian":
        return _package(job, fmt)
    tree = job.tree if job.tree is not None else steps.source_tree(job.recipe)[0]
    cell = BuildCell(job.tc.name, job.tc.version, job.tc.identity, job.level, job.flags,
                     inject="build", other_flags=job.other_flags)
    with WorkDir(f"warnings-{job.tc.name}-") as work, \
            build_sandbox(work, steps.readable_for(job.recipe)) as box:
        if job.recipe.build_system == "ccdb":
            result = _replay_in(job, cell, tree, fmt, work, mirror_tree(box, tree))
        else:
            result = _build_in(job, cell, tree, fmt, work, box)
        if result.status == BuildStatus.FAILED:
            logs.keep(work, result)
        return result


def _build_in(job: Job, cell: BuildCell, tree: Path, fmt: formats.Format, work: Path,
              box: BuildSandbox) -> Build:
    """:func:`build` in its work directory and sandbox."""
    quiet = as_progress(lambda _m: None)
    prepared = steps.prepare(job.recipe, tree, job.tc, job.opts, work, [cell], quiet, box)
    setup = prepared and steps.cell_setup(job.recipe, tree, prepared, cell, job.opts, work,
                                          box.box / "wrapper.log", quiet, box, job.tc)
    if not setup:
        failed = _result(job, BuildStatus.FAILED, cell.error or "configure failed")
        failed.checks, failed.macros = configure_results(box.box / "tree", tree)
        return failed
    env = _capturing(setup.env, fmt, box)
    command = setup.build
    if job.opts.keep_going:   # make -k, for make and CMake's Makefiles alike; ninja's -k 0
        env["MAKEFLAGS"] = " ".join(filter(None, ["k", env.get("MAKEFLAGS", "")]))
        command = " ".join(filter(None, [command, job.recipe.keep_going]))
    log = work / "build.log"
    # a per-level configure (CMake) ran its try-compiles through the wrapper: not the build's
    Path(env[LOG_ENV]).unlink(missing_ok=True)
    t = process.run(command, setup.tree, env, log, timeout=job.opts.timeout, box=box)
    result, records = _read(job, cell, env, setup.tree, fmt, box)
    result.checks, result.macros = configure_results(setup.tree, tree)
    if t.exit != 0:
        return _failed(result, f"build failed ({process.ended(t, job.opts.timeout)})", log, setup.tree)
    arrived = arrival.check(records, job.level, "build",
                            lambda driver, args, src: flags_for(
                                cell, job.recipe.build_flags_language(tu_language(driver, args, src))))
    if not arrived.proven:
        result.status, result.error = BuildStatus.FAILED, arrived.why("build")
    return result


def _package(job: Job, fmt: formats.Format) -> Build:
    """:func:`build` of a Debian package (:mod:`analyzer.projects.debian`): its own root
    with its build dependencies, then ``dpkg-buildpackage``, every compile by whatever
    name through the wrapper of the compiler under test, which adds the level's flags.
    Build dependencies the suite cannot meet, a build that reached for the network, or
    one where no compile reached the wrapper: ``cannot tell``."""
    cell = BuildCell(job.tc.name, job.tc.version, job.tc.identity, job.level, job.flags,
                     inject="wrapper", other_flags=job.other_flags)
    src = recipes.debian_source(job.recipe)
    tc = job.tc
    assert tc.suite is not None   # recipes.check_target: a compiler of a Debian root
    with WorkDir(f"debian-{job.tc.name}-") as work:
        try:
            root = debian.package_root(src, tc.suite, work / "root", job.opts.timeout)
        except Unsatisfiable as exc:
            return _result(job, BuildStatus.CANNOT_TELL, str(exc))
        except (ToolFailed, PackageError) as exc:   # a step's timeout, the mirror
            return _result(job, BuildStatus.FAILED, str(exc))
        with debian.package_sandbox(work, root) as box:
            tree = debian.unpack(src, box)
            env = _capturing(steps.level_env(debian.build_env(tc, box, job.opts.jobs), cell,
                                             box.box / "wrapper.log"), fmt, box)
            if job.opts.keep_going:
                env["MAKEFLAGS"] = "k"
            log = work / "build.log"
            t = process.run(debian.BUILD_COMMAND, tree, env, log, timeout=job.opts.timeout, box=box)
            result, records = _read(job, cell, env, tree, fmt, box)
            result.checks, result.macros = configure_results(tree, src.tree)
            compiled = [r for r in records if r.args and arrival.compiles_source(r.args[1:])]
            if t.exit != 0:
                reached = debian.reached_network(log.read_text(errors="replace"))
                if reached:
                    result.status = BuildStatus.CANNOT_TELL
                    result.error = f"the build reached for the network, which it does not have: {reached}"
                else:
                    result = _failed(result, f"dpkg-buildpackage failed ({process.ended(t, job.opts.timeout)})",
                                     log, tree)
            elif not compiled:   # no C or C++, or every compile by a path the wrapper is not at
                result.status = BuildStatus.CANNOT_TELL
                result.error = "no compile of the build reached the compiler wrapper"
            if result.status != BuildStatus.OK:
                logs.keep(work, result)
            return result


def _replay_in(job: Job, cell: BuildCell, tree: Path, fmt: formats.Format, work: Path,
               box: BuildSandbox) -> Build:
    """:func:`build` of a compile database: each entry's compile replayed by the compiler
    under test through the wrapper (which appends the level's flags), in the tree shown
    read-only where the entries say, each object written into the box. The entries' own
    options stay: they are the project's. Past a failed compile only with keep-going,
    as a build system would stop."""
    entries = [(e["directory"], list(e["arguments"])) for e in job.recipe.commands]
    units = tus.from_commands(entries, tree, strip_warnings=False)
    objects = box.box / "objects"
    objects.mkdir()
    box.adopt(objects)
    env = _capturing(steps.level_env(process.build_env(passed=job.opts.env), cell, box.box / "wrapper.log"), fmt, box)
    log, failed = work / "build.log", None
    for i, tu in enumerate(units):
        argv = [str(steps.compiler_wrapper(job.tc, tu.language, box)), *tu.args, "-o", str(objects / f"{i}.o")]
        t = process.run(argv, Path(tu.cwd), env, log, timeout=job.opts.timeout, box=box)
        if t.exit != 0 and failed is None:
            failed = f"build failed ({process.ended(t, job.opts.timeout)})"
        if failed and not job.opts.keep_going:
            break
    result, _records = _read(job, cell, env, tree, fmt, box)
    return _failed(result, failed, log, tree) if failed else result


def _capturing(env: dict[str, str], fmt: formats.Format, box: BuildSandbox) -> dict[str, str]:
    """``env`` with each compile's stderr kept in the box (the wrapper's ``STDERR_ENV``)
    and the diagnostics format's flags after whatever the wrapper appends already."""
    errors = box.box / "stderr"
    errors.mkdir()
    box.adopt(errors)
    env = {**env, STDERR_ENV: str(errors)}
    for var in FLAGS_ENV.values():
        env[var] = " ".join(filter(None, [env.get(var, ""), *fmt.flags]))
    return env


def _read(job: Job, cell: BuildCell, env: dict[str, str], tree: Path, fmt: formats.Format,
          box: BuildSandbox) -> tuple[Build, list[Record]]:
    """The build as its compiles' records say it (the wrapper's log in ``env``): every
    diagnostic, each TU's outcome and the project's own options; and the records."""
    records = read_log(Path(env[LOG_ENV]), box)
    result = _result(job)
    result.diagnostics, result.tus = collect(records, tree, fmt,
                                             lambda r: replay_text(r, job.tc, job.opts.timeout, box), box)
    result.project_options = project_options(records, cell, fmt)
    return result, records


def _failed(result: Build, what: str, log: Path, tree: Path) -> Build:
    """``result`` failed with ``what`` and the line that says why."""
    result.status = BuildStatus.FAILED
    line = _first_error(result, log, tree)
    result.error = f"{what}: {line}" if line else what
    return result


def _first_error(result: Build, log: Path, tree: Path) -> str | None:
    """The compiler's line that stopped the build: the first error diagnostic read of a
    file of the project, else the first error line of the build's log (a linker's, a
    make's, configure's own ``configure: error:``), relative to the tree. An error of
    configure's test compiles only (``conftest.c``, or a header it broke) and the driver's
    ``ld returned 1 exit status`` say nothing of why: configure expects the first, the log
    names the second's cause."""
    worst = sorted((d for d in result.diagnostics if d.severity in FAILING and d.file
                    and not all(_of_configure(tu) for tu in d.tus)),
                   key=lambda d: FAILING.index(d.severity), reverse=True)   # a crash first
    for d in worst[:1]:
        where = ":".join(str(x) for x in (d.file, d.line, d.column) if x is not None)
        words = {"ice": "internal compiler error", "fatal": "fatal error"}.get(d.severity, d.severity)
        return (f"{where}: " if where else "") + f"{words}: {d.message}" + \
            (f" [{d.option}]" if d.option else "")
    try:
        with open(log, errors="replace") as fh:
            line = first_error(fh)
    except OSError:
        return None
    return line.replace(f"{tree}/", "")[:300] if line else None


def _of_configure(tu: str) -> bool:
    """Whether the TU so named (``build/conftest.c -> build/conftest``) is a configure
    test's compile."""
    return Path(tu.split(" -> ")[0].split(" #")[0]).name.startswith("conftest.")


#: the compiler's own headers (stddef.h, limits.h), whose directory names the version
#: (and a cross GCC's its target: ``/usr/lib/gcc-cross/aarch64-linux-gnu/12/include``):
#: said as ``<gcc>/include/stddef.h`` so that a diff of two versions matches them
OWN_HEADERS = re.compile(r"^/usr/lib/(?:gcc(?:-cross)?/[^/]+/[^/]+/(?P<gcc>include(?:-fixed)?)"
                         r"|llvm-[^/]+/lib/clang/[^/]+/(?P<clang>include))/")


def _file(d: RawDiagnostic, cwd: str, tree: Path) -> str | None:
    if d.file is None:
        return None
    if d.file.startswith("<"):   # <command-line>, <built-in>
        return d.file
    path = tus.relative(os.path.join(cwd, d.file), tree)
    own = OWN_HEADERS.match(path)
    if own:
        return f"<gcc>/{own['gcc']}/" + path[own.end():] if own["gcc"] else "<clang>/include/" + path[own.end():]
    return path


#: GCC's text output, for a failed compile replayed (:func:`replay_text`)
TEXT_FLAGS = ("-fdiagnostics-format=text", "-fno-diagnostics-show-caret")


def replay_text(record: Record, tc: Toolchain, timeout: float, box: BuildSandbox) -> str:
    """A failed compile run again as the build ran it, with text diagnostics: its stderr.

    GCC's JSON is written when the compiler ends normally. An internal compiler error
    ends it without: the build's log then holds only the end of a backtrace and
    "Please submit a full bug report" (cppcheck's mc_analyzerinfo.cpp with g++-12 at
    ``all``), and every diagnostic of that TU up to the crash, the crash's own line
    included, is lost. The same compile in text says them all."""
    args = [a for a in record.args[1:] if not a.startswith(MARKER)]
    with tempfile.NamedTemporaryFile(dir=box.box.parent, prefix="replay-", suffix=".log") as out:
        language = tu_language(record.args[0], args, next((a for a in args if is_source(a)), ""))
        t = process.run([driver_for(tc, language), *args, *TEXT_FLAGS],
                        Path(record.cwd), process.build_env(), Path(out.name), timeout=timeout, box=box)
        if t.exit == -1:
            raise ToolFailed(f"{tc.name}: the failed compile replayed with text diagnostics "
                             f"timed out after {timeout:g} s")
        return extract.read_regular(out.name, "the replayed compile's output").decode("utf-8", "replace")


def collect(records: list[Record], tree: Path, fmt: formats.Format,
            replay: Callable[[Record], str] | None = None, box: BuildSandbox | None = None
            ) -> tuple[list[Diagnostic], list[TuOutcome]]:
    """Every compile's diagnostics read and merged: one diagnostic per (file, line,
    column, option, severity, message), with the TUs that printed it. A compile of
    several sources (most often one that also links) is a TU per source where its output
    splits per source (:attr:`formats.Format.split`), each with the command's exit where
    it printed an error, else 0. A compile that failed without an error is one TU with its
    exit; in structured output it is read from ``replay`` (the same compile with text
    diagnostics, :func:`replay_text`), and says so."""
    units: list[tuple[Record, str | None, int, Parsed]] = []   # (record, its source or all, exit, read)
    for record in records:
        args = list(record.args[1:])
        if not record.args or not arrival.compiles_source(args):
            continue
        exit_ = _exit(record.status)
        if record.stderr is None:
            units.append((record, None, exit_, Parsed([], "no output captured for this compile")))
            continue
        try:
            raw = box.read(record.stderr) if box is not None else Path(record.stderr).read_bytes()
            text = raw.decode("utf-8", errors="replace")
        except OSError as exc:
            units.append((record, None, exit_, Parsed([], f"its output could not be read: {exc.strerror}")))
            continue
        except BadInput as exc:   # a link, a FIFO, a file outside the box, too large
            units.append((record, None, exit_, Parsed([], f"its output was refused: {exc}")))
            continue
        read = read_by(record, tree)
        parse = (lambda t, read=read: parse_text.parse(t, read)) if fmt is formats.CLANG_TEXT else fmt.parse
        sources = arrival.sources(args)
        parts = fmt.split(text, sources) if len(sources) > 1 else None
        parsed = [parse(part) for part in parts or [text]]
        if exit_ != 0 and not any(d.severity in FAILING for p in parsed for d in p.diagnostics):
            # no source says it failed (a crash, a kill): one TU with the command's exit
            parsed, parts = [parse(text)] if parts else parsed, None
            if replay is not None and fmt is not formats.CLANG_TEXT:
                why = f"exit {exit_} and no error in its {fmt.name} output (a compiler that crashes writes none)"
                try:
                    again = parse_text.parse(replay(record), read)
                    parsed = [Parsed(again.diagnostics, f"{why}: read from the same compile run again with "
                                                        "text diagnostics" + (f"; {again.problem}" if again.problem else ""))]
                except ToolFailed as exc:   # a timeout, output past the cap
                    parsed = [Parsed(parsed[0].diagnostics, f"{why}; run again with text diagnostics: {exc}")]
        if parts is None:
            units.append((record, None, exit_, parsed[0]))
            continue
        units += [(record, source, exit_ if any(d.severity in FAILING for d in p.diagnostics) else 0, p)
                  for source, p in zip(sources, parsed)]
    names = tus.names([tus.name_of_command(r.cwd, list(r.args[1:]), tree, source) for r, source, _e, _p in units])
    merged: dict[tuple, Diagnostic] = {}
    outcomes = []
    for (record, source, exit_, parsed), name in zip(units, names):
        args = list(record.args[1:])
        language = tu_language(record.args[0], args, source or arrival.sources(args)[0])
        for raw in parsed.diagnostics:
            d = Diagnostic(raw.option, raw.severity, _file(raw, record.cwd, tree), raw.line, raw.column,
                           raw.message)
            d = merged.setdefault(d.key, d)
            d.printed += 1
            if name not in d.tus:
                d.tus.append(name)
        outcomes.append(TuOutcome(name, language, exit_, len(parsed.diagnostics), parsed.problem))
    diagnostics = sorted(merged.values(), key=lambda d: (d.file or "", d.line or 0, d.column or 0,
                                                          d.option or "", d.message))
    return diagnostics, outcomes


def read_by(record: Record, tree: Path) -> Callable[[str], bool]:
    """Whether the compile of ``record`` read a file of a name as its text diagnostics print
    it (:func:`parse_text.parse`'s ``read``): one of its sources as the build named them,
    a file that is there as seen from where it ran (a header of the tree, a system
    header), or a one-line absolute name outside the tree (a header of a compiler's root,
    which this process does not see). Only looked up: nothing of the file is read."""
    sources = {a for a in record.args[1:] if is_source(a)}
    inside = str(tree).rstrip("/") + "/"

    def read(name: str) -> bool:
        path = os.path.normpath(os.path.join(record.cwd, name))
        if os.path.isabs(name) and "\n" not in name and not (path + "/").startswith(inside):
            return True
        return name in sources or os.path.isfile(path)
    return read


def _exit(status: int) -> int:
    """A raw wait status as an exit code (a signal as 128 + its number)."""
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status) if os.WIFEXITED(status) else status
