"""The build sandbox: every process of a project's build runs in it.

A project's tree may come from anyone, and warnscope often runs as root: its configure
script, its Makefile's recipes, its CMake files and everything they start are the
tree author's code. So, as Debian's sbuild and Fedora's mock build untrusted sources,
each step of a build (configure, clean, the build, a TU compiled again) runs under
bubblewrap:

* as root, under an unprivileged uid of the sandbox's pool, claimed for the whole
  build (:func:`analyzer.sandbox.runner.claim_uid`), with every capability dropped
  (``setpriv``); as a normal user, as that user inside a user namespace;
* with no network (a network namespace of its own: even loopback is down) and its own
  PID, IPC and UTS namespaces, so that every process of a step ends with the step;
* the system directories (``/usr``, ``/etc``, ``/lib*``) read-only — the host's, or for
  a compiler of a Debian root (:mod:`analyzer.runtime.roots`) the root's, so that every
  process of the build is that system's: its shell, make, libtool, CMake and compiler,
  as a user of that system builds — a fresh ``/proc``,
  a minimal ``/dev``, private ``/tmp``, ``/var/tmp`` and ``/dev/shm``; read-only too the
  helpers warnscope built for builds (the compiler wrappers, a root's launchers), the
  toolchain roots and, for a replayed compile database, the project's tree;
* writable only the build's *box*: the private copies of the tree, their build
  directories, the wrapper's logs and each compile's output, a scratch ``HOME``. The
  repository, the database, the rest of the cache and the home directories are not
  there at all.

The box is a directory of the build's work directory, owned by the pool uid. What
warnscope reads back from it (the wrapper's log, each compile's stderr, a configured
Makefile) it reads as a regular file inside it, never through a link
(:meth:`BuildSandbox.read`); the logs warnscope writes itself stay outside the box, in
the work directory, which the build cannot write.

Each step sets the sandbox up in its own process: the outer ``bwrap`` is the harness's
child, so ``wait4`` still covers every process of the step (bwrap's init reaps them
all, those killed at the end included) and the kernel's per-process account still
finds them (they descend from it). The set-up costs one bwrap and one setpriv per
step (bench/README: the FFTW and zlib figures before and after), the same for a root's
build as for the host's: one bubblewrap entry for the whole step, none per compiler.
In the kernel's per-process account the sandbox's own processes are named as such
(:data:`SANDBOX_NAMES`: ``bwrap (sandbox)``, ``init (sandbox)``, ``setpriv
(sandbox)``), never a program of the build's. In a root the helpers warnscope puts in
the build's path (the init, the compiler wrapper) are static executables: they run on
whatever C library the root has.

``WARNSCOPE_SANDBOX=plain``, or a host where bubblewrap cannot make its namespaces: as
root each step still runs under the pool uid (``setpriv``), without the hidden file
system and the network isolation; as a normal user, as that user.
"""
from __future__ import annotations

import dataclasses
import enum
import errno
import functools
import hashlib
import os
import signal
import shutil
import stat
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from warnscope import extract, tool
from warnscope.errors import NotInstalled, ToolFailed, UnsafeInput
from warnscope.paths import cache_dir

from analyzer.sandbox import runner as sandbox
#: the host's system directories, shown read-only (links, as Debian's merged /usr has
#: them, are recreated as links): the same list a toolchain root's view is made of
from analyzer.runtime.roots import SYSTEM_DIRS

#: the box's name in a work directory, and the scratch HOME inside it
BOX, HOME = "box", ".home"
#: seconds the one-time probe of bubblewrap may take
PROBE_TIMEOUT = 30.0


class Containment(enum.Enum):
    """How a build step is contained."""

    NAMESPACE = "namespace"    # bubblewrap: hidden file system, no network, pool uid as root
    UID = "uid"                # the pool uid only (as root, without namespaces)
    NONE = "none"              # as the user who runs warnscope (no namespaces, not root)


@dataclass(frozen=True)
class BuildSandbox:
    """Where one build's steps run: its box, the uid they run as, and what they may read."""

    box: Path
    uid: int | None
    containment: Containment
    readable: tuple[str, ...] = ()
    #: (a copy in the box, the path it is shown at, read-only): a compile database's
    #: tree, whose entries name their directories by their own absolute paths
    mirrors: tuple[tuple[str, str], ...] = ()
    #: a Debian root (:mod:`analyzer.runtime.roots`) whose system directories the steps
    #: see in place of the host's; None: the host's
    root: str | None = None

    @property
    def home(self) -> Path:
        return self.box / HOME

    def argv(self, argv: Sequence[str], cwd: str | os.PathLike) -> list[str]:
        """``argv`` as run in the sandbox, in ``cwd`` (inside the box or a readable tree)."""
        drop = [] if self.uid is None else [
            "setpriv", f"--reuid={self.uid}", f"--regid={self.uid}", "--clear-groups",
            "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
        if self.containment is not Containment.NAMESPACE:
            return [*drop, *argv]
        init = init_binary(static=self.root is not None)
        return [*_bwrap((*self.readable, str(init.parent)), str(self.box), self.mirrors, self.root),
                "--as-pid-1",
                "--chdir", os.fspath(cwd), "--", str(init), *drop, *argv]

    def terminate(self, pid: int) -> bool:
        """Ask the step whose root (bwrap) is ``pid`` to end at its timeout: SIGTERM to
        its init (bwrap's child, pid 1 of the namespace), which kills every other process
        of the step and reaps them, so their CPU reaches the root's rusage. False when
        there is no such init to ask (no namespace; not started yet): the caller kills
        the group."""
        if self.containment is not Containment.NAMESPACE:
            return False
        with open(f"/proc/{pid}/task/{pid}/children") as fh:
            children = [int(c) for c in fh.read().split()]
        for child in children:
            os.kill(child, signal.SIGTERM)
        return bool(children)

    def env(self, env: dict[str, str]) -> dict[str, str]:
        """A step's environment: the build's, with the box's scratch HOME and a private TMPDIR."""
        return {**env, "HOME": str(self.home), "TMPDIR": "/tmp"}

    def read(self, path: str | os.PathLike, max_bytes: int = extract.MAX_FILE_BYTES) -> bytes:
        """A file the build wrote: a regular file inside the box reached without a link,
        else :class:`UnsafeInput` (a :class:`ParseError` past ``max_bytes``)."""
        rel = os.path.relpath(os.path.abspath(path), self.box)
        if rel == os.curdir or rel.startswith(os.pardir):
            raise UnsafeInput(f"{extract.shown(os.fspath(path))}: not inside the build's directory")
        return extract.Tree(self.box, "build's directory").read(rel, max_bytes=max_bytes,
                                                                 max_line=max_bytes)

    def adopt(self, path: Path) -> None:
        """Give ``path`` (a directory warnscope made in the box, and all below it) to the
        build's uid, never following a link."""
        if self.uid is None:
            return
        for dirpath, dirnames, filenames in os.walk(path):
            for name in dirnames + filenames:
                os.lchown(os.path.join(dirpath, name), self.uid, self.uid)
        os.lchown(path, self.uid, self.uid)


def _bwrap(readable: Iterable[str], box: str, mirrors: Iterable[tuple[str, str]] = (),
           root: str | None = None) -> list[str]:
    out = [_which("bwrap"), "--die-with-parent", "--new-session", "--unshare-net", "--unshare-pid",
           "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]
    if os.geteuid() != 0:
        out.append("--unshare-user")
    out += ["--tmpfs", "/"]
    for d in SYSTEM_DIRS:   # the host's, or the root's in their place
        src = d if root is None else f"{root}{d}"
        if os.path.islink(src):
            out += ["--symlink", os.readlink(src), d]
        elif os.path.isdir(src):
            out += ["--ro-bind", src, d]
    out += ["--proc", "/proc", "--dev", "/dev"]
    for d in ("/dev/shm", "/tmp", "/var/tmp"):   # everyone's, as on the host (bwrap: 0755)
        out += ["--perms", "1777", "--tmpfs", d]
    made: set[str] = set()
    binds = [*((p, p, "--ro-bind") for p in readable), (box, box, "--bind"),
             *((src, dest, "--ro-bind") for src, dest in mirrors)]
    for src, path, how in binds:
        # the directories on the way, made traversable (bwrap would make them 0700)
        for parent in reversed(Path(path).parents):
            p = str(parent)
            if p != "/" and p not in made and not any(p == s or p.startswith(s + "/") for s in SYSTEM_DIRS):
                made.add(p)
                out += ["--perms", "0755", "--dir", p]
        out += [how, src, path]
        made.add(path)
    return out


#: the init's file name (the kernel's name of the process is its first 15 bytes)
INIT_NAME = "warnscope-build-init"
#: the sandbox's own processes as the kernel names them -> as the process table names
#: them: bubblewrap (the harness's child and its child until it runs the init), the
#: init, and the setpriv that drops to the pool uid; none of them is the build's
SANDBOX_NAMES = {"bwrap": "bwrap (sandbox)", INIT_NAME[:15]: "init (sandbox)",
                 "setpriv": "setpriv (sandbox)"}


@functools.lru_cache(maxsize=None)
def init_binary(static: bool = False) -> Path:
    """The pid 1 of each step's namespace (``init.c``: it reaps every process, the killed
    ones too, so that their CPU reaches the step's ``wait4``), built once into the cache;
    ``static`` for a root's builds (it runs on the root's C library, whichever it is)."""
    source = Path(__file__).with_name("init.c")
    key = hashlib.sha256(source.read_bytes() + (b"\0static" if static else b"")).hexdigest()[:16]
    dest = cache_dir("builds", "init", key) / INIT_NAME
    if dest.exists():
        return dest
    return tool.build_helper(source, dest, ["-static"] if static else [],
                             what="the build sandbox's init" + (" (static)" if static else ""))


def _which(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        package = "bubblewrap" if name == "bwrap" else "util-linux"
        raise NotInstalled(f"{name} is not installed (your distribution's {package} package; "
                           f"Debian: apt-get install {package})")
    return found


_CONTAINMENT: Containment | None = None


def containment() -> Containment:
    """How this host contains builds (tried once: ``/bin/true`` run in a real sandbox)."""
    global _CONTAINMENT
    if _CONTAINMENT is None:
        fallback = Containment.UID if os.geteuid() == 0 else Containment.NONE
        _CONTAINMENT = fallback
        if os.environ.get("WARNSCOPE_SANDBOX") != "plain":
            try:
                argv = [*_bwrap((), "/tmp"), "--chdir", "/", "--", "/bin/true"]
                tool.run(argv, timeout=PROBE_TIMEOUT, what="bubblewrap (the build sandbox)")
                _CONTAINMENT = Containment.NAMESPACE
            except (NotInstalled, ToolFailed):
                pass
    return _CONTAINMENT


@contextmanager
def build_sandbox(work: Path, readable: Iterable[str | os.PathLike] = (),
                  root: str | os.PathLike | None = None) -> Iterator[BuildSandbox]:
    """A build's sandbox in the work directory ``work`` (warnscope's, not the build's):
    the pool uid claimed (as root) for as long as it is open, and the box made. With
    ``root`` (a Debian root's path) every step sees that root's system directories in
    place of the host's: :class:`NotInstalled` where the host cannot make the namespaces
    that show them (without them a step would run the host's programs)."""
    how = containment()
    if root is not None and how is not Containment.NAMESPACE:
        raise NotInstalled("a build in a Debian root runs in bubblewrap's namespaces, which this "
                           "host cannot make (bubblewrap missing, or user namespaces refused; "
                           "WARNSCOPE_SANDBOX=plain turns them off): without them the build "
                           "would run the host's make and shell")
    if how is Containment.UID:
        _which("setpriv")
    with sandbox.claim_uid() as uid:
        box = work / BOX
        os.mkdir(box, 0o700)
        os.mkdir(box / HOME, 0o700)
        found = BuildSandbox(box, uid, how, tuple(sorted({os.path.realpath(p) for p in readable})),
                             root=None if root is None else os.fspath(root))
        found.adopt(box)
        yield found


def mirror_tree(box: BuildSandbox, tree: Path) -> BuildSandbox:
    """``box`` with a copy of ``tree`` shown read-only at the tree's own path: a compile
    database's TUs compile where their entries say, as the build's uid, which may not
    read the tree itself (a root-only directory); nothing of the tree can be written."""
    copy = box.box / "mirror"
    copy_tree(tree, copy, box)
    return dataclasses.replace(box, mirrors=((str(copy), os.path.realpath(tree)),))


def copy_tree(src: Path, dest: Path, box: BuildSandbox) -> None:
    """Copy a project's tree ``src`` to ``dest`` (a new directory in the box), as the build
    will see it: directories, regular files (with their modes, less set-id bits) and
    symbolic links as links, every one with its own times, whatever they are (before
    1970, in the future): make compares them, and an automake tree whose ``m4`` file
    looked newer than ``aclocal.m4`` would run ``aclocal``. A file's times are set once
    its data is written, a directory's once its entries are. Anything else (a FIFO, a
    device, a socket) is :class:`UnsafeInput` naming it, as is a file or directory that
    cannot be read or whose times cannot be kept: the tree is not built. Entered without
    following a link on either side; then given to the build's uid."""
    os.mkdir(dest, 0o700)
    top = os.open(dest, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        src_top = os.open(src, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        os.close(top)
        raise _unreadable(Path(src), exc) from None
    try:
        _copy_dir(src_top, top, Path(src))
        st = os.fstat(src_top)
        os.chmod(top, stat.S_IMODE(st.st_mode) & 0o777 | 0o700)
        _keep(top, (st.st_atime_ns, st.st_mtime_ns), Path(src))
    finally:
        os.close(src_top)
        os.close(top)
    box.adopt(dest)


def check_tree(src: Path) -> None:
    """Refuse a tree :func:`copy_tree` would refuse, before anything is built or stored:
    :class:`UnsafeInput` naming its first FIFO, device or socket (links are not followed),
    its first file or directory warnscope cannot read, or its oldest or newest file where
    the builds' file system cannot hold that time (tried on a file of the builds' cache)."""
    def unreadable(exc: OSError) -> None:
        raise _unreadable(Path(exc.filename), exc)
    oldest = newest = (os.lstat(src).st_mtime_ns, str(src))
    for dirpath, dirnames, filenames in os.walk(src, onerror=unreadable):
        for name in sorted(dirnames + filenames):
            path = os.path.join(dirpath, name)
            st = os.lstat(path)
            mode = st.st_mode
            if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
                raise UnsafeInput(f"{extract.shown(path)}: not a regular file, "
                                  f"directory or link ({_kind(mode)}): the tree is not built")
            need = os.R_OK | os.X_OK if stat.S_ISDIR(mode) else os.R_OK if stat.S_ISREG(mode) else 0
            if need and not os.access(path, need, effective_ids=True):
                raise _unreadable(Path(path), PermissionError(errno.EACCES, os.strerror(errno.EACCES)))
            oldest, newest = min(oldest, (st.st_mtime_ns, path)), max(newest, (st.st_mtime_ns, path))
    with tempfile.TemporaryFile(dir=cache_dir("builds")) as probe:   # where the builds' copies go
        for mtime, path in (oldest, newest):
            _keep(probe.fileno(), (mtime, mtime), Path(path))


def _copy_dir(src_fd: int, dst_fd: int, shown: Path) -> None:
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        names = sorted(os.listdir(src_fd))
    except OSError as exc:
        raise _unreadable(shown, exc) from None
    for name in names:
        st = os.stat(name, dir_fd=src_fd, follow_symlinks=False)
        if stat.S_ISLNK(st.st_mode):
            os.symlink(os.readlink(name, dir_fd=src_fd), name, dir_fd=dst_fd)
            _keep(name, (st.st_atime_ns, st.st_mtime_ns), shown / name, dir_fd=dst_fd)
        elif stat.S_ISDIR(st.st_mode):
            os.mkdir(name, 0o700, dir_fd=dst_fd)
            try:
                sub_src = os.open(name, flags | os.O_DIRECTORY, dir_fd=src_fd)
            except OSError as exc:
                raise _unreadable(shown / name, exc) from None
            sub_dst = os.open(name, flags | os.O_DIRECTORY, dir_fd=dst_fd)
            try:
                _copy_dir(sub_src, sub_dst, shown / name)
                os.chmod(sub_dst, stat.S_IMODE(st.st_mode) & 0o777 | 0o700)
                # its entries are written: its times now
                _keep(sub_dst, (st.st_atime_ns, st.st_mtime_ns), shown / name)
            finally:
                os.close(sub_src)
                os.close(sub_dst)
        elif stat.S_ISREG(st.st_mode):
            _copy_file(name, src_fd, dst_fd, shown / name)
        else:
            raise UnsafeInput(f"{extract.shown(str(shown / name))}: not a regular file, directory or "
                              f"link ({_kind(st.st_mode)}): the tree is not built")


def _copy_file(name: str, src_fd: int, dst_fd: int, shown: Path) -> None:
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC,
                     dir_fd=src_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnsafeInput(f"{extract.shown(str(shown))}: a link swapped in") from None
        raise _unreadable(shown, exc) from None
    with os.fdopen(fd, "rb") as fin:
        st = os.fstat(fin.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise UnsafeInput(f"{extract.shown(str(shown))}: not a regular file (replaced while copied)")
        out = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                      0o600, dir_fd=dst_fd)
        with os.fdopen(out, "wb") as fout:
            shutil.copyfileobj(fin, fout, 1 << 20)
            fout.flush()   # the data on disk first: a write after the times would set them to now
            os.chmod(fout.fileno(), stat.S_IMODE(st.st_mode) & 0o777)
            _keep(fout.fileno(), (st.st_atime_ns, st.st_mtime_ns), shown)


def _keep(target: int | str, times: tuple[int, int], shown: Path, dir_fd: int | None = None) -> None:
    """Give ``target`` (a descriptor, or a link's name in ``dir_fd``) ``times`` (access and
    modification, in ns). A time the box's file system cannot hold (Linux clamps it to
    the file system's range: a file of the year 3000 in a tree on a tmpfs) is
    :class:`UnsafeInput` naming ``shown``: the copy would not be the tree (rounding to the
    file system's grain, within a second, is kept)."""
    where = {} if dir_fd is None else {"dir_fd": dir_fd, "follow_symlinks": False}
    try:
        os.utime(target, ns=times, **where)
        kept = os.stat(target, **where).st_mtime_ns
    except OSError as exc:
        why = (exc.strerror or str(exc)).lower()
    else:
        if abs(kept - times[1]) < 1_000_000_000:
            return
        why = "beyond the times its file system holds"
    raise UnsafeInput(f"{extract.shown(str(shown))}: its modification time cannot be kept in the build's "
                      f"copy ({why}): the tree is not built")


def _unreadable(shown: Path, exc: OSError) -> Exception:
    """What to raise when ``shown`` of the tree could not be opened: the tree's fault (no
    permission) is :class:`UnsafeInput` naming it; the machine's (no file descriptor left)
    stays ``exc``."""
    if exc.errno not in (errno.EACCES, errno.EPERM):
        return exc
    return UnsafeInput(f"{extract.shown(str(shown))}: cannot be read ({(exc.strerror or str(exc)).lower()}): "
                       "the tree is not built")


def _kind(mode: int) -> str:
    return ("a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "an unknown kind of file")
