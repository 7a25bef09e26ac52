"""The client: one ``httpx.Client`` per ``Appenda``, turns as context managers.

Retries are bounded and only where they are safe: a 503 (or an overload 429) is tried again at
most ``max_tries`` times in all, sleeping what ``Retry-After`` says, capped at
``max_retry_sleep``; a connection that failed is tried again only for GETs and for saves, which
carry an ``Idempotency-Key`` so that a save the server did make is not made twice.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from appenda_client.errors import AppendaError, Unavailable, error_for
from appenda_client.results import Context, ReadResult, SaveResult, SearchResult, UndoResult

__all__ = ["Appenda", "Turn"]

RETRY_STATUSES = frozenset({429, 503})
TURN_HEADER = "Appenda-Turn"
IDEMPOTENCY_HEADER = "Idempotency-Key"


def _retry_after_seconds(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header: a number, or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


class Appenda:
    """A connection to one Appenda server with one token (a person's or a bot's)."""

    def __init__(
        self,
        url: str,
        token: str,
        *,
        timeout: float = 30.0,
        max_tries: int = 3,
        max_retry_sleep: float = 10.0,
        backoff: float = 0.5,
        sleep: Callable[[float], None] = time.sleep,
        transport: httpx.BaseTransport | None = None,
        trust_env: bool = True,
    ):
        self.url = url.rstrip("/")
        self.max_tries = max(1, max_tries)
        self.max_retry_sleep = max_retry_sleep
        self.backoff = backoff
        self.sleep = sleep
        self._http = httpx.Client(
            base_url=self.url + "/api/v1/", timeout=timeout, transport=transport, trust_env=trust_env,
            headers={"Authorization": f"Token {token}", "Accept": "application/json",
                     "User-Agent": "appenda-client-python/0.1"},
        )

    # --- plumbing -----------------------------------------------------------------------------

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Appenda:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _delay(self, attempt: int, response: httpx.Response | None) -> float:
        told = _retry_after_seconds(response.headers.get("Retry-After")) if response is not None else None
        wanted = told if told is not None else self.backoff * (2 ** attempt)
        return min(wanted, self.max_retry_sleep)

    def request(self, method: str, path: str, *, json: Any = None, params: dict[str, Any] | None = None,
                headers: dict[str, str] | None = None) -> Any:
        """One API call (``path`` under /api/v1/), retried as the module says; the decoded JSON
        body, or None for an empty one. Raises an ``AppendaError`` subclass for error answers."""
        retry_on_connection_error = method.upper() == "GET" or IDEMPOTENCY_HEADER in (headers or {})
        for attempt in range(self.max_tries):
            last = attempt == self.max_tries - 1
            try:
                response = self._http.request(method, path.lstrip("/"), json=json, params=params, headers=headers)
            except httpx.TransportError as error:
                if last or not retry_on_connection_error:
                    raise Unavailable("connection_failed", str(error) or type(error).__name__, 0) from error
                self.sleep(self._delay(attempt, None))
                continue
            if response.is_success:
                return response.json() if response.content else None
            error = error_for(response.status_code, _json_or_text(response))
            if response.status_code in RETRY_STATUSES and isinstance(error, Unavailable) and not last:
                self.sleep(self._delay(attempt, response))
                continue
            raise error
        raise AssertionError("unreachable")  # the loop returns or raises

    # --- the API --------------------------------------------------------------------------------

    def turn(self, workspace: str, *, kind: str = "chat", bot: str | None = None, table: str | None = None,
             chat_id: str | None = None, private: bool | None = None,
             channel: dict[str, Any] | None = None) -> Turn:
        """A turn, started when the ``with`` block is entered (or by ``Turn.start()``)."""
        return Turn(self, workspace, kind=kind, bot=bot, table=table, chat_id=chat_id, private=private,
                    channel=channel)

    def tables(self, workspace: str) -> list[dict[str, Any]]:
        """The first page of the workspace's tables (``{id, name, columns, created_at}``)."""
        return list(self.request("GET", f"workspaces/{workspace}/tables/")["results"])

    def records(self, workspace: str, table: str, *, turn: str | None = None, limit: int = 50,
                offset: int = 0) -> list[dict[str, Any]]:
        """A page of a table's records; with ``turn``, the read taints that turn."""
        headers = {TURN_HEADER: turn} if turn else None
        page = self.request("GET", f"workspaces/{workspace}/tables/{table}/records/",
                            params={"limit": limit, "offset": offset}, headers=headers)
        return list(page["results"])


class Turn:
    """One turn of an agent: its context, its reads and its tool calls.

    When the server answers ``turn_unknown`` (the turn expired), a new turn of the same kind is
    started, the reads this object made are reported to it again (a turn cannot be un-tainted
    by expiring: a save after a read stays held), and the call is made once more; ``id`` and
    ``context`` then name the new turn.
    """

    def __init__(self, client: Appenda, workspace: str, *, kind: str = "chat", bot: str | None = None,
                 table: str | None = None, chat_id: str | None = None, private: bool | None = None,
                 channel: dict[str, Any] | None = None):
        self.client = client
        self.workspace = str(workspace)
        self.start_body: dict[str, Any] = {"kind": kind}
        for name, value in (("bot", bot), ("table", table), ("chat_id", chat_id), ("private", private),
                            ("channel", channel)):
            if value is not None:
                self.start_body[name] = value
        self.id: str | None = None
        self._context: Context | None = None
        self.expires_at: str | None = None
        self.reads: list[tuple[str, str]] = []  # (source, ref), replayed on a new turn
        self.restarts = 0

    def __enter__(self) -> Turn:
        if self.id is None:
            self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        return None  # a turn ends by expiring on the server; nothing to close

    @property
    def context(self) -> Context:
        if self._context is None:
            raise RuntimeError("The turn has not started: use it in a with block, or call start().")
        return self._context

    @property
    def _base(self) -> str:
        return f"workspaces/{self.workspace}/turns/"

    def start(self) -> Turn:
        body = self.client.request("POST", self._base, json=self.start_body)
        self.id = str(body["id"])
        self.expires_at = body.get("expires_at")
        self._context = Context.from_json(body.get("context") or {})
        return self

    def _restart(self) -> None:
        self.start()
        self.restarts += 1
        for source, ref in self.reads:
            self.client.request("POST", f"{self._base}{self.id}/reads/", json={"source": source, "ref": ref})

    def _call(self, make: Callable[[str], Any]) -> Any:
        """``make(turn_id)`` once, and once more in a new turn if this one is unknown."""
        if self.id is None:
            self.start()
        try:
            return make(self.id or "")
        except AppendaError as error:
            if error.code != "turn_unknown":
                raise
        self._restart()
        return make(self.id or "")

    def _post(self, tool: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
        return self._call(lambda turn_id: self.client.request(
            "POST", f"{self._base}{turn_id}/{tool}/", json=body, headers=headers))

    # --- what the agent does --------------------------------------------------------------------

    def read(self, source: str, ref: str) -> ReadResult:
        """Report something the turn read (``table``, ``web``, ``integration``, ``file``, ``tool``):
        the turn is tainted from now on, and its saves are held for a person."""
        result = ReadResult.from_json(self._post("reads", {"source": source, "ref": ref}))
        self.reads.append((source, ref))
        return result

    def records(self, table: str, *, limit: int = 50, offset: int = 0) -> list[dict[str, Any]]:
        """A table's records read in this turn (``Appenda-Turn``): the server taints the turn."""
        rows = self._call(lambda turn_id: self.client.records(self.workspace, table, turn=turn_id,
                                                              limit=limit, offset=offset))
        self.reads.append(("table", str(table)))
        return rows

    def save(self, key: str, value: str, *, layer: str | None = None, subject: dict[str, str] | None = None,
             pin: bool = False) -> SaveResult:
        """``memory_save``: saved, held for a person, or ``Refused`` with the server's code."""
        body: dict[str, Any] = {"key": key, "value": value, "pin": pin}
        if layer is not None:
            body["layer"] = layer
        if subject is not None:
            body["subject"] = subject
        # One key per logical save, the same on every retry of it, so the server can answer a
        # repeated save with the first one's result instead of saving twice.
        headers = {IDEMPOTENCY_HEADER: str(uuid.uuid4())}
        return SaveResult.from_json(self._post("memory_save", body, headers))

    def search(self, query: str, *, limit: int | None = None, layer: str | None = None,
               subject: dict[str, str] | None = None) -> SearchResult:
        """``memory_search``: the active notes this turn may read, best first."""
        body: dict[str, Any] = {"query": query}
        if limit is not None:
            body["limit"] = limit
        if layer is not None:
            body["layer"] = layer
        if subject is not None:
            body["subject"] = subject
        return SearchResult.from_json(self._post("memory_search", body))

    def undo(self, change: str | SaveResult) -> UndoResult:
        """``memory_undo``: undo a change this agent's turns made (``SaveResult.undo_change``)."""
        if isinstance(change, SaveResult):
            if change.undo_change is None:
                raise ValueError("This save has no undo handle.")
            change = change.undo_change
        return UndoResult.from_json(self._post("memory_undo", {"change": change}))


def _json_or_text(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return response.text


