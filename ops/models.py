"""The scheduled jobs' state, their runs and the worker's heartbeat. Control database.

The schedule itself is code (``ops.jobs.SCHEDULE``); these rows say when each job runs next,
how its runs went (counts, errors, attempts) and when a worker last showed it was alive, which
``/readyz`` and ``/metrics`` read.
"""

from __future__ import annotations

from django.db import models


class JobState(models.Model):
    """One row per job of the schedule: when it is due, and how its last run went."""

    name = models.CharField(max_length=64, primary_key=True)
    next_run_at = models.DateTimeField()
    last_started_at = models.DateTimeField(null=True, blank=True)
    last_finished_at = models.DateTimeField(null=True, blank=True)
    last_ok_at = models.DateTimeField(null=True, blank=True)
    last_status = models.CharField(max_length=16, blank=True, default="")  # ok | failed | retrying
    last_counts = models.JSONField(default=dict, blank=True)
    last_error = models.TextField(blank=True, default="")
    consecutive_failures = models.PositiveIntegerField(default=0)


class JobRun(models.Model):
    """One attempt of one job: what it did (counts) or why it failed."""

    class Status(models.TextChoices):
        OK = "ok"
        FAILED = "failed"

    job = models.CharField(max_length=64, db_index=True)
    attempt = models.PositiveSmallIntegerField(default=1)
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField()
    status = models.CharField(max_length=16, choices=Status.choices)
    counts = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True, default="")

    class Meta:
        indexes = [models.Index(fields=["job", "-started_at"], name="ops_jobrun_job_started")]


class WorkerHeartbeat(models.Model):
    """A job worker's last sign of life (``manage.py run_jobs``, or the in-process thread)."""

    worker_id = models.CharField(max_length=64, primary_key=True)
    host = models.CharField(max_length=255, blank=True, default="")
    pid = models.PositiveIntegerField(default=0)
    in_process = models.BooleanField(default=False)
    started_at = models.DateTimeField()
    seen_at = models.DateTimeField(db_index=True)


class RateCount(models.Model):
    """Requests of one caller (``key``: a scope and a hashed token, account or address) in one
    window of its rate (``bucket``: the window's start / its length), counted by one upsert per
    request (``appenda.api.throttling``). ``expires``: when the window ends, in epoch seconds."""

    key = models.CharField(max_length=96)
    bucket = models.BigIntegerField()
    hits = models.PositiveIntegerField(default=0)
    expires = models.BigIntegerField(db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["key", "bucket"], name="ops_ratecount_key_bucket")]
