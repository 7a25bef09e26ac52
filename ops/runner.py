"""Runs the scheduled jobs through Django's tasks API (django-tasks, database backend).

``schedule_tick`` enqueues each job whose time has come (one row per job says when; the row is
locked, so two workers never enqueue the same run). ``run_job`` is the task: it runs the job,
records the run (counts or error) and logs it; a failed run is retried later
(``RETRY_BACKOFF`` × attempt) up to the job's ``max_attempts``, and its failures stay visible
in ``/readyz`` and ``/metrics`` until a run succeeds.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django_tasks import task

from ops.jobs import schedule
from ops.models import JobRun, JobState

log = logging.getLogger("appenda.jobs")

QUEUE = "ops"
RETRY_BACKOFF = timedelta(minutes=2)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:500] if text else type(exc).__name__


def schedule_tick(*, now=None) -> list[str]:
    """Enqueues the jobs that are due; returns their names."""
    now = now or timezone.now()
    due = []
    for job in schedule().values():
        with transaction.atomic(using="default"):
            state, _ = JobState.objects.select_for_update().get_or_create(name=job.name,
                                                                          defaults={"next_run_at": now})
            if state.next_run_at > now:
                continue
            state.next_run_at = now + job.every
            state.save(update_fields=["next_run_at"])
            run_job.enqueue(job.name, 1)  # same database, same transaction: enqueued once
        due.append(job.name)
    return due


def job_run(*, name: str, attempt: int = 1) -> dict:
    """Runs one job now and records the run; raises if it failed (after scheduling its retry)."""
    job = schedule()[name]
    started, clock = timezone.now(), time.perf_counter()
    JobState.objects.filter(name=name).update(last_started_at=started)
    try:
        counts = job.run()
    except Exception as exc:
        counts, error = getattr(exc, "counts", {}), _first_line(exc)
        retry = attempt < job.max_attempts
        _record(name, attempt, started, JobRun.Status.FAILED, counts, error, retrying=retry)
        log.warning("job %s failed (attempt %d of %d%s): %s", name, attempt, job.max_attempts,
                    ", retrying" if retry else "", error,
                    extra={"job": name, "attempt": attempt, "counts": counts, "retrying": retry})
        if retry:
            run_job.using(run_after=timezone.now() + RETRY_BACKOFF * attempt).enqueue(name, attempt + 1)
        raise
    _record(name, attempt, started, JobRun.Status.OK, counts, "", retrying=False)
    log.info("job %s done in %.2f s: %s", name, time.perf_counter() - clock,
             ", ".join(f"{k}={v}" for k, v in counts.items()) or "nothing to do",
             extra={"job": name, "attempt": attempt, "counts": counts})
    return counts


def _record(name, attempt, started, status, counts, error, *, retrying: bool) -> None:
    finished = timezone.now()
    with transaction.atomic(using="default"):
        JobRun.objects.create(job=name, attempt=attempt, started_at=started, finished_at=finished,
                              status=status, counts=counts, error=error)
        state = JobState.objects.select_for_update().filter(name=name).first()
        if state is None:
            state = JobState(name=name, next_run_at=finished)
        state.last_finished_at, state.last_counts, state.last_error = finished, counts, error
        if status == JobRun.Status.OK:
            state.last_status, state.last_ok_at, state.consecutive_failures = "ok", finished, 0
        else:
            state.last_status = "retrying" if retrying else "failed"
            state.consecutive_failures += 1
        state.save()


@task(queue_name=QUEUE)
def run_job(name: str, attempt: int = 1) -> dict:
    return job_run(name=name, attempt=attempt)
