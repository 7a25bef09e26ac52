"""The rows of a workspace index one search may rank (``memories.search.index``), with what
searches of the same rows reuse."""

from __future__ import annotations

import numpy as np

from memories.search.embedding import DIMS

#: Per mask, the postings and BM25 parts of the query terms searched lately (``Visible.remember``),
#: at least this, and up to a share of the mask's rows' vectors: a term's postings grow with the
#: workspace (at 1,000,000 notes of ``benchmarks/bench_scale.py`` a common word's are 3 MB, and
#: reading them again costs more than the rest of the BM25).
TERM_CACHE_BYTES = 48 * 1024 * 1024
TERM_CACHE_SHARE_OF_VECTORS = 0.125


class Visible:
    """The rows one search may rank: ``mask`` over every row, ``rows`` of them with a vector, how
    many there are and their terms in all (BM25's average length). Kept per index version and
    scopes, with what searches of it reuse: ``everything`` (``rows`` is every row: the cosines
    need no gather), each row's position in ``rows`` (``position``), the rows without a vector,
    and per query term its visible postings and BM25 parts (``memories.search.ranked``)."""

    __slots__ = ("mask", "rows", "count", "length", "everything", "without_vector", "_position", "terms",
                 "terms_bytes", "terms_budget")

    def __init__(self, mask: np.ndarray, rows: np.ndarray, count: int, length: float, without_vector: np.ndarray):
        self.mask, self.rows, self.count, self.length = mask, rows, count, length
        self.everything = len(rows) == len(mask)  # rows == arange(n): every row alive, visible, with a vector
        self.without_vector = without_vector
        self._position: np.ndarray | None = None
        self.terms: dict = {}
        self.terms_bytes = 0
        self.terms_budget = max(TERM_CACHE_BYTES, int(len(mask) * DIMS * 4 * TERM_CACHE_SHARE_OF_VECTORS))

    def position(self) -> np.ndarray:
        """Each row's position in ``rows`` (-1 for a row not in it)."""
        if self._position is None:
            self._position = np.full(len(self.mask), -1, dtype=np.int64)
            self._position[self.rows] = np.arange(len(self.rows))
        return self._position

    @property
    def nbytes(self) -> int:
        """What this mask holds: its arrays and its terms' cache."""
        arrays = (self.mask, self.rows, self.without_vector, self._position)
        return sum(a.nbytes for a in arrays if isinstance(a, np.ndarray)) + self.terms_bytes

    def remember(self, key, value: tuple[np.ndarray, ...]):
        """Keeps ``value`` (arrays of a query term) under ``key`` within ``terms_budget``."""
        size = sum(a.nbytes for a in value if isinstance(a, np.ndarray)) + 200
        while self.terms and self.terms_bytes + size > self.terms_budget:  # the oldest first
            self.terms_bytes -= self.terms.pop(next(iter(self.terms)))[-1]
        self.terms[key] = (*value, size)
        self.terms_bytes += size
        return value
