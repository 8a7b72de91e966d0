"""``ub why --compilers``: how a row says the cause in a few words, and what it says
against the version before (:mod:`analyzer.ub.why.why_table`), on causes as the search
returns them."""
from __future__ import annotations

from analyzer.ub.results import Cause, GuardCheck, Outcome, PassChange, Probe, WhyStatus
from analyzer.ub.why.why_table import WhyRow, change, guards, what


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
    assert same.change == "same cause as gcc-11"
    crash = row(cause("gcc-15", flags=["-fno-tree-vrp"], observed="crash (signal 11)"), same)
    assert crash.change == "same cause as gcc-12; -O2 behaviour changes (was: hang)"
    other = row(cause("gcc-16", flags=["-fno-aggressive-loop-optimizations"], restoring=()),
                crash)
    assert other.change == ("cause changes from gcc-15 (was: -fno-tree-vrp); -O2 behaviour "
                            "changes (was: crash (signal 11)); guards change (was: -fwrapv)")


def clang(compiler: str, names: tuple[str, ...], afters: tuple[str, ...]) -> Cause:
    passes = [PassChange(i + 7, n, "main", "main", "", a) for i, (n, a) in enumerate(zip(names, afters))]
    return cause(compiler, passes=passes, observed=afters[-1])


def test_a_pass_is_compared_by_its_name_whatever_the_spelling():
    old = row(clang("clang-11", ("Early CSE",), ("hang",)))
    new_pm = row(clang("clang-13", ("EarlyCSEPass", "LoopDeletionPass"), ("hang", "exit 48")), old)
    assert new_pm.change.startswith("cause changes from clang-11 (was: Early CSE on main -> hang)")
    # the same passes, the last one's outcome aside: the same cause, another behaviour
    exit232 = row(clang("clang-21", ("EarlyCSEPass", "LoopDeletionPass"), ("hang", "exit 232")), new_pm)
    assert exit232.change == "same cause as clang-13; -O2 behaviour changes (was: exit 48)"
    spelt = row(clang("clang-22", ("early-cse", "loop-deletion"), ("hang", "exit 232")), exit232)
    assert spelt.change == ("same cause as clang-21; passes spelt early-cse, loop-deletion "
                            "(was: EarlyCSEPass, LoopDeletionPass)")
    # an earlier pass that makes something else of the program is another cause
    crash = row(clang("clang-23", ("early-cse", "loop-deletion"), ("crash", "exit 232")), spelt)
    assert crash.change.startswith("cause changes from clang-22")
