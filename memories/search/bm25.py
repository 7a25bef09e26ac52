"""BM25 of one query over the rows of a mask (``memories.search.visible``) of a workspace index.

The statistics are those of the readable notes only (document frequency counted within the mask,
average length of the readable notes and the extras), the same numbers as ``hybrid.rank``'s
``LexicalIndex``. Only the postings of the query's terms are read; each term's visible postings
and its BM25 part are kept on the mask (``Visible.remember``: same mask, term, weight and
statistics, same numbers).

Two ways to add the parts up, the same sums (each row's parts added in the same order):

* ``union()``: the rows holding a query word and their scores, as arrays (exact ranking, and a
  ranking by words alone);
* ``dense()``: the sums left in the index's scratch row of scores, for a search that asks the ANN
  graph (``memories.search.ranked._semantic_ann``) and so needs the score of a few rows, the
  best score, and the rows above a threshold, but never the list of every row with a word (at
  1,000,000 notes of ``benchmarks/bench_scale.py`` half the rows hold one of the query's words).
"""

from __future__ import annotations

import math
from contextlib import contextmanager

import numpy as np

from memories.search.fulltext import K1, B, query_terms
from memories.search.hybrid import Signals
from memories.search.visible import Visible

NO_ROWS = np.zeros(0, dtype=np.int64)
NO_SCORES = np.zeros(0, dtype=np.float64)


class QueryScores:
    """BM25 of ``query`` over ``visible`` and ``extras``: ``parts``, per matched term its visible
    rows (ascending) and their BM25 parts; ``extra_scores``, the score of each extra."""

    def __init__(self, index, visible: Visible, extras: list[Signals], query: str):
        self.index, self.visible, self.extras = index, visible, extras
        self.parts: list[tuple[np.ndarray, np.ndarray]] = []
        self.extra_scores = [0.0] * len(extras)
        self._union: tuple[np.ndarray, np.ndarray] | None = None
        count = visible.count + len(extras)
        if not count:
            return
        total = visible.length + sum(e.terms.length for e in extras)
        average = (total / count) or 1.0
        weights: dict[str, float] = {}
        for term in query_terms(query):
            if self._document_frequency(term):
                weights[term] = 1.0
                continue
            for other, discount in index.word_index().near(term, keep=self._known):
                if discount > weights.get(other, 0.0):
                    weights[other] = discount
        for term, weight in weights.items():
            rows, counts, extra_counts = self._postings(term)
            frequency = len(rows) + sum(1 for c in extra_counts if c)
            idf = weight * math.log(1 + (count - frequency + 0.5) / (frequency + 0.5))
            if len(rows):
                key = ("bm25", term, idf, average)
                found = visible.terms.get(key)
                if found is None:
                    norm = K1 * (1 - B + B * index.length[rows] / average)
                    wide = counts.astype(np.float64)  # the float64 arithmetic of ``hybrid.rank``
                    found = visible.remember(key, (idf * wide * (K1 + 1) / (wide + norm),))
                self.parts.append((rows, found[0]))
            for i, c in enumerate(extra_counts):
                if c:
                    self.extra_scores[i] += idf * c * (K1 + 1) / (c + K1 * (1 - B + B * extras[i].terms.length / average))

    def union(self) -> tuple[np.ndarray, np.ndarray]:
        """The visible rows holding a query word (ascending) and their scores."""
        if self._union is None:
            if len(self.parts) <= 1:
                self._union = self.parts[0] if self.parts else (NO_ROWS, NO_SCORES)
            else:
                _, summed, hit = self.index.scratch()
                try:
                    for rows, part in self.parts:  # in the order hybrid.rank adds them: the same sums
                        summed[rows] += part
                        hit[rows] = True
                    found = np.flatnonzero(hit[:self.index.n])
                    self._union = (found, summed[found])
                finally:
                    self._clear(summed, hit)
        return self._union

    @contextmanager
    def dense(self):
        """The sums as ``DenseScores`` while the block runs (with the index's lock held)."""
        _, summed, hit = self.index.scratch()
        for rows, part in self.parts:  # in the order hybrid.rank adds them: the same sums
            summed[rows] += part
        try:
            yield DenseScores(summed[:self.index.n], hit[:self.index.n], self.parts)
        finally:
            self._clear(summed, hit)

    def _clear(self, summed: np.ndarray, hit: np.ndarray) -> None:
        """Leaves the scratch rows as a search finds them: scores all zero, flags all False (a
        whole row at once when the postings are more than an eighth of it: a fill is cheaper)."""
        n = self.index.n
        if sum(len(rows) for rows, _ in self.parts) * 8 > n:
            summed[:n].fill(0.0)
            hit[:n].fill(False)
        else:
            for rows, _ in self.parts:
                summed[rows] = 0.0
                hit[rows] = False

    def _postings(self, term: str) -> tuple[np.ndarray, np.ndarray, list[int]]:
        """The visible rows holding ``term``, their counts, and its count in each extra."""
        visible = self.visible
        found = visible.terms.get(("postings", term))
        if found is None:
            posting = self.index.posting(term)
            if posting is None:
                rows, counts = NO_ROWS, NO_SCORES
            else:
                keep = visible.mask[posting[0]]
                rows, counts = (posting[0], posting[1]) if keep.all() else (posting[0][keep], posting[1][keep])
            found = visible.remember(("postings", term), (rows, counts))
        return found[0], found[1], [e.terms.occurrences(term) for e in self.extras]

    def _document_frequency(self, term: str) -> int:
        rows, _, extra_counts = self._postings(term)
        return len(rows) + sum(1 for c in extra_counts if c)

    def _known(self, word: str) -> bool:
        return self._document_frequency(word) > 0


class DenseScores:
    """The BM25 score of every row of an index (0 where no query word is), as one array."""

    def __init__(self, summed: np.ndarray, flags: np.ndarray, parts: list[tuple[np.ndarray, np.ndarray]]):
        self.summed, self._flags, self._parts = summed, flags, parts

    def best(self) -> float:
        return float(self.summed.max()) if self._parts else 0.0

    def count(self) -> int:
        """How many rows hold a query word (every part is positive, and so is every sum)."""
        if not self._parts:
            return 0
        return int(np.count_nonzero(np.greater(self.summed, 0.0, out=self._flags)))  # faster than on floats

    def at(self, rows: np.ndarray) -> np.ndarray:
        return self.summed[rows]

    def rows_scaled_at_least(self, scale: float, threshold: float) -> np.ndarray:
        """The rows holding a query word whose ``score * scale >= threshold`` (ascending)."""
        if not self._parts or (scale <= 0.0 and threshold > 0.0):
            return NO_ROWS
        if threshold <= 0.0:
            return np.flatnonzero(self.summed)
        # A first pass on the scores alone, a little below the bound; then the comparison itself.
        near = np.flatnonzero(self.summed >= threshold / scale * (1 - 1e-9))
        return near[self.summed[near] * scale >= threshold]
