"""The formats of ``flags closure``, declared once (the protocol: :mod:`warnscope.render`):
each renders a :class:`~analyzer.gccplugin.closure_text.Closure`."""
from __future__ import annotations

from warnscope.render import Format, Formats

#: ``flags closure``
CLOSURE = Formats("flags closure", Format("text", "analyzer.gccplugin.closure_text:render"),
                  Format("json", "analyzer.gccplugin.closure_text:render_json"))
