"""Typo suggestions: the known flag name closest to one a user typed.

``flags show`` and ``flags tree`` name the closest flag in their error ("did you mean
-Wshadow?"), and ``flags check`` in its ``suggestion``. Only strings are compared
here; which spelling of a flag to compare (its positive form, without its value) is
the caller's knowledge (:meth:`flagdb.closure.Index.suggest`).
"""
from __future__ import annotations

from collections import Counter, defaultdict
from itertools import islice
from operator import add


def _bigrams(text: str) -> set[str]:
    """The pairs of adjacent characters in ``text``."""
    return set(map(add, text, text[1:]))


def spellings(names: set[str]) -> dict[str, str]:
    """Name without a trailing ``=`` -> the name as stored (``-Wframe-larger-than=``);
    the plain switch wins where both exist (``-Wnormalized``, ``-Wnormalized=``)."""
    return {n.rstrip("="): n for n in sorted(names, reverse=True)}


class Suggester:
    """Typo suggestions ("did you mean -Wshadow?") over the flag names of one or more
    compilers.

    Candidates come from an index of character pairs (pairs shared by more than a
    quarter of the names, such as ``-W``, are left out of it); only the best few go
    through difflib's sequence matching, which is what costs. One suggester serves
    every compiler of a ``check``: their names mostly overlap, so the pair counts and
    the match scores of a typed flag are computed once, not once per compiler.
    """

    #: how many pair-index candidates go through sequence matching
    CANDIDATES = 12
    #: difflib ratio a name needs to be suggested (``get_close_matches``' cutoff)
    CUTOFF = 0.75

    def __init__(self, names: set[str]):
        self.names = names
        self.spelled: dict[str, str] = {}
        #: character pair -> the names holding it, alphabetical; built at the first typo
        self._grams: dict[str, list[str]] | None = None
        #: typed base -> names sharing character pairs with it, most shared first
        self._ranked: dict[str, list[str]] = {}
        self._scores: dict[tuple[str, str], float] = {}
        self._matchers: dict = {}  # typed base -> difflib.SequenceMatcher

    def _index(self) -> dict[str, list[str]]:
        """The pair index, built at the first typo: a check of known flags never needs it."""
        if self._grams is None:
            self.spelled = spellings(self.names)
            sorted_names = sorted(self.spelled)
            grams: dict[str, list[str]] = defaultdict(list)
            for name in sorted_names:
                for gram in _bigrams(name):
                    grams[gram].append(name)
            common = len(sorted_names) // 4
            self._grams = {g: ns for g, ns in grams.items() if len(ns) <= common}
        return self._grams

    def closest(self, base: str, known: dict[str, str] | None = None) -> str | None:
        """The known name closest to ``base``, if close enough to be a typo.

        ``base`` is a flag as typed without its value and in its positive form
        (``-Wshadwo`` for ``-Wno-shadwo=local``: the caller knows the spelling rules,
        this class only compares strings). ``known`` (one compiler's :func:`spellings`)
        limits the answer to that compiler.
        """
        ranked = self._ranked.get(base)
        if ranked is None:
            counts: Counter = Counter()
            grams = self._index()
            for gram in sorted(_bigrams(base)):  # a fixed order, so ties never depend on hashing
                counts.update(grams.get(gram, ()))
            ranked = self._ranked[base] = [name for name, _ in counts.most_common()]
        if known is not None:
            ranked = (n for n in ranked if n in known)
        candidates = list(islice(ranked, self.CANDIDATES))
        scored = [(self._score(base, n), n) for n in candidates]
        best = max(scored, default=(0.0, None))
        if best[0] < self.CUTOFF:
            return None
        return (self.spelled if known is None else known)[best[1]]

    def _score(self, base: str, name: str) -> float:
        """difflib's similarity ratio as ``get_close_matches`` computes it (0 below the cutoff)."""
        key = (base, name)
        if key not in self._scores:
            m = self._matchers.get(base)
            if m is None:
                from difflib import SequenceMatcher  # only typos pay for loading difflib

                m = self._matchers[base] = SequenceMatcher(None, "", base)
            m.set_seq1(name)
            score = 0.0
            if m.real_quick_ratio() >= self.CUTOFF and m.quick_ratio() >= self.CUTOFF:
                score = m.ratio()
            self._scores[key] = score if score >= self.CUTOFF else 0.0
        return self._scores[key]
