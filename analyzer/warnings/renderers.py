"""The formats of the warnings family's commands, each declared once (the protocol:
:mod:`warnscope.render`): a command reads ``--format``'s entry here, builds what it reads
(its own query, or the format's: a SARIF log reads the builds too) and prints what its
renderer gives. A new format is its renderer and one line below."""
from __future__ import annotations

from warnscope.render import Format, Formats

JSON = Format("json", "warnscope.render:as_json")

#: ``warnings run``: the builds just run
RUN = Formats("warnings run", Format("text", "analyzer.warnings.text:render_run"), JSON)
#: ``warnings report``
REPORT = Formats("warnings report", Format("text", "analyzer.warnings.text:render_report"), JSON,
                 Format("sarif", "analyzer.warnings.sarif:render_report",
                        "analyzer.warnings.queries:report_builds"))
#: ``warnings diff``
DIFF = Formats("warnings diff", Format("text", "analyzer.warnings.text:render_diff"), JSON,
               Format("sarif", "analyzer.warnings.sarif:render_diff", "analyzer.warnings.queries:diff_builds"))
#: ``warnings top``
TOP = Formats("warnings top", Format("text", "analyzer.warnings.text:render_top"), JSON)
#: ``warnings show``
SHOW = Formats("warnings show", Format("text", "analyzer.warnings.text:render_show"), JSON)
#: ``warnscope upgrade``
UPGRADE = Formats("upgrade", Format("text", "analyzer.warnings.upgrade_text:render", newline=False), JSON,
                  Format("sarif", "analyzer.warnings.sarif:render_upgrade",
                         "analyzer.warnings.queries:upgrade_builds"))
#: ``warnscope rebuild``: the summary of many projects' upgrades
REBUILD = Formats("rebuild", Format("text", "analyzer.warnings.rebuild_text:render", newline=False), JSON)
#: ``flags show``: a flag, and where it fired in the stored builds
FLAG_SHOW = Formats("flags show", Format("text", "analyzer.warnings.text:render_flag_show"), JSON)
#: ``flags history``: a flag across versions, and where it fired in each
FLAG_HISTORY = Formats("flags history", Format("text", "analyzer.warnings.text:render_flag_history"), JSON)
