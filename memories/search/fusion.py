"""Hybrid ranking: merge a lexical and a semantic score per note into one order.

``fuse(lexical, semantic)`` is a pure function (no Django, no numpy):

1. Lexical scores (BM25, Postgres ``ts_rank`` ... anything >= 0 where 0 means
   "no query word matched") are divided by the query's best lexical score, so
   they lie in [0, 1]; a note missing from ``lexical`` counts as 0.  Dividing by
   the maximum rather than min-max keeps "matched one word weakly" above
   "matched nothing".
2. Semantic scores (cosine similarities) are min-max normalised over the
   notes given, so the best note gets 1 and the worst 0; a note missing from
   ``semantic`` (no embedding yet) counts as 0.
3. ``score = weights.semantic * sem + weights.lexical * lex``; highest first.
   Ties keep the semantic order, then the order the ids were first seen.

The default weights (semantic 0.95, lexical 0.05) come from a grid search on
the dev split of ``benchmarks/data/paraphrase_queries.jsonl`` (lexical weight
0 to 1 in steps of 0.05): the largest lexical weight whose dev recall@1 and
recall@5 are both within 5 of 600 queries of the best (less than a point).  On that benchmark lexical adds
nothing (more weight costs recall: at 0.25, -1.5 points of recall@5 and -6
of recall@1), because its queries never reuse the words of the note's
value; a small weight is kept so exact matches on rare words (names,
identifiers, table names) can still break near-ties between similar notes.
Figures, dev / heldout recall@5: semantic alone 0.830 / 0.828, fused 0.827 /
0.828, BM25 alone 0.250 / 0.247.  ``benchmarks/bench_search_ranking.py``
prints them.  Because both signals are normalised per query, the weights
carry over to another lexical scorer of the same shape (e.g. the database's
full-text rank) roughly, not exactly: re-run the benchmark if it changes.

With only one signal available (no embedder, or no lexical hits) the result
is simply that signal's order.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import TypeVar

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class FusionWeights:
    semantic: float
    lexical: float


#: Weight of the normalised MiniLM cosine.
SEMANTIC_WEIGHT = 0.95
#: Weight of the normalised lexical score (BM25 / full-text rank).
LEXICAL_WEIGHT = 0.05
DEFAULT_WEIGHTS = FusionWeights(semantic=SEMANTIC_WEIGHT, lexical=LEXICAL_WEIGHT)


def normalise_lexical(scores: Mapping[K, float]) -> dict[K, float]:
    """Scale non-negative lexical scores into [0, 1] by the best one."""
    best = max(scores.values(), default=0.0)
    if best <= 0:
        return {k: 0.0 for k in scores}
    return {k: max(v, 0.0) / best for k, v in scores.items()}


def normalise_semantic(scores: Mapping[K, float]) -> dict[K, float]:
    """Min-max scale similarities into [0, 1]; all-equal scores map to 1."""
    if not scores:
        return {}
    lo = min(scores.values())
    hi = max(scores.values())
    if hi - lo <= 1e-12:
        return {k: 1.0 for k in scores}
    span = hi - lo
    return {k: (v - lo) / span for k, v in scores.items()}


def fuse(
    lexical: Mapping[K, float],
    semantic: Mapping[K, float],
    weights: FusionWeights = DEFAULT_WEIGHTS,
    limit: int | None = None,
) -> list[tuple[K, float]]:
    """Rank the union of ids of ``lexical`` and ``semantic``; best first.

    Returns ``[(id, fused_score), ...]`` with fused scores in
    [0, weights.semantic + weights.lexical]; with ``limit`` only the best
    ``limit`` (cheaper for a large candidate set: about 0.5 ms instead of 0.9
    for 1,000 notes).
    Equal to ranking by ``ws * normalise_semantic(s)[id] + wl *
    normalise_lexical(l)[id]``.
    """
    ws, wl = weights.semantic, weights.lexical
    best = max(lexical.values(), default=0.0)
    lex_scale = wl / best if best > 0 else 0.0
    if semantic:
        lo = min(semantic.values())
        span = max(semantic.values()) - lo
    else:
        lo, span = 0.0, 0.0
    flat = span <= 1e-12
    inv_span = 1.0 / span if not flat else 0.0

    rows = []
    i = 0
    for k, s in semantic.items():
        sn = 1.0 if flat else (s - lo) * inv_span
        lv = lexical.get(k)
        rows.append((ws * sn + (lv * lex_scale if lv and lv > 0 else 0.0), sn, -i, k))
        i += 1
    for k, lv in lexical.items():
        if k not in semantic:
            rows.append((lv * lex_scale if lv > 0 else 0.0, 0.0, -i, k))
            i += 1
    # ties: higher semantic part first, then first seen (-i is unique, ids are never compared)
    if limit is not None and limit < len(rows):
        rows = heapq.nlargest(limit, rows)
    else:
        rows.sort(reverse=True)
    return [(r[3], r[0]) for r in rows]
