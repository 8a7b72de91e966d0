"""From GCC option files to a :class:`~flagdb.model.CompilerData`.

The option files come from Debian's ``gcc-N-source`` package (streamed: only
``gcc/**/*.opt`` and ``gcc/BASE-VER`` are written to the cache), from a GCC source
tree, or from a GCC release tarball. The C-family files (``common.opt``,
``c-family/c.opt``, ``analyzer/analyzer.opt``) are the default scope; warning
options only found in other front ends' or targets' files are kept with
``c_family = False``.

A compiler for another target (``gcc-12@aarch64-linux-gnu``: Debian builds its cross
compilers from the same ``gcc-N-source``) is read from the same files with that
target's own option files in scope too (:func:`target_scope`): its CPU's directory
``config/<cpu>/`` and the files of its operating system, as GCC's ``config.gcc`` adds
them (``extra_options``). Their warning options count as the C family's; the
provenance names the files and the warning options found in them (GCC 12's
aarch64, arm and riscv files hold none: such a compiler has its host release's flags).
"""
from __future__ import annotations

import logging
import os
import re
import tarfile
from pathlib import Path

from warnscope import apt, extract
from warnscope.errors import BadInput, NotInstalled, PackageError, ParseError, UnsafeInput
from flagdb import gcc_opt, names, sources
from flagdb.gcc_opt import Option, OptFile, has_flag, merge, nth_arg, opt_args
from flagdb.model import CompilerData, Edge, Flag, GccFacts
from warnscope.compilers import CompilerId
from warnscope.paths import cache_dir

#: what this module is doing, for the progress a terminal shows (analyzer.cli.output)
log = logging.getLogger(__name__)

#: the C family's files; before 4.6 (no ``c-family/`` yet) its options were in ``c.opt``
C_FAMILY_FILES = ("common.opt", "c-family/c.opt", "c.opt", "analyzer/analyzer.opt")

C_LANGUAGES = ("C", "ObjC", "C++", "ObjC++")

#: the directory under ``gcc/config/`` a triple's architecture is built from
#: (``config.gcc``'s ``cpu_type``) where it is not named as the architecture is
CPU_DIRS = {
    "aarch64_be": "aarch64", "arm64": "aarch64", "armeb": "arm", "x86_64": "i386",
    "i386": "i386", "i486": "i386", "i586": "i386", "i686": "i386", "riscv32": "riscv",
    "riscv64": "riscv", "powerpc": "rs6000", "powerpc64": "rs6000",
    "powerpc64le": "rs6000", "powerpcle": "rs6000", "mips64": "mips", "mips64el": "mips",
    "mipsel": "mips", "mipsisa32r6": "mips", "mipsisa64r6": "mips", "mipsisa64r6el": "mips",
    "s390x": "s390", "sparc64": "sparc", "sparcv9": "sparc", "loongarch64": "loongarch",
    "hppa": "pa", "hppa64": "pa", "sh4": "sh", "shle": "sh", "amdgcn": "gcn",
    "xstormy16": "stormy16", "m68000": "m68k",
}
#: the option files of ``gcc/config/`` an operating system's targets add (``config.gcc``'s
#: ``extra_options``), by a word of the triple; a file listed here belongs to that
#: system only, also where it sits in a CPU's directory (``config/i386/mingw.opt``)
OS_FILES = {
    "linux": ("config/linux.opt", "config/gnu-user.opt", "config/linux-android.opt"),
    "android": ("config/linux.opt", "config/gnu-user.opt", "config/linux-android.opt"),
    "gnu": ("config/gnu-user.opt",),
    "mingw": ("config/i386/cygming.opt", "config/i386/mingw.opt", "config/i386/mingw-w64.opt"),
    "cygwin": ("config/i386/cygming.opt", "config/i386/cygwin.opt"),
    "darwin": ("config/darwin.opt", "config/rs6000/darwin.opt"),
    "aix": ("config/rs6000/aix64.opt",),
    "freebsd": ("config/freebsd.opt",),
    "netbsd": ("config/netbsd.opt", "config/netbsd-elf.opt"),
    "openbsd": ("config/openbsd.opt",),
    "dragonfly": ("config/dragonfly.opt",),
    "solaris": ("config/sol2.opt",),
    "vxworks": ("config/vxworks.opt", "config/arm/vxworks.opt"),
    "rtems": ("config/rtems.opt",),
    "hpux": ("config/hpux11.opt",),
    "msdosdjgpp": ("config/i386/djgpp.opt",),
    "nto": ("config/i386/nto.opt",),
    "lynxos": ("config/lynx.opt",),
    "vms": ("config/vms/vms.opt",),
}
#: the CPUs whose Linux targets read ``linux-android.opt`` too (config.gcc)
ANDROID_CPUS = ("config/aarch64", "config/arm", "config/i386", "config/mips")


def cpu_dir(target: str) -> str:
    """``config/aarch64`` of ``aarch64-linux-gnu``, ``config/i386`` of ``x86_64-…``."""
    arch = target.split("-", 1)[0]
    return "config/" + CPU_DIRS.get(arch, arch)


def target_scope(target: str, paths: list[str]) -> list[str]:
    """Which of the option files ``paths`` (relative to ``gcc/``) a compiler for
    ``target`` reads besides the C family's: the files of its CPU's directory (not
    those of another operating system kept there), and its operating system's files.
    An unknown or unsupported CPU is one clear error: this GCC does not build for it."""
    words = set(re.split(r"[-_.]", target.lower()))
    mine = {f for word, files in OS_FILES.items() for f in files
            if word in words or any(w.startswith(word) for w in words)}
    if cpu_dir(target) not in ANDROID_CPUS:
        mine.discard("config/linux-android.opt")
    others = {f for files in OS_FILES.values() for f in files} - mine
    directory = cpu_dir(target) + "/"
    in_dir = [p for p in paths if p.startswith(directory)]
    if not in_dir:
        raise BadInput(f"{target}: this GCC has no gcc/{directory[:-1]}/*.opt: it does not "
                       "build for that target (or the triple's CPU is not one warnscope knows)")
    return sorted({p for p in in_dir if p not in others} | (mine & set(paths)))


def _wanted(relpath: str) -> bool:
    """``gcc/…/*.opt`` and ``gcc/BASE-VER`` inside a source tree (path below its top dir)."""
    return relpath == "gcc/BASE-VER" or (relpath.startswith("gcc/") and relpath.endswith(".opt"))


# ---------------------------------------------------------------- acquiring files

def extract_tarball(stream, dest: Path, origin: str) -> int:
    """Stream a GCC release tarball and write only the wanted files under ``dest``
    (through :mod:`warnscope.extract`: safe names, regular files, size caps)."""
    count = 0
    budget = extract.Budget(origin)
    try:
        with tarfile.open(fileobj=stream, mode="r|*") as tar:
            for name, member in extract.members(tar, origin):
                parts = name.split("/", 1)
                if len(parts) != 2 or not _wanted(parts[1]):
                    continue
                extract.write_member(tar, member, parts[1], dest, budget)
                count += 1
    except (tarfile.TarError, EOFError, OSError) as exc:
        if isinstance(exc, OSError) and exc.filename is not None:
            raise  # writing to the cache failed: not the tarball's fault
        raise BadInput(f"{origin}: corrupt or truncated GCC tarball ({exc})") from None
    if count == 0 or not (dest / "gcc" / "BASE-VER").exists():
        raise BadInput(f"{origin}: no gcc/BASE-VER and .opt files found: not a GCC source tarball")
    return count


def _complete(dest: Path) -> bool:
    return (dest / ".complete").is_file()


#: Debian's patch that brings the release tarball up to the branch snapshot its version
#: names (gcc-10 10.2.1-6 ships gcc-10.2.0-dfsg.tar.xz plus the 10.2.1 branch as this
#: diff); the binary is built with it, so the option files and BASE-VER must be too.
GIT_UPDATES = "debian/patches/git-updates.diff"
#: Marks an extraction with Debian's branch update applied (older caches lack it).
PATCHED_MARK = "patched: " + GIT_UPDATES


def _complete_patched(dest: Path) -> bool:
    mark = dest / ".complete"
    return mark.is_file() and PATCHED_MARK in mark.read_text(errors="replace")


def fetch_debian(major: str, suite: str | None = None) -> tuple[Path, apt.Candidate]:
    """Option files of Debian's gcc-N-source (the version :meth:`AptState.best` picks,
    or ``suite``'s), extracted once into the cache (:func:`warnscope.apt.unpacked`),
    with Debian's branch update (``git-updates.diff``) applied to them as Debian's
    build does."""
    package = f"gcc-{major}-source"

    def fill(candidate: apt.Candidate, deb: Path, tmp: Path) -> None:
        found, updates = False, None
        for name, member, tar in apt.data_tar(deb):
            if name == f"usr/src/gcc-{major}/{GIT_UPDATES}":
                extract.require_regular(member, name, str(deb))
                updates = wanted_sections(tar.extractfile(member), f"{deb.name}:{name}")
            elif re.fullmatch(rf"usr/src/gcc-{major}/gcc-[0-9][^/]*\.tar\.(xz|gz|bz2)", name):
                extract.require_regular(member, name, str(deb))
                extract_tarball(tar.extractfile(member), tmp, f"{deb.name}:{name}")
                found = True
        if not found:
            raise PackageError(f"{deb}: no GCC source tarball inside {package}")
        if updates:
            apply_patch(updates, tmp, f"{deb.name}:usr/src/gcc-{major}/{GIT_UPDATES}")
        (tmp / ".complete").write_text(f"{package} {candidate.version}\n{PATCHED_MARK}\n")

    return apt.unpacked(package, cache_dir("gcc"), f"{major}_", fill, _complete_patched, suite)


_HUNK = re.compile(rb"@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")


def wanted_sections(stream, origin: str) -> bytes:
    """The parts of a unified diff (``--- a/src/…``/``+++ b/src/…`` sections, as
    Debian's git-updates.diff writes them) that change files :func:`_wanted` keeps.

    Hunks are consumed by their line counts, so a removed line that itself starts
    with ``--`` is never taken for a file header.
    """
    out: list[bytes] = []
    lines = iter(stream.read(extract.MAX_TOTAL_BYTES).splitlines(keepends=True))
    keep = False
    for line in lines:
        if line.startswith(b"--- "):
            plus = next(lines, b"")
            if not plus.startswith(b"+++ "):
                raise ParseError(origin, None, "a '---' line without '+++' after it")
            path = _diff_path(plus) or _diff_path(line)
            keep = path is not None and ".." not in path.split("/") and _wanted(path)
            if keep:
                out += [line, plus]
        elif (m := _HUNK.match(line)):
            old = int(m.group(1) or 1)
            new = int(m.group(2) or 1)
            body = [line]
            while old > 0 or new > 0:
                row = next(lines, None)
                if row is None:
                    raise ParseError(origin, None, "truncated hunk")
                if row.startswith(b"\\"):   # "\ No newline at end of file"
                    body.append(row)
                    continue
                tag = row[:1]
                old -= tag in (b" ", b"-", b"\n", b"\r")
                new -= tag in (b" ", b"+", b"\n", b"\r")
                body.append(row)
            if keep:
                out += body
        elif keep and line.startswith(b"\\"):
            out.append(line)
    return b"".join(out)


def _diff_path(header: bytes) -> str | None:
    """``gcc/common.opt`` from ``+++ b/src/gcc/common.opt`` (None for /dev/null)."""
    name = header[4:].split(b"\t")[0].strip().decode("utf-8", "replace")
    parts = name.split("/", 2)
    return parts[2] if len(parts) == 3 and parts[1] == "src" else None


def apply_patch(diff: bytes, root: Path, origin: str) -> None:
    """Apply ``diff`` (paths ``a/src/gcc/…``) to the tree at ``root`` with patch(1)."""
    from warnscope.tool import run as run_tool

    try:
        proc = run_tool(["patch", "-p2", "--batch", "--forward", "--silent", "-r", "-",
                         "--no-backup-if-mismatch", "-d", str(root)],
                        input=diff, text=False, check=False, timeout=120)
    except NotInstalled:
        raise NotInstalled("patch(1) is not installed (your distribution's patch package; "
                           f"Debian: apt-get install patch): needed to apply {origin}") from None
    if proc.returncode != 0:
        detail = (proc.stdout + proc.stderr).decode("utf-8", "replace").strip().splitlines()
        raise BadInput(f"{origin}: does not apply to the option files "
                             f"({detail[0] if detail else f'patch exit {proc.returncode}'})")


def locate_source(source: str, sha256: str | None = None) -> tuple[Path, str, str]:
    """A user-given ``--source``: a source tree (or its ``gcc/`` dir) or a tarball
    (``.tar.gz``, ``.tar.bz2``, ``.tar.xz``; with ``sha256``, checked first)."""
    path = Path(source)
    if not path.exists():
        raise BadInput(f"{extract.shown(source)}: no such file or directory")
    if sha256 is not None and not path.is_file():
        raise BadInput("--sha256 checks a tarball: --source names a directory")
    if path.is_file():
        digest = sources.sha256_of(path, sha256)[:24]
        def fill(tmp: Path) -> None:
            with open(path, "rb") as fh:
                extract_tarball(fh, tmp, extract.shown(str(path)))
            (tmp / ".complete").write_text(extract.shown(str(path)) + "\n")

        dest = extract.populate(cache_dir("gcc", "tarballs") / digest, fill, _complete)
        return dest, "tarball", extract.shown(str(path.resolve()))
    if not path.is_dir():
        raise BadInput(f"{extract.shown(source)}: neither a directory nor a regular file")
    if (path / "gcc" / "common.opt").exists() or (path / "gcc" / "BASE-VER").exists():
        return path, "source-tree", extract.shown(str(path.resolve()))
    if (path / "common.opt").exists() and path.name == "gcc":
        return path.parent, "source-tree", extract.shown(str(path.parent.resolve()))
    raise BadInput(f"{extract.shown(source)}: not a GCC source tree (no gcc/common.opt) nor a tarball")


# ---------------------------------------------------------------- building the data

def load_gcc(compiler: str, source: str | None = None, suite: str | None = None,
             sha256: str | None = None) -> CompilerData:
    """Parse a GCC version's option files into CompilerData (``compiler`` like ``gcc-12``,
    or ``gcc-4.4`` for a GCC before 5, named by its minor too); ``sha256``: what a
    tarball given as ``source`` must hash to."""
    cid = CompilerId.of(compiler)
    major = str(cid.major)
    candidate = None
    if source is None:
        if cid.profile.is_variant:
            raise BadInput(f"{compiler}: a vendor's GCC comes from its own source tree; give it "
                           "with --source (Android's: AOSP's toolchain/gcc)")
        if cid.major < 9 or cid.minor is not None:
            raise BadInput(f"{compiler}: Debian packages no option files of it; give its source "
                           "tree or release tarball with --source (flags versions --available "
                           "lists where to get one)")
        if sha256 is not None:
            raise BadInput("--sha256 checks a tarball given with --source")
        root, candidate = fetch_debian(major, suite)
        kind, provenance = "debian-package", f"{candidate.package} {candidate.version}"
    else:
        root, kind, provenance = locate_source(source, sha256)
    log.info("%s: reading the option files of %s", compiler, provenance)
    version, files = read_tree(root)
    # the files are parsed first: a malformed record is its file:line whatever the version
    data = build(files, compiler, version, kind, provenance)
    vendor, marks = vendor_of(files)
    found = version.split(".")
    family = vendor or cid.family
    if (found[0] != major or (cid.minor is not None and found[1] != str(cid.minor))
            or (vendor and cid.family != vendor)):
        name = f"{family}-{found[0]}" if int(found[0]) >= 5 else f"{family}-{found[0]}.{found[1]}"
        name += f"@{cid.target}" if cid.target else ""
        what = f"{VENDORS[vendor]} {version}" if vendor else f"GCC {version}"
        why = (f" (its option files have {', '.join(_dash(m) for m in marks)}, which upstream "
               "GCC never had)" if vendor and cid.family != vendor else "")
        raise BadInput(f"{provenance}: this is {what}{why}, not {compiler} (ingest it as {name})")
    data.set_package(candidate)
    return data


#: vendor family -> who makes it, as an error line names it
VENDORS = {"android-gcc": "Android's GCC"}
#: vendor family -> options only its trees have: Google's patches of AOSP's
#: ``toolchain/gcc`` (the google/gcc-4_x branches) add LIPO (``-fripa``, whose
#: ``-Wripa-opt-mismatch``), annotalysis (``-Wthread-safety``) and ``-Wself-assign`` and
#: ``-Wreal-conversion``; no upstream release has any of them (GCC 9-16 checked). One is
#: enough to tell the tree from upstream's.
VENDOR_MARKS = {"android-gcc": ("fripa", "Wripa-opt-mismatch", "Wthread-safety", "Wself-assign",
                                "Wreal-conversion")}


def vendor_of(files: list[OptFile]) -> tuple[str, list[str]]:
    """The vendor family whose tree ``files`` are (``android-gcc``) with the options that
    tell, or ('', []) for upstream's."""
    present = {rec.name for f in files for rec in f.options}
    for vendor, marks in VENDOR_MARKS.items():
        found = [m for m in marks if m in present]
        if found:
            return vendor, found
    return "", []


def read_tree(root: Path) -> tuple[str, list[OptFile]]:
    """The version (``gcc/BASE-VER``) and every parsed ``gcc/**/*.opt`` of the GCC source
    tree at ``root``."""
    gcc_dir = root / "gcc"
    base_ver = gcc_dir / "BASE-VER"
    shown_root = extract.shown(str(root))
    if not os.path.lexists(base_ver):
        raise BadInput(f"{shown_root}: no gcc/BASE-VER: not a GCC source tree")
    # Only regular files inside the tree are read: a .opt linked to /etc/shadow would
    # otherwise be quoted, line by line, in the parse errors.
    tree = extract.Tree(root, "GCC source tree")
    raw = tree.read("gcc/BASE-VER", max_bytes=4096)
    version = raw.decode("utf-8", "backslashreplace").strip()
    if not re.fullmatch(r"\d+\.\d+\.\d+", version):
        raise ParseError(f"{shown_root}/gcc/BASE-VER", 1, f"not a GCC version: {version[:40]!r}")
    names, refused = tree.walk(lambda n: n.endswith(".opt"), under="gcc")
    bad = [r for r in refused if not r.directory]
    if bad:
        raise UnsafeInput(f"{bad[0]}: refusing the tree")
    files = [gcc_opt.parse_bytes(tree.read(name), name[len("gcc/"):]) for name in names]
    _require_complete(files, shown_root)
    return version, files


def build_from_tree(root: Path, compiler: str, source_kind: str, provenance: str) -> CompilerData:
    """Parse every ``gcc/**/*.opt`` under ``root`` (the top of a GCC source tree)."""
    version, files = read_tree(root)
    return build(files, compiler, version, source_kind, provenance)


def _require_complete(files: list[OptFile], root: str) -> None:
    """The files every GCC has, with options in them: without them an entry would
    silently lose most flags (an empty common.opt, a tree without the C front end)."""
    for needed in ("common.opt", "c-family/c.opt"):
        found = next((f for f in files if f.path == needed), None)
        if found is None and needed == "c-family/c.opt":   # GCC before 4.6
            found = next((f for f in files if f.path == "c.opt"), None)
        if found is None:
            also = " or c.opt" if needed == "c-family/c.opt" else ""
            raise BadInput(f"{root}/gcc: no {needed}{also}: an incomplete GCC source tree "
                           "(looked for gcc/common.opt, gcc/c-family/c.opt, gcc/c.opt)")
        if not found.options:
            raise ParseError(needed, None, "holds no options: an incomplete or damaged GCC source tree")


def build(files: list[OptFile], compiler: str, version: str, source_kind: str,
          provenance: str) -> CompilerData:
    """Turn parsed files into flags and edges; for a compiler of another target
    (``gcc-12@aarch64-linux-gnu``) with that target's option files in scope."""
    target = _target_of(compiler)
    scope = set(C_FAMILY_FILES)
    if target:
        own = target_scope(target, [f.path for f in files])
        scope |= set(own)
    options = merge(files)
    languages = {lang for f in files for lang in f.languages}
    enums: dict[str, list[tuple[str, str]]] = {}
    for f in files:
        for enum, values in f.enum_values.items():
            enums.setdefault(enum, []).extend(values)
    var_of = {name: opt_args("Var", opt.props) for name, opt in options.items()}
    canonical = {_enum_name(name): name for name in options} | {name: name for name in options}
    warnings = {name: opt for name, opt in options.items()
                if is_warning_option(name, opt, options, canonical, scope)}

    # before Alias() (4.6) an alias was said in its help text, and made in C code
    synonyms = not any(opt_args("Alias", o.props) is not None for o in options.values())
    flags = [
        _flag(opt, languages, enums, canonical, synonyms, scope)
        for opt in sorted(warnings.values(), key=lambda o: o.name)
    ]
    for f in flags:
        _require_warning_names(f, warnings[f.name[1:]])
    flags += driver_spellings(options, flags, version)
    flags.sort(key=lambda f: f.name)
    describe_aliases(flags)
    edges: list[Edge] = []
    for opt in warnings.values():
        for rec in opt.records:
            edges.extend(_edges(opt, rec.props, options, var_of, rec.path, rec.line))
    # a tree without EnabledBy (before 4.8) gives no edges: CompilerData.members_in_code
    # then says -Wall's members were decided in C code, rather than an empty tree
    if target:
        found = sorted(f.name for f in flags
                       if any(p in own for p in f.origin.split()))
        provenance = (f"{provenance}, for {target} (its option files {', '.join(own)}: "
                      + (f"{len(found)} warning options, {', '.join(found)})" if found
                         else "no warning option)"))
    return CompilerData(compiler=compiler, family="gcc", version=version,
                        source_kind=source_kind, source=provenance, flags=flags, edges=edges)


def _target_of(compiler: str) -> str:
    """The target of a compiler id (``aarch64-linux-gnu``), '' for the host's or a name
    that is not an id."""
    try:
        return CompilerId.parse(compiler).target
    except ValueError:
        return ""


def _require_warning_names(flag: Flag, opt: Option) -> None:
    """A warning option's name, and what it is an alias of, must be a warning option's
    (:mod:`flagdb.names`): a record ``fplugin=evil.so`` or ``Wp,-include,…`` with the
    ``Warning`` property would otherwise be passed to the compiler by a level-``all``
    build. Refused at the record, so the ingest stops with file:line."""
    rec = opt.records[0]
    for what, name in (("", flag.name), ("an alias of ", flag.alias_of),
                       ("negated as ", flag.gcc.alias_negative)):
        why = names.problem(name) if name is not None else None
        if why is not None:
            raise ParseError(rec.path, rec.line, f"warning option {names.shown(opt.name)} is "
                                                 f"{what}{names.shown(name)}: {why}; refusing the tree")


def _alias_target(alias: str, canonical: dict[str, str]) -> str:
    """The option an ``Alias(...)`` names; GCC looks it up by its enum name, where '-'
    and '_' are the same."""
    target = nth_arg(0, alias)
    return canonical.get(target) or canonical.get(_enum_name(target), target)


#: ``W…`` records GCC's files leave without ``Warning`` that are no warning: they decide
#: what becomes of the warnings given (errors; stop at the first error), not which are
#: given. ``-Q --help=warnings`` does not list them, and a level-``all`` build must never
#: get them.
NOT_WARNINGS = frozenset({"Werror", "Werror=", "Wfatal-errors"})
#: ``W<letter>,`` records: the driver hands the rest to the assembler, linker or
#: preprocessor (``-Wa,``, ``-Wl,``, ``-Wp,``)
DRIVER_PASS_THROUGH = frozenset({"Wa,", "Wl,", "Wp,"})


def is_warning_option(name: str, opt: Option, options: dict[str, Option],
                      canonical: dict[str, str],
                      scope: set[str] | frozenset[str] = frozenset(C_FAMILY_FILES)) -> bool:
    """Does GCC take the record ``name`` as a warning option? (docs/flags.md, "Which
    records are warning options".)

    * a record with the ``Warning`` property, in any file;
    * a ``W…`` record of the C family's files (``common.opt``, ``c.opt``,
      ``c-family/c.opt``, ``analyzer/analyzer.opt``; a cross entry's target files too)
      without it: older GCCs left many real warnings unmarked (GCC 4.4's
      ``-Wsign-conversion``, ``-Wframe-larger-than=``, ``-W``, ``-Wimport``, ``-Wpsabi``;
      GCC 12's ``-Wattributes=``, typed ``-Wno-attributes=``), except the driver's
      pass-throughs ``-Wa,`` ``-Wl,`` ``-Wp,`` and ``-Werror``, ``-Werror=``,
      ``-Wfatal-errors`` (:data:`NOT_WARNINGS`);
    * a ``W`` record of any file GCC accepts and ignores (``Ignore``, ``WarnRemoved``:
      ``-Wmudflap``), and an alias of a warning option whatever its spelling
      (``Waligned-new``; ``-pedantic``, typed ``--pedantic``);
    * ``pedantic`` where there is no ``Wpedantic`` (GCC before 4.8: the switch itself).

    Every one but the first is a switch ``--help=warnings`` does not list (:func:`_flag`
    marks it ``unlisted``)."""
    if has_flag("Warning", opt.props):
        return True
    if name == "pedantic" and "Wpedantic" not in options:
        return True   # GCC before 4.8: -pedantic is the switch itself, there is no -Wpedantic
    if name.startswith("W") and (has_flag("Ignore", opt.props) or has_flag("WarnRemoved", opt.props)):
        return True
    if (name.startswith("W") and name not in NOT_WARNINGS and name not in DRIVER_PASS_THROUGH
            and any(f in scope for f in opt.files) and names.is_warning_name(_dash(name))):
        return True
    alias = opt_args("Alias", opt.props)
    if alias is None:
        return False
    target = options.get(_alias_target(alias, canonical))
    return target is not None and has_flag("Warning", target.props)


#: the driver's own long spellings of warning options (``option_map`` in GCC's ``gcc.c``
#: before 4.6, which turned them into these before anything else saw them); from 4.6 on
#: the option files hold them (``-all-warnings``: ``Alias(Wall)``). Name as in an option
#: file -> what the driver made of it.
DRIVER_SPELLINGS = (("-all-warnings", "Wall"), ("-extra-warnings", "W"), ("-pedantic", "pedantic"))


def driver_spellings(options: dict[str, Option], flags: list[Flag], version: str) -> list[Flag]:
    """``--all-warnings``, ``--extra-warnings`` and ``--pedantic`` where the version's
    option files lack them: GCC before 4.6, whose driver mapped them to ``-Wall``, ``-W``
    and ``-pedantic`` itself. They are stored as aliases of what the driver made of
    them: GCC accepted them all along, and an entry without them would have them appear
    in 4.6. (From 4.6 on the driver knows only what its option files hold.)"""
    if _version_tuple(version) >= (4, 6):
        return []
    by_name = {f.name: f for f in flags}
    out = []
    for spelling, target in DRIVER_SPELLINGS:
        meant = by_name.get(_dash(target))
        if spelling in options or meant is None:
            continue
        out.append(Flag(
            name=_dash(spelling), kind="warning", alias_of=meant.name, default="off",
            languages=list(meant.languages), description=meant.description,
            origin="driver", c_family=meant.c_family,
            facts=GccFacts(reject_negative=True, unlisted=True)))
    return out


def _version_tuple(version: str) -> tuple[int, ...]:
    """``4.4.6`` -> (4, 4, 6); what is not a number counts as 0."""
    return tuple(int(x) if x.isdigit() else 0 for x in version.split("."))


def _dash(name: str) -> str:
    return "-" + name


def _languages(props: str, languages: set[str]) -> list[str]:
    """The option's own language tags: bare words, not those inside ``LangEnabledBy(...)``."""
    words = re.sub(r"\([^()]*\)", " ", props).split()
    out = [w for w in words if w in languages or w == "Common"]
    seen: list[str] = []
    for w in out:
        if w not in seen:
            seen.append(w)
    return seen


def _enum_name(name: str) -> str:
    """GCC's ``OPT_`` enum spelling: every non-alphanumeric character becomes ``_``."""
    return re.sub(r"[^A-Za-z0-9]", "_", name)


def _flag(opt: Option, languages: set[str], enums: dict[str, list[tuple[str, str]]],
          canonical: dict[str, str], synonyms: bool = False,
          scope: set[str] | frozenset[str] = frozenset(C_FAMILY_FILES)) -> Flag:
    props = opt.props
    display, _, description = opt.help.partition("\t") if "\t" in opt.help else ("", "", opt.help)
    takes_argument = any(has_flag(p, props) for p in ("Joined", "JoinedOrMissing", "Separate"))
    var = opt_args("Var", props)
    init = opt_args("Init", props)
    enum = opt_args("Enum", props)
    int_range = opt_args("IntegerRange", props)

    argument = None
    if display.startswith("-" + opt.name):
        argument = display[len(opt.name) + 1:] or None
    elif takes_argument:
        if int_range:
            lo, hi = (x.strip() for x in int_range.split(",", 1))
            argument = f"<{lo},{hi}>"
        elif enum and enum in enums:
            argument = "[" + "|".join(s for _, s in enums[enum]) + "]"
        elif has_flag("UInteger", props) or has_flag("ByteSize", props):
            argument = "<number>"
        else:
            argument = "<arg>"

    alias = opt_args("Alias", props)
    alias_of = alias_negative = None
    synonym = _SYNONYM.fullmatch(description.strip())
    if synonyms and alias is None and synonym and synonym.group(1)[1:] in canonical:
        # GCC before Alias() existed (4.6) said it in the help text, and in C code
        alias_of = synonym.group(1)
    if alias is not None:
        target = _alias_target(alias, canonical)
        posarg, negarg = nth_arg(1, alias), nth_arg(2, alias)
        alias_of = _dash(target) + (posarg if posarg and target.endswith("=") else "")
        if negarg and target.endswith("="):
            # Alias(Wbidi-chars=,any,none): -Wno-bidi-chars is -Wbidi-chars=none
            alias_negative = _dash(target) + negarg

    default = _default(var, init, takes_argument, enum, enums)
    c_family = any(f in scope for f in opt.files)
    facts = GccFacts(
        var=var.split(",")[0].strip() if var else None,
        # Var(v, val): the option is on when v == val
        var_value=var.split(",", 1)[1].strip() if var and "," in var else None,
        init=init.strip() if init is not None else None,
        reject_negative=has_flag("RejectNegative", props),
        range=_range(int_range, opt) if int_range else None,
        enum_values={value: string for value, string in enums.get(enum, [])} if enum else {},
        alias_negative=alias_negative,
        warn_message=opt_args("Warn", props) or None,
        byte_size=has_flag("ByteSize", props),
        cpp=opt_args("CPP", props) is not None,
        undocumented=has_flag("Undocumented", props),
        # a warning switch --help=warnings does not list
        unlisted=not has_flag("Warning", props),
    )
    return Flag(
        name=_dash(opt.name),
        kind="warning",
        alias_of=alias_of,
        default=default,
        languages=_languages(props, languages),
        takes_argument=takes_argument,
        argument=argument,
        ignored=has_flag("Ignore", props),
        removed=has_flag("WarnRemoved", props),
        description=description.strip(),
        origin=" ".join(opt.files),
        c_family=c_family,
        facts=facts,
    )


#: an old option file's way of writing an alias: ``Synonym for -Wcomment``
_SYNONYM = re.compile(r"Synonym for (-W[\w+=-]+)\.?")


def _range(int_range: str, opt: Option) -> tuple[int, int]:
    """``IntegerRange(0, 2)`` -> (0, 2); anything else is a parse error at the record."""
    lo, _, hi = int_range.partition(",")
    try:
        return int(lo), int(hi)
    except ValueError:
        rec = opt.records[0]
        raise ParseError(rec.path, rec.line,
                         f"IntegerRange({int_range}): expected two integers") from None


def describe_aliases(flags: list[Flag]) -> None:
    """Give an alias without a help text of its own its target's description.

    GCC keeps an option's help in one of its records, and for an alias often only in
    the target's (``Wbidi-chars`` is ``Alias(Wbidi-chars=,any,none)``, the text is on
    ``Wbidi-chars=``); ``--help`` shows the alias under its target. Both GCC routes
    (option files, binary) use this, so they agree.
    """
    by_name = {f.name: f for f in flags}
    for f in flags:
        seen = {f.name}
        target = f.alias_of
        while not f.description and target:
            positive = "-W" + target[5:] if target.startswith("-Wno-") else target
            hit = by_name.get(positive) or by_name.get(positive.partition("=")[0] + "=")
            if hit is None or hit.name in seen:
                break
            seen.add(hit.name)
            f.description = hit.description
            target = hit.alias_of


def _default(var: str | None, init: str | None, takes_argument: bool, enum: str | None,
             enums: dict[str, list[tuple[str, str]]]) -> str:
    """The default as the option files state it; ``code`` when GCC decides it at run time."""
    if var is not None and init is None and enum and enum in enums:
        init = "0"  # a static variable starts at zero; show it as the enum's string
    if var is None or init is None:
        return "0" if takes_argument and var is not None else "off"
    init = init.strip()
    if init == "-1":
        return "code"
    if enum and enum in enums:
        for value, string in enums[enum]:
            if value == init:
                return string
    if takes_argument:
        return init
    if init == "0":
        return "off"
    if re.fullmatch(r"-?\d+", init):
        return "on"
    return init


def _edges(opt: Option, props: str, options: dict[str, Option], var_of: dict[str, str | None],
           path: str, line: int) -> list[Edge]:
    """EnabledBy and LangEnabledBy of one record, as edges parent -> this option."""
    child = _dash(opt.name)
    edges: list[Edge] = []

    enabled_by = opt_args("EnabledBy", props)
    if enabled_by is not None:
        if "&&" in enabled_by:
            names = [n.strip() for n in enabled_by.split("&&")]
            if len(names) != 2:
                raise ParseError(path, line, f"EnabledBy({enabled_by}): only 'A && B' is supported")
            _require_known(names, options, path, line, "EnabledBy")
            for i, name in enumerate(names):
                others = [_dash(n) for j, n in enumerate(names) if j != i]
                edges.append(Edge(parent=_dash(name), child=child, value="1", requires=others))
        else:
            names = [n.strip() for n in re.split(r"\|\|?", enabled_by) if n.strip()]
            _require_known(names, options, path, line, "EnabledBy")
            for name in names:
                edges.append(Edge(parent=_dash(name), child=child, value="1"))

    lang_enabled_by = opt_args("LangEnabledBy", props)
    if lang_enabled_by is not None:
        langs = nth_arg(0, lang_enabled_by).split()
        names = [n.strip() for n in re.split(r"\|\|", nth_arg(1, lang_enabled_by)) if n.strip()]
        posarg, negarg = nth_arg(2, lang_enabled_by), nth_arg(3, lang_enabled_by)
        if bool(posarg) != bool(negarg):
            raise ParseError(path, line, f"LangEnabledBy({lang_enabled_by}): give both or none "
                                         "of posarg and negarg (GCC's build stops here too)")
        if not langs:
            raise ParseError(path, line, f"LangEnabledBy({lang_enabled_by}): no languages")
        _require_known(names, options, path, line, "LangEnabledBy")
        for name in names:
            value, parent_min = "1", None
            if posarg:
                if re.fullmatch(r"-?\d+", posarg):
                    value = posarg
                else:
                    parent_min = _level_condition(posarg, var_of.get(name))
                    if parent_min is None:
                        raise ParseError(
                            path, line,
                            f"LangEnabledBy: cannot read the condition {posarg!r} on {name}",
                        )
            edges.append(Edge(parent=_dash(name), child=child, value=value,
                              parent_min=parent_min, languages=langs))
    return edges


def _level_condition(expr: str, parent_var: str | None) -> int | None:
    """``warn_format >= 2`` (the parent's own variable) -> 2; ``> 1`` -> 2."""
    m = re.fullmatch(r"(\w+)\s*(>=|>)\s*(\d+)", expr.strip())
    if not m or parent_var is None or m.group(1) != parent_var.split(",")[0].strip():
        return None
    level = int(m.group(3))
    return level + 1 if m.group(2) == ">" else level


def _require_known(names: list[str], options: dict[str, Option], path: str, line: int,
                   prop: str) -> None:
    for name in names:
        if name not in options:
            raise ParseError(path, line, f"{prop} names an unknown option {name!r}")
