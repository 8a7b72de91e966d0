"""The steps of a build before it runs: the source tree, a configured private copy of
it, and each cell's set-up (its tree, environment and command).

How a level's flags reach the compiler is the cell's ``inject``: ``build`` passes them
where a user puts them, through the build system (:mod:`analyzer.projects.recipes` says
where, per project), so every process between that variable and the compiler carries
them; ``wrapper`` appends them in the compiler wrapper (:mod:`analyzer.projects.wrapper`:
one configured tree for every level). The wrapper logs each compiler process in both,
which proves the flags arrived (:mod:`analyzer.projects.arrival`).
"""
from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from flagdb import names
from warnscope import extract
from warnscope.apt import AptState
from warnscope.errors import ParseError, UnsafeInput
from warnscope.paths import cache_dir
from warnscope.text import one_line

from analyzer.projects import arrival, cross, process
from analyzer.projects.cell import BuildCell, flags_for
from analyzer.projects.failure import fail
from analyzer.projects.options import BuildOptions
from analyzer.projects.recipes import Recipe, configures_per_level
from analyzer.projects.sandbox import BuildSandbox, check_tree, copy_tree
from analyzer.projects.wrapper import FLAGS_ENV, LOG_ENV, driver_for, wrapper_for
from analyzer.runtime.progress import Progress
from analyzer.runtime.toolchain import Toolchain

SUITES = ("bookworm",)


def apt_state() -> AptState:
    return AptState(cache_dir("apt"), SUITES)


def source_tree(recipe: Recipe) -> tuple[Path, str]:
    """(pristine source tree, origin text) of a project; fetches a Debian package."""
    if recipe.package:
        tree = apt_state().source(recipe.package)
        return tree, tree.name
    assert recipe.source is not None
    check_tree(recipe.source)   # copied into each build's box: refused before any write
    return recipe.source, str(recipe.source)


def readable_for(recipe: Recipe) -> list[Path]:
    """What a build of ``recipe`` reads besides the system and its box
    (:func:`analyzer.projects.sandbox.build_sandbox`): the compiler wrappers, a root's
    launchers and the roots (a compile database's tree is mirrored:
    :func:`analyzer.projects.sandbox.mirror_tree`). A build inside a root needs only the
    wrappers of these; the rest is harmless there (read-only, and nothing of the build
    names it)."""
    from analyzer.runtime.roots import roots_dir
    return [cache_dir("builds", "wrappers"), cache_dir("builds", "launchers"), roots_dir(),
            *process.own_prefix()]


def prepare(recipe: Recipe, tree: Path, tc: Toolchain, opts: BuildOptions, work: Path,
            cells: list[BuildCell], progress: Progress, box: BuildSandbox
            ) -> tuple[Path, dict[str, str]] | None:
    """A configured private copy of the tree in the build's box and the base environment;
    None if configure failed (the cells are then marked failed). ``work`` holds the logs.
    A compiler for another target configures a cross build (:mod:`analyzer.projects.cross`)."""
    copy = box.box / "tree"
    copy_tree(tree, copy, box)
    env = process.build_env({"CC": str(compiler_wrapper(tc, "c", box)),
                             "CXX": str(compiler_wrapper(tc, "c++", box)),
                             "CFLAGS": opts.opt, "CXXFLAGS": opts.opt, **cross.env(tc)},
                            passed=opts.env)
    progress(f"{recipe.name} {tc.name}: configure")
    log = work / "configure.log"
    command = cross.configure(commands(recipe.configure, cells[0], opts, "wrapper"), recipe.build_system, tc)
    t = process.run(command, copy, env, log, timeout=opts.timeout, box=box)
    if t.exit != 0:
        # the command as it ran (placeholders filled), on one line with its controls shown
        fail(cells, f"configure failed ({process.ended(t, opts.timeout)}): {one_line(command)}", log, copy)
        return None
    return copy, env


def compiler_wrapper(tc: Toolchain, language: str, box: BuildSandbox) -> Path:
    """``$CC`` or ``$CXX`` of a build of ``tc`` in ``box``: the wrapper of the host's driver;
    in a sandbox that shows ``tc``'s Debian root (the whole build runs in the root: an
    overhead study), the static wrapper of the root's own driver path; in a host
    sandbox, the wrapper of a launcher that enters the root per compile
    (:func:`analyzer.projects.wrapper.driver_for`)."""
    if tc.root is not None and box.root is not None:
        if os.path.realpath(box.root) != os.path.realpath(tc.root):
            raise ValueError(f"{tc.name} is of {tc.root}, the sandbox shows {box.root}")
        return wrapper_for(tc.driver(language), language, static=True)
    return wrapper_for(driver_for(tc, language), language)


def level_env(env: dict[str, str], cell: BuildCell, wrap_log: Path | None) -> dict[str, str]:
    """The environment of a build that the wrapper injects into (``wrapper`` cells, the
    capturing build of tu mode)."""
    out = dict(env)
    for lang, var in FLAGS_ENV.items():
        out[var] = " ".join(flags_for(cell, lang))
    if wrap_log is not None:
        out[LOG_ENV] = str(wrap_log)
    return out


@dataclass
class Setup:
    """Where and how one cell builds: its configured tree, environment and command."""

    tree: Path
    env: dict[str, str]
    build: str


def flag_text(cell: BuildCell, language: str, opts: BuildOptions) -> str:
    """What a ``build`` cell puts where a user puts flags: the -O level, the marker, the
    level's flags for ``language`` (the marker proves they arrived; the wrapper drops it).

    The words are joined by spaces and never quoted: each is checked to be an option of
    letters, digits and ``+ - = , . _ : #`` (:func:`flagdb.names.flag_text`; a level's
    names were checked when read from the database, a ``--flag-set``'s when given,
    ``--opt`` is ``-O…``, the marker's level name is :func:`arrival.tag`'s). None of these
    characters means anything to a shell inside ``'…'``, inside ``"…"`` or bare (``#``
    only starts a comment at a word's start, and every word starts with ``-``), nor to
    make (no ``$``), so the text is the same words in whatever quoting context the
    user's template puts it (``make CFLAGS='{cflags}'``), in ``$CFLAGS`` and in make's
    recipe shell. ``shlex.join`` would add quotes of its own, which end the template's."""
    return names.flag_text([opts.opt, *arrival.carried(cell.level, flags_for(cell, language))])


def commands(text: str, cell: BuildCell, opts: BuildOptions, inject: str) -> str:
    """A recipe command with ``{jobs}`` and a local tree's flag placeholders filled in
    (the placeholders stand for nothing in ``wrapper`` cells: the wrapper adds the flags).

    The command is a user's shell text, never a format string: each placeholder is
    replaced where it stands, and every other brace (``${st:-0}``, ``{ make; }``,
    ``{a,b}``) reaches the shell as typed. One pass over the text, so a placeholder's
    value is never read again for placeholders."""
    def level(language: str) -> str:
        return flag_text(cell, language, opts) if inject == "build" else names.flag_text([opts.opt])
    values = {"{jobs}": lambda: str(opts.jobs), "{flags}": lambda: level(next(iter(cell.flags), "c")),
              "{cflags}": lambda: level("c"), "{cxxflags}": lambda: level("c++")}
    return _PLACEHOLDER.sub(lambda m: values[m.group()](), text)


#: the placeholders a recipe command may hold
_PLACEHOLDER = re.compile(r"\{(?:jobs|flags|cflags|cxxflags)\}")


def configured_flags(tree: Path, var: str) -> str | None:
    """``CFLAGS``'s value as configure wrote it into the tree's top Makefile (``CFLAGS =
    -O2 -D_LARGEFILE64_SOURCE=1``), or None where the Makefile has no such line."""
    try:  # the tree may be a user's: only its own regular file (a link out is refused)
        text = extract.Tree(tree, "build tree").read("Makefile").decode("utf-8", "replace")
    except (UnsafeInput, ParseError):
        return None
    found = re.search(rf"^{var}\s*=[ \t]*(.*)$", text, re.M)
    return found.group(1).strip() if found else None


def cell_setup(recipe: Recipe, pristine: Path, base: tuple[Path, dict[str, str]], cell: BuildCell,
               opts: BuildOptions, work: Path, wrap_log: Path, progress: Progress, box: BuildSandbox,
               tc: Toolchain | None = None) -> Setup | None:
    """How ``cell`` builds (None: its own configure failed, and the cell with it); a
    per-level tree is copied into the box, its configure log kept in ``work``; ``tc``, the
    compiler :func:`prepare` configured for, is what a per-level configure is told of its
    target (:mod:`analyzer.projects.cross`)."""
    tree, env = base
    if cell.inject == "wrapper":
        return Setup(tree, level_env(env, cell, wrap_log),
                     cross.build(commands(recipe.build, cell, opts, "wrapper"), recipe.cross_build, tc))
    env = {**env, "CFLAGS": flag_text(cell, "c", opts), "CXXFLAGS": flag_text(cell, "c++", opts),
           LOG_ENV: str(wrap_log)}
    build = cross.build(commands(recipe.build, cell, opts, "build"), recipe.cross_build, tc)
    if configures_per_level(recipe):
        tree = box.box / f"tree-{arrival.tag(cell.level)}"
        if not os.path.lexists(tree):
            copy_tree(pristine, tree, box)
            progress(f"{recipe.name} {cell.compiler} {cell.level}: configure with the level's flags")
            log = work / f"configure-{tree.name}.log"
            command = cross.configure(commands(recipe.configure, cell, opts, "build"), recipe.build_system, tc)
            t = process.run(command, tree, env, log, timeout=opts.timeout, box=box)
            if t.exit != 0:
                fail([cell], f"configure with the level's flags failed ({process.ended(t, opts.timeout)})",
                     log, tree)
                return None
    elif recipe.inject == "make":
        for var, language in recipe.make_vars:
            configured = configured_flags(tree, var)
            if configured is None and language not in recipe.languages:
                continue
            # one word for the command's shell (shlex.quote); then make expands ``$`` in
            # it and its recipe shell reads it again: the level's part is checked text
            # with neither (names.flag_text), the configured part is the Makefile's own
            # line, which make and its shell read the same way without the override
            level = names.flag_text(arrival.carried(cell.level, flags_for(cell, language)))
            value = " ".join([configured or "", level]).strip()
            build += f" {var}={shlex.quote(value)}"
    return Setup(tree, env, build)
