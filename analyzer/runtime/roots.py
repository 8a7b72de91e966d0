"""Debian roots: compilers the host cannot install, each in a minimal Debian of its suite.

Debian packages GCC 9-16 and clang 9-23 across bullseye, bookworm, trixie and sid, but
a host runs one suite. A compiler of another suite gets a *root*: ``debootstrap
--variant=minbase SUITE`` into the cache (``cache_dir("roots")/SUITE``, or
``$WARNSCOPE_ROOTS/SUITE``), then ``apt-get
install`` of the compiler inside it with what warnscope needs of it (C/C++ runtime,
sanitizer runtimes, GCC plugin headers, clang's tools). One root per suite holds every
compiler added from that suite.

Which suite: :func:`warnscope.apt.preferred_suite`, the rule the flag data follows too --
the host's suite, else the newest *release* that packages the major (bullseye,
bookworm, trixie), and sid only for a major no release has. A release changes only by
point updates, so a root built next month has the same compiler as this one; sid
changes daily. ``--suite`` picks another.

Atomic and resumable: a root is built in ``SUITE.partial`` and renamed when debootstrap
and apt's lists are complete; a ``.partial`` left by an interrupt is never used and is
removed by the next ``add``. A compiler is usable only once it is recorded in the
root's manifest (``var/lib/warnscope/root.json`` inside it), written after its
``apt-get install`` succeeded, with the versions dpkg reports; an interrupted install
is repaired (``dpkg --configure -a``) by the next ``add``. Every change to a suite's
root holds ``SUITE.lock`` (flock), so concurrent adds wait for each other. Downloaded
packages are kept in ``roots_dir()/debs``, so rebuilding a root needs no
second download.

Preparing a root needs root (debootstrap creates device nodes, dpkg files of many
owners). *Using* one does not: see :func:`bwrap_argv`.
"""
from __future__ import annotations

import enum
import json
import os
import re
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, ContextManager

from warnscope import apt, tool
from warnscope.errors import (BadInput, NeedsPrivilege, NetworkUnreachable, NotInstalled,
                              PackageError)
from warnscope.locks import flocked
from warnscope.compilers import CompilerId
from warnscope.paths import atomic_write, cache_dir

#: Oldest first. Which compiler majors each suite packages (measured against the mirror).
SUITES: dict[str, dict[str, tuple[int, ...]]] = {
    "bullseye": {"gcc": (9, 10), "clang": (9, 11, 13)},
    "bookworm": {"gcc": (11, 12), "clang": (13, 14, 15, 16, 19)},
    "trixie": {"gcc": (13, 14), "clang": (17, 18, 19, 22)},
    "sid": {"gcc": (13, 14, 15, 16), "clang": (21, 22, 23)},
}
MIRROR = os.environ.get("WARNSCOPE_MIRROR", "http://deb.debian.org/debian")
#: Where the manifest lives inside a root.
MANIFEST = "var/lib/warnscope/root.json"
#: Read-only in a compile or run: the root's system directories (the sandbox's list).
SYSTEM_DIRS = ("/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
_SAFE_SUITE = re.compile(r"[a-z]+")
#: seconds debootstrap, or one package tool in a root (apt-get install of a compiler
#: and its runtimes, a download), may take
PACKAGE_TIMEOUT = 1800


def suites_for(cid: CompilerId) -> list[str]:
    """The suites that package ``cid``, oldest first."""
    return [s for s, has in SUITES.items() if cid.major in has[cid.family]]


def offered() -> str:
    """What Debian packages, as one line: ``bullseye gcc-9/10 clang-9/11/13; ...``."""
    parts = []
    for suite, has in SUITES.items():
        parts.append(f"{suite} " + ", ".join(
            f"{fam}-{'/'.join(map(str, majors))}" for fam, majors in has.items()))
    return "; ".join(parts)


def choose_suite(cid: CompilerId, suite: str | None = None) -> str:
    """The suite a root for ``cid`` comes from (see the module doc), or a one-line error."""
    have = suites_for(cid)
    if suite is not None:
        if suite not in SUITES:
            raise BadInput(f"unknown suite {suite!r}: one of {', '.join(SUITES)}")
        if suite not in have:
            raise PackageError(f"Debian {suite} does not package {cid}; "
                                 f"it is in {', '.join(have) or 'no suite'} ({offered()})")
        return suite
    if not have:
        raise PackageError(f"Debian does not package {cid} in any suite ({offered()})")
    return apt.preferred_suite(have)


@dataclass
class Root:
    """A complete root of one suite and the compilers recorded in it."""

    suite: str
    path: Path
    compilers: dict[str, dict[str, str]] = field(default_factory=dict)  # id -> {pkg: version}
    created: str = ""
    #: the build tools added for builds that run whole in the root (an overhead study's):
    #: {package: version} (:func:`add_build_tools`)
    tools: dict[str, str] = field(default_factory=dict)

    @property
    def size_bytes(self) -> int:
        return _du(self.path)


def roots_dir() -> Path:
    """``$WARNSCOPE_ROOTS``, else ``cache_dir("roots")``. Preparing a root needs root,
    using one does not: ``sudo WARNSCOPE_ROOTS=/var/cache/warnscope-roots warnscope
    toolchain add gcc-14`` makes roots that every user with the same setting uses."""
    shared = os.environ.get("WARNSCOPE_ROOTS")
    if shared:
        path = Path(shared)
        path.mkdir(parents=True, exist_ok=True)
        return path
    return cache_dir("roots")


def debs_dir(suite: str, part: str) -> Path:
    """The download cache of one suite (``base``: debootstrap's, ``apt``: apt's)."""
    path = roots_dir() / "debs" / suite / part
    path.mkdir(parents=True, exist_ok=True)
    return path


def root_path(suite: str) -> Path:
    if not _SAFE_SUITE.fullmatch(suite):
        raise BadInput(f"bad suite name {suite!r}")
    return roots_dir() / suite


def load(suite: str) -> Root | None:
    """The complete root of ``suite``, or None (absent, or only a ``.partial``)."""
    path = root_path(suite)
    try:
        data = json.loads((path / MANIFEST).read_text())
    except (OSError, ValueError):
        return None
    return Root(suite=suite, path=path, compilers=data.get("compilers", {}),
                created=data.get("created", ""), tools=data.get("tools", {}))


def all_roots() -> list[Root]:
    """Every complete root, oldest suite first."""
    return [r for r in (load(s) for s in SUITES) if r is not None]


def find(cid: CompilerId) -> Root | None:
    """The root that holds ``cid`` ready to use (newest released suite first, as
    :func:`choose_suite` would pick), or None."""
    order = sorted(SUITES, key=lambda s: (s in apt.RELEASED, list(SUITES).index(s)), reverse=True)
    for suite in order:
        root = load(suite)
        if root is not None and str(cid) in root.compilers:
            return root
    return None


# ----------------------------------------------------------------------------- adding


Progress = Callable[[str], None]


def add(cid: CompilerId, suite: str | None = None, progress: Progress = lambda _: None) -> Root:
    """Make ``cid`` usable from a root of its suite (building the root first if needed)."""
    chosen = choose_suite(cid, suite)
    _require_privileges()
    with _locked(chosen):
        root = load(chosen)
        stale = root_path(chosen).with_name(f"{chosen}.partial")
        if root is not None and stale.exists():  # an interrupted rebuild: never used
            progress(f"discarding an unfinished {chosen} root")
            _remove_tree(stale)
        if root is None:
            _build_base(chosen, progress)
            root = load(chosen)
            assert root is not None
        if str(cid) in root.compilers:
            return root
        progress(f"installing {cid} in the {chosen} root")
        packages = _install(root, cid)
        root.compilers[str(cid)] = packages
        _write_manifest(root)
        return root


def remove(cid: CompilerId) -> Root:
    """Remove ``cid`` from the root that holds it; the root itself goes with its last
    compiler. Returns the root it was in."""
    root = find(cid)
    if root is None:
        raise NotInstalled(f"{cid} is not in any root (warnscope toolchain list)")
    _require_privileges()
    with _locked(root.suite):
        root = load(root.suite)
        assert root is not None
        packages = root.compilers.pop(str(cid), {})
        if not root.compilers:
            _remove_tree(root.path)
            return root
        _write_manifest(root)  # first: a half-purged compiler is never used
        keep = {p for pkgs in root.compilers.values() for p in pkgs} | set(root.tools)
        drop = sorted(set(packages) - keep)
        if drop:
            _in_root(root.path, ["apt-get", "purge", "-y", "-q", "--autoremove", *drop],
                     what=f"removing {cid}")
        return root


def download(suite: str, packages: list[str]) -> dict[str, Path]:
    """Fetch the ``.deb`` files of ``packages`` through ``suite``'s root's apt (signed
    lists, checksums) into the shared download cache, without installing them: the
    option data of a compiler (``libclang-N-dev``'s ``.inc`` files, ``gcc-N-source``)
    comes from the same suite and version as the compiler in the root. Returns
    {package: path}."""
    root = load(suite)
    if root is None:
        raise NotInstalled(f"no {suite} root (warnscope toolchain add a compiler of {suite})")
    _require_privileges()
    with _locked(suite):
        _in_root(root.path, ["apt-get", "install", "-y", "-q", "--download-only",
                             "--reinstall", *packages],
                 what=f"downloading {' '.join(packages)} in the {suite} root")
        policy = _in_root(root.path, ["apt-cache", "policy", *packages], what="apt-cache policy")
    archives = debs_dir(suite, "apt")
    found: dict[str, Path] = {}
    for pkg in packages:
        m = re.search(rf"^{re.escape(pkg)}:\n\s+Installed: .*\n\s+Candidate: (\S+)", policy, re.M)
        version = m.group(1).replace(":", "%3a") if m else "*"
        hits = sorted(archives.glob(f"{pkg}_{version}_*.deb"))
        if not hits:
            raise PackageError(f"{pkg} was not downloaded into {archives}")
        found[pkg] = hits[-1]
    return found


#: the Debian package of each program a project's build runs (a recipe's ``needs``, and
#: make, which every recipe's build runs), for a build that runs whole in a root
BUILD_TOOLS = {"make": "make", "libtool": "libtool-bin", "cmake": "cmake", "tclsh": "tcl",
               "meson": "meson", "ninja": "ninja-build",
               "gcc": "gcc", "g++": "g++"}
#: what a program of :data:`BUILD_TOOLS` runs in turn: Debian's libtool links with the
#: compilers of its own configuration, ``gcc`` and ``g++`` (the suite's default GCC),
#: whatever ``$CC`` is, as on the host; its package does not depend on them by name
RUNS_TOO = {"libtool": ("gcc", "g++")}


def missing_tools(root: Root, programs: tuple[str, ...] | list[str]) -> list[str]:
    """The packages of :data:`BUILD_TOOLS` that ``root`` lacks for ``programs`` (a program
    is there when the root's ``/usr/bin`` has it). A program this table does not know
    is not asked for: the build says what it lacks."""
    out = []
    for program in [p for program in programs for p in (program, *RUNS_TOO.get(program, ()))]:
        package = BUILD_TOOLS.get(program)
        if package is None or package in out:
            continue
        found = any(os.path.lexists(resolve_inside(root.path, f"{d}/{program}"))
                    for d in ("/usr/bin", "/usr/sbin"))
        if not found:
            out.append(package)
    return out


def add_build_tools(suite: str, packages: list[str], progress: Progress = lambda _: None) -> Root:
    """``apt-get install`` the build tools ``packages`` (:data:`BUILD_TOOLS`' values) into
    the ``suite`` root, as a user of that system installs what a build needs, and record
    them with their versions in the manifest (``tools``): a build that runs whole in the
    root (an overhead study's) then runs the root's own make, libtool and CMake. Needs
    root, as every change to a root does; the root's compilers are untouched."""
    _require_privileges()
    with _locked(suite):
        root = load(suite)
        if root is None:
            raise NotInstalled(f"no {suite} root (warnscope toolchain add a compiler of {suite})")
        progress(f"installing {' '.join(packages)} in the {suite} root (what the build runs)")
        _in_root(root.path, ["dpkg", "--configure", "-a"], what="repairing an interrupted install")
        _in_root(root.path, ["apt-get", "install", "-y", "-q", *packages],
                 what=f"apt-get install {' '.join(packages)} in the {suite} root")
        out = _in_root(root.path, ["dpkg-query", "-W", "-f", "${Package}\t${Version}\n", *packages],
                       what="dpkg-query")
        root.tools.update(dict(line.split("\t", 1) for line in out.splitlines() if "\t" in line))
        _write_manifest(root)
        return root


def _require_privileges() -> None:
    if os.geteuid() != 0:
        raise NeedsPrivilege("preparing a root needs root (debootstrap creates device nodes "
                             "and files of other owners): run it as root; using the root "
                             "afterwards does not need root")
    for needed in ("debootstrap", "unshare", "chroot"):
        if shutil.which(needed) is None:
            raise NotInstalled(f"{needed} is not installed (a Debian root needs debootstrap, "
                               "unshare and chroot: your distribution's debootstrap, util-linux "
                               "and coreutils packages; Debian: apt-get install debootstrap "
                               "util-linux coreutils)")


def _locked(suite: str) -> ContextManager[int | None]:
    """Exclusive hold on one suite's root: concurrent adds and removes wait here."""
    return flocked(roots_dir() / f"{suite}.lock")


#: the same hold for a user of the suite's root and download cache that changes neither
#: (a Debian package's build dependencies downloaded there: one apt at a time)
locked = _locked


def _build_base(suite: str, progress: Progress) -> None:
    """debootstrap into ``SUITE.partial`` (anything there from an interrupt is discarded),
    configure apt, fetch its lists, then rename into place."""
    final = root_path(suite)
    partial = final.with_name(f"{suite}.partial")
    if partial.exists():
        progress(f"discarding an unfinished {suite} root")
        _remove_tree(partial)
    if final.exists():  # a directory without a manifest: not ours to trust
        _remove_tree(final)
    debs = debs_dir(suite, "base")
    progress(f"debootstrap --variant=minbase {suite} (about a minute)")
    argv = ["debootstrap", "--variant=minbase", f"--cache-dir={debs}", suite, str(partial),
            MIRROR]
    proc = tool.run(argv, timeout=PACKAGE_TIMEOUT, check=False, what=f"debootstrap {suite}")
    if proc.returncode != 0:
        raise _failure(f"debootstrap {suite}", proc.stdout + proc.stderr)
    (partial / "etc/apt/sources.list").write_text(f"deb {MIRROR} {suite} main\n")
    _in_root(partial, ["apt-get", "update", "-q"], what=f"apt-get update in the {suite} root")
    root = Root(suite=suite, path=partial, created=time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                                                time.gmtime()))
    _write_manifest(root)
    os.rename(partial, final)


#: Host apt settings a root's apt shares: how to reach the mirror (a proxy) and whether
#: an expired Release file is refused. The host's administrator set them for this
#: mirror; a frozen or snapshot mirror serves sid's Release past its Valid-Until
#: (a week), which the host's apt accepts and the root's apt would otherwise refuse.
SHARED_APT_SETTINGS = ("Acquire::Check-Valid-Until", "Acquire::http::Proxy",
                       "Acquire::https::Proxy")


def host_apt_settings() -> str:
    """The host's values of :data:`SHARED_APT_SETTINGS`, as apt.conf lines (those set)."""
    if shutil.which("apt-config") is None:
        return ""
    lines = []
    for key in SHARED_APT_SETTINGS:
        proc = tool.run(["apt-config", "dump", "--format", "%f\t%v%n", key], timeout=60,
                        check=False)
        for line in proc.stdout.splitlines() if proc.returncode == 0 else []:
            name, _, value = line.partition("\t")
            if name == key and value and '"' not in value:
                lines.append(f'{key} "{value}";\n')
    return "".join(lines)


def _write_apt_conf(path: Path) -> None:
    """warnscope's apt settings for a root: no recommends (a small root), retries, and
    :func:`host_apt_settings`."""
    atomic_write(path / "etc/apt/apt.conf.d/99warnscope",
                 ('APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n'
                  'Acquire::Retries "3";\n' + host_apt_settings()).encode())


def packages_for(cid: CompilerId) -> list[str]:
    """What ``cid`` needs in a root, before asking apt which of the alternatives exist."""
    n = cid.major
    if cid.profile.gcc:
        # gcc-N pulls libgcc-N-dev, which pulls libasan/libubsan/libtsan/liblsan.
        return ["libc6-dev", f"gcc-{n}", f"g++-{n}", f"gcc-{n}-plugin-dev"]
    # libclang-rt-N-dev holds the sanitizer runtimes from clang 14 on; before, they are
    # in libclang-common-N-dev (which clang-N depends on anyway).
    # python3 and python3-clang-N: the UB runner asks libclang which warnings fired,
    # from inside the root (analyzer.ub.libclang).
    return ["libc6-dev", f"clang-{n}", f"clang-tools-{n}", f"libclang-rt-{n}-dev",
            f"libclang-common-{n}-dev", f"libclang1-{n}", "python3", f"python3-clang-{n}"]


def _install(root: Root, cid: CompilerId) -> dict[str, str]:
    """apt-get install what ``cid`` needs; returns {package: version} from dpkg-query."""
    _in_root(root.path, ["dpkg", "--configure", "-a"], what="repairing an interrupted install")
    wanted = packages_for(cid)
    known = _in_root(root.path, ["apt-cache", "policy", *wanted], what="apt-cache policy")
    present = [p for p in wanted if re.search(rf"^{re.escape(p)}:\n\s+Installed: .*\n\s+"
                                               r"Candidate: (?!\(none\))", known, re.M)]
    if f"{cid.family}-{cid.major}" not in present and f"clang-{cid.major}" not in present:
        raise PackageError(f"the {root.suite} root's apt has no {cid} (try apt-get update "
                             f"there, or another suite: {', '.join(suites_for(cid))})")
    _in_root(root.path, ["apt-get", "install", "-y", "-q", *present],
             what=f"apt-get install {' '.join(present)} in the {root.suite} root")
    out = _in_root(root.path, ["dpkg-query", "-W", "-f", "${Package}\t${Version}\n", *present],
                   what="dpkg-query")
    return dict(line.split("\t", 1) for line in out.splitlines() if "\t" in line)


def _in_root(path: Path, argv: list[str], what: str) -> str:
    """Run a package tool inside the root being prepared: chroot in a private mount
    namespace with /proc mounted and apt's archive on the shared download cache, so
    nothing stays mounted afterwards. Returns stdout; a failure is one line."""
    archives = debs_dir(path.name.split(".")[0], "apt")
    (archives / "partial").mkdir(exist_ok=True)
    _write_apt_conf(path)  # each time: the host's apt settings may change after the build
    script = ('set -e; mount -t proc proc "$1/proc"; '
              'mount --bind "$2" "$1/var/cache/apt/archives"; r=$1; shift 2; '
              'exec chroot "$r" "$@"')
    env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL": "C",
           "DEBIAN_FRONTEND": "noninteractive", "HOME": "/root"}
    proc = tool.run(["unshare", "--mount", "--propagation", "private", "--fork", "--",
                     "/bin/sh", "-c", script, "sh", str(path), str(archives), *argv],
                    timeout=PACKAGE_TIMEOUT, env=env, check=False, what=what)
    if proc.returncode != 0:
        raise _failure(what, proc.stdout + proc.stderr)
    return proc.stdout


#: what apt and debootstrap print when the mirror cannot be reached
_NETWORK = ("Temporary failure resolving", "Could not resolve", "Failed getting release file",
            "Network is unreachable", "Connection refused", "Could not connect")


def _failure(what: str, output: str) -> PackageError:
    """The error of a failed package tool: :class:`NetworkUnreachable` when its output
    says the mirror could not be reached, else :class:`PackageError` with the line that
    says what went wrong."""
    lines = [l.strip() for l in output.splitlines() if l.strip()]
    for l in lines:
        if any(w in l for w in _NETWORK):
            return NetworkUnreachable(f"{what} failed: cannot reach {MIRROR} (no network?): "
                                      f"{l[:160]}")
    errors = [l for l in lines if l.startswith(("E:", "W: Failure", "dpkg: error"))]
    return PackageError(f"{what} failed: {((errors or lines or ['no output'])[-1])[:240]}")


def _write_manifest(root: Root) -> None:
    data = {"suite": root.suite, "created": root.created, "mirror": MIRROR,
            "compilers": root.compilers, **({"tools": root.tools} if root.tools else {})}
    atomic_write(root.path / MANIFEST, json.dumps(data, indent=1, sort_keys=True).encode())


def _remove_tree(path: Path) -> None:
    """Remove a root; first rename it aside so that a half-removed root is never used."""
    doomed = path.with_name(f".{path.name}.removing.{os.getpid()}")
    os.rename(path, doomed)
    shutil.rmtree(doomed, ignore_errors=True)


def _du(path: Path) -> int:
    total = 0
    for dirpath, _, files in os.walk(path):
        for f in files:
            try:
                st = os.lstat(os.path.join(dirpath, f))
            except OSError:
                continue
            total += st.st_blocks * 512
    return total


# ----------------------------------------------------------------------------- running


def resolve_inside(root: Path, path: str) -> Path:
    """``path`` as the root sees it, as a host path: its symlinks followed inside the root
    (an absolute link target is the root's, not the host's). Raises OSError on a loop."""
    parts, here, hops = [p for p in path.split("/") if p], Path("/"), 0
    while parts:
        part = parts.pop(0)
        if part == "..":
            here = here.parent
            continue
        candidate = here / part
        host = Path(f"{root}{candidate}")
        if host.is_symlink():
            hops += 1
            if hops > 40:
                raise OSError(f"{host}: too many levels of symbolic links")
            target = os.readlink(host)
            parts = [p for p in target.split("/") if p] + parts
            here = Path("/") if target.startswith("/") else here
        elif part != ".":
            here = candidate
    return Path(f"{root}{here}")


#: the x86-64 program interpreter every Debian executable names
INTERPRETER = "/lib64/ld-linux-x86-64.so.2"


def host_link_flags(root: Path) -> list[str]:
    """Linker flags that make an executable linked in ``root`` run on the host with the
    root's own loader and libraries, as it would in the root: a build that runs a tool it
    built (sqlite3's lemon) would otherwise load the host's older libc and fail
    (``GLIBC_2.38' not found``). Link flags only; no compile sees them."""
    loader = resolve_inside(root, INTERPRETER)
    libs = resolve_inside(root, "/lib/x86_64-linux-gnu")
    return [f"-Wl,--dynamic-linker={loader}", f"-Wl,-rpath,{libs}"]


def bwrap_argv(root: Path, argv: list[str], binds: tuple[str, ...] = (),
               ro_binds: tuple[str, ...] = (), cwd: str | None = None) -> list[str]:
    """``argv`` run with ``root``'s system directories in place of the host's, for a
    trusted tool run (verification, the plugin build, a timed build): bubblewrap builds
    a view of the root's /usr, /etc, /lib* read-only, a fresh /proc, /dev and /tmp, and
    the host directories in ``binds`` (writable) and ``ro_binds`` at their own paths.
    It works as root and, through a user namespace, as a normal user. Untrusted
    compiles and runs use :mod:`analyzer.sandbox.runner` instead (same view, plus the rest)."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise NotInstalled("bwrap is not installed (your distribution's bubblewrap package; "
                           "Debian: apt-get install bubblewrap)")
    out = [bwrap, "--die-with-parent", "--tmpfs", "/"]
    for d in SYSTEM_DIRS:
        src = f"{root}{d}"
        if os.path.islink(src):
            out += ["--symlink", os.readlink(src), d]
        elif os.path.isdir(src):
            out += ["--ro-bind", src, d]
    out += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--tmpfs", "/var/tmp"]
    for d in ro_binds:
        out += ["--ro-bind", d, d]
    for d in binds:
        out += ["--bind", d, d]
    if cwd is not None:
        out += ["--chdir", cwd]
    return [*out, "--", *argv]


# ----------------------------------------------------------------------------- listing


class ToolchainStatus(enum.StrEnum):
    """Where a compiler of ``toolchain list`` is, stored and printed as its word."""

    HOST = "host"            # on the host
    ROOT = "root"            # in a root
    AVAILABLE = "available"  # one ``toolchain add`` could prepare
    CROSS = "cross"          # a cross compiler on PATH
    WASM = "wasm"            # a host clang building for WebAssembly
    NAMED = "named"          # registered by its name


@dataclass
class ToolchainEntry:
    """One line of ``toolchain list``: a compiler on the host, in a root, or one that
    ``toolchain add`` could prepare (``status`` ``host``, ``root`` or ``available``); a
    cross compiler on PATH (``cross``), a host clang building for WebAssembly (``wasm``)
    or one registered by its name (``named``)."""

    compiler: str
    status: ToolchainStatus
    suite: str | None          # the root's suite, or the suite ``add`` would use
    suites: list[str]          # every suite that packages it
    package: str | None        # Debian package version in the root
    root: str | None           # the root's path
    #: the driver of a cross compiler on PATH, of a host clang building for WebAssembly or
    #: of a compiler registered by name (``status`` ``cross``, ``wasm`` or ``named``); None
    #: for the others
    path: str | None = None
    #: why the programs of a cross or WebAssembly compiler cannot run here (qemu-user or a
    #: WASI piece missing: the package's line); '' where they can, and for the others
    cannot_run: str = ""


def listing() -> list[ToolchainEntry]:
    """Every GCC and clang Debian packages, and where each is (host first, then roots)."""
    entries = []
    majors = sorted({(fam, n) for has in SUITES.values() for fam, ns in has.items() for n in ns})
    for fam, n in majors:
        cid = CompilerId(fam, n)
        name, have = str(cid), suites_for(cid)
        c_driver = f"gcc-{n}" if fam == "gcc" else f"clang-{n}"
        if shutil.which(c_driver):
            entries.append(ToolchainEntry(name, ToolchainStatus.HOST, None, have, None, None))
        held = [r for r in all_roots() if name in r.compilers]
        for r in held:
            pkg = r.compilers[name].get(c_driver)
            entries.append(ToolchainEntry(name, ToolchainStatus.ROOT, r.suite, have, pkg, str(r.path)))
        if not held and not shutil.which(c_driver):
            entries.append(ToolchainEntry(name, ToolchainStatus.AVAILABLE, choose_suite(cid), have, None,
                                          None))
    return entries
