"""The scheduled jobs run by themselves (issue 22, R-OPS-2): under a frozen clock the worker's
round expires held notes with no command run; each run is recorded with its counts; a failure
is retried, and shown in /readyz and /metrics until a run succeeds."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from freezegun import freeze_time

from memories.models import Note
from ops.models import JobRun, JobState, WorkerHeartbeat
from ops.runner import RETRY_BACKOFF
from ops.worker import in_process_running, start_in_process, stop_in_process, work_once
from tests.factories import ALL_DATABASES, token_client
from tests.ops.helpers import held_save, sample
from tests.regions.test_region_down import region_database_down

# The worker claims tasks in transactions of its own, as in production.
pytestmark = pytest.mark.django_db(databases=ALL_DATABASES, transaction=True)

JOBS = {"expire_held", "purge_trash", "purge_exports", "embed_notes", "prune_job_history"}


def runs(job: str) -> list[JobRun]:
    return list(JobRun.objects.filter(job=job).order_by("started_at", "id"))


def test_R_OPS_2_held_notes_expire_by_the_schedule_with_no_command(owner, eu_ws, us_ws):
    client = token_client(owner)
    saved_at = timezone.now()
    held_save(client, eu_ws, key="pref.color", value="Blue charts please")
    held_save(client, us_ws, key="pref.size", value="Large fonts please")
    with freeze_time(saved_at + timedelta(minutes=1)):
        assert set(work_once("worker-a")) == JOBS  # the first round runs everything once
    assert Note.objects.using("region_eu").filter(state="held").count() == 1  # not expired yet
    with freeze_time(saved_at + timedelta(minutes=5)):
        assert work_once("worker-a") == []  # nothing is due again so soon
    with freeze_time(saved_at + timedelta(hours=24, minutes=20)):
        assert "expire_held" in work_once("worker-a")
    assert not Note.objects.using("region_eu").exists() and not Note.objects.using("region_us").exists()
    last = runs("expire_held")[-1]
    assert last.status == "ok" and last.counts["held_expired"] == 2
    state = JobState.objects.get(name="expire_held")
    assert state.last_status == "ok" and state.next_run_at > saved_at + timedelta(hours=24, minutes=20)
    assert WorkerHeartbeat.objects.get(worker_id="worker-a").seen_at >= saved_at + timedelta(hours=24)
    assert DBTaskResult.objects.filter(status="SUCCESSFUL").count() == 10  # two rounds of 5, queued


def test_R_OPS_2_a_failed_job_is_retried_and_visible_until_it_succeeds(owner, eu_ws, client, settings, tmp_path):
    settings.APPENDA_METRICS_TOKEN = "scrape-me"
    start = timezone.now()
    # The clock runs during the outage: a pooled connection's wait for a region that is down ends
    # by the clock (psycopg_pool), which a frozen clock would never reach.
    with region_database_down("region_us", tmp_path):
        work_once("worker-a")
        failed = runs("expire_held")[-1]
        assert failed.status == "failed" and "us" in failed.error and failed.attempt == 1
        readyz = client.get("/readyz").json()
        metrics = client.get("/metrics", HTTP_AUTHORIZATION="Bearer scrape-me").content.decode()
    assert readyz["jobs"]["expire_held"]["last_status"] == "retrying"
    assert readyz["jobs"]["expire_held"]["consecutive_failures"] == 1
    assert sample(metrics, "appenda_job_consecutive_failures", job="expire_held") == 1
    assert sample(metrics, "appenda_job_runs_24h", job="expire_held", status="failed") == 1
    assert DBTaskResult.objects.filter(status="READY").count() >= 1  # the retry waits for its time
    with freeze_time(start + RETRY_BACKOFF + timedelta(seconds=5)):
        work_once("worker-a")
    retried = runs("expire_held")[-1]
    assert retried.status == "ok" and retried.attempt == 2
    assert JobState.objects.get(name="expire_held").consecutive_failures == 0
    metrics = client.get("/metrics", HTTP_AUTHORIZATION="Bearer scrape-me").content.decode()
    assert sample(metrics, "appenda_job_consecutive_failures", job="expire_held") == 0
    assert sample(metrics, "appenda_job_runs_24h", job="expire_held", status="ok") == 1
    assert sample(metrics, "appenda_job_last_duration_seconds", job="expire_held") >= 0


def test_the_jobs_thread_runs_in_process_only_when_asked(settings):
    assert not in_process_running()  # importing the app and its tests started nothing
    settings.APPENDA_JOBS_TICK_SECONDS = 0.2
    start_in_process()
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not JobRun.objects.filter(job="expire_held").exists():
            time.sleep(0.1)
        assert WorkerHeartbeat.objects.get().in_process
        assert JobRun.objects.filter(job="expire_held", status="ok").exists()
    finally:
        stop_in_process()
    assert not in_process_running()


def test_job_history_older_than_30_days_is_pruned_by_its_own_job():
    from ops.jobs import prune_job_history

    now = timezone.now()
    for age in (timedelta(days=31), timedelta(days=29)):
        JobRun.objects.create(job="expire_held", started_at=now - age, finished_at=now - age, status="ok")
    assert prune_job_history()["job_runs_pruned"] == 1
    assert list(JobRun.objects.values_list("started_at", flat=True)) == [now - timedelta(days=29)]
