"""The fourth family: every diagnostic of real projects' builds, per compiler version
and warning level, in structured form (``warnscope warnings ...``).

results (its types), formats (which format a compiler is asked for, read by
:mod:`warnscope.diagnostics`, one module per output format), runner (builds through the
build base, :mod:`analyzer.projects`, in parallel), store (all its SQL), queries (report, diff,
top, show).
"""
