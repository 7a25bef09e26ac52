"""Appenda's Python client: turns and the memory tools over the HTTP API (/api/v1/)."""

from appenda_client.client import Appenda, Turn
from appenda_client.errors import (
    AppendaError,
    AuthenticationFailed,
    Conflict,
    Forbidden,
    NotFound,
    Refused,
    Unavailable,
)
from appenda_client.results import (
    Context,
    Note,
    ReadResult,
    SaveResult,
    SearchResult,
    UndoResult,
)

__all__ = [
    "Appenda", "Turn",
    "AppendaError", "AuthenticationFailed", "Conflict", "Forbidden", "NotFound", "Refused", "Unavailable",
    "Context", "Note", "ReadResult", "SaveResult", "SearchResult", "UndoResult",
]
