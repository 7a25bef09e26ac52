"""A turn's memory_search over its workspace's index (``memories.search.index``).

The same ranking as ``hybrid.rank`` over the same candidates (the rows of the mask and the
instance rules), computed with arrays instead of one Python object per candidate: BM25 with the
statistics of the readable notes only (document frequency counted within the mask, average
length of the readable notes), the cosine of every readable vector, the fused score of
``memories.search.fusion.fuse`` (same formula, so the same numbers: a score cut-off means what
it meant), the ``MIN_SIMILARITY`` floor, and ties broken as ``fuse`` breaks them (semantic part,
then notes with a vector before those without, then key, then id).
``tests/memories/test_search_index.py`` checks both give the same notes and scores.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass

import numpy as np

from memories.search import ann, vectors
from memories.search.fulltext import K1, B, query_terms
from memories.search.fusion import DEFAULT_WEIGHTS
from memories.search.hybrid import (
    HYBRID,
    LEXICAL,
    MIN_SIMILARITY,
    ExtraCandidate,
    Ranking,
    Signals,
    extra_signals,
)
from memories.search.index import INDEXES, WorkspaceIndex
from memories.search.visible import Visible


def _top(scores: np.ndarray, k: int) -> np.ndarray:
    """Positions of the ``k`` largest scores, and of every score tied with the k-th."""
    if len(scores) <= k:
        return np.arange(len(scores))
    kth = np.partition(scores, len(scores) - k)[len(scores) - k]
    return np.flatnonzero(scores >= kth)


def _at_least(floor: float) -> np.float32:
    """The least float32 that is >= ``floor``: ``sims >= _at_least(f)`` over float32 cosines is
    ``float(sim) >= f`` for each (what ``hybrid.rank`` compares), without widening the array."""
    found = np.float32(floor)
    return found if float(found) >= floor else np.nextafter(found, np.float32(np.inf))


class _Lexical:
    """BM25 of the query over the readable rows and the extras (``fulltext.LexicalIndex``'s):
    ``rows``, the readable rows holding a query term (ascending), and their ``scores``.

    Sparse: only the postings of the query's terms are read, each term's visible postings and
    its BM25 part are kept on the mask (``Visible.remember``: same mask, term, weight and
    statistics, same numbers), and summed in the index's scratch buffers, reset before return."""

    def __init__(self, index: WorkspaceIndex, visible: Visible, extras: list[Signals], query: str):
        self.index, self.visible, self.extras = index, visible, extras
        self.rows, self.scores = _NO_ROWS, _NO_SCORES
        self.extra_scores = [0.0] * len(extras)
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
        parts = []
        for term, weight in weights.items():
            rows, counts, extra_counts = self._postings(term)
            frequency = len(rows) + sum(1 for c in extra_counts if c)
            idf = weight * math.log(1 + (count - frequency + 0.5) / (frequency + 0.5))
            if len(rows):
                key = ("bm25", term, idf, average)
                found = visible.terms.get(key)
                if found is None:
                    norm = K1 * (1 - B + B * index.length[rows] / average)
                    found = visible.remember(key, (idf * counts * (K1 + 1) / (counts + norm),))
                parts.append((rows, found[0]))
            for i, c in enumerate(extra_counts):
                if c:
                    self.extra_scores[i] += idf * c * (K1 + 1) / (c + K1 * (1 - B + B * extras[i].terms.length / average))
        if len(parts) == 1:
            self.rows, self.scores = parts[0]
        elif parts:
            _, summed, hit = index.scratch()
            try:
                for rows, part in parts:  # in the order hybrid.rank adds them: the same sums
                    summed[rows] += part
                    hit[rows] = True
                self.rows = np.flatnonzero(hit[:index.n])
                self.scores = summed[self.rows]
            finally:
                for rows, _ in parts:
                    summed[rows] = 0.0
                    hit[rows] = False

    def _postings(self, term: str) -> tuple[np.ndarray, np.ndarray, list[int]]:
        """The visible rows holding ``term``, their counts, and its count in each extra."""
        visible = self.visible
        found = visible.terms.get(("postings", term))
        if found is None:
            posting = self.index.posting(term)
            if posting is None:
                rows, counts = _NO_ROWS, _NO_SCORES
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


_NO_ROWS = np.zeros(0, dtype=np.int64)
_NO_SCORES = np.zeros(0, dtype=np.float64)


def _lexical_only(index, lexical: _Lexical, extras: list[Signals], limit: int) -> list[tuple[Signals, float]]:
    best = _top(lexical.scores, limit)
    picked = lexical.rows[best].tolist()
    found = [(-float(score), signals) for score, signals in zip(lexical.scores[best].tolist(), index.signals_at(picked))
             if signals is not None]
    found += [(-score, e) for score, e in zip(lexical.extra_scores, extras) if score > 0]
    found.sort(key=lambda item: (item[0], item[1].key, item[1].id))
    return [(signals, -negative) for negative, signals in found[:limit]]


@dataclass(frozen=True)
class Ranked:
    """A ranking, with what a cut-off needs of it: each note's cosine with the query (None without
    a vector or a model) and whether it shares a word with it, and how many of the candidates
    were left out (by the ``min_score`` asked for, or by ``MIN_SIMILARITY``)."""

    ranking: Ranking
    similarity: dict[str, float | None]
    by_words: dict[str, bool]
    candidates: int
    left_out: int


def _cosines(index: WorkspaceIndex, visible: Visible, q: np.ndarray) -> np.ndarray:
    """The cosine of each of ``visible.rows`` with ``q`` (float32; the index's scratch buffer
    when the rows are every row: overwritten by the next search)."""
    n, rows = index.n, visible.rows
    if visible.everything:
        return np.matmul(index.matrix[:n], q, out=index.scratch()[0][:n])
    if len(rows) * 2 > n:
        return np.matmul(index.matrix[:n], q, out=index.scratch()[0][:n])[rows]
    return index.matrix[rows] @ q


@dataclass(frozen=True)
class _Semantic:
    """What the ranking needs of the visible notes' cosines: the least and the greatest (the
    normalisation), how many notes are kept (a cosine at least the floor, or a query word), the
    best ``limit`` notes without a query word at or above the floor (positions in
    ``visible.rows``, and their cosines), and the notes with a query word that may rank (their
    positions, BM25 scores and cosines: every one of them, but for the graph's search)."""

    lo: float
    hi: float
    kept: int
    plain_at: np.ndarray
    plain_sims: np.ndarray
    hit_at: np.ndarray
    hit_lex: np.ndarray
    hit_sims: np.ndarray


def _semantic(index: WorkspaceIndex, visible: Visible, q: np.ndarray, hit_at: np.ndarray, hit_lex: np.ndarray,
              lex_scale: float, at_least, limit: int) -> _Semantic:
    rows = visible.rows
    if len(rows) >= ann.MIN_VISIBLE and len(rows) >= ann.MIN_VISIBLE_SHARE * index.n:
        graph = index.ann_graph()
        if graph is not None:
            return _semantic_ann(index, visible, graph, q, hit_at, hit_lex, lex_scale, at_least, limit)
    sims = _cosines(index, visible, q)
    hit_sims = sims[hit_at]
    lo, hi = float(sims.min()), float(sims.max())
    kept = int(np.count_nonzero(sims >= at_least)) + int(np.count_nonzero(hit_sims < at_least))
    # A note without a query word scores by its cosine alone: only the best ``limit`` of them can
    # be returned (the best of every cosine, those with a word set below any, then those below the
    # floor dropped: the same notes). The notes with a word are scored each.
    sims[hit_at] = -np.inf
    top = _top(sims, limit)
    plain_at = top[sims[top] >= at_least]
    return _Semantic(lo, hi, kept, plain_at, sims[plain_at], hit_at, hit_lex, hit_sims)


def _member(values: np.ndarray, sorted_set: np.ndarray) -> np.ndarray:
    """Whether each of ``values`` is in ``sorted_set`` (ascending): a search per value, cheaper
    than ``np.isin`` when the set is large and the values few."""
    if not len(sorted_set):
        return np.zeros(len(values), dtype=bool)
    at = np.minimum(np.searchsorted(sorted_set, values), len(sorted_set) - 1)
    return sorted_set[at] == values


def _bitmap(index: WorkspaceIndex, visible: Visible, covered: int) -> np.ndarray:
    """The rows of the graph's first ``covered`` a search of this mask may be proposed (visible,
    with a vector), as ``ann.bitmap`` packs them; kept on the mask."""
    found = visible.terms.get(("ann-bits", covered))
    if found is None:
        found = visible.remember(("ann-bits", covered),
                                 (ann.bitmap(visible.mask[:covered] & index.has_vector[:covered]),))
    return found[0]


def _sample(index: WorkspaceIndex, visible: Visible) -> tuple[np.ndarray, np.ndarray]:
    """``ann.SAMPLE`` evenly spaced readable rows (positions in ``visible.rows``) and their vectors
    in one block, kept on the mask: a gather of them would cost more than their product."""
    found = visible.terms.get(("ann-sample",))
    if found is None:
        rows = visible.rows
        sample_at = np.arange(0, len(rows), max(1, len(rows) // ann.SAMPLE))
        found = visible.remember(("ann-sample",), (sample_at, np.ascontiguousarray(index.matrix[rows[sample_at]])))
    return found[0], found[1]


def _semantic_ann(index: WorkspaceIndex, visible: Visible, graph: ann.Graph, q: np.ndarray, hit_at: np.ndarray,
                  hit_lex: np.ndarray, lex_scale: float, at_least, limit: int) -> _Semantic:
    """``_semantic`` from the graph (``memories.search.ann``), every cosine exact:

    * the notes the graph proposes nearest to ``q`` and to ``-q`` (the least cosine), and the
      rows it does not hold yet; the best of those without a query word;
    * the notes with a query word whose BM25 part can reach the ``limit``-th best score of those
      (a note the graph did not propose has a cosine below the last one it proposed);
    * the count of notes kept: those with a query word, and those without above the floor,
      counted when the proposed notes reach below the floor, else estimated from a sample."""
    rows, matrix = visible.rows, index.matrix
    covered = graph.rows
    k = max(ann.PROPOSED, limit)
    bits = _bitmap(index, visible, covered)
    near = graph.search(q, bits, k)
    far = graph.search(-q, bits, 8, ann.EF_FARTHEST)
    position = visible.position()
    tail_at = np.arange(int(np.searchsorted(rows, covered)), len(rows))
    seen_at = np.unique(np.concatenate([position[near], position[far], tail_at]))
    seen_sims = matrix[rows[seen_at]] @ q
    near_sims = seen_sims[np.searchsorted(seen_at, position[near])]
    lo, hi = float(seen_sims.min()), float(seen_sims.max())
    flat = hi - lo <= 1e-12
    inv_span = 0.0 if flat else 1.0 / (hi - lo)
    ws = DEFAULT_WEIGHTS.semantic

    plain = ~_member(seen_at, hit_at)
    plain_at, plain_sims = seen_at[plain], seen_sims[plain]
    top = _top(plain_sims, limit)
    top = top[plain_sims[top] >= at_least]
    plain_at, plain_sims = plain_at[top], plain_sims[top]

    # Notes with a query word: those seen, and those whose BM25 part could still lift them above
    # the ``limit``-th best score seen (hit_at is ascending, as the rows are).
    seen_hits = np.searchsorted(hit_at, seen_at[~plain])
    seen_hit_sims = seen_sims[~plain]

    def part(sims: np.ndarray) -> np.ndarray:
        return np.ones(len(sims)) if flat else (sims.astype(np.float64) - lo) * inv_span

    scores = np.concatenate([ws * part(plain_sims), ws * part(seen_hit_sims) + hit_lex[seen_hits] * lex_scale])
    kth = float(np.partition(scores, len(scores) - limit)[len(scores) - limit]) if len(scores) >= limit else -np.inf
    unseen_cap = float(near_sims.min()) if len(near) == k else lo
    cap_part = ws * (1.0 if flat else max(0.0, (unseen_cap - lo) * inv_span))
    may_rank = hit_lex * lex_scale >= kth - cap_part
    may_rank[seen_hits] = False
    more = np.flatnonzero(may_rank)
    chosen_hits = np.concatenate([seen_hits, more]).astype(np.int64)
    hit_sims = np.concatenate([seen_hit_sims, matrix[rows[hit_at[more]]] @ q if len(more) else seen_hit_sims[:0]])

    if len(near) < k or (len(near_sims) and float(near_sims.min()) < at_least):
        above = int(np.count_nonzero(seen_sims[plain] >= at_least))
    else:
        sample_at, block = _sample(index, visible)
        without_word = ~_member(sample_at, hit_at)
        share = float(np.count_nonzero((block @ q >= at_least) & without_word)) / max(1, int(without_word.sum()))
        above = round(share * (len(rows) - len(hit_at)))
    return _Semantic(lo, hi, above + len(hit_at), plain_at, plain_sims, hit_at[chosen_hits], hit_lex[chosen_hits],
                     hit_sims)


def rank(index: WorkspaceIndex, visible: Visible, query: str, limit: int, query_vec: Future,
         extras: Sequence[ExtraCandidate] = (), min_score: float | None = None) -> Ranked:
    """The best ``limit`` notes of the visible rows and ``extras`` (call with ``index.lock`` held).
    A note that shares no word with the query is left out when its cosine is below
    ``MIN_SIMILARITY``, or below ``min_score`` when that is higher."""
    extra = extra_signals(extras)
    total = visible.count + len(extra)
    if not total:
        query_vec.cancel()
        return Ranked(Ranking([], HYBRID if vectors.embedder() is not None else LEXICAL), {}, {}, 0, 0)
    lexical = _Lexical(index, visible, extra, query)
    q = query_vec.result()
    if q is None:
        found = _lexical_only(index, lexical, extra, limit)
        kept = len(lexical.rows) + sum(1 for lv in lexical.extra_scores if lv > 0)
        return Ranked(Ranking(found, LEXICAL), {s.id: None for s, _ in found}, {s.id: True for s, _ in found},
                      total, total - kept)
    floor = MIN_SIMILARITY if min_score is None else max(MIN_SIMILARITY, min_score)
    at_least = _at_least(floor)
    rows = visible.rows
    # The rows holding a query word: with a vector (their positions in ``rows``) and without.
    if visible.everything:
        hit_at, hit_lex = lexical.rows, lexical.scores
        plain_rows, plain_lex = _NO_ROWS, _NO_SCORES
    else:
        at = visible.position()[lexical.rows]
        with_vector = at >= 0
        hit_at, hit_lex = at[with_vector], lexical.scores[with_vector]
        plain_rows, plain_lex = lexical.rows[~with_vector], lexical.scores[~with_vector]
    ws, wl = DEFAULT_WEIGHTS.semantic, DEFAULT_WEIGHTS.lexical
    best = max([float(lexical.scores.max()) if len(lexical.rows) else 0.0, *lexical.extra_scores, 0.0])
    lex_scale = wl / best if best > 0 else 0.0
    semantic = _semantic(index, visible, q, hit_at, hit_lex, lex_scale, at_least, limit) if len(rows) else None
    extra_sims = [float(e.vector @ q) if e.vector is not None else None for e in extra]
    values = [semantic.lo, semantic.hi] if semantic is not None else []
    values += [s for s in extra_sims if s is not None]
    candidates: list[tuple] = []  # (-score, -semantic part, group, key, id, signals, cosine, by words)
    kept = 0
    if values:
        lo, span = min(values), max(values) - min(values)
        flat = span <= 1e-12
        inv_span = 1.0 / span if not flat else 0.0
        if semantic is not None:
            hit_at, hit_lex, hit_sims, plain_at = semantic.hit_at, semantic.hit_lex, semantic.hit_sims, semantic.plain_at
            kept += semantic.kept
            plain_sims = semantic.plain_sims
        else:  # only the extras have a vector
            hit_sims, plain_at, plain_sims = np.zeros(0, dtype=np.float32), _NO_ROWS, np.zeros(0, dtype=np.float32)
        picked = np.concatenate([plain_at, hit_at])
        chosen = np.concatenate([plain_sims, hit_sims]).astype(np.float64)
        part = np.ones(len(picked)) if flat else (chosen - lo) * inv_span
        lex = np.concatenate([np.zeros(len(plain_at)), hit_lex])
        scores = ws * part + np.where(lex > 0, lex * lex_scale, 0.0)
        best_of = _top(scores, limit).tolist()
        for j, signals in zip(best_of, index.signals_at(rows[picked[best_of]].tolist())):
            if signals is None:  # deleted since this search's refresh
                continue
            candidates.append((-float(scores[j]), -float(part[j]), 0, signals.key, signals.id, signals,
                               float(chosen[j]), bool(lex[j] > 0)))
        for signals, s, lv in zip(extra, extra_sims, lexical.extra_scores):
            if s is None:
                continue
            sn = 1.0 if flat else (s - lo) * inv_span
            if lv > 0 or s >= floor:
                kept += 1
                candidates.append((-(ws * sn + (lv * lex_scale if lv > 0 else 0.0)), -sn, 0, signals.key, signals.id,
                                   signals, s, lv > 0))
    kept += len(plain_rows)
    best_of = _top(plain_lex, limit)
    for score, signals in zip(plain_lex[best_of].tolist(), index.signals_at(plain_rows[best_of].tolist())):
        if signals is None:
            continue
        candidates.append((-float(score * lex_scale), 0.0, 1, signals.key, signals.id, signals, None, True))
    for signals, s, lv in zip(extra, extra_sims, lexical.extra_scores):
        if (s is None or not values) and lv > 0:
            kept += 1
            candidates.append((-(lv * lex_scale), 0.0, 1, signals.key, signals.id, signals,
                               s if values else None, True))
    candidates.sort(key=lambda c: c[:5])
    top = candidates[:limit]
    return Ranked(Ranking([(c[5], -c[0]) for c in top], HYBRID if values else LEXICAL),
                  {c[4]: c[6] for c in top}, {c[4]: c[7] for c in top}, total, total - kept)


def search(alias: str, workspace_id, scopes: Sequence[str], query: str, limit: int, *, layer: str | None = None,
           subject: tuple[str, str] | None = None, extras: Sequence[ExtraCandidate] = (),
           query_vec: Future | None = None, min_score: float | None = None) -> Ranked:
    """memory_search's ranking of the active notes of ``scopes`` in a workspace (and ``extras``)."""
    if query_vec is None:
        query_vec = vectors.query_vector_soon(query)
    index = INDEXES.get(alias, workspace_id)
    with index.lock:
        index.refresh()
        found = rank(index, index.mask(scopes, layer, subject), query, limit, query_vec, extras, min_score)
        ann.request_graph(index)
    INDEXES.fit(index)
    return found
