"""memory_search as the service runs it, on PostgreSQL and on the embedded SQLite default.

For a turn that can read 1,000 notes (plus held, trashed and other people's notes it must not
see, and background workspaces), in-process:

* memory_search p50/p95, warm (this process has searched these notes before) and cold (first
  search after a restart), with where the time goes;
* the lexical signal three ways: this design (terms cached per note, scored in Python), the
  previous one (read every text, tokenise per query) and the database's own full-text index
  (PostgreSQL GIN on ``to_tsvector('english', search_text)`` + ``pg_trgm``; SQLite FTS5 with the
  porter tokenizer), built here on the benchmark's database only;
* where brute-force ranking stops being fast: 1k, 2k, 5k, 10k readable notes;
* saves p50/p95 with the embedding, the embedding alone, and saves without a model;
* recall@1/@5 of the paraphrase set (benchmarks/data) through the product's memory_search, each
  query searching its user's notes, hybrid and lexical, dev and held-out splits;
* whether both engines give the same top 10 for every query (compared by the parent process).

Usage: ``python -m benchmarks.bench_search_service`` (PostgreSQL needs DATABASE_URL, as under
``make bench``; SQLite always runs). Each engine runs in its own process.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

from benchmarks.databases import prepare_bench_databases
from benchmarks.stats import calibration, percentile

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data"
BENCH_DB = "appenda_bench_search"
SQLITE_DIR = ROOT / "var" / "bench" / "search_sqlite"
VECTOR_CACHE = ROOT / "var" / "bench" / "paraphrase_note_vectors.npy"
VISIBLE = 1000
SCALE_SIZES = (2000, 5000, 10000)
BACKGROUND = int(os.environ.get("BENCH_SEARCH_BACKGROUND", "100000"))
N_QUERIES = int(os.environ.get("BENCH_SEARCH_QUERIES", "300"))
N_SAVES = int(os.environ.get("BENCH_SEARCH_SAVES", "200"))


# --- setup ------------------------------------------------------------------------------------

def prepare_postgres() -> None:
    prepare_bench_databases(BENCH_DB, bench="bench")


def prepare_sqlite() -> None:
    for name in ("DATABASE_URL", "REGION_EU_DATABASE_URL", "REGION_US_DATABASE_URL"):
        os.environ.pop(name, None)
    shutil.rmtree(SQLITE_DIR, ignore_errors=True)
    SQLITE_DIR.mkdir(parents=True)
    os.environ["APPENDA_DATA_DIR"] = str(SQLITE_DIR)


def load_dataset() -> tuple[list[dict], list[dict]]:
    notes = [json.loads(line) for line in (DATA / "paraphrase_notes.jsonl").read_text().splitlines()]
    queries = [json.loads(line) for line in (DATA / "paraphrase_queries.jsonl").read_text().splitlines()]
    return notes, queries


def dataset_vectors(notes: list[dict]):
    """float16 bytes of each dataset note, as a save computes them; cached across runs."""
    import numpy as np

    from memories.search import embedding as E
    from memories.search.vectors import embedder

    digest = hashlib.sha256(json.dumps([(n["key"], n["value"]) for n in notes]).encode()
                            + f"{E.EXPORT_VERSION}/{E.NOTE_KEY_WEIGHT}".encode()).hexdigest()[:16]
    path = VECTOR_CACHE.with_suffix(f".{digest}.npy")
    if path.exists():
        matrix = np.load(path)
    else:
        model = embedder()
        start = time.perf_counter()
        matrix = model.embed_notes([(n["key"], n["value"]) for n in notes]).astype("<f2")
        print(f"  embedded {len(notes):,} dataset notes in {time.perf_counter() - start:.0f} s (cached in {path.name})")
        path.parent.mkdir(parents=True, exist_ok=True)
        np.save(path, matrix)
    return [row.tobytes() for row in matrix]


def _user(email: str):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create(username=email, email=email)


def _workspace(owner, name: str):
    from workspaces.models import Membership, Workspace

    workspace = Workspace.objects.create(name=name, slug=re.sub(r"\W+", "-", name.lower()), kind="cloud", region="eu")
    Membership.objects.create(user=owner, workspace=workspace, role="owner")
    return workspace


def _note(workspace, key, value, *, layer="workspace", owner=None, vector=None, **fields):
    from memories.models import Note
    from memories.search.fulltext import index_text, stored_terms

    # The same ids on both engines, so that the engines' rankings can be compared exactly.
    note_id = uuid.uuid5(uuid.NAMESPACE_URL, f"appenda-bench/{workspace.slug}/{layer}/{key}/{fields.get('state', '')}"
                         f"/{owner.pk if owner and layer == 'mine' else ''}/{bool(fields.get('trashed_at'))}")
    return Note(id=note_id, workspace_id=workspace.id, key=key[:100], value=value, layer=layer,
                scope=f"user:{owner.pk}" if layer == "mine" else "workspace",
                owner_user_id=owner.pk if layer == "mine" else None, origin="import",
                search_text=index_text(key[:100], value), search_terms=stored_terms(key[:100], value),
                embedding=vector, **fields)


def _unique_keys(rows):
    seen: dict[str, int] = {}
    for row in rows:
        key = row["key"]
        seen[key] = seen.get(key, 0) + 1
        yield row, key if seen[key] == 1 else f"{key}.{seen[key]}"


def load(notes, vectors_bytes):
    """The searched workspace, the per-user recall workspaces, the scale workspaces, background."""
    import numpy as np
    from django.utils import timezone

    from memories.models import Note

    alias = "region_eu"
    rng = np.random.default_rng(7)

    def random_vector():
        v = rng.standard_normal(384).astype(np.float32)
        return (v / np.linalg.norm(v)).astype("<f2").tobytes()

    owner, colleague = _user("search-bench@example.com"), _user("colleague@example.com")
    main = _workspace(owner, "Search bench")
    from workspaces.models import Membership

    Membership.objects.create(user=colleague, workspace=main, role="editor")
    rows = []
    vec = dict(zip((n["id"] for n in notes), vectors_bytes))
    for i, (n, key) in enumerate(_unique_keys(notes[:VISIBLE])):
        rows.append(_note(main, key, n["value"], layer="mine" if i < 400 else "workspace", owner=owner, vector=vec[n["id"]]))
    later = timezone.now() + timezone.timedelta(hours=12)
    for n, key in _unique_keys(notes[VISIBLE:VISIBLE + 200]):  # held: never returned
        rows.append(_note(main, key, n["value"], layer="mine", owner=owner, vector=vec[n["id"]], state="held",
                          held_reason="tainted_turn", held_until=later))
    for n, key in _unique_keys(notes[VISIBLE + 200:VISIBLE + 500]):  # a colleague's own notes
        rows.append(_note(main, key, n["value"], layer="mine", owner=colleague, vector=vec[n["id"]]))
    for n, key in _unique_keys(notes[VISIBLE + 500:VISIBLE + 600]):  # in the trash
        rows.append(_note(main, key, n["value"], vector=vec[n["id"]], trashed_at=timezone.now()))
    Note.objects.using(alias).bulk_create(rows, batch_size=1000)

    per_user = {}
    for n in notes:
        per_user.setdefault(n["user_id"], []).append(n)
    recall = {}
    for user_id, own in per_user.items():
        person = _user(f"{user_id}@example.com")
        workspace = _workspace(person, f"Recall {user_id}")
        Note.objects.using(alias).bulk_create(
            [_note(workspace, key, n["value"], layer="mine", owner=person, vector=vec[n["id"]])
             for n, key in _unique_keys(own)], batch_size=1000)
        recall[user_id] = (person, workspace, {n["id"]: key for n, key in _unique_keys(own)})

    scale = {}
    for size in SCALE_SIZES:
        person = _user(f"scale{size}@example.com")
        workspace = _workspace(person, f"Scale {size}")
        cycled = [notes[i % len(notes)] for i in range(size)]
        Note.objects.using(alias).bulk_create(
            [_note(workspace, f"{n['key']}.{i}", n["value"], vector=random_vector()) for i, n in enumerate(cycled)],
            batch_size=1000)
        scale[size] = (person, workspace)

    start = time.perf_counter()
    background_owner = _user("background@example.com")
    for chunk in range(0, BACKGROUND, 10000):
        workspace = _workspace(background_owner, f"Background {chunk}")
        Note.objects.using(alias).bulk_create(
            [_note(workspace, f"{notes[i % len(notes)]['key']}.{i}", notes[i % len(notes)]["value"],
                   vector=random_vector()) for i in range(chunk, min(BACKGROUND, chunk + 10000))], batch_size=2000)
    print(f"  loaded {VISIBLE + 600:,} notes in the searched workspace, {len(notes):,} in {len(recall)} recall "
          f"workspaces, {sum(SCALE_SIZES):,} for scaling and {BACKGROUND:,} background "
          f"({time.perf_counter() - start:.0f} s for the background)", flush=True)
    return owner, main, recall, scale


# --- measures ---------------------------------------------------------------------------------

def ms(samples: list[float]) -> dict:
    values = [s * 1000 for s in samples]
    return {"p50": round(percentile(values, 50), 2), "p95": round(percentile(values, 95), 2), "n": len(values)}


def clock(fn, *args, **kwargs):
    wall, cpu = time.perf_counter(), time.thread_time()
    result = fn(*args, **kwargs)
    return time.perf_counter() - wall, time.thread_time() - cpu, result


def search_timings(actor, turn, queries) -> dict:
    from memories import recall
    from memories.search import hybrid

    for q in queries[:20]:
        recall.memory_search(actor=actor, turn_id=turn.id, query=q, limit=10)
    warm_wall, warm_cpu = [], []
    for q in queries:
        wall, cpu, _ = clock(recall.memory_search, actor=actor, turn_id=turn.id, query=q, limit=10)
        warm_wall.append(wall)
        warm_cpu.append(cpu)
    cold = []
    for q in queries[:50]:
        hybrid.caches_clear()
        wall, _, _ = clock(recall.memory_search, actor=actor, turn_id=turn.id, query=q, limit=10)
        cold.append(wall)
    return {"warm": ms(warm_wall), "warm_cpu": ms(warm_cpu), "cold": ms(cold)}


def breakdown(notes_qs, queries) -> dict:
    from memories.search import hybrid, vectors

    parts = {"visible ids (1 query)": [], "candidates (ids query + cached set)": [], "lexical (postings)": [],
             "query embedding": [], "rank (embedding + cosine + lexical + fuse)": []}
    source = hybrid.QuerysetNotes(notes_qs)
    candidates = hybrid.candidate_set(source)
    for q in queries:
        parts["visible ids (1 query)"].append(clock(source.versions)[0])
        parts["candidates (ids query + cached set)"].append(clock(hybrid.candidate_set, source)[0])
        parts["lexical (postings)"].append(clock(candidates.lexicon.scores, q)[0])
        parts["query embedding"].append(clock(vectors.query_vector, q)[0])
        parts["rank (embedding + cosine + lexical + fuse)"].append(clock(hybrid.rank, candidates, q, 10)[0])
    return {name: ms(samples) for name, samples in parts.items()}


def lexical_alternatives(engine: str, notes_qs, queries) -> dict:
    """The lexical signal alone, three ways, over the same readable notes."""
    from django.db import connections

    from memories.search import hybrid
    from memories.search.lexical import STOPWORDS, bm25_scores, note_text

    out = {}

    def cached(q):
        return hybrid.candidate_set(hybrid.QuerysetNotes(notes_qs)).lexicon.scores(q)
    out["this design: ids read, cached postings, BM25 in Python"] = ms([clock(cached, q)[0] for q in queries])

    def previous(q):
        docs = {str(n.id): note_text(n.key, n.value) for n in notes_qs.only("id", "key", "value")}
        return bm25_scores(q, docs)
    out["previous: texts read and tokenised per query"] = ms([clock(previous, q)[0] for q in queries])

    connection = connections[notes_qs.db]

    def words(query: str) -> list[str]:
        from memories.search.embedding import split_identifier
        return [w for w in dict.fromkeys(re.findall(r"[a-z0-9]+", split_identifier(query).lower()))
                if w not in STOPWORDS and len(w) > 1]

    start = time.perf_counter()
    with connection.cursor() as cursor:
        if engine == "postgresql":
            cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
            cursor.execute("CREATE INDEX IF NOT EXISTS bench_note_tsv ON memories_note "
                           "USING gin (to_tsvector('english', search_text))")
            cursor.execute("CREATE INDEX IF NOT EXISTS bench_note_trgm ON memories_note USING gin (search_text gin_trgm_ops)")
            cursor.execute("ANALYZE memories_note")
        else:
            cursor.execute("CREATE VIRTUAL TABLE bench_note_fts USING fts5(search_text, tokenize='porter')")
            cursor.execute("INSERT INTO bench_note_fts (rowid, search_text) SELECT rowid, search_text FROM memories_note")
    built = time.perf_counter() - start

    visible_sql, visible_params = notes_qs.order_by().values("id").query.sql_with_params()

    def database_side(q, trigrams=True):
        found = words(q)
        if not found:
            return []
        if engine == "postgresql":
            tsquery = " | ".join(found)  # words are [a-z0-9]+: nothing to escape
            tsv = "to_tsvector('english', n.search_text)"
            score, where, params = f"ts_rank_cd({tsv}, to_tsquery('english', %s))", f"{tsv} @@ to_tsquery('english', %s)", [tsquery, tsquery]
            if trigrams:
                score += " + GREATEST(" + ", ".join(["word_similarity(%s, n.search_text)"] * len(found)) + ")"
                where = "(" + where + " OR " + " OR ".join(["n.search_text %%> %s"] * len(found)) + ")"
                params = [tsquery, *found, tsquery, *found]
            sql = (f"SELECT n.id, {score} FROM memories_note n WHERE {where} AND n.id IN ({visible_sql})")
            params = params + list(visible_params)
        else:
            match = " OR ".join(f'"{w}"*' if trigrams and len(w) >= 3 else f'"{w}"' for w in found)
            sql = ("SELECT n.id, f.rank FROM (SELECT rowid AS rid, bm25(bench_note_fts) AS rank FROM bench_note_fts "
                   f"WHERE bench_note_fts MATCH %s) f JOIN memories_note n ON n.rowid = f.rid WHERE n.id IN ({visible_sql})")
            params = [match, *visible_params]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall()
    if engine == "postgresql":
        out["database: GIN tsvector, OR of lexemes, ts_rank_cd"] = {
            **ms([clock(database_side, q, False)[0] for q in queries]), "index build s": round(built, 1)}
        out["database: GIN tsvector + pg_trgm word_similarity for partial words"] = ms(
            [clock(database_side, q)[0] for q in queries])
    else:
        out["database: FTS5 porter, bm25(), OR of terms"] = {
            **ms([clock(database_side, q, False)[0] for q in queries]), "index build s": round(built, 1)}
        out["database: FTS5 porter, bm25(), OR of terms and prefixes"] = ms([clock(database_side, q)[0] for q in queries])
    return out


def scaling(scale, queries) -> dict:
    from memories import recall, turns
    from workspaces.capabilities import actor_for

    out = {}
    for size, (person, workspace) in scale.items():
        actor = actor_for(person, workspace)
        turn = turns.turn_start(actor=actor)
        for q in queries[:10]:
            recall.memory_search(actor=actor, turn_id=turn.id, query=q, limit=10)
        samples = [clock(recall.memory_search, actor=actor, turn_id=turn.id, query=q, limit=10)[0] for q in queries[:100]]
        out[f"{size:,} readable notes"] = ms(samples)
    return out


def saves(actor, rng) -> dict:
    from memories import services
    from memories.search import vectors

    words = "report chart table order customer invoice amount region revenue churn weekly format tone".split()
    out = {}
    embed = [clock(vectors.note_index_fields, f"bench.key{i}", " ".join(rng.choice(words) for _ in range(10)))[0]
             for i in range(N_SAVES)]
    out["embedding alone (key + value, two passes)"] = ms(embed)
    samples = [clock(services.memory_save, actor=actor, key=f"bench.save{i}",
                     value=" ".join(rng.choice(words) for _ in range(10)))[0] for i in range(N_SAVES)]
    out["save with embedding (person save, one transaction + audit)"] = ms(samples)
    original = vectors.get_embedder
    vectors.get_embedder = lambda *args, **kwargs: None
    try:
        samples = [clock(services.memory_save, actor=actor, key=f"bench.nomodel{i}",
                         value=" ".join(rng.choice(words) for _ in range(10)))[0] for i in range(N_SAVES)]
    finally:
        vectors.get_embedder = original
    out["save without a model (for comparison)"] = ms(samples)
    return out


def recall_at(recall_spaces, queries) -> dict:
    from memories import recall, turns
    from memories.search import vectors
    from workspaces.capabilities import actor_for

    turns_by_user = {}
    for user_id, (person, workspace, _) in recall_spaces.items():
        actor = actor_for(person, workspace)
        turns_by_user[user_id] = (actor, turns.turn_start(actor=actor))
    out = {}
    for mode in ("hybrid", "lexical"):
        original = vectors.get_embedder
        if mode == "lexical":
            vectors.get_embedder = lambda *args, **kwargs: None
        try:
            for split in ("dev", "heldout"):
                hits1 = hits5 = total = 0
                for q in queries:
                    if q["split"] != split:
                        continue
                    actor, turn = turns_by_user[q["user_id"]]
                    target = recall_spaces[q["user_id"]][2][q["target_id"]]
                    found = recall.memory_search(actor=actor, turn_id=turn.id, query=q["query"], limit=5)
                    assert found["ranking"] == mode
                    keys = [n["key"] for n in found["notes"]]
                    hits1 += keys[:1] == [target]
                    hits5 += target in keys
                    total += 1
                out[f"{mode} {split}"] = {"recall@1": round(hits1 / total, 3), "recall@5": round(hits5 / total, 3),
                                          "n": total}
        finally:
            vectors.get_embedder = original
    return out


def run_engine(engine: str) -> dict:
    os.environ["DJANGO_SETTINGS_MODULE"] = "appenda.settings.test"
    os.environ.setdefault("APPENDA_MODEL_DIR", str(ROOT / "var" / "models" / "minilm"))
    (prepare_postgres if engine == "postgresql" else prepare_sqlite)()
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    from memories import recall, turns
    from memories.search import vectors
    from workspaces.capabilities import actor_for

    if vectors.embedder() is None:
        start = time.perf_counter()
        call_command("prepare_search_model")
        print(f"  prepared the model in {time.perf_counter() - start:.0f} s")
    call_command("migrate_all", verbosity=0, stdout=io.StringIO())
    print(f"[{engine}] {connections['region_eu'].vendor} {connections['region_eu'].Database.__name__}", flush=True)
    notes, queries = load_dataset()
    vectors_bytes = dataset_vectors(notes)
    owner, main, recall_spaces, scale = load(notes, vectors_bytes)
    actor = actor_for(owner, main)
    turn = turns.turn_start(actor=actor)
    rng = random.Random(11)
    sample = [q["query"] for q in rng.sample(queries, N_QUERIES)]
    readable = recall._readable_active(turn, None, main)
    assert readable.count() == VISIBLE, readable.count()

    empty = actor_for(owner, _workspace(owner, "Empty"))
    empty_turn = turns.turn_start(actor=empty)
    for q in sample[:10]:
        recall.memory_search(actor=empty, turn_id=empty_turn.id, query=q)
    fixed = ms([clock(recall.memory_search, actor=empty, turn_id=empty_turn.id, query=q)[0] for q in sample[:100]])
    result = {"engine": engine, "calibration_ms": calibration(), "search": search_timings(actor, turn, sample),
              "fixed": fixed, "breakdown": breakdown(readable, sample),
              "lexical": lexical_alternatives(engine, readable, sample), "scaling": scaling(scale, sample)}
    from memories.models import Note

    hidden_ids = set(map(str, Note.objects.for_workspace(main).exclude(id__in=readable.values("id"))
                         .values_list("id", flat=True)))
    assert len(hidden_ids) == 600
    rankings = {}
    for q in sample:
        found = recall.memory_search(actor=actor, turn_id=turn.id, query=q, limit=10)
        assert not hidden_ids.intersection(n["id"] for n in found["notes"])
        rankings[q] = [n["key"] for n in found["notes"]]
    result["rankings"] = rankings
    result["recall"] = recall_at(recall_spaces, queries)
    result["saves"] = saves(actor, rng)
    return result


# --- report -----------------------------------------------------------------------------------

def fmt(m: dict) -> str:
    extra = f" · index built in {m['index build s']} s" if "index build s" in m else ""
    return f"p50 {m['p50']:.2f} ms · p95 {m['p95']:.2f} ms (n={m['n']}){extra}"


def report(results: list[dict]) -> str:
    title = (f"### memory_search over {VISIBLE:,} readable notes (+600 it must not see, "
             f"{BACKGROUND:,} background notes), in-process")
    lines = [title, ""]
    for r in results:
        s = r["search"]
        engine = (f"**{r['engine']}** (this machine's speed: sum(range(10⁶)) takes {r['calibration_ms']} ms "
                  "of CPU; about 9 ms on a current laptop core)")
        warm = (f"- memory_search warm: {fmt(s['warm'])}; CPU of the calling thread "
                f"p50 {s['warm_cpu']['p50']:.2f} ms · p95 {s['warm_cpu']['p95']:.2f} ms")
        lines += [engine, "", warm,
                  f"- memory_search cold (first search after a restart): {fmt(s['cold'])}",
                  f"- memory_search with no readable note (turn, switches, rules, rendering): {fmt(r['fixed'])}"]
        lines += [f"- part: {name}: {fmt(m)}" for name, m in r["breakdown"].items()]
        lines += [f"- lexical signal, {name}: {fmt(m)}" for name, m in r["lexical"].items()]
        lines += [f"- scaling, {name}: {fmt(m)}" for name, m in r["scaling"].items()]
        lines += [f"- {name}: {fmt(m)}" for name, m in r["saves"].items()]
        lines += [f"- paraphrase set through memory_search, {name}: recall@1 {m['recall@1']:.3f} · "
                  f"recall@5 {m['recall@5']:.3f} (n={m['n']})" for name, m in r["recall"].items()]
        lines.append("")
    if len(results) == 2:
        a, b = (r["rankings"] for r in results)
        same = sum(a[q] == b.get(q) for q in a)
        lines.append(f"Same top 10 on {results[0]['engine']} and {results[1]['engine']}: {same}/{len(a)} queries.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--engine"]:
        result = run_engine(argv[1])
        print("RESULT " + json.dumps(result), flush=True)
        return 0
    engines = (["postgresql"] if os.environ.get("DATABASE_URL", "").startswith("postgres") else []) + ["sqlite"]
    results = []
    for engine in engines:
        done = subprocess.run([sys.executable, "-m", "benchmarks.bench_search_service", "--engine", engine],
                              cwd=ROOT, capture_output=True, text=True, check=False)
        for line in done.stdout.splitlines():
            if line.startswith("RESULT "):
                results.append(json.loads(line[7:]))
            else:
                print(line, flush=True)
        if done.returncode:
            print(done.stderr[-5000:], file=sys.stderr)
            return done.returncode
    print(report(results), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
