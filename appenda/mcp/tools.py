"""What both MCP transports serve besides the API's own tools: ``appenda_report_read``, the tool
name → turn endpoint map, and the API's answers as MCP tool results (no Django, no httpx here)."""

from __future__ import annotations

import json
from typing import Any

import mcp_types as types

UNREPORTED_READ = {"source": "tool", "ref": "mcp host: reads not reported"}
READ_SOURCES = ["table", "web", "integration", "file", "tool"]
REPORT_READ = {
    "name": "appenda_report_read",
    "description": "Report something this conversation read besides memory (a table, a web page, an "
                   "integration's results, a file, another tool's output). The turn is tainted from then "
                   "on: its saves wait for a person to keep them.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "source": {"type": "string", "enum": READ_SOURCES, "description": "What kind of thing was read."},
            "ref": {"type": "string", "minLength": 1, "maxLength": 500,
                    "description": "Which one: a URL, a file path, a table or tool name."},
        },
        "required": ["source", "ref"],
        "additionalProperties": False,
    },
}
# tool name -> the turn's endpoint it calls
ENDPOINTS = {"appenda_memory_save": "memory_save", "appenda_memory_search": "memory_search",
             "appenda_memory_undo": "memory_undo", "appenda_report_read": "reads"}


def _text(text: str) -> types.TextContent:
    return types.TextContent(text=text)


def tool_result(name: str, body: Any) -> types.CallToolResult:
    """The API's answer as MCP content: the sentence a person or model reads first, then the JSON."""
    body = body if isinstance(body, dict) else {"result": body}
    if name == "appenda_memory_search":
        first = str(body.get("text") or "No notes found.")
    elif name == "appenda_report_read":
        first = "Read reported: this turn is tainted, so its saves wait for a person to keep them."
    else:
        first = str(body.get("show") or body.get("state") or "Done")
    return types.CallToolResult(content=[_text(first), _text(json.dumps(body, ensure_ascii=False))],
                                structured_content=body)


def error_result(code: str, detail: str) -> types.CallToolResult:
    return types.CallToolResult(content=[_text(f"{code}: {detail}")], is_error=True,
                                structured_content={"code": code, "detail": detail})
