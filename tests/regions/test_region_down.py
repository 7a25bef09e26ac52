"""R-REGION-3: a region whose database or bucket is down answers 503 region_unavailable within 2 s,
the other region keeps serving, and nothing is half-written.

On PostgreSQL the ``us`` database really refuses: ``ALTER DATABASE … ALLOW_CONNECTIONS false`` and
its backends are terminated, so the server itself turns new connections away (the eu database on
the same server keeps serving). On the embedded SQLite default the ``us`` alias points at a file
that cannot be opened. The ``us`` bucket is pointed at an S3 endpoint where nothing listens (or,
for the local folder store, at a folder that cannot be created).
"""

from __future__ import annotations

import contextlib
import dataclasses
import socket
import time

import pytest
from django.db import OperationalError, connections
from django.test import Client

from appenda.storage import store_for_region
from memories.models import Export, Note, NoteChange
from tests.factories import ALL_DATABASES, make_workspace, token_client, url
from tests.memories.helpers import person_save

BUDGET_SECONDS = 2.0


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # nothing listens there once the probe is closed


@contextlib.contextmanager
def region_database_down(alias: str, tmp_path):
    connection = connections[alias]
    if connection.vendor == "postgresql":
        name = connection.settings_dict["NAME"]
        connection.close()
        with connections["default"].cursor() as cursor:
            cursor.execute(f"ALTER DATABASE {connection.ops.quote_name(name)} ALLOW_CONNECTIONS false")
            cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s "
                           "AND pid <> pg_backend_pid()", [name])
        try:
            yield
        finally:
            with connections["default"].cursor() as cursor:
                cursor.execute(f"ALTER DATABASE {connection.ops.quote_name(name)} ALLOW_CONNECTIONS true")
            connection.close()
    else:
        dead_settings = {**connection.settings_dict, "NAME": str(tmp_path / "no-such-folder" / "region.sqlite3")}
        connections[alias] = connection.__class__(dead_settings, alias)
        try:
            yield
        finally:
            connections[alias] = connection  # the in-memory test database was never closed


@contextlib.contextmanager
def region_bucket_down(settings, region: str, tmp_path):
    config = settings.REGION_STORAGE[region]
    if config.s3_endpoint:
        dead = dataclasses.replace(config, s3_endpoint=f"http://127.0.0.1:{_closed_port()}")
    else:
        blocker = tmp_path / "a-file-not-a-folder"
        blocker.write_text("objects cannot be stored under a file")
        dead = dataclasses.replace(config, local_root=blocker / "objects")
    settings.REGION_STORAGE = {**settings.REGION_STORAGE, region: dead}
    store_for_region.cache_clear()
    try:
        yield
    finally:
        settings.REGION_STORAGE = {**settings.REGION_STORAGE, region: config}
        store_for_region.cache_clear()


def timed(call):
    started = time.perf_counter()
    response = call()
    return response, time.perf_counter() - started


def assert_unavailable(response, elapsed, region: str):
    assert response.status_code == 503, response.content
    body = response.json()
    assert body["code"] == "region_unavailable" and body["region"] == region, body
    assert response["Retry-After"]
    assert elapsed < BUDGET_SECONDS, f"503 took {elapsed:.2f} s"


def assert_consistent(workspace):
    """No note without the change that wrote it; no export row without its object."""
    notes = list(Note.objects.for_workspace(workspace).values_list("id", flat=True))
    changed = set(NoteChange.objects.for_workspace(workspace).filter(note_id__in=notes).values_list("note_id", flat=True))
    assert set(notes) == changed
    store = store_for_region(workspace.region)
    stored = set(store.list(f"workspaces/{workspace.id}/"))
    for export in Export.objects.for_workspace(workspace):
        assert export.object_key in stored


@pytest.mark.outage
@pytest.mark.django_db(databases=ALL_DATABASES, transaction=True)
def test_R_REGION_3_us_database_down_answers_503_fast_while_eu_serves(owner, tmp_path, capsys):
    eu_ws = make_workspace(owner, name="Outage EU", region="eu")
    us_ws = make_workspace(owner, name="Outage US", region="us")
    client = token_client(owner)
    for workspace in (eu_ws, us_ws):
        assert person_save(client, workspace, key="pref.before", value="Saved before the outage.").status_code == 201
    us_export = client.post(url(us_ws, "memories/export/")).json()

    timings = []
    with region_database_down("region_us", tmp_path):
        for call in (
            lambda: client.get(url(us_ws, "memories/")),
            lambda: person_save(client, us_ws, key="pref.during", value="Saved while the database is down."),
            lambda: client.post(url(us_ws, "memories/export/")),
            lambda: client.post(url(us_ws, "turns/"), {"kind": "chat"}, format="json"),
            lambda: client.get(url(us_ws, f"memories/exports/{us_export['id']}/")),
        ):
            response, elapsed = timed(call)
            assert_unavailable(response, elapsed, "us")
            timings.append(elapsed)
        served, _ = timed(lambda: person_save(client, eu_ws, key="pref.during", value="The eu region serves."))
        assert served.status_code == 201, served.json()
        assert client.post(url(eu_ws, "memories/export/")).status_code == 201
    with capsys.disabled():
        print(f"\nus database down: 503 in at most {max(timings) * 1000:.0f} ms")

    # Back up: the us region serves again; nothing of the refused requests was written.
    assert client.get(url(us_ws, "memories/")).status_code == 200
    keys = set(Note.objects.for_workspace(us_ws).values_list("key", flat=True))
    assert keys == {"pref.before"}
    assert person_save(client, us_ws, key="pref.after", value="Saved after the outage.").status_code == 201
    for workspace in (eu_ws, us_ws):
        assert_consistent(workspace)


@pytest.mark.outage
@pytest.mark.django_db(databases=ALL_DATABASES, transaction=True)
def test_R_REGION_3_us_bucket_down_refuses_exports_without_half_written_rows(owner, settings, tmp_path, capsys):
    eu_ws = make_workspace(owner, name="Bucket EU", region="eu")
    us_ws = make_workspace(owner, name="Bucket US", region="us")
    client = token_client(owner)
    for workspace in (eu_ws, us_ws):
        person_save(client, workspace, key="pref.tone", value="Short replies.")

    with region_bucket_down(settings, "us", tmp_path):
        response, elapsed = timed(lambda: client.post(url(us_ws, "memories/export/")))
        assert_unavailable(response, elapsed, "us")
        assert not Export.objects.for_workspace(us_ws).exists()
        # Notes do not need the bucket: saving in us still works; eu exports still work.
        assert person_save(client, us_ws, key="pref.units", value="Metric.").status_code == 201
        assert client.post(url(eu_ws, "memories/export/")).status_code == 201
    with capsys.disabled():
        print(f"\nus bucket down: 503 in {elapsed * 1000:.0f} ms")

    assert client.post(url(us_ws, "memories/export/")).status_code == 201
    for workspace in (eu_ws, us_ws):
        assert_consistent(workspace)


class RegionDownMiddleware:
    """Raises what a middleware reading a region that is down would raise."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.headers.get("X-Test-Region-Down"):
            raise OperationalError('connection to server failed: database "region_us" does not accept connections')
        return self.get_response(request)


@pytest.mark.django_db(databases=ALL_DATABASES)
def test_R_REGION_3_an_outage_raised_in_a_middleware_is_a_503_too(owner, us_ws, settings):
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, "tests.regions.test_region_down.RegionDownMiddleware"]
    client = Client(raise_request_exception=False)
    client.force_login(owner)
    api = client.get(url(us_ws, "memories/"), HTTP_X_TEST_REGION_DOWN="1")
    assert api.status_code == 503 and api.json() == {**api.json(), "code": "region_unavailable", "region": "us"}
    page = client.get("/", HTTP_X_TEST_REGION_DOWN="1")
    assert page.status_code == 503 and b"cannot be reached" in page.content
    assert client.get(url(us_ws, "memories/")).status_code == 200
