"""Turning runs of a program into one outcome per cell, and cells into divergence.

Outcome of one run, in this order of precedence:

* ``hang``: killed at the wall-clock or CPU limit;
* ``crash``: ended by a signal, or by a WebAssembly trap (``integer-overflow``,
  ``memory-out-of-bounds``, ...: :mod:`analyzer.sandbox.wasm`), or never started for the
  memory its program needs at once (a wasm32 program's static data above the limit);
* ``unexpected-output``: stdout was cut at the cap, or is none of the expected outputs;
* ``nonzero-exit``: exit status other than the case's ``exit`` (default 0);
* ``expected``: right exit status and stdout equal to one of the expected outputs;
* ``completed``: right exit status, and the case has no expected output to compare.

A cell runs the program more than once; if the runs disagree, the cell is
``nondeterministic``. A program that does not compile or link is
``compile-error``. ``exploited`` is true when the outcome is not ``expected``,
and unknown (None) for a case without expected output and for a compile error
(there was no program to exploit anything).

A case diverges when its cells fall into more than one behaviour class: the
outcome, with ``completed`` and ``unexpected-output`` told apart by their stdout.
Compile errors are not behaviour: a program that only some compilers build does
not diverge for that reason alone.

A trap reaches no handler of the program, so where the program as written traps on its
target, its expected output there says so: what it printed, then ``trap: CODE`` on a line
of its own (``trap: integer-overflow``: ``INT_MIN / -1`` on wasm32, where x86-64's handler
prints ``SIGFPE``); a trap that is none of the expected outputs is a ``crash``. A cell
keeps a trapped run's output in that form too (:func:`said`), so the reports show which trap.

The expected outputs are those of the architecture the program ran on (``arch``: the
first part of the compiler's target triple, or the whole triple; '' for the host):
``Case.expected_on`` gives a case's ``NAME.aarch64.output`` there, its plain outputs
elsewhere.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

from analyzer.sandbox.limits import RunResult, SandboxStatus
from analyzer.ub.corpus import Case
from analyzer.ub.results import Outcome

@dataclass(frozen=True)
class Classification:
    outcome: Outcome
    exploited: bool | None
    behaviour: str


def run_outcome(case: Case, run: RunResult, arch: str = "") -> Outcome:
    """The outcome of one run on ``arch`` (see the module docstring)."""
    if run.status == SandboxStatus.TIMEOUT:
        return Outcome.HANG
    if run.status == SandboxStatus.TRAP:
        return Outcome.EXPECTED if said(run) in case.expected_on(arch) else Outcome.CRASH
    if run.status == SandboxStatus.SIGNAL and (run.signal is not None or run.limit == "memory"):
        return Outcome.CRASH
    if run.truncated:
        return Outcome.UNEXPECTED_OUTPUT
    if run.exit != case.exit:
        return Outcome.NONZERO_EXIT
    expected = case.expected_on(arch)
    if not expected:
        return Outcome.COMPLETED
    return Outcome.EXPECTED if run.stdout in expected else Outcome.UNEXPECTED_OUTPUT


def classify(case: Case, runs: list[RunResult], arch: str = "") -> Classification:
    """One verdict for a cell from its runs (at least one) on ``arch`` ('' the host)."""
    outcomes = [run_outcome(case, r, arch) for r in runs]
    signatures = {_signature(o, r) for o, r in zip(outcomes, runs)}
    outcome = outcomes[0] if len(signatures) == 1 else Outcome.NONDETERMINISTIC
    return verdict(case, outcome, said(runs[0]), arch)


def verdict(case: Case, outcome: Outcome, stdout: bytes = b"", arch: str = "") -> Classification:
    """The verdict of a cell's outcome on ``arch`` ('' the host)."""
    exploited = (None if not case.expected_on(arch) or outcome is Outcome.COMPILE_ERROR
                 else outcome is not Outcome.EXPECTED)
    behaviour = str(outcome)
    if outcome in (Outcome.COMPLETED, Outcome.UNEXPECTED_OUTPUT):
        behaviour += ":" + hashlib.sha256(stdout).hexdigest()[:12]
    return Classification(outcome=outcome, exploited=exploited, behaviour=behaviour)


def diverges(behaviours: list[str]) -> bool:
    """A case diverges when its cells show more than one behaviour class."""
    return len(set(behaviours) - {Outcome.COMPILE_ERROR}) > 1


def _signature(outcome: Outcome, run: RunResult) -> tuple:
    """What must agree between runs of one cell. A hang's partial output may differ."""
    if outcome is Outcome.HANG:
        return (outcome,)
    return (outcome, run.exit, run.signal, said(run))


def said(run: RunResult) -> bytes:
    """What a run said, as an expected output holds it and a cell keeps it: its stdout,
    and after it, for a run a WebAssembly trap ended, ``trap: CODE`` on a line of its own."""
    if run.status != SandboxStatus.TRAP:
        return run.stdout
    return run.stdout + b"trap: " + str(_trap(run)).encode() + b"\n"


def _trap(run: RunResult) -> str | None:
    """The WebAssembly trap that ended ``run`` (a wasm run's result), None for any other."""
    return getattr(run, "trap", None)
