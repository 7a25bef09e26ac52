"""The server's errors as exceptions: every answer that is not 2xx carries ``{"code", "detail"}``,
and its status picks the family."""

from __future__ import annotations

from typing import Any

# 403s that are the domain deciding against this call (memory off, a layer the turn may not
# write), as opposed to the caller lacking a right (``forbidden``, ``person_required``).
REFUSAL_CODES_403 = frozenset({
    "memory_off", "saving_off", "layer_not_allowed", "undo_needs_person", "secret_detected",
    "names_person", "names_record",
})
# A 429 with one of these is a refusal, not overload: trying again does not help.
REFUSAL_CODES_429 = frozenset({"turn_save_limit"})


class AppendaError(Exception):
    """Any error answer: ``code`` (snake_case), ``detail`` (a sentence), ``status`` (HTTP)."""

    def __init__(self, code: str, detail: str, status: int, body: dict[str, Any] | None = None):
        super().__init__(f"{status} {code}: {detail}")
        self.code = code
        self.detail = detail
        self.status = status
        self.body: dict[str, Any] = body or {}


class AuthenticationFailed(AppendaError):
    """401: no token, a wrong one, or an expired one (the detail says how to get a new one)."""


class NotFound(AppendaError):
    """404: not there, or not visible to this caller (incl. ``turn_unknown``)."""


class Forbidden(AppendaError):
    """403: visible, but this caller may not do it (``forbidden``, ``person_required``)."""


class Refused(AppendaError):
    """The server decided against this call: 400 (``secret_detected``, ``names_person``,
    ``invalid_key``, ``too_large`` …), 403 refusals (``memory_off``, ``layer_not_allowed`` …),
    429 ``turn_save_limit``. Tell the model; do not retry the same call."""


class Conflict(AppendaError):
    """409: the thing changed or is in a state that does not allow this (``note_changed`` …)."""


class Unavailable(AppendaError):
    """503 (or an overload 429), after the client's retries: ``region_unavailable``, overload."""


def error_for(status: int, body: Any) -> AppendaError:
    """The exception for an error answer; a body that is not the API's JSON still gets a code."""
    if isinstance(body, dict):
        code = str(body.get("code") or f"http_{status}")
        detail = str(body.get("detail") or "")
    else:
        code, detail, body = f"http_{status}", str(body or "")[:500], None
    family: type[AppendaError]
    if status == 401:
        family = AuthenticationFailed
    elif status == 404:
        family = NotFound
    elif status == 403:
        family = Refused if code in REFUSAL_CODES_403 else Forbidden
    elif status == 409:
        family = Conflict
    elif status == 429:
        family = Refused if code in REFUSAL_CODES_429 else Unavailable
    elif status == 503:
        family = Unavailable
    elif 400 <= status < 500:
        family = Refused
    else:
        family = AppendaError
    return family(code, detail, status, body)
