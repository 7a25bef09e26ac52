"""Short messages after an action ("Note deleted · Undo"), for both kinds of request.

A plain form POST redirects, so its toast waits in the session until the next page shows it;
an htmx request gets it in the ``HX-Trigger`` header and app.js shows it at once. Either way a
toast may carry an undo handle (memories.presenters.undo_handle) for the Undo button.
"""

from __future__ import annotations

import json

SESSION_KEY = "webapp_toasts"


def toast_payload(message: str, *, kind: str = "ok", undo: dict | None = None) -> dict:
    return {"message": message, "kind": kind, "undo": undo["url"] if undo else None}


def toast(request, message: str, *, kind: str = "ok", undo: dict | None = None) -> None:
    pending = request.session.get(SESSION_KEY, [])
    request.session[SESSION_KEY] = [*pending, toast_payload(message, kind=kind, undo=undo)]


def toasts_pop(request) -> list[dict]:
    if not hasattr(request, "session"):
        return []
    return request.session.pop(SESSION_KEY, [])


def toast_trigger(response, message: str, *, kind: str = "ok", undo: dict | None = None):
    """Adds the toast to an htmx response; app.js listens for the ``appenda:toast`` event."""
    events = {"appenda:toast": toast_payload(message, kind=kind, undo=undo)}
    existing = response.headers.get("HX-Trigger")
    if existing:
        events = {**json.loads(existing), **events}
    response["HX-Trigger"] = json.dumps(events)
    return response


def after_action(request, response, message: str, *, kind: str = "ok", undo: dict | None = None):
    """The toast of an action, on whichever channel this request listens to."""
    if request.htmx:
        return toast_trigger(response, message, kind=kind, undo=undo)
    toast(request, message, kind=kind, undo=undo)
    return response
