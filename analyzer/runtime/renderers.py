"""The formats of ``toolchain list``, declared once (the protocol: :mod:`warnscope.render`):
each renders the list of :class:`~analyzer.runtime.roots.ToolchainEntry` that
:func:`analyzer.runtime.toolchain.listing` returns."""
from __future__ import annotations

from warnscope.render import Format, Formats

#: ``toolchain list``
LIST = Formats("toolchain list", Format("text", "analyzer.runtime.toolchain_text:render_list"),
               Format("json", "warnscope.render:as_json"))
