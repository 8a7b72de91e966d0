"""Any Debian source package, by name and suite, built as Debian builds it.

A package is fetched with its packaging (``apt-get source`` through a private apt state
of its suite, ``dpkg-source -x``: :class:`warnscope.apt.AptState`), then built by its own
``debian/rules`` as ``dpkg-buildpackage`` runs it, with ``DEB_BUILD_PROFILES`` and
``DEB_BUILD_OPTIONS`` ``nocheck`` (the documentation is built), in a root of the compiler's suite holding its
build dependencies (a package of bookworm built by trixie's gcc-14 is built in the
trixie root, its build dependencies trixie's, as a rebuild for the next release is). The compiler under test is the one the build calls: ``cc``, ``gcc``,
``g++``, ``c++``, the triplet-prefixed and versioned names and ``$CC``/``$CXX`` all
reach the compiler wrapper of that compiler (:mod:`analyzer.projects.wrapper`), so
every compile is captured, whatever ``debian/rules`` and the upstream build call.

The per-package root is a copy-on-write overlay (the kernel's overlayfs) of the
suite's shared root (:mod:`analyzer.runtime.roots`: the root ``toolchain add`` made,
which holds the compilers), never a fresh bootstrap: its upper layer, in the build's
work directory, holds the build dependencies and goes with it. The overlay is mounted
only inside each step's own mount namespace (``unshare --mount``), so nothing stays
mounted when a step ends, however it ends; setting it up costs milliseconds
(docs/rebuild.md). Builds of one package that need the same root (a rebuild's two
compilers of one suite, and the escape hatch's build) install the build dependencies
once (:func:`shared_roots`): each build has its own upper layer over that installation,
read-only below it. sbuild and mmdebstrap's unshare mode make the same kind of root
from a tarball per build; warnscope's roots are already there, hold the compilers
under test, and its build sandbox already captures every compile, so the overlay is
made here rather than through sbuild.

Three steps, each with a timeout that names it:

1. *resolve and download* (:func:`prepare_root`): ``apt-get build-dep
   --download-only`` with the package's ``.dsc`` in the overlay, chrooted, with the
   network: apt (trusted) resolves and downloads into the suite's shared download
   cache, and no package script runs;
2. *install*, without the network: ``apt-get build-dep --no-download`` from that
   cache in bubblewrap, the overlay as ``/`` and nothing else of the host but the
   cache (read-only) and the ``.dsc``; no network, its own PID, IPC and UTS
   namespaces, an empty environment, and root's capabilities cut to those dpkg uses
   on files (no mounts, no network administration, no tracing), as root of a user
   namespace whose ids are an unprivileged host range (:func:`install_ids`; the
   suite's root is the overlay's lower layer through an idmapped mount, ``userns.c``):
   what runs there is the range on the host, and what it writes is owned by it. The
   build dependencies' maintainer scripts run here. Unsatisfiable build dependencies, in
   either step, are :class:`warnscope.errors.Unsatisfiable`: whether the package
   builds cannot be told;
3. *build* (:class:`PackageSandbox`): ``dpkg-buildpackage`` in warnscope's build
   sandbox (:mod:`analyzer.projects.sandbox`: no network, the pool's unprivileged
   uid, the box the only writable place), the whole per-package root shown read-only
   as ``/``, an environment made here (the caller's is never passed).

A package is one independent unit of work: :func:`fetch` then the build of one
compiler (:func:`prepare_root`, :func:`package_sandbox`, :func:`build_env`) touch
nothing but the cache's download and source folders and their own work directory.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import os
import re
import shutil
from contextlib import ExitStack, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

from warnscope import apt, tool
from warnscope.errors import (BadInput, NetworkUnreachable, NotInstalled, PackageError,
                              ToolTimeout, Unsatisfiable, WarnscopeError)
from warnscope.paths import cache_dir
from warnscope.profiles import profile

from analyzer.projects.sandbox import BuildSandbox, Containment, build_sandbox, init_binary
from analyzer.projects.wrapper import wrapper_for
from analyzer.runtime import roots

#: the project name of a package: ``debian:NAME`` or ``debian:NAME/SUITE`` (apt's own
#: ``NAME/SUITE`` spelling of a package of one suite)
PREFIX = "debian:"
_NAME = re.compile(r"[a-z0-9][a-z0-9+.-]+")
#: what dpkg-buildpackage runs: ``debian/rules`` for the binary packages, unsigned
BUILD_COMMAND = "dpkg-buildpackage -us -uc -b"
#: Debian's own switch that drops the tests (and their build dependencies): a package's
#: compiles are the same with it, and its tests are not what an upgrade of the compiler
#: asks. The documentation is built, as Debian's build daemons build it: ``nodoc`` changes
#: what a package's rules do (a rules file moving a README that ``dh_installdocs`` did
#: not install under ``nodoc`` fails, opendkim's does), so it is not passed.
PROFILES = "nocheck"
#: capabilities dpkg and maintainer scripts keep while installing build dependencies
#: (file owners and modes, set-id programs' users): no CAP_SYS_ADMIN, CAP_NET_*,
#: CAP_SYS_PTRACE, CAP_SYS_MODULE
INSTALL_CAPS = ("chown", "dac_override", "dac_read_search", "fowner", "fsetid", "setuid",
                "setgid", "setfcap")
#: the host ids the install step's user namespace maps its ids 0..65535 to, where root
#: has no subordinate range of its own (:func:`install_ids`): far above the ranges
#: ``useradd`` gives users in /etc/subuid (100000 on), so no user's namespace shares them
INSTALL_IDS = (1_000_000_000, 65536)
#: what is installed beside the build dependencies: dpkg-buildpackage runs the binary
#: targets under fakeroot, which ``build-essential`` does not bring
EXTRA_PACKAGES = ("fakeroot",)
#: apt's words for build dependencies that cannot be met in the suite
_UNSATISFIABLE = ("Unable to satisfy", "unmet dependencies", "has no installation candidate",
                  "Unable to locate package", "Unable to correct problems",
                  "but it is not installable", "but it is not going to be installed")
#: a build's words for reaching the network it does not have: a failure, not a function's
#: name (configure's "checking for library containing getaddrinfo... none required")
NETWORK_WORDS = ("Temporary failure in name resolution", "Could not resolve host",
                 "Network is unreachable", "Name or service not known",
                 "getaddrinfo failed", "getaddrinfo() failed",
                 "Failed to establish a new connection")


@dataclass(frozen=True)
class SourcePackage:
    """A Debian source package fetched and unpacked with its packaging (``debian/``)."""

    name: str
    version: str
    suite: str
    dsc: Path
    tree: Path      # the pristine unpacked, patched tree in the cache: copy it to build

    @property
    def project(self) -> str:
        """Its project name: ``debian:NAME/SUITE``."""
        return f"{PREFIX}{self.name}/{self.suite}"


def parse(spec: str) -> tuple[str, str]:
    """(name, suite) of ``debian:NAME`` or ``debian:NAME/SUITE``: the suite is the newest
    Debian release when not named."""
    text = spec[len(PREFIX):] if spec.startswith(PREFIX) else spec
    name, _, suite = text.partition("/")
    suite = suite or apt.RELEASED[-1]
    if not _NAME.fullmatch(name):
        raise BadInput(f"{spec!r}: {name!r} is not a Debian source package name")
    if suite not in roots.SUITES:
        raise BadInput(f"{spec!r}: unknown suite {suite!r}: one of {', '.join(roots.SUITES)}")
    return name, suite


def apt_state(suite: str) -> apt.AptState:
    """The private apt state of ``suite``'s source packages (one per suite: a package
    name means that suite's version)."""
    return apt.AptState(cache_dir("debian", "apt", suite), (suite,))


@dataclass(frozen=True)
class Listed:
    """A source package as its suite's signed index lists it, nothing downloaded: its
    ``.dsc``'s name (``sl_5.02-1.dsc``: the version, without an epoch) and SHA-256. The
    ``.dsc`` names every file of the package with its checksum, so it is what identifies
    what a build of the package was built from."""

    name: str
    suite: str
    dsc: str
    sha256: str

    @property
    def version(self) -> str:
        return self.dsc.removesuffix(".dsc").partition("_")[2]


def listed(name: str, suite: str) -> Listed:
    """``name``'s source package in ``suite``'s index (the version apt would fetch). A
    package the suite does not have is one line (:class:`PackageError`); an unreachable
    mirror is :class:`NetworkUnreachable`."""
    state = apt_state(suite)
    try:
        files = state.source_files(name)
    except NetworkUnreachable:
        raise
    except PackageError as exc:
        if "Unable to find a source package" in str(exc):
            raise PackageError(f"Debian {suite} has no source package {name} "
                               f"({state.mirror})") from None
        raise
    dscs = [f for f in files if f.name.endswith(".dsc")]
    if len(dscs) != 1:
        raise PackageError(f"Debian {suite}'s index lists {len(dscs)} .dsc files for {name}")
    return Listed(name, suite, dscs[0].name, dscs[0].sha256)


def fetch(name: str, suite: str) -> SourcePackage:
    """``name``'s source package of ``suite``, the version its index lists now,
    downloaded (checked against the signed index) and unpacked with its packaging into
    the cache. A package the suite does not have is one line (:class:`PackageError`);
    an unreachable mirror is :class:`NetworkUnreachable`."""
    state = apt_state(suite)
    dsc = state.download(name, listed(name, suite).sha256)
    tree = state.source(name)
    version = dsc.stem.split("_", 1)[1] if "_" in dsc.stem else ""
    return SourcePackage(name, version, suite, dsc, tree)


# ----------------------------------------------------------------------------- the root


@dataclass(frozen=True)
class PackageRoot:
    """One package's copy-on-write root: the suite's root as the lower layer, its own
    upper layer (the installed build dependencies), mounted at ``merged`` only inside
    each step's mount namespace."""

    suite: str
    lower: Path
    upper: Path
    work: Path
    merged: Path
    #: read-only layers between :attr:`upper` and :attr:`lower`, topmost first: the build
    #: dependencies a package's root was prepared with, shared by the builds over it
    #: (:meth:`over`)
    middle: tuple[Path, ...] = ()

    @property
    def options(self) -> str:
        lower = ":".join(str(p) for p in (*self.middle, self.lower))
        return f"lowerdir={lower},upperdir={self.upper},workdir={self.work}"

    def over(self, where: Path) -> "PackageRoot":
        """A fresh, empty upper layer in ``where`` over this root's layers, this root's
        upper layer (its installed build dependencies) read-only below it: one build's
        own root over build dependencies installed once. This root must not be mounted
        writable again while another is over it."""
        fresh = new_root(self.suite, where)
        return dataclasses.replace(fresh, middle=(self.upper, *self.middle))

    def mounted(self, argv: Sequence[str], then: str = 'shift; exec "$@"') -> list[str]:
        """``argv`` run in a mount namespace of its own where the overlay is mounted at
        :attr:`merged` (``then``: the shell text that runs it, ``$1`` the merged path):
        the mount ends with the namespace."""
        script = f'set -e; mount -t overlay overlay -o "$1" "$2"; shift; {then}'
        return ["unshare", "--mount", "--propagation", "private", "--",
                "/bin/sh", "-c", script, "sh", self.options, str(self.merged), *argv]


def new_root(suite: str, where: Path) -> PackageRoot:
    """A fresh, empty per-package layer over ``suite``'s root, in ``where`` (a build's
    work directory). The root must exist: ``warnscope toolchain add`` makes it."""
    base = roots.load(suite)
    if base is None:
        raise NotInstalled(f"no {suite} root to build Debian packages in: warnscope toolchain "
                           f"add a compiler of {suite} (trixie: gcc-13, gcc-14)")
    for path in (base.path, where):
        if re.search(r"[,:\s]", str(path)):   # overlayfs' option separators
            raise BadInput(f"{path}: a path with a comma, colon or space cannot be an "
                           "overlay layer")
    where.mkdir(mode=0o755, exist_ok=True)
    layers = {n: where / n for n in ("upper", "work", "merged")}
    for path in layers.values():
        path.mkdir(mode=0o755)
    return PackageRoot(suite, base.path, **layers)


def prepare_root(source: SourcePackage, suite: str, where: Path, timeout: float,
                 progress=lambda _m: None) -> PackageRoot:
    """``source``'s per-package root over ``suite``'s root (the compiler's: a package of
    an older suite is built as it would be in that one), in ``where``, with its build
    dependencies installed (the module's steps 1 and 2). :class:`Unsatisfiable` when
    the suite cannot meet them; a step past ``timeout`` seconds is :class:`ToolTimeout`
    naming the step."""
    if os.geteuid() != 0:
        raise NotInstalled("installing a Debian package's build dependencies needs root "
                           "(dpkg writes files of many owners in the package's root)")
    root = new_root(suite, where)
    archives = roots.debs_dir(suite, "apt")
    (archives / "partial").mkdir(exist_ok=True)
    progress(f"{source.project}: resolving and downloading its build dependencies")
    _download(root, source, archives, timeout)
    progress(f"{source.project}: installing its build dependencies (no network)")
    _install(root, source, archives, timeout)
    return root


@dataclass
class _Shared:
    """The roots :func:`shared_roots` prepared, by (``.dsc``, suite): each root, or the
    error its preparation raised; and the work folders that hold them."""

    folders: ExitStack
    roots: dict[tuple[str, str], "PackageRoot | WarnscopeError"] = dataclasses.field(default_factory=dict)


_SHARED: ContextVar[_Shared | None] = ContextVar("shared_package_roots", default=None)


@contextmanager
def shared_roots() -> Iterator[None]:
    """Within it, :func:`package_root` prepares each package's root once per suite (its
    build dependencies installed once), and each build gets its own upper layer over it:
    the builds of one move by two compilers of one suite, and the escape hatch's, share
    the installation. The prepared roots go when it ends."""
    with ExitStack() as folders:
        token = _SHARED.set(_Shared(folders))
        try:
            yield
        finally:
            _SHARED.reset(token)


def package_root(source: SourcePackage, suite: str, where: Path, timeout: float,
                 progress=lambda _m: None) -> PackageRoot:
    """The root one build of ``source`` runs in, in ``where``: prepared there
    (:func:`prepare_root`), or, within :func:`shared_roots`, a fresh upper layer over the
    root prepared once for this package and suite (a failed preparation is raised
    again, not tried twice)."""
    shared = _SHARED.get()
    if shared is None:
        return prepare_root(source, suite, where, timeout, progress)
    key = (str(source.dsc), suite)
    if key not in shared.roots:
        from analyzer.projects.workdir import WorkDir
        folder = shared.folders.enter_context(WorkDir(f"debian-root-{suite}-"))
        try:
            shared.roots[key] = prepare_root(source, suite, folder / "root", timeout, progress)
        except WarnscopeError as exc:
            shared.roots[key] = exc
    prepared = shared.roots[key]
    if isinstance(prepared, WarnscopeError):
        raise prepared
    return prepared.over(where)


def _apt_words(dsc: str) -> list[str]:
    return ["apt-get", "build-dep", "-q", "-y", "-P", PROFILES.replace(" ", ","),
            "-o", "APT::Sandbox::User=root", "-o", "APT::Install-Recommends=false", dsc]


#: the environment of the package tools (never the caller's)
_TOOL_ENV = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL": "C",
             "DEBIAN_FRONTEND": "noninteractive", "HOME": "/root"}


def _download(root: PackageRoot, source: SourcePackage, archives: Path, timeout: float) -> None:
    """Step 1: apt resolves the build dependencies in the root and downloads them into
    the shared cache, chrooted, with the network; no package script runs. It runs in a
    scratch layer of its own over the suite's root, thrown away after: the files apt
    writes as host root (its caches, the ``.dsc``'s copy) stay out of the package's root,
    where the install step's root could not change them."""
    dsc = f"/tmp/{source.dsc.name}"
    scratch = new_root(root.suite, root.upper.parent / "download")   # apt's files go with it
    then = ('m=$1; shift; mount -t proc proc "$m/proc"; '
            'mount --bind "$1" "$m/var/cache/apt/archives"; cp "$2" "$m/tmp/"; shift 2; '
            'chroot "$m" "$@" && chroot "$m" apt-get install -q -y --download-only '
            f'-o APT::Sandbox::User=root {" ".join(EXTRA_PACKAGES)}')
    argv = scratch.mounted([str(archives), str(source.dsc),
                            *_apt_words(dsc)[:3], "--download-only", *_apt_words(dsc)[3:]],
                           then=then)
    try:
        with roots.locked(root.suite):   # one apt at a time on the shared download cache
            _step(argv, f"{source.project}: resolving and downloading the build dependencies",
                  timeout, source, root.suite)
    finally:
        shutil.rmtree(scratch.upper.parent, ignore_errors=True)


def install_ids() -> tuple[int, int]:
    """(first host id, count) of the range the install step's user namespace maps its
    ids 0.. to: root's subordinate range in ``/etc/subuid`` where ``/etc/subgid`` gives
    it the same one (as mmdebstrap's unshare mode takes the user's), else
    :data:`INSTALL_IDS`."""
    found = []
    for path in ("/etc/subuid", "/etc/subgid"):
        try:
            lines = Path(path).read_text().splitlines()
        except OSError:
            return INSTALL_IDS
        ranges = [tuple(int(x) for x in line.split(":")[1:3]) for line in lines
                  if re.fullmatch(r"(root|0):[0-9]+:[0-9]+", line.strip())]
        found.append(ranges[0] if ranges else None)
    uid, gid = found
    if uid is None or uid != gid or uid[0] == 0 or uid[1] < 65536:
        return INSTALL_IDS
    return uid[0], 65536


@functools.lru_cache(maxsize=None)
def userns_binary() -> Path:
    """``userns.c`` (the install step's user namespace and idmapped lower layer), built
    once into the cache with the host's C compiler."""
    source = Path(__file__).with_name("userns.c")
    key = hashlib.sha256(source.read_bytes()).hexdigest()[:16]
    dest = cache_dir("builds", "userns", key) / "warnscope-userns"
    if dest.exists():
        return dest
    return tool.build_helper(source, dest, what="the install step's user namespace helper")


def _install(root: PackageRoot, source: SourcePackage, archives: Path, timeout: float) -> None:
    """Step 2: the downloaded build dependencies installed without the network, in
    bubblewrap, as root of a user namespace whose ids are an unprivileged host range
    (:func:`install_ids`): the suite's root is its lower layer through an idmapped mount
    (what host root owns there, the namespace's root owns), so dpkg and the maintainer
    scripts run as that root, and what they write in the upper layer is owned by the
    range; on the host they are nobody. The module doc says what else it keeps and drops."""
    dsc = f"/tmp/{source.dsc.name}"
    base, count = install_ids()
    helper = userns_binary()
    where = root.upper.parent
    idmapped = where / "lower-idmapped"
    idmapped.mkdir(mode=0o755, exist_ok=True)
    os.chown(root.upper, base, base)     # the root directory of / is the namespace's root's
    bwrap = shutil.which("bwrap") or "bwrap"
    caps = ",".join(["-all", *(f"+{c}" for c in INSTALL_CAPS)])
    offline = ["-o", "Debug::NoLocking=1"]
    script = (f"{' '.join(_apt_words(dsc)[:3])} --no-download {' '.join(offline)} "
              f"{' '.join(_apt_words(dsc)[3:])} && apt-get install -q -y --no-download "
              f"-o APT::Sandbox::User=root {' '.join(offline)} {' '.join(EXTRA_PACKAGES)}")
    inner = [bwrap, "--die-with-parent", "--new-session", "--unshare-net", "--unshare-pid",
             "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
             "--bind", "/tmp/root", "/", "--proc", "/proc", "--dev", "/dev",
             "--tmpfs", "/tmp", "--file", "5", dsc, "--chdir", "/", "--",
             "setpriv", f"--bounding-set={caps}", "--no-new-privs", "--",
             "env", "-i", *(f"{k}={v}" for k, v in _TOOL_ENV.items()), "/bin/sh", "-c", script]
    # host root, in a mount namespace of its own: the overlay over the idmapped root, the
    # download cache read-only in it, moved to /tmp/root (the cache's own path is root's
    # alone: bubblewrap resolves its sources as the namespace's root), the .dsc an open
    # file; then the namespace's root runs bubblewrap
    then = ('set -e; mount -t overlay overlay -o "$1" "$2"; a="$2/var/cache/apt/archives"; '
            'mount --bind "$3" "$a"; mount -o remount,bind,ro "$a"; '
            'mount -t tmpfs -o mode=0755,size=64k warnscope-install /tmp; mkdir /tmp/root; '
            'mount --move "$2" /tmp/root; exec 5<"$4"; h=$5; shift 5; exec "$h" enter 3 -- "$@"')
    options = f"lowerdir={idmapped},upperdir={root.upper},workdir={root.work}"
    argv = ["unshare", "--mount", "--propagation", "private", "--",
            str(helper), "map", str(base), str(count), str(root.lower), str(idmapped), "--",
            "/bin/sh", "-c", then, "sh", options, str(root.merged), str(archives), str(source.dsc),
            str(helper), *inner]
    _step(argv, f"{source.project}: installing the build dependencies", timeout, source, root.suite)


def _step(argv: list[str], what: str, timeout: float, source: SourcePackage, suite: str) -> str:
    """One package-tool step; its failure is one line: :class:`Unsatisfiable` where apt
    says the suite cannot meet the dependencies, :class:`ToolTimeout` naming the step."""
    try:
        proc = tool.run(argv, timeout=timeout, env=_TOOL_ENV, check=False, what=what)
    except ToolTimeout:
        raise ToolTimeout(f"{what} timed out after {timeout:g} s") from None
    if proc.returncode == 0:
        return proc.stdout
    output = proc.stdout + proc.stderr
    lines = [l.strip() for l in output.splitlines() if l.strip()]
    if any(w in output for w in _UNSATISFIABLE):
        # apt's own line of what is missing ("builddeps:… : Depends: X but it is not
        # installable"), else its error
        said = [l.split(" : ", 1)[-1] for l in lines if "Depends:" in l] or \
            [l for l in lines if l.startswith("E:")] or lines
        raise Unsatisfiable(f"{source.project}: its build dependencies cannot be installed "
                            f"in {suite}: {'; '.join(said)[:240]}")
    if "dpkg: error" in output or "Sub-process /usr/bin/dpkg returned" in output:
        said = [l for l in lines if l.startswith("dpkg: error")] or lines
        raise Unsatisfiable(f"{source.project}: its build dependencies do not install in "
                            f"{suite}: {said[0][:240]}")
    raise roots._failure(what, output)


# ----------------------------------------------------------------------------- the build


@dataclass(frozen=True)
class PackageSandbox(BuildSandbox):
    """The build sandbox of a package: every step sees the per-package root whole and
    read-only as ``/`` (``dpkg-shlibdeps`` reads dpkg's database, debhelper its
    ``/usr/share`` files), the box at its own path, the compiler wrappers and the
    sandbox's init; no network, the pool uid (:mod:`analyzer.projects.sandbox`)."""

    layers: PackageRoot | None = None

    def argv(self, argv: Sequence[str], cwd: str | os.PathLike) -> list[str]:
        assert self.layers is not None and self.uid is not None
        init = init_binary(static=True)
        drop = ["setpriv", f"--reuid={self.uid}", f"--regid={self.uid}", "--clear-groups",
                "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
        out = [shutil.which("bwrap") or "bwrap", "--die-with-parent", "--new-session",
               "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
               "--unshare-cgroup-try", "--bind", str(self.layers.merged), "/",
               "--proc", "/proc", "--dev", "/dev"]
        for d in ("/dev/shm", "/tmp", "/var/tmp"):
            out += ["--perms", "1777", "--tmpfs", d]
        binds = [*((p, "--ro-bind") for p in (*self.readable, str(init.parent))),
                 (str(self.box), "--bind")]
        seen: dict[str, bool] = {}
        for path, how in binds:
            out += _ancestors(self.layers.lower, path, seen)
            out += [how, path, path]
        out += ["--remount-ro", "/",
                "--as-pid-1", "--chdir", os.fspath(cwd), "--", str(init), *drop, *argv]
        return self.layers.mounted(out)


def _ancestors(lower: Path, path: str, seen: dict[str, bool]) -> list[str]:
    """bubblewrap's words that make ``path``'s directories traversable by the build's
    uid in the root: one the root lacks is made (0755); one it has but the uid could not
    enter (``/root``, 0700, where the cache is when root runs warnscope) is hidden by an
    empty tmpfs. A directory the uid can enter is left as the root has it. ``seen``:
    the directories already said, each with whether it is new (made or hidden here)."""
    out: list[str] = []
    fresh = False   # below a directory made or hidden here: nothing of the root's is there
    for parent in [*reversed(Path(path).parents), Path(path)][1:-1]:
        p = str(parent)
        inside = roots.resolve_inside(lower, p)
        if p in seen:
            fresh = seen[p]
            continue
        if fresh or not inside.is_dir():
            out += ["--perms", "0755", "--dir", p]
            fresh = True
        elif not inside.stat().st_mode & 0o001:
            out += ["--perms", "0755", "--tmpfs", p]
            fresh = True
        seen[p] = fresh
    return out


@contextmanager
def package_sandbox(work: Path, root: PackageRoot) -> Iterator[PackageSandbox]:
    """The build sandbox of ``root`` in the work directory ``work``: the pool uid
    claimed and the box made, as :func:`analyzer.projects.sandbox.build_sandbox` does;
    :class:`NotInstalled` where the host cannot make bubblewrap's namespaces."""
    with build_sandbox(work, [cache_dir("builds", "wrappers")]) as box:
        if box.containment is not Containment.NAMESPACE or box.uid is None:
            raise NotInstalled("a Debian package builds in bubblewrap's namespaces as root "
                               "(its root shown as /, an unprivileged uid): this host cannot "
                               "make them, or warnscope does not run as root")
        yield PackageSandbox(**{f.name: getattr(box, f.name) for f in dataclasses.fields(box)},
                             layers=root)


#: the GNU triplet of the roots' architecture (warnscope's roots are the host's: amd64)
TRIPLET = "x86_64-linux-gnu"


def compiler_names(family: str, major: int) -> dict[str, str]:
    """Every name a build may call the compiler by -> its language: ``cc``, ``gcc``,
    ``c++``, ``g++``, the triplet-prefixed and versioned names; for clang, its own names
    too (``gcc`` means the compiler under test, as in Debian's rebuilds with clang)."""
    c = ["cc", "gcc", f"{TRIPLET}-gcc"]
    cxx = ["c++", "g++", f"{TRIPLET}-g++"]
    if profile(family).gcc:
        c += [f"gcc-{major}", f"{TRIPLET}-gcc-{major}"]
        cxx += [f"g++-{major}", f"{TRIPLET}-g++-{major}"]
    else:
        c += ["clang", f"clang-{major}"]
        cxx += ["clang++", f"clang++-{major}"]
    return {**{n: "c" for n in c}, **{n: "c++" for n in cxx}}


def compiler_links(tc, box: BuildSandbox) -> Path:
    """A directory in the box, first on the build's PATH, where each of
    :func:`compiler_names` is the static wrapper of ``tc``'s driver (a path of the
    suite's root): whatever name the build calls, the compile is captured."""
    from warnscope.compilers import CompilerId
    cid = CompilerId.of(tc.name)
    links = box.box / "bin"
    links.mkdir()
    wrappers = {lang: wrapper_for(tc.driver(lang), lang, static=True) for lang in ("c", "c++")}
    for name, lang in compiler_names(cid.family, cid.major).items():
        os.symlink(wrappers[lang], links / name)
    box.adopt(links)
    return links


def build_env(tc, box: BuildSandbox, jobs: int) -> dict[str, str]:
    """The build's whole environment (none of the caller's): the wrappers' directory
    first on PATH, ``$CC``/``$CXX`` the wrappers, Debian's no-tests switch,
    the build's parallelism, the C locale."""
    links = compiler_links(tc, box)
    return {"PATH": f"{links}:/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL": "C", "LANG": "C",
            "CC": str(links / "gcc"), "CXX": str(links / "g++"),
            "DEB_BUILD_PROFILES": PROFILES, "DEB_BUILD_OPTIONS": f"{PROFILES} parallel={jobs}",
            "DEBIAN_FRONTEND": "noninteractive", "CCACHE_DISABLE": "1"}


def unpack(source: SourcePackage, box: BuildSandbox) -> Path:
    """A private copy of the package's tree in the box, where dpkg-buildpackage writes
    its ``.deb`` files beside it (``..``); its path."""
    from analyzer.projects.sandbox import copy_tree
    parent = box.box / "src"
    parent.mkdir()
    box.adopt(parent)
    upstream = source.version.split(":")[-1].rsplit("-", 1)[0]
    tree = parent / f"{source.name}-{upstream}"
    copy_tree(source.tree, tree, box)
    return tree


def reached_network(log_text: str) -> str | None:
    """The line of a failed build's log that says it reached for the network, if any:
    such a build cannot tell anything of the compiler."""
    for line in log_text.splitlines():
        if any(w in line for w in NETWORK_WORDS):
            return line.strip()[:240]
    return None
