"""Compilers by id: ``gcc-12`` / ``clang-16`` -> drivers, version, identity.

Every part that runs a compiler (verification, the GCC plugin, the UB runner, the
overhead matrix) resolves it here, so an id is parsed once
(:class:`warnscope.compilers.CompilerId`) and a compiler's identity is computed one way.
The identity is the resolved driver paths, the drivers' files as the kernel knows them
(:func:`analyzer.runtime.identify.file_key`) and the full ``--version`` output: an
upgraded package, or a driver replaced under the same banner, gives new cache keys and
shows in stored results.

A compiler is also what the user names: a plain name on PATH (``gcc``, ``cc``), a path
(``/opt/gcc-13/bin/gcc``) or a cross driver (``aarch64-linux-gnu-gcc-12``). Such a name is
identified from the binary (:mod:`analyzer.runtime.identify`) and gets an id
(``gcc-13``, ``gcc-12@aarch64-linux-gnu``); where the id's usual driver is another binary
or none, the name is kept in a small registry in the cache (:mod:`analyzer.runtime.named`)
so that the id works in every later command. A compiler for another target carries its
triple and the emulator its programs run under (``qemu-aarch64 -L /usr/aarch64-linux-gnu``).
A WebAssembly target has no driver of its own: ``clang-16@wasm32-wasi`` (or Debian's
style of name, ``wasm32-wasi-clang-16``) is the host's clang-16 given ``--target=wasm32-wasi``
and WASI's flags (:meth:`Toolchain.target_flags`), its programs run under Wasmtime in the
sandbox (:meth:`Toolchain.run`).

A compiler the host does not have, but a prepared Debian root does
(:mod:`analyzer.runtime.roots`, ``warnscope toolchain add gcc-14``), resolves to a Toolchain
whose ``root`` is that root: its drivers are paths *inside* the root, and every caller
runs them through :meth:`Toolchain.wrap` (trusted tool runs) or hands ``root`` to the
sandbox (untrusted compiles and runs). Its identity adds the suite and the package
versions dpkg recorded, and its ``version`` line names both.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from warnscope import profiles, tool
from warnscope.errors import BadInput, NotInstalled, ToolFailed
from warnscope.compilers import CompilerId, sort_key
from warnscope.profiles import Profile, RunOn, TargetProfile
from warnscope.text import one_line

if TYPE_CHECKING:
    from analyzer.sandbox.limits import Limits, RunResult

#: seconds a ``--version`` probe may take before the compiler counts as broken
PROBE_TIMEOUT = 20


@dataclass(frozen=True)
class Toolchain:
    """An installed compiler: its canonical id, both drivers and its identity."""

    name: str          # 'gcc-12' (canonical: 'clang-016' is 'clang-16')
    family: str        # 'gcc' | 'clang'
    major: int
    c_driver: str      # path of gcc-12 / clang-16
    cxx_driver: str    # path of g++-12 / clang++-16
    version: str       # first line of --version
    identity: str      # sha256 of paths, the drivers' file keys and full --version output (+ suite, packages)
    root: str | None = None      # a prepared Debian root (analyzer.runtime.roots), None: the host
    suite: str | None = None     # that root's suite ('trixie')
    package: str | None = None   # the Debian package version in the root ('14.2.0-19')
    #: the target triple of a compiler for another target, '' for the host's
    target: str = ""
    #: what runs its programs here (``/usr/bin/qemu-aarch64 -L /usr/aarch64-linux-gnu``);
    #: () for the host's target, and for a target that cannot run (``cannot_run`` says why)
    emulator: tuple[str, ...] = ()
    cannot_run: str = ""
    #: who built it, where its banner says (``Apple``, ``Arm GNU Toolchain 13.2.Rel1``)
    vendor: str = ""

    @property
    def cid(self) -> CompilerId:
        """The typed id (``gcc-12@aarch64-linux-gnu``)."""
        return CompilerId.parse(self.name)

    @property
    def profile(self) -> Profile:
        """What every family asks of this compiler's family (:mod:`warnscope.profiles`)."""
        return profiles.profile(self.family)

    @property
    def target_profile(self) -> TargetProfile:
        """How its programs run here: natively, under qemu-user, under a WebAssembly
        runtime (:func:`warnscope.profiles.target`)."""
        return profiles.target(self.target)

    def target_flags(self, language: str) -> tuple[str, ...]:
        """What every compile of ``language`` adds for the target, as its profile says:
        WASI's flags for a WebAssembly target (:data:`analyzer.sandbox.wasm.COMPILE_FLAGS`,
        C++'s :data:`~analyzer.sandbox.wasm.CXX_FLAGS`); nothing for another target,
        whose driver is its own."""
        if self.target_profile.run_on is not RunOn.WASM_RUNTIME:
            return ()
        from analyzer.sandbox import wasm
        return (*wasm.COMPILE_FLAGS, *(wasm.CXX_FLAGS if language == "c++" else ()))

    def target_link_flags(self) -> tuple[str, ...]:
        """What a link adds after the program's own libraries, as :meth:`target_flags`."""
        if self.target_profile.run_on is not RunOn.WASM_RUNTIME:
            return ()
        from analyzer.sandbox import wasm
        return wasm.LINK_FLAGS

    def run(self, binary: str, args: "tuple[str, ...] | list[str]", limits: "Limits",
            env: dict[str, str] | None = None) -> "RunResult":
        """Run a program this compiler built in the sandbox, as its target profile says:
        natively (with its root's system directories), under qemu-user, or under Wasmtime
        (:func:`analyzer.sandbox.wasm.run`, which takes no environment); the same limits
        and accounting for each."""
        from analyzer.sandbox import runner
        if self.target_profile.run_on is RunOn.WASM_RUNTIME:
            from analyzer.sandbox import wasm
            return wasm.run(binary, args, limits)
        return runner.run(binary, args, limits, env=env, root=self.root, emulator=self.emulator)

    @property
    def emulated(self) -> bool:
        """Its programs are for another target and run under an emulator."""
        return bool(self.target)

    def driver(self, language: str) -> str:
        """The driver for ``c`` or ``c++`` (a path inside ``root`` for a root toolchain)."""
        return self.c_driver if language == "c" else self.cxx_driver

    @property
    def where(self) -> str:
        """``host``, ``trixie root (14.2.0-19)`` or ``host, for aarch64-linux-gnu under
        qemu-aarch64``: what a user is told it ran."""
        if self.root is not None:
            return f"{self.suite} root ({self.package})"
        if self.target:
            how = (f"under {os.path.basename(self.emulator[0])}" if self.emulator
                   else "under Wasmtime" if self.target_profile.run_on is RunOn.WASM_RUNTIME
                   and not self.cannot_run else "not runnable here")
            return f"host, for {self.target} ({how})"
        return "host"

    def objdump(self) -> str:
        """The objdump that reads this compiler's binaries: the target's own
        (``aarch64-linux-gnu-objdump``) for a cross compiler, else the system's."""
        if self.target:
            beside = os.path.join(os.path.dirname(self.c_driver), f"{self.target}-objdump")
            if os.path.exists(beside):
                return beside
            return shutil.which(f"{self.target}-objdump") or "objdump"
        return "objdump"

    def wrap(self, argv: list[str], binds: tuple[str, ...] = (),
             ro_binds: tuple[str, ...] = (), cwd: str | None = None) -> list[str]:
        """``argv`` (starting with a driver or another tool of this toolchain) as the
        command that runs it: unchanged on the host; in a root, run through bubblewrap
        with the root's system directories, and ``binds`` (writable) / ``ro_binds``
        visible at their own paths. Only for trusted runs; a corpus program's compile
        goes through :mod:`analyzer.sandbox.runner` with ``root=``."""
        if self.root is None:
            return list(argv)
        from analyzer.runtime.roots import bwrap_argv
        return bwrap_argv(Path(self.root), list(argv), binds, ro_binds, cwd)

    def tool(self, name: str) -> str | None:
        """Path of another program of this toolchain (``diagtool-16``), or None: on the
        host from PATH, in a root from the root's /usr/bin (the path is the one
        :meth:`wrap` makes valid)."""
        if self.root is None:
            return shutil.which(name)
        for d in ("/usr/bin", "/usr/sbin"):
            if os.path.exists(f"{self.root}{d}/{name}"):
                return f"{d}/{name}"
        return None

    def file(self, path: str) -> str:
        """A host path of a file of this toolchain (``/usr/lib/gcc/.../plugin/include``)."""
        return path if self.root is None else f"{self.root}{path}"


def compiler_id(text: "str | CompilerId") -> CompilerId:
    """The typed id of a compiler however the user named it: an id in any spelling
    (``clang-016`` -> ``clang-16``) without touching a binary, or a name or path of a
    binary (``gcc``, ``/opt/gcc-13/bin/gcc``, ``aarch64-linux-gnu-gcc-12``), identified
    (and registered where its id's usual driver is another: :func:`resolve`). The one
    resolution at the edge of every command: what follows takes the id."""
    if isinstance(text, CompilerId):
        return text
    try:
        return CompilerId.parse(text)
    except ValueError:
        pass
    if (wasm_id := _wasm_name(text)) is not None:
        return wasm_id
    if names_a_binary(text):
        return resolve(text).cid
    return CompilerId.of(text)


def canonical(text: str) -> str:
    """:func:`compiler_id` as the id's text (``gcc-12@aarch64-linux-gnu``)."""
    return str(compiler_id(text))


def canonical_list(names: "list[str] | tuple[str, ...]") -> list[str]:
    """:func:`canonical` of each of ``names`` in order, once each; two names for one
    binary (``gcc`` and ``gcc-12``) are one line of error, not a silent merge (two spellings
    of one id, ``clang-016`` and ``clang-16``, are that id once)."""
    seen: dict[str, str] = {}
    for name in names:
        cid = canonical(name)
        if cid in seen and seen[cid] != name.strip() \
                and not (_is_id(seen[cid]) and _is_id(name)):   # clang-016, clang-16: one id
            raise BadInput(f"{one_line(seen[cid])} and {one_line(name)} name one compiler "
                           f"({cid}): name it once")
        seen.setdefault(cid, name.strip())
    return list(seen)


def resolve_list(names: "list[str] | tuple[str, ...]") -> "list[Toolchain]":
    """The toolchains of :func:`canonical_list`'s ids, in order: what a command's
    ``--compilers`` names, resolved once where it is read; none is one line of error."""
    ids = canonical_list(names)
    if not ids:
        raise BadInput("no compilers given")
    return [resolve(n) for n in ids]


def _is_id(text: str) -> bool:
    try:
        CompilerId.parse(text)
        return True
    except ValueError:
        return False


def names_a_binary(text: str) -> bool:
    """``text`` is not an id but may name a binary: a path, or a name found on PATH."""
    from analyzer.runtime.identify import looks_like_a_path, plausible_name
    text = text.strip()
    return plausible_name(text) and (looks_like_a_path(text) or shutil.which(text) is not None)


def _wasm_name(text: str) -> CompilerId | None:
    """The id of a WebAssembly compiler named as Debian names a cross driver
    (``wasm32-wasi-clang-16`` -> ``clang-16@wasm32-wasi``) where no such binary is on
    PATH; None for any other name."""
    m = _CROSS_DRIVER.fullmatch(text.strip())
    if m is None or shutil.which(text.strip()) is not None \
            or profiles.target(m["target"]).run_on is not RunOn.WASM_RUNTIME:
        return None
    try:
        return CompilerId.parse(f"{m['family']}-{m['major']}@{m['target']}")
    except ValueError:
        return None


def driver_names(cid: CompilerId) -> tuple[str, str]:
    """The C and C++ driver names of a compiler: (gcc-12, g++-12), (clang-16, clang++-16)."""
    if cid.profile.gcc:
        return f"gcc-{cid.version}", f"g++-{cid.version}"
    return f"clang-{cid.major}", f"clang++-{cid.major}"


def probe(argv: list[str], timeout: float | None = None, what: str | None = None) -> str:
    """Run a short query of a compiler (``--version``, ``-print-file-name``) and return
    its stdout.

    A hang, a failure, or output that is not UTF-8 is a one-line error
    (:mod:`warnscope.tool`): a broken or hostile binary on PATH must not hang or crash
    a run. The query runs in its own session and its whole process group is killed at
    the timeout, so a wrapper script that starts a child (``sh -c 'sleep 1000'``) leaves
    nothing behind. ``what`` names the command in errors (a wrapped one: unwrapped).
    """
    limit = PROBE_TIMEOUT if timeout is None else timeout
    return tool.run(argv, timeout=limit, what=what).stdout


def resolve(name: "str | CompilerId") -> Toolchain:
    """``gcc-12`` (any spelling: ``clang-016``), ``gcc-12@aarch64-linux-gnu``, its parsed
    :class:`CompilerId`, or a name or path of a binary -> Toolchain, or a clear error when
    it is not installed or does not answer. An id is the registered binary of that id (a
    name given earlier), else the host's compiler, else the one of a prepared root
    (``warnscope toolchain add``). The name is parsed here once; what follows takes the id."""
    if isinstance(name, CompilerId):
        return _resolve(name)
    try:
        cid = CompilerId.parse(name)
    except ValueError:
        if (wasm_id := _wasm_name(name)) is not None:
            return _resolve(wasm_id)
        if names_a_binary(name):
            return _named(name.strip())
        cid = CompilerId.of(name)   # the usual one-line error, with a guess
    return _resolve(cid)


def _named(name: str) -> Toolchain:
    """The Toolchain of a binary the user named; its id registered where the id's usual
    driver is not this binary."""
    from analyzer.runtime import identify, named
    ident = identify.identify(name)
    cid = ident.cid
    usual = _usual_driver(cid)
    if usual is not None and os.path.realpath(ident.c_driver) in _usual_drivers(cid):
        return _resolve(cid)   # gcc-12, or its C++ driver g++-12
    registered = named.lookup(str(cid))
    if registered is None or os.path.realpath(registered) != os.path.realpath(ident.c_driver):
        if usual is not None:
            raise BadInput(f"{one_line(name)} is {ident.family} {ident.version} "
                           f"({one_line(ident.c_driver)}), but {cid} is already "
                           f"{one_line(usual)}, another binary: warnscope keeps one "
                           "compiler per id")
        named.register(str(cid), ident.c_driver, ident.version)
    return _from_identity(ident)


def _usual_driver(cid: CompilerId) -> str | None:
    """Where the id's compiler is by Debian's names on PATH (``gcc-12``,
    ``aarch64-linux-gnu-gcc-12``), or None."""
    c_name = driver_names(cid)[0]
    return shutil.which(f"{cid.target}-{c_name}" if cid.target else c_name)


def _usual_drivers(cid: CompilerId) -> set[str]:
    """The real files of the id's C and C++ drivers by Debian's names on PATH."""
    names = driver_names(cid)
    found = (shutil.which(f"{cid.target}-{n}" if cid.target else n) for n in names)
    return {os.path.realpath(p) for p in found if p}


def _from_identity(ident) -> Toolchain:
    """A Toolchain of an identified binary (a named or a cross compiler)."""
    from analyzer.runtime import identify
    cid = ident.cid
    real = f"{os.path.realpath(ident.c_driver)}\0{os.path.realpath(ident.cxx_driver or ident.c_driver)}"
    # the files themselves: a binary replaced under the same banner is another compiler
    files = _file_keys(ident.c_driver, ident.cxx_driver or ident.c_driver)
    identity = hashlib.sha256(f"binary\0{ident.c_driver}\0{ident.cxx_driver}\0{real}\0"
                              f"{ident.banner}\0{ident.version}\0{ident.target}\0{files}".encode()).hexdigest()
    emulator, cannot_run = _runs_under(cid)
    banner = ident.banner + ("" if not cid.target else f" [{cid.target}]")
    return Toolchain(name=str(cid), family=cid.family, major=cid.major,
                     c_driver=ident.c_driver, cxx_driver=ident.cxx_driver or ident.c_driver,
                     version=banner, identity=identity, target=cid.target,
                     emulator=emulator, cannot_run=cannot_run, vendor=ident.vendor)


def _file_keys(*drivers: str) -> str:
    """The drivers as the kernel knows them (:func:`analyzer.runtime.identify.file_key`),
    part of every identity; :class:`NotInstalled` naming one that is gone."""
    from analyzer.runtime import identify
    try:
        return "\0".join(identify.file_key(d) for d in drivers)
    except OSError as exc:
        raise NotInstalled(f"{one_line(exc.filename or drivers[0])}: {exc.strerror}") from None


def _runs_under(cid: CompilerId) -> tuple[tuple[str, ...], str]:
    """(what runs the programs of ``cid``'s target here, why they cannot run where they
    cannot), as its target profile says: nothing for the host's; qemu-user with the
    target's sysroot for another Linux target; nothing for a WebAssembly target, whose
    programs Wasmtime runs in the sandbox (:meth:`Toolchain.run`), unless a package it
    needs is missing (:func:`analyzer.sandbox.wasm.require`'s line)."""
    from analyzer.runtime import identify
    run_on = cid.target_profile.run_on
    if run_on is RunOn.NATIVE:
        return (), ""
    if run_on is RunOn.WASM_RUNTIME:
        from analyzer.sandbox import wasm
        try:
            wasm.require()
            return (), ""
        except NotInstalled as exc:
            return (), str(exc)
    try:
        qemu, sysroot = identify.emulation(cid.target)
        return (qemu, "-L", sysroot), ""
    except NotInstalled as exc:
        return (), str(exc)


def resolve_in_root(name: str, suite: str) -> Toolchain:
    """The compiler of the ``suite`` root, even when the host has the same compiler
    (to compare the two: ``bench/bench_zoo.py``)."""
    from analyzer.runtime import roots
    cid = CompilerId.of(name)
    root = roots.load(suite)
    if root is None or str(cid) not in root.compilers:
        raise NotInstalled(f"no {suite} root with {cid}: warnscope toolchain add {cid} "
                             f"--suite {suite}")
    return _from_root(str(cid), suite)


@lru_cache(maxsize=None)
def _resolve(name: "str | CompilerId") -> Toolchain:
    from analyzer.runtime import identify, named
    cid = name if isinstance(name, CompilerId) else CompilerId.of(name)
    registered = named.lookup(str(cid))
    if registered is not None:
        ident = identify.identify(registered)
        if ident.cid != cid:
            raise BadInput(f"{cid} was registered as {one_line(registered)}, which is now "
                           f"{ident.cid}: warnscope toolchain remove {cid}")
        return _from_identity(ident)
    if cid.target:
        driver = _usual_driver(cid)
        if driver is None and cid.target_profile.run_on is RunOn.WASM_RUNTIME:
            return _for_wasm(cid)
        if driver is None:
            c_name = driver_names(cid)[0]
            raise NotInstalled(f"compiler {cid} is not installed (no {cid.target}-{c_name} "
                               f"on PATH; Debian: apt-get install {c_name}-{cid.target}, "
                               "or name its driver by path)")
        ident = identify.identify(driver)
        if ident.cid != cid:
            raise BadInput(f"{one_line(driver)} is {ident.cid}, not {cid}")
        return _from_identity(ident)
    c_name, cxx_name = driver_names(cid)
    c_path, cxx_path = shutil.which(c_name), shutil.which(cxx_name)
    if not c_path:
        from analyzer.runtime import roots
        root = roots.find(cid)
        if root is not None:
            return _from_root(str(cid), root.suite)
        debian = not cid.profile.is_variant and cid.minor is None and roots.suites_for(cid)
        raise NotInstalled(f"compiler {cid} is not installed (no {c_name} on PATH; "
                           + (f"warnscope toolchain add {cid} prepares it in a Debian root)"
                              if debian else "Debian packages none: name its driver by path, "
                              f"e.g. warnscope toolchain add /opt/bin/{c_name})"))
    cxx_path = cxx_path or c_path
    version = probe([c_path, "--version"])
    first = next((l.strip() for l in version.splitlines() if l.strip()), "")
    if not first:
        raise ToolFailed(f"{c_path} --version printed nothing: not a usable compiler")
    # Drivers are invoked by their own names (clang++-14 is a symlink to clang, which
    # links C++ only when called as clang++); the identity uses the resolved files.
    real = f"{os.path.realpath(c_path)}\0{os.path.realpath(cxx_path)}"
    files = _file_keys(c_path, cxx_path)   # a driver replaced under the same banner is another compiler
    identity = hashlib.sha256(f"{c_path}\0{cxx_path}\0{real}\0{version}\0{files}".encode()).hexdigest()
    return Toolchain(name=str(cid), family=cid.family, major=cid.major, c_driver=c_path,
                     cxx_driver=cxx_path, version=first, identity=identity)


def _for_wasm(cid: CompilerId) -> Toolchain:
    """A WebAssembly target's compiler: the host's clang of that version, with the target
    in its id and identity (its flags: :meth:`Toolchain.target_flags`)."""
    if not cid.profile.clang:
        raise NotInstalled(f"{cid}: {cid.family} does not build for WebAssembly here; "
                           f"clang does (clang-16@{cid.target})")
    host = _resolve(cid.host)
    if host.root is not None:
        raise NotInstalled(f"{cid}: {cid.host} runs from a Debian root, which has no WASI "
                           f"libraries: install {driver_names(cid)[0]} on the host")
    _, cannot_run = _runs_under(cid)
    identity = hashlib.sha256(f"{host.identity}\0--target={cid.target}".encode()).hexdigest()
    return replace(host, name=str(cid), identity=identity, target=cid.target,
                   version=f"{host.version} [{cid.target}]", cannot_run=cannot_run)


@lru_cache(maxsize=None)
def _from_root(name: str, suite: str) -> Toolchain:
    """The Toolchain of ``name`` in the ``suite`` root: drivers inside it, identity with
    the suite and the package versions, probed through :meth:`Toolchain.wrap`."""
    from analyzer.runtime import roots
    cid = CompilerId.of(name)
    root = roots.load(suite)
    if root is None or name not in root.compilers:
        raise NotInstalled(f"the {suite} root has no {name}")
    packages = root.compilers[name]
    c_name, cxx_name = driver_names(cid)
    base = Toolchain(name=name, family=cid.family, major=cid.major, c_driver="", cxx_driver="",
                     version="", identity="", root=str(root.path), suite=suite,
                     package=packages.get(c_name, "?"))
    c_path, cxx_path = base.tool(c_name), base.tool(cxx_name)
    if c_path is None:
        raise NotInstalled(f"the {suite} root lists {name} but has no {c_name}: "
                             f"warnscope toolchain remove {name}; toolchain add {name}")
    cxx_path = cxx_path or c_path
    version = probe(base.wrap([c_path, "--version"]),
                    what=f"{c_path} --version (in the {suite} root)")
    first = next((l.strip() for l in version.splitlines() if l.strip()), "")
    if not first:
        raise ToolFailed(f"{c_path} in the {suite} root printed nothing on --version")
    real = f"{os.path.realpath(base.file(c_path))}\0{os.path.realpath(base.file(cxx_path))}"
    pkgs = "\0".join(f"{k}={v}" for k, v in sorted(packages.items()))
    files = _file_keys(base.file(c_path), base.file(cxx_path))
    identity = hashlib.sha256(f"debian-root\0{suite}\0{pkgs}\0{c_path}\0{cxx_path}\0"
                              f"{real}\0{version}\0{files}".encode()).hexdigest()
    return replace(base, c_driver=c_path, cxx_driver=cxx_path, identity=identity,
                   version=f"{first} [Debian {suite} {base.package}]")


def installed(names: list[str]) -> list[str]:
    """Those of ``names`` (gcc-N / clang-N, a cross id) whose C driver is on PATH, canonical."""
    found = [str(cid) for cid in map(CompilerId.of, names) if _usual_driver(cid)]
    return list(dict.fromkeys(found))


def cppcheck_version() -> str | None:
    """The host's cppcheck version ('2.10'), or None when there is none that answers
    (the UB detectors and the overhead study's cppcheck cells both ask, the study per
    cell and language): asked once per PATH and process."""
    return _cppcheck_version(shutil.which("cppcheck"))


@lru_cache(maxsize=None)
def _cppcheck_version(binary: str | None) -> str | None:
    if binary is None:
        return None
    try:
        out = tool.run([binary, "--version"], timeout=30).stdout
    except (NotInstalled, ToolFailed):
        return None
    found = re.search(r"Cppcheck (\S+)", out)
    return found[1] if found else None


#: the ``-std=`` a compile may pass on to :func:`predefined_macros`: a fixed set, matched
#: in full (a word of an untrusted build's command never becomes a driver's option)
KNOWN_STDS = frozenset(
    [f"-std={d}{v}" for d in ("c", "gnu")
     for v in ("89", "90", "99", "9x", "11", "1x", "17", "18", "2x", "23", "2y")]
    + [f"-std=iso9899:{v}" for v in ("1990", "199409", "1999", "199x", "2011", "2017", "2018", "2024")]
    + [f"-std={d}++{v}" for d in ("c", "gnu")
       for v in ("98", "03", "11", "0x", "14", "1y", "17", "1z", "20", "2a", "23", "2b", "26", "2c")])


def predefined_macros(tc: Toolchain, language: str, std: str | None = None) -> str:
    """The macros ``tc`` predefines for ``language`` (``c`` or ``c++``), under ``std`` (one
    of :data:`KNOWN_STDS`; None: the compiler's default): the ``#define`` lines of
    ``-dM -E`` on an empty source, asked once per compiler, language and standard in a
    process. A failure is the probe's one-line error (:class:`ToolFailed`)."""
    if language not in ("c", "c++") or (std is not None and std not in KNOWN_STDS):
        raise ValueError(f"predefined_macros: {language!r}, {std!r}")
    return _predefined_macros(tc, language, std)


@lru_cache(maxsize=None)
def _predefined_macros(tc: Toolchain, language: str, std: str | None) -> str:
    argv = [tc.driver(language), *([std] if std else []), "-dM", "-E", "-x", language, "/dev/null"]
    return probe(tc.wrap(argv), what=" ".join(argv))


#: a Debian-style cross driver's name: ``aarch64-linux-gnu-gcc-12``
_CROSS_DRIVER = re.compile(r"(?P<target>[a-z0-9_]+(?:-[a-z0-9_.]+){1,3})-(?P<family>gcc|clang)"
                           r"-(?P<major>[1-9][0-9]?)")


def cross_on_path() -> list[str]:
    """The ids of the cross compilers on PATH by Debian's names
    (``aarch64-linux-gnu-gcc-12`` -> ``gcc-12@aarch64-linux-gnu``), read from the names
    alone (``resolve`` reads each binary)."""
    from analyzer.runtime.identify import is_host_target
    found = {str(CompilerId(m["family"], int(m["major"]), None, m["target"]))
             for m, _ in tool.on_path(_CROSS_DRIVER) if not is_host_target(m["target"])}
    return sorted(found, key=sort_key)


def wasm_on_host() -> list[tuple[CompilerId, str]]:
    """The WebAssembly compilers of the host's clang, with its driver:
    ``clang-16@wasm32-wasi`` where clang-16 is on PATH (the version whose WASI packages
    :mod:`analyzer.sandbox.wasm` knows), whether or not those packages are installed."""
    from analyzer.sandbox import wasm
    cid = CompilerId.parse(wasm.COMPILER)
    driver = shutil.which(str(cid.host))
    return [(cid, driver)] if driver else []


def listing() -> list:
    """``toolchain list``: the compilers Debian packages and where each is
    (:func:`analyzer.runtime.roots.listing`), then the cross compilers on PATH, the host
    clang's WebAssembly compiler and the compilers registered by name."""
    from analyzer.runtime import named, roots
    entries = roots.listing()
    # compilers for another target, each with why its programs cannot run here, if so
    targets = [(cid, roots.ToolchainStatus.CROSS, _usual_driver(cid))
               for cid in map(CompilerId.parse, cross_on_path())]
    targets += [(cid, roots.ToolchainStatus.WASM, driver) for cid, driver in wasm_on_host()]
    for cid, status, path in targets:
        entries.append(roots.ToolchainEntry(str(cid), status, None, [], None, None, path=path,
                                            cannot_run=_runs_under(cid)[1]))
    for entry in named.entries():
        entries.append(roots.ToolchainEntry(entry.compiler, roots.ToolchainStatus.NAMED, None, [],
                                            entry.version, None, path=entry.path))
    return entries
