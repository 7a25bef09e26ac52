"""Search and turn start as one workspace grows: 1k, 10k, 100k readable notes (issue 20).

PostgreSQL (``make bench BENCH=bench_scale`` starts a throwaway server), one workspace per size,
one person who can read every note of it (half ``workspace`` notes, half their own ``mine``
notes, 1 in 50 pinned), plus 5% held and 2% trashed notes the turn must not see. Each note has
its own vector: real MiniLM vectors of a few thousand distinct texts, each copy moved by a little
noise so that no two notes share one (loaded with COPY, not the ORM).

Per size, in-process, warm (this process has searched the workspace before):

* memory_search p50 / p95 (wall) and CPU p50 (this thread's CPU time);
* turn start + context p50 / p95 and CPU p50;
* the exact-cosine floor: ``matrix @ q`` over the same N float32 vectors, in the same run (this
  machine's speed varies by 3x between runs: the ratios carry, the milliseconds less so);
* the first search in a fresh worker (a new process that has loaded Django and the model, as a
  server worker does at start) and that worker's RSS growth for the workspace.

Sizes: ``BENCH_SCALE_SIZES`` (default ``1000,10000,100000``).
"""

from __future__ import annotations

import io
import json
import os
import random
import resource
import subprocess
import sys
import time
import uuid
from pathlib import Path

from benchmarks.databases import prepare_bench_databases, settle_tables
from benchmarks.stats import calibration, percentile

ROOT = Path(__file__).resolve().parent.parent
BENCH_DB = "appenda_bench_scale"
SIZES = tuple(int(s) for s in os.environ.get("BENCH_SCALE_SIZES", "1000,10000,100000").split(","))
N_QUERIES = int(os.environ.get("BENCH_SCALE_QUERIES", "200"))
N_TURNS = int(os.environ.get("BENCH_SCALE_TURNS", "200"))
DISTINCT = 3000
WORDS = ("report chart table order customer invoice amount region revenue churn weekly monthly format tone "
         "summary email export column filter dashboard metric forecast budget pipeline owner status date "
         "currency units emoji language short detailed bullet quarter target sales refund shipping supplier "
         "contract renewal discount margin cohort funnel signup trial plan seats invoice reminder holiday "
         "timezone deadline meeting agenda notes draft review approve reject escalate").split()


def _rss_mb() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _ms(values: list[float]) -> tuple[float, float]:
    ms = [v * 1000 for v in values]
    return percentile(ms, 50), percentile(ms, 95)


def _sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def _texts(rng: random.Random):
    """DISTINCT (key, value, vector) with the vector a save computes for that text."""
    import numpy as np

    from memories.search import vectors
    from memories.search.embedding import vector_from_bytes

    if vectors.embedder() is None:
        raise SystemExit(f"bench_scale needs the search model in {vectors.model_dir()}: run it through `make bench`.")
    pairs = [(f"{rng.choice(WORDS)}.{rng.choice(WORDS)}", _sentence(rng, rng.randint(5, 16))) for _ in range(DISTINCT)]
    start = time.perf_counter()
    matrix = np.stack([vector_from_bytes(vectors.embedding_for(k, v)) for k, v in pairs])
    print(f"  embedded {DISTINCT:,} distinct texts in {time.perf_counter() - start:.1f} s", flush=True)
    return pairs, matrix


def load(sizes, rng: random.Random) -> list[tuple]:
    import numpy as np
    from django.contrib.auth import get_user_model
    from django.db import connections

    from memories.search.fulltext import index_text, stored_terms
    from workspaces.models import Membership, Workspace

    pairs, base = _texts(rng)
    noise = np.random.default_rng(11)
    User = get_user_model()
    person = User.objects.create(username="scale@example.com", email="scale@example.com")
    other = User.objects.create(username="other@example.com", email="other@example.com")
    columns = ("id", "workspace_id", "key", "value", "layer", "scope", "owner_user_id", "state", "held_sources",
               "held_until", "pinned", "origin", "created_by_user_id", "created_at", "updated_at", "trashed_at",
               "search_text", "search_terms", "embedding")
    connections["region_eu"].ensure_connection()
    raw = connections["region_eu"].connection
    out = []
    for size in sizes:
        workspace = Workspace.objects.create(name=f"Scale {size}", slug=f"scale-{size}", kind="cloud", region="eu")
        Membership.objects.create(user=person, workspace=workspace, role="owner")
        Membership.objects.create(user=other, workspace=workspace, role="editor")
        total = int(size * 1.08)  # + 5% held, 2% trashed, 1% another member's own notes
        start = time.perf_counter()
        for chunk in range(0, total, 5000):  # one COPY per chunk: each within the statement timeout
            n = min(5000, total - chunk)
            picks = [rng.randrange(DISTINCT) for _ in range(n)]
            block = base[picks] + noise.standard_normal((n, base.shape[1]), dtype=np.float32) * 0.02
            block /= np.linalg.norm(block, axis=1, keepdims=True)
            block = block.astype("<f2")
            with raw.cursor() as cursor, cursor.copy(f"COPY memories_note ({', '.join(columns)}) FROM STDIN") as copy:
                for i in range(n):
                    j = chunk + i
                    key, value = pairs[picks[i]]
                    key = f"{key}{j}"
                    kind = j % 100
                    held, trashed, others = kind < 5, 5 <= kind < 7, kind == 7
                    layer = "mine" if (j % 2 or others) else "workspace"
                    owner = (other.pk if others else person.pk) if layer == "mine" else None
                    copy.write_row((
                        uuid.uuid4(), workspace.id, key, value, layer,
                        f"user:{owner}" if layer == "mine" else "workspace", owner,
                        "held" if held else "active", "[]", "2099-01-01T00:00:00Z" if held else None,
                        j % 50 == 1, "import", person.pk, "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z",
                        "2026-01-02T00:00:00Z" if trashed else None,
                        index_text(key, value), stored_terms(key, value), block[i].tobytes(),
                    ))
            raw.commit()
        raw.commit()
        print(f"  loaded {total:,} notes ({size:,} readable) in {time.perf_counter() - start:.1f} s", flush=True)
        out.append((size, workspace.id, person.pk))
    print(f"  VACUUM (ANALYZE), CHECKPOINT, pg_prewarm {settle_tables('region_eu', 'memories_note'):.1f} s", flush=True)
    return out


def _actor(workspace_id, user_id):
    from django.contrib.auth import get_user_model

    from workspaces.capabilities import actor_for
    from workspaces.models import Workspace

    return actor_for(get_user_model().objects.get(pk=user_id), Workspace.objects.get(pk=workspace_id))


def _clock(fn, **kwargs):
    wall, cpu = time.perf_counter(), time.thread_time()
    result = fn(**kwargs)
    return time.perf_counter() - wall, time.thread_time() - cpu, result


def fresh_worker(workspace_id, user_id, query: str) -> dict:
    """A new process: Django and the model loaded (a server worker's start), then one search."""
    code = (
        "import json, os, sys, time; import django; django.setup()\n"
        "from benchmarks.bench_scale import _actor, _rss_mb\n"
        "from memories import recall, turns\nfrom memories.search import vectors\n"
        "vectors.warm_up()\n"
        f"actor = _actor({str(workspace_id)!r}, {user_id}); turn = turns.turn_start(actor=actor)\n"
        "import cProfile, pstats; profile = cProfile.Profile()\n"
        "profiling = bool(os.environ.get('BENCH_SCALE_PROFILE'))\n"
        "rss = _rss_mb(); start = time.perf_counter()\n"
        "if profiling: profile.enable()\n"
        f"found = recall.memory_search(actor=actor, turn_id=turn.id, query={query!r}, limit=10)\n"
        "profile.disable(); first = time.perf_counter() - start; rss_after = _rss_mb()\n"
        "if profiling:\n"
        "    pstats.Stats(profile, stream=sys.stderr).sort_stats('cumtime').print_stats(14)\n"
        "start = time.perf_counter()\n"
        f"recall.memory_search(actor=actor, turn_id=turn.id, query={query!r} + ' x', limit=10)\n"
        "second = time.perf_counter() - start\n"
        "from memories.search import ann; start = time.perf_counter(); ann.BUILDER.wait()\n"
        "graph = time.perf_counter() - start\n"
        "print(json.dumps({'first': first, 'second': second, 'rss_growth': rss_after - rss, 'rss': rss_after,"
        " 'found': len(found['notes']), 'graph': graph, 'graph_rss': _rss_mb() - rss_after}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=os.environ,
                          timeout=2400)
    if done.returncode:
        raise SystemExit(f"fresh worker failed:\n{done.stderr[-3000:]}")
    if os.environ.get("BENCH_SCALE_PROFILE"):
        print(done.stderr[-6000:], flush=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def exact_floor(size: int, queries: list) -> tuple[float, float]:
    """``matrix @ q`` over ``size`` float32 vectors, the cheapest exact cosine ranking (+ top 10)."""
    import numpy as np

    matrix = np.random.default_rng(3).standard_normal((size, 384), dtype=np.float32)
    times = []
    for q in queries:
        start = time.perf_counter()
        sims = matrix @ q
        np.argpartition(-sims, 10)[:10]
        times.append(time.perf_counter() - start)
    return _ms(times)


def measure(size: int, workspace_id, user_id, rng: random.Random) -> dict:
    from memories import recall, turns
    from memories.search import ann, vectors

    actor = _actor(workspace_id, user_id)
    queries = [_sentence(rng, rng.randint(2, 5)) for _ in range(N_QUERIES)]
    # The first worker ever to search the workspace reads its notes (and keeps the index in the
    # region database when it is big: memories.search.snapshot); a fresh worker after it loads that.
    first_worker = fresh_worker(workspace_id, user_id, queries[0])
    worker = fresh_worker(workspace_id, user_id, queries[1])
    turn = turns.turn_start(actor=actor)
    rss = _rss_mb()
    recall.memory_search(actor=actor, turn_id=turn.id, query=queries[0], limit=10)
    ann.BUILDER.wait()  # a big workspace's graph: read beside the snapshot the first worker kept
    rss_growth = _rss_mb() - rss
    for q in queries[:10]:
        recall.memory_search(actor=actor, turn_id=turn.id, query=q, limit=10)
    wall, cpu, answers = [], [], []
    for q in queries:
        w, c, found = _clock(recall.memory_search, actor=actor, turn_id=turn.id, query=q, limit=10)
        wall.append(w)
        cpu.append(c)
        answers.append([note["id"] for note in found["notes"]])
        if found["ranking"] != "hybrid":
            raise SystemExit(f"memory_search ranked {found['ranking']!r}: not the search users get.")
    exact = None
    if size >= ann.MIN_ROWS:  # the same searches with the graph off: time, and which notes
        saved, ann.MIN_VISIBLE = ann.MIN_VISIBLE, 10**12
        try:
            exact_wall, exact_answers = [], []
            for q in queries:
                w, _, found = _clock(recall.memory_search, actor=actor, turn_id=turn.id, query=q, limit=10)
                exact_wall.append(w)
                exact_answers.append([note["id"] for note in found["notes"]])
        finally:
            ann.MIN_VISIBLE = saved
        exact = {"search": _ms(exact_wall), "recall5": sum(
            len(set(a[:5]) & set(e[:5])) / max(1, min(5, len(e))) for a, e in zip(answers, exact_answers))
            / len(queries)}
    start_wall, start_cpu = [], []
    for _ in range(N_TURNS):
        w, c, _ = _clock(lambda: recall.turn_context(turn=turns.turn_start(actor=actor), workspace=actor.workspace))
        start_wall.append(w)
        start_cpu.append(c)
    if os.environ.get("BENCH_SCALE_PROFILE") and size == max(SIZES):
        import cProfile
        import pstats

        profile = cProfile.Profile()
        profile.enable()
        for q in queries[:50]:
            recall.memory_search(actor=actor, turn_id=turn.id, query=q, limit=10)
        profile.disable()
        pstats.Stats(profile, stream=sys.stdout).sort_stats(os.environ.get("BENCH_SCALE_SORT", "tottime")).print_stats(30)
    floor = exact_floor(size, [vectors.query_vector(q) for q in queries[:100]])
    return {"size": size, "exact": exact, "search": _ms(wall), "search_cpu": _ms(cpu)[0], "turn": _ms(start_wall),
            "turn_cpu": _ms(start_cpu)[0], "floor": floor, "worker": worker, "first_worker": first_worker,
            "rss_growth": rss_growth}


def report(rows: list[dict], speed: float) -> str:
    lines = [
        "### One workspace, one person, N readable notes (PostgreSQL, in-process, warm)",
        "",
        "| readable notes | search p50 / p95 (CPU p50) | exact `matrix @ q` floor p50 / p95 | search p95 / floor p95 "
        "| turn start + context p50 / p95 (CPU p50) | first search, fresh worker (its second) "
        "| first search of the first worker ever | worker RSS growth |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        s50, s95 = r["search"]
        f50, f95 = r["floor"]
        t50, t95 = r["turn"]
        w = r["worker"]
        lines.append(
            f"| {r['size']:,} | {s50:.1f} / {s95:.1f} ms ({r['search_cpu']:.1f} ms) | {f50:.2f} / {f95:.2f} ms "
            f"| {s95 / max(f95, 1e-6):.1f}x | {t50:.1f} / {t95:.1f} ms ({r['turn_cpu']:.1f} ms) "
            f"| {w['first'] * 1000:.0f} ms ({w['second'] * 1000:.1f} ms) | {r['first_worker']['first'] * 1000:.0f} ms "
            f"| {w['rss_growth']:.0f} MB "
            f"(this process: {r['rss_growth']:.0f} MB) |")
    from memories.search import ann

    graphed = [r for r in rows if r["exact"]]
    if graphed:
        lines += ["", f"From {ann.MIN_ROWS:,} notes up (ann.MIN_ROWS) a search asks the workspace's ANN graph (memories.search.ann); "
                  "the same 200 searches with the graph off, and how many of their best 5 notes the graph's answers share:",
                  "", "| readable notes | search with the graph p50 / p95 | exact p50 / p95 | recall@5 of the answers "
                  "| graph built by the first worker | graph read by a fresh worker (its RSS) |", "|---|---|---|---|---|---|"]
        for r in graphed:
            lines.append(f"| {r['size']:,} | {r['search'][0]:.1f} / {r['search'][1]:.1f} ms | {r['exact']['search'][0]:.1f} / "
                         f"{r['exact']['search'][1]:.1f} ms | {r['exact']['recall5']:.3f} | "
                         f"{r['first_worker']['graph']:.1f} s after its searches | {r['worker']['graph']:.2f} s "
                         f"(+{r['worker']['graph_rss']:.0f} MB) |")
    lines += ["", f"This machine's speed: sum(range(10⁶)) takes {speed} ms of CPU (about 9 ms on a current laptop core)."]
    lines += [_targets(r) for r in rows if r["size"] in (100_000, 1_000_000)]
    return "\n".join(lines)


def _targets(row: dict) -> str:
    """Issue 20's targets: at 100,000 notes search p95 ≤ 10 ms, turn start p95 ≤ 5 ms and a fresh
    worker's first search ≤ 0.5 s; at 1,000,000 search p95 ≤ 20 ms."""
    def verdict(ok: bool) -> str:
        return "met" if ok else "NOT met"

    if row["size"] == 1_000_000:
        return f"Target at 1,000,000: search p95 ≤ 20 ms — {verdict(row['search'][1] <= 20)}."
    return (f"Targets at 100,000: search p95 ≤ 10 ms — {verdict(row['search'][1] <= 10)}; "
            f"turn start p95 ≤ 5 ms — {verdict(row['turn'][1] <= 5)}; first search in a fresh worker "
            f"≤ 0.5 s — {verdict(row['worker']['first'] <= 0.5)}.")


def ann_recall_on_paraphrases() -> str:
    """Recall@5 of the graph against exact cosine on real notes, none a copy of another: the
    paraphrase set's notes and queries (benchmarks/data), every note visible and a random third."""
    import numpy as np

    from memories.search import ann, vectors
    from memories.search.embedding import vector_from_bytes

    data = Path(__file__).resolve().parent / "data"
    pairs = {(n["key"], n["value"]) for n in map(json.loads, (data / "paraphrase_notes.jsonl").read_text().splitlines())}
    notes = [{"key": key, "value": value} for key, value in sorted(pairs)]  # no two notes alike
    queries = [json.loads(line)["query"] for line in (data / "paraphrase_queries.jsonl").read_text().splitlines()]
    matrix = np.stack([vector_from_bytes(vectors.embedding_for(n["key"], n["value"])) for n in notes])
    start = time.perf_counter()
    graph = ann.Graph.build(matrix, len(matrix))
    built = time.perf_counter() - start
    rng = np.random.default_rng(5)
    parts = []
    for name, allowed in (("every note visible", np.ones(len(matrix), dtype=bool)),
                          ("a random third visible", rng.random(len(matrix)) < 1 / 3)):
        bits, rows = ann.bitmap(allowed), np.flatnonzero(allowed)
        shared, times = 0.0, []
        for query in queries:
            q = vectors.query_vector(query)
            fifth = np.sort(matrix[rows] @ q)[-5]  # a note tied with the 5th counts as found
            t = time.perf_counter()
            proposed = graph.search(q, bits, ann.PROPOSED)
            times.append(time.perf_counter() - t)
            best = np.sort(matrix[proposed] @ q)[-5:]
            shared += float(np.count_nonzero(best >= fifth)) / 5
        parts.append(f"{name}: recall@5 {shared / len(queries):.3f}, graph search p50 / p95 "
                     f"{percentile([t * 1000 for t in times], 50):.2f} / {percentile([t * 1000 for t in times], 95):.2f} ms")
    return (f"ANN against exact cosine on {len(notes):,} real notes (the paraphrase set's distinct notes), "
            f"{len(queries):,} queries, graph built in {built:.1f} s: " + "; ".join(parts) + ".")


def main() -> str:
    prepare_bench_databases(BENCH_DB, bench="bench_scale")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate_all", verbosity=0, stdout=io.StringIO())
    rng = random.Random(20)
    print(f"bench_scale: sizes {', '.join(f'{s:,}' for s in SIZES)}", flush=True)
    loaded = load(SIZES, rng)
    speed = calibration()
    rows = []
    for size, workspace_id, user_id in loaded:
        rows.append(measure(size, workspace_id, user_id, rng))
        r = rows[-1]
        print(f"  {size:,}: search {r['search'][0]:.1f}/{r['search'][1]:.1f} ms, turn {r['turn'][0]:.1f}/"
              f"{r['turn'][1]:.1f} ms, floor {r['floor'][0]:.2f} ms, fresh worker {r['worker']['first']:.2f} s",
              flush=True)
    text = report(rows, speed) + "\n" + ann_recall_on_paraphrases()
    print(text, flush=True)
    return text


if __name__ == "__main__":
    main()
