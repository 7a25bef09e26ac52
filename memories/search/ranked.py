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

from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass

import numpy as np

from memories.search import ann, vectors
from memories.search.bm25 import NO_ROWS, NO_SCORES, DenseScores, QueryScores
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


def _lexical_only(index, lexical: QueryScores, extras: list[Signals], limit: int) -> list[tuple[Signals, float]]:
    rows, scores = lexical.union()
    best = _top(scores, limit)
    picked = rows[best].tolist()
    found = [(-float(score), signals) for score, signals in zip(scores[best].tolist(), index.signals_at(picked))
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


def _graph(index: WorkspaceIndex, visible: Visible) -> ann.Graph | None:
    """The ANN graph a search of this mask asks, when it reads enough of a big enough workspace."""
    rows = visible.rows
    if len(rows) >= ann.MIN_VISIBLE and len(rows) >= ann.MIN_VISIBLE_SHARE * index.n:
        return index.ann_graph()
    return None


def _semantic(index: WorkspaceIndex, visible: Visible, q: np.ndarray, hit_at: np.ndarray, hit_lex: np.ndarray,
              at_least, limit: int) -> _Semantic:
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


def _bitmap_of(index: WorkspaceIndex, rows: np.ndarray, covered: int) -> np.ndarray:
    """These rows (ascending, visible) of the graph's first ``covered`` that have a vector, as
    ``ann.bitmap`` packs them."""
    allowed = np.zeros(covered, dtype=bool)
    allowed[rows[:int(np.searchsorted(rows, covered))]] = True
    return ann.bitmap(np.logical_and(allowed, index.has_vector[:covered], out=allowed))


def _kth(scores: np.ndarray, limit: int) -> float:
    """The ``limit``-th best of ``scores`` (-inf when there are fewer)."""
    return float(np.partition(scores, len(scores) - limit)[len(scores) - limit]) if len(scores) >= limit else -np.inf


def _sample(index: WorkspaceIndex, visible: Visible) -> tuple[np.ndarray, np.ndarray]:
    """``ann.SAMPLE`` evenly spaced readable rows (positions in ``visible.rows``) and their vectors
    in one block, kept on the mask: a gather of them would cost more than their product."""
    found = visible.terms.get(("ann-sample",))
    if found is None:
        rows = visible.rows
        sample_at = np.arange(0, len(rows), max(1, len(rows) // ann.SAMPLE))
        found = visible.remember(("ann-sample",), (sample_at, np.ascontiguousarray(index.matrix[rows[sample_at]])))
    return found[0], found[1]


def _semantic_ann(index: WorkspaceIndex, visible: Visible, graph: ann.Graph, q: np.ndarray, words: DenseScores,
                  lex_scale: float, at_least, limit: int) -> _Semantic:
    """``_semantic`` from the graph (``memories.search.ann``), every cosine exact:

    * the notes the graph proposes nearest to ``q`` and to ``-q`` (the least cosine), and the
      rows it does not hold yet; the best of those without a query word;
    * the notes with a query word whose BM25 part can reach the ``limit``-th best score of those
      (a note the graph did not propose has a cosine below the last one it proposed); when more
      than ``ann.WORDS_ASKED_ABOVE`` are left, the graph's nearest of them first, whose last
      cosine bounds the others the same way;
    * the count of notes kept: those with a query word, and those without above the floor,
      counted when the proposed notes reach below the floor, else estimated from a sample.

    The BM25 scores are ``words`` (every row's, in one array): a few are read, and the rows above
    a threshold found, without listing every row that holds a query word."""
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
    seen_lex = words.at(rows[seen_at])
    near_sims = seen_sims[np.searchsorted(seen_at, position[near])]
    lo, hi = float(seen_sims.min()), float(seen_sims.max())
    flat = hi - lo <= 1e-12
    inv_span = 0.0 if flat else 1.0 / (hi - lo)
    ws = DEFAULT_WEIGHTS.semantic

    plain = seen_lex == 0.0  # no query word (every BM25 part is positive)
    plain_at, plain_sims = seen_at[plain], seen_sims[plain]
    top = _top(plain_sims, limit)
    top = top[plain_sims[top] >= at_least]
    plain_at, plain_sims = plain_at[top], plain_sims[top]

    # Notes with a query word: those seen, and those whose BM25 part could still lift them above
    # the ``limit``-th best score seen.
    seen_hit_at, seen_hit_lex, seen_hit_sims = seen_at[~plain], seen_lex[~plain], seen_sims[~plain]

    def part(sims: np.ndarray) -> np.ndarray:
        return np.ones(len(sims)) if flat else (sims.astype(np.float64) - lo) * inv_span

    def cap_part(cap: float) -> float:  # the semantic part of a cosine at most ``cap``
        return 1.0 if flat else max(0.0, (cap - lo) * inv_span)

    scores = np.concatenate([ws * part(plain_sims), ws * part(seen_hit_sims) + seen_hit_lex * lex_scale])
    kth = _kth(scores, limit)
    unseen_cap = float(near_sims.min()) if len(near) == k else lo
    more = words.rows_scaled_at_least(lex_scale, kth - ws * cap_part(unseen_cap))
    if len(more) > ann.WORDS_ASKED_ABOVE:
        # Too many to score each: the nearest of them, from the graph, scored; the others have
        # a cosine below the last of those, so only those whose words can make up for it remain.
        nearest = graph.search(q, _bitmap_of(index, more, covered), k)
        new_at = position[nearest]
        new_at = new_at[(new_at >= 0) & ~_member(new_at, seen_at)]
        new_sims = matrix[rows[new_at]] @ q
        new_lex = words.at(rows[new_at])
        seen_hit_at = np.concatenate([seen_hit_at, new_at])
        seen_hit_lex = np.concatenate([seen_hit_lex, new_lex])
        seen_hit_sims = np.concatenate([seen_hit_sims, new_sims])
        scores = np.concatenate([scores, ws * part(new_sims) + new_lex * lex_scale])
        kth = _kth(scores, limit)
        nearest_cap = float((matrix[nearest] @ q).min()) if len(nearest) == k else lo
        more = more[words.at(more) * lex_scale >= kth - ws * cap_part(nearest_cap)]
        seen_at = np.sort(np.concatenate([seen_at, new_at]))
    more_at = position[more]
    more_at = more_at[more_at >= 0]  # a row without a vector is ranked by its words (``rank``)
    more_at = more_at[~_member(more_at, seen_at)]
    hit_at = np.concatenate([seen_hit_at, more_at])
    hit_lex = np.concatenate([seen_hit_lex, words.at(rows[more_at])])
    hit_sims = np.concatenate([seen_hit_sims, matrix[rows[more_at]] @ q if len(more_at) else seen_hit_sims[:0]])

    hits = words.count() - int(np.count_nonzero(words.at(visible.without_vector)))  # with a vector
    if len(near) < k or (len(near_sims) and float(near_sims.min()) < at_least):
        above = int(np.count_nonzero(seen_sims[plain] >= at_least))
    else:
        sample_at, block = _sample(index, visible)
        without_word = words.at(rows[sample_at]) == 0.0
        share = float(np.count_nonzero((block @ q >= at_least) & without_word)) / max(1, int(without_word.sum()))
        above = round(share * (len(rows) - hits))
    return _Semantic(lo, hi, above + hits, plain_at, plain_sims, hit_at, hit_lex, hit_sims)


def _by_words_and_vectors(index: WorkspaceIndex, visible: Visible, lexical: QueryScores, q: np.ndarray, at_least,
                          limit: int) -> tuple[_Semantic | None, np.ndarray, np.ndarray, float]:
    """The semantic side of the ranking, the rows holding a query word that have no vector (and
    their BM25 scores), and the factor that scales a BM25 score to its share of the fused score."""
    rows, wl = visible.rows, DEFAULT_WEIGHTS.lexical
    graph = _graph(index, visible) if len(rows) else None
    if graph is not None:
        with lexical.dense() as words:
            best = max([words.best(), *lexical.extra_scores, 0.0])
            lex_scale = wl / best if best > 0 else 0.0
            semantic = _semantic_ann(index, visible, graph, q, words, lex_scale, at_least, limit)
            without = visible.without_vector
            without_lex = words.at(without)
            has_word = without_lex > 0.0
            return semantic, without[has_word], without_lex[has_word], lex_scale
    lex_rows, lex_scores = lexical.union()
    # The rows holding a query word: with a vector (their positions in ``rows``) and without.
    if visible.everything:
        hit_at, hit_lex = lex_rows, lex_scores
        plain_rows, plain_lex = NO_ROWS, NO_SCORES
    else:
        at = visible.position()[lex_rows]
        with_vector = at >= 0
        hit_at, hit_lex = at[with_vector], lex_scores[with_vector]
        plain_rows, plain_lex = lex_rows[~with_vector], lex_scores[~with_vector]
    best = max([float(lex_scores.max()) if len(lex_rows) else 0.0, *lexical.extra_scores, 0.0])
    lex_scale = wl / best if best > 0 else 0.0
    semantic = _semantic(index, visible, q, hit_at, hit_lex, at_least, limit) if len(rows) else None
    return semantic, plain_rows, plain_lex, lex_scale


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
    lexical = QueryScores(index, visible, extra, query)
    q = query_vec.result()
    if q is None:
        found = _lexical_only(index, lexical, extra, limit)
        kept = len(lexical.union()[0]) + sum(1 for lv in lexical.extra_scores if lv > 0)
        return Ranked(Ranking(found, LEXICAL), {s.id: None for s, _ in found}, {s.id: True for s, _ in found},
                      total, total - kept)
    floor = MIN_SIMILARITY if min_score is None else max(MIN_SIMILARITY, min_score)
    at_least = _at_least(floor)
    rows = visible.rows
    ws = DEFAULT_WEIGHTS.semantic
    semantic, plain_rows, plain_lex, lex_scale = _by_words_and_vectors(index, visible, lexical, q, at_least, limit)
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
            hit_at, hit_lex, plain_at = NO_ROWS, NO_SCORES, NO_ROWS
            hit_sims = plain_sims = np.zeros(0, dtype=np.float32)
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
