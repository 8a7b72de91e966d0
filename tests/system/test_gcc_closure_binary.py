"""What each flag turns on, as the database predicts it, against ``gcc-12 -Q
--help=warnings`` given that flag: every option that turns others on (every level of
a level option, and every alias of one), for C and for C++.

The closure is what ``tree``, ``show`` and ``history`` answer from; this checks its
levels, conditions (``warn_format >= 2``), language limits and aliases against the
binary, one flag at a time.
"""
from __future__ import annotations

import pytest

from flagdb.closure import Index
from analyzer.verify.gcc_q import normalize, predict, query

#: the plain switches GCC maps to a level in its own code, not in the option files
#: (common_handle_option: -Wstrict-aliasing is level 3, -Wstrict-overflow level 2)
LEVEL_IN_CODE = {"-Wstrict-aliasing": "-Wstrict-aliasing=", "-Wstrict-overflow": "-Wstrict-overflow="}


def _typed_parents(index: Index, lang: str) -> list[str]:
    parents = {e.parent for e in index.data.edges}
    typed = []
    for f in index.data.flags:
        if not index.applies(f, lang) or f.ignored or f.removed:
            continue
        target = index.target(f.name)[0]
        if target.name not in parents:
            continue
        rng = f.gcc.range
        if f.takes_argument and rng and f.name.endswith("="):
            lo, hi = rng
            typed += [f"{f.name}{v}" for v in range(lo, hi + 1)]
        elif not f.takes_argument:
            typed.append(f.name)
    return sorted(typed)


@pytest.mark.parametrize("lang", ["C", "C++"])
def test_closure_of_every_parent_matches_the_binary(gcc12, lang, require):
    require("gcc-12")
    index = Index(gcc12)
    typed_flags = _typed_parents(index, lang)
    assert {"-Wall", "-Wextra", "-Wformat=2", "-Wunused", "-Wformat", "-W"} <= set(typed_flags)
    base_actual, base_predicted = query("gcc-12", lang, []), predict(index, lang, [])
    wrong = []
    for typed in typed_flags:
        actual, predicted = query("gcc-12", lang, [typed]), predict(index, lang, [typed])
        for name, state in actual.items():
            expected = predicted.get(name)
            if expected is None or state.startswith("[available in"):
                continue  # decided in code, or listed for another front end only
            if LEVEL_IN_CODE.get(typed) == name:
                continue
            changed = state != base_actual.get(name) or expected != base_predicted.get(name)
            if changed and normalize(expected) != normalize(state):
                wrong.append(f"{typed}: {name} predicted {expected!r}, binary {state!r}")
    assert wrong == []
