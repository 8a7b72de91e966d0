"""``toolchain list``'s text: one line per compiler and where it is."""
from __future__ import annotations

from warnscope.compilers import CompilerId
from warnscope.render import Rendered

from analyzer.runtime.roots import ToolchainEntry, ToolchainStatus


def where(e: ToolchainEntry) -> str:
    """Where a compiler of the listing is, or how ``toolchain add`` would prepare it; for
    another target, why its programs cannot run here where they cannot."""
    return _place(e) + (f"; cannot run here: {e.cannot_run}" if e.cannot_run else "")


def _place(e: ToolchainEntry) -> str:
    if e.status == ToolchainStatus.HOST:
        return "host"
    if e.status == ToolchainStatus.ROOT:
        return f"{e.suite} root, {e.package}"
    if e.status == ToolchainStatus.CROSS:
        return f"cross compiler, {e.path}"
    if e.status == ToolchainStatus.WASM:
        return f"WebAssembly, {e.path} --target={CompilerId.parse(e.compiler).target}, run under Wasmtime"
    if e.status == ToolchainStatus.NAMED:
        return f"named: {e.path} ({e.package})"
    return f"available: toolchain add {e.compiler} (from {e.suite})"


def render_list(entries: list[ToolchainEntry], **_options) -> Rendered:
    """The listing of :func:`analyzer.runtime.toolchain.listing`, a line per compiler
    (nothing at all when it is empty)."""
    return Rendered("\n".join(f"{e.compiler:10} {where(e)}" for e in entries), newline=bool(entries))
