"""A private apt state in the cache: fetch Debian *source* packages without root and
without touching the system's apt configuration.

The system's sources.list may carry only binary suites (or none at all), and
``apt-get update`` on it needs root and changes what every other program on the
host sees. Here apt runs with its source list, package lists and archive cache
pointed into ``cache_dir``; apt still checks the signed Release files and every
downloaded file's checksum, and ``dpkg-source -x`` checks them again against the
``.dsc`` while it applies Debian's patches.

Several processes (tests, a study, the compiler zoo) may share one cache: every
state change holds an exclusive ``flock`` on ``cache_dir/lock``, and an extracted
tree appears under its final name only once complete (a rename).
"""
from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from flagdb.errors import WarnscopeError

MIRROR = "http://deb.debian.org/debian"
KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"
#: package lists younger than this are used as they are (seconds)
LISTS_MAX_AGE = 24 * 3600
#: seconds any one apt/dpkg-source call may take
TIMEOUT = 600

_THREAD_LOCK = threading.Lock()


class AptState:
    """apt with its own sources, lists and cache under ``cache_dir``."""

    def __init__(self, cache_dir: Path, suites: tuple[str, ...] = ("bookworm",),
                 components: tuple[str, ...] = ("main",), mirror: str = MIRROR):
        self.root = Path(cache_dir)
        self.suites = tuple(suites)
        self.components = tuple(components)
        self.mirror = mirror
        for sub in ("lists/partial", "cache/archives/partial", "sources", "trees"):
            (self.root / sub).mkdir(parents=True, exist_ok=True)

    # ------------------------------------------------------------ plumbing
    def _options(self) -> list[str]:
        r = self.root
        options = ["-q", "-o", f"Dir::Etc::SourceList={r / 'sources.list'}",
                   "-o", "Dir::Etc::SourceParts=/dev/null",
                   "-o", f"Dir::State::Lists={r / 'lists'}",
                   "-o", f"Dir::Cache={r / 'cache'}"]
        if os.geteuid() == 0:
            # root downloading into a root-owned cache: apt's _apt sandbox user could not
            # write there (apt falls back to root anyway, with a warning on every call)
            options += ["-o", "APT::Sandbox::User=root"]
        return options

    @contextmanager
    def lock(self) -> Iterator[None]:
        """Exclusive use of this apt state, across threads and processes."""
        with _THREAD_LOCK:
            with open(self.root / "lock", "a") as fh:
                fcntl.flock(fh, fcntl.LOCK_EX)
                try:
                    yield
                finally:
                    fcntl.flock(fh, fcntl.LOCK_UN)

    def _run(self, argv: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess:
        try:
            return subprocess.run(argv, cwd=cwd, capture_output=True, text=True,
                                  stdin=subprocess.DEVNULL, timeout=TIMEOUT, check=False,
                                  env={**os.environ, "LC_ALL": "C"})
        except subprocess.TimeoutExpired:
            raise WarnscopeError(f"{' '.join(argv[:2])} did not finish within {TIMEOUT} s") from None
        except OSError as exc:
            raise WarnscopeError(f"cannot run {argv[0]}: {exc.strerror}") from None

    @staticmethod
    def _last_error(proc: subprocess.CompletedProcess) -> str:
        lines = [l for l in (proc.stderr + proc.stdout).splitlines() if l.startswith(("E:", "dpkg-source: error"))]
        lines = lines or (proc.stderr.strip().splitlines() or ["no output"])
        return lines[-1].strip()

    # ------------------------------------------------------------ the three steps
    def sources_list(self) -> str:
        signed = f" [signed-by={KEYRING}]" if os.path.exists(KEYRING) else ""
        return "".join(f"deb-src{signed} {self.mirror} {s} {' '.join(self.components)}\n"
                       for s in self.suites)

    def update(self, force: bool = False) -> None:
        """Fetch the Sources lists, unless fresh ones for the same suites are there."""
        with self.lock():
            self._update(force)

    def _update(self, force: bool) -> None:
        sources = self.root / "sources.list"
        stamp = self.root / "lists" / ".updated"
        wanted = self.sources_list()
        fresh = (sources.exists() and sources.read_text() == wanted and stamp.exists()
                 and time.time() - stamp.stat().st_mtime < LISTS_MAX_AGE)
        if fresh and not force:
            return
        sources.write_text(wanted)
        proc = self._run(["apt-get", *self._options(), "update"])
        if proc.returncode != 0 or "Err:" in proc.stdout:
            raise WarnscopeError(f"apt-get update of the private apt state in {self.root} failed: "
                                 f"{self._last_error(proc)}")
        stamp.touch()

    def download(self, package: str) -> Path:
        """The ``.dsc`` of ``package``'s source (name, or name=version) in the cache."""
        if not re.fullmatch(r"[a-z0-9][a-z0-9+.-]*(=[A-Za-z0-9.+~:-]+)?", package):
            raise WarnscopeError(f"{package!r} is not a Debian source package name")
        with self.lock():
            self._update(False)
            dest = self.root / "sources" / package.replace("=", "_")
            found = sorted(dest.glob("*.dsc")) if dest.is_dir() else []
            if found:
                return found[0]
            tmp = Path(tempfile.mkdtemp(dir=self.root / "sources", prefix=".dl-"))
            try:
                proc = self._run(["apt-get", *self._options(), "source", "--download-only",
                                  package], cwd=tmp)
                dscs = sorted(tmp.glob("*.dsc"))
                if proc.returncode != 0 or not dscs:
                    raise WarnscopeError(f"cannot fetch Debian source package {package!r} "
                                         f"({', '.join(self.suites)}): {self._last_error(proc)}")
                os.replace(tmp, dest)
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
            return sorted(dest.glob("*.dsc"))[0]

    def source(self, package: str) -> Path:
        """The extracted, patched source tree of ``package`` (cached; do not modify it:
        copy it to build)."""
        dsc = self.download(package)
        tree = self.root / "trees" / dsc.stem
        if tree.is_dir():
            return tree
        if shutil.which("dpkg-source") is None:
            raise WarnscopeError("dpkg-source is not installed (apt package dpkg-dev)")
        with self.lock():
            if tree.is_dir():
                return tree
            tmp = Path(tempfile.mkdtemp(dir=self.root / "trees", prefix=".x-"))
            try:
                proc = self._run(["dpkg-source", "-x", str(dsc), str(tmp / "src")])
                if proc.returncode != 0:
                    raise WarnscopeError(f"dpkg-source -x {dsc.name} failed: {self._last_error(proc)}")
                os.replace(tmp / "src", tree)
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        return tree
