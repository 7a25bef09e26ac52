"""The base views of every API endpoint: the caller, the workspace and the objects the URL
names are resolved once, and the endpoint's row of ``appenda.api.access`` is checked, in the
one order of R-RBAC-4: 401 → 404 → 403, before the view parses anything (400).

``AppendaAPIView`` is for endpoints outside workspaces; ``WorkspaceAPIView`` adds
``self.workspace``, ``self.actor`` (capabilities, role, bot) and ``self.objects`` (the note,
turn, bot … of the URL as the caller sees them). A workspace or object the caller may not
see answers 404 — never 403 — so its existence does not leak (R-RBAC-1).
"""

from __future__ import annotations

import uuid

from rest_framework.exceptions import MethodNotAllowed
from rest_framework.views import APIView

from appenda.api.access import access_for, check_allowed, resolve_objects
from appenda.api.guards import query_params_check, url_kwargs_check
from appenda.db.fast import select_one
from appenda.db.local import local_database_register
from appenda.errors import Forbidden, NotFound
from workspaces.capabilities import Actor, actor_for
from workspaces.models import Bot, Workspace

NOT_FOUND_SENTENCE = "No such workspace, or you are not a member of it."


def workspace_by_ref(ref: str) -> Workspace | None:
    """A workspace by its id (as in URLs) or its slug; a local one gets its database alias registered."""
    try:
        workspace_id = uuid.UUID(str(ref))
    except ValueError:
        workspace = Workspace.objects.filter(slug=ref).first()
    else:  # on every API request: a prepared read (appenda.db.fast)
        workspace = select_one(Workspace, "default", id=workspace_id)
    if workspace is not None and workspace.kind == Workspace.Kind.LOCAL:
        local_database_register(workspace)
    return workspace


def _is_bot_account(user) -> bool:
    return bool(user and user.is_authenticated and Bot.objects.filter(account=user, deleted_at__isnull=True).exists())


class AppendaAPIView(APIView):
    """An endpoint outside workspaces: its access row is checked after authentication."""

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        access = self._access(request)
        url_kwargs_check(kwargs)  # text no query takes: 404, with the objects
        self.objects = resolve_objects(None, request.resolver_match.url_name, kwargs)
        if not access.agents:
            # Outside workspaces nobody holds a capability: such rows name none (a test checks).
            check_allowed(access, is_bot=_is_bot_account(request.user), can=lambda capability: False)
        query_params_check(request.query_params)  # then 400

    def _access(self, request):
        method = "GET" if request.method == "HEAD" else request.method
        if method == "OPTIONS" or not hasattr(self, method.lower()):
            raise MethodNotAllowed(request.method)
        access = access_for(request.resolver_match.url_name if request.resolver_match else None, method)
        if access is None:  # a route without a row must fail closed (and tests/test_endpoint_access.py fails)
            raise Forbidden("This endpoint has no access rule; nobody may call it.", code="no_access_rule")
        return access


class WorkspaceAPIView(AppendaAPIView):
    workspace: Workspace
    actor: Actor
    objects: dict

    def initial(self, request, *args, **kwargs):
        APIView.initial(self, request, *args, **kwargs)  # 401 first
        access = self._access(request)
        url_kwargs_check(kwargs)  # text no query takes: 404, like a workspace or object not found
        workspace = workspace_by_ref(kwargs["ws"])
        actor = actor_for(request.user, workspace) if workspace is not None else None
        if actor is None:
            raise NotFound(NOT_FOUND_SENTENCE)
        self.workspace = request.workspace = workspace
        self.actor = actor
        self.objects = resolve_objects(actor, request.resolver_match.url_name, kwargs)  # then 404
        check_allowed(access, is_bot=actor.bot is not None, can=actor.can)  # then 403
        query_params_check(request.query_params)  # then 400: query text no database takes
