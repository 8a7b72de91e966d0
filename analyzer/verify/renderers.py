"""The formats of ``flags verify``, declared once (the protocol: :mod:`warnscope.render`):
the text of a :class:`~analyzer.verify.report.VerifyReport`, and its JSON, which reads
the result the report gives (whether it is clean, every finding)."""
from __future__ import annotations

from warnscope.render import Format, Formats

#: ``flags verify``
VERIFY = Formats("flags verify", Format("text", "analyzer.verify.text:render"),
                 Format("json", "warnscope.render:as_json", "analyzer.verify.report:result_of"))
