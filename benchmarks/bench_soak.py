"""Memory soak under save-heavy traffic (issue 21 item 6, R-OPS-1): is worker RSS flat?

Gunicorn as benchmarks/bench_load.py starts it (infra/gunicorn.conf.py, production settings,
gthread) on PostgreSQL, its helpers imported. Four workspaces (two per region) of
``SOAK_NOTES`` (default 2,000) notes each, with vectors (loaded with COPY), a person's and a
bot's token each. ``SOAK_CLIENTS`` client threads (default 8; even ones a person's token, odd
ones a bot's), each paced to ``SOAK_TURNS_PER_S`` turns per second (default 0.4), run a
save-heavy agent turn: start it, one or two searches, two to four saves (half new keys, half
existing keys with a new value: the person edits the workspace's seeded notes, the bot its own), for
``SOAK_SECONDS`` (default 600), on 127.0.0.1 only. The API throttle is set out of the way.

Every 10 s the RSS of each worker (the gunicorn master's children) is read from /proc; a
0.5 s watcher notes when a worker is born (gunicorn recycles a worker after ``max_requests``).
Printed: the RSS series per worker, its slope (MB/min, least squares over the second half of
that worker's life within the run), max RSS, requests/s, p50/p95 per kind, statuses and codes,
the recycles and the search latency in the 10 s after each one against the run's.

``SOAK_MAX_REQUESTS`` sets gunicorn's ``max_requests`` (default 0: off, so the soak measures
growth itself, not hidden by recycling; ``1000`` is the production default).
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter, defaultdict
from pathlib import Path

from benchmarks.bench_load import _free_port, _server_env, _wait_ready, _worker_rss
from benchmarks.databases import prepare_bench_databases, settle_tables
from benchmarks.stats import percentile

ROOT = Path(__file__).resolve().parent.parent
BENCH_DB = "appenda_bench_soak"
SECONDS = int(os.environ.get("SOAK_SECONDS", "600"))
NOTES = int(os.environ.get("SOAK_NOTES", "2000"))
CLIENTS = int(os.environ.get("SOAK_CLIENTS", "8"))
TURNS_PER_S = float(os.environ.get("SOAK_TURNS_PER_S", "0.4"))
MAX_REQUESTS = os.environ.get("SOAK_MAX_REQUESTS", "0")
WORKERS = os.environ.get("WEB_CONCURRENCY", "3")
SAMPLE_EVERY = 10.0
DISTINCT_TEXTS = 400


def _seed() -> list[dict]:
    """Four workspaces of NOTES notes (COPY), each with a person's and a bot's token."""
    import django

    django.setup()
    import numpy as np
    from django.core.management import call_command
    from django.db import connections

    from benchmarks import bench_scale
    from memories.search.fulltext import index_text, stored_terms
    from workspaces.capabilities import actor_for
    from workspaces.services import bot_create, user_create_or_update, workspace_create
    from workspaces.tokens import token_create

    call_command("migrate_all", verbosity=0)
    rng = random.Random(21)
    bench_scale.DISTINCT = DISTINCT_TEXTS  # fewer distinct texts to embed; noise makes each vector unique
    pairs, base = bench_scale._texts(rng)
    noise = np.random.default_rng(21)
    columns = ("id", "workspace_id", "key", "value", "layer", "scope", "owner_user_id", "state", "held_sources",
               "held_until", "pinned", "origin", "created_by_user_id", "created_at", "updated_at", "trashed_at",
               "search_text", "search_terms", "embedding")
    workspaces = []
    start = time.perf_counter()
    for number, region in enumerate(("eu", "us", "eu", "us")):
        owner = user_create_or_update(email=f"soak-{number}@example.com", password="soak-bench-password")
        workspace = workspace_create(name=f"Soak {number}", owner=owner, region=region)
        alias = f"region_{region}"
        connections[alias].ensure_connection()
        raw = connections[alias].connection
        picks = [rng.randrange(DISTINCT_TEXTS) for _ in range(NOTES)]
        block = base[picks] + noise.standard_normal((NOTES, base.shape[1]), dtype=np.float32) * 0.02
        block /= np.linalg.norm(block, axis=1, keepdims=True)
        block = block.astype("<f2")
        keys = []
        with raw.cursor() as cursor, cursor.copy(f"COPY memories_note ({', '.join(columns)}) FROM STDIN") as copy:
            for i, pick in enumerate(picks):
                key, value = pairs[pick]
                key = f"{key}{i}"
                keys.append(key)
                copy.write_row((uuid.uuid4(), workspace.id, key, value, "workspace", "workspace", None, "active", "[]",
                                None, i % 50 == 1, "import", owner.pk, "2026-01-01T00:00:00Z",
                                "2026-01-01T00:00:00Z", None, index_text(key, value), stored_terms(key, value),
                                block[i].tobytes()))
        raw.commit()
        _bot, bot_key = bot_create(actor=actor_for(owner, workspace), name=f"Soak agent {number}")
        workspaces.append({"id": str(workspace.id), "tokens": [token_create(user=owner), bot_key], "keys": keys})
    print(f"  seeded 4 workspaces x {NOTES:,} notes in {time.perf_counter() - start:.1f} s; settle "
          f"{settle_tables('region_eu', 'memories_note') + settle_tables('region_us', 'memories_note'):.1f} s",
          flush=True)
    connections.close_all()
    return workspaces


def _sentence(rng: random.Random) -> str:
    from benchmarks.bench_scale import WORDS

    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 14)))


class Client(threading.Thread):
    """One agent runtime: paced save-heavy turns over one keep-alive connection."""

    def __init__(self, number: int, port: int, workspace: dict, until: float, log: list):
        super().__init__(daemon=True)
        self.number, self.port, self.workspace, self.until, self.log = number, port, workspace, until, log
        self.rng = random.Random(number)
        self.token = workspace["tokens"][number % 2]
        self.conn = None
        self.new_keys = 0

    def _post(self, path: str, body: dict, kind: str):
        started = time.perf_counter()
        status, code, answer = 0, "", None
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            self.conn.request("POST", f"/api/v1/workspaces/{self.workspace['id']}/{path}", body=json.dumps(body),
                              headers={"Authorization": f"Token {self.token}", "Content-Type": "application/json"})
            response = self.conn.getresponse()
            status, payload = response.status, response.read()
            if response.getheader("Connection", "").lower() == "close":
                self.conn.close()
                self.conn = None
            try:
                answer = json.loads(payload) if payload else None
            except ValueError:
                answer = None
            if status >= 400 and isinstance(answer, dict):
                code = answer.get("code", "")
        except (OSError, http.client.HTTPException) as error:
            code = type(error).__name__
            if self.conn is not None:
                self.conn.close()
            self.conn = None
        self.log.append((time.time(), kind, status, (time.perf_counter() - started) * 1000, code))
        return status, answer

    def run(self) -> None:
        from benchmarks.bench_scale import WORDS

        pace = 1 / TURNS_PER_S
        next_turn = time.monotonic() + self.rng.random() * pace
        while True:
            now = time.monotonic()
            if next_turn > now:
                time.sleep(next_turn - now)
            if time.monotonic() >= self.until:
                break
            next_turn += pace
            status, answer = self._post("turns/", {"kind": "chat"}, "turn start")
            if status != 201 or not isinstance(answer, dict):
                continue
            turn = answer["id"]
            for _ in range(self.rng.randint(1, 2)):
                self._post(f"turns/{turn}/memory_search/", {"query": " ".join(self.rng.sample(WORDS, 2))}, "search")
            for _ in range(self.rng.randint(2, 4)):
                body = {"value": _sentence(self.rng)}
                if self.rng.random() < 0.5 or (self.number % 2 and not self.new_keys):
                    self.new_keys += 1
                    body["key"], kind = f"soak.c{self.number}n{self.new_keys}", "save new"
                elif self.number % 2 == 0:  # the person edits one of the workspace's notes
                    body.update(key=self.rng.choice(self.workspace["keys"]), layer="workspace")
                    kind = "save existing"
                else:  # the bot edits one of its own notes
                    body["key"], kind = f"soak.c{self.number}n{self.rng.randint(1, self.new_keys)}", "save existing"
                self._post(f"turns/{turn}/memory_save/", body, kind)
        if self.conn is not None:
            self.conn.close()


def _children(master: int) -> dict[int, float]:
    """The master's children and when each started (seconds since boot)."""
    ticks = os.sysconf("SC_CLK_TCK")
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
                if int(fields[1]) == master:
                    found[int(entry)] = int(fields[19]) / ticks
            except (OSError, ValueError, IndexError):
                continue
    return found


def _slope(points: list[tuple[float, int]]) -> float | None:
    """MB per minute, least squares over the second half of the points (at least 3)."""
    half = points[len(points) // 2:]
    if len(half) < 3:
        return None
    xs, ys = [p[0] / 60 for p in half], [p[1] for p in half]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    denominator = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / denominator if denominator else None


def soak(workspaces: list[dict]) -> None:
    port = _free_port()
    env = _server_env({
        "DJANGO_SETTINGS_MODULE": "appenda.settings.production", "DJANGO_SECRET_KEY": "bench-soak-not-secret",
        "GUNICORN_BIND": f"127.0.0.1:{port}", "GUNICORN_LOG_LEVEL": "warning", "LOG_LEVEL": "WARNING",
        "WEB_CONCURRENCY": WORKERS, "GUNICORN_MAX_REQUESTS": MAX_REQUESTS, "APPENDA_API_RATE": "10000000/min",
    })
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "infra/gunicorn.conf.py", "--access-logfile", "/dev/null",
         "appenda.wsgi:application"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    try:
        _wait_ready(port, server)
        time.sleep(2)
        with open("/proc/uptime") as uptime:
            boot_offset = time.time() - float(uptime.read().split()[0])  # wall clock of boot
        rss: dict[int, list[tuple[float, int]]] = defaultdict(list)
        births: dict[int, float] = dict(_children(server.pid))
        first_pids = set(births)
        stop = threading.Event()
        started = time.time()

        def watch() -> None:
            last_sample = 0.0
            while not stop.is_set():
                for pid, start_ticks in _children(server.pid).items():
                    births.setdefault(pid, start_ticks)
                now = time.time()
                if now - last_sample >= SAMPLE_EVERY:
                    last_sample = now
                    for pid, mb in _worker_rss(server.pid).items():
                        rss[pid].append((now - started, mb))
                stop.wait(0.5)

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        log: list[tuple] = []
        until = time.monotonic() + SECONDS
        clients = [Client(i, port, workspaces[i % len(workspaces)], until, log) for i in range(CLIENTS)]
        for client in clients:
            client.start()
        for client in clients:
            client.join(timeout=SECONDS + 120)
        elapsed = time.time() - started
        stop.set()
        watcher.join()
        load = os.getloadavg()
        report(log, rss, births, first_pids, boot_offset, started, elapsed, load)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)


def report(log, rss, births, first_pids, boot_offset, started, elapsed, load) -> None:
    statuses = Counter(row[2] for row in log)
    codes = Counter(f"{row[2]} {row[4]}" for row in log if row[4])
    ok = [row for row in log if 200 <= row[2] < 300]
    print(f"gunicorn gthread, {WORKERS} workers x {os.environ.get('GUNICORN_THREADS', '8')} threads, "
          f"max_requests {MAX_REQUESTS} (0 = off); {CLIENTS} clients at {TURNS_PER_S} turns/s each; "
          f"4 workspaces x {NOTES:,} notes; {elapsed:.0f} s; load average at the end "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"  requests {len(log):,}: {len(log) / elapsed:.1f}/s, answered 2xx {len(ok) / elapsed:.1f}/s; "
          f"statuses {dict(sorted(statuses.items()))}; errors by code {dict(codes) or 'none'}")
    for kind in ("turn start", "search", "save new", "save existing"):
        times = [row[3] for row in ok if row[1] == kind]
        if times:
            print(f"  {kind}: {len(times):,} ok, p50 {percentile(times, 50):.0f} ms, p95 {percentile(times, 95):.0f} ms")
    # Workers: children that loaded Django (the master's small helper, if any, stays under 100 MB).
    workers = sorted((pid for pid, series in rss.items() if max(mb for _, mb in series) >= 100),
                     key=lambda pid: births.get(pid, 0))
    for pid in workers:
        series = rss[pid]
        born = "at start" if pid in first_pids else f"born at {births[pid] + boot_offset - started:.0f} s"
        slope = _slope(series)
        slope_text = f"{slope:+.2f} MB/min" if slope is not None else "n/a (too few samples)"
        print(f"  worker {pid} ({born}): max {max(mb for _, mb in series)} MB, slope over the second half "
              f"{slope_text}; RSS MB every {SAMPLE_EVERY:.0f} s: {' '.join(str(mb) for _, mb in series)}")
    # A new worker idles at its boot RSS until a connection reaches it (the clients' keep-alive
    # connections stay with the old ones), then loads the search model and the indexes on its first
    # requests: its cold start is the window around the sample where its RSS first passes 200 MB.
    searches = [(row[0] - started, row[3]) for row in ok if row[1] == "search"]
    overall = [ms for _, ms in searches]
    windows = []
    for pid in workers:
        series = rss[pid]
        if pid in first_pids:
            continue
        jump = next((i for i in range(1, len(series)) if series[i - 1][1] < 200 <= series[i][1]), None)
        born = births[pid] + boot_offset - started
        if jump is not None:
            windows.append((born, series[jump - 1][0], series[jump][0] + 5))
    print(f"  worker recycles during the soak: {len(windows)} with a first request in the run, "
          f"{sum(1 for pid in workers if pid not in first_pids) - len(windows)} still idle at the end")
    if windows and overall:
        near = [[ms for at, ms in searches if start <= at < end] for _, start, end in windows]
        flat = [ms for window in near for ms in window]
        print(f"  search around each new worker's first requests (RSS past 200 MB): p50 {percentile(flat, 50):.0f} ms, "
              f"p95 {percentile(flat, 95):.0f} ms, max {max(flat, default=0):.0f} ms (whole run: p50 "
              f"{percentile(overall, 50):.0f} ms, p95 {percentile(overall, 95):.0f} ms, max {max(overall):.0f} ms); "
              f"per new worker (born at s: max ms): "
              f"{', '.join(f'{born:.0f}: {max(w, default=0):.0f}' for (born, _, _), w in zip(windows, near))}")


def main() -> None:
    prepare_bench_databases(BENCH_DB, bench="bench_soak")
    workspaces = _seed()
    soak(workspaces)


if __name__ == "__main__":
    main()
