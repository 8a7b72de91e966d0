"""The formats of ``overhead report`` (and ``overhead run``'s table, ``calibrate``'s and
``attribute``'s), each declared once
(the protocol: :mod:`warnscope.render`): every one renders the same
:class:`~analyzer.overhead.results.OverheadReport`, one module per format. A new format
is its module and one line below."""
from __future__ import annotations

from warnscope.render import Format, Formats

#: ``overhead projects``: the project recipes
PROJECTS = Formats("overhead projects", Format("text", "analyzer.overhead.text:render_projects"),
                   Format("json", "warnscope.render:as_json"))
#: ``overhead run``: the study's cells just run
RUN = Formats("overhead run", Format("text", "analyzer.overhead.text:render_run"),
              Format("json", "warnscope.render:as_json"))
#: ``overhead report --format``, in the order the option lists them
REPORT = Formats("overhead report",
                 Format("text", "analyzer.overhead.text:render"),
                 Format("csv", "analyzer.overhead.csvreport:render"),
                 Format("json", "warnscope.render:as_json"),
                 Format("markdown", "analyzer.overhead.markdown:render"))
#: ``overhead calibrate``: the idle and loaded conditions measured
CALIBRATE = Formats("overhead calibrate", Format("text", "analyzer.overhead.text:render_calibration"),
                    Format("json", "warnscope.render:as_json"))
#: ``overhead attribute``: which flags carry the cost
ATTRIBUTE = Formats("overhead attribute", Format("text", "analyzer.overhead.text:render_attribution"),
                    Format("json", "warnscope.render:as_json"))
