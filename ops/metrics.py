"""Prometheus metrics (issue 22): request latency per route, saves by decision and code, search
latency, database pool usage; the job runs, the jobs' state and the worker's heartbeat are read from the control
database at each scrape, so the app's /metrics shows what the separate worker process did.

With several gunicorn workers set ``PROMETHEUS_MULTIPROC_DIR`` to an empty folder (the image
does): each process writes its samples there and ``/metrics`` adds them up.
"""

from __future__ import annotations

import os
import time
from datetime import timedelta

from django.utils import timezone
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily

REQUEST_SECONDS = Histogram(
    "appenda_http_request_duration_seconds", "Time to answer a request, by route (URL name) and status class.",
    ["method", "route", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
SAVES = Counter("appenda_memory_saves_total",
                "memory_save outcomes: decision saved, held or refused, with the hold or refusal code.",
                ["decision", "code"])
SEARCH_SECONDS = Histogram("appenda_memory_search_duration_seconds", "Time to answer memory_search.",
                           buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5))
THROTTLED = Counter("appenda_throttled_total", "Requests refused by a rate limit, by kind (api, login).", ["kind"])
POOL = Gauge("appenda_db_pool_connections",
             "PostgreSQL pooled connections per database: size (open), available (idle), waiting (requests "
             "waiting for one); summed over live processes.", ["database", "state"], multiprocess_mode="livesum")
POOL_SAMPLE_SECONDS = 5.0
_pool_sampled_at = 0.0

#: The saving endpoints (URL name, method) whose answers say the decision.
SAVE_ROUTES = {("turn-memory-save", "POST"), ("memory-list", "POST")}
SEARCH_ROUTES = {("turn-memory-search", "POST")}


def pool_sample(*, force: bool = False) -> None:
    """Pool usage of this process, at most every POOL_SAMPLE_SECONDS (called after requests).
    Reads only pools already open: asking a wrapper for its pool would open one."""
    global _pool_sampled_at
    now = time.monotonic()
    if not force and now - _pool_sampled_at < POOL_SAMPLE_SECONDS:
        return
    _pool_sampled_at = now
    from django.db import connections

    for alias in connections:
        pools = getattr(type(connections[alias]), "_connection_pools", None) or {}
        pool = pools.get(alias)
        if pool is None:
            continue
        stats = pool.get_stats()
        POOL.labels(alias, "size").set(stats.get("pool_size", 0))
        POOL.labels(alias, "available").set(stats.get("pool_available", 0))
        POOL.labels(alias, "waiting").set(stats.get("requests_waiting", 0))


def save_observed(status_code: int, data) -> None:
    """Counts a save from the answer the caller got (what a person or agent saw)."""
    if not isinstance(data, dict):
        return
    if status_code < 300:
        held = data.get("state") == "held"
        SAVES.labels("held" if held else "saved", (data.get("reason") or "") if held else "").inc()
        return
    from memories.reasons import REASONS

    code = data.get("code")
    if code in REASONS and REASONS[code].outcome == "refuse":  # not a 400 of a malformed request
        SAVES.labels("refused", code).inc()


class StateCollector:
    """Job and worker state from the control database, read at each scrape."""

    def collect(self):
        from django.db.models import Count

        from ops.models import JobRun, JobState, WorkerHeartbeat

        now = timezone.now()
        failures = GaugeMetricFamily("appenda_job_consecutive_failures",
                                     "Failed runs of a job since its last success.", labels=["job"])
        last_ok = GaugeMetricFamily("appenda_job_last_success_timestamp_seconds",
                                    "When a job last succeeded (Unix time; 0 = never).", labels=["job"])
        states = list(JobState.objects.order_by("name"))
        for state in states:
            failures.add_metric([state.name], state.consecutive_failures)
            last_ok.add_metric([state.name], state.last_ok_at.timestamp() if state.last_ok_at else 0)
        runs = GaugeMetricFamily("appenda_job_runs_24h", "Runs of the scheduled jobs in the last 24 hours, by job "
                                 "and status (ok, failed).", labels=["job", "status"])
        recent = JobRun.objects.filter(started_at__gte=now - timedelta(hours=24))
        for row in recent.values("job", "status").annotate(total=Count("id")).order_by("job", "status"):
            runs.add_metric([row["job"], row["status"]], row["total"])
        last = GaugeMetricFamily("appenda_job_last_duration_seconds", "How long a job's last run took.",
                                 labels=["job"])
        for state in states:
            if state.last_started_at and state.last_finished_at:
                last.add_metric([state.name], max(0.0, (state.last_finished_at - state.last_started_at).total_seconds()))
        yield from (runs, last)
        heartbeat = WorkerHeartbeat.objects.order_by("-seen_at").first()
        age = GaugeMetricFamily("appenda_worker_heartbeat_age_seconds",
                                "Seconds since a job worker last showed it was alive (-1 = never).")
        age.add_metric([], (now - heartbeat.seen_at).total_seconds() if heartbeat else -1)
        yield from (failures, last_ok, age)


def exposition() -> bytes:
    """The text a Prometheus server scrapes."""
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.MultiProcessCollector(registry)
    else:
        for collector in (REQUEST_SECONDS, SAVES, SEARCH_SECONDS, THROTTLED, POOL):
            registry.register(collector)
    pool_sample(force=True)
    registry.register(StateCollector())
    return generate_latest(registry)
