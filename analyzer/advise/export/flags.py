"""``--format flags``: a plain list per compiler and language, one line each::

    gcc-12 c: -Wall -Wextra -Wformat=2
    gcc-12 c++: -Wall -Wextra -Wnon-virtual-dtor

in the targets' order (family, then version); a language no compiler has flags for is
left out, one only some have is an empty line for the others.
"""
from __future__ import annotations

from analyzer.advise.export.plan import Plan, header_lines


def render(p: Plan) -> str:
    lines = ["# " + line for line in header_lines(p, "the flags of each compiler, per language")]
    for t in p.targets:
        for lang in p.languages():
            lines.append(" ".join([f"{t.compiler} {lang}:", *t.for_language(lang)]))
    return "\n".join(lines) + "\n"
