"""The Python client (clients/python), the agent loop example and the README's quickstart
(issue 17), against a live server on the test databases; the client's retries against
``httpx.MockTransport`` (no server, no sleeping)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import uuid
from datetime import timedelta
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "clients" / "python"))

from appenda_client import (  # noqa: E402  (the client is imported from the checkout, not installed)
    Appenda,
    AppendaError,
    AuthenticationFailed,
    Conflict,
    Forbidden,
    NotFound,
    Refused,
    SaveResult,
    Unavailable,
)

from tests.factories import ALL_DATABASES  # noqa: E402

live = pytest.mark.django_db(transaction=True, databases=ALL_DATABASES)

SECRET = "AKIA" + "IOSFODNN7EXAMPLQ"  # split so that no scanner flags this file


# --- a live server and its world ----------------------------------------------------------------

@pytest.fixture
def world(transactional_db):
    from tests.factories import make_bot, make_table, make_user, make_workspace
    from workspaces.tokens import token_create

    owner = make_user("owner@example.com")
    workspace = make_workspace(owner, name="Acme EU", region="eu")
    table = make_table(workspace, owner, rows=[{"name": "Ada Lovelace", "email": "ada@example.com",
                                                "status": "lead"}])
    bot, bot_key = make_bot(workspace, owner)
    return {"owner": owner, "ws": workspace, "ws_id": str(workspace.id), "table": table,
            "key": token_create(user=owner), "bot_key": bot_key}


@pytest.fixture
def client(base_url, world):
    with Appenda(base_url, world["key"], trust_env=False) as appenda:
        yield appenda  # closed after the test: no keep-alive socket holds the server's database


# --- the client against the live server ---------------------------------------------------------

@live
def test_every_method_of_a_turn_against_the_live_server(client, world):
    with client.turn(world["ws_id"], kind="chat", table=str(world["table"].id)) as turn:
        assert turn.id and turn.context.memory == "on" and isinstance(turn.context.text, str)
        first_id = turn.id

        saved = turn.save("pref.tone", "Keep replies short.")
        assert isinstance(saved, SaveResult)
        assert (saved.state, saved.show, saved.key) == ("active", "Saved to memory", "pref.tone")
        assert saved.undo_change and not saved.held

        found = turn.search("tone", limit=5)
        assert [(n.id, n.key, n.value, n.layer) for n in found.notes][:1] == \
            [(saved.id, "pref.tone", "Keep replies short.", saved.layer)]
        assert found.notes[0].score is not None and "Keep replies short." in found.text

        undone = turn.undo(saved.undo_change)
        assert (undone.state, undone.show, undone.change) == ("done", "Undone", saved.undo_change)
        assert saved.id not in [n.id for n in turn.search("tone").notes]
        with pytest.raises(Conflict):
            turn.undo(saved)  # undone already

        read = turn.read("web", "https://example.com/style-guide")
        assert read.tainted and read.source == "web"
        held = turn.save("pref.format", "Answer in bullet points.")
        assert (held.state, held.show, held.reason) == ("held", "Waiting for you to keep it", "tainted_turn")
        assert "pref.format" not in [n.key for n in turn.search("bullet points format").notes]
        # In a tainted turn the model's own undo waits for a person too (R-AGENT-3).
        assert turn.undo(held).state == "held"
        assert turn.id == first_id and turn.restarts == 0


@live
def test_reading_a_table_in_the_turn_taints_it(client, world):
    assert [t["id"] for t in client.tables(world["ws_id"])] == [str(world["table"].id)]
    with client.turn(world["ws_id"]) as turn:
        rows = turn.records(str(world["table"].id))
        assert rows[0]["values"]["status"] == "lead"
        assert turn.save("pref.tone", "Keep replies short.").state == "held"


@live
def test_R_SAVE_2_a_secret_save_raises_refused_secret_detected(client, world):
    with client.turn(world["ws_id"]) as turn:
        with pytest.raises(Refused) as refused:
            turn.save("deploy.aws", f"deploy key is {SECRET}")
    assert (refused.value.code, refused.value.status) == ("secret_detected", 400)
    assert SECRET not in refused.value.detail


@live
def test_R_TAINT_5_an_expired_turn_is_replaced_transparently_and_stays_tainted(client, world):
    from django.utils import timezone

    from memories.models import Turn

    with client.turn(world["ws_id"], kind="chat") as turn:
        old_id = turn.id
        turn.read("web", "https://example.com/a-page")
        Turn.objects.for_workspace(world["ws"]).filter(id=old_id).update(
            expires_at=timezone.now() - timedelta(seconds=1))

        held = turn.save("pref.tone", "Keep replies short.")
        assert turn.id != old_id and turn.restarts == 1
        # The new turn was told about the old one's read: expiry does not un-taint.
        assert held.state == "held" and held.raw["turn"] == turn.id
        assert Turn.objects.for_workspace(world["ws"]).get(id=turn.id).kind == "chat"

        Turn.objects.for_workspace(world["ws"]).filter(id=turn.id).update(
            expires_at=timezone.now() - timedelta(seconds=1))
        assert turn.search("tone").notes == []  # held is never found; the call still succeeds
        assert turn.restarts == 2


@live
def test_error_families_against_the_live_server(base_url, client, world):
    with Appenda(base_url, "apd_not-a-real-token", trust_env=False) as stranger, pytest.raises(AuthenticationFailed):
        stranger.turn(world["ws_id"]).start()
    with pytest.raises(NotFound) as missing:
        client.turn(str(uuid.uuid4())).start()
    assert missing.value.status == 404
    with Appenda(base_url, world["bot_key"], trust_env=False) as bot, pytest.raises(Forbidden) as forbidden:
        bot.request("GET", f"workspaces/{world['ws_id']}/memories/")
    assert forbidden.value.code == "person_required"

    client.request("PUT", f"workspaces/{world['ws_id']}/memory-settings/", json={"enabled": False})
    with client.turn(world["ws_id"]) as turn:
        assert turn.context.memory == "off"
        with pytest.raises(Refused) as off:
            turn.save("pref.tone", "Keep replies short.")
    assert (off.value.code, off.value.status) == ("memory_off", 403)


# --- the example, run as a person would -----------------------------------------------------------

@live
def test_examples_agent_loop_runs_against_the_live_server(base_url, world):
    env = {**os.environ, "APPENDA_URL": base_url, "APPENDA_TOKEN": world["key"],
           "APPENDA_WORKSPACE": world["ws_id"], "NO_PROXY": "127.0.0.1", "no_proxy": "127.0.0.1"}
    env.pop("PYTHONPATH", None)
    run = subprocess.run([sys.executable, str(ROOT / "examples" / "agent_loop.py")], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("Turn ") and "memory is on" in lines[0]
    assert "pref.tone: Saved to memory" in lines
    assert "Found 1 note(s) for 'tone': pref.tone = Keep replies short." in lines
    assert "Read 1 record(s) of table 'Customers'; saves in this turn now wait for a person." in lines
    assert "Undo of the first save: Undone" in lines
    assert lines[-1] == "pref.format: Waiting for you to keep it"


def test_examples_agent_loop_says_what_is_missing():
    env = {k: v for k, v in os.environ.items() if not k.startswith("APPENDA_")}
    run = subprocess.run([sys.executable, str(ROOT / "examples" / "agent_loop.py")], env=env,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode != 0 and "APPENDA_URL" in run.stderr


# --- the README's quickstart names real routes ------------------------------------------------------

def _quickstart() -> str:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Quickstart for agent builders", 1)[1]
    return section.split("\n## ", 1)[0]


def test_readme_quickstart_curl_commands_name_real_routes():
    from django.urls import resolve

    section = _quickstart()
    ids = {"$WS": str(uuid.uuid4()), "$TURN": str(uuid.uuid4()), "{ws}": str(uuid.uuid4()),
           "{bot}": str(uuid.uuid4()), "{table}": str(uuid.uuid4())}
    paths = re.findall(r'"\$API(/[^"\s]*)"', section) + re.findall(r"`(?:POST |GET )?((?:…)?/[a-z][^`\s]*)", section)
    names = set()
    for raw in paths:
        raw = raw.replace("…", f"/workspaces/{ids['$WS']}")  # "…/turns/…" in prose: under a workspace
        path = raw if raw.startswith(("/api/v1/", "/settings/", "/mcp/")) else "/api/v1" + raw
        for placeholder, value in ids.items():
            path = path.replace(placeholder, value)
        names.add(resolve(path).url_name)
    assert names >= {"turn-start", "turn-memory-save", "turn-memory-search", "turn-memory-undo", "turn-reads",
                     "record-list", "my-token-list", "bot-token-rotate", "workspace-list", "my-tokens", "mcp"}, names
    assert "Authorization: Token" in section and "/settings/tokens/" in section
    assert "from appenda_client import Appenda" in section


# --- retries, without a server ------------------------------------------------------------------------

def _mock(handler) -> tuple[Appenda, list[float]]:
    slept: list[float] = []
    return Appenda("http://appenda.test", "apd_x", transport=httpx.MockTransport(handler),
                   sleep=slept.append, max_retry_sleep=5.0), slept


TURN_BODY = {"id": "t1", "kind": "chat", "private": False, "expires_at": "2030-01-01T00:00:00+00:00",
             "context": {"memory": "on", "text": "…", "notes": [], "left_out": 0}}
SAVED_BODY = {"id": "n1", "state": "active", "reason": None, "show": "Saved to memory",
              "undo": {"change": "c1", "url": "/api/v1/workspaces/w/changes/c1/undo/"}, "key": "k", "value": "v"}


def test_a_503_with_retry_after_is_retried_with_the_same_idempotency_key():
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/turns/"):
            return httpx.Response(201, json=TURN_BODY)
        seen.append(request)
        if len(seen) == 1:
            return httpx.Response(503, json={"code": "region_unavailable", "detail": "Down."},
                                  headers={"Retry-After": "2"})
        return httpx.Response(201, json=SAVED_BODY)

    appenda, slept = _mock(handler)
    with appenda.turn("w") as turn:
        saved = turn.save("k", "v")
    assert saved.state == "active" and slept == [2.0]
    keys = {r.headers["Idempotency-Key"] for r in seen}
    assert len(seen) == 2 and len(keys) == 1 and uuid.UUID(keys.pop()).version == 4
    assert seen[0].headers["Authorization"] == "Token apd_x"
    assert json.loads(seen[0].content) == {"key": "k", "value": "v", "pin": False}


def test_503s_are_tried_three_times_with_capped_sleeps_then_raise_unavailable():
    calls: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request.url.path)
        return httpx.Response(503, json={"code": "overloaded", "detail": "Busy."}, headers={"Retry-After": "3600"})

    appenda, slept = _mock(handler)
    with pytest.raises(Unavailable) as unavailable:
        appenda.turn("w").start()
    assert unavailable.value.code == "overloaded" and len(calls) == 3 and slept == [5.0, 5.0]


def test_each_save_has_its_own_key_and_a_dropped_connection_is_retried_only_for_saves():
    keys: list[str] = []
    dropped = {"save": False, "read": False}

    def handler(request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path.endswith("/turns/"):
            return httpx.Response(201, json=TURN_BODY)
        if path.endswith("/memory_save/"):
            keys.append(request.headers["Idempotency-Key"])
            if not dropped["save"]:
                dropped["save"] = True
                raise httpx.ConnectError("reset", request=request)
            return httpx.Response(201, json=SAVED_BODY)
        if not dropped["read"]:
            dropped["read"] = True
            raise httpx.ConnectError("reset", request=request)
        return httpx.Response(201, json={"tainted": True, "source": "web", "ref": "x"})

    appenda, slept = _mock(handler)
    with appenda.turn("w") as turn:
        turn.save("k", "v")
        turn.save("k", "v")
        with pytest.raises(Unavailable) as failed:
            turn.read("web", "x")  # not idempotent: not retried after a dropped connection
    assert failed.value.code == "connection_failed"
    assert len(keys) == 3 and keys[0] == keys[1] != keys[2] and slept == [0.5]


def test_turn_unknown_starts_a_new_turn_of_the_same_kind_and_replays_its_reads():
    started: list[dict] = []
    reads: list[tuple[str, dict]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path.endswith("/turns/"):
            started.append(json.loads(request.content))
            return httpx.Response(201, json={**TURN_BODY, "id": f"t{len(started)}"})
        if path.endswith("/reads/"):
            reads.append((path.split("/")[-3], json.loads(request.content)))
            return httpx.Response(201, json={"tainted": True, "source": "web", "ref": "x"})
        if "/t1/" in path:
            return httpx.Response(404, json={"code": "turn_unknown", "detail": "Start a new turn."})
        return httpx.Response(200, json={"notes": [], "text": "", "boundary": "b", "ranking": "full-text"})

    appenda, _ = _mock(handler)
    with appenda.turn("w", kind="routine", bot="b1") as turn:
        turn.read("web", "x")
        turn.search("tone")
    assert turn.id == "t2" and started == [{"kind": "routine", "bot": "b1"}] * 2
    assert reads == [("t1", {"source": "web", "ref": "x"}), ("t2", {"source": "web", "ref": "x"})]


def test_error_bodies_map_to_families():
    from appenda_client.errors import error_for

    cases = {(401, "not_authenticated"): AuthenticationFailed, (404, "turn_unknown"): NotFound,
             (403, "person_required"): Forbidden, (403, "memory_off"): Refused, (400, "names_person"): Refused,
             (409, "note_changed"): Conflict, (503, "region_unavailable"): Unavailable,
             (429, "turn_save_limit"): Refused, (500, "server_error"): AppendaError}
    for (status, code), family in cases.items():
        error = error_for(status, {"code": code, "detail": "x"})
        assert type(error) is family and (error.code, error.status) == (code, status)
    assert error_for(502, "<html>bad gateway</html>").code == "http_502"
