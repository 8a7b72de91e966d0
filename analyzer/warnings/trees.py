"""Where a stored build's pristine tree is, for the places its diagnostics name: read from
the build (its origin), never from the database, so the renderers that show source lines
(the SARIF logs) need no query of their own."""
from __future__ import annotations

from pathlib import Path

from analyzer.warnings.results import Build


def source_root(build: Build) -> Path | None:
    """The pristine tree a build was made from, where it still is (a Debian package's
    extracted tree in the cache, a local tree's path); never fetched for a question.
    The origin is the database's word: only a tree in warnscope's cache or one this
    user's warnscope built is used (:func:`warnscope.trusted_roots.confined`)."""
    from warnscope.paths import cache_dir
    from warnscope.trusted_roots import confined

    return confined(build.origin, cache_dir("apt") / "trees")
