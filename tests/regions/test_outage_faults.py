"""Faults that hang instead of refusing, and overload (R-REGION-3, R-OPS-1), on real servers.

- The ``us`` region's PostgreSQL server is frozen (SIGSTOP of its whole process group: the
  kernel still accepts and acknowledges, nothing answers): each ``us`` request answers 503
  ``region_unavailable`` within 5 s, while ``eu`` requests in the same process keep being served
  quickly (the per-region bulkhead holds the stuck threads to a few).
- The control database refuses connections: 503 ``control_unavailable``, not a region outage.
- The ``eu`` connection pool is exhausted: 503 ``overloaded`` with a short ``Retry-After``,
  never ``region_unavailable``; ``us`` is served meanwhile.
- The ``us`` server has no connection slot left ("too many clients"): 503 ``overloaded``, never
  ``region_unavailable``, and served again as soon as a slot frees.
- The ``us`` bucket's S3 server is frozen: an export answers 503 within 5 s and leaves no row.

The frozen servers are private to the test (a throwaway PostgreSQL with the region's tables, a
throwaway SeaweedFS), on 127.0.0.1, so freezing them touches nothing else.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import signal
import statistics
import threading
import time

import psycopg
import pytest
from django.core.management import call_command
from django.db import connection, connections

from appenda.db.local import register_alias
from appenda.db.router import REGION_APPS
from appenda.settings.regions import _database_from_url
from appenda.storage import StorageUnavailable, store_for_region
from infra.postgres import ThrowawayPostgres
from memories.models import Export
from tests.factories import ALL_DATABASES, make_workspace, token_client, url
from tests.memories.helpers import person_save

pytestmark = [
    pytest.mark.outage,
    pytest.mark.django_db(databases=ALL_DATABASES, transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="pools and server faults need PostgreSQL"),
]

BUDGET_SECONDS = 5.0
BULKHEAD = 3


def _group_signal(pid: int, sig: int) -> None:
    os.killpg(os.getpgid(pid), sig)


def _server_signal(postmaster: int, sig: int) -> None:
    """Signals a PostgreSQL server: its postmaster and every process it started (each backend
    is a session of its own, so the postmaster's process group does not hold them)."""
    children = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError), open(f"/proc/{entry}/stat") as stat:
                if int(stat.read().rsplit(")", 1)[1].split()[1]) == postmaster:
                    children.append(int(entry))
    for pid in (postmaster, *children):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)


@contextlib.contextmanager
def region_on_its_own_server(alias: str, dsn_out: list | None = None, **settings: str):
    """Points ``alias`` at a database on a throwaway PostgreSQL server of its own (``settings``
    added to its configuration), with the region's tables; yields the server's postmaster pid,
    and puts the database's DSN in ``dsn_out``."""
    server = ThrowawayPostgres(settings=settings or None)
    dsn = server.start()
    if dsn_out is not None:
        dsn_out.append(dsn.rsplit("/", 1)[0] + "/frozen_region")
    original = dict(connections.settings[alias])
    try:
        with psycopg.connect(dsn, autocommit=True) as admin:
            admin.execute("CREATE DATABASE frozen_region")
        connections[alias].close()
        connections[alias].close_pool()
        register_alias(alias, {**_database_from_url(dsn.rsplit("/", 1)[0] + "/frozen_region"),
                               "TEST": original.get("TEST", {})})
        for app_label in sorted(REGION_APPS):
            call_command("migrate", app_label, database=alias, interactive=False, verbosity=0)
        connections[alias].close()
        with open(os.path.join(server.data_dir, "postmaster.pid")) as pidfile:
            yield int(pidfile.readline())
    finally:
        with contextlib.suppress(Exception):
            connections[alias].close()
        with contextlib.suppress(Exception):
            connections[alias].close_pool()
        register_alias(alias, original)
        connections[alias].health.mark_up()
        server.stop()


def _timed_get(client, path):
    started = time.perf_counter()
    response = client.get(path)
    return response, time.perf_counter() - started


def test_R_REGION_3_a_frozen_us_server_answers_503_within_5s_while_eu_stays_fast(owner, capsys):
    eu_ws = make_workspace(owner, name="Frozen EU", region="eu")
    us_ws = make_workspace(owner, name="Frozen US", region="us")
    with region_on_its_own_server("region_us") as postmaster:
        health = connections["region_us"].health
        health.set_limit(BULKHEAD)
        client = token_client(owner)
        for workspace in (eu_ws, us_ws):
            assert person_save(client, workspace, key="pref.tone", value="Short replies.").status_code == 201
        _server_signal(postmaster, signal.SIGSTOP)
        try:
            us_answers: list = []

            def us_request():
                try:
                    us_answers.append(_timed_get(token_client(owner), url(us_ws, "memories/")))
                finally:
                    connections.close_all()

            stuck = [threading.Thread(target=us_request) for _ in range(BULKHEAD + 3)]
            for thread in stuck:
                thread.start()
            eu_timings = []
            while any(thread.is_alive() for thread in stuck) and len(eu_timings) < 200:
                response, elapsed = _timed_get(client, url(eu_ws, "memories/"))
                assert response.status_code == 200, response.content
                eu_timings.append(elapsed)
            for thread in stuck:
                thread.join(timeout=30)
        finally:
            _server_signal(postmaster, signal.SIGCONT)
        assert len(us_answers) == len(stuck)
        for response, elapsed in us_answers:
            assert response.status_code == 503, response.content
            assert response.json()["code"] == "region_unavailable" and response["Retry-After"], response.json()
            assert elapsed < BUDGET_SECONDS, f"a us request took {elapsed:.2f} s"
        eu_p95 = statistics.quantiles(eu_timings, n=20)[-1] if len(eu_timings) >= 2 else eu_timings[0]
        assert eu_p95 < 0.5, f"eu p95 {eu_p95 * 1000:.0f} ms while us was frozen"
        # Thawed: the region serves again (the next request finds it up).
        deadline = time.monotonic() + BUDGET_SECONDS
        while client.get(url(us_ws, "memories/")).status_code != 200:
            assert time.monotonic() < deadline, "us did not come back"
            time.sleep(0.2)
    with capsys.disabled():
        slowest = max(elapsed for _, elapsed in us_answers)
        print(f"\nus frozen: {len(us_answers)} us requests answered 503 in at most {slowest:.2f} s; "
              f"{len(eu_timings)} eu requests meanwhile, p95 {eu_p95 * 1000:.0f} ms")


@contextlib.contextmanager
def control_database_refusing():
    control = connections["default"]
    name = control.settings_dict["NAME"]
    params = {key: value for key, value in control.get_connection_params().items()
              if key in ("host", "port", "user", "password")}
    with psycopg.connect(dbname="postgres", autocommit=True, **params) as admin:
        quoted = control.ops.quote_name(name)
        control.close()
        admin.execute(f"ALTER DATABASE {quoted} ALLOW_CONNECTIONS false")
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", [name])
        try:
            yield
        finally:
            admin.execute(f"ALTER DATABASE {quoted} ALLOW_CONNECTIONS true")
            control.close()


def test_R_OPS_1_control_database_down_answers_control_unavailable_not_a_region(owner, eu_ws):
    client = token_client(owner)
    assert client.get(url(eu_ws, "memories/")).status_code == 200
    with control_database_refusing():
        response, elapsed = _timed_get(client, url(eu_ws, "memories/"))
    assert response.status_code == 503, response.content
    body = response.json()
    assert body["code"] == "control_unavailable" and "region" not in body, body
    assert response["Retry-After"] and elapsed < BUDGET_SECONDS
    deadline = time.monotonic() + BUDGET_SECONDS
    while client.get(url(eu_ws, "memories/")).status_code != 200:  # back up
        assert time.monotonic() < deadline
        time.sleep(0.2)


def test_R_OPS_1_an_exhausted_pool_is_overloaded_not_a_region_outage(owner, eu_ws, us_ws, monkeypatch):
    client = token_client(owner)
    for workspace in (eu_ws, us_ws):
        assert client.get(url(workspace, "memories/")).status_code == 200
    eu = connections["region_eu"]
    eu.close()  # this thread's connection back to the pool
    monkeypatch.setitem(eu.settings_dict["OPTIONS"]["pool"], "timeout", 0.5)
    pool = eu.pool
    held = [pool.getconn() for _ in range(pool.max_size)]
    try:
        response, elapsed = _timed_get(client, url(eu_ws, "memories/"))
        assert response.status_code == 503, response.content
        assert response.json()["code"] == "overloaded", response.json()
        assert int(response["Retry-After"]) <= 5 and elapsed < BUDGET_SECONDS
        assert client.get(url(us_ws, "memories/")).status_code == 200  # another pool, served
    finally:
        for borrowed in held:
            pool.putconn(borrowed)
    assert client.get(url(eu_ws, "memories/")).status_code == 200


def test_R_OPS_1_a_server_with_no_connection_slot_left_is_overloaded_not_down(owner, eu_ws, us_ws, monkeypatch):
    """A real "sorry, too many clients already": the us server allows 4 connections, and 4 other
    clients hold them."""
    dsn: list = []
    with region_on_its_own_server("region_us", dsn, max_connections="4", superuser_reserved_connections="0"):
        us = connections["region_us"]
        us.close_pool()
        monkeypatch.setitem(us.settings_dict["OPTIONS"]["pool"], "timeout", 1.0)
        client = token_client(owner)
        others = [psycopg.connect(dsn[0], autocommit=True) for _ in range(4)]
        try:
            with pytest.raises(psycopg.OperationalError, match="too many clients"):
                psycopg.connect(dsn[0]).close()
            response, elapsed = _timed_get(client, url(us_ws, "memories/"))
            assert response.status_code == 503, response.content
            assert response.json()["code"] == "overloaded", response.json()
            assert int(response["Retry-After"]) <= 5 and elapsed < BUDGET_SECONDS
            assert not us.health.is_down
            assert client.get(url(eu_ws, "memories/")).status_code == 200  # another region, served
        finally:
            for other in others:
                other.close()
        deadline = time.monotonic() + BUDGET_SECONDS
        while (answer := client.get(url(us_ws, "memories/"))).status_code != 200:
            assert answer.json()["code"] == "overloaded" and time.monotonic() < deadline, answer.json()
            time.sleep(0.2)


def _until_it_takes_a_write(store, timeout: float = 30) -> None:
    """A new SeaweedFS answers its first uploads slowly (it grows a volume), longer than the store's
    read timeout: the test's export before the freeze must meet a server already settled."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            store.put("warm-up", b"ok")
            store.delete("warm-up")
            return
        except StorageUnavailable:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


@pytest.fixture
def private_s3(settings):
    from infra.seaweedfs import ThrowawaySeaweed, ensure_bucket

    server = ThrowawaySeaweed()
    endpoint = server.start()
    try:
        config = dataclasses.replace(settings.REGION_STORAGE["us"], s3_endpoint=endpoint, bucket="frozen-us")
        ensure_bucket(endpoint, config.bucket)
        settings.REGION_STORAGE = {**settings.REGION_STORAGE, "us": config}
        store_for_region.cache_clear()
        _until_it_takes_a_write(store_for_region("us"))
        yield server
    finally:
        store_for_region.cache_clear()
        server.stop()


def test_R_REGION_3_a_frozen_us_bucket_fails_an_export_within_5s_and_leaves_no_row(owner, us_ws, private_s3,
                                                                                    capsys):
    client = token_client(owner)
    assert person_save(client, us_ws, key="pref.tone", value="Short replies.").status_code == 201
    first = client.post(url(us_ws, "memories/export/"))
    assert first.status_code == 201, first.content
    before = Export.objects.for_workspace(us_ws).count()
    _group_signal(private_s3.pid, signal.SIGSTOP)
    try:
        started = time.perf_counter()
        response = client.post(url(us_ws, "memories/export/"))
        elapsed = time.perf_counter() - started
    finally:
        _group_signal(private_s3.pid, signal.SIGCONT)
    assert response.status_code == 503, response.content
    assert response.json()["code"] == "region_unavailable" and response["Retry-After"]
    assert elapsed < BUDGET_SECONDS, f"the export took {elapsed:.2f} s"
    assert Export.objects.for_workspace(us_ws).count() == before
    with capsys.disabled():
        print(f"\nus bucket frozen: export answered 503 in {elapsed:.2f} s")
