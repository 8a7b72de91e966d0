"""Build-overhead studies: what warning flags cost on real projects.

recipes (what to build) -> study (configure, clean rebuilds or per-TU replay, timed
through process and the compiler wrapper) -> store (oh_* tables) -> report (ratios
to ``off``). The flags of each level come from levels (GCC's ``all`` from the flag
database); Debian sources from :mod:`warnscope.apt`.
"""
