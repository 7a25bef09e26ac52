"""The calibrated cut-off of note search: what ``memory_search``, the API's list search and the
Memory page return, and how many readable notes they leave out as not relevant.

A note is returned when it shares a word with the query (the lexical signal of
``memories.search``: words, stems, partial words, typos) or when the cosine similarity of its
meaning to the query's reaches ``limits.SEARCH_MIN_SCORE``. Everything else the caller may read is
counted in ``below_cutoff``: an agent is told how many notes were left out, and a page shows an
honest "No notes match" instead of the nearest unrelated notes. The cut-off is the largest that
costs at most 0.01 of recall@5 on the paraphrase set (``benchmarks/bench_search_cutoff.py``,
figures in benchmarks/RESULTS.md).

The ranking itself is ``memories.search.hybrid``'s, over every candidate, so the count is exact;
that costs a little more than ranking the best ten (``benchmarks/bench_search_cutoff.py``;
figures in benchmarks/RESULTS.md).
For the Memory page, ``page_sections`` puts the notes holding every word of the query first
(``memories.word_match``) and the others above the cut-off under "Related by meaning".
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import CancelledError, Future
from dataclasses import dataclass

import numpy as np

from memories import word_match
from memories.limits import SEARCH_MIN_SCORE
from memories.search import hybrid, vectors


@dataclass(frozen=True)
class Found:
    signals: hybrid.Signals  # the note as the search read it (id, key, value, layer, …)
    score: float  # the hybrid ranking's fused score
    similarity: float | None  # cosine of the note's meaning with the query's; None without vectors
    by_words: bool  # shares a word (or a partial word, a typo) with the query


@dataclass(frozen=True)
class CutRanking:
    found: list[Found]  # best first, at most the limit asked for
    below_cutoff: int  # readable notes left out: no shared word, and meaning below min_score
    ranking: str  # "hybrid" or "lexical" (memories.search.hybrid)
    min_score: float


def _query_vector(query_vec: Future | None):
    if query_vec is None:
        return None
    try:
        return query_vec.result()
    except CancelledError:
        return None


def similarity(signals: hybrid.Signals, query_vector) -> float | None:
    if query_vector is None or signals.vector is None:
        return None
    return float(np.dot(np.asarray(signals.vector, dtype=np.float32), query_vector))


def cut(candidates: hybrid.CandidateSet, query: str, limit: int | None, *, query_vec: Future | None = None,
        min_score: float = SEARCH_MIN_SCORE) -> CutRanking:
    """The candidates above the cut-off, best first (at most ``limit``; all with None)."""
    if query_vec is None:
        query_vec = vectors.query_vector_soon(query)
    total = len(candidates.signals)
    ranking = hybrid.rank(candidates, query, max(total, 1), query_vec)
    query_vector = _query_vector(query_vec)
    # The candidates' own BM25 postings (built once per candidate set) say which notes share a word.
    by_words = {candidates.ids[i] for i, score in candidates.lexicon.scores(query).items() if score > 0}
    kept = []
    for signals, score in ranking.found:
        cosine = similarity(signals, query_vector)
        if signals.id in by_words or (cosine is not None and cosine >= min_score):
            kept.append(Found(signals, score, cosine, signals.id in by_words))
    return CutRanking(kept if limit is None else kept[:limit], total - len(kept), ranking.ranking, min_score)


def search(source: hybrid.NoteSource, query: str, limit: int | None, *,
           extras: Sequence[hybrid.ExtraCandidate] = (), query_vec: Future | None = None,
           min_score: float = SEARCH_MIN_SCORE) -> CutRanking:
    """``cut`` over the notes of ``source`` (what the caller may read, never widened) and ``extras``."""
    if query_vec is None:
        query_vec = vectors.query_vector_soon(query)
    return cut(hybrid.candidate_set(source, extras), query, limit, query_vec=query_vec, min_score=min_score)


@dataclass(frozen=True)
class PageSections:
    by_words: list[str]  # ids of the notes holding every word of the query, best first
    by_meaning: list[str]  # ids of the other notes above the cut-off, best first
    below_cutoff: int
    ranking: str


def page_sections(source: hybrid.NoteSource, query: str, *, words_limit: int, meaning_limit: int) -> PageSections:
    """The Memory page's search: notes with every word of the query first, then related by meaning."""
    candidates = hybrid.candidate_set(source)
    wanted = word_match.query_words(query)
    with_words = [s for s in candidates.signals if word_match.note_matches(wanted, s.key, s.value)]
    ranked = cut(candidates, query, None)
    order = {found.signals.id: position for position, found in enumerate(ranked.found)}
    with_words.sort(key=lambda s: (order.get(s.id, len(order)), s.key))
    word_ids = {s.id for s in with_words}
    related = [f.signals.id for f in ranked.found if f.signals.id not in word_ids
               and f.similarity is not None and f.similarity >= ranked.min_score]
    shown = len(word_ids) + len(related)
    return PageSections([s.id for s in with_words][:words_limit], related[:meaning_limit],
                        len(candidates.signals) - shown, ranked.ranking)
