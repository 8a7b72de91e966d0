"""clang's warning flags from its generated tables, as a :class:`CompilerData`.

``load_clang('clang-16')`` fetches Debian's ``libclang-16-dev`` (download only, never
installed), streams just ``clang/Basic/Diagnostic*Kinds.inc``,
``DiagnosticGroups.inc`` and ``Version.inc`` into the cache, and derives the flags;
``source=DIR`` reads the same files from a directory instead.

How a group becomes a flag, following what clang itself does with the tables:

* every group is a flag ``-W<name>``, except a group whose diagnostics (through all
  its subgroups) are all remarks, which clang accepts only as ``-R<name>``;
  group ``""`` is the bare ``-W`` (it enables ``-Wextra``);
* a group with no diagnostics of its own and exactly one subgroup is an alias;
* a group with no diagnostic anywhere below it is a no-op kept for GCC compatibility;
* the default is ``on`` when every diagnostic below the group is on by default, ``off``
  when none is, else ``partial`` (``diagtool tree`` colours the first green);
* TableGen's "inferred pedantic" step copies off-by-default extensions into
  ``-Wpedantic``'s member list although they already have a group of their own.
  Each diagnostic becomes one :class:`Message`, under the group its ``DIAG`` row
  names; ``-Wpedantic`` counts the copies in ``facts.inferred_members``;
* ``-Weverything`` is implicit in clang (not in the table): it turns on every
  warning, so it is a flag with no edges whose default is computed over all of them.
"""
from __future__ import annotations

import logging
import re
from functools import lru_cache
from pathlib import Path

from warnscope import apt, extract
from flagdb import clang_sources, clang_td, sources, tablegen
from flagdb.clang_inc import Diag, Tables, parse_dir
from warnscope.compilers import CompilerId
from warnscope.errors import BadInput, PackageError, ParseError, UnsafeInput
from flagdb.model import ClangFacts, CompilerData, Edge, Flag, Message
from warnscope.paths import cache_dir

#: what this module is doing, for the progress a terminal shows (analyzer.cli.output)
log = logging.getLogger(__name__)

#: Files wanted from the package, by basename.
_WANTED = re.compile(r"Diagnostic\w*Kinds\.inc|DiagnosticGroups\.inc|Version\.inc")
_MEMBER_DIR = "/include/clang/Basic/"
ORIGIN = "DiagnosticGroups.inc"


def major_of(compiler: str) -> int:
    """``clang-16`` → 16; a clear error for anything else (:class:`CompilerId` parses)."""
    cid = CompilerId.of(compiler)
    if not cid.profile.clang or cid.profile.is_variant:
        raise BadInput(f"{compiler!r} is not a clang version id such as 'clang-16'")
    return cid.major


def load_clang(compiler: str, source: str | None = None, suite: str | None = None,
               sha256: str | None = None) -> CompilerData:
    """Parse clang ``compiler``'s tables from ``source`` or from Debian's libclang-N-dev.

    ``source`` is a directory of generated ``.inc`` tables, or a clang tree or tarball
    of TableGen ``.td`` files (:mod:`flagdb.clang_sources`, read by :mod:`flagdb.tablegen`);
    Apple's clang (``apple-clang-10.0``) only comes from such a tree."""
    cid = CompilerId.of(compiler)
    if not cid.profile.clang:
        raise BadInput(f"{compiler!r} is not a clang version id such as 'clang-16'")
    if source is not None and (sources.is_url(source) or Path(source).is_file()
                               or clang_sources.is_td_tree(Path(source))):
        return load_td(compiler, cid, source, sha256)
    if not cid.profile.debian or cid.major < 9:
        raise BadInput(f"{compiler}: Debian packages no generated tables of it; give its "
                       "source tree or release tarball with --source (flags versions "
                       "--available lists where to get one)")
    if sha256 is not None:
        raise BadInput("--sha256 checks a tarball given with --source")
    major = cid.major
    if source is not None:
        directory = source_dir(Path(source))
        tables = parse_dir(directory)
        kind, provenance = "inc-dir", str(directory.resolve())
    else:
        directory, candidate = fetch_package(major, suite)
        log.info("%s: reading the diagnostic tables of %s %s", compiler, candidate.package,
                 candidate.version)
        tables = parse_dir(directory)
        kind, provenance = "debian-package", f"{candidate.package} {candidate.version}"
    found = tables.version.split(".")[0]
    if found != str(major):
        raise BadInput(f"{directory}: these tables are clang {tables.version}, not {compiler}")
    data = build(compiler, tables, kind, provenance)
    data.set_package(candidate if source is None else None)
    return data


def load_td(compiler: str, cid: CompilerId, source: str, sha256: str | None) -> CompilerData:
    """clang's data from a tree or tarball of its TableGen files."""
    log.info("%s: reading the TableGen files of %s", compiler, source)
    tree, root, found, kind, provenance = clang_sources.locate(source, sha256)
    version = found or cid.version
    if not cid.profile.is_variant and found and not _same_version(found, cid):
        raise BadInput(f"{provenance}: this is clang {found}, not {compiler}")
    base = root.rpartition("/")[0]

    def read_text(name: str) -> str:
        rel = f"{base}/{name}" if base else name
        data = tree.read(rel)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            raise ParseError(tree.shown(rel), line, "not a text file (not UTF-8)") from None

    with tablegen.collector_paused():   # the records are gone when it runs again
        records = tablegen.read(root.rpartition("/")[2], read_text)
        tables = clang_td.tables(records, version, tree.shown(root))
        del records
        return build(compiler, tables, kind, provenance, origin="DiagnosticGroups.td")


def _same_version(found: str, cid: CompilerId) -> bool:
    parts = found.split(".")
    if int(parts[0]) != cid.major:
        return False
    return cid.minor is None or (len(parts) > 1 and int(parts[1]) == cid.minor)


def source_dir(path: Path) -> Path:
    """The directory holding the tables: ``path`` itself, or its ``clang/Basic`` below an
    include root such as ``/usr/lib/llvm-16/include`` of an installed libclang-16-dev."""
    if not path.is_dir():
        raise BadInput(f"{path}: not a directory (expected one holding DiagnosticGroups.inc)")
    for candidate in (path, path / "clang" / "Basic", path / "include" / "clang" / "Basic"):
        if (candidate / "DiagnosticGroups.inc").is_file():
            return candidate
    return path   # parse_dir names the missing file


def fetch_package(major: int, suite: str | None = None) -> tuple[Path, apt.Candidate]:
    """The cache directory holding the extracted .inc files of ``libclang-N-dev`` (the
    version :meth:`AptState.best` picks, or ``suite``'s), and that version; extracted
    once, never half (:func:`warnscope.apt.unpacked`).
    """
    def fill(candidate: apt.Candidate, deb: Path, tmp: Path) -> None:
        budget = extract.Budget(str(deb))
        found = 0
        try:
            for name, member, tar in apt.data_tar(deb):
                head, _, base = name.rpartition("/")
                if (("/" + head + "/").endswith(_MEMBER_DIR) and _WANTED.fullmatch(base)
                        and not member.isdir()):
                    extract.write_member(tar, member, base, tmp, budget)
                    found += 1
        except (PackageError, UnsafeInput) as exc:  # the .deb itself is bad
            raise type(exc)(f"{exc}; delete it to download it again") from None
        if not (tmp / "DiagnosticGroups.inc").is_file() or not (tmp / "Version.inc").is_file():
            raise PackageError(f"{deb}: holds no clang/Basic/DiagnosticGroups.inc and Version.inc "
                                 f"(found {found} of the wanted files); is it libclang-{major}-dev?")

    return apt.unpacked(f"libclang-{major}-dev", cache_dir("clang"), f"{major}-", fill,
                        lambda d: (d / "DiagnosticGroups.inc").is_file(), suite)


def build(compiler: str, tables: Tables, source_kind: str, source: str,
          origin: str = ORIGIN) -> CompilerData:
    """Derive flags, edges and messages from parsed tables."""
    groups = tables.groups
    diags = tables.diags

    @lru_cache(maxsize=None)
    def closure(index: int) -> frozenset[str]:
        """Every diagnostic at or below group ``index`` (each counted once)."""
        g = groups[index]
        out = set(g.members)
        for s in g.subgroups:
            out |= closure(s)
        return frozenset(out)

    names = [flag_name(g.name, closure(g.index), diags) for g in groups]
    flags: list[Flag] = []
    edges: list[Edge] = []
    messages: list[Message] = []
    for g in groups:
        below = closure(g.index)
        name = names[g.index]
        own = [m for m in g.members if diags[m].group == g.index]
        inferred = len(g.members) - len(own)
        is_alias = not g.members and len(g.subgroups) == 1
        facts = ClangFacts(docs=g.docs or "", diagnostics=len(below), direct=len(own),
                           inferred_members=inferred,
                           remarks=sum(1 for d in below if diags[d].is_remark))
        flags.append(Flag(
            name=name,
            kind="remark" if name.startswith("-R") else "warning",
            alias_of=names[g.subgroups[0]] if is_alias else None,
            default=default_state(below, diags),
            ignored=not below,
            description=g.docs,
            origin=origin,
            facts=facts,
        ))
        edges.extend(Edge(parent=name, child=names[s]) for s in g.subgroups)
        for m in own:
            d = diags[m]
            messages.append(Message(flag=name, diag=d.name, diag_class=d.diag_class,
                                    severity=d.severity, text=d.text))
    flags.append(everything_flag(diags))
    return CompilerData(compiler=compiler, family="clang", version=tables.version,
                        source_kind=source_kind, source=source,
                        flags=flags, edges=edges, messages=messages)


def flag_name(group: str, below: frozenset[str], diags: dict[str, Diag]) -> str:
    """``-R<group>`` when everything below is a remark, else ``-W<group>``.

    clang accepts ``-W<g>`` when the group has a non-remark diagnostic below it or
    nothing at all (empty groups are GCC compatibility switches), and ``-R<g>`` when
    it has a remark below it.
    """
    if below and all(diags[d].is_remark for d in below):
        return "-R" + group
    return "-W" + group


def default_state(below: frozenset[str] | set[str], diags: dict[str, Diag]) -> str:
    """``on`` if every diagnostic below is on by default, ``off`` if none is, else ``partial``."""
    on = sum(1 for d in below if diags[d].on_by_default)
    if below and on == len(below):
        return "on"
    return "partial" if on else "off"


def everything_flag(diags: dict[str, Diag]) -> Flag:
    """``-Weverything``: every warning and extension, grouped or not (remarks excluded)."""
    warnings = {d.name for d in diags.values() if d.diag_class in ("WARNING", "EXTENSION")}
    ungrouped = sorted(n for n in warnings if diags[n].group is None)
    ungrouped_on = sum(1 for n in ungrouped if diags[n].on_by_default)
    return Flag(
        name="-Weverything",
        kind="warning",
        default=default_state(warnings, diags),
        description="Enable all diagnostics (implicit in clang: not a group of the table).",
        origin="implicit",
        facts=ClangFacts(diagnostics=len(warnings), implicit=True, ungrouped=ungrouped,
                         ungrouped_on_by_default=ungrouped_on),
    )
