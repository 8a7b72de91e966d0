"""``toolchain list``'s text: one line per compiler and where it is."""
from __future__ import annotations

from warnscope.render import Rendered

from analyzer.runtime.roots import ToolchainEntry, ToolchainStatus


def where(e: ToolchainEntry) -> str:
    """Where a compiler of the listing is, or how ``toolchain add`` would prepare it."""
    if e.status == ToolchainStatus.HOST:
        return "host"
    if e.status == ToolchainStatus.ROOT:
        return f"{e.suite} root, {e.package}"
    if e.status == ToolchainStatus.CROSS:
        return f"cross compiler, {e.path}"
    if e.status == ToolchainStatus.WASM:
        return f"WebAssembly, {e.path} --target={e.compiler.partition('@')[2]}, run under Wasmtime" + \
            (f"; cannot run here: {e.cannot_run}" if e.cannot_run else "")
    if e.status == ToolchainStatus.NAMED:
        return f"named: {e.path} ({e.package})"
    return f"available: toolchain add {e.compiler} (from {e.suite})"


def render_list(entries: list[ToolchainEntry], **_options) -> Rendered:
    """The listing of :func:`analyzer.runtime.toolchain.listing`, a line per compiler
    (nothing at all when it is empty)."""
    return Rendered("\n".join(f"{e.compiler:10} {where(e)}" for e in entries), newline=bool(entries))
