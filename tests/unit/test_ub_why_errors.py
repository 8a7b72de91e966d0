"""``ub why``: which errors stop a cell's search as "cause unknown" (a tool it needs is
missing, fails or times out; the sandbox cannot run it) and which end the command as
themselves (bad input, the database): those are no cause of the cell's behaviour and
must not be stored as one."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from analyzer.sandbox.limits import SandboxError
from analyzer.ub.results import WhyStatus
from analyzer.ub.why.why import search
from warnscope.errors import BadInput, DatabaseBusy, NotInstalled, ToolTimeout


class Failing:
    """A prober whose first build ends in ``exc`` (what :class:`analyzer.ub.why.why.Prober`
    raises through from the compile and the sandbox)."""

    def __init__(self, exc: Exception):
        self.exc, self.level, self.cell_flags, self.seen, self.spent = exc, "-O2", (), {}, 0
        self.case = SimpleNamespace(id="signed-integer-overflow/loop")
        self.compiler = SimpleNamespace(name="gcc-12", version="12.2.0", family="gcc")

    def __call__(self, extra, level=None):
        raise self.exc


@pytest.mark.parametrize("exc", [ToolTimeout("gcc-12 -fdump-passes did not answer within 60 s"),
                                 NotInstalled("objdump is not installed"),
                                 SandboxError("sandbox: cannot\n  mount /proc")])
def test_a_tool_or_the_sandbox_failing_is_an_unknown_cause_saying_why(exc):
    cause = search(Failing(exc))
    assert cause.status is WhyStatus.UNKNOWN
    assert cause.reason == " ".join(str(exc).split())
    assert cause.baseline is None and cause.flags == [] and cause.passes == []


@pytest.mark.parametrize("exc", [DatabaseBusy("warnscope.db: busy"), BadInput("unknown optimization level")])
def test_an_error_that_is_not_the_tools_ends_the_search_as_itself(exc):
    with pytest.raises(type(exc)):
        search(Failing(exc))
