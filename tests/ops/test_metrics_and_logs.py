"""/metrics (issue 22): protected, and counting what happened — saves by decision and code,
request latency per route, search latency; and a request id in every log line and response."""

from __future__ import annotations

import io
import json
import logging

import pytest

from ops.logs import logging_config
from ops.middleware import REQUEST_ID_HEADER
from tests.factories import ALL_DATABASES, token_client
from tests.memories.helpers import person_save, start_turn, tool_save
from tests.ops.helpers import held_save, sample, samples

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)

TOKEN = "scrape-token-7f3a"


@pytest.fixture
def scrape(client, settings):
    settings.APPENDA_METRICS_TOKEN = TOKEN

    def read() -> str:
        response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
        assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
        return response.content.decode()
    return read


def test_metrics_need_the_token_when_one_is_set(client, settings):
    settings.APPENDA_METRICS_TOKEN = TOKEN
    for headers in ({}, {"HTTP_AUTHORIZATION": "Bearer wrong"}, {"HTTP_AUTHORIZATION": TOKEN}):
        response = client.get("/metrics", **headers)
        assert response.status_code == 403 and response.json()["code"] == "metrics_forbidden"


def test_metrics_without_a_token_answer_this_machine_only(client, settings):
    settings.APPENDA_METRICS_TOKEN = None
    assert client.get("/metrics", REMOTE_ADDR="203.0.113.9").status_code == 403
    assert client.get("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 200


def test_metrics_count_saves_by_decision_and_code(owner, eu_ws, scrape):
    client = token_client(owner)
    before = scrape()
    turn = start_turn(client, eu_ws)
    assert tool_save(client, eu_ws, turn["id"], key="pref.tone", value="Keep replies short.").status_code == 201
    held_save(client, eu_ws, key="pref.color", value="Blue charts please")
    refused = person_save(client, eu_ws, key="deploy.key", value="AWS key AKIAIOSFODNN7EXAMPLE secret "
                                                                  "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
    assert refused.json()["code"] == "secret_detected"
    after = scrape()

    def grew(name, **labels):
        return sample(after, name, **labels) - sample(before, name, **labels)

    assert grew("appenda_memory_saves_total", decision="saved", code="") == 1
    assert grew("appenda_memory_saves_total", decision="held", code="tainted_turn") == 1
    assert grew("appenda_memory_saves_total", decision="refused", code="secret_detected") == 1
    assert grew("appenda_http_request_duration_seconds_count", method="POST", route="turn-memory-save",
                status="2xx") == 2


def test_metrics_time_searches_and_show_job_state(owner, eu_ws, scrape):
    client = token_client(owner)
    before = scrape()
    turn = start_turn(client, eu_ws)
    assert client.post(f"/api/v1/workspaces/{eu_ws.id}/turns/{turn['id']}/memory_search/",
                       {"query": "tone"}, format="json").status_code == 200
    after = scrape()
    assert sample(after, "appenda_memory_search_duration_seconds_count") \
        - sample(before, "appenda_memory_search_duration_seconds_count") == 1
    assert sample(after, "appenda_worker_heartbeat_age_seconds") == -1  # no worker yet: said plainly
    pools = {dict(labels)["database"] for (name, labels) in samples(after) if name == "appenda_db_pool_connections"}
    assert {"default", "region_eu"} <= pools  # the databases this test used


def test_every_response_carries_a_request_id_and_a_sane_incoming_one_is_kept(client):
    first, second = client.get("/healthz"), client.get("/healthz")
    assert len(first[REQUEST_ID_HEADER]) == 32 and first[REQUEST_ID_HEADER] != second[REQUEST_ID_HEADER]
    assert client.get("/healthz", HTTP_X_REQUEST_ID="lb-1234abcd")[REQUEST_ID_HEADER] == "lb-1234abcd"
    forged = client.get("/healthz", HTTP_X_REQUEST_ID="x\r\nSet-Cookie: a=b")[REQUEST_ID_HEADER]
    assert "Set-Cookie" not in forged and len(forged) == 32


def test_log_lines_are_json_with_the_request_id_of_their_request(owner, eu_ws):
    config = logging_config(fmt="json")["formatters"]["structured"]
    formatter = config.pop("()")(**config)
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    logger = logging.getLogger("appenda.request")
    logger.addHandler(handler)
    try:
        response = token_client(owner).get(f"/api/v1/workspaces/{eu_ws.id}/", HTTP_X_REQUEST_ID="req-abcdef12")
    finally:
        logger.removeHandler(handler)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert response.status_code == 200 and lines, stream.getvalue()
    line = lines[-1]
    assert line["request_id"] == "req-abcdef12" and line["status"] == 200 and line["route"] == "workspace-detail"
    assert line["level"] == "info" and "timestamp" in line and line["duration_ms"] >= 0
