"""Finding clang's TableGen diagnostic files in a tree or a release tarball, and the
version they are.

Where the files are, in every layout clang has shipped:

* ``cfe-X.Y.Z.src.tar.*`` and a clang checkout: ``include/clang/Basic/Diagnostic*.td``;
* ``llvm-project-X.Y.Z.src.tar.*``, a monorepo checkout and Debian's
  ``llvm-toolchain-N_X.Y.Z.orig.tar.*``: ``clang/include/clang/Basic/…``;
* a plain directory holding the ``.td`` files themselves.

A tarball is streamed once (:mod:`warnscope.extract`: safe names, regular files, caps):
only those files and LLVM's version files are written, into the cache under the
tarball's SHA-256. The version comes from LLVM's CMake files where the tree has them
(``llvm/CMakeLists.txt`` up to 16, ``cmake/Modules/LLVMVersion.cmake`` from 17), else
from the tarball's or directory's name (``cfe-3.8.0.src``, ``clang-3.9``); a ``.td``
file does not say it.
"""
from __future__ import annotations

import re
import tarfile
from pathlib import Path
from typing import BinaryIO

from flagdb import sources
from warnscope import apt, extract
from warnscope.errors import BadInput, PackageError, UnsafeInput
from warnscope.paths import cache_dir

#: below a tree's top: where the diagnostic files are, in the layouts above
BASIC_DIRS = ("include/clang/Basic", "clang/include/clang/Basic", "clang/Basic", "")
ROOT = "Diagnostic.td"
_TD = re.compile(r"Diagnostic\w*\.td")
_VERSION_FILES = ("llvm/CMakeLists.txt", "cmake/Modules/LLVMVersion.cmake",
                  "llvm/cmake/modules/LLVMVersion.cmake")
_NAME_VERSION = re.compile(
    r"(?:cfe|clang|llvm-project|llvm|llvm-toolchain-\d+_)-?(\d+\.\d+(?:\.\d+)?)(?:[.-]|$)")


def is_td_tree(path: Path) -> bool:
    """Does ``path`` (a directory) hold clang's ``Diagnostic.td`` in a known layout?"""
    return any((path / d / ROOT).is_file() for d in BASIC_DIRS)


def locate(source: str, sha256: str | None = None) -> tuple[extract.Tree, str, str, str, str]:
    """(tree of the ``.td`` files, the root's name in it, version found or '', source
    kind, provenance) of a ``--source`` holding clang's TableGen files."""
    if sources.is_url(source):
        return _download(source, sha256)
    path = Path(source)
    shown = extract.shown(source)
    if not path.exists():
        raise BadInput(f"{shown}: no such file or directory")
    if path.is_file():
        digest = sources.sha256_of(path, sha256)

        def fill(tmp: Path) -> None:
            with open(path, "rb") as fh:
                _extract(fh, extract.shown(str(path)), path.name, tmp)

        dest = extract.populate(cache_dir("clang", "td") / digest[:24], fill, _complete)
        version = (dest / ".version").read_text().strip()
        return (extract.Tree(dest, "clang TableGen files"), ROOT, version, "tarball",
                extract.shown(str(path.resolve())))
    if sha256:
        raise BadInput("--sha256 checks a tarball: --source names a directory")
    if not path.is_dir():
        raise BadInput(f"{shown}: neither a directory nor a regular file")
    for sub in BASIC_DIRS:
        if (path / sub / ROOT).is_file():
            tree = extract.Tree(path, "clang source tree")
            return (tree, f"{sub}/{ROOT}" if sub else ROOT, tree_version(tree, path),
                    "source-tree", extract.shown(str(path.resolve())))
    looked = ", ".join(f"{d}/{ROOT}" if d else ROOT for d in BASIC_DIRS)
    raise BadInput(f"{shown}: not a clang tree: looked for {looked} (and DiagnosticGroups.inc "
                   "for the generated tables)")


def _download(url: str, sha256: str | None) -> tuple[extract.Tree, str, str, str, str]:
    """A tarball on the web: streamed once (its ``.td`` files taken as they pass, the
    tarball itself never stored), checked against ``sha256``, cached under it."""
    if sha256 is None:
        raise BadInput(f"{url}: a tarball on the web needs --sha256 (the download is checked "
                       "against it)")

    def fill(tmp: Path) -> None:
        with sources.download(url, sha256) as stream:
            _extract(stream, url, url.rpartition("/")[2], tmp)

    dest = extract.populate(cache_dir("clang", "td") / sha256.strip().lower()[:24], fill,
                            _complete)
    version = (dest / ".version").read_text().strip()
    return extract.Tree(dest, "clang TableGen files"), ROOT, version, "tarball", url


def debian_orig(major: int) -> apt.SourceFile:
    """Debian's ``llvm-toolchain-N`` orig tarball of the version whose tables
    ``libclang-N-dev`` carries (from the Sources index; nothing downloaded): the same
    clang by its two routes. ``locate(orig.url, orig.sha256)`` streams its ``.td`` files."""
    candidate = apt.archive().best(f"libclang-{major}-dev")
    version = candidate.version
    # the Sources index of that one suite (20 MB), in a state of its own
    state = apt.AptState(cache_dir("llvm-src", candidate.suite), (candidate.suite,))
    files = state.source_files(f"llvm-toolchain-{major}={version}")
    origs = [f for f in files if re.search(r"\.orig\.tar\.\w+$", f.name)]
    if not origs:
        raise PackageError(f"llvm-toolchain-{major} {version} lists no orig tarball")
    return origs[0]


def _complete(dest: Path) -> bool:
    return (dest / ".complete").is_file()


def _extract(fh: BinaryIO, origin: str, name: str, tmp: Path) -> None:
    """Stream a tarball, writing the diagnostic ``.td`` files (flat) and the version
    (from LLVM's CMake files, else the tarball's top directory or ``name``)."""
    budget = extract.Budget(origin)
    found = 0
    version = ""
    top = ""
    try:
        with tarfile.open(fileobj=fh, mode="r|*") as tar:
            for entry, member in extract.members(tar, origin):
                head, _, rest = entry.partition("/")
                top = top or head
                folder, _, base = rest.rpartition("/")
                if _TD.fullmatch(base) and folder in BASIC_DIRS[:2] and not member.isdir():
                    extract.write_member(tar, member, base, tmp, budget)
                    found += 1
                elif rest in _VERSION_FILES and not member.isdir():
                    extract.write_member(tar, member, rest.replace("/", "_"), tmp, budget)
    except (tarfile.TarError, EOFError, OSError) as exc:
        if isinstance(exc, OSError) and exc.filename is not None:
            raise  # writing to the cache failed: not the tarball's fault
        raise BadInput(f"{origin}: corrupt or truncated tarball ({exc})") from None
    if not (tmp / ROOT).is_file():
        raise BadInput(f"{origin}: no include/clang/Basic/{ROOT} or "
                       f"clang/include/clang/Basic/{ROOT} inside: not a clang source tarball "
                       f"(found {found} Diagnostic*.td files)")
    tree = extract.Tree(tmp, "extracted files")
    for rel in _VERSION_FILES:
        flat = rel.replace("/", "_")
        if (tmp / flat).is_file():
            version = version or cmake_version(tree.read(flat).decode("utf-8", "replace"))
    version = version or name_version(top) or name_version(name)
    (tmp / ".version").write_text(version + "\n")
    (tmp / ".complete").write_text(origin + "\n")


def tree_version(tree: extract.Tree, path: Path) -> str:
    """The LLVM version of a tree: its CMake files, else the directory's name."""
    for rel in _VERSION_FILES:
        if (path / rel).is_file():
            try:
                found = cmake_version(tree.read(rel).decode("utf-8", "replace"))
            except UnsafeInput:
                found = ""
            if found:
                return found
    return name_version(path.resolve().name)


def cmake_version(text: str) -> str:
    """``X.Y.Z`` from LLVM's ``set(LLVM_VERSION_MAJOR 16)`` … lines, or ''."""
    parts = []
    for what in ("MAJOR", "MINOR", "PATCH"):
        m = re.search(rf"set\(\s*LLVM_VERSION_{what}\s+(\d+)\s*\)", text)
        if not m:
            break
        parts.append(m.group(1))
    return ".".join(parts) if len(parts) >= 2 else ""


def name_version(name: str) -> str:
    """``3.8.0`` from ``cfe-3.8.0.src.tar.xz``, ``3.9`` from ``clang-3.9``, or ''."""
    m = _NAME_VERSION.search(name)
    return m.group(1) if m else ""
