"""Readiness: can this server do its work right now? Each part is checked and timed: the control
database, each region's database and bucket, the search model, and the job worker's last
heartbeat. ``/readyz`` answers 503 naming the parts that are not ready; the jobs' last runs are
shown alongside (a failing job is reported there and in ``/metrics``, but does not take the
server out of a load balancer: the region it could not reach is what fails readiness).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.conf import settings
from django.db import connections
from django.utils import timezone


@dataclass(frozen=True)
class Check:
    key: str  # e.g. region_us_bucket
    label: str  # e.g. region us bucket: what a person reads in "not ready: …"
    ok: bool
    latency_ms: float
    detail: str = ""

    def as_dict(self) -> dict:
        body = {"status": "ok" if self.ok else "down", "latency_ms": round(self.latency_ms, 1)}
        return {**body, "detail": self.detail} if self.detail else body


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return (text.splitlines()[0] if text else type(exc).__name__)[:200]


def _timed(key: str, label: str, probe) -> Check:
    started = time.perf_counter()
    try:
        detail = probe() or ""
    except Exception as exc:
        return Check(key, label, False, (time.perf_counter() - started) * 1000, _first_line(exc))
    return Check(key, label, True, (time.perf_counter() - started) * 1000, detail)


def _database(alias: str):
    def probe():
        connection = connections[alias]
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
                cursor.fetchone()
        except Exception:
            if not connection.in_atomic_block:
                connection.close()  # reconnect at the next use rather than reuse a broken connection
            raise
    return probe


def _bucket(region: str):
    def probe():
        from appenda.storage import store_for_region

        store_for_region(region).check()
    return probe


def _search_model():
    from memories.search.embedding import is_exported
    from memories.search.vectors import model_dir

    if not is_exported(model_dir()):
        raise RuntimeError("the search model is not prepared (search ranks by words only): "
                           "run python manage.py prepare_search_model")


def worker_stale_seconds() -> float:
    return float(getattr(settings, "APPENDA_WORKER_STALE_SECONDS", 120))


def _worker():
    from ops.models import WorkerHeartbeat

    beat = WorkerHeartbeat.objects.order_by("-seen_at").first()
    if beat is None:
        raise RuntimeError("no job worker has ever run: start python manage.py run_jobs")
    age = (timezone.now() - beat.seen_at).total_seconds()
    if age > worker_stale_seconds():
        raise RuntimeError(f"no job worker seen for {age:.0f} s (last: {beat.worker_id})")
    return f"seen {age:.0f} s ago ({'in-process' if beat.in_process else 'worker process'})"


def readiness_checks() -> list[Check]:
    checks = [_timed("control_database", "control database", _database("default"))]
    for region in settings.REGIONS:
        checks.append(_timed(f"region_{region}_database", f"region {region} database",
                             _database(settings.REGION_DB_ALIASES[region])))
        checks.append(_timed(f"region_{region}_bucket", f"region {region} bucket", _bucket(region)))
    checks.append(_timed("search_model", "search model", _search_model))
    control_ok = checks[0].ok
    checks.append(_timed("job_worker", "job worker", _worker) if control_ok
                  else Check("job_worker", "job worker", False, 0.0, "unknown: the control database is down"))
    return checks


def jobs_summary() -> dict:
    from ops.models import JobState

    return {state.name: {
        "last_status": state.last_status or "never_run",
        "last_ok_at": state.last_ok_at.isoformat() if state.last_ok_at else None,
        "next_run_at": state.next_run_at.isoformat(),
        "consecutive_failures": state.consecutive_failures,
        **({"last_error": state.last_error} if state.last_error else {}),
    } for state in JobState.objects.order_by("name")}
