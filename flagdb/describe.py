"""A flag's change between two compilers, in words.

The one wording of a :class:`~flagdb.results.Change`, shared by every renderer that
shows one to people: the CLI's text (``flags diff``, ``demo``) and the report site's
diff pages. It lives with the result type, below both renderers, so that the site
never imports the CLI and the two cannot drift apart.
"""
from __future__ import annotations

from flagdb.results import Change


def describe_change(c: Change) -> str:
    """One changed attribute in words: ``joined -Wall``, ``default changed: off -> on``."""
    old, new = c.old, c.new
    if c.attribute == "in_wall":
        return "joined -Wall" if new else "left -Wall"
    if c.attribute == "in_wextra":
        return "joined -Wextra" if new else "left -Wextra"
    if c.attribute == "ignored":
        return "became a no-op" if new else "no longer a no-op"
    if c.attribute == "removed":
        return "marked removed" if new else "no longer marked removed"
    if c.attribute == "alias_of":
        return f"became an alias of {new}" if new else f"no longer an alias of {old}"
    if c.attribute == "default":
        return f"default changed: {old} -> {new}"
    if c.attribute == "languages":
        return f"languages changed: {' '.join(old)} -> {' '.join(new)}"
    if c.attribute == "description":
        return "description changed"
    if c.attribute == "enables":
        gained = sorted(set(new) - set(old))
        lost = sorted(set(old) - set(new))
        parts = ([f"now enables {', '.join(gained)}"] if gained else []) + (
            [f"no longer enables {', '.join(lost)}"] if lost else [])
        return "; ".join(parts)
    return f"{c.attribute} changed: {old} -> {new}"
