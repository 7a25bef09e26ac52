"""The stdio MCP server (``python -m appenda.mcp``, issue 17, R-API-2) against a live server on
the test databases, driven by the official SDK's stdio client as a desktop host would."""

from __future__ import annotations

import asyncio
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.factories import ALL_DATABASES

ROOT = Path(__file__).resolve().parents[1]
live = pytest.mark.django_db(transaction=True, databases=ALL_DATABASES)
SECRET = "AKIA" + "IOSFODNN7EXAMPLQ"  # split so that no scanner flags this file
TOOLS = ["appenda_memory_save", "appenda_memory_search", "appenda_memory_undo", "appenda_report_read"]


@pytest.fixture
def world(transactional_db):
    from tests.factories import make_user, make_workspace
    from workspaces.tokens import token_create

    owner = make_user("owner@example.com")
    workspace = make_workspace(owner, name="Acme EU", region="eu")
    return {"ws": workspace, "ws_id": str(workspace.id), "key": token_create(user=owner)}


def run_host(base_url: str, world: dict, script, *extra: str):
    """Launch ``python -m appenda.mcp`` as a host does and run ``script(session)`` against it, in
    a thread of its own (no event loop of pytest's or the live server's in the way)."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "appenda.mcp", "--url", base_url, "--token", world["key"], "--workspace", world["ws_id"],
              *extra],
        env={"NO_PROXY": "127.0.0.1", "no_proxy": "127.0.0.1",
             **{k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "SYSTEMROOT")}},
        cwd=ROOT,
    )

    async def host():
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return await asyncio.wait_for(script(session), timeout=30)

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, host()).result(timeout=40)


def texts(result) -> list[str]:
    return [block.text for block in result.content]


@live
def test_tools_as_served_and_every_save_held_without_reports_reads(base_url, world):
    served = httpx.get(f"{base_url}/api/v1/tools/", params={"format": "mcp"}, trust_env=False).json()

    async def script(session):
        listed = (await session.list_tools()).tools
        saved = await session.call_tool("appenda_memory_save", {"key": "pref.tone", "value": "Keep replies short."})
        found = await session.call_tool("appenda_memory_search", {"query": "tone"})
        return listed, saved, found

    listed, saved, found = run_host(base_url, world, script)
    assert [tool.name for tool in listed] == TOOLS
    by_name = {tool.name: tool for tool in listed}
    for tool in served:
        assert by_name[tool["name"]].input_schema == tool["inputSchema"]
        assert by_name[tool["name"]].description == tool["description"]
    assert by_name["appenda_report_read"].input_schema["properties"]["source"]["enum"] == \
        ["table", "web", "integration", "file", "tool"]

    # The host did not declare that it reports its reads: the turn is tainted from its start.
    assert not saved.is_error
    assert texts(saved)[0] == "Waiting for you to keep it"
    assert saved.structured_content["state"] == "held"
    assert saved.structured_content["reason"] == "tainted_turn"
    assert not found.is_error and "Keep replies short." not in texts(found)[0]


@live
def test_with_reports_reads_save_search_undo_refusal_and_reported_read(base_url, world):
    async def script(session):
        steps = {"save": await session.call_tool("appenda_memory_save",
                                                 {"key": "pref.tone", "value": "Keep replies short."})}
        steps["search"] = await session.call_tool("appenda_memory_search", {"query": "tone"})
        change = steps["save"].structured_content["undo"]["change"]
        steps["undo"] = await session.call_tool("appenda_memory_undo", {"change": change})
        steps["search_after"] = await session.call_tool("appenda_memory_search", {"query": "tone"})
        steps["secret"] = await session.call_tool("appenda_memory_save",
                                                  {"key": "deploy.aws", "value": f"deploy key is {SECRET}"})
        steps["read"] = await session.call_tool("appenda_report_read",
                                                {"source": "web", "ref": "https://example.com/style-guide"})
        steps["held"] = await session.call_tool("appenda_memory_save",
                                                {"key": "pref.format", "value": "Answer in bullet points."})
        return steps

    steps = run_host(base_url, world, script, "--reports-reads")
    save = steps["save"]
    assert not save.is_error and texts(save)[0] == "Saved to memory"
    assert save.structured_content["state"] == "active" and '"state": "active"' in texts(save)[1]

    search = steps["search"]
    assert not search.is_error and "Keep replies short." in texts(search)[0]
    assert [note["key"] for note in search.structured_content["notes"]][:1] == ["pref.tone"]

    assert not steps["undo"].is_error and texts(steps["undo"])[0] == "Undone"
    assert "Keep replies short." not in texts(steps["search_after"])[0]

    secret = steps["secret"]
    assert secret.is_error and texts(secret)[0].startswith("secret_detected: ")
    assert SECRET not in texts(secret)[0]

    assert not steps["read"].is_error and steps["read"].structured_content["tainted"] is True
    held = steps["held"]
    assert texts(held)[0] == "Waiting for you to keep it" and held.structured_content["state"] == "held"
    # One session is one turn.
    assert held.structured_content["turn"] == steps["read"].structured_content["turn"]


@live
def test_an_expired_turn_is_replaced_transparently_and_stays_tainted(base_url, world):
    from django.db import connections
    from django.utils import timezone

    from memories.models import Turn

    def expire_all():  # in a thread of its own: no event loop there for Django to refuse
        try:
            Turn.objects.for_workspace(world["ws"]).update(expires_at=timezone.now() - timedelta(seconds=1))
        finally:
            connections.close_all()  # this thread's connections must not outlive the test

    async def script(session):
        read = await session.call_tool("appenda_report_read", {"source": "file", "ref": "notes.txt"})
        await asyncio.to_thread(expire_all)
        held = await session.call_tool("appenda_memory_save", {"key": "pref.tone", "value": "Keep replies short."})
        return read, held

    read, held = run_host(base_url, world, script, "--reports-reads")
    assert not held.is_error and held.structured_content["state"] == "held"
    assert held.structured_content["turn"] != read.structured_content["turn"]
