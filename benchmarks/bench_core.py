"""Memory core benchmark on PostgreSQL: turn start (with its context) and memory_search,
in-process (service call) and over HTTP (gunicorn on loopback), plus save throughput.

Data: BENCH_NOTES notes (default 1,000,000) across BENCH_WORKSPACES workspaces (default 10,000),
loaded with COPY, not the ORM. Needs DATABASE_URL (`make bench` starts a throwaway server).
"""

from __future__ import annotations

import gc
import io
import json
import os
import random
import subprocess
import sys
import time
import uuid
from pathlib import Path

from benchmarks.databases import prepare_bench_databases, settle_tables
from benchmarks.stats import calibration, fmt, summary_ms, timed

ROOT = Path(__file__).resolve().parent.parent
WORDS = ("report chart table order customer invoice amount region revenue churn weekly monthly format tone "
         "summary email export column filter dashboard metric forecast budget pipeline owner status date "
         "currency units metric emoji language short detailed bullet").split()
BENCH_DB = "appenda_bench"
#: Distinct texts per note position: workspaces share them (see note_texts).
VARIANTS = 20


def prepare_databases() -> None:
    prepare_bench_databases(BENCH_DB, bench="bench_core")


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def note_texts(per_ws: int, rng: random.Random) -> list[list[tuple[str, str, str, str, bytes]]]:
    """For each note position j of a workspace, VARIANTS (key, value, search_text, search_terms,
    vector): the search fields a save computes for that text (a million embeddings would take
    hours; workspaces share these texts, and every stored vector is the real one for its note)."""
    from memories.search import vectors

    model = vectors.embedder()
    if model is None:
        raise SystemExit(f"bench_core needs the search model in {vectors.model_dir()}: run `make bench`, "
                         "which prepares it first (python manage.py prepare_search_model).")
    texts = [[(f"{rng.choice(WORDS)}.{rng.choice(WORDS)}{j}", sentence(rng, rng.randint(6, 18)))
              for _ in range(VARIANTS)] for j in range(per_ws)]
    start = time.perf_counter()
    pool = [[(key, value, fields["search_text"], fields["search_terms"], fields["embedding"])
             for key, value in row for fields in [vectors.note_index_fields(key, value)]] for row in texts]
    print(f"  embedded {per_ws * VARIANTS:,} distinct note texts in {time.perf_counter() - start:.1f} s", flush=True)
    return pool


def load(n_notes: int, n_workspaces: int, rng: random.Random) -> list[tuple[uuid.UUID, int]]:
    from django.contrib.auth import get_user_model
    from django.db import connections

    from workspaces.models import Membership, Workspace

    User = get_user_model()
    users = User.objects.bulk_create(User(username=f"bench{i}@example.com", email=f"bench{i}@example.com")
                                     for i in range(n_workspaces))
    workspaces = Workspace.objects.bulk_create(
        Workspace(name=f"Bench {i}", slug=f"bench-{i}", kind="cloud", region="eu") for i in range(n_workspaces))
    Membership.objects.bulk_create(Membership(user=u, workspace=w, role="owner") for u, w in zip(users, workspaces))
    per_ws = max(1, n_notes // n_workspaces)
    pool = note_texts(per_ws, rng)
    columns = ("id", "workspace_id", "key", "value", "layer", "scope", "owner_user_id", "state", "held_sources",
               "pinned", "origin", "created_by_user_id", "created_at", "updated_at", "search_text", "search_terms",
               "embedding")
    connections["region_eu"].ensure_connection()
    raw = connections["region_eu"].connection
    start = time.perf_counter()
    with raw.cursor() as cursor:
        with cursor.copy(f"COPY memories_note ({', '.join(columns)}) FROM STDIN") as copy:
            for w, (user, workspace) in enumerate(zip(users, workspaces)):
                for j in range(per_ws):
                    layer = "workspace" if j % 2 else "mine"
                    held = j % 10 == 9
                    key, value, search_text, search_terms, vector = pool[j][(w + j) % VARIANTS]
                    copy.write_row((
                        uuid.uuid4(), workspace.id, key, value, layer,
                        "workspace" if layer == "workspace" else f"user:{user.pk}",
                        user.pk if layer == "mine" else None, "held" if held else "active", "[]",
                        j % 7 == 0, "import", user.pk, "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z",
                        search_text, search_terms, vector,
                    ))
    raw.commit()
    elapsed = time.perf_counter() - start
    print(f"  loaded {per_ws * n_workspaces:,} notes with COPY in {elapsed:.1f} s (each with its vector); "
          f"VACUUM (ANALYZE), CHECKPOINT and pg_prewarm {settle_tables('region_eu', 'memories_note'):.1f} s", flush=True)
    return [(w.id, u.pk) for u, w in zip(users, workspaces)]


def in_process(samples: list[tuple[uuid.UUID, int]], rng: random.Random) -> dict:
    from django.contrib.auth import get_user_model

    from memories import recall, services, turns
    from workspaces.capabilities import actor_for
    from workspaces.models import Workspace

    User = get_user_model()
    actors = []
    for ws_id, user_id in samples:
        actors.append(actor_for(User.objects.get(pk=user_id), Workspace.objects.get(pk=ws_id)))
    for actor in actors[:20]:  # warm up connections and caches
        turn = turns.turn_start(actor=actor)
        recall.turn_context(turn=turn, workspace=actor.workspace)
    # What the harness loaded stays alive for the whole run, like a server's start-up objects:
    # keep it out of the garbage collector's full passes, as appenda/wsgi.py does for a server.
    gc.collect()
    gc.freeze()
    start_times, search_times, save_times, turn_ids = [], [], [], []
    for actor in actors:
        elapsed, turn = timed(lambda a=actor: (t := turns.turn_start(actor=a), recall.turn_context(turn=t, workspace=a.workspace))[0])
        start_times.append(elapsed)
        turn_ids.append(turn.id)
    warm_times = []
    for actor, turn_id in zip(actors, turn_ids):
        # The first search of a workspace in this process: none of its notes are cached.
        elapsed, found = timed(recall.memory_search, actor=actor, turn_id=turn_id, query=sentence(rng, 3), limit=10)
        search_times.append(elapsed)
        if found["ranking"] != "hybrid":
            raise SystemExit(f"memory_search ranked {found['ranking']!r}, not by words and meaning: the bench "
                             "would not measure the search users get.")
        # A second search in the same turn, with another query: the notes are cached now.
        elapsed, _ = timed(recall.memory_search, actor=actor, turn_id=turn_id, query=sentence(rng, 3), limit=10)
        warm_times.append(elapsed)
    begin = time.perf_counter()
    for i, actor in enumerate(actors):
        elapsed, _ = timed(services.memory_save, actor=actor, key=f"bench.save{i}", value=sentence(rng, 10))
        save_times.append(elapsed)
    throughput = len(actors) / (time.perf_counter() - begin)
    return {"turn_start": summary_ms(start_times), "search": summary_ms(search_times),
            "search_warm": summary_ms(warm_times), "save": summary_ms(save_times), "saves_per_s": throughput}


def over_http(samples: list[tuple[uuid.UUID, int]], rng: random.Random) -> dict:
    import http.client
    import socket

    from django.contrib.auth import get_user_model

    from workspaces.tokens import token_create

    User = get_user_model()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "appenda.settings.test", "PORT": str(port)}
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "appenda.wsgi", "-b", f"127.0.0.1:{port}", "-w", "2", "--log-level",
         "warning"], cwd=ROOT, env=env)
    try:
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.2)
        tokens = [token_create(user=User.objects.get(pk=user_id)) for _, user_id in samples]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)

        def call(path, token, payload):
            body = json.dumps(payload)
            conn.request("POST", path, body=body, headers={"Authorization": f"Token {token}",
                                                           "Content-Type": "application/json"})
            response = conn.getresponse()
            data = response.read()
            if response.status >= 400:
                raise RuntimeError(f"{path} answered {response.status}: {data[:200]!r}")
            return json.loads(data)

        for (ws_id, _), token in list(zip(samples, tokens))[:10]:
            call(f"/api/v1/workspaces/{ws_id}/turns/", token, {"kind": "chat"})
        start_times, search_times = [], []
        for (ws_id, _), token in zip(samples, tokens):
            elapsed, turn = timed(call, f"/api/v1/workspaces/{ws_id}/turns/", token, {"kind": "chat"})
            start_times.append(elapsed)
            elapsed, _ = timed(call, f"/api/v1/workspaces/{ws_id}/turns/{turn['id']}/memory_search/", token,
                               {"query": sentence(rng, 3)})
            search_times.append(elapsed)
        return {"turn_start": summary_ms(start_times), "search": summary_ms(search_times)}
    finally:
        server.terminate()
        server.wait(timeout=10)


def main() -> str:
    n_notes = int(os.environ.get("BENCH_NOTES", "1000000"))
    n_workspaces = int(os.environ.get("BENCH_WORKSPACES", "10000"))
    n_samples = int(os.environ.get("BENCH_SAMPLES", "300"))
    prepare_databases()
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate_all", verbosity=0, stdout=io.StringIO())
    rng = random.Random(7)
    print(f"bench_core: {n_notes:,} notes across {n_workspaces:,} workspaces", flush=True)
    everyone = load(n_notes, n_workspaces, rng)
    samples = rng.sample(everyone, min(n_samples, len(everyone)))
    speed = calibration()
    local = in_process(samples, rng)
    print(f"  in-process: turn start {fmt(local['turn_start'])}; search {fmt(local['search'])}; "
          f"search again in the turn {fmt(local['search_warm'])}; save {fmt(local['save'])}", flush=True)
    http = over_http(samples[: max(50, n_samples // 2)], rng)
    lines = [
        f"### Memory core (PostgreSQL, {n_notes:,} notes across {n_workspaces:,} workspaces, "
        f"~{n_notes // n_workspaces} per workspace)",
        "",
        "| measure | in-process (service call) | over HTTP (gunicorn, 2 workers, loopback) |",
        "|---|---|---|",
        f"| turn start + context | {fmt(local['turn_start'])} | {fmt(http['turn_start'])} |",
        f"| memory_search, first in its workspace (no note cached) | {fmt(local['search'])} | {fmt(http['search'])} |",
        f"| memory_search, again in the same turn | {fmt(local['search_warm'])} | |",
        f"| save (person, one transaction with audit) | {fmt(local['save'])} · {local['saves_per_s']:.0f} saves/s | |",
        "",
        "Every note has its vector; search ranks by words and meaning (the query's embedding is part of each "
        "search).",
        f"This machine's speed: sum(range(10⁶)) takes {speed} ms of CPU (about 9 ms on a current laptop core). "
        f"Ratios in this run, which carry across machines better than the figures: first search / turn start "
        f"p50 {local['search']['p50'] / local['turn_start']['p50']:.2f}, search again / turn start "
        f"{local['search_warm']['p50'] / local['turn_start']['p50']:.2f}.",
        f"Targets: in-process p95 ≤ 5 ms for turn start and search — turn start "
        f"{'met' if local['turn_start']['p95'] <= 5 else 'NOT met'}, first search "
        f"{'met' if local['search']['p95'] <= 5 else 'NOT met'}, search again "
        f"{'met' if local['search_warm']['p95'] <= 5 else 'NOT met'}.",
    ]
    report = "\n".join(lines)
    print(report, flush=True)
    return report


if __name__ == "__main__":
    main()
