"""Load and overload on PostgreSQL (issue 21, R-OPS-1): does the server degrade cleanly?

1. **Burst on runserver** (what `make run` with DATABASE_URL serves): 600 requests from 30
   threads; counts 503s and the most connections PostgreSQL saw (the pool bounds them).
2. **Gunicorn** (infra/gunicorn.conf.py, production settings) under locust, headless, with the
   agent mix (benchmarks/load/locustfile.py: turn start, 0-2 reads, 1-3 searches, 0-2 saves;
   people's and bots' tokens): a fresh server's cold start at 3x (reported, not judged), the
   sustained rate, then 3x that for LOAD_OVERLOAD_SECONDS, then the sustained rate again.
   Reports per phase: requests/s answered, p50/p95 of answered requests (and per request kind,
   and the server's own time from gunicorn's access log), 503/429/409 counts with their codes,
   client timeouts, other errors, the server's warnings; a p50/p95 timeline per 10 s; the seconds
   after the overload until the p95 of a one-second window is back under 100 ms; the RSS and the
   CPU seconds of each worker.

Everything runs on 127.0.0.1 and is bounded in time (about 3 minutes). Needs DATABASE_URL
pointing at PostgreSQL (`make bench BENCH=bench_load`). LOAD_USERS (default 12 users at 0.5
turns/s each, about 30 requests/s) sets the sustained rate.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

from benchmarks.databases import prepare_bench_databases
from benchmarks.stats import percentile

ROOT = Path(__file__).resolve().parent.parent
BENCH_DB = "appenda_bench_load"
USERS = int(os.environ.get("LOAD_USERS", "12"))
SUSTAINED_SECONDS = int(os.environ.get("LOAD_SUSTAINED_SECONDS", "40"))
# Reported, not judged: a fresh server's first few thousand requests. Each new worker loads the
# model and the workspaces' indexes on its first requests, and each of its pooled PostgreSQL
# connections (3 workers x 8 x 3 databases) fills its own catalog caches and prepares its own
# statements on its first dozens of queries: at 1x the p50 stayed ~45 ms for the first minute
# and was ~22 ms at the same rate once the connections had served ~50 requests each.
WARMUP_SECONDS = int(os.environ.get("LOAD_WARMUP_SECONDS", "25"))
OVERLOAD_SECONDS = int(os.environ.get("LOAD_OVERLOAD_SECONDS", "60"))
RECOVERY_SECONDS = int(os.environ.get("LOAD_RECOVERY_SECONDS", "30"))
BURST_THREADS, BURST_EACH = 30, 20


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_ready(port: int, process: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server exited with {process.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return
        except (OSError, urllib.error.URLError):
            time.sleep(0.3)
    raise SystemExit("the server did not start")


def _setup() -> list[list[str]]:
    """Migrates the bench databases; a workspace in each region, people's and bots' tokens, and
    a few hundred notes to search."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    from memories import services, turns
    from workspaces.capabilities import actor_for
    from workspaces.services import bot_create, user_create_or_update, workspace_create
    from workspaces.tokens import token_create

    call_command("migrate_all", verbosity=0)
    tokens = []
    for region in ("eu", "us"):
        owner = user_create_or_update(email=f"load-{region}@example.com", password="load-bench-password")
        workspace = workspace_create(name=f"Load {region}", owner=owner, region=region)
        actor = actor_for(owner, workspace)
        turn = turns.turn_start(actor=actor)
        for index in range(200):
            if index % 5 == 0:
                turn = turns.turn_start(actor=actor)
            services.memory_save(actor=actor, turn_id=turn.id, key=f"topic.note{index}",
                                 value=f"Weekly summary {index}: charts, budget and deadline notes.")
        tokens.append([token_create(user=owner), str(workspace.id), "person"])
        for number in range(2):
            _bot, key = bot_create(actor=actor, name=f"Agent {region} {number}")
            tokens.append([key, str(workspace.id), "bot"])
    connections.close_all()
    return tokens


def _server_env(extra: dict[str, str]) -> dict[str, str]:
    env = {**os.environ, **extra}
    env.pop("APPENDA_DB_STATEMENT_TIMEOUT_MS", None)  # the server keeps the production limits
    env.pop("APPENDA_DB_LOCK_TIMEOUT_MS", None)
    # The per-token API limit (429 throttled) is a separate guard; this bench measures shedding.
    env.setdefault("APPENDA_API_RATE", "100000/min")
    return env


def _connections_seen(stop: threading.Event, seen: list[int]) -> None:
    import psycopg

    from benchmarks.databases import with_db

    with psycopg.connect(with_db(os.environ["DATABASE_URL"], "postgres"), autocommit=True) as conn:
        while not stop.is_set():
            (count,) = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname LIKE %s",
                                    [f"{BENCH_DB}%"]).fetchone()
            seen.append(count)
            time.sleep(0.1)


def burst_on_runserver(tokens) -> None:
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT, env=_server_env({"DJANGO_SETTINGS_MODULE": "appenda.settings.dev", "LOG_LEVEL": "WARNING"}),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        _wait_ready(port, server)
        statuses: Counter = Counter()
        codes: Counter = Counter()
        lock = threading.Lock()
        seen: list[int] = []
        stop = threading.Event()
        watcher = threading.Thread(target=_connections_seen, args=(stop, seen))
        watcher.start()

        people = [entry for entry in tokens if entry[2] == "person"]

        def client(index: int) -> None:
            token, workspace, _kind = people[index % len(people)]
            for number in range(BURST_EACH):
                path = ("turns/", b'{"kind": "chat"}') if number % 2 else ("memories/", None)
                request = urllib.request.Request(
                    f"http://127.0.0.1:{port}/api/v1/workspaces/{workspace}/{path[0]}", data=path[1],
                    headers={"Authorization": f"Token {token}", "Content-Type": "application/json"})
                try:
                    with urllib.request.urlopen(request, timeout=30) as answer:
                        status, code = answer.status, ""
                except urllib.error.HTTPError as error:
                    status = error.code
                    try:
                        code = json.loads(error.read()).get("code", "")
                    except ValueError:
                        code = ""
                except OSError as error:
                    status, code = 0, type(error).__name__
                with lock:
                    statuses[status] += 1
                    if code:
                        codes[code] += 1

        started = time.perf_counter()
        threads = [threading.Thread(target=client, args=(i,)) for i in range(BURST_THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=300)
        elapsed = time.perf_counter() - started
        stop.set()
        watcher.join()
        print(f"runserver burst: {sum(statuses.values())} requests from {BURST_THREADS} threads in {elapsed:.1f} s; "
              f"statuses {dict(sorted(statuses.items()))}; 503s: {statuses.get(503, 0)}; codes {dict(codes)}; "
              f"PostgreSQL connections to the bench databases at most {max(seen, default=0)} "
              f"(pool: APPENDA_DB_POOL_SIZE={os.environ.get('APPENDA_DB_POOL_SIZE', '8')} per database)")
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


def _worker_rss(master: int, cpu: dict[int, float] | None = None) -> dict[int, int]:
    """RSS in MB of each child of ``master``; with ``cpu``, also its CPU seconds so far."""
    rss = {}
    ticks = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
                if int(fields[1]) != master:
                    continue
            with open(f"/proc/{entry}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        rss[int(entry)] = int(line.split()[1]) // 1024
            if cpu is not None:
                cpu[int(entry)] = (int(fields[11]) + int(fields[12])) / ticks
        except (OSError, ValueError, IndexError):
            continue
    return rss


def _phase_figures(rows, start: float, end: float) -> dict:
    rows = [row for row in rows if start <= row[0] < end]
    answered = [row[3] for row in rows if row[2] and row[2] < 500 and row[2] not in (429,)]
    statuses = Counter(row[2] for row in rows)
    codes = Counter(row[4] for row in rows if row[4])
    timeouts = sum(1 for row in rows if not row[2] and "Timeout" in row[5])
    other = sum(1 for row in rows if not row[2] and "Timeout" not in row[5])
    seconds = max(end - start, 1e-9)
    by_name: dict[str, list[float]] = {}
    for row in rows:
        if row[2] and row[2] < 500 and row[2] != 429:
            by_name.setdefault(row[1], []).append(row[3])
    return {"by_name": {name: (percentile(times, 50), percentile(times, 95)) for name, times in sorted(by_name.items())},
        "requests": len(rows), "ok_per_s": len(answered) / seconds, "p50": percentile(answered, 50),
        "p95": percentile(answered, 95), "statuses": dict(sorted(statuses.items())), "codes": dict(codes),
        "client_timeouts": timeouts, "connection_errors": other,
    }


def _recovery_seconds(rows, overload_end: float, end: float) -> float | None:
    """Seconds after the overload until a one-second window's p95 of answered requests is < 100 ms
    and stays so for the next 3 windows."""
    windows = []
    second = overload_end
    while second < end:
        answered = [row[3] for row in rows if second <= row[0] < second + 1 and row[2] and row[2] < 500]
        windows.append(percentile(answered, 95) if answered else float("nan"))
        second += 1
    for index in range(len(windows) - 3):
        if all(value < 100 for value in windows[index:index + 4]):
            return float(index)
    return None


def _print_server_warnings(text: str) -> None:
    """Why the server answered what it did: its warnings and errors (JSON log lines), counted by
    their words with numbers and ids left out."""
    counted: Counter = Counter()
    for line in text.splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict) and entry.get("level") in ("warning", "error", "critical"):
            counted[re.sub(r"[0-9a-f-]{36}|\d+(\.\d+)?", "#", str(entry.get("event", "")))[:160]] += 1
    for message, count in counted.most_common(8):
        print(f"  server log x{count}: {message}")


def _print_server_times(text: str, bounds: list[float], names: list[str]) -> None:
    """The time the server itself spent per request (gunicorn's access log, from when a thread
    took it to its last byte), per phase: what the clients saw beyond it was queueing."""
    from datetime import datetime

    entries = []
    for line in text.splitlines():
        try:
            stamp, ms = line.rsplit(" ", 1)
            entries.append((datetime.strptime(stamp.strip("[]"), "%d/%b/%Y:%H:%M:%S %z").timestamp(), float(ms)))
        except ValueError:
            continue
    for index, name in enumerate(names):
        inside = [ms for at, ms in entries if int(bounds[index]) <= at < int(bounds[index + 1])]
        if inside:
            print(f"  {name}: server time p50 {percentile(inside, 50):.0f} ms, p95 {percentile(inside, 95):.0f} ms")


def overload_on_gunicorn(tokens) -> None:
    port = _free_port()
    env = _server_env({
        "DJANGO_SETTINGS_MODULE": "appenda.settings.production", "DJANGO_SECRET_KEY": "bench-load-not-secret",
        "GUNICORN_BIND": f"127.0.0.1:{port}", "GUNICORN_LOG_LEVEL": "warning", "LOG_LEVEL": "WARNING",
        "WEB_CONCURRENCY": os.environ.get("WEB_CONCURRENCY", "3"),
    })
    server_log = tempfile.TemporaryFile(mode="w+")
    access_log = Path(tempfile.mkstemp(prefix="bench-load-access-", suffix=".log")[1])
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "infra/gunicorn.conf.py", "--access-logfile", str(access_log),
         "--access-logformat", "%(t)s %(M)s", "appenda.wsgi:application"],
        cwd=ROOT, env=env, stdout=server_log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    log = Path(tempfile.mkstemp(prefix="bench-load-", suffix=".jsonl")[1])
    try:
        _wait_ready(port, server)
        stages = [(WARMUP_SECONDS, USERS * 3), (SUSTAINED_SECONDS, USERS), (OVERLOAD_SECONDS, USERS * 3),
                  (RECOVERY_SECONDS, USERS)]
        locust_env = {**os.environ, "LOAD_TOKENS": json.dumps(tokens), "LOAD_LOG": str(log),
                      "LOAD_STAGES": ",".join(f"{s}:{u}" for s, u in stages)}
        rss_samples: list[dict[int, int]] = []
        cpu_samples: list[tuple[float, dict[int, float]]] = []
        stop = threading.Event()

        def sample_rss():
            while not stop.is_set():
                cpu: dict[int, float] = {}
                rss_samples.append(_worker_rss(server.pid, cpu))
                cpu_samples.append((time.time(), cpu))
                time.sleep(2)

        sampler = threading.Thread(target=sample_rss)
        sampler.start()
        started = time.time()
        total = sum(seconds for seconds, _ in stages)
        threads = env.get("GUNICORN_THREADS", "8")
        subprocess.run(
            [sys.executable, "-m", "locust", "-f", str(ROOT / "benchmarks" / "load" / "locustfile.py"), "--headless",
             "--host", f"http://127.0.0.1:{port}", "--only-summary", "--loglevel", "ERROR",
             "--stop-timeout", "35"],
            cwd=ROOT, env=locust_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=total + 120,
        )
        stop.set()
        sampler.join()
        rows = [json.loads(line) for line in log.read_text().splitlines()]
        bounds = [min((row[0] for row in rows), default=started)]  # locust's first request
        for seconds, _ in stages:
            bounds.append(bounds[-1] + seconds)
        names = ["cold start (3x, a fresh server, not judged)", "sustained (1x)", "overload (3x)", "after (1x)"]
        model = f"gthread, {env['WEB_CONCURRENCY']} workers x {threads} threads" if threads != "1" else \
            f"sync, {env['WEB_CONCURRENCY']} workers"
        print(f"gunicorn {model}; a fresh server: {USERS * 3} users at 0.5 turns/s for {WARMUP_SECONDS} s, then "
              f"{USERS}, {USERS * 3}, {USERS}:")
        for index, name in enumerate(names):
            figures = _phase_figures(rows, bounds[index], bounds[index + 1])
            print(f"  {name}: {figures['requests']} requests, {figures['ok_per_s']:.1f} answered/s, "
                  f"p50 {figures['p50']:.0f} ms, p95 {figures['p95']:.0f} ms of answered; statuses "
                  f"{figures['statuses']}; codes {figures['codes']}; client timeouts {figures['client_timeouts']}; "
                  f"connection errors {figures['connection_errors']}")
            print("    p50 / p95 by request: " + "; ".join(f"{name} {p50:.0f} / {p95:.0f} ms"
                                                          for name, (p50, p95) in figures["by_name"].items()))
        timeline = []
        for start in range(0, int(bounds[-1] - bounds[0]), 10):
            window = [row[3] for row in rows if bounds[0] + start <= row[0] < bounds[0] + start + 10
                      and row[2] and row[2] < 500]
            if window:
                timeline.append(f"{start}s {percentile(window, 50):.0f}/{percentile(window, 95):.0f}")
        print("  p50/p95 ms of answered, per 10 s from the first request: " + ", ".join(timeline))
        recovery = _recovery_seconds(rows, bounds[3], bounds[4])
        when = f"after {recovery:.0f} s" if recovery is not None else "not reached"
        print(f"  recovery: p95 < 100 ms {when} once the overload stopped")
        if rss_samples:
            # The workers are the master's children that loaded Django (its helper process stays small).
            last = rss_samples[-1]
            pids = sorted(sorted(last, key=last.get)[-int(env["WEB_CONCURRENCY"]):])
            for pid in pids:
                series = [sample[pid] for sample in rss_samples if pid in sample]
                print(f"  worker {pid} RSS: first {series[0]} MB, max {max(series)} MB, last {series[-1]} MB")
            # How the work spread over the workers: each one's CPU seconds per phase.
            for index, name in enumerate(names):
                inside = [c for t, c in cpu_samples if bounds[index] <= t < bounds[index + 1]]
                if len(inside) >= 2:
                    spent = ", ".join(f"{inside[-1].get(pid, 0) - inside[0].get(pid, 0):.1f}" for pid in pids)
                    print(f"  {name}: CPU seconds per worker {spent}")
        server_log.seek(0)
        _print_server_warnings(server_log.read())
        _print_server_times(access_log.read_text(), bounds, names)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
        log.unlink(missing_ok=True)
        access_log.unlink(missing_ok=True)


def main() -> None:
    prepare_bench_databases(BENCH_DB, bench="bench_load")
    tokens = _setup()
    burst_on_runserver(tokens)
    overload_on_gunicorn(tokens)


if __name__ == "__main__":
    main()
