"""Writing the site: only files whose bytes changed, and removing what a rebuild dropped.

A rebuild that finds identical bytes leaves the file alone (its mtime too), so a
static host or rsync sees only real changes. The files of the last build are listed
in a manifest; a later build removes the ones it no longer produces and never
touches anything else in the directory.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from flagdb.errors import WarnscopeError
from flagdb.paths import atomic_write

MANIFEST = ".warnscope-site"


@dataclass
class WriteStats:
    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    removed: list[str] = field(default_factory=list)
    largest: tuple[int, str] = (0, "")

    @property
    def total(self) -> int:
        return len(self.written) + self.unchanged


class SiteWriter:
    """Collects a build's files under ``root`` (relative POSIX paths)."""

    def __init__(self, root: Path):
        self.root = root
        if root.exists() and not root.is_dir():
            raise WarnscopeError(f"{root}: exists and is not a directory")
        try:
            root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise WarnscopeError(f"{root}: cannot create the site directory: {exc.strerror}") from None
        self.stats = WriteStats()
        self._seen: set[str] = set()

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
        try:
            if dest.read_bytes() == raw:
                self.stats.unchanged += 1
                return
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            pass
        try:
            atomic_write(dest, raw)
        except OSError as exc:
            raise WarnscopeError(f"{dest}: cannot write: {exc.strerror}") from None
        self.stats.written.append(rel)

    def finish(self) -> WriteStats:
        """Remove the previous build's files this build did not produce; save the manifest."""
        manifest = self.root / MANIFEST
        old = manifest.read_text().split("\n") if manifest.is_file() else []
        for rel in old:
            if rel and rel not in self._seen and ".." not in Path(rel).parts:
                path = self.root / rel
                if path.is_file():
                    path.unlink()
                    self.stats.removed.append(rel)
        listing = "\n".join(sorted(self._seen)) + "\n"
        if not manifest.is_file() or manifest.read_text() != listing:
            atomic_write(manifest, listing.encode())
        return self.stats
