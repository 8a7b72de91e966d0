"""A private apt state in the cache: the one way warnscope fetches Debian packages,
without root and without touching the system's apt configuration.

The system's sources.list may carry only the host's suite (or none at all), and
``apt-get update`` on it needs root and changes what every other program on the
host sees. Here apt runs with its source list, package lists and archive cache
pointed into ``cache_dir``; apt still checks the signed Release files and every
downloaded file's checksum, and ``dpkg-source -x`` checks them again against the
``.dsc`` while it applies Debian's patches.

Two kinds of packages come through here:

* binary packages (``deb`` lines): Debian's ``gcc-N-source`` and ``libclang-N-dev``,
  which carry GCC's option files and clang's diagnostic tables, from every suite of
  :data:`SUITES` (:func:`archive`); :meth:`AptState.fetch` downloads one ``.deb``
  and :func:`data_tar` streams its files without installing or unpacking it;
* source packages (``deb-src`` lines), for the build-overhead study.

Several processes (tests, a study, the compiler zoo) may share one cache: every
state change holds an exclusive ``flock`` on ``cache_dir/lock``, and a downloaded
package or an extracted tree appears under its final name only once complete (a
rename). An interrupted download leaves a partial file that apt resumes next time.

``WARNSCOPE_DEBIAN_MIRROR`` names another mirror (``http://127.0.0.1:9/debian`` makes
every fetch fail at once, which is how the tests check the no-network error).
"""
from __future__ import annotations

import hashlib
import logging
import os
import re
import shutil
import tarfile
import tempfile
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Callable, Iterable, Iterator

from warnscope import extract, tool
from warnscope.errors import BadInput, NetworkUnreachable, NotInstalled, PackageError
from warnscope.locks import flocked

#: what this module is doing, for the progress a terminal shows (analyzer.cli.output)
log = logging.getLogger(__name__)

MIRROR = "http://deb.debian.org/debian"
KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"
#: the suites the flag data comes from, oldest first (the order ties are broken in)
SUITES = ("bullseye", "bookworm", "trixie", "sid")
#: the suites that are Debian releases (the rest, sid, changes every day)
RELEASED = ("bullseye", "bookworm", "trixie")


def _host_suite() -> str | None:
    """The host's Debian codename (``bookworm``), if it is one of :data:`SUITES`."""
    try:
        text = Path("/etc/os-release").read_text()
    except OSError:
        return None
    m = re.search(r"^VERSION_CODENAME=\"?(\w+)", text, re.M)
    return m.group(1) if m and m.group(1) in SUITES else None


#: the host's suite: its packages match the installed compilers
HOST_SUITE = _host_suite()
#: package lists younger than this are used as they are (seconds)
LISTS_MAX_AGE = 24 * 3600
#: seconds any one apt/dpkg-source call may take
TIMEOUT = 600
#: package names apt may be asked about
_PACKAGE = re.compile(r"[a-z0-9][a-z0-9+.-]*")
_VERSION = re.compile(r"[A-Za-z0-9.+~:-]+")

_THREAD_LOCK = threading.Lock()
#: what apt prints when the mirror cannot be reached at all
_NETWORK = ("Temporary failure resolving", "Could not resolve", "Could not connect",
            "Connection refused", "Network is unreachable", "Connection timed out",
            "No route to host")


def mirror() -> str:
    """The Debian mirror: ``WARNSCOPE_DEBIAN_MIRROR`` or deb.debian.org."""
    return os.environ.get("WARNSCOPE_DEBIAN_MIRROR") or MIRROR


@dataclass(frozen=True)
class SourceFile:
    """One file of a source package as the signed Sources index lists it."""

    name: str
    url: str
    size: int
    sha256: str


@dataclass(frozen=True)
class Candidate:
    """One version of a binary package in one suite."""

    package: str
    version: str
    suite: str


class AptState:
    """apt with its own sources, lists and cache under ``cache_dir``.

    ``kinds`` are the source-list line types: ``deb-src`` for source packages
    (:meth:`download`, :meth:`source`), ``deb`` for binary ones (:meth:`candidates`,
    :meth:`fetch`).
    """

    def __init__(self, cache_dir: Path, suites: tuple[str, ...] = ("bookworm",),
                 components: tuple[str, ...] = ("main",), mirror: str | None = None,
                 kinds: tuple[str, ...] = ("deb-src",), debs: Path | None = None):
        self.root = Path(cache_dir)
        #: where downloaded ``.deb`` files are kept
        self.debs = Path(debs) if debs is not None else self.root / "debs"
        self.suites = tuple(suites)
        self.components = tuple(components)
        self.mirror = mirror or globals()["mirror"]()
        self.kinds = tuple(kinds)
        for sub in ("lists/partial", "cache/archives/partial", "sources", "trees"):
            (self.root / sub).mkdir(parents=True, exist_ok=True)
        self.debs.mkdir(parents=True, exist_ok=True)

    # ------------------------------------------------------------ plumbing
    def _options(self) -> list[str]:
        r = self.root
        options = ["-q", "-o", f"Dir::Etc::SourceList={r / 'sources.list'}",
                   "-o", "Dir::Etc::SourceParts=/dev/null",
                   "-o", f"Dir::State::Lists={r / 'lists'}",
                   "-o", f"Dir::Cache={r / 'cache'}",
                   # apt's parsed lists kept in this state's cache, whatever the system's
                   # configuration says (Debian's container images turn them off): each
                   # query reads them back in milliseconds instead of parsing some 80 MB
                   # of lists for two seconds; apt rebuilds them when a list or dpkg's
                   # status changes
                   "-o", "Dir::Cache::pkgcache=pkgcache.bin",
                   "-o", "Dir::Cache::srcpkgcache=srcpkgcache.bin",
                   # keep the lists compressed, skip translations: 4 suites stay ~40 MB
                   "-o", "Acquire::GzipIndexes=true", "-o", "Acquire::Languages=none",
                   # fail fast on an unreachable mirror instead of apt's long retries
                   "-o", "Acquire::Retries=1", "-o", "Acquire::http::Timeout=30"]
        if os.geteuid() == 0:
            # root downloading into a root-owned cache: apt's _apt sandbox user could not
            # write there (apt falls back to root anyway, with a warning on every call)
            options += ["-o", "APT::Sandbox::User=root"]
        return options

    @contextmanager
    def lock(self) -> Iterator[None]:
        """Exclusive use of this apt state, across threads and processes."""
        with _THREAD_LOCK, flocked(self.root / "lock"):
            yield

    def _run(self, argv: list[str], cwd: Path | None = None) -> tool.Completed:
        # apt's own options are long: errors name the command by its first two words
        try:
            return tool.run(argv, cwd=cwd, timeout=TIMEOUT, check=False, what=" ".join(argv[:2]),
                            env={**os.environ, "LC_ALL": "C"})
        except NotInstalled:
            if not argv[0].startswith("apt-") or shutil.which(argv[0]) is not None:
                raise
            raise NotInstalled(f"{argv[0]} is not installed: warnscope fetches Debian's packages "
                               "with apt (Debian, Ubuntu: apt-get install apt "
                               "debian-archive-keyring); elsewhere give the source with --source "
                               "(a compiler's source tarball to flags ingest, a project's tree "
                               "to warnings run)") from None

    @staticmethod
    def _last_error(proc: tool.Completed) -> str:
        lines = [l for l in (proc.stderr + proc.stdout).splitlines()
                 if l.startswith(("E:", "Err:", "dpkg-source: error"))]
        lines = lines or (proc.stderr.strip().splitlines() or ["no output"])
        return lines[-1].strip()

    @staticmethod
    def _failed(message: str, proc: tool.Completed) -> PackageError:
        """The error of a failed apt call: :class:`NetworkUnreachable` when apt says the
        mirror could not be reached, else :class:`PackageError`."""
        text = f"{message}: {AptState._last_error(proc)}"
        if any(w in proc.stderr + proc.stdout for w in _NETWORK):
            return NetworkUnreachable(text)
        return PackageError(text)

    # ------------------------------------------------------------ lists
    def sources_list(self) -> str:
        signed = f"signed-by={KEYRING}" if os.path.exists(KEYRING) else ""
        lines = []
        for kind in self.kinds:
            # only the index each kind needs: no Contents, DEP-11 or icons
            target = "Sources" if kind == "deb-src" else "Packages"
            opts = " ".join(o for o in (f"target={target}", signed) if o)
            lines += [f"{kind} [{opts}] {self.mirror} {s} {' '.join(self.components)}\n"
                      for s in self.suites]
        return "".join(lines)

    def update(self, force: bool = False) -> None:
        """Fetch the package lists, unless fresh ones for the same sources are there."""
        if not force and self._fresh():
            return  # reading lists needs no lock: apt replaces them by renames
        with self.lock():
            self._update(force)

    def _fresh(self) -> bool:
        sources = self.root / "sources.list"
        stamp = self.root / "lists" / ".updated"
        try:
            return (sources.read_text() == self.sources_list()
                    and time.time() - stamp.stat().st_mtime < LISTS_MAX_AGE)
        except OSError:
            return False

    def _update(self, force: bool) -> None:
        sources = self.root / "sources.list"
        stamp = self.root / "lists" / ".updated"
        wanted = self.sources_list()
        same = sources.exists() and sources.read_text() == wanted and stamp.exists()
        if same and not force and time.time() - stamp.stat().st_mtime < LISTS_MAX_AGE:
            return
        if not same:
            stamp.unlink(missing_ok=True)   # lists of other sources say nothing of these
        sources.write_text(wanted)
        log.info("refreshing Debian's package lists (%s)", ", ".join(self.suites))
        proc = self._run(["apt-get", *self._options(), "update"])
        if proc.returncode != 0 or "Err:" in proc.stdout:
            if same and not force:
                return  # offline: the older lists of the same sources still answer
            raise self._failed(f"cannot read Debian's package lists from {self.mirror} "
                               f"({', '.join(self.suites)})", proc)
        stamp.touch()

    # ------------------------------------------------------------ binary packages
    def candidates(self, *packages: str) -> list[Candidate]:
        """Every version of ``packages`` in the suites, newest first per package."""
        for package in packages:
            if not _PACKAGE.fullmatch(package):
                raise BadInput(f"{package!r} is not a Debian package name")
        if "deb" not in self.kinds:
            raise PackageError("this apt state has no binary package lists")  # a bug, really
        self.update()
        proc = self._run(["apt-cache", *self._options(), "madison", *packages])
        out = []
        for line in proc.stdout.splitlines():
            parts = [p.strip() for p in line.split("|")]
            if len(parts) != 3 or parts[0] not in packages or not parts[2].endswith(" Packages"):
                continue
            words = parts[2].split()
            suite = words[1].split("/")[0] if len(words) >= 2 else ""
            if suite in self.suites:
                out.append(Candidate(parts[0], parts[1], suite))
        return out

    def search(self, pattern: str) -> list[str]:
        """Package names matching a regular expression, from the lists (no network
        beyond the lists' update)."""
        self.update()
        proc = self._run(["apt-cache", *self._options(), "search", "--names-only", pattern])
        return sorted({line.split(" ", 1)[0] for line in proc.stdout.splitlines() if line})

    def best(self, package: str, suite: str | None = None) -> Candidate:
        """The version warnscope takes of ``package``: the host suite's if it has one
        (it matches the installed compiler that ``flags verify`` checks against), else
        the newest across the suites (a tie goes to the older suite). ``suite`` pins one."""
        found = self.candidates(package)
        if suite is not None:
            if suite not in self.suites:
                raise BadInput(f"unknown suite {suite!r} (known: {', '.join(self.suites)})")
            found = [c for c in found if c.suite == suite]
        if not found:
            where = suite or ", ".join(self.suites)
            raise PackageError(f"Debian has no package {package} in {where} ({self.mirror})")
        return choose(found)

    def fetch(self, candidate: Candidate) -> Path:
        """The ``.deb`` of ``candidate`` in ``debs/`` (downloaded once; an interrupted
        download is resumed from its partial file)."""
        package, version = candidate.package, candidate.version
        if not _PACKAGE.fullmatch(package) or not _VERSION.fullmatch(version):
            raise BadInput(f"{package}={version} is not a Debian package version")
        debs = self.debs
        pattern = f"{package}_{version.replace(':', '%3a')}_*.deb"
        found = sorted(debs.glob(pattern))
        if found:
            return found[0]
        self.update()
        # one download per package at a time (not one for the whole state: a long
        # download must not hold up other packages or questions to the lists); the
        # partial file is kept across runs, and apt resumes what it holds
        partial = debs / ".partial" / package
        partial.mkdir(parents=True, exist_ok=True)
        with flocked(partial / ".lock"):
            found = sorted(debs.glob(pattern))
            if found:
                return found[0]
            log.info("downloading %s %s (%s)", package, version, candidate.suite)
            proc = self._run(["apt-get", *self._options(), "download", f"{package}={version}"],
                             cwd=partial)
            got = sorted(partial.glob(pattern))
            if proc.returncode != 0 or not got:
                raise self._failed(f"cannot download {package} {version} ({candidate.suite}) "
                                   f"from {self.mirror}", proc)
            os.replace(got[0], debs / got[0].name)
            return debs / got[0].name

    # ------------------------------------------------------------ source packages
    def download(self, package: str, sha256: str | None = None) -> Path:
        """The ``.dsc`` of ``package``'s source (name, or name=version) in the cache; with
        ``sha256`` (the index's, :meth:`source_files`), a cached ``.dsc`` of other bytes
        (the suite has moved to another version since) is fetched anew."""
        if not re.fullmatch(r"[a-z0-9][a-z0-9+.-]*(=[A-Za-z0-9.+~:-]+)?", package):
            raise BadInput(f"{package!r} is not a Debian source package name")
        with self.lock():
            self._update(False)
            dest = self.root / "sources" / package.replace("=", "_")
            found = sorted(dest.glob("*.dsc")) if dest.is_dir() else []
            if found and (sha256 is None or _sha256(found[0]) == sha256):
                return found[0]
            if found:
                log.info("the cached source package %s is not the suite's: fetching it anew", package)
                shutil.rmtree(dest)
            tmp = Path(tempfile.mkdtemp(dir=self.root / "sources", prefix=".dl-"))
            try:
                log.info("downloading the Debian source package %s", package)
                proc = self._run(["apt-get", *self._options(), "source", "--download-only",
                                  package], cwd=tmp)
                dscs = sorted(tmp.glob("*.dsc"))
                if proc.returncode != 0 or not dscs:
                    raise self._failed(f"cannot fetch Debian source package {package!r} "
                                       f"({', '.join(self.suites)})", proc)
                os.replace(tmp, dest)
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
            return sorted(dest.glob("*.dsc"))[0]

    def source_files(self, package: str) -> list[SourceFile]:
        """The files of source package ``package`` (name, or name=version): where the
        mirror serves them, their sizes and SHA-256 from the Sources index apt checked
        against the signed Release file. Nothing is downloaded."""
        if not re.fullmatch(r"[a-z0-9][a-z0-9+.-]*(=[A-Za-z0-9.+~:-]+)?", package):
            raise BadInput(f"{package!r} is not a Debian source package name")
        self.update()
        proc = self._run(["apt-get", *self._options(), "source", "--print-uris", package])
        found = [SourceFile(m.group(2), m.group(1), int(m.group(3)), m.group(4))
                 for m in re.finditer(r"^'(\S+)' (\S+) (\d+) SHA256:([0-9a-f]{64})$",
                                      proc.stdout, re.M)]
        if proc.returncode != 0 or not found:
            raise self._failed(f"cannot find Debian source package {package!r} "
                               f"({', '.join(self.suites)})", proc)
        return found

    def source(self, package: str) -> Path:
        """The extracted, patched source tree of ``package`` (cached; do not modify it:
        copy it to build)."""
        dsc = self.download(package)
        tree = self.root / "trees" / dsc.stem
        if tree.is_dir():
            return tree
        if shutil.which("dpkg-source") is None:
            raise NotInstalled("dpkg-source is not installed (your distribution's dpkg-dev package; "
                               "Debian: apt-get install dpkg-dev)")
        with self.lock():
            if tree.is_dir():
                return tree
            tmp = Path(tempfile.mkdtemp(dir=self.root / "trees", prefix=".x-"))
            try:
                proc = self._run(["dpkg-source", "-x", str(dsc), str(tmp / "src")])
                if proc.returncode != 0:
                    raise PackageError(f"dpkg-source -x {dsc.name} failed: "
                                       f"{self._last_error(proc)}")
                os.replace(tmp / "src", tree)
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        return tree


def _sha256(path: Path) -> str:
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def preferred_suite(suites: Iterable[str]) -> str:
    """Of the suites that package a compiler, the one warnscope takes it from.

    The host's suite first (its package is the installed compiler); else the newest
    Debian *release*, which changes only by point updates, so data ingested today and a
    toolchain root built next month hold the same compiler; sid only for a major that no
    release has. The flag data and the toolchain roots (:mod:`analyzer.runtime.roots`) both use
    this rule, so ``flags verify`` compares a version with its own binary.
    """
    given = set(suites)
    have = [s for s in SUITES if s in given]
    if not have:
        raise ValueError("no suite given")
    if HOST_SUITE in have:
        return HOST_SUITE
    released = [s for s in have if s in RELEASED]
    return (released or have)[-1]


def choose(found: list[Candidate]) -> Candidate:
    """The candidate of :func:`preferred_suite`; within a suite the newest (dpkg's order)."""
    suite = preferred_suite(c.suite for c in found)
    mine = [c for c in found if c.suite == suite]
    best = mine[0]
    for c in mine[1:]:
        if compare_versions(c.version, best.version) > 0:
            best = c
    return best


def compare_versions(a: str, b: str) -> int:
    """-1, 0 or 1 as Debian orders versions a and b (``dpkg --compare-versions``)."""
    if a == b:
        return 0
    lt = tool.run(["dpkg", "--compare-versions", a, "lt", b], timeout=30,
                  check=False).returncode == 0
    return -1 if lt else 1


_ARCHIVE: dict[tuple, AptState] = {}


def archive() -> AptState:
    """The apt state of the flag data: binary packages of every suite in :data:`SUITES`
    (its own directory, ``$CACHE/debian``, so the overhead study's source-only state
    and this one never rewrite each other's sources.list; the ``.deb`` files in
    ``$CACHE/debs``)."""
    from warnscope.paths import cache_dir

    key = (str(cache_dir()), mirror())
    if key not in _ARCHIVE:
        _ARCHIVE[key] = AptState(cache_dir("debian"), SUITES, kinds=("deb",),
                                 debs=cache_dir("debs"))
    return _ARCHIVE[key]


def unpacked(package: str, folder: Path, prefix: str,
             fill: Callable[[Candidate, Path, Path], None], ready: Callable[[Path], bool],
             suite: str | None = None) -> tuple[Path, Candidate]:
    """The cache directory ``folder/<prefix><version>`` (an epoch's ``:`` written ``%3a``)
    holding what ``fill(candidate, deb, tmp)`` takes out of binary package ``package``
    (the version :meth:`AptState.best` picks, or ``suite``'s), and that version.

    The ``.deb`` is downloaded (:meth:`AptState.fetch`) and ``fill`` run only where
    ``ready`` does not find the directory complete: once, under a lock, into a
    temporary sibling renamed into place when complete (:func:`warnscope.extract.populate`),
    so a concurrent or interrupted run never leaves a half-filled directory behind.
    """
    candidate = archive().best(package, suite)
    dest = folder / f"{prefix}{candidate.version.replace(':', '%3a')}"
    extract.populate(dest, lambda tmp: fill(candidate, archive().fetch(candidate), tmp), ready)
    return dest, candidate


#: compiler family -> its data package's name for a major version, and its pattern
DATA_PACKAGES = {"gcc": ("gcc-{}-source", r"gcc-([0-9]+)-source"),
                 "clang": ("libclang-{}-dev", r"libclang-([0-9]+)-dev")}


def data_package(family: str, major: int) -> str:
    """``gcc``, 14 -> ``gcc-14-source``; ``clang``, 18 -> ``libclang-18-dev``."""
    return DATA_PACKAGES[family][0].format(major)


def available(state: AptState | None = None) -> dict[str, list[Candidate]]:
    """Compiler id (``gcc-14``) -> every version of its data package in the suites,
    newest first: one search of the lists and one ``apt-cache madison``."""
    state = state or archive()
    pattern = "^(" + "|".join(p for _, p in DATA_PACKAGES.values()) + ")$"
    names = state.search(pattern)
    out: dict[str, list[Candidate]] = {}
    for c in state.candidates(*names) if names else []:
        for family, (_, regex) in DATA_PACKAGES.items():
            m = re.fullmatch(regex, c.package)
            if m:
                out.setdefault(f"{family}-{int(m.group(1))}", []).append(c)
    return out


# ---------------------------------------------------------------- reading a .deb

def data_tar(deb: Path) -> Iterator[tuple[str, tarfile.TarInfo, tarfile.TarFile]]:
    """Stream the members of a .deb's ``data.tar.*`` as (safe relative name, member,
    open tar for extractfile); names that could point outside refuse the package.

    A ``.deb`` is an ``ar`` archive; it is never installed and never unpacked whole:
    members are read as a stream and only the wanted ones written, which matters for
    gcc-N-source (an 80 MB .deb wrapping a 700 MB source tree).
    """
    try:
        with open(deb, "rb") as fh:
            if fh.read(8) != b"!<arch>\n":
                raise PackageError(f"{deb}: not a Debian package (no ar header)")
            while True:
                header = fh.read(60)
                if len(header) < 60:
                    raise PackageError(f"{deb}: truncated Debian package (no data.tar member)")
                name = header[:16].decode("ascii", "replace").strip().rstrip("/")
                size = int(header[48:58].decode("ascii").strip() or 0)
                if name.startswith("data.tar"):
                    break
                fh.seek(size + (size & 1), os.SEEK_CUR)
            with tarfile.open(fileobj=_Limited(fh, size), mode="r|*") as tar:
                for name, member in extract.members(tar, str(deb)):
                    yield name, member, tar
    except (tarfile.TarError, EOFError, OSError, ValueError) as exc:
        raise PackageError(f"{deb}: corrupt Debian package ({exc})") from None


class _Limited:
    """A read-only view of the next ``size`` bytes of a file (one ar member)."""

    def __init__(self, fh: BinaryIO, size: int):
        self._fh = fh
        self._left = size

    def read(self, n: int = -1) -> bytes:
        if n < 0 or n > self._left:
            n = self._left
        data = self._fh.read(n)
        self._left -= len(data)
        return data
