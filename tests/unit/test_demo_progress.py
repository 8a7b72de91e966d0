"""``warnscope demo`` shows the UB run's progress through the one progress protocol
(:mod:`analyzer.progress`): the runner's ``(done, total)`` reports become announced
steps and advances, each step counted once."""
from __future__ import annotations

from analyzer.cli.demo import counted


class Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    def __call__(self, message: str) -> None:
        self.calls.append(("message", message))

    def add_total(self, steps: int) -> None:
        self.calls.append(("add_total", steps))

    def advance(self, steps: int = 1) -> None:
        self.calls.append(("advance", steps))

    def close(self) -> None:
        self.calls.append(("close", 0))


def test_done_and_total_become_steps_counted_once():
    rec = Recorder()
    update = counted(rec)
    for done, total in ((0, 10), (3, 10), (3, 10), (10, 10)):
        update(done, total)
    assert rec.calls == [("add_total", 10), ("advance", 3), ("advance", 7)]


def test_nothing_to_run_announces_nothing():
    rec = Recorder()
    counted(rec)(0, 0)
    assert rec.calls == []
