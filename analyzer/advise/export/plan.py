"""What every exporter writes, computed once from the targets: per language, the flags
in an order each target's own order agrees with, each flag under the guard that holds
for exactly the listed compilers that get it.

The guard rule. For one family, flag and language, let ``V`` be the listed majors of
that family and ``S`` those whose target lists the flag.

- ``S == V``: the guard is the compiler id alone (``GNU``/``gcc``, ``Clang``/``clang``):
  every version of the family gets the flag, listed or not.
- otherwise ``S`` is cut into runs of majors adjacent in ``V`` (no listed major
  without the flag between them), and each run ``a..b`` becomes the version range
  ``>= a`` and ``< b + 1``, where a run holding the oldest listed major has no lower
  bound and one holding the newest has no upper bound. A flag new in gcc-12 with gcc-11
  and gcc-12 listed is ``>= 12``; one clang-14 lacks of clang-14, 16 and 19 is ``>= 16``.

So an unlisted version between two listed ones that both get the flag gets it too (a
flag is rarely dropped and added back), one beyond the newest listed behaves as the
newest, one below the oldest as the oldest, and one between a listed version without
the flag and the first with it does not get it (GCC refuses an unknown ``-Wfoo``:
leaving a flag out of a version nobody checked is the safe side).

Targets. Where the list holds compilers of one family for several targets (``gcc-12``
and ``gcc-12@aarch64-linux-gnu``: the flags chosen for each may differ, and the version
cannot tell them apart), the rule above runs per family and target, and each guard names
the target too: a target of another machine holds for a compiler building for that
triple; the family's first target (the host's when listed, else the first triple in
order) holds for every target not listed, its guard being "none of the others". Where
every target of the family takes a flag under the same version ranges, the guard is the
family's alone, as it is for a family listed for one target. How a build tells the
target is each format's (CMake's compiler target or library architecture, Meson's
``host_machine``, ``$(CC) -dumpmachine``).

Order. A target's flags are passed in the target's order (``-Wall -Wno-unused``
differs from the reverse in clang). The flags of all targets of a language are merged
into one sequence that every target's list is a subsequence of, with each entry
guarded for the targets that take it from there: evaluated for one compiler, the
sequence is exactly its list. Where two targets order the same flags differently, the
flag appears twice, under disjoint guards.
"""
from __future__ import annotations

from dataclasses import dataclass

from analyzer.advise.targets import LANGUAGES, Target
from flagdb.names import safe_word
from warnscope.compilers import TRIPLE
from warnscope.errors import BadInput

#: the families an export knows, in the order they are written
FAMILIES = ("gcc", "clang")


@dataclass(frozen=True, order=True)
class Range:
    """Majors ``lo <= major < hi``; ``None`` is an open end."""

    lo: int | None = None
    hi: int | None = None

    @property
    def any(self) -> bool:
        return self.lo is None and self.hi is None


@dataclass(frozen=True, order=True)
class Guard:
    """A family and the version ranges (any of them) that get the flags; where the family
    is listed for several targets, the target too."""

    family: str
    ranges: tuple[Range, ...] = (Range(),)
    #: the triple the compiler must build for; '' for any target but those of ``besides``
    target: str = ""
    #: the other listed targets of the family, for the guard of its first target (which
    #: stands for every target not listed)
    besides: tuple[str, ...] = ()

    @property
    def any_version(self) -> bool:
        return len(self.ranges) == 1 and self.ranges[0].any

    @property
    def any_target(self) -> bool:
        return not self.target and not self.besides

    def holds_for_target(self, target: str) -> bool:
        """Whether a compiler building for ``target`` ('' the host's) meets the target part."""
        return target == self.target if self.target else target not in self.besides


@dataclass(frozen=True)
class Block:
    """Consecutive flags of one language under the same guards (any of them holds)."""

    guards: tuple[Guard, ...]
    flags: tuple[str, ...]


@dataclass(frozen=True)
class Plan:
    targets: tuple[Target, ...]
    #: language -> its blocks, in order
    blocks: dict[str, tuple[Block, ...]]

    @property
    def compilers(self) -> list[str]:
        return [t.compiler for t in self.targets]

    def languages(self) -> list[str]:
        """The languages some target has flags for, in :data:`LANGUAGES` order."""
        return [lang for lang in LANGUAGES if self.blocks.get(lang)]


def checked(targets: list[Target]) -> tuple[Target, ...]:
    """The targets sorted by (family, major, target), each checked: a known family, a
    major, a target triple of safe characters, a known language, flags that are safe
    words; one target per family, major and target."""
    if not targets:
        raise BadInput("no compiler to export flags for")
    seen: dict[tuple[str, int, str], Target] = {}
    for t in targets:
        if t.family not in FAMILIES:
            raise BadInput(f"{t.compiler}: family {t.family!r} cannot be exported "
                           f"(known: {', '.join(FAMILIES)})")
        if not isinstance(t.major, int) or isinstance(t.major, bool) or t.major < 0:
            raise BadInput(f"{t.compiler}: major version {t.major!r} is not a number")
        if not isinstance(t.target, str) or (t.target and not TRIPLE.fullmatch(t.target)):
            raise BadInput(f"{t.compiler}: target {t.target!r} is not a target triple "
                           "(aarch64-linux-gnu)")
        for lang, flags in t.flags.items():
            if lang not in LANGUAGES:
                raise BadInput(f"{t.compiler}: language {lang!r} (known: {', '.join(LANGUAGES)})")
            bad = [f for f in flags if not safe_word(f)]
            if bad:
                raise BadInput(f"{t.compiler}: {bad[0]!r} is not an option a build file can "
                               "hold (a - then letters, digits and # + = , . _ : -)")
            if len(set(flags)) != len(flags):
                twice = next(f for f in flags if flags.count(f) > 1)
                raise BadInput(f"{t.compiler}: {twice} is listed twice for {lang}")
        key = (t.family, t.major, t.target)
        other = seen.get(key)
        if other is not None and _lists(other) != _lists(t):
            for_ = f" for {t.target}" if t.target else ""
            raise BadInput(f"{other.compiler} and {t.compiler} are both {t.family} {t.major}{for_} "
                           "with different flags: a build tells them apart by version and target only")
        seen.setdefault(key, t)
    return tuple(sorted(seen.values(), key=lambda t: (FAMILIES.index(t.family), t.major, t.target)))


def _lists(t: Target) -> dict[str, list[str]]:
    return {lang: t.for_language(lang) for lang in LANGUAGES if t.for_language(lang)}


def ranges(listed: list[int], having: set[int]) -> tuple[Range, ...]:
    """The version ranges holding exactly the majors of ``having`` among ``listed`` (the
    rule in the module's docstring)."""
    majors = sorted(set(listed))
    runs: list[list[int]] = []
    previous_in = False
    for m in majors:
        if m in having:
            if previous_in:
                runs[-1].append(m)
            else:
                runs.append([m])
        previous_in = m in having
    out = []
    for run in runs:
        lo = None if run[0] == majors[0] else run[0]
        hi = None if run[-1] == majors[-1] else run[-1] + 1
        out.append(Range(lo, hi))
    return tuple(out)


def family_targets(targets: tuple[Target, ...], family: str) -> list[str]:
    """The targets ``family`` is listed for, its first (the host's '' when listed) first."""
    return sorted({t.target for t in targets if t.family == family})


def guards(targets: tuple[Target, ...], taking: set[int]) -> tuple[Guard, ...]:
    """The guards of an entry taken by the targets at the indexes ``taking`` (the rule
    of the module's docstring, per family and target)."""
    out = []
    for family in FAMILIES:
        triples = family_targets(targets, family)
        mine = []
        for n, triple in enumerate(triples):
            listed = [t.major for t in targets if t.family == family and t.target == triple]
            having = {targets[i].major for i in taking
                      if targets[i].family == family and targets[i].target == triple}
            if not having:
                continue
            if len(triples) == 1:
                mine.append(Guard(family, ranges(listed, having)))
            elif n == 0:
                mine.append(Guard(family, ranges(listed, having), besides=tuple(triples[1:])))
            else:
                mine.append(Guard(family, ranges(listed, having), target=triple))
        if len(mine) == len(triples) > 1 and len({g.ranges for g in mine}) == 1:
            mine = [Guard(family, mine[0].ranges)]   # every target alike: the family's alone
        out += mine
    return tuple(out)


def merged(lists: list[list[str]]) -> list[tuple[str, set[int]]]:
    """One sequence of (flag, indexes of the lists taking it there) that holds every list
    as the entries taking it: at each step the first list's head (in list order) that
    no list holds later than its head goes next, taken by every list it heads; where
    every head is held later by some list (the lists disagree on order), the first
    head goes next, taken only by the lists it heads."""
    rest = [list(lst) for lst in lists]
    out: list[tuple[str, set[int]]] = []
    while any(rest):
        heads = [lst[0] for lst in rest if lst]
        pick = next((h for h in heads if not any(h in lst[1:] for lst in rest)), heads[0])
        taking = {i for i, lst in enumerate(rest) if lst and lst[0] == pick}
        for i in taking:
            rest[i].pop(0)
        out.append((pick, taking))
    return out


def plan(targets: list[Target]) -> Plan:
    """The blocks of every language (see the module's docstring)."""
    ordered = checked(targets)
    blocks: dict[str, tuple[Block, ...]] = {}
    for lang in LANGUAGES:
        entries = [(flag, guards(ordered, taking))
                   for flag, taking in merged([t.for_language(lang) for t in ordered])]
        grouped: list[Block] = []
        for flag, g in entries:
            if grouped and grouped[-1].guards == g:
                grouped[-1] = Block(g, grouped[-1].flags + (flag,))
            else:
                grouped.append(Block(g, (flag,)))
        blocks[lang] = tuple(grouped)
    return Plan(ordered, blocks)


def flags_for(p: Plan, lang: str, family: str, major: int, target: str = "") -> list[str]:
    """What the plan passes to ``family`` ``major`` building for ``target`` ('' the
    host's) for ``lang``: the blocks evaluated as a build evaluates them (the tests hold
    this equal to each target's own list)."""
    out: list[str] = []
    for block in p.blocks.get(lang, ()):
        if any(g.family == family and g.holds_for_target(target)
               and any((r.lo is None or major >= r.lo) and (r.hi is None or major < r.hi) for r in g.ranges)
               for g in block.guards):
            out += block.flags
    return out


def header_lines(p: Plan, what: str) -> list[str]:
    """The header every format starts with (without its comment marker)."""
    return [f"Generated by `warnscope advise` for {', '.join(p.compilers)}: {what}.",
            "Do not edit: run `warnscope advise` again to change it.",
            "Versions between and beyond those listed: see README, \"Into the build\"."]
