"""Build-overhead studies: what warning flags cost on real projects.

On the build base (:mod:`analyzer.projects`: recipes, the configured copy, the compiler
wrapper, levels): study (clean rebuilds or per-TU replay in rounds, timed, with the
kernel's per-process account) -> store (oh_* tables) -> report (ratios to ``off``).
Debian sources from :mod:`warnscope.apt`.
"""
