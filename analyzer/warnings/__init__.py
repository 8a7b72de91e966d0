"""The fourth family: every diagnostic of real projects' builds, per compiler version
and warning level, in structured form (``warnscope warnings ...``).

results (its types), parse_gcc_json / parse_sarif / parse_text (one module per output
format), formats (which format a compiler is asked for), runner (builds through the
overhead machinery, in parallel), store (all its SQL), queries (report, diff, top, show).
"""
