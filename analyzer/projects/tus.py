"""Translation units: the compile commands a build ran (or a compile database lists),
each named as every report names it.

A TU is named by its source relative to the tree; where one source is compiled more
than once (zlib builds each file for its static and its shared library) the name adds
``-> object``; a compile of several sources names them joined by `` + ``.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from analyzer.projects.arrival import compiles_source, links, sources as sources_of
from analyzer.projects.recipes import is_source, tu_language


@dataclass(frozen=True)
class Tu:
    """One compile command to replay: the driver is chosen per level's compiler."""

    name: str
    cwd: str
    language: str
    args: tuple[str, ...]   # without the driver and without -o


def strip_output(args: list[str]) -> tuple[list[str], str | None]:
    """``args`` without their ``-o FILE`` (or ``-oFILE``), and that file (None: none)."""
    out, output, skip = [], None, False
    for i, a in enumerate(args):
        if skip:
            skip = False
            continue
        if a == "-o" and i + 1 < len(args):
            output, skip = args[i + 1], True
        elif a.startswith("-o") and len(a) > 2:
            output = a[2:]
        else:
            out.append(a)
    return out, output


def is_warning_flag(a: str) -> bool:
    return (a == "-w" or a.startswith("-W")) and not a.startswith(("-Wl,", "-Wa,", "-Wp,"))


def relative(path: str, tree: Path) -> str:
    """``path`` relative to the tree when inside it, else as it is (normalised)."""
    real, root = os.path.normpath(path), os.path.realpath(tree)
    if real == root or real.startswith(root + os.sep):
        return os.path.relpath(real, root)
    alt = os.path.normpath(str(tree))    # the tree as named, where that is a link's path
    if real.startswith(alt + os.sep):
        return os.path.relpath(real, alt)
    return real


def names(found: list[tuple[str, str]]) -> list[str]:
    """Each (source, object) pair's TU name: the source, with ``-> object`` where the
    source is compiled more than once, and `` #2``, `` #3`` … where the same source is
    compiled to the same object again (a build that compiles a generator twice): every
    name is one TU's."""
    counts: dict[str, int] = {}
    for src, _ in found:
        counts[src] = counts.get(src, 0) + 1
    seen: dict[str, int] = {}
    out = []
    for src, obj in found:
        name = src if counts[src] == 1 else f"{src} -> {obj}"
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} #{seen[name]}")
    return out


def name_of_command(cwd: str, args: list[str], tree: Path, source: str | None = None) -> tuple[str, str]:
    """(sources, object) of one compile command (``args`` without the driver); with
    ``source``, of that one of its sources alone (a TU of a compile-and-link)."""
    src = " + ".join(relative(os.path.join(cwd, a), tree) for a in ([source] if source else sources_of(args)))
    _rest, out = strip_output(args)
    return src, (relative(os.path.join(cwd, out), tree) if out else "")


#: a linker's input: an object, an archive, a shared library (``libz.so.1``)
_LINKER_INPUT = re.compile(r"\.(o|obj|lo|a|la|so(\.[0-9]+)*)$")
#: options only a link reads, which a compile warns of (clang: "'linker' input unused")
_LINK_ONLY = ("-static", "-shared", "-rdynamic", "-pie", "-no-pie", "-s", "-nostdlib", "-nostartfiles")
#: options whose value is the next argument, kept with it whatever it looks like (``-MT a.o``)
_VALUED = ("-MT", "-MQ", "-MF", "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote",
           "-idirafter", "-isysroot", "--sysroot", "-x", "-Xclang", "-Xpreprocessor", "-Xassembler",
           "-target")


def compile_alone(args: list[str], source: str) -> list[str]:
    """The compile of ``source`` alone, to an object (``-c``), out of a compile of several
    sources or one that also links (``args`` without the driver and ``-o``): the other
    sources, the linker's inputs and options dropped."""
    out, keep, drop = [], False, False
    for a in args:
        if keep or drop:
            if keep:
                out.append(a)
            keep = drop = False
        elif a == "-Xlinker":
            drop = True
        elif a in _VALUED:
            out.append(a)
            keep = True
        elif not (is_source(a) and a != source or _LINKER_INPUT.search(a) and not a.startswith("-")
                  or a.startswith(("-l", "-L", "-Wl,")) or a in _LINK_ONLY):
            out.append(a)
    return out if "-c" in out else ["-c", *out]


def from_commands(entries: list[tuple[str, list[str]]], root: Path, strip_warnings: bool) -> list[Tu]:
    """Compile commands (cwd, driver + args) -> TUs named by their source relative to
    ``root``: a compile of one source (``-c``), and each source of a compile of several
    or of one that also links as its compile alone (:func:`compile_alone`); with ``strip_warnings``, the
    commands' own warning options dropped (a study adds each level's)."""
    found = []
    for cwd, (driver, *args) in entries:
        if not compiles_source(args) or "-S" in args or "-fsyntax-only" in args:
            continue
        sources = sources_of(args)
        rest, _output = strip_output(args)
        if strip_warnings:
            rest = [a for a in rest if not is_warning_flag(a)]
        for source in sources:
            alone = compile_alone(rest, source) if links(args) or len(sources) > 1 else rest
            found.append((name_of_command(cwd, args, root, source), cwd, tu_language(driver, args, source),
                          tuple(alone)))
    return [Tu(name=name, cwd=cwd, language=lang, args=args)
            for name, (_pair, cwd, lang, args) in zip(names([f[0] for f in found]), found)]
