"""Ranking benchmark for note search: lexical BM25 vs MiniLM cosine vs hybrid.

Usage::

    .venv/bin/python benchmarks/make_paraphrase_dataset.py     # once; the data is committed
    .venv/bin/python -m memories.search.model_export export        # once; writes var/models/minilm
    .venv/bin/python benchmarks/bench_search_ranking.py [--cache-dir DIR] [--json OUT]

Each query of benchmarks/data/paraphrase_queries.jsonl ranks only its own
user's notes (~50).  Methods:

* ``bm25``     -- in-process BM25 (k1=1.2, b=0.75), OR semantics, keys split on
  ``.``/``_``/camelCase, English stop words dropped, a light suffix stemmer.
  The reference lexical signal; the product's DB-side full-text is separate.
* ``semantic`` -- cosine between all-MiniLM-L6-v2 (int8 ONNX) query and note
  vectors; note vectors stored as float16 (float32 reported too).
* ``hybrid``   -- ``memories.search.fusion.fuse``: per-query normalised scores,
  weighted sum; the weight is grid-searched on the dev split and reported on
  the heldout split.

Timings are in-process, per query: query embedding + scoring over the
user's ~50 notes, and over 1,000 notes (the user's notes plus others).
"""

from __future__ import annotations

import re

# ----------------------------------------------------------------- analysis
# Shared with make_paraphrase_dataset.py (its "no copied content words" check).

STOP_WORDS = frozenset(
    """
    a about above after again against all am an and any are aren as at be because been before being
    below between both but by can cannot could couldn did didn do does doesn doing don down during each
    few for from further had hadn has hasn have haven having he her here hers herself him himself his
    how i if in into is isn it its itself just let me more most my myself no nor not now of off on once
    only or other ought our ours ourselves out over own same shan she should shouldn so some such than
    that the their theirs them themselves then there these they this those through to too under until up
    very was wasn we were weren what when where which while who whom why will with won would wouldn you
    your yours yourself yourselves s t d ll m re ve y o also get got okay ok please thing things way
    e g eg ie etc us per via
    """.split()
)

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_WORD = re.compile(r"[a-z0-9]+")


def split_key(key: str) -> str:
    """``team.date_format`` -> ``team date format``; ``Orders.amountCents`` -> ``Orders amount Cents``."""
    key = re.sub(r"[._\-/:]+", " ", key)
    return _CAMEL.sub(" ", key)


def stem(word: str) -> str:
    """A light English suffix stripper (plural, -ing, -ed, -ly, -ies ...).

    Deliberately small: it must conflate ``replies``/``reply``, ``formatted``/
    ``formatting``/``format``, ``orders``/``order``, and leave short words alone.
    """
    w = word
    if len(w) <= 3 or w.isdigit():
        return w
    for suf, rep in (
        ("ational", "ate"),
        ("ization", "ize"),
        ("fulness", "ful"),
        ("iveness", "ive"),
        ("ations", "ate"),
        ("ation", "ate"),
        ("ments", ""),
        ("ment", ""),
        ("ness", ""),
        ("ings", ""),
        ("ing", ""),
        ("ies", "y"),
        ("ied", "y"),
        ("ers", "er"),
        ("edly", ""),
        ("ed", ""),
        ("ly", ""),
        ("es", ""),
        ("s", ""),
    ):
        if suf == "ly" and (w.endswith("ply") or len(w) < 6):
            continue  # reply, apply, only, early
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            w = w[: -len(suf)] + rep
            break
    if w.endswith("ss") and word.endswith("sses"):
        return w
    # doubled final consonant left by -ing/-ed: "planned" -> "plann" -> "plan"
    if len(w) >= 4 and w[-1] == w[-2] and w[-1] not in "aeiouls":
        w = w[:-1]
    if w.endswith("e") and len(w) >= 4:
        w = w[:-1]
    return w


def tokens(text: str) -> list[str]:
    """Lower-cased words with keys/identifiers split, before stop words and stemming."""
    return _WORD.findall(split_key(text).lower())


def analyze(text: str) -> list[str]:
    """Content-word stems of ``text`` (stop words dropped)."""
    return [stem(w) for w in tokens(text) if w not in STOP_WORDS]


def analyze_unsplit(text: str) -> list[str]:
    """As ``analyze`` but an identifier such as ``pref.tone`` stays one term
    (roughly what a stock full-text parser does with a dotted key)."""
    words = re.findall(r"[a-z0-9]+(?:[._][a-z0-9]+)*", text.lower())
    return [w if ("." in w or "_" in w) else stem(w) for w in words if w not in STOP_WORDS]


# ------------------------------------------------------------------- BM25


class BM25:
    """Okapi BM25 over a fixed set of notes with OR semantics.

    A note's text is its split key plus its value.  ``score(query)`` returns
    {note_id: score} for notes matching at least one query term.
    """

    def __init__(self, docs: list[tuple[str, str]], k1: float = 1.2, b: float = 0.75, split_keys: bool = True):
        import math

        self.analyze = analyze if split_keys else analyze_unsplit
        self.k1, self.b = k1, b
        self.ids = [d[0] for d in docs]
        self.postings: dict[str, list[tuple[int, int]]] = {}
        lengths = []
        for i, (_, text) in enumerate(docs):
            terms = self.analyze(text)
            lengths.append(len(terms))
            tf: dict[str, int] = {}
            for t in terms:
                tf[t] = tf.get(t, 0) + 1
            for t, c in tf.items():
                self.postings.setdefault(t, []).append((i, c))
        n = len(docs)
        avg = (sum(lengths) / n) if n else 1.0
        self.norm = [k1 * (1 - b + b * (ln / avg)) for ln in lengths]
        self.idf = {t: math.log(1 + (n - len(p) + 0.5) / (len(p) + 0.5)) for t, p in self.postings.items()}

    def score(self, query: str) -> dict:
        acc: dict[int, float] = {}
        k1 = self.k1
        for t in dict.fromkeys(self.analyze(query)):  # unique, in a fixed order
            plist = self.postings.get(t)
            if not plist:
                continue
            idf = self.idf[t]
            for i, tf in plist:
                acc[i] = acc.get(i, 0.0) + idf * tf * (k1 + 1) / (tf + self.norm[i])
        ids = self.ids
        return {ids[i]: s for i, s in acc.items()}


# ------------------------------------------------------------------ benchmark


def _load_jsonl(path):
    import json

    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _rank_of(ranked_ids: list, target) -> int:
    try:
        return ranked_ids.index(target) + 1
    except ValueError:
        return 10**9


def _metrics(ranks: list[int]) -> dict:
    n = len(ranks) or 1
    return {
        "n": len(ranks),
        "recall@1": round(sum(r <= 1 for r in ranks) / n, 4),
        "recall@5": round(sum(r <= 5 for r in ranks) / n, 4),
        "mrr": round(sum(1.0 / r for r in ranks) / n, 4),
    }


def _pct(values_s: list[float]) -> dict:
    import numpy as np

    a = np.asarray(values_s) * 1e3
    return {"p50_ms": round(float(np.percentile(a, 50)), 3), "p95_ms": round(float(np.percentile(a, 95)), 3),
            "n": len(a)}


def _ranked(scores: dict) -> list:
    return [k for k, _ in sorted(scores.items(), key=lambda kv: -kv[1])]


#: A weight whose dev recall@1 and recall@5 are both at most this many dev
#: queries short of the grid's best counts as a tie (5 of 600: under a point,
#: below the sampling error of ~1.5 points); ties go to the larger lexical
#: weight, because the dataset forbids the target's value words in queries, so
#: there every value-word match is a distractor by construction and lexical is
#: understated.
TIE_QUERIES = 5


def main(argv: list[str] | None = None) -> int:
    import argparse
    import json
    import os
    import sys
    import time
    from pathlib import Path

    import numpy as np

    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root))
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from memories.search import embedding as E
    from memories.search.fusion import DEFAULT_WEIGHTS, FusionWeights, fuse
    from memories.search.model_export import export_model

    ap = argparse.ArgumentParser(description="note search ranking benchmark")
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parent / "data")
    ap.add_argument("--cache-dir", type=Path, default=E.DEFAULT_CACHE_DIR)
    ap.add_argument("--json", type=Path, help="write all figures here as JSON")
    ap.add_argument("--timing-queries", type=int, default=400, help="queries timed per method and note count")
    ap.add_argument("--note-samples", type=int, default=400, help="notes embedded one by one for timing")
    ap.add_argument("--fp32", action="store_true", help="also rank with the unquantised model")
    ap.add_argument("--skip-timing", action="store_true", help="ranking figures only")
    ap.add_argument("--timing-only", action="store_true",
                    help="latency figures only; stored vectors are random unit vectors (scoring cost does not "
                         "depend on their values), which skips embedding every note first")
    args = ap.parse_args(argv)

    notes = _load_jsonl(args.data / "paraphrase_notes.jsonl")
    queries = _load_jsonl(args.data / "paraphrase_queries.jsonl")
    by_user: dict[str, list[dict]] = {}
    for n in notes:
        by_user.setdefault(n["user_id"], []).append(n)
    note_by_id = {n["id"]: n for n in notes}
    user_ids = {u: [n["id"] for n in ns] for u, ns in by_user.items()}
    row_of = {n["id"]: i for i, n in enumerate(notes)}
    user_rows = {u: np.array([row_of[i] for i in ids]) for u, ids in user_ids.items()}
    out: dict = {"notes": len(notes), "queries": len(queries), "users": len(by_user),
                 "loadavg_start": os.getloadavg()}
    print(f"{len(notes)} notes, {len(by_user)} users, {len(queries)} queries "
          f"(dev {sum(q['split'] == 'dev' for q in queries)}, heldout {sum(q['split'] == 'heldout' for q in queries)})")

    # --- lexical
    def doc(n):
        return f"{n['key']} {n['value']}"

    bm25 = {u: BM25([(n["id"], doc(n)) for n in ns]) for u, ns in by_user.items()}
    bm25_unsplit = {u: BM25([(n["id"], doc(n)) for n in ns], split_keys=False) for u, ns in by_user.items()}
    lex = {q["id"]: bm25[q["user_id"]].score(q["query"]) for q in queries}
    lex_unsplit = {q["id"]: bm25_unsplit[q["user_id"]].score(q["query"]) for q in queries}

    # --- semantic
    t0 = time.perf_counter()
    export_model(args.cache_dir, keep_fp32=args.fp32)
    out["export_or_check_s"] = round(time.perf_counter() - t0, 2)
    emb = E.Embedder(args.cache_dir)
    if args.timing_only:
        rnd = np.random.default_rng(0).standard_normal((len(notes), E.DIMS)).astype(np.float32)
        rnd /= np.linalg.norm(rnd, axis=1, keepdims=True)
        blobs = [E.vector_to_bytes(v) for v in rnd]
        out["embed_all_notes_s"] = None
        _timings(args, out, E, emb, fuse, queries, notes, note_by_id, user_ids, row_of, bm25, blobs)
        out["loadavg_end"] = os.getloadavg()
        if args.json:
            args.json.write_text(json.dumps(out, indent=2) + "\n")
        return 0
    t0 = time.perf_counter()
    vec_note = emb.embed_notes((n["key"], n["value"]) for n in notes)
    out["embed_all_notes_s"] = round(time.perf_counter() - t0, 2)
    vec_text = emb.embed([E.note_text(n["key"], n["value"]) for n in notes])
    blobs = [E.vector_to_bytes(v, "float16") for v in vec_note]
    vec_note16 = E.vectors_from_bytes(blobs)
    qvec = emb.embed([q["query"] for q in queries])

    def sem_table(note_mat, query_mat):
        return {q["id"]: dict(zip(user_ids[q["user_id"]], (note_mat[user_rows[q["user_id"]]] @ query_mat[i]).tolist()))
                for i, q in enumerate(queries)}

    sem = sem_table(vec_note16, qvec)
    tables = {
        "semantic": sem,
        "semantic, f32 store": sem_table(vec_note, qvec),
        "semantic, note text only": sem_table(vec_text, qvec),
    }
    if args.fp32:
        emb32 = E.Embedder(args.cache_dir, model_file="model.fp32.onnx")
        tables["semantic, fp32 model"] = sem_table(emb32.embed_notes((n["key"], n["value"]) for n in notes),
                                                   emb32.embed([q["query"] for q in queries]))

    def ranks(rank_fn, split):
        return [_rank_of(rank_fn(q), q["target_id"]) for q in queries if q["split"] == split]

    def hybrid(w, table=sem):
        return lambda q: [k for k, _ in fuse(lex[q["id"]], table[q["id"]], w)]

    # --- weight search on dev
    grid = []
    for i in range(21):
        wl = round(i * 0.05, 2)
        w = FusionWeights(semantic=round(1 - wl, 2), lexical=wl)
        grid.append((w, _metrics(ranks(hybrid(w), "dev"))))
    def hits(m, k):
        return round(m[f"recall@{k}"] * m["n"])

    best5 = max(hits(m, 5) for _, m in grid)
    best1 = max(hits(m, 1) for _, m in grid)
    near = [w for w, m in grid if hits(m, 5) >= best5 - TIE_QUERIES and hits(m, 1) >= best1 - TIE_QUERIES]
    chosen = max(near, key=lambda w: w.lexical)
    out["grid_dev"] = [{"lexical": w.lexical, **m} for w, m in grid]
    out["chosen_weights"] = {"semantic": chosen.semantic, "lexical": chosen.lexical}
    print("\nhybrid on dev by lexical weight (recall@1/recall@5):")
    for row in range(0, 21, 7):
        print("  " + "  ".join(f"{w.lexical:.2f}: {m['recall@1']:.3f}/{m['recall@5']:.3f}" for w, m in grid[row:row + 7]))
    print(f"chosen on dev (largest lexical weight with recall@1 and @5 within {TIE_QUERIES} queries of the best): "
          f"semantic {chosen.semantic}, lexical {chosen.lexical}; fusion.py: semantic {DEFAULT_WEIGHTS.semantic}, "
          f"lexical {DEFAULT_WEIGHTS.lexical}" + ("" if chosen == DEFAULT_WEIGHTS else "  <-- update fusion.py"))

    methods = {
        "bm25 (keys split)": lambda q: _ranked(lex[q["id"]]),
        "bm25, keys not split": lambda q: _ranked(lex_unsplit[q["id"]]),
    }
    for name, table in tables.items():
        methods[name] = lambda q, t=table: _ranked(t[q["id"]])
    methods[f"hybrid ({DEFAULT_WEIGHTS.semantic}/{DEFAULT_WEIGHTS.lexical})"] = hybrid(DEFAULT_WEIGHTS)
    if chosen != DEFAULT_WEIGHTS:
        methods[f"hybrid dev-chosen ({chosen.semantic}/{chosen.lexical})"] = hybrid(chosen)
    out["ranking"] = {}
    print(f"\n{'method':36s} {'dev R@1':>8s} {'R@5':>6s} {'MRR':>6s} {'heldout R@1':>12s} {'R@5':>6s} {'MRR':>6s}")
    for name, fn in methods.items():
        d, h = _metrics(ranks(fn, "dev")), _metrics(ranks(fn, "heldout"))
        out["ranking"][name] = {"dev": d, "heldout": h}
        print(f"{name:36s} {d['recall@1']:8.3f} {d['recall@5']:6.3f} {d['mrr']:6.3f} "
              f"{h['recall@1']:12.3f} {h['recall@5']:6.3f} {h['mrr']:6.3f}")
    print("\nheldout recall@5 by topic / query style:")
    groups = sorted({("topic", q["topic"]) for q in queries} | {("style", q.get("style", "-")) for q in queries})
    out["heldout_recall5_by_group"] = {}
    for name, fn in (("bm25", methods["bm25 (keys split)"]), ("semantic", methods["semantic"]),
                     ("hybrid", hybrid(DEFAULT_WEIGHTS))):
        row = {}
        for field, val in groups:
            rs = [_rank_of(fn(q), q["target_id"]) for q in queries
                  if q["split"] == "heldout" and q.get(field) == val]
            row[val] = _metrics(rs)["recall@5"]
        out["heldout_recall5_by_group"][name] = row
        print(f"  {name:9s} " + "  ".join(f"{k}: {v:.3f}" for k, v in row.items()))

    if not args.skip_timing:
        _timings(args, out, E, emb, fuse, queries, notes, note_by_id, user_ids, row_of, bm25, blobs)
    out["loadavg_end"] = os.getloadavg()
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    return 0


def _timings(args, out, E, emb, fuse, queries, notes, note_by_id, user_ids, row_of, bm25, blobs):
    """Per-query latency over the user's notes and over 1,000 notes; note embedding cost."""
    import random
    import time
    from pathlib import Path

    import numpy as np

    rng = random.Random(7)
    timed = rng.sample(queries, min(args.timing_queries, len(queries)))
    for q in timed[:30]:
        emb.embed_one(q["query"])  # warm-up

    def run(visible):
        res = {m: ([], []) for m in ("bm25", "semantic", "hybrid")}

        def clock(method, fn, q):
            w0, c0 = time.perf_counter(), time.thread_time()
            fn(q)
            res[method][0].append(time.perf_counter() - w0)
            res[method][1].append(time.thread_time() - c0)

        def m_bm25(q):
            index, _, _ = visible(q)
            s = index.score(q["query"])
            return sorted(s.items(), key=lambda kv: -kv[1])[:5]

        def m_sem(q):
            _, ids, blob = visible(q)
            qv = emb.embed_one(q["query"])
            mat = np.frombuffer(blob, dtype="<f2").reshape(len(ids), E.DIMS).astype(np.float32)
            sims = mat @ qv
            top = np.argpartition(-sims, min(5, len(ids) - 1))[:5]
            return [ids[i] for i in top[np.argsort(-sims[top])]]

        def m_hybrid(q):
            index, ids, blob = visible(q)
            qv = emb.embed_one(q["query"])
            mat = np.frombuffer(blob, dtype="<f2").reshape(len(ids), E.DIMS).astype(np.float32)
            sims = dict(zip(ids, (mat @ qv).tolist()))
            return fuse(index.score(q["query"]), sims, limit=5)

        for q in timed:
            clock("bm25", m_bm25, q)
            clock("semantic", m_sem, q)
            clock("hybrid", m_hybrid, q)
        return {m: {"wall": _pct(w), "cpu": _pct(c)} for m, (w, c) in res.items()}

    by_user_blob = {u: b"".join(blobs[row_of[i]] for i in ids) for u, ids in user_ids.items()}
    small = run(lambda q: (bm25[q["user_id"]], user_ids[q["user_id"]], by_user_blob[q["user_id"]]))

    big_sets = {}
    all_ids = [n["id"] for n in notes]
    for q in timed:
        u = q["user_id"]
        if u not in big_sets:
            others = [i for i in rng.sample(all_ids, 1100) if note_by_id[i]["user_id"] != u]
            ids = user_ids[u] + others[: 1000 - len(user_ids[u])]
            big_sets[u] = (BM25([(i, f"{note_by_id[i]['key']} {note_by_id[i]['value']}") for i in ids]), ids,
                           b"".join(blobs[row_of[i]] for i in ids))
    big = run(lambda q: big_sets[q["user_id"]])
    out["latency"] = {"user_notes": small, "1000_notes": big}

    qtok = [len(emb.tokenizer.encode(q["query"]).ids) for q in timed]
    sample = rng.sample(notes, min(args.note_samples, len(notes)))
    note_cost = {}
    for label, cold in (("cold", True), ("key cache warm as it fills", False)):
        emb._key_cache.clear()
        wall, cpu = [], []
        for n in sample:
            if cold:
                emb._key_cache.clear()
            w0, c0 = time.perf_counter(), time.thread_time()
            E.vector_to_bytes(emb.embed_note(n["key"], n["value"]))
            wall.append(time.perf_counter() - w0)
            cpu.append(time.thread_time() - c0)
        note_cost[label] = {"wall": _pct(wall), "cpu": _pct(cpu)}
    ntok = [len(emb.tokenizer.encode(E.note_text(n["key"], n["value"])).ids) for n in sample]
    out["note_embedding"] = note_cost
    out["tokens"] = {"query_p50": float(np.percentile(qtok, 50)), "query_p95": float(np.percentile(qtok, 95)),
                     "note_p50": float(np.percentile(ntok, 50)), "note_p95": float(np.percentile(ntok, 95))}
    out["storage_bytes_per_note"] = {"float16": E.DIMS * 2, "float32": E.DIMS * 4}
    out["model_bytes"] = (Path(args.cache_dir) / E.MODEL_FILENAME).stat().st_size

    print("\nper-query latency, in-process, 1 onnxruntime thread (wall p50/p95 | thread CPU p50/p95, ms):")
    for label, res in (("user's ~50 notes", small), ("1,000 notes", big)):
        for m, r in res.items():
            print(f"  {label:17s} {m:9s} {r['wall']['p50_ms']:6.2f} / {r['wall']['p95_ms']:6.2f}  |  "
                  f"{r['cpu']['p50_ms']:6.2f} / {r['cpu']['p95_ms']:6.2f}")
    tk = out["tokens"]
    for label, ne in out["note_embedding"].items():
        print(f"embedding a saved note (embed_note, {label}): wall {ne['wall']['p50_ms']:.2f} / "
              f"{ne['wall']['p95_ms']:.2f} ms | CPU {ne['cpu']['p50_ms']:.2f} / {ne['cpu']['p95_ms']:.2f} ms")
    print(f"tokens: query p50 {tk['query_p50']:.0f} p95 {tk['query_p95']:.0f}; note p50 {tk['note_p50']:.0f} "
          f"p95 {tk['note_p95']:.0f}")
    print(f"storage per note: {E.DIMS * 2} B float16 (stored), {E.DIMS * 4} B float32; model file "
          f"{out['model_bytes'] / 1e6:.1f} MB"
          + (f"; embedding all {len(notes)} notes one by one: {out['embed_all_notes_s']} s"
             if out.get("embed_all_notes_s") else ""))
    print(f"load average at start/end: {out['loadavg_start']} / {__import__('os').getloadavg()}")


if __name__ == "__main__":
    raise SystemExit(main())
