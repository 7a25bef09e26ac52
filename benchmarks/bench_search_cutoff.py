"""Calibrates the search cut-off (``memories.limits.SEARCH_MIN_SCORE``) on the paraphrase set.

Usage: ``python -m benchmarks.bench_search_cutoff`` (needs the embedding model: ``python
manage.py prepare_search_model``). Each query of benchmarks/data/paraphrase_queries.jsonl ranks
only its own user's notes (~50), through ``memories.search_cutoff.cut`` — the ranking and the
cut-off of memory_search — with note vectors computed as a save computes them.

For each cut-off on a grid it prints recall@1 / recall@5 (the target note among the first 1 / 5
kept) on the dev and heldout splits, and how many of a user's notes a query keeps. The chosen
cut-off is the largest whose recall@5 is at most 0.01 below the ranking without a cut-off on
both splits (on dev alone it would be 0.16, which costs heldout 0.013). Off-topic queries ("kubernetes cluster autoscaling") show what
the cut-off is for: how many unrelated notes an agent would otherwise get.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
GRID = [round(0.10 + 0.01 * i, 2) for i in range(31)]  # 0.10 … 0.40
MAX_RECALL_DROP = 0.01
OFF_TOPIC = ["kubernetes cluster autoscaling", "zzzz", "recipe for banana bread", "who won the 1998 world cup",
             "quantum chromodynamics lecture notes"]


def _setup():
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "appenda.settings.dev")
    import django

    django.setup()


def _load(name: str) -> list[dict]:
    with open(DATA / name, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def main() -> int:
    _setup()
    from memories import search_cutoff
    from memories.limits import SEARCH_MIN_SCORE
    from memories.search import hybrid, vectors
    from memories.search.fulltext import note_terms

    if vectors.embedder() is None:
        print("The embedding model is not prepared: run `python manage.py prepare_search_model` first.")
        return 1
    notes, queries = _load("paraphrase_notes.jsonl"), _load("paraphrase_queries.jsonl")
    started = time.perf_counter()
    by_user: dict[str, list] = {}
    for note in notes:
        fields = vectors.note_index_fields(note["key"], note["value"])
        (vector,) = vectors.vectors_of([fields["embedding"]])
        by_user.setdefault(note["user_id"], []).append(hybrid.Signals(
            note["id"], note["key"], note["value"], "mine", False, None, None,
            note_terms(note["key"], note["value"]), vector, 0.0))
    candidates = {user: hybrid.CandidateSet(signals) for user, signals in by_user.items()}
    print(f"{len(notes)} notes of {len(by_user)} users embedded in {time.perf_counter() - started:.1f} s; "
          f"{len(queries)} queries")

    def judged(query: str, user: str) -> list:
        done = vectors._done(vectors.query_vector(query))
        return search_cutoff.cut(candidates[user], query, None, query_vec=done, min_score=-1.0).found

    def kept(found: list, cutoff: float) -> list[str]:
        return [f.signals.id for f in found if f.by_words or (f.similarity is not None and f.similarity >= cutoff)]

    found_of = {q["id"]: judged(q["query"], q["user_id"]) for q in queries}
    splits = {"dev": [q for q in queries if q["split"] == "dev"], "heldout": [q for q in queries if q["split"] == "heldout"]}

    def recall(split: str, cutoff: float, at: int) -> float:
        chosen = splits[split]
        return sum(q["target_id"] in kept(found_of[q["id"]], cutoff)[:at] for q in chosen) / len(chosen)

    def returned(split: str, cutoff: float) -> float:
        chosen = splits[split]
        return sum(len(kept(found_of[q["id"]], cutoff)) for q in chosen) / len(chosen)

    base = {split: recall(split, -1.0, 5) for split in splits}
    print(f"\nno cut-off (memories.search.hybrid alone): recall@5 dev {base['dev']:.3f} · heldout "
          f"{base['heldout']:.3f}; notes kept per query dev {returned('dev', -1.0):.1f}")
    print("\ncut-off   dev R@1  R@5   kept/query   heldout R@1  R@5   kept/query")
    chosen_cutoff = None
    for cutoff in GRID:
        dev5 = recall("dev", cutoff, 5)
        if all(recall(split, cutoff, 5) >= base[split] - MAX_RECALL_DROP - 1e-9 for split in splits):
            chosen_cutoff = cutoff
        print(f"  {cutoff:.2f}    {recall('dev', cutoff, 1):.3f}  {dev5:.3f}  {returned('dev', cutoff):5.1f}       "
              f"{recall('heldout', cutoff, 1):.3f}  {recall('heldout', cutoff, 5):.3f}  {returned('heldout', cutoff):5.1f}")
    print(f"\nchosen (largest cut-off losing at most {MAX_RECALL_DROP} of recall@5 on both splits): {chosen_cutoff:.2f}; "
          f"memories.limits.SEARCH_MIN_SCORE = {SEARCH_MIN_SCORE}")
    for split in splits:
        print(f"  {split}: recall@5 {base[split]:.3f} -> {recall(split, SEARCH_MIN_SCORE, 5):.3f} at "
              f"SEARCH_MIN_SCORE; notes kept per query {returned(split, -1.0):.1f} -> "
              f"{returned(split, SEARCH_MIN_SCORE):.1f}")
    users = sorted(candidates)
    print("\noff-topic queries, notes kept per user's ~50 (no cut-off -> SEARCH_MIN_SCORE):")
    for query in OFF_TOPIC:
        per_user = [judged(query, user) for user in users]
        before = sum(len(kept(found, -1.0)) for found in per_user) / len(users)
        after = sum(len(kept(found, SEARCH_MIN_SCORE)) for found in per_user) / len(users)
        print(f"  {query!r}: {before:.1f} -> {after:.1f}")
    _timing(candidates, queries, search_cutoff, hybrid, vectors)
    return 0


def _timing(candidates: dict, queries: list[dict], search_cutoff, hybrid, vectors) -> None:
    """What the cut-off costs per search: it ranks every candidate to count what it leaves out."""
    import statistics

    pooled = hybrid.CandidateSet([s for user in sorted(candidates) for s in candidates[user].signals][:1000])
    sample = [q["query"] for q in queries[:300]]
    query_vectors = {query: vectors.query_vector(query) for query in sample}

    def measure(search) -> str:
        spent = []
        for query in sample:
            started = time.perf_counter()
            search(query, vectors._done(query_vectors[query]))
            spent.append((time.perf_counter() - started) * 1e3)
        spent.sort()
        return f"p50 {statistics.median(spent):.2f} ms · p95 {spent[int(len(spent) * 0.95)]:.2f} ms"

    print(f"\nper search over {len(pooled.signals)} candidates, in-process (query vector given, n={len(sample)}):")
    print(f"  hybrid.rank, best 10:            {measure(lambda q, v: hybrid.rank(pooled, q, 10, v))}")
    print(f"  search_cutoff.cut, best 10:      {measure(lambda q, v: search_cutoff.cut(pooled, q, 10, query_vec=v))}")


if __name__ == "__main__":
    raise SystemExit(main())
