"""``ub why --compilers``: how a row says the cause in a few words, and what it says
against the version before (:mod:`analyzer.ub.why_table`), on causes as the search
returns them."""
from __future__ import annotations

from analyzer.ub.results import Cause, GuardCheck, Outcome, PassChange, Probe, WhyStatus
from analyzer.ub.why_table import WhyRow, change, guards, what


def probe(outcome: Outcome, said: str) -> Probe:
    return Probe(flags=[], outcome=outcome, behaviour=said, exit=None, signal=None,
                 stdout="", said=said)


def cause(compiler: str, *, flags=(), passes=(), observed="hang", restoring=("-fwrapv",),
          status=WhyStatus.EXPLAINED, reason="") -> Cause:
    return Cause(case="signed-integer-overflow/loop", compiler=compiler, compiler_version="",
                 level="-O2", cell_flags="", status=status, reason=reason, method="flags",
                 baseline=probe(Outcome.EXPECTED, "prints '3'"),
                 observed=probe(Outcome.HANG, observed), flags=list(flags),
                 passes=list(passes), passes_total=0, flags_total=0,
                 guards=[GuardCheck(g, g in restoring, "") for g in ("-fwrapv", "-fno-strict-aliasing")],
                 probes=20, bound=41)


def row(c: Cause, before: WhyRow | None = None) -> WhyRow:
    r = WhyRow(compiler=c.compiler, cause=c, what=what(c), guards=guards(c), change="")
    return WhyRow(r.compiler, r.cause, r.what, r.guards, change(r, before))


def test_the_cause_in_a_few_words():
    assert what(cause("gcc-12", flags=["-fno-tree-vrp"])) == "-fno-tree-vrp"
    clang = cause("clang-16", passes=[
        PassChange(7, "EarlyCSEPass", "main", "main", "prints '3'", "hang"),
        PassChange(45, "LoopDeletionPass", "<unnamed loop>", "main", "hang", "exit 48")])
    assert what(clang) == "EarlyCSEPass on main -> hang; LoopDeletionPass on a loop in main -> exit 48"
    gcc_pass = cause("gcc-16", passes=[PassChange(3, "tree-vrp1", "", "", "", "",
                                                  switch="-fdisable-tree-vrp1")])
    assert what(gcc_pass) == "-fdisable-tree-vrp1"
    unknown = cause("clang-9", status=WhyStatus.UNKNOWN, reason="no opt-bisect")
    assert what(unknown) == "cause unknown: no opt-bisect"
    assert guards(cause("gcc-12", restoring=())) == "none"


def test_a_row_says_where_the_cause_changes():
    first = row(cause("gcc-11", flags=["-fno-tree-vrp"]))
    assert first.change == ""
    same = row(cause("gcc-12", flags=["-fno-tree-vrp"]), first)
    assert same.change == "same as gcc-11"
    other = row(cause("gcc-13", flags=["-fno-aggressive-loop-optimizations"],
                      observed="crash (signal 11)", restoring=()), same)
    assert other.change == ("changes from gcc-12: cause (was: -fno-tree-vrp); -O2 behaviour "
                            "(was: hang); guards (was: -fwrapv)")
