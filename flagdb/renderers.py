"""The formats of the ``flags`` commands that read the flag database alone, each declared
once (the protocol: :mod:`warnscope.render`): a command reads its entry here and prints
what the renderer gives of the query's result (:mod:`flagdb.results`). ``flags show``
and ``flags history``, which also say where a flag fired in real builds, are the
warnings family's (:mod:`analyzer.warnings.renderers`); ``flags verify`` the verifier's
(:mod:`analyzer.verify.renderers`)."""
from __future__ import annotations

from warnscope.render import Format, Formats

JSON = Format("json", "warnscope.render:as_json")

#: ``flags versions``
VERSIONS = Formats("flags versions", Format("text", "flagdb.text:render_versions"), JSON)
#: ``flags since``
SINCE = Formats("flags since", Format("text", "flagdb.text:render_since"), JSON)
#: ``flags list``
LIST = Formats("flags list", Format("text", "flagdb.text:render_list"), JSON)
#: ``flags tree``
TREE = Formats("flags tree", Format("text", "flagdb.text:render_tree"), JSON)
#: ``flags diff``
DIFF = Formats("flags diff", Format("text", "flagdb.text:render_diff"), JSON)
#: ``flags check``
CHECK = Formats("flags check", Format("text", "flagdb.text:render_check"), JSON)
#: ``flags check --portable``: the flags every compiler knows
PORTABLE = Formats("flags check --portable", Format("text", "flagdb.text:render_words"), JSON)
#: ``flags everything``
EVERYTHING = Formats("flags everything", Format("text", "flagdb.text:render_words"), JSON)
#: ``flags messages``
MESSAGES = Formats("flags messages", Format("text", "flagdb.text:render_messages"), JSON)
#: ``flags export --format``: its list is the text (the JSON reads the flags listed)
EXPORT = Formats("flags export", Format("list", "flagdb.text:render_export"),
                 Format("json", "warnscope.render:as_json", "flagdb.views:list_flags"))
