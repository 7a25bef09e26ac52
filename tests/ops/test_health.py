"""/healthz and /readyz (issue 22, R-OPS-2): every part a server needs, each with a status and
a latency; 503 naming what is not ready (a region's database or bucket, the model, the worker)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from freezegun import freeze_time

from ops.models import WorkerHeartbeat
from tests.factories import ALL_DATABASES
from tests.ops.helpers import worker_alive
from tests.regions.test_region_down import region_bucket_down, region_database_down

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)

PARTS = {"control_database", "region_eu_database", "region_eu_bucket", "region_us_database",
         "region_us_bucket", "search_model", "job_worker"}


def test_healthz_answers_while_the_process_runs(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


def test_readyz_lists_every_part_with_status_and_latency(client):
    worker_alive()
    response = client.get("/readyz")
    body = response.json()
    assert response.status_code == 200, body
    assert body["status"] == "ready" and set(body["checks"]) == PARTS
    for check in body["checks"].values():
        assert check["status"] == "ok" and check["latency_ms"] >= 0


def test_readyz_is_503_and_names_a_region_bucket_that_is_down(client, settings, tmp_path):
    worker_alive()
    with region_bucket_down(settings, "us", tmp_path):
        response = client.get("/readyz")
    body = response.json()
    assert response.status_code == 503 and int(response["Retry-After"]) > 0
    assert body["code"] == "not_ready" and body["not_ready"] == ["region us bucket"]
    assert "region us bucket" in body["detail"]
    assert body["checks"]["region_us_bucket"]["status"] == "down"
    assert body["checks"]["region_eu_bucket"]["status"] == "ok"


@pytest.mark.django_db(databases=ALL_DATABASES, transaction=True)
def test_readyz_is_503_and_names_a_region_database_that_is_down(client, tmp_path):
    worker_alive()
    with region_database_down("region_us", tmp_path):
        response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["not_ready"] == ["region us database"]
    assert client.get("/readyz").status_code == 200  # back when the region is


def test_readyz_names_a_missing_search_model(client, monkeypatch, tmp_path):
    worker_alive()
    monkeypatch.setenv("APPENDA_MODEL_DIR", str(tmp_path / "no-model"))
    response = client.get("/readyz")
    assert response.status_code == 503 and response.json()["not_ready"] == ["search model"]
    assert "prepare_search_model" in response.json()["checks"]["search_model"]["detail"]


def test_readyz_names_a_job_worker_never_seen_or_silent_too_long(client):
    response = client.get("/readyz")
    assert response.status_code == 503 and response.json()["not_ready"] == ["job worker"]
    assert "run_jobs" in response.json()["checks"]["job_worker"]["detail"]
    worker_alive()
    assert client.get("/readyz").status_code == 200
    with freeze_time(timezone.now() + timedelta(minutes=10)):
        response = client.get("/readyz")
    assert response.status_code == 503 and response.json()["not_ready"] == ["job worker"]
    assert WorkerHeartbeat.objects.count() == 1
