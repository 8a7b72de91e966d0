"""Where the compilers Debian does not package are published: a static table.

Debian's archive serves GCC 9–16 and clang 9–23 (some majors missing). Everything
older, and Apple's clang, exists as upstream source releases a user downloads and
gives to ``flags ingest … --source`` (with ``--sha256`` to check the file). This table
says where each is published; nothing here asks the network.

* GCC: one release per series from 3.4 (the first with ``gcc/c.opt``), the last of
  each, on the GNU FTP site (``.tar.gz`` up to 6, ``.tar.xz`` from 7);
* clang: the last release of each series from 3.2: ``cfe-X.src`` (``clang-X.src`` in
  3.2 and 3.4) on releases.llvm.org up to 9.0.0, then the ``llvm-project`` release
  tarballs on GitHub for the majors Debian lacks;
* Apple's clang: the version each Xcode ships, with Apple's public source of it (the
  ``swift-clang`` branch of that Swift release up to 5.1, ``apple/llvm-project``'s
  ``swift/release`` branch after). Apple's own version is the id
  (``apple-clang-10.0``); several Xcodes may ship one id.
"""
from __future__ import annotations

from dataclasses import dataclass

from warnscope.compilers import CompilerId
from warnscope.profiles import ANDROID_GCC


@dataclass(frozen=True)
class Release:
    """One upstream release a ``--source`` can be."""

    #: the id it ingests as: ``gcc-4.4``, ``clang-3.8``, ``apple-clang-10.0``
    compiler: str
    #: its exact version (``4.4.7``), or for Apple's clang the Xcode it ships with
    release: str
    #: where the tarball is published
    url: str
    #: what else to know (the Xcode, the branch)
    note: str = ""


_GCC = ["3.4.6", "4.0.4", "4.1.2", "4.2.4", "4.3.6", "4.4.7", "4.5.4", "4.6.4", "4.7.4",
        "4.8.5", "4.9.4", "5.5.0", "6.5.0", "7.5.0", "8.5.0"]
_CLANG_OLD = {"3.2": "clang-3.2.src.tar.gz", "3.3": "cfe-3.3.src.tar.gz",
              "3.4": "clang-3.4.src.tar.gz", "3.4.2": "cfe-3.4.2.src.tar.gz"}
_CLANG = ["3.2", "3.3", "3.4.2", "3.5.2", "3.6.2", "3.7.1", "3.8.1", "3.9.1", "4.0.1", "5.0.2",
          "6.0.1", "7.1.0", "8.0.1"]
#: the majors from 9 on that Debian's archive does not serve
_CLANG_GITHUB = ["10.0.1", "12.0.1", "20.1.8"]
#: Xcode -> (Apple clang id, Swift release whose branch holds its source)
_XCODE = [("10.0", "apple-clang-10.0", "4.2"), ("10.2", "apple-clang-10.0", "5.0"),
          ("11.0", "apple-clang-11.0", "5.1"), ("11.4", "apple-clang-11.0", "5.2"),
          ("12.0", "apple-clang-12.0", "5.3"), ("12.5", "apple-clang-12.0", "5.4"),
          ("13.0", "apple-clang-13.0", "5.5"), ("13.3", "apple-clang-13.1", "5.6"),
          ("14.0", "apple-clang-14.0", "5.7"), ("14.3", "apple-clang-14.0", "5.8"),
          ("15.0", "apple-clang-15.0", "5.9"), ("15.3", "apple-clang-15.0", "5.10"),
          ("16.0", "apple-clang-16.0", "6.0"), ("16.3", "apple-clang-17.0", "6.1")]


def _gcc(version: str) -> Release:
    major, minor, _ = (int(x) for x in version.split("."))
    ext = "tar.xz" if major >= 7 else "tar.gz"
    name = f"gcc-{major}" if major >= 5 else f"gcc-{major}.{minor}"
    return Release(name, version,
                   f"https://ftp.gnu.org/gnu/gcc/gcc-{version}/gcc-{version}.{ext}")


def _clang(version: str) -> Release:
    parts = version.split(".")
    name = f"clang-{parts[0]}" if int(parts[0]) >= 4 else f"clang-{parts[0]}.{parts[1]}"
    if int(parts[0]) >= 9:
        return Release(name, version, "https://github.com/llvm/llvm-project/releases/download/"
                                      f"llvmorg-{version}/llvm-project-{version}.src.tar.xz")
    file = _CLANG_OLD.get(version, f"cfe-{version}.src.tar.xz")
    return Release(name, version, f"https://releases.llvm.org/{version}/{file}")


def _apple(xcode: str, compiler: str, swift: str) -> Release:
    if tuple(int(x) for x in swift.split(".")) <= (5, 1):
        url = (f"https://github.com/apple/swift-clang/archive/refs/heads/"
               f"swift-{swift}-branch.tar.gz")
        branch = f"apple/swift-clang swift-{swift}-branch"
    else:
        url = (f"https://github.com/apple/llvm-project/archive/refs/heads/"
               f"swift/release/{swift}.tar.gz")
        branch = f"apple/llvm-project swift/release/{swift}"
    return Release(compiler, f"Xcode {xcode}", url, f"Swift {swift}: {branch}")


RELEASES: tuple[Release, ...] = tuple(
    [_gcc(v) for v in _GCC] + [_clang(v) for v in _CLANG + _CLANG_GITHUB]
    + [_apple(*row) for row in _XCODE])


def releases() -> list[Release]:
    """Every release of the table, in the order listings use."""
    from warnscope.compilers import sort_key

    return sorted(RELEASES, key=lambda r: sort_key(r.compiler))


def ingest_command(compiler: str) -> str:
    """The command that would ingest ``compiler``: from Debian where it packages it
    (9 and later), else ``--source`` with where to get the tarball."""
    cid = CompilerId.parse(compiler)
    if cid.profile is ANDROID_GCC:
        return (f"warnscope flags ingest {compiler} --source <Android's GCC tree: its folder of "
                "AOSP's toolchain/gcc>")
    found = [r for r in RELEASES if r.compiler == str(cid)]
    if cid.profile.debian and cid.major >= 9 and not found:
        return f"warnscope flags ingest {compiler}"
    if not found:
        return (f"warnscope flags ingest {compiler} --source <its source tree or tarball> "
                "(flags versions --available lists where releases are published)")
    r = found[-1]
    return (f"warnscope flags ingest {compiler} --source {r.url.rpartition('/')[2]} "
            f"(download it from {r.url})")
