"""The formats of the UB family's commands, each declared once (the protocol:
:mod:`warnscope.render`): a command reads ``--format``'s entry here and prints what its
renderer gives of the command's typed report. A new format is its renderer and one line
below."""
from __future__ import annotations

from warnscope.render import Format, Formats

JSON = Format("json", "warnscope.render:as_json")

#: ``ub run``: its closing lines, or the run's cells (which the JSON reads)
RUN = Formats("ub run", Format("text", "analyzer.ub.report_text:render_run"),
              Format("json", "warnscope.render:as_json", "analyzer.ub.report:run_cells"))
#: ``ub report``: the matrix and each case's detail
REPORT = Formats("ub report", Format("text", "analyzer.ub.report_text:render", newline=False), JSON)
#: the demo's section on targets: which divergences come from the target
BY_TARGET = Formats("ub report by target",
                    Format("text", "analyzer.ub.report_text:render_targets", newline=False))
#: ``ub explain``: a case's generated code
EXPLAIN = Formats("ub explain", Format("text", "analyzer.ub.explain.explain_text:render", newline=False), JSON)
#: ``ub why``: one cell's cause
WHY = Formats("ub why", Format("text", "analyzer.ub.why.why_text:render", newline=False), JSON)
#: ``ub why --compilers``: the cause per version
WHY_TABLE = Formats("ub why --compilers", Format("text", "analyzer.ub.why.why_text:render_table", newline=False),
                    JSON)
#: ``ub detectors``
DETECTORS = Formats("ub detectors", Format("text", "analyzer.ub.detectors.scores:render_report"),
                    Format("json", "analyzer.ub.detectors.scores:render_json"),
                    Format("sarif", "analyzer.ub.detectors.sarif:render_report"))
