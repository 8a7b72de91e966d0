"""Reading files and archives that warnscope did not write, safely.

Source trees, tarballs and packages may come from anyone, and warnscope runs as
root: a member named ``gcc/../../x.opt`` must not land outside the cache, a
compressed gigabyte of zeros must not fill the disk, a FIFO named ``x.opt`` must
not hang the ingest, a 50 MB line must not take gigabytes of memory. Everything
that reads such input goes through here:

* :func:`members` walks a tar stream and refuses (for the whole archive) member
  names that are absolute or contain ``..``, and wanted members that are not
  regular files (links, devices, FIFOs);
* :func:`write_member` copies one member under the per-file and total caps of an
  :class:`Budget`;
* :func:`populate` fills a cache directory once: under a lock, into a unique
  temporary sibling renamed into place when complete, so concurrent first runs
  neither collide nor see a half-filled directory;
* :func:`read_regular` reads a regular file (never a FIFO, device or directory)
  with a size cap and a line-length cap;
* :class:`Tree` lists and reads the files of a directory someone else made (a
  corpus, a source tree): only regular files that lie inside it.
"""
from __future__ import annotations

import errno
import fcntl
import os
import re
import shutil
import stat
import tarfile
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from warnscope.errors import BadInput, ParseError, UnsafeInput
from warnscope.paths import atomic_write

#: Limits far above any real input (the largest clang table is ~2 MB, a whole GCC's
#: option files ~1.3 MB, the longest real line ~4 kB) and far below harm.
MAX_FILE_BYTES = 16 << 20
MAX_TOTAL_BYTES = 64 << 20
MAX_FILES = 5000
MAX_LINE_BYTES = 64 << 10


def shown(name: str) -> str:
    """A name as it can be printed: bytes that are not UTF-8 shown as ``\\xff``."""
    try:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:
        return name.encode("utf-8", "backslashreplace").decode("utf-8")


@dataclass
class Budget:
    """What an extraction may still write: bytes in total and number of files."""

    origin: str
    total: int = MAX_TOTAL_BYTES
    files: int = MAX_FILES

    def take(self, name: str, size: int) -> None:
        if size > MAX_FILE_BYTES:
            raise UnsafeInput(f"{self.origin}: member {shown(name)} is {size} bytes, over the "
                                 f"{MAX_FILE_BYTES >> 20} MB limit for one file (not a real source?)")
        if size > self.total or self.files <= 0:
            raise UnsafeInput(f"{self.origin}: the wanted files exceed {MAX_TOTAL_BYTES >> 20} MB "
                                 f"or {MAX_FILES} files in total (not a real source?)")
        self.total -= size
        self.files -= 1


def member_name(member: tarfile.TarInfo, origin: str) -> str:
    """The member's name relative to the archive root (``./`` stripped), or an error
    if it could point outside: absolute, or with a ``..`` component, or not UTF-8."""
    name = member.name
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if name.startswith("/") or ".." in parts:
        raise UnsafeInput(f"{origin}: unsafe member name {shown(name)!r} "
                             "(absolute or with '..'): refusing the archive")
    if shown(name) != name:
        raise UnsafeInput(f"{origin}: member name {shown(name)!r} is not valid UTF-8: "
                             "refusing the archive")
    return "/".join(parts)


def members(tar: tarfile.TarFile, origin: str) -> Iterator[tuple[str, tarfile.TarInfo]]:
    """Every member of a streamed tar as (safe relative name, member); unsafe names
    (also of members nobody wants) make the whole archive refused."""
    for member in tar:
        yield member_name(member, origin), member


def require_regular(member: tarfile.TarInfo, name: str, origin: str) -> None:
    """A wanted member must be a plain file: a link could point anywhere, a device or
    FIFO is not data."""
    if not member.isreg():
        kind = ("symbolic link" if member.issym() else "hard link" if member.islnk() else
                "directory" if member.isdir() else "FIFO" if member.isfifo() else
                "device" if member.isdev() else "special member")
        raise UnsafeInput(f"{origin}: {shown(name)} is a {kind}, not a regular file: "
                             "refusing the archive")


def write_member(tar: tarfile.TarFile, member: tarfile.TarInfo, name: str, dest_root: Path,
                 budget: Budget) -> None:
    """Write a wanted regular member to ``dest_root/name`` within the budget."""
    require_regular(member, name, budget.origin)
    budget.take(name, member.size)
    dest = dest_root / name
    src = tar.extractfile(member)
    if src is None:  # pragma: no cover - isreg() members always have data
        raise UnsafeInput(f"{budget.origin}: {shown(name)}: no data")
    atomic_write(dest, _Capped(src, member.size))


class _Capped:
    """A member's stream that yields at most its declared size."""

    def __init__(self, src, size: int):
        self._src, self._left = src, size

    def read(self, n: int = -1) -> bytes:
        n = self._left if n < 0 or n > self._left else n
        data = self._src.read(n)
        self._left -= len(data)
        return data


@contextmanager
def _locked(lock_path: Path) -> Iterator[None]:
    with open(lock_path, "a+b") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def populate(dest: Path, fill: Callable[[Path], None], ready: Callable[[Path], bool]) -> Path:
    """Make ``dest`` a complete cache directory, filled once by ``fill(tmpdir)``.

    The work happens under an exclusive lock beside ``dest`` and in a temporary
    directory unique to this process, renamed to ``dest`` only when ``fill``
    succeeded. A second process waits for the lock and then finds ``dest`` ready;
    a failure leaves nothing behind, and what a killed process left is removed by
    the next fill.
    """
    if ready(dest):
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    with _locked(dest.parent / f".{dest.name}.lock"):
        if ready(dest):
            return dest
        # what an interrupted (killed) fill left: nobody else fills while we hold the lock
        for stale in dest.parent.glob(f".{dest.name}.part-*"):
            shutil.rmtree(stale, ignore_errors=True)
        tmp = Path(tempfile.mkdtemp(dir=dest.parent, prefix=f".{dest.name}.part-"))
        try:
            fill(tmp)
            os.chmod(tmp, 0o755)
            if dest.exists():  # left over from an older warnscope, incomplete
                shutil.rmtree(dest)
            try:
                os.rename(tmp, dest)
            except OSError:
                if not ready(dest):
                    raise
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return dest


def read_regular(path: Path | str, display: str, max_bytes: int = MAX_FILE_BYTES,
                 max_line: int = MAX_LINE_BYTES) -> bytes:
    """The bytes of a regular file, refusing anything else and anything too big.

    Symbolic links are followed to a regular file; a dangling one, a loop, a
    directory, a FIFO or a device is a :class:`ParseError` naming ``display``, as is
    a file over ``max_bytes`` or a line over ``max_line`` bytes (named by its line).
    Memory stays bounded by the caps whatever the file holds. For a file taken from a
    tree someone else made, :meth:`Tree.read` also keeps the read inside the tree.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        what = "dangling symbolic link" if os.path.islink(path) else "no such file"
        raise ParseError(display, None, what) from None
    except OSError as exc:
        raise ParseError(display, None, _os_reason(exc)) from None
    if not stat.S_ISREG(st.st_mode):
        raise ParseError(display, None, f"not a regular file ({_kind(st.st_mode)})")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    except OSError as exc:
        raise ParseError(display, None, _os_reason(exc)) from None
    return _read_fd(fd, display, max_bytes, max_line)


def _read_fd(fd: int, display: str, max_bytes: int, max_line: int) -> bytes:
    """Read an open file to its end under the caps (closing it); only a regular file.

    One read of at most ``max_bytes + 1`` bytes, its lines measured after it (in C, not
    a line at a time in Python): a refusal names the line, and says what, that reading
    line by line names, the first too long line before a file too big."""
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode):  # replaced between stat and open
            raise ParseError(display, None, f"not a regular file ({_kind(st.st_mode)})")
        try:
            data = fh.read(max_bytes + 1)
            lines = data.split(b"\n")
            if len(data) > max_bytes and not data.endswith(b"\n"):
                # the line that crosses the cap is read (and refused if too long) first
                lines[-1] += fh.read(max_line + 1).split(b"\n", 1)[0]
        except OSError as exc:
            raise ParseError(display, None, _os_reason(exc)) from None
    if max(map(len, lines)) > max_line:
        lineno = next(i for i, line in enumerate(lines, 1) if len(line) > max_line)
        raise ParseError(display, lineno, f"line longer than {max_line} bytes "
                                          "(not a real source file?)")
    if len(data) > max_bytes:
        raise ParseError(display, None, f"over the {_size(max_bytes)} limit "
                                        "for one file (not a real source file?)")
    return data


def _size(n: int) -> str:
    return f"{n >> 20} MB" if n >= 1 << 20 else f"{n >> 10} kB"


@dataclass(frozen=True)
class Refused:
    """A file of a tree that warnscope would not read, and why (one line for the user)."""

    path: str       # relative to the tree, as it can be printed
    reason: str
    directory: bool = False   # a directory not entered (a link), not a file not read
    rel: str = ""             # relative to the tree, as found

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


#: Characters no file name of a tree may hold: they would reach terminals, pages and keys.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


class Tree:
    """A directory someone else made (a UB corpus, a GCC source tree, a directory of
    clang tables, a project), read as the tree's own content only.

    warnscope may run as root, and a tree can hold a symbolic link to ``/etc/shadow``
    or to ``/proc/self/environ``, a FIFO where a file is expected, or a file of
    gigabytes: read naively, warnscope would store, print or hang on what the tree's
    author could not read themselves. So a file is read only if its resolved path
    lies inside the tree, every directory on the way is entered without following a
    link (``O_NOFOLLOW`` from a directory descriptor, so a link swapped in after the
    check is not followed either), and the file itself is a regular file
    (``O_NONBLOCK`` open, checked with ``fstat``: a FIFO never blocks the read) under
    a size cap. A refusal is an :class:`UnsafeInput` naming the file and why.
    """

    def __init__(self, root: Path | str, what: str = "tree"):
        self.given = Path(root)
        self.what = what
        self.root = Path(os.path.realpath(root))
        if not self.root.is_dir():
            raise BadInput(f"{shown(str(root))}: {what} is not a directory")

    def shown(self, rel: str) -> str:
        """``rel`` as the user knows it: under the path they gave."""
        return shown(str(self.given / rel))

    def walk(self, want: Callable[[str], bool], under: str = ""
             ) -> tuple[list[str], list[Refused]]:
        """The files below the root (or its subdirectory ``under``) whose name ``want``
        accepts, as relative posix names sorted by their components, and what was refused on the way: a wanted name that is a link
        leading out, a dangling link, a FIFO, device or socket; a name that is not
        UTF-8 or holds control characters; a directory behind a symbolic link (never
        entered: the tree's own directories are walked, once each)."""
        found: list[str] = []
        refused: list[Refused] = []

        def fail(exc: OSError) -> None:
            rel = os.path.relpath(exc.filename or ".", self.root)
            refused.append(Refused(self.shown(rel), f"cannot list ({_os_reason(exc)})"))

        top = self.root / under
        if os.path.realpath(top) != str(top):
            return [], [Refused(self.shown(under), "a symbolic link to a directory (not followed)",
                                directory=True)]
        for dirpath, dirnames, filenames in os.walk(top, onerror=fail):
            base = os.path.relpath(dirpath, self.root)
            base = "" if base == "." else base + "/"
            for name in sorted(dirnames):
                rel = base + name
                if not self._name_ok(rel, refused):
                    dirnames.remove(name)
                elif os.path.islink(os.path.join(dirpath, name)):
                    refused.append(Refused(self.shown(rel), "a symbolic link to a directory "
                                                            "(not followed)", directory=True))
                elif want(name):  # a directory where a wanted file's name is
                    refused.append(Refused(self.shown(rel), "not a regular file (a directory)",
                                           rel=rel))
            dirnames.sort()
            for name in sorted(filenames):
                rel = base + name
                if not want(name) or not self._name_ok(rel, refused):
                    continue
                why = self._why_not(rel)
                if why:
                    refused.append(Refused(self.shown(rel), why, rel=rel))
                else:
                    found.append(rel)
        return sorted(found, key=lambda rel: rel.split("/")), refused

    def _name_ok(self, rel: str, refused: list[Refused]) -> bool:
        if shown(rel) != rel:
            refused.append(Refused(self.shown(rel), "file name is not valid UTF-8"))
            return False
        if _CONTROL.search(rel):
            refused.append(Refused(self.shown(rel), "file name holds control characters"))
            return False
        return True

    def _why_not(self, rel: str) -> str:
        """Why ``rel`` cannot be read from this tree ('' when it can), without opening it:
        what it is (followed through links, as ``stat`` sees it) before where it leads."""
        path = self.root / rel
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return "dangling symbolic link" if os.path.islink(path) else "no such file"
        except OSError as exc:
            return _os_reason(exc)
        if not stat.S_ISREG(st.st_mode):
            return f"not a regular file ({_kind(st.st_mode)})"
        if os.path.commonpath([os.path.realpath(path), self.root]) != str(self.root):
            return f"a symbolic link leading out of the {self.what}"
        return ""

    def read(self, rel: str, max_bytes: int = MAX_FILE_BYTES,
             max_line: int = MAX_LINE_BYTES) -> bytes:
        """The bytes of the regular file ``rel`` (relative to the root) of this tree,
        or :class:`UnsafeInput` saying why not; a read error or a cap passed is a
        :class:`ParseError` naming the file."""
        display = self.shown(rel)
        why = self._why_not(rel)
        if why:
            raise UnsafeInput(f"{display}: {why}")
        inner = Path(os.path.realpath(self.root / rel)).relative_to(self.root)
        try:
            fd = self._open(inner.parts)
        except OSError as exc:
            reason = ("a symbolic link swapped in" if exc.errno in (errno.ELOOP, errno.ENOTDIR)
                      else _os_reason(exc))
            raise UnsafeInput(f"{display}: {reason}") from None
        return _read_fd(fd, display, max_bytes, max_line)  # fstat: a regular file, capped

    def _open(self, parts: tuple[str, ...]) -> int:
        """Open root/parts for reading, entering each directory without following a link."""
        flags = os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW
        dirfd = os.open(self.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            for part in parts[:-1]:
                nxt = os.open(part, flags | os.O_DIRECTORY, dir_fd=dirfd)
                os.close(dirfd)
                dirfd = nxt
            return os.open(parts[-1], flags | os.O_NONBLOCK | os.O_NOCTTY, dir_fd=dirfd)
        finally:
            os.close(dirfd)


def _kind(mode: int) -> str:
    return ("a directory" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else
            "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else
            "a socket" if stat.S_ISSOCK(mode) else
            "a symbolic link" if stat.S_ISLNK(mode) else "not a file")


def _os_reason(exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "symbolic link loop"
    return (exc.strerror or str(exc)).lower()
