"""Finding, checking and running the warnscope GCC plugin.

A GCC plugin only loads into the GCC build it was compiled for, so there is one
shared object per GCC major version (``warnscope_gcc12.so``), built by Meson with
that GCC's own ``g++``.  This module finds the right one, refuses it if its
recorded version is not the compiler's, runs the compiler on an empty input with
it, and hands back the plugin's JSON.  Every failure (no compiler, no plugin
headers, a plugin that does not load, a compiler that crashes) becomes one clear
:class:`~warnscope.errors.WarnscopeError` line (:class:`PluginUnavailable` where no
plugin can be had, :class:`~warnscope.errors.ToolFailed` where the compiler failed).

A GCC of a prepared Debian root (``warnscope toolchain add gcc-14``) gets its plugin
built inside that root, with the root's ``g++-N`` and ``gcc-N-plugin-dev`` headers,
into the cache keyed by the toolchain's identity (suite and package versions), and
is run there: every command goes through :meth:`Toolchain.wrap`.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from warnscope import tool
from warnscope.errors import BadInput, NotInstalled, PackageError, ToolFailed
from warnscope.paths import atomic_write, cache_dir

from analyzer.runtime.toolchain import Toolchain, resolve

HERE = Path(__file__).resolve().parent
#: installed with the package, so an installed warnscope can build the plugin for any GCC
SOURCE = HERE / "warnscope_plugin.cc"
REPO_BUILD = HERE.parent.parent / "build" / "analyzer" / "gccplugin"
LANGUAGES = ("c", "c++")
#: seconds a compiler run with the plugin (or a version query) may take
TIMEOUT = 120
#: seconds building the plugin with g++ may take
BUILD_TIMEOUT = 600


class PluginUnavailable(NotInstalled):
    """No plugin can be had for this compiler (not installed, no plugin headers)."""


@dataclass(frozen=True)
class Plugin:
    """A plugin file usable with one compiler binary."""

    compiler: str      # gcc-12
    gcc: str           # /usr/bin/gcc-12
    version: str       # 12.2.0
    path: Path
    #: How it was found: ``WARNSCOPE_PLUGIN_DIR``, ``installed``, ``build dir``, or
    #: ``built now into the cache`` (the fallback when Meson has not built it).
    origin: str
    #: the compiler's toolchain: ``gcc`` is a path inside its root when it has one
    toolchain: Toolchain | None = None

    def command(self, argv: list[str], binds: tuple[str, ...] = (),
                ro_binds: tuple[str, ...] = ()) -> list[str]:
        """``argv`` as run: as is on the host, inside the root for a root GCC."""
        if self.toolchain is None:
            return argv
        return self.toolchain.wrap(argv, binds, (*ro_binds, str(self.path.parent)))

    @property
    def name(self) -> str:
        """GCC's name for the plugin: the file name without ``.so``."""
        return self.path.stem


def major_of(compiler: str) -> str:
    """``gcc-12`` → ``12``; anything else is refused."""
    m = re.fullmatch(r"gcc-(\d+)", compiler)
    if not m:
        raise BadInput(f"{compiler!r}: the GCC plugin needs a compiler named gcc-N")
    return m.group(1)


def gcc_binary(compiler: str) -> str:
    """The path of ``gcc-N`` (on PATH, or inside its root)."""
    return gcc_toolchain(compiler).c_driver


def gcc_toolchain(compiler: str) -> Toolchain:
    """``gcc-N`` on the host, or in a prepared root."""
    major_of(compiler)
    try:
        return resolve(compiler)
    except NotInstalled:
        raise PluginUnavailable(f"{compiler}: compiler not found on PATH "
                                f"(nor in a root: warnscope toolchain add {compiler})") from None


def _wrap(tc: Toolchain | None, argv: list[str], binds: tuple[str, ...] = (),
          ro_binds: tuple[str, ...] = ()) -> list[str]:
    return argv if tc is None else tc.wrap(argv, binds, ro_binds)


def gcc_version(gcc: str, tc: Toolchain | None = None) -> str:
    """``gcc-12 -dumpfullversion`` → ``12.2.0``."""
    proc = tool.run(_wrap(tc, [gcc, "-dumpfullversion"]), timeout=TIMEOUT, check=False,
                    what=f"{gcc} -dumpfullversion")
    if proc.returncode != 0 or not proc.stdout.strip():
        raise ToolFailed(f"{gcc}: cannot tell its version ({proc.stderr.strip()})")
    return proc.stdout.strip()


def plugin_file_name(compiler: str) -> str:
    return f"warnscope_gcc{major_of(compiler)}.so"


def built_for(path: Path) -> str | None:
    """The GCC version a plugin file records (``WARNSCOPE_BUILT_FOR=12.2.0``)."""
    m = re.search(rb"WARNSCOPE_BUILT_FOR=([0-9.]+)", path.read_bytes())
    return m.group(1).decode() if m else None


def search_dirs() -> list[tuple[Path, str]]:
    """Where built plugins are looked for, in order."""
    dirs = []
    env = os.environ.get("WARNSCOPE_PLUGIN_DIR")
    if env:
        dirs.append((Path(env), "WARNSCOPE_PLUGIN_DIR"))
    dirs.append((HERE, "installed"))
    dirs.append((REPO_BUILD, "build dir"))
    return dirs


def headers_dir(gcc: str, tc: Toolchain | None = None) -> Path:
    """``$(gcc-N -print-file-name=plugin)/include``, which gcc-N-plugin-dev fills (as the
    compiler sees it: inside its root for a root GCC)."""
    proc = tool.run(_wrap(tc, [gcc, "-print-file-name=plugin"]), timeout=TIMEOUT, check=False,
                    what=f"{gcc} -print-file-name=plugin")
    return Path(proc.stdout.strip()) / "include"


def cache_for(compiler: str, version: str, tc: Toolchain | None = None) -> Path:
    """Where a plugin built into the cache lives: per GCC version on the host, per
    toolchain identity (suite, package versions) for a root GCC."""
    if tc is not None and tc.root is not None:
        return cache_dir("gcc-plugin", f"{tc.suite}-{tc.identity[:16]}") / plugin_file_name(compiler)
    return cache_dir("gcc-plugin", version) / plugin_file_name(compiler)


def build_into_cache(compiler: str, gcc: str, version: str, tc: Toolchain | None = None) -> Path:
    """Compile the plugin with ``g++-N`` into the cache (when Meson has not); for a root
    GCC, inside its root with the root's g++ and headers."""
    include = headers_dir(gcc, tc)
    major = major_of(compiler)
    seen = Path(tc.file(str(include))) if tc is not None else include
    if not (seen / "gcc-plugin.h").is_file():
        raise PluginUnavailable(
            f"{compiler}: no plugin headers (your distribution's GCC plugin development "
            f"package: Debian, Ubuntu gcc-{major}-plugin-dev; Fedora gcc-plugin-devel; Arch's "
            "gcc has them)")
    gxx = tc.tool(f"g++-{major}") if tc is not None else shutil.which(f"g++-{major}")
    if not gxx:
        raise PluginUnavailable(f"{compiler}: no g++-{major} to build the plugin with (your "
                                f"distribution's g++ {major}; Debian: apt-get install g++-{major})")
    out = cache_for(compiler, version, tc)
    tmp = out.with_suffix(f".{os.getpid()}.tmp")
    extra = _missing_headers(seen, major, tc)
    extra_args = [f"-I{d}" for d in extra]
    proc = tool.run(
        _wrap(tc, [gxx, "-shared", "-fPIC", "-fno-rtti", "-O2", "-std=gnu++17", f"-I{include}",
                   *extra_args, str(SOURCE), "-o", str(tmp)],
              binds=(str(out.parent),), ro_binds=(str(SOURCE.parent), *map(str, extra))),
        timeout=BUILD_TIMEOUT, check=False, what=f"{gxx} {SOURCE.name}")
    if proc.returncode != 0:
        first = next((l for l in proc.stderr.splitlines() if "error" in l), proc.stderr[:200])
        raise ToolFailed(f"{compiler}: building the plugin failed: {first}")
    tmp.replace(out)
    return out


#: Headers that a plugin-dev package's own headers include but do not ship, by the
#: path they are included as: bullseye's gcc-10-plugin-dev (10.2.1-6) has a
#: config/i386/i386.h that includes common/config/i386/i386-cpuinfo.h (a backport),
#: without the file.
_UNSHIPPED = ("common/config/i386/i386-cpuinfo.h",)


def _missing_headers(include: Path, major: str, tc: Toolchain | None) -> list[Path]:
    """Include directories supplying what ``include`` needs but lacks: the very file
    from the same Debian version's ``gcc-N-source`` (fetched by the root's apt, taken
    from the Debian patch that creates it, or else from the upstream tarball; kept in
    the cache). Only for a root GCC: a host one is fixed by apt."""
    wanted = [h for h in _UNSHIPPED if not (include / h).exists()
              and any(h in p.read_text(errors="replace")
                      for p in (include / "config" / "i386").glob("*.h"))]
    if not wanted or tc is None or tc.root is None:
        return []
    extra = cache_dir("gcc-plugin", f"headers-{tc.suite}-gcc-{major}-{tc.package}")
    if all((extra / h).is_file() for h in wanted):
        return [extra]
    from analyzer.runtime import roots
    deb = roots.download(tc.suite, [f"gcc-{major}-source"])[f"gcc-{major}-source"]
    with tempfile.TemporaryDirectory(dir=extra.parent) as tmp:
        tool.run(["dpkg-deb", "-x", str(deb), tmp], timeout=600)
        src = Path(tmp) / f"usr/src/gcc-{major}"
        for h in wanted:
            text = _created_by_patch(src / "patches", f"src/gcc/{h}")
            if text is None:
                tarball = next(iter(sorted(src.glob("gcc-*.tar.*"))), None)
                if tarball is None:
                    raise PackageError(f"gcc-{major}-source has no upstream tarball")
                proc = tool.run(["tar", "-xOf", str(tarball), "--wildcards", f"*/gcc/{h}"],
                                timeout=600, check=False)
                if proc.returncode != 0:
                    raise PackageError(f"gcc-{major}-plugin-dev lacks {h}, and "
                                         f"gcc-{major}-source has no copy of it")
                text = proc.stdout
            (extra / h).parent.mkdir(parents=True, exist_ok=True)
            atomic_write(extra / h, text.encode())
    return [extra]


def _created_by_patch(patches: Path, path: str) -> str | None:
    """The contents of ``path`` where one of Debian's patches creates it (a hunk from
    /dev/null), else None."""
    for diff in sorted(patches.glob("*.diff")):
        lines = diff.read_text(errors="replace").splitlines()
        for i, line in enumerate(lines[1:], 1):
            if line == f"+++ b/{path}" and lines[i - 1].startswith("--- /dev/null"):
                m = re.match(r"@@ -0,0 \+1,(\d+) @@", lines[i + 1])
                if m:
                    body = lines[i + 2:i + 2 + int(m.group(1))]
                    return "\n".join(l[1:] for l in body) + "\n"
    return None


def locate(compiler: str, build: bool = True) -> Plugin:
    """The plugin for ``compiler``, checked against its exact version.

    A plugin file built for another version of this major is refused with a
    clear message naming both versions; if none fits and ``build`` is true, the
    plugin is compiled into the cache with ``g++-N`` (``origin`` says so).
    """
    tc = gcc_toolchain(compiler)
    gcc = tc.c_driver
    in_root = tc if tc.root is not None else None
    version = gcc_version(gcc, in_root)
    name = plugin_file_name(compiler)
    mismatched = []
    if in_root is not None:  # built for the host's libraries: never for a root's GCC
        cached = cache_for(compiler, version, in_root)
        if cached.is_file() and built_for(cached) == version:
            return Plugin(compiler, gcc, version, cached, "cache", in_root)
        if not build:
            raise PluginUnavailable(f"{compiler} ({version}, {tc.where}): no plugin built")
        path = build_into_cache(compiler, gcc, version, in_root)
        return Plugin(compiler, gcc, version, path, f"built now in the {tc.suite} root into "
                      f"{path.parent}", in_root)
    for directory, origin in search_dirs():
        path = directory / name
        if not path.is_file():
            continue
        recorded = built_for(path)
        if recorded == version:
            return Plugin(compiler, gcc, version, path, origin)
        mismatched.append(f"{path} (built for GCC {recorded or 'unknown'})")
    cached = cache_dir("gcc-plugin", version) / name
    if cached.is_file() and built_for(cached) == version:
        return Plugin(compiler, gcc, version, cached, "cache")
    if not build:
        detail = "; ".join(mismatched) or "no plugin built (run: meson compile -C build)"
        raise PluginUnavailable(f"{compiler} ({version}): {detail}")
    path = build_into_cache(compiler, gcc, version)
    return Plugin(compiler, gcc, version, path, f"built now into {path.parent}")


def _hex(text: str) -> str:
    return text.encode().hex()


def run(plugin: Plugin, lang: str, flags: list[str] | tuple[str, ...] = (),
        closures: list[list[str]] | tuple = (), table: bool = False,
        crash: bool = False) -> dict:
    """Run ``gcc -x LANG -fsyntax-only EMPTY FLAGS`` with the plugin; its JSON.

    ``flags`` go on the real command line (so the states are those after them);
    each list in ``closures`` is applied by the plugin from an all-off state.
    """
    if lang not in LANGUAGES:
        raise BadInput(f"language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    prefix = f"-fplugin-arg-{plugin.name}-"
    with tempfile.TemporaryDirectory(prefix="warnscope-plugin-") as tmp:
        out = Path(tmp) / "report.json"
        # An empty file of our own rather than /dev/null, which a careless
        # process running as root can turn into a regular file.
        empty = Path(tmp) / "empty"
        empty.write_bytes(b"")
        cmd = [plugin.gcc, "-x", lang, "-fsyntax-only", str(empty),
               f"-fplugin={plugin.path}", f"{prefix}out={_hex(str(out))}"]
        if table:
            cmd.append(f"{prefix}table")
        if crash:
            cmd.append(f"{prefix}crash")
        cmd += [f"{prefix}closure=" + ".".join(_hex(f) for f in c) for c in closures]
        cmd += list(flags)
        # empty stdin of our own too (a pipe closed at once), for the same reason
        proc = tool.run(plugin.command(cmd, binds=(tmp,)), timeout=TIMEOUT, input=b"",
                        check=False, what=f"{plugin.compiler} with the plugin")
        _check(plugin, proc)
        if not out.is_file():
            raise ToolFailed(
                f"{plugin.compiler} exited without a plugin report (status {proc.returncode})")
        try:
            return json.loads(out.read_text())
        except json.JSONDecodeError as exc:
            raise ToolFailed(f"{plugin.compiler}: the plugin wrote invalid JSON ({exc})") from None


def _check(plugin: Plugin, proc: tool.Completed) -> None:
    """Turn a failed compiler run into one line that says what happened."""
    stderr = proc.stderr
    who = f"{plugin.compiler} ({plugin.version})"
    if "internal compiler error" in stderr:
        line = next(l for l in stderr.splitlines() if "internal compiler error" in l)
        detail = line.split("internal compiler error:", 1)[1].strip()
        raise ToolFailed(f"{who} crashed under the plugin: internal compiler error: {detail}")
    if proc.returncode < 0:
        raise ToolFailed(f"{who} crashed under the plugin: killed by signal {-proc.returncode}")
    if proc.returncode != 0:
        lines = [l for l in stderr.splitlines() if "error" in l] or stderr.splitlines() or [""]
        line = lines[0]
        if "cannot load plugin" in line or "fail to initialize plugin" in line \
                or "warnscope plugin:" in stderr:
            detail = next((l for l in stderr.splitlines() if "warnscope plugin:" in l), line)
            raise ToolFailed(f"{who}: the plugin {plugin.path} does not work: {detail.strip()}")
        raise ToolFailed(f"{who}: {line.strip()}")
