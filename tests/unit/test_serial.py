"""The one JSON serialisation (warnscope.serial): dataclasses, enums, sets, and keys
that exist only with a value (a failed cell's ``error``)."""
from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field

from warnscope.serial import OPTIONAL, dumps, plain, to_json


class Colour(enum.Enum):
    RED = "red"


@dataclass(frozen=True)
class Inner:
    colour: Colour
    names: frozenset[str]


@dataclass(frozen=True)
class Outer:
    n: int
    inner: list[Inner]
    pair: tuple[int, int]
    error: str | None = field(default=None, metadata=OPTIONAL)
    note: str | None = None


def test_every_form_gives_the_same_data():
    value = [Outer(1, [Inner(Colour.RED, frozenset({"b", "a"}))], (1, 2)),
             Outer(2, [], (3, 4), error="failed")]
    expected = [{"n": 1, "inner": [{"colour": "red", "names": ["a", "b"]}], "pair": [1, 2],
                 "note": None},
                {"n": 2, "inner": [], "pair": [3, 4], "error": "failed", "note": None}]
    assert json.loads(to_json(value)) == expected
    assert json.loads(dumps(value)) == expected
    assert plain(value) == expected
    # an optional key is left out while None, an ordinary one is written as null
    assert '"error"' not in to_json(value[0]) and '"note": null' in to_json(value[0])
