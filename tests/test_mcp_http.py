"""The MCP server over streamable HTTP at ``/mcp/`` (issue 17, R-API-2), driven by the official
SDK's ``streamable_http_client`` as an HTTP host would, and by raw requests as an attacker would."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import httpx
import httpx2
import pytest
from mcp.client._probe import negotiate_auto
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from tests.factories import ALL_DATABASES

live = pytest.mark.django_db(transaction=True, databases=ALL_DATABASES)
SECRET = "AKIA" + "IOSFODNN7EXAMPLQ"  # split so that no scanner flags this file
TOOLS = ["appenda_memory_save", "appenda_memory_search", "appenda_memory_undo", "appenda_report_read"]
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}


@pytest.fixture
def world(transactional_db):
    from tests.factories import make_user, make_workspace
    from workspaces.tokens import token_create

    owner = make_user("owner@example.com")
    other = make_user("other@example.com")
    workspace = make_workspace(owner, name="Acme EU", region="eu")
    return {"ws": workspace, "ws_id": str(workspace.id), "key": token_create(user=owner),
            "other_key": token_create(user=other)}


def run_host(url: str, key: str, script, *, probe: bool = False):
    """Connect as an HTTP host does (``Authorization`` header) and run ``script(session)``."""

    async def host():
        headers = {"Authorization": f"Token {key}"}
        async with httpx2.AsyncClient(headers=headers, timeout=30, trust_env=False) as http, \
                streamable_http_client(url, http_client=http) as (read, write), \
                ClientSession(read, write) as session:
            if probe:
                await negotiate_auto(session)  # the newest clients probe server/discover first
            else:
                await session.initialize()
            return await asyncio.wait_for(script(session), timeout=30)

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, host()).result(timeout=40)


def texts(result) -> list[str]:
    return [block.text for block in result.content]


def post(url: str, key: str, body: dict, **headers) -> httpx.Response:
    return httpx.post(url, json=body, headers={"Authorization": f"Token {key}", **headers}, trust_env=False,
                      timeout=20)


@live
def test_without_reports_reads_every_save_is_held(base_url, world):
    async def script(session):
        listed = (await session.list_tools()).tools
        saved = await session.call_tool("appenda_memory_save", {"key": "pref.tone", "value": "Keep replies short."})
        found = await session.call_tool("appenda_memory_search", {"query": "tone"})
        return listed, saved, found

    listed, saved, found = run_host(f"{base_url}/mcp/?workspace={world['ws_id']}", world["key"], script)
    assert [tool.name for tool in listed] == TOOLS
    assert not saved.is_error and texts(saved)[0] == "Waiting for you to keep it"
    assert saved.structured_content["state"] == "held"
    assert saved.structured_content["reason"] == "tainted_turn"
    assert "Keep replies short." not in texts(found)[0]


@live
def test_reports_reads_declared_save_search_undo_refusal_one_turn(base_url, world):
    async def script(session):
        steps = {"save": await session.call_tool("appenda_memory_save",
                                                 {"key": "pref.tone", "value": "Keep replies short."})}
        steps["search"] = await session.call_tool("appenda_memory_search", {"query": "tone"})
        change = steps["save"].structured_content["undo"]["change"]
        steps["undo"] = await session.call_tool("appenda.memory_undo", {"change": change})  # dotted alias
        steps["secret"] = await session.call_tool("appenda_memory_save",
                                                  {"key": "deploy.aws", "value": f"deploy key is {SECRET}"})
        steps["read"] = await session.call_tool("appenda_report_read", {"source": "web", "ref": "https://example.com/a"})
        steps["held"] = await session.call_tool("appenda_memory_save", {"key": "pref.format", "value": "Use bullets."})
        steps["unknown"] = await session.call_tool("appenda_shell", {"cmd": "ls"})
        return steps

    url = f"{base_url}/mcp/?workspace={world['ws_id']}&reports_reads=true"
    steps = run_host(url, world["key"], script, probe=True)
    assert steps["save"].structured_content["state"] == "active"
    assert "Keep replies short." in texts(steps["search"])[0]
    assert not steps["undo"].is_error and texts(steps["undo"])[0] == "Undone"
    assert steps["secret"].is_error and texts(steps["secret"])[0].startswith("secret_detected: ")
    assert SECRET not in texts(steps["secret"])[0]
    assert steps["held"].structured_content["state"] == "held"
    assert steps["unknown"].is_error and texts(steps["unknown"])[0].startswith("unknown_tool: ")
    # One session is one turn: every call acted in the turn initialize started.
    turns = {steps[name].structured_content["turn"] for name in ("save", "read", "held")}
    assert len(turns) == 1


@live
def test_reports_reads_as_an_initialization_option(base_url, world):
    url = f"{base_url}/mcp/?workspace={world['ws_id']}"
    init = {**INIT, "params": {**INIT["params"], "capabilities": {"experimental": {"appenda": {"reportsReads": True}}}}}
    opened = post(url, world["key"], init)
    session = opened.headers["Mcp-Session-Id"]
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "appenda_memory_save", "arguments": {"key": "pref.tone", "value": "Short."}}}
    saved = post(url, world["key"], call, **{"Mcp-Session-Id": session}).json()["result"]
    assert saved["structuredContent"]["state"] == "active"


@live
def test_a_resent_save_is_answered_once(base_url, world):
    url = f"{base_url}/mcp/?workspace={world['ws_id']}&reports_reads=1"
    session = post(url, world["key"], INIT).headers["Mcp-Session-Id"]
    call = {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
            "params": {"name": "appenda_memory_save", "arguments": {"key": "pref.tone", "value": "Short."}}}
    first = post(url, world["key"], call, **{"Mcp-Session-Id": session}).json()["result"]
    again = post(url, world["key"], call, **{"Mcp-Session-Id": session}).json()["result"]
    assert first["structuredContent"]["undo"] == again["structuredContent"]["undo"]
    from memories.models import Note
    assert Note.objects.for_workspace(world["ws"]).filter(key="pref.tone").count() == 1


@live
def test_attacker_requests_are_refused(base_url, world):
    url = f"{base_url}/mcp/?workspace={world['ws_id']}"
    # No token, a wrong token: initialize is refused as the API would refuse the turn.
    assert post(url, "not-a-token", INIT).status_code == 401
    # A workspace the caller is not in: 404, the same as for one that does not exist.
    outsider = post(url, world["other_key"], INIT)
    assert outsider.status_code == 404 and outsider.json()["error"]["data"]["code"] == "not_found"
    assert post(f"{base_url}/mcp/", world["key"], INIT).json()["error"]["data"]["code"] == "workspace_required"
    # Another caller presenting a stolen session id: the session is unknown to them.
    session = post(url, world["key"], INIT).headers["Mcp-Session-Id"]
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
    assert post(url, world["other_key"], listing, **{"Mcp-Session-Id": session}).status_code == 404
    # A forged session id naming someone's turn does not verify.
    assert post(url, world["key"], listing, **{"Mcp-Session-Id": session[:-3] + "abc"}).status_code == 404
    # No session: start with initialize.
    assert post(url, world["key"], listing).status_code == 400
    # A page of another site may not drive the endpoint (DNS rebinding).
    assert post(url, world["key"], INIT, Origin="https://evil.example").status_code == 403
    # No server stream, no client termination: 405 as the transport allows.
    assert httpx.get(url, trust_env=False).status_code == 405
    assert post(url, world["key"], [INIT, INIT]).status_code == 400  # batches are not accepted


@live
def test_an_expired_turn_ends_the_session(base_url, world):
    from django.utils import timezone

    from memories.models import Turn

    url = f"{base_url}/mcp/?workspace={world['ws_id']}"
    session = post(url, world["key"], INIT).headers["Mcp-Session-Id"]
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
    assert post(url, world["key"], listing, **{"Mcp-Session-Id": session}).status_code == 200
    Turn.objects.for_workspace(world["ws"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    call = {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
            "params": {"name": "appenda_memory_search", "arguments": {"query": "tone"}}}
    assert post(url, world["key"], call, **{"Mcp-Session-Id": session}).status_code == 404
    assert post(url, world["key"], listing, **{"Mcp-Session-Id": session}).status_code == 404


@live
def test_memory_off_lists_no_tools(base_url, world):
    from workspaces.models import Workspace

    Workspace.objects.filter(pk=world["ws"].pk).update(memory_enabled=False)
    url = f"{base_url}/mcp/?workspace={world['ws_id']}"
    session = post(url, world["key"], INIT).headers["Mcp-Session-Id"]
    listed = post(url, world["key"], {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                  **{"Mcp-Session-Id": session}).json()["result"]
    assert listed["tools"] == []
