"""What a build was built from, as one digest: the tree's files and the recipe's commands.

A stored build answers a later question only for what it was built from. Two local trees
of one folder name (``A/twin``, ``B/twin``) are one project name (``local:twin``), and a
tree edited since its build keeps its path, so neither the name nor the path says it: the
digest does. It covers every entry of the tree (its path inside the tree, its kind, its
mode, a regular file's size and sha256 of its bytes, a link's target text) and what the
build runs there (the configure, build and clean commands, the languages, where the
flags go, a compile database's entries); not the tree's own path (the stored ``origin``
says that), nor times (a copied tree is the same tree).

A Debian package is identified by its ``.dsc`` instead (:func:`package_digest`): its
name holds the version, and its bytes the checksum of every file the tree is unpacked
from; so a stored build of ``sl 5.02-1`` answers for that version only, and whoever
holds the suite's index can tell which builds answer without fetching the package.

The tree is read as :func:`analyzer.projects.sandbox.copy_tree` reads it: every
directory and file entered from its parent's descriptor without following a link, a
file opened non-blocking and checked to be a regular file; a link is hashed by its text,
never followed. So a tree's author cannot make the digest read a file outside the tree
(``/etc/shadow``), block on a FIFO, or hang on a device.
"""
from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
from pathlib import Path

from warnscope import extract
from warnscope.errors import UnsafeInput

from analyzer.projects import debian
from analyzer.projects.recipes import Recipe

#: bump when what the digest covers changes (every stored build is then built anew)
DIGEST_VERSION = 1
_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC


def tree_digest(tree: Path, recipe: Recipe) -> str:
    """sha256 (hex) of ``tree``'s entries and ``recipe``'s commands (see the module's text);
    :class:`UnsafeInput` naming an entry that is not a directory, regular file or link. A
    Debian package's is :func:`package_digest` of its ``.dsc``."""
    if recipe.build_system == "debian" and recipe.dsc is not None:
        return package_digest(recipe.dsc.name, _sha256(recipe.dsc))
    h = hashlib.sha256()
    commands = {"version": DIGEST_VERSION, "build_system": recipe.build_system,
                "configure": recipe.configure, "build": recipe.build, "clean": recipe.clean,
                "languages": list(recipe.languages), "inject": recipe.inject,
                "make_vars": [list(v) for v in recipe.make_vars], "cross_build": recipe.cross_build,
                "commands": list(recipe.commands)}
    h.update(json.dumps(commands, sort_keys=True).encode() + b"\0")
    top = os.open(tree, _DIR)
    try:
        _walk(top, "", Path(tree), h)
    finally:
        os.close(top)
    return h.hexdigest()


def package_digest(dsc_name: str, dsc_sha256: str) -> str:
    """sha256 (hex) of a Debian source package's ``.dsc`` (its file name and the SHA-256
    of its bytes, as the suite's index lists them: :func:`analyzer.projects.debian.listed`)
    and of how a package is built (:data:`analyzer.projects.debian.BUILD_COMMAND`, its
    profiles)."""
    what = {"version": DIGEST_VERSION, "build_system": "debian", "dsc": dsc_name,
            "sha256": dsc_sha256, "build": debian.BUILD_COMMAND, "profiles": debian.PROFILES}
    return hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()


def _sha256(path: Path) -> str:
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def _walk(fd: int, prefix: str, shown: Path, h: "hashlib._Hash") -> None:
    for name in sorted(os.listdir(fd)):
        rel = prefix + name
        st = os.stat(name, dir_fd=fd, follow_symlinks=False)
        mode = stat.S_IMODE(st.st_mode)
        if stat.S_ISLNK(st.st_mode):
            h.update(f"L\0{rel}\0{os.readlink(name, dir_fd=fd)}\0".encode("utf-8", "surrogateescape"))
        elif stat.S_ISDIR(st.st_mode):
            h.update(f"D\0{rel}\0{mode:o}\0".encode("utf-8", "surrogateescape"))
            sub = os.open(name, _DIR, dir_fd=fd)
            try:
                _walk(sub, rel + "/", shown / name, h)
            finally:
                os.close(sub)
        elif stat.S_ISREG(st.st_mode):
            h.update(f"F\0{rel}\0{mode:o}\0".encode("utf-8", "surrogateescape"))
            _file(name, fd, shown / name, h)
        else:
            raise UnsafeInput(f"{extract.shown(str(shown / name))}: not a regular file, directory "
                              "or link: the tree is not built")


def _file(name: str, dir_fd: int, shown: Path, h: "hashlib._Hash") -> None:
    try:
        fd = os.open(name, _FILE, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnsafeInput(f"{extract.shown(str(shown))}: a link swapped in") from None
        raise
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise UnsafeInput(f"{extract.shown(str(shown))}: not a regular file (replaced while read)")
        content = hashlib.sha256()
        size = 0
        while chunk := fh.read(1 << 20):
            content.update(chunk)
            size += len(chunk)
        h.update(f"{size}\0{content.hexdigest()}\0".encode())
