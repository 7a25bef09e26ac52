"""Which 503 a data-store failure answers (R-OPS-1, R-REGION-3): overload is never reported as a
region outage, the control database's outage is not a region's, and a lost race is a 409.

Each error is built as Django raises it (the driver's error converted by the backend's error
wrapper, which writes the alias on it), so the mapping is tested without taking servers down;
tests/regions/test_outage_faults.py takes real ones down.
"""

from __future__ import annotations

import time

import psycopg
import pytest
from django.test import Client
from psycopg import errors as pg
from psycopg_pool import PoolTimeout

from appenda.admission import AdmissionMiddleware, mark_dequeued
from appenda.db.bulkhead import DatabaseDown, RegionBusy, health_for
from appenda.db.outage import outage_answer, outage_code
from appenda.storage import StorageUnavailable


class _PostgresLike:
    """A stand-in wrapper for Django's error conversion: psycopg's exception classes and an alias."""

    Database = psycopg
    errors_occurred = False

    def __init__(self, alias):
        self.alias = alias


def raised_by(alias: str, driver_error: Exception) -> Exception:
    from appenda.db.backends.tagging import AliasErrorWrapper

    try:
        with AliasErrorWrapper(_PostgresLike(alias)):
            raise driver_error
    except Exception as converted:  # noqa: BLE001 - the converted error is what the test inspects
        return converted
    raise AssertionError("the wrapper swallowed the error")


@pytest.mark.parametrize(("driver_error", "code"), [
    (pg.TooManyConnections("sorry, too many clients already"), "overloaded"),
    (psycopg.OperationalError("FATAL:  sorry, too many clients already"), "overloaded"),
    (pg.LockNotAvailable("canceling statement due to lock timeout"), "overloaded"),
    (pg.QueryCanceled("canceling statement due to statement timeout"), "overloaded"),
    (PoolTimeout("couldn't get a connection after 3.00 sec"), "overloaded"),
    (RegionBusy("region_eu", "overloaded"), "overloaded"),
    (pg.DeadlockDetected("deadlock detected"), "concurrent_change"),
    (pg.SerializationFailure("could not serialize access"), "concurrent_change"),
    (psycopg.OperationalError("connection refused"), "region_unavailable"),
    (RegionBusy("region_eu", "region_unavailable"), "region_unavailable"),
    (DatabaseDown("database 'region_eu' is not answering"), "region_unavailable"),
    (psycopg.InterfaceError("the connection is lost"), "region_unavailable"),
])
def test_R_OPS_1_a_region_database_error_answers_its_own_code(driver_error, code):
    error = raised_by("region_eu", driver_error)
    assert outage_code(error) == code
    status, body, headers = outage_answer(error)
    assert body["code"] == code and body["detail"]
    assert status == (409 if code == "concurrent_change" else 503)
    if status == 503:
        assert int(headers["Retry-After"]) <= (5 if code == "overloaded" else 60)


def test_R_OPS_1_the_control_database_down_is_control_unavailable_and_names_no_region():
    error = raised_by("default", psycopg.OperationalError("connection refused"))
    status, body, _ = outage_answer(error)
    assert (status, body["code"]) == (503, "control_unavailable") and "region" not in body
    # Overload of the control database is still overload.
    assert outage_code(raised_by("default", PoolTimeout("couldn't get a connection"))) == "overloaded"


def test_R_OPS_1_a_pool_timeout_on_a_database_marked_down_is_its_outage():
    health = health_for("region_codes_test", bulkhead=True)
    health.mark_down()
    try:
        assert outage_code(raised_by("region_codes_test", PoolTimeout("no connection"))) == "region_unavailable"
    finally:
        health.mark_up()
    assert outage_code(raised_by("region_codes_test", PoolTimeout("no connection"))) == "overloaded"


def test_R_OPS_1_sqlite_busy_is_overload_and_a_bucket_down_is_its_region():
    from django.db import OperationalError

    locked = OperationalError("database is locked")
    assert outage_code(locked) == "overloaded"
    status, body, _ = outage_answer(StorageUnavailable("us", OSError("timed out")))
    assert (status, body["code"], body["region"]) == (503, "region_unavailable", "us")


def test_R_OPS_1_the_bulkhead_refuses_beyond_its_size_and_frees_its_slots():
    health = health_for("region_bulkhead_test", bulkhead=True)
    health.set_limit(2)
    with health.slot(), health.slot():
        assert health.in_flight() == 2
        with pytest.raises(RegionBusy) as refused:
            with health.slot():
                pass
        # No slot freed within a second: its waiters look stuck, so the region does not answer.
        assert refused.value.kind == "region_unavailable"
        started = time.monotonic()
        with pytest.raises(RegionBusy):  # and from now on, refused at once
            with health.slot():
                pass
        assert time.monotonic() - started < 0.5
    assert health.in_flight() == 0
    with health.slot():
        pass


@pytest.mark.django_db
def test_R_OPS_1_a_request_that_queued_too_long_is_shed_before_any_work():
    anonymous = Client()
    mark_dequeued(AdmissionMiddleware(lambda request: None).max_queue_wait + 0.5)
    shed = anonymous.get("/api/v1/workspaces/")
    assert shed.status_code == 503 and shed.json()["code"] == "overloaded" and shed["Retry-After"]
    # The figure was this request's only: the next one on the thread is served (401 here).
    assert anonymous.get("/api/v1/workspaces/").status_code in (401, 403)
    stale = f"t={time.time() - 30:.3f}"
    assert anonymous.get("/api/v1/workspaces/", HTTP_X_REQUEST_START=stale).status_code == 503
    fresh = f"t={int(time.time() * 1000)}"  # milliseconds, as some proxies send it
    assert anonymous.get("/api/v1/workspaces/", HTTP_X_REQUEST_START=fresh).status_code in (401, 403)
    # Health checks are never shed.
    mark_dequeued(10.0)
    assert anonymous.get("/healthz").status_code == 200


def test_R_OPS_1_a_request_beyond_the_in_flight_limit_is_shed(monkeypatch):
    from django.test import RequestFactory

    import appenda.admission as admission

    monkeypatch.setattr(admission, "MAX_IN_FLIGHT", 1)
    answers = []

    def view(request):  # while this request is served, another one arrives
        answers.append(middleware(RequestFactory().get("/api/v1/workspaces/")))
        return "served"

    middleware = admission.AdmissionMiddleware(view)
    assert middleware(RequestFactory().get("/api/v1/workspaces/")) == "served"
    [shed] = answers
    assert shed.status_code == 503 and b"overloaded" in shed.content and shed["Retry-After"]
    answers.clear()
    assert middleware(RequestFactory().get("/api/v1/workspaces/")) == "served"  # the slot was freed
