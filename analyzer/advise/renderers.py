"""The formats of ``warnscope advise``, each declared once (the protocol:
:mod:`warnscope.render`): every one renders the same :class:`~analyzer.advise.results.Advice`
-- its text, its JSON, or the chosen set written for a build (one module per build
format, :mod:`analyzer.advise.export`). A new format is its renderer and one line below."""
from __future__ import annotations

from warnscope.render import Format, Formats

#: ``advise --format``, in the order the option lists them
ADVICE = Formats("advise",
                 Format("text", "analyzer.advise.text:render_advice"),
                 Format("json", "warnscope.render:as_json"),
                 Format("cmake", "analyzer.advise.export:as_cmake"),
                 Format("meson", "analyzer.advise.export:as_meson"),
                 Format("make", "analyzer.advise.export:as_make"),
                 Format("flags", "analyzer.advise.export:as_flags"))
