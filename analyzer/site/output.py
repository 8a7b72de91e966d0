"""Writing the site: only files whose bytes changed, and removing what a rebuild dropped.

A rebuild that finds identical bytes leaves the file alone (its mtime too), so a
static host or rsync sees only real changes. The files of the last build are listed
in a manifest; a later build removes the ones it no longer produces and never
touches anything else in the directory.

The manifest lies in a directory that may be shared or copied from elsewhere, so its
entries are not trusted: an entry is removed only if it is a relative path of plain
components (no ``..``, ``.`` or empty one) that leads, through real directories only
(never a symbolic link), to a regular file inside the output directory. Any other
entry is left alone and reported (:attr:`WriteStats.skipped`): an absolute path,
``../outside`` or ``sub/x.html`` where ``sub`` links out of the site never removes a
file outside it.

A build into an empty (or new) directory has nothing to compare with and no reader
to protect: there every file is written in place, without reading it back first and
without the temporary sibling and rename :func:`warnscope.paths.atomic_write` uses to
replace a file a reader may have open. On some 3,000 files those three extra system
calls per file were a good part of the build's system time.

Creating a file is kernel work (0.1-1 ms a file on this machine's disk, some 3,000
files a build) during which Python releases the GIL, so a fresh build hands its
files to one writer thread: the kernel creates them on one core while the builder
renders the next pages on the other. The writer's first error is raised by the next
:meth:`SiteWriter.write` or by :meth:`SiteWriter.finish`, as :class:`~warnscope.errors.CannotWrite`.
"""
from __future__ import annotations

import errno
import os
import stat
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from warnscope.errors import CannotWrite
from warnscope.extract import shown
from warnscope.paths import atomic_write

MANIFEST = ".warnscope-site"


@dataclass
class WriteStats:
    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    removed: list[str] = field(default_factory=list)
    largest: tuple[int, str] = (0, "")
    #: a line for each manifest entry left alone because removing it was not safe
    skipped: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return len(self.written) + self.unchanged


@dataclass
class WrittenPart:
    """The files one process of a build wrote: :meth:`SiteWriter.part`, merged by
    :meth:`SiteWriter.merge` (plain values: it is pickled between processes)."""

    written: list[str]
    unchanged: int
    seen: list[str]
    largest: tuple[int, str]


class SiteWriter:
    """Collects a build's files under ``root`` (relative POSIX paths). In a fresh
    directory a file is on disk only once :meth:`finish` or :meth:`close` returned."""

    def __init__(self, root: Path):
        self.root = root
        if root.exists() and not root.is_dir():
            raise CannotWrite(f"{root}: exists and is not a directory")
        try:
            root.mkdir(parents=True, exist_ok=True)
            #: nothing here before this build: write in place, compare with nothing
            self.fresh = next(root.iterdir(), None) is None
        except OSError as exc:
            raise CannotWrite(f"{root}: cannot create the site directory: {exc.strerror}") from None
        self.stats = WriteStats()
        self._seen: set[str] = set()
        #: directories known to exist (a mkdir per file costs a system call each)
        self._dirs: set[Path] = {root}
        #: a fresh build's writer thread, and the first error it met
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="site-writer") \
            if self.fresh else None
        self._error: CannotWrite | None = None

    @property
    def files(self) -> set[str]:
        """The files this build has produced so far."""
        return set(self._seen)

    def write(self, rel: str, data: str | bytes) -> None:
        """Write ``rel`` unless it already holds exactly these bytes."""
        if rel in self._seen:
            raise AssertionError(f"two pages of the site at {rel}")  # a slug bug, not input
        self._seen.add(rel)
        raw = data.encode() if isinstance(data, str) else data
        if len(raw) > self.stats.largest[0]:
            self.stats.largest = (len(raw), rel)
        dest = self.root / rel
        if self._pool is not None:
            self._raise_error()
            self._pool.submit(self._write_new, dest, raw)
            self.stats.written.append(rel)
            return
        try:
            if dest.read_bytes() == raw:
                self.stats.unchanged += 1
                return
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            pass
        try:
            atomic_write(dest, raw)
        except OSError as exc:
            raise CannotWrite(f"{dest}: cannot write: {exc.strerror}") from None
        self.stats.written.append(rel)

    def _write_new(self, dest: Path, raw: bytes) -> None:
        """A file of a fresh build (in the writer thread): its directory made once, the
        file created in place; an error is kept for the builder's thread to raise."""
        if self._error is not None:
            return
        try:
            if dest.parent not in self._dirs:
                dest.parent.mkdir(parents=True, exist_ok=True)
                self._dirs.add(dest.parent)
            with open(dest, "xb") as out:
                out.write(raw)
        except OSError as exc:
            self._error = CannotWrite(f"{dest}: cannot write: {exc.strerror}")

    def _raise_error(self) -> None:
        if self._error is not None:
            self.close()
            raise self._error

    def close(self) -> None:
        """Wait for the writer thread (a fresh build) to create every file handed to it."""
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None

    def part(self) -> "WrittenPart":
        """What this writer did, for the writer of the process that forked it (a site
        rendered in two processes): wait for the files, raise the first error."""
        self.close()
        if self._error is not None:
            raise self._error
        return WrittenPart(self.stats.written, self.stats.unchanged, sorted(self._seen),
                           self.stats.largest)

    def merge(self, part: "WrittenPart") -> None:
        """Count the files another process wrote for this build as this writer's."""
        twice = self._seen.intersection(part.seen)
        if twice:
            raise AssertionError(f"two pages of the site at {min(twice)}")  # a split bug
        self._seen.update(part.seen)
        self.stats.written += part.written
        self.stats.unchanged += part.unchanged
        if part.largest[0] > self.stats.largest[0]:
            self.stats.largest = part.largest

    def finish(self) -> WriteStats:
        """Remove the previous build's files this build did not produce; save the manifest."""
        self.close()
        if self._error is not None:
            raise self._error
        old = self._old_manifest()
        for rel in (old or "").split("\n"):
            if rel and rel not in self._seen:
                self._remove_stale(rel)
        listing = "\n".join(sorted(self._seen)) + "\n"
        if old != listing:
            atomic_write(self.root / MANIFEST, listing.encode())
        return self.stats

    def _old_manifest(self) -> str | None:
        """The previous build's manifest, or None: read only if it is a regular file in
        the directory itself (a link of its name is not followed, and is replaced)."""
        manifest = self.root / MANIFEST
        try:
            fd = os.open(manifest, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except FileNotFoundError:
            return None
        except OSError as exc:
            if exc.errno != errno.ELOOP:
                raise
            self.stats.skipped.append(f"{shown(str(manifest))}: not read: a symbolic link")
            return None
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                self.stats.skipped.append(f"{shown(str(manifest))}: not read: not a regular file")
                return None
            return f.read().decode("utf-8", "surrogateescape")

    def _remove_stale(self, rel: str) -> None:
        """Remove the previous build's file ``rel`` if it is safely this site's (see the
        module's docstring), else say why it stays. A file already gone is nothing to do."""
        parts = rel.split("/")
        if any(p in ("", ".", "..") or "\0" in p for p in parts):  # "" also for /absolute
            self._skip(rel, "not a plain relative path inside the site")
            return
        fd = os.open(self.root, os.O_RDONLY | os.O_DIRECTORY)
        try:
            for part in parts[:-1]:  # each directory entered without following a link
                below = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
                os.close(fd)
                fd = below
            if not stat.S_ISREG(os.stat(parts[-1], dir_fd=fd, follow_symlinks=False).st_mode):
                self._skip(rel, "not a regular file")
                return
            os.unlink(parts[-1], dir_fd=fd)
            self.stats.removed.append(rel)
        except FileNotFoundError:
            return
        except OSError as exc:
            if exc.errno not in (errno.ELOOP, errno.ENOTDIR):
                raise
            self._skip(rel, "it leads through a symbolic link or a file, not a directory of the site")
        finally:
            os.close(fd)

    def _skip(self, rel: str, reason: str) -> None:
        self.stats.skipped.append(f"{shown(str(self.root / MANIFEST))}: entry '{shown(rel)}' "
                                  f"not removed: {reason}")

