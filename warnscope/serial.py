"""The one JSON serialisation of warnscope's results, for every family.

Every query returns dataclasses; ``--json`` prints :func:`to_json` of them, the site
writes the same data with :func:`dumps`, and the text and HTML renderers read the
objects themselves, so a field renamed in a result type changes all of them at once
and nothing ever parses rendered text.

``json.dumps`` walks lists, dicts and strings at C speed and calls :func:`plain_one`
only for the dataclasses and enums it meets, so the site's tens of thousands of values
cost one Python call per object, not per value.
"""
from __future__ import annotations

import dataclasses
import enum
import functools
import json
from typing import Any


#: field metadata of a key that JSON leaves out while its value is None (a cell's
#: ``error`` exists only for a failed cell): ``field(default=None, metadata=OPTIONAL)``
OPTIONAL = {"json": "omit-none"}
#: field metadata of what only the text and HTML renderers show (a sentence computed
#: from fields that JSON holds): ``field(default="", metadata=TEXT_ONLY)``
TEXT_ONLY = {"json": "omit"}


@functools.lru_cache(maxsize=None)
def _layout(cls: type) -> tuple[tuple[str, ...], frozenset[str]]:
    """The fields of a result dataclass that JSON holds, in declaration order (all but
    :data:`TEXT_ONLY` ones), and those of them left out while None (:data:`OPTIONAL`):
    computed once per class, not per object."""
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"{cls.__name__} is not a result type")
    fields = [f for f in dataclasses.fields(cls) if f.metadata.get("json") != "omit"]
    return (tuple(f.name for f in fields),
            frozenset(f.name for f in fields if f.metadata.get("json") == "omit-none"))


def _fields(value: Any) -> dict[str, Any]:
    """A dataclass as the dict of the fields JSON holds (values as they are)."""
    names, optional = _layout(type(value))
    out = {name: getattr(value, name) for name in names}
    for name in optional:
        if out[name] is None:
            del out[name]
    return out


def plain_one(value: Any) -> Any:
    """One level of :func:`plain`: a dataclass as a dict of its fields, an enum as its
    value, a set or frozenset as a sorted list (``json.dumps``'s ``default``)."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    return _fields(value)


def plain(value: Any) -> Any:
    """Dataclasses, enums and tuples as JSON's plain values, recursively."""
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: plain(item) for name, item in _fields(value).items()}
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(plain(v) for v in value)
    return value


def to_json(value: Any) -> str:
    """``--json``: the results, indented for people and diff."""
    return json.dumps(value, indent=2, default=plain_one)


def dumps(value: Any) -> str:
    """The site's JSON beside each page: the same data, compact."""
    return json.dumps(value, separators=(",", ":"), default=plain_one)
