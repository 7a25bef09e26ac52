"""Calls to the REST API from inside the server, for the MCP HTTP transport (``appenda.mcp.http``).

The transport is a protocol adapter, not a second way in: every tool call goes through the same
view as ``POST …/turns/{turn}/memory_save/`` would, so the access table, the contract, the
idempotency store and the save pipeline hold for MCP exactly as for REST ("every entry point is
held to the promise"). The inner request carries the outer one's headers (the token, the address)
and nothing of the MCP transport's own.
"""

from __future__ import annotations

import io
import json
from typing import Any
from urllib.parse import urlencode

from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpRequest
from django.urls import resolve

# The outer request's headers that must not reach the inner call: the transport's own, and those
# the inner call sets itself.
DROPPED_HEADERS = {"HTTP_MCP_SESSION_ID", "HTTP_MCP_PROTOCOL_VERSION", "HTTP_IDEMPOTENCY_KEY", "HTTP_ACCEPT",
                   "HTTP_LAST_EVENT_ID", "CONTENT_TYPE", "CONTENT_LENGTH", "QUERY_STRING"}


class ApiAnswer:
    """The status and JSON body of an inner call."""

    def __init__(self, status: int, body: Any):
        self.status, self.body = status, body

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    @property
    def code(self) -> str:
        return str(self.body.get("code")) if isinstance(self.body, dict) and "code" in self.body else f"http_{self.status}"

    @property
    def detail(self) -> str:
        return str(self.body.get("detail", "")) if isinstance(self.body, dict) else ""


def call_api(outer: HttpRequest, method: str, path: str, *, body: dict | None = None,
             query: dict | None = None, headers: dict[str, str] | None = None) -> ApiAnswer:
    """``method path`` answered by its API view, as the caller of ``outer``."""
    data = json.dumps(body).encode() if body is not None else b""
    environ = {key: value for key, value in outer.META.items() if key not in DROPPED_HEADERS}
    environ.update({
        "REQUEST_METHOD": method, "PATH_INFO": path, "SCRIPT_NAME": "",
        "QUERY_STRING": urlencode(query or {}), "HTTP_ACCEPT": "application/json",
        "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": str(len(data)),
        "wsgi.input": io.BytesIO(data),
    })
    for name, value in (headers or {}).items():
        environ["HTTP_" + name.upper().replace("-", "_")] = value
    inner = WSGIRequest(environ)
    match = resolve(path)
    inner.resolver_match = match  # the access table is keyed by the URL's name
    response = match.func(inner, *match.args, **match.kwargs)
    if hasattr(response, "render"):
        response.render()
    try:
        answer = json.loads(response.content) if response.content else None
    except ValueError:
        answer = None
    return ApiAnswer(response.status_code, answer)
