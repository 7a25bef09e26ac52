"""How a page finds its workspace and its caller — the same resolution as the API's base view.

Every workspace page is wrapped in ``workspace_page``: it resolves the Actor once with
``actor_for`` (a non-member gets 404, never 403, so a workspace's existence does not leak),
checks the page's capability (403 when missing), and turns a service's DomainError into the
answer a person understands. Pages never compare role names and never check a rule the
services check again: a crafted POST reaches the same service and is refused the same way.
"""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme

from appenda.api.base import NOT_FOUND_SENTENCE, workspace_by_ref
from appenda.db.outage import RETRY_AFTER_SECONDS
from appenda.errors import DomainError, Forbidden
from webapp.toasts import toast, toast_trigger
from workspaces.capabilities import Actor, actor_for, is_instance_admin

FORBIDDEN_SENTENCE = "Your role in this workspace does not allow this; ask a workspace admin."


def workspace_actor(request, ws: str) -> Actor:
    workspace = workspace_by_ref(ws)
    actor = actor_for(request.user, workspace) if workspace is not None else None
    if actor is None or actor.bot is not None:  # bots use the API, never these pages
        raise Http404(NOT_FOUND_SENTENCE)
    return actor


def require(actor: Actor, capability: str, detail: str | None = None) -> None:
    if not actor.can(capability):
        raise Forbidden(detail or FORBIDDEN_SENTENCE)


def back_url(request, fallback: str) -> str:
    """Where a plain (non-htmx) form goes after a POST: the page it came from, if it is ours."""
    target = request.POST.get("next") or request.headers.get("Referer") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return target
    return fallback


def error_response(request, error: DomainError, fallback: str):
    """A DomainError as a page answer: 404 and 403 keep their status; others go back with a toast.
    A 503 says when to try again (``Retry-After``), as the API's do."""
    if error.status == 404:
        raise Http404(error.detail)
    retry = {"Retry-After": str(RETRY_AFTER_SECONDS)} if error.status == 503 else {}
    if request.htmx:
        response = HttpResponse(status=error.status, headers=retry)
        return toast_trigger(response, error.detail, kind="error")
    if error.status == 403:
        return render(request, "403.html", {"detail": error.detail}, status=403)
    if request.method == "GET":  # going back could ask for this very page again
        response = render(request, "webapp/error.html", {"error": error}, status=error.status)
        for name, value in retry.items():
            response[name] = value
        return response
    toast(request, error.detail, kind="error")
    return redirect(back_url(request, fallback))


def workspace_page(capability: str | None = None):
    """Wraps a view ``view(request, actor, **kwargs)`` of the pages under /w/<ws>/."""

    def decorate(view):
        @login_required
        @wraps(view)
        def wrapped(request, ws, **kwargs):
            actor = workspace_actor(request, ws)
            request.actor = actor
            try:
                if capability:
                    require(actor, capability)
                return view(request, actor, **kwargs)
            except DomainError as error:
                return error_response(request, error, fallback=f"/w/{actor.workspace.slug}/settings/agents/memory/")

        return wrapped

    return decorate


def instance_admin_page(view):
    """Pages of the instance (required rules): instance admins only, 403 for anyone else."""

    @login_required
    @wraps(view)
    def wrapped(request, **kwargs):
        try:
            if not is_instance_admin(request.user):
                raise Forbidden("Only instance admins can write the required rules.")
            return view(request, **kwargs)
        except DomainError as error:
            return error_response(request, error, fallback="/instance/rules/")

    return wrapped
