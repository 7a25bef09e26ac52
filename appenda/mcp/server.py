"""The stdio MCP server: one MCP session is one turn of the REST API (see ``appenda.mcp``)."""

from __future__ import annotations

import argparse
import os
import sys
import uuid
from typing import Any

import anyio
import httpx
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from appenda.mcp.tools import ENDPOINTS, REPORT_READ, UNREPORTED_READ, error_result, tool_result


class Refusal(Exception):
    """The API's ``{code, detail}`` answer to a call (or a transport failure, as one)."""

    def __init__(self, code: str, detail: str, status: int | None = None):
        super().__init__(f"{code}: {detail}")
        self.code, self.detail, self.status = code, detail, status


def _answer(response: httpx.Response) -> Any:
    try:
        body = response.json()
    except ValueError:
        body = None
    if response.is_success:
        return body
    if isinstance(body, dict) and "code" in body:
        raise Refusal(str(body["code"]), str(body.get("detail", "")), response.status_code)
    raise Refusal(f"http_{response.status_code}", response.text[:300] or response.reason_phrase,
                  response.status_code)


class TurnSession:
    """The API side of one MCP session: the turn, started lazily and restarted when it expires."""

    def __init__(self, http: httpx.AsyncClient, workspace: str, *, bot: str | None = None,
                 reports_reads: bool = False):
        self.http, self.workspace, self.bot, self.reports_reads = http, workspace, bot, reports_reads
        self.turn: str | None = None
        self.reads: list[dict] = []  # reported so far: told to every new turn (R-TAINT-5)
        self._lock = anyio.Lock()

    @property
    def _turns(self) -> str:
        return f"/api/v1/workspaces/{self.workspace}/turns/"

    async def _post(self, path: str, body: dict, headers: dict | None = None) -> Any:
        try:
            return _answer(await self.http.post(path, json=body, headers=headers))
        except httpx.HTTPError as error:
            raise Refusal("unavailable", f"The Appenda server could not be reached ({error}).") from error

    async def _start(self, stale: str | None = None) -> str:
        async with self._lock:
            if self.turn is None or self.turn == stale:
                body = {"kind": "chat", **({"bot": self.bot} if self.bot else {})}
                turn = str((await self._post(self._turns, body))["id"])
                # Safe by default: the host's reads are unknown. A new turn is told every read the
                # expired one had, so that expiry never un-taints the session.
                for read in ([] if self.reports_reads else [UNREPORTED_READ]) + self.reads:
                    await self._post(f"{self._turns}{turn}/reads/", read)
                self.turn = turn
            return self.turn

    async def call(self, endpoint: str, body: dict) -> Any:
        """``endpoint`` of the session's turn; once more in a new turn if the API forgot it."""
        headers = {"Idempotency-Key": str(uuid.uuid4())} if endpoint == "memory_save" else None
        turn = self.turn or await self._start()
        try:
            answer = await self._post(f"{self._turns}{turn}/{endpoint}/", body, headers)
        except Refusal as refusal:
            if refusal.code != "turn_unknown":
                raise
            turn = await self._start(stale=turn)
            answer = await self._post(f"{self._turns}{turn}/{endpoint}/", body, headers)
        if endpoint == "reads":
            self.reads.append({"source": body.get("source"), "ref": body.get("ref")})
        return answer


def build_server(session: TurnSession, served_tools: list[dict]) -> Server:
    """The MCP server: the API's tools as served (``format=mcp``) plus ``appenda_report_read``."""
    tools = [types.Tool.model_validate(tool) for tool in [*served_tools, REPORT_READ]
             if tool["name"] in ENDPOINTS]

    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        endpoint = ENDPOINTS.get(params.name)
        if endpoint is None or params.name not in {tool.name for tool in tools}:
            return error_result("unknown_tool", f"There is no tool named {params.name!r}.")
        try:
            return tool_result(params.name, await session.call(endpoint, dict(params.arguments or {})))
        except Refusal as refusal:
            return error_result(refusal.code, refusal.detail)

    return Server("appenda", instructions="Appenda agent memory: save, search and undo notes in one turn.",
                  on_list_tools=list_tools, on_call_tool=call_tool)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    env = os.environ.get
    parser = argparse.ArgumentParser(prog="python -m appenda.mcp", description=__doc__)
    parser.add_argument("--url", default=env("APPENDA_URL"), help="the Appenda server, e.g. http://127.0.0.1:8000")
    parser.add_argument("--token", default=env("APPENDA_TOKEN"), help="an API token (person's or bot's)")
    parser.add_argument("--workspace", default=env("APPENDA_WORKSPACE"), help="the workspace id")
    parser.add_argument("--bot", default=env("APPENDA_BOT"), help="a bot of yours the turns act for")
    parser.add_argument("--reports-reads", action="store_true",
                        default=env("APPENDA_MCP_REPORTS_READS", "").lower() in ("1", "true", "yes"),
                        help="the host reports every read through appenda_report_read (else: all saves held)")
    args = parser.parse_args(argv)
    for needed in ("url", "token", "workspace"):
        if not getattr(args, needed):
            parser.error(f"--{needed} is required (or APPENDA_{needed.upper()})")
    return args


async def serve(args: argparse.Namespace) -> None:
    headers = {"Authorization": f"Token {args.token}", "User-Agent": "appenda-mcp"}
    async with httpx.AsyncClient(base_url=args.url.rstrip("/"), headers=headers, timeout=30) as http:
        served = _answer(await http.get("/api/v1/tools/", params={"format": "mcp"}))
        session = TurnSession(http, args.workspace, bot=args.bot, reports_reads=args.reports_reads)
        server = build_server(session, served)
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        anyio.run(serve, args)
    except (Refusal, httpx.HTTPError) as error:
        print(f"appenda.mcp: cannot start: {error}", file=sys.stderr)
        return 1
    return 0
