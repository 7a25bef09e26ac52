"""R-API-1 "no input of any shape answers 500", for every input that is not a request body's
shape (those are the contracts' job, ``appenda.api.contract``): ids in URLs and query strings,
JSON nested too deep, query parameters no database stores, CSV imports of any size or text,
names longer than their columns, and what a 500 may show when one still happens.

Each class of input found by fuzzing has one test named after the requirement; every one of
them answered 500 (or read a whole upload into memory) before the fix.
"""

from __future__ import annotations

import io
import json
import logging
import re

import pytest
from django.db import DataError
from django.test import Client

from appenda.api.errors import api_exception_handler
from tables.models import Record
from tables.services import MAX_RECORDS_PER_REQUEST, records_import_csv
from tests.factories import (
    ALL_DATABASES,
    make_table,
    make_user,
    make_workspace,
    token_client,
    url,
)
from workspaces.capabilities import actor_for
from workspaces.models import Bot, Membership, Workspace
from workspaces.services import membership_get

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)

CSV_BYTES_CAP = 20 * 1024 * 1024  # what an import reads at most (tables.upload.MAX_CSV_BYTES)

# Ids no object has, of every shape fuzzing sent: not a UUID, digits Python's isdigit takes but
# int() refuses, an integer past 64 bits, a NUL byte, a long string, a UUID with spaces.
BAD_IDS = ["not-a-uuid", "¹¹", "99999999999999999999999", "%00", "x" * 3000,
           "%20123e4567-e89b-12d3-a456-426614174000%20", "-1", "0x10"]

# Every route that names an object in its path, with a method it answers.
OBJECT_ROUTES = [
    ("get", "members/{id}/"), ("patch", "members/{id}/"), ("delete", "members/{id}/"),
    ("get", "members/{id}/memories/"),
    ("get", "bots/{id}/"), ("patch", "bots/{id}/"), ("delete", "bots/{id}/"), ("get", "bots/{id}/export/"),
    ("get", "tables/{id}/"), ("get", "tables/{id}/records/"), ("post", "tables/{id}/records/"),
    ("delete", "tables/{table}/records/{id}/"),
    ("post", "turns/{id}/reads/"), ("post", "turns/{id}/memory_search/"), ("post", "turns/{id}/memory_save/"),
    ("get", "memories/{id}/"), ("patch", "memories/{id}/"), ("delete", "memories/{id}/"),
    ("post", "memories/{id}/keep/"), ("get", "memories/{id}/history/"), ("post", "memories/trash/{id}/restore/"),
    ("get", "memories/exports/{id}/"),
    ("get", "changes/{id}/"), ("post", "changes/{id}/undo/"),
]


def _call(client, method: str, path: str, data=None):
    if method in ("get", "delete"):
        return getattr(client, method)(path)
    return getattr(client, method)(path, data or {}, format="json")


@pytest.mark.parametrize("bad_id", BAD_IDS)
def test_R_API_1_an_id_of_any_shape_in_a_url_answers_404(owner, eu_ws, bad_id):
    client = token_client(owner)
    table = make_table(eu_ws, owner)
    for method, template in OBJECT_ROUTES:
        path = url(eu_ws, template.format(id=bad_id, table=table.id))
        response = _call(client, method, path)
        assert response.status_code == 404, (method, path, response.status_code)
        assert response.json()["code"] in ("not_found", "turn_unknown")
    for path in (f"/api/v1/workspaces/{bad_id}/", f"/api/v1/workspaces/{bad_id}/memories/",
                 f"/api/v1/instance/rules/{bad_id}/"):
        assert client.get(path).status_code == 404, path


@pytest.mark.parametrize("bad_id", ["not-a-uuid", "¹¹", "99999999999999999999999", "%00"])
def test_R_API_1_every_route_and_method_takes_any_id_without_a_500(owner, eu_ws, bad_id):
    """The whole URLconf, so a route added later is covered too: each object the path names
    (the workspace's own id kept real) replaced by an id of a shape fuzzing sent."""
    from tests.test_endpoint_access import api_endpoints

    client = token_client(owner)
    for route, _name, method in api_endpoints():
        if "<" not in route.replace("<str:ws>", ""):
            continue
        path = "/api/v1/" + re.sub(r"<str:(\w+)>", lambda m: str(eu_ws.id) if m[1] == "ws" else bad_id, route)
        response = _call(client, method.lower(), path)
        assert response.status_code == 404, (method, path, response.status_code)


def test_R_API_1_member_and_bot_ids_are_checked_before_they_reach_a_query(owner, eu_ws):
    """The services themselves, not only the URL resolvers, take any string: a superscript
    digit, an integer past 64 bits, a bot id that is not a UUID are "no such member/bot"."""
    from workspaces.services import bot_visible

    actor = actor_for(owner, eu_ws)
    for ref in ("¹¹", "٣", "99999999999999999999999", "1\n", "\x00", ""):
        with pytest.raises(Exception) as refused:
            membership_get(actor=actor, user_ref=ref)
        assert getattr(refused.value, "status", None) == 404, ref
    for ref in ("not-a-uuid", "\x00", "1" * 40):
        with pytest.raises(Exception) as refused:
            bot_visible(actor=actor, bot_id=ref)
        assert getattr(refused.value, "status", None) == 404, ref
    assert membership_get(actor=actor, user_ref=str(owner.pk)).user == owner


@pytest.mark.parametrize("actor_filter", ["¹¹", "٣", "99999999999999999999999", "not-an-actor"])
def test_R_API_1_an_actor_filter_of_any_shape_is_a_400_or_nothing(owner, eu_ws, actor_filter):
    response = token_client(owner).get(url(eu_ws, "changes/"), {"actor": actor_filter})
    assert response.status_code in (200, 400), response.status_code
    if response.status_code == 400:
        assert response.json()["code"] == "invalid_filter"
    else:
        assert response.json()["count"] == 0


@pytest.mark.parametrize("depth", [33, 5_000, 100_000])
def test_R_API_1_json_nested_too_deep_is_a_400(owner, eu_ws, depth):
    client = token_client(owner)
    for body in ("[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth,
                 '{"key": "k", "value": ' + "[" * depth + "]" * depth + "}"):
        response = client.post(url(eu_ws, "memories/"), data=body, content_type="application/json")
        assert response.status_code == 400, (depth, response.status_code)
        assert response.json()["code"] == "malformed_request"
        assert "nested" in response.json()["detail"]


def test_R_API_1_json_nested_within_the_limit_is_parsed(owner, eu_ws):
    client = token_client(owner)
    body = '{"key": "k", "value": ' + "[" * 30 + "]" * 30 + "}"
    response = client.post(url(eu_ws, "memories/"), data=body, content_type="application/json")
    assert response.json()["code"] != "malformed_request"


@pytest.mark.parametrize("body", [b'{"key": "\xff\xfe", "value": "v"}', b'\xed\xa0\x80',
                                  b'{"key": "k", "value": "\\ud800"}', b'{"\\udfff": 1}',
                                  b'{"key": "pref.x", "value": "a\\ud83dz"}'])
def test_R_API_1_invalid_utf8_and_lone_surrogates_in_json_are_a_400(owner, eu_ws, body):
    client = token_client(owner)
    for path in (url(eu_ws, "memories/"), "/api/v1/workspaces/", url(eu_ws, "tables/")):
        response = client.post(path, data=body, content_type="application/json")
        assert response.status_code == 400, (path, response.status_code)
        assert response.json()["code"] in ("malformed_request", "invalid_text")


QUERIES = [
    ("memories/", "layer"), ("memories/", "state"), ("memories/", "subject"), ("memories/", "q"),
    ("memories/", "pinned"), ("memories/", "limit"), ("changes/", "action"), ("changes/", "actor"),
    ("changes/", "note"), ("changes/", "layer"), ("changes/", "since"), ("tables/", "anything"),
    ("memories/trash/", "limit"),
]


@pytest.mark.parametrize("path, name", QUERIES)
def test_R_API_1_a_nul_byte_in_any_query_parameter_is_a_400(owner, eu_ws, path, name):
    client = token_client(owner)
    for value in ("\x00", "pref\x00x"):  # a lone surrogate cannot be sent in a URL (it is not UTF-8)
        response = client.get(url(eu_ws, path), {name: value})
        assert response.status_code == 400, (name, value, response.status_code)
        assert response.json()["code"] == "invalid_text" and name in response.json()["detail"]
    too_long = client.get(url(eu_ws, path), {name: "a" * 2001})
    assert too_long.status_code == 400 and too_long.json()["code"] == "too_long"
    named = client.get(url(eu_ws, path) + "?a%00b=1")
    assert named.status_code == 400 and named.json()["code"] == "invalid_text"


@pytest.mark.parametrize("value", ["¹", "٣", "99999999999999999999999", "-1", "1e3", "maybe", "table:x",
                                   ":", "table:" + "x" * 1000, " ", "2026-01-01T00:00:00+99:00"])
def test_R_API_1_query_values_of_any_shape_are_answered_without_a_500(owner, eu_ws, value):
    client = token_client(owner)
    for path, name in QUERIES:
        response = client.get(url(eu_ws, path), {name: value})
        assert response.status_code in (200, 400), (path, name, value, response.status_code)


def test_R_API_1_the_query_guard_comes_after_404_and_outside_workspaces_too(owner, eu_ws):
    client = token_client(owner)
    stranger = token_client(make_user("stranger@example.com"))
    assert stranger.get(url(eu_ws, "memories/"), {"q": "\x00"}).status_code == 404
    assert client.get("/api/v1/tools/", {"x": "\x00"}).json()["code"] == "invalid_text"
    assert client.get("/api/v1/me/", {"x": "\x00"}).status_code == 400
    assert client.get("/api/v1/tools/", {"format": "\x00"}).json()["code"] == "invalid_text"  # a real parameter


def test_R_API_1_the_query_guard_refuses_surrogates_should_a_server_pass_one():
    from django.http import QueryDict

    from appenda.api.guards import query_params_check

    for query in ({"q": "a\ud800"}, {"\udfff": "1"}, {"q": "\x00"}):
        params = QueryDict(mutable=True)
        params.update(query)
        with pytest.raises(Exception) as refused:
            query_params_check(params)
        assert getattr(refused.value, "code", None) == "invalid_text"
        assert "\ud800" not in refused.value.detail and "\udfff" not in refused.value.detail
    query_params_check(QueryDict("q=caf%C3%A9&limit=10"))


@pytest.mark.parametrize("since", ["2026-01-01T00:00:00+99:00", "2026-13-45T00:00:00", "2026-02-30",
                                   "9999-12-31T23:59:59-23:59", "0001-01-01T00:00:00+23:59",
                                   "2026-01-01T25:61:00Z", "99999-01-01"])
def test_R_API_1_an_impossible_moment_in_since_or_until_is_a_400(owner, eu_ws, since):
    client = token_client(owner)
    for name in ("since", "until"):
        response = client.get(url(eu_ws, "changes/"), {name: since})
        assert response.status_code == 400, (name, since, response.status_code)
        assert response.json()["code"] == "invalid_filter"


def _csv_table(eu_ws, owner):
    return make_table(eu_ws, owner, name="Notes", columns=[{"name": "title", "kind": "text"},
                                                           {"name": "body", "kind": "text"}])


def _import(client, workspace, table, data: bytes | str):
    return client.post(url(workspace, f"tables/{table.id}/records/import/"), data=data, content_type="text/csv")


def test_R_API_1_a_csv_import_of_any_text_is_never_a_500(owner, eu_ws):
    client = token_client(owner)
    table = _csv_table(eu_ws, owner)
    long_field = _import(client, eu_ws, table, "title,body\nok," + "a" * 200_000 + "\n")
    assert long_field.status_code == 400 and long_field.json()["code"] == "invalid_csv"
    nul = _import(client, eu_ws, table, "title,body\nfine,fine\nbad\x00cell,x\n")
    assert nul.status_code == 400 and nul.json()["code"] == "invalid_text"
    assert "line 3" in nul.json()["detail"] and "title" in nul.json()["detail"]
    not_utf8 = _import(client, eu_ws, table, b"title,body\ncaf\xe9,x\n")
    assert not_utf8.status_code == 400 and not_utf8.json()["code"] == "invalid_csv"
    surrogate = _import(client, eu_ws, table, b"title,body\n\xed\xa0\x80,x\n")
    assert surrogate.status_code == 400 and surrogate.json()["code"] == "invalid_csv"
    unterminated = _import(client, eu_ws, table, 'title,body\n"never closed,x\n')
    assert unterminated.status_code in (201, 400)
    assert Record.objects.for_workspace(eu_ws).count() == (1 if unterminated.status_code == 201 else 0)
    with_bom = _import(client, eu_ws, table, "\ufefftitle,body\nA,B\r\nC,\"multi\nline\"\r\n")
    assert with_bom.status_code == 201 and with_bom.json()["created"] == 2


def test_R_API_1_a_csv_past_the_byte_cap_is_a_413_and_nothing_is_written(owner, eu_ws):
    client = token_client(owner)
    table = _csv_table(eu_ws, owner)
    row = "t," + "b" * 2046 + "\n"  # 2 KiB rows: fewer than the row limit fits in the cap
    body = "title,body\n" + row * (CSV_BYTES_CAP // len(row) + 10)
    assert len(body.encode()) > CSV_BYTES_CAP
    response = _import(client, eu_ws, table, body)
    assert response.status_code == 413 and response.json()["code"] == "too_large"
    assert "MiB" in response.json()["detail"]
    assert Record.objects.for_workspace(eu_ws).count() == 0
    # Without a Content-Length to refuse up front, reading stops at the cap.
    from tables.upload import CSVLines

    assert len(list(CSVLines(io.BytesIO(b"a\n" * 50), max_bytes=100))) == 50
    with pytest.raises(Exception) as refused:
        list(CSVLines(io.BytesIO(b"a\n" * 51), max_bytes=100))
    assert getattr(refused.value, "status", None) == 413


def test_R_API_1_a_csv_past_the_row_limit_is_refused_before_it_is_all_read(owner, eu_ws):
    """The import reads as it parses and stops at the row after the limit: a stream that never
    ends is refused, having been read only that far."""

    class EndlessCSV(io.RawIOBase):
        def __init__(self):
            self.read_bytes = 0
            self.header = b"title,body\n"

        def readable(self):
            return True

        def readinto(self, buffer):
            chunk = (self.header + b"x,y\n" * (len(buffer) // 4))[:len(buffer)]
            self.header = b""
            buffer[:len(chunk)] = chunk
            self.read_bytes += len(chunk)
            return len(chunk)

    from tables.upload import MAX_CSV_BYTES, CSVLines

    assert MAX_CSV_BYTES == CSV_BYTES_CAP
    table = _csv_table(eu_ws, owner)
    stream = EndlessCSV()
    with pytest.raises(Exception) as refused:
        records_import_csv(actor=actor_for(owner, eu_ws), table=table,
                           text=CSVLines(stream, max_bytes=10 * MAX_CSV_BYTES))
    assert getattr(refused.value, "code", None) == "too_many_records"
    assert stream.read_bytes < (MAX_RECORDS_PER_REQUEST + 1) * 4 + 256 * 1024
    client = token_client(owner)
    over = _import(client, eu_ws, table, "title,body\n" + "x,y\n" * (MAX_RECORDS_PER_REQUEST + 1))
    assert over.status_code == 400 and over.json()["code"] == "too_many_records"
    assert Record.objects.for_workspace(eu_ws).count() == 0


def test_R_API_1_names_longer_than_their_columns_are_a_400_too_long(owner, eu_ws):
    client = token_client(owner)
    name_max = Workspace._meta.get_field("name").max_length
    too_long = "n" * (name_max + 1)
    created = client.post("/api/v1/workspaces/", {"name": too_long}, format="json")
    assert created.status_code == 400 and created.json()["code"] == "too_long"
    bot = client.post(url(eu_ws, "bots/"), {"name": "b" * (Bot._meta.get_field("name").max_length + 1)},
                      format="json")
    assert bot.status_code == 400 and bot.json()["code"] == "too_long"
    # The longest allowed bot name fits its token's name too ("bot <name>").
    longest = client.post(url(eu_ws, "bots/"), {"name": "b" * Bot._meta.get_field("name").max_length},
                          format="json")
    assert longest.status_code == 201, longest.json()
    renamed = client.patch(url(eu_ws, f"bots/{longest.json()['id']}/"), {"name": "r" * 500}, format="json")
    assert renamed.status_code == 400 and renamed.json()["code"] == "too_long"
    member = client.post(url(eu_ws, "members/"), {"email": "e" * 300 + "@example.com", "role": "viewer"},
                         format="json")
    assert member.status_code == 400 and member.json()["code"] == "too_long"
    table = client.post(url(eu_ws, "tables/"), {"name": "t" * 101, "columns": [{"name": "a", "kind": "text"}]},
                        format="json")
    assert table.status_code == 400 and table.json()["code"] == "too_long"
    column = client.post(url(eu_ws, "tables/"), {"name": "T", "columns": [{"name": "c" * 101, "kind": "text"}]},
                         format="json")
    assert column.status_code == 400 and column.json()["code"] == "too_long"
    assert Workspace.objects.count() == 1 and Bot.objects.count() == 1


def test_R_API_1_record_values_no_database_stores_are_a_400(owner, eu_ws):
    client = token_client(owner)
    table = make_table(eu_ws, owner, name="Values", columns=[{"name": "title", "kind": "text"},
                                                             {"name": "amount", "kind": "number"}])
    for record, code in (({"title": "a\x00b"}, "invalid_text"), ({"title": "a\ud800"}, "invalid_text"),
                         ({"amount": "nan"}, "invalid_value"), ({"amount": "1e999"}, "invalid_value"),
                         ({"amount": "-inf"}, "invalid_value"), ({"title": "t" * 10_001}, "invalid_value")):
        response = client.post(url(eu_ws, f"tables/{table.id}/records/"), json.dumps({"records": [record]}),
                               content_type="application/json")  # "\ud800" sent as its JSON escape
        assert response.status_code == 400, (record, response.status_code)
        assert response.json()["code"] == code, record
    assert Record.objects.for_workspace(eu_ws).count() == 0


def test_R_API_1_a_database_data_error_is_a_400_and_a_warning(caplog):
    """The safety net behind the contracts: what PostgreSQL refuses as data is the caller's
    input, never a 500; it is logged as a warning, since a contract missed it."""
    cases = [
        ("value too long for type character varying(100)", "too_long"),
        ("PostgreSQL text fields cannot contain NUL (0x00) bytes", "invalid_text"),
        ("unsupported Unicode escape sequence", "invalid_text"),
        ("integer out of range", "invalid_value"),
        ("numeric field overflow", "invalid_value"),
    ]
    for message, code in cases:
        with caplog.at_level(logging.WARNING, logger="appenda.api"):
            caplog.clear()
            response = api_exception_handler(DataError(message), {"request": None})
        assert response.status_code == 400 and response.data["code"] == code, message
        assert message not in response.data["detail"]  # the database's words stay in the log
        assert any(record.levelno == logging.WARNING for record in caplog.records)


def test_R_API_1_a_500_shows_no_settings_or_traceback(owner, eu_ws, monkeypatch, settings):
    from memories import api as memory_api

    def broken(self, request, ws):
        raise RuntimeError("SECRET_KEY leaked in a traceback")

    monkeypatch.setattr(memory_api.MemoryListView, "get", broken)
    settings.DEBUG = False
    client = Client(raise_request_exception=False)
    client.force_login(owner)
    response = client.get(url(eu_ws, "memories/"))
    assert response.status_code == 500
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["code"] == "server_error"
    text = response.content.decode()
    assert "Traceback" not in text and "SECRET_KEY" not in text and "RuntimeError" not in text


def test_R_API_1_dev_settings_keep_debug_off_unless_asked(monkeypatch):
    import importlib

    import appenda.settings.dev as dev

    try:
        for value, expected in (("", False), ("0", False), ("false", False), ("1", True), ("true", True),
                                ("True", True)):
            monkeypatch.setenv("DJANGO_DEBUG", value)
            assert importlib.reload(dev).DEBUG is expected, value
        monkeypatch.delenv("DJANGO_DEBUG")
        reloaded = importlib.reload(dev)
        assert reloaded.DEBUG is False
        assert reloaded.WHITENOISE_USE_FINDERS is True  # static files served without DEBUG
    finally:
        monkeypatch.delenv("DJANGO_DEBUG", raising=False)
        importlib.reload(dev)


def test_R_API_1_url_and_query_text_with_nul_outside_workspaces(owner):
    client = token_client(owner)
    assert client.get("/api/v1/instance/rules/%00/").status_code == 404
    assert client.get("/api/v1/instance/rules/", {"q": "\x00"}).status_code == 400


def test_R_API_1_a_member_of_another_workspace_gets_404_with_bad_text_too(owner, eu_ws):
    """Cross-workspace and cross-region: bad text never turns a 404 into something else."""
    stranger = make_user("other@example.com")
    other = make_workspace(stranger, name="Other", region="us")
    client = token_client(owner)
    for path in (url(other, "memories/%00/"), url(other, "bots/not-a-uuid/"), url(other, "members/¹¹/")):
        assert client.get(path).status_code == 404
    assert client.get(url(other, "changes/"), {"since": "2026-01-01T00:00:00+99:00"}).status_code == 404
    assert Membership.objects.filter(workspace=other).count() == 1
