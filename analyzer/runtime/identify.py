"""What a compiler binary is, read from the binary itself, never from its name.

A user names a compiler as they have it: ``gcc``, ``cc``, ``/opt/gcc-13/bin/gcc``,
``~/llvm/bin/clang``, ``aarch64-linux-gnu-gcc-12``, ``arm-none-eabi-gcc``. :func:`identify`
asks the binary three questions through the one tool runner (a timeout each, the process
group killed at it): its predefined macros (``-dM -E`` on an empty C file: ``__clang__``,
``__GNUC__``, ``__apple_build_version__`` and their version macros), its target
(``-dumpmachine``) and its ``--version`` banner (the vendor: Apple, Android, ARM's GNU
toolchain, a distribution's patch level). The family and version come from the macros; a
banner that names another version than the macros is a binary that lies (a wrapper
script), refused. The C++ driver that belongs to it is found beside it by the usual names
(``gcc`` -> ``g++``, ``clang-16`` -> ``clang++-16``, ``cc`` -> ``c++``).

The answer is cached per binary, so a compiler named in every command is probed once.
The cache's key is the file itself as the kernel knows it (:func:`file_key`): its path
and real path, device and inode, size, modification and change times in nanoseconds. A
binary replaced by another of the same size whose modification time was put back
(``touch -d``) has another inode (``mv``, ``cp --remove-destination``) or a new change
time (written in place: no call sets the change time back), so it is probed again, and
its :class:`analyzer.runtime.toolchain.Toolchain` identity, which keys the UB compile
cache and the upgrade's reuse of stored builds, is another. Not a hash of the contents:
the driver is a small part of a compiler (GCC's ``cc1``, clang's ``libclang-cpp.so`` are
not in it), so hashing it would cost a read of the binary on every command and still
not see those replaced.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path

from warnscope import tool
from warnscope.compilers import TRIPLE, CompilerId
from warnscope.errors import BadInput, NotInstalled, ToolFailed
from warnscope.paths import atomic_write, cache_dir
from warnscope.text import one_line
from warnscope.profiles import APPLE_CLANG, profile

#: seconds each question to a binary may take
PROBE_TIMEOUT = 20
#: bump when what a cached answer holds changes
CACHE_VERSION = 2


@dataclass(frozen=True)
class Identity:
    """A compiler binary as it describes itself."""

    family: str          # 'gcc' | 'clang' | 'apple-clang'
    version: str         # the full version: '12.2.0', '16.0.6'
    target: str          # -dumpmachine: 'x86_64-linux-gnu', 'aarch64-linux-gnu'
    banner: str          # the first line of --version
    vendor: str          # 'Apple', 'Debian 12.2.0-14', 'Arm GNU Toolchain 13.2.Rel1', ''
    c_driver: str        # the absolute path the user's name resolved to
    cxx_driver: str      # the C++ driver beside it ('' when there is none)

    @property
    def cid(self) -> CompilerId:
        """The id this binary has: family and major (with the minor where the family
        names releases by it), and the target where it is not the host's."""
        parts = self.version.split(".")
        major = int(parts[0])
        minor = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
        since = profile(self.family).minor_before   # named with its minor before this major
        keep_minor = since == 0 or major < since
        return CompilerId(self.family, major, minor if keep_minor else None,
                          "" if is_host_target(self.target) else self.target)


def host_arch() -> str:
    """The machine's architecture as target triples spell it (``x86_64``)."""
    return os.uname().machine


def is_host_target(triple: str) -> bool:
    """A triple whose programs run here natively: this machine's architecture on Linux
    (``x86_64-linux-gnu`` and ``x86_64-pc-linux-gnu`` alike)."""
    arch, _, rest = triple.partition("-")
    return arch == host_arch() and "linux" in rest


def looks_like_a_path(name: str) -> bool:
    """``/opt/gcc/bin/gcc``, ``./cc``, ``~/llvm/bin/clang``: a name with a slash or a tilde."""
    return "/" in name or name.startswith("~")


def plausible_name(text: str) -> bool:
    """``text`` could name a binary: not empty, no control character, not an option."""
    return bool(text) and not text.startswith("-") and not any(ord(c) < 32 for c in text)


def locate(name: str) -> str:
    """The absolute path of the binary ``name`` denotes: a path (``~`` expanded), or a
    plain name looked up on PATH. One clear line when there is none."""
    text = name.strip()
    if not plausible_name(text):
        raise BadInput(f"{one_line(name)!r} is not a compiler name nor a path")
    if looks_like_a_path(text):
        path = os.path.abspath(os.path.expanduser(text))
        if not os.path.isfile(path):
            raise NotInstalled(f"{one_line(text)}: no such file")
        if not os.access(path, os.X_OK):
            raise BadInput(f"{one_line(text)}: not an executable file")
        return path
    found = shutil.which(text)
    if found is None:
        raise NotInstalled(f"no compiler {one_line(text)!r} on PATH")
    return os.path.abspath(found)


def identify(name: str) -> Identity:
    """The :class:`Identity` of the compiler ``name`` denotes (see the module's text)."""
    path = locate(name)
    real = os.path.realpath(path)
    try:
        key = hashlib.sha256(f"{CACHE_VERSION}\0{path}\0{file_key(real)}".encode()).hexdigest()
    except OSError as exc:
        raise NotInstalled(f"{one_line(name)}: {exc.strerror}") from None
    cached = cache_dir("compilers", "identity") / f"{key}.json"
    try:
        ident = Identity(**json.loads(cached.read_text()))
        if not ident.cxx_driver or os.path.exists(ident.cxx_driver):
            return ident
    except (OSError, ValueError, TypeError):
        pass
    ident = _probe(name, path)
    atomic_write(cached, json.dumps(asdict(ident)).encode())
    return ident


def file_key(path: str) -> str:
    """The binary at ``path`` as the kernel knows it, link followed: its real path, device,
    inode, size, modification and change times (ns); another file, or the same file
    written, is another key (see the module's text). :class:`OSError` where it is gone."""
    st = os.stat(path)
    return (f"{os.path.realpath(path)}\0{st.st_dev}\0{st.st_ino}\0{st.st_size}\0"
            f"{st.st_mtime_ns}\0{st.st_ctime_ns}")


def _ask(path: str, args: list[str], name: str) -> str:
    what = f"{one_line(name)} {' '.join(args)}"
    try:
        return tool.run([path, *args], timeout=PROBE_TIMEOUT, what=what).stdout
    except ToolFailed as exc:
        raise ToolFailed(f"{one_line(name)} is not a usable compiler: {exc}") from None


def _probe(name: str, path: str) -> Identity:
    macros = dict(re.findall(r"^#define (\w+) ?(.*)$", _ask(path, ["-dM", "-E", "-x", "c",
                                                                    "/dev/null"], name), re.M))
    if "__clang__" in macros:
        family = "apple-clang" if "__apple_build_version__" in macros else "clang"
        version = ".".join(macros.get(m, "?") for m in
                           ("__clang_major__", "__clang_minor__", "__clang_patchlevel__"))
    elif "__GNUC__" in macros:
        family = "gcc"
        version = ".".join(macros.get(m, "?") for m in
                           ("__GNUC__", "__GNUC_MINOR__", "__GNUC_PATCHLEVEL__"))
    else:
        raise BadInput(f"{one_line(name)} ({one_line(path)}) is not GCC nor clang: its "
                       "predefined macros have neither __GNUC__ nor __clang__")
    if not re.fullmatch(r"[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}", version):
        raise BadInput(f"{one_line(name)}: its version macros read {version!r}, not a version")
    target = _ask(path, ["-dumpmachine"], name).strip()
    if not TRIPLE.fullmatch(target):
        raise BadInput(f"{one_line(name)}: -dumpmachine printed {one_line(target)[:80]!r}, "
                       "not a target triple")
    banner = next((l.strip() for l in _ask(path, ["--version"], name).splitlines()
                   if l.strip()), "")
    if not _banner_agrees(family, version, banner):
        raise BadInput(f"{one_line(name)}: --version says {one_line(banner)[:120]!r} but its "
                       f"predefined macros say {family} {version}: not trusted")
    return Identity(family=family, version=version, target=target, banner=banner,
                    vendor=_vendor(family, banner), c_driver=path,
                    cxx_driver=_cxx_beside(path))


def _banner_agrees(family: str, version: str, banner: str) -> bool:
    """The banner names the version the macros give. GCC's banner ends in its full
    version (``gcc (Debian 12.2.0-14) 12.2.0``); clang's says ``clang version 16.0.6``
    (a vendor's may add text around it); Apple's clang names its own version, which its
    ``__clang_*__`` macros give as well."""
    if profile(family).gcc:
        return re.search(rf"(?<![0-9.]){re.escape(version)}(?![0-9])", banner) is not None
    return re.search(rf"clang version {re.escape(version)}(?![0-9])", banner) is not None


def _vendor(family: str, banner: str) -> str:
    """Who built it, where the banner says: ``Apple``, ``Android``, the text in GCC's
    parentheses (``Debian 12.2.0-14``, ``Arm GNU Toolchain 13.2.Rel1``), '' otherwise."""
    if profile(family) is APPLE_CLANG or banner.startswith("Apple "):
        return APPLE_CLANG.vendor
    if banner.startswith("Android "):
        return "Android"
    if profile(family).gcc:
        found = re.search(r"\(([^()]{1,80})\)", banner)
        return found[1] if found and found[1] not in ("GCC",) else ""
    found = re.match(r"(\S[^(]*?) ?clang version", banner)
    return found[1] if found and found[1] not in ("", "clang") else ""


#: the C++ driver's name beside a C driver's: the last match replaced
_CXX_NAMES = (("clang", "clang++"), ("gcc", "g++"), ("cc", "c++"))


def _cxx_beside(path: str) -> str:
    """The C++ driver in ``path``'s directory whose name is the C driver's with its
    compiler part turned into the C++ one (``aarch64-linux-gnu-gcc-12`` ->
    ``aarch64-linux-gnu-g++-12``); '' when there is none."""
    folder, base = os.path.split(path)
    for c_part, cxx_part in _CXX_NAMES:
        at = base.rfind(c_part)
        if at < 0 or base[at:].startswith(cxx_part):
            continue
        candidate = os.path.join(folder, base[:at] + cxx_part + base[at + len(c_part):])
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
        break
    return ""


def emulator(target: str) -> tuple[str, str] | None:
    """The user-mode emulator that runs ``target``'s Linux programs here and the
    system root its programs load their libraries from (Debian's cross layout:
    ``/usr/<triple>``): ``("qemu-aarch64", "/usr/aarch64-linux-gnu")``. None for a
    target without an operating system (``arm-none-eabi``) or an architecture qemu-user
    does not emulate."""
    arch, _, rest = target.partition("-")
    if "linux" not in rest:
        return None
    qemu = _QEMU.get(arch) or (arch if re.fullmatch(r"[a-z0-9_]+", arch) else None)
    if qemu is None:
        return None
    return f"qemu-{qemu}", f"/usr/{target}"


#: triple architectures whose qemu-user binary is named otherwise
_QEMU = {"i486": "i386", "i586": "i386", "i686": "i386", "powerpc64le": "ppc64le",
         "powerpc64": "ppc64", "powerpc": "ppc"}


def emulation(target: str) -> tuple[str, str]:
    """:func:`emulator` with the installation checked: the emulator's absolute path and
    the sysroot, or one line saying what is missing and how to get it."""
    found = emulator(target)
    if found is None:
        raise NotInstalled(f"{target}: no user-mode emulation for this target (a bare-metal "
                           "or unknown target): its programs cannot run here")
    qemu, sysroot = found
    path = shutil.which(qemu)
    if path is None:
        raise NotInstalled(f"{target}: programs for it run under {qemu}, which is not "
                           "installed (qemu-user: apt-get install qemu-user, dnf install "
                           "qemu-user, pacman -S qemu-user)")
    if not Path(sysroot, "lib").is_dir():
        raise NotInstalled(f"{target}: no C library for it at {sysroot} (Debian: "
                           f"libc6-dev-<arch>-cross), so its programs cannot load")
    return path, sysroot
